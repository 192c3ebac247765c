"""The procès-verbal: the formal record of a game, or of the whole evening, that the organisers
sign and keep (a PDF, in French). It says what the report says, in the order an inspector reads
it: the program announced, then for each game the numbers in order with their times, the
draw's commitment and its seed with the check, the claims and their verdicts, the ex aequo
with their tokens, the lots awarded, the disputes with their reasons; for the evening, the
paper cartons of the série reconciled, the till's totals, the closing and the journal's last
hash; and the signatures.
"""

from __future__ import annotations

from loto_app.records.export import _Doc, when
from loto_app.records.report import EveningReport, GameReport
from loto_app.wording import euros


class _Verbal(_Doc):
    """A procès-verbal: the report's parts, a preamble and the signatures."""

    KIND = "Procès-verbal"

    def preamble(self, games: list[GameReport]) -> None:
        r = self.r
        played = [g for g in games if g.started_at]
        source = dict(r.settings).get("Tirage", "")
        self.para(
            "Le présent procès-verbal constate le déroulement de "
            + (
                f"la partie {games[0].number} de la soirée « {r.name} »"
                if len(games) == 1
                else f"la soirée « {r.name} »"
            )
            + f", le {r.date}, série « {r.series} » (code de la soirée : {r.join_code}). "
            f"Tirage : {source}. Il est établi d'après le journal de la soirée, dont chaque "
            "entrée est horodatée et chaînée à la précédente par une empreinte SHA-256.",
            10,
        )
        self.pdf.ln(2)
        self.heading("Programme annoncé", 11)
        rows = [
            (g.number, s.label, s.lot, euros(s.lot_value_cents), "oui" if s.divisible else "non")
            for g in games
            for s in g.stages
        ]
        self.table(("Partie", "Étape", "Lot", "Valeur", "Divisible"), rows, (16, 34, 86, 26, 24))
        if len(games) > 1:
            self.para(f"Parties jouées : {len(played)} sur {len(games)}.", 9)

    def game_status(self, g: GameReport) -> None:
        if g.interrupted:
            self.para(
                f"Partie interrompue par la clôture de la soirée (motif : {self.r.close_reason}).",
                9,
                bold=True,
            )

    def signatures(self) -> None:
        pdf = self.pdf
        if pdf.get_y() > pdf.h - 60:
            pdf.add_page()
        self.heading("Signatures", 11)
        self.para("Fait à ______________________________, le ____ / ____ / ________", 10)
        pdf.ln(4)
        width = (pdf.w - pdf.l_margin - pdf.r_margin - 8) / 3
        y = pdf.get_y()
        for i, who in enumerate(("L'organisateur", "L'animateur", "Le trésorier")):
            x = pdf.l_margin + i * (width + 4)
            pdf.rect(x, y, width, 28)
            pdf.set_xy(x + 2, y + 2)
            self.font(9, True)
            pdf.cell(width - 4, 5, self.t(who))
        pdf.set_xy(pdf.l_margin, y + 32)

    def journal(self) -> None:
        a = self.r.audit
        self.heading("Journal", 11)
        self.para(
            f"{a.entries} entrées, de {when(a.first_at)} à {when(a.last_at)} ; "
            + ("aucune anomalie." if a.ok else "ANOMALIES (voir le rapport)."),
            9,
            bold=not a.ok,
        )
        self.pdf.set_font(self.f.mono, "", 7)
        self.pdf.multi_cell(
            0, 4, self.t(f"Dernière empreinte (n° {a.last_seq}) : {a.last_hash}"), new_x="LMARGIN"
        )

    def evening(self) -> bytes:
        r = self.r
        self.title()
        self.preamble(list(r.games))
        for g in r.games:
            if g.started_at:
                self.game(g)
                self.game_status(g)
        self.heading("Caisse", 13)
        self.totals()
        self.paper()
        self.closing()
        self.journal()
        self.signatures()
        return bytes(self.pdf.output())

    def one_game(self, g: GameReport) -> bytes:
        self.title()
        self.preamble([g])
        self.game(g)
        self.game_status(g)
        self.journal()
        self.signatures()
        return bytes(self.pdf.output())


def evening_pv(report: EveningReport, *, unicode_font: bool = True) -> bytes:
    """The procès-verbal of the whole evening (A4 PDF, French)."""
    title = f"Procès-verbal de la soirée — {report.name}"
    return _Verbal(report, unicode_font=unicode_font, title=title).evening()


def game_pv(report: EveningReport, number: int, *, unicode_font: bool = True) -> bytes:
    """The procès-verbal of one game (`number`: 1 for the first).

    Raises:
        ValueError: no such game, or it has not started.
    """
    game = next((g for g in report.games if g.number == number), None)
    if game is None or game.started_at is None:
        raise ValueError(f"game {number} has not been played")
    title = f"Procès-verbal de la partie {number} — {report.name}"
    return _Verbal(report, unicode_font=unicode_font, title=title).one_game(game)


__all__ = ["evening_pv", "game_pv"]
