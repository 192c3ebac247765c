"""The evening report as files for the treasurer: CSV (French Excel / LibreOffice) and PDF.

CSV: UTF-8 with a byte-order mark, `;` separated, amounts with a decimal comma ("15,00") and
times in the hall's time ("2025-03-01 20:15:03"). The file is a series of blocks, one per
table, separated by an empty line; each block starts with a header row whose first cell is
`section`, and every data row starts with the block's section name (`soiree`, `joueurs`,
`parties`, `etapes`, `tirages`, `numeros` (each number's frequency over the evening and each
game's duration), `engagements`, `annonces`, `ex_aequo`, `lots`, `litiges`, `ventes`, `totaux`,
`papier`, `refus`, `cloture`, `audit`).
`read_report_csv` reads such a file back.

PDF: A4, in French: title and summary, each game with its numbers drawn (with times and
corrections), claims, ex aequo and lots, then the sales, the till's totals and the audit check.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from fpdf.fonts import FontFace

from loto_app.domain.till import SaleStatus, refunded
from loto_app.records import numbers
from loto_app.records._pdf import new_pdf
from loto_app.records.report import EveningReport, GameReport, local_time
from loto_app.wording import euros

SECTIONS = (
    "soiree",
    "joueurs",
    "parties",
    "etapes",
    "tirages",
    "numeros",
    "engagements",
    "annonces",
    "ex_aequo",
    "lots",
    "litiges",
    "ventes",
    "totaux",
    "papier",
    "refus",
    "cloture",
    "audit",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# ---------------------------------------------------------------------- formatting


def when(at: datetime | None) -> str:
    """A report time as the hall reads it ("2025-03-01 20:15:03"), or ""."""
    return local_time(at).strftime("%Y-%m-%d %H:%M:%S") if at else ""


def hour(at: datetime | None) -> str:
    """Only the time of day ("20:15:03"), or ""."""
    return local_time(at).strftime("%H:%M:%S") if at else ""


def amount(cents: int) -> str:
    """An amount for a spreadsheet in French: 1500 -> "15,00"."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    return f"{sign}{whole},{frac:02d}"


def yes_no(flag: bool) -> str:
    """French yes / no."""
    return "oui" if flag else "non"


def _cell(value: Any) -> str:
    """A CSV cell; free text that a spreadsheet would run as a formula is quoted with "'"."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return yes_no(value)
    text = str(value)
    if text.startswith(_FORMULA_START) and not _is_number(text):
        return "'" + text
    return text


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", "."))
    except ValueError:
        return False
    return True


def _nos(nos: Iterable[int]) -> str:
    return " ".join(str(n) for n in nos)


# ---------------------------------------------------------------------- CSV


def _blocks(r: EveningReport) -> list[tuple[str, Sequence[str], list[Sequence[Any]]]]:
    """(section, columns, rows) of every table of the report."""
    t = r.till
    a = r.audit
    played = [g for g in r.games if g.started_at]
    soiree: list[Sequence[Any]] = [
        ("Soirée", r.name),
        ("Date", r.date),
        ("Code pour rejoindre", r.join_code),
        ("Série", r.series),
        *r.settings,
        ("Joueurs", len(r.players)),
        *((f"Joueurs : {label}", n) for _, label, n in r.origins),
        *(r.remote.lines() if r.remote else ()),
        ("Parties jouées", f"{len(played)} / {len(r.games)}"),
        ("Début", when(a.first_at)),
        ("Fin", when(a.last_at)),
    ]
    joueurs = [
        (p.name, p.origin_label, when(p.joined_at), p.cartons, p.free_cartons) for p in r.players
    ]
    parties = [
        (
            g.number,
            g.kind_label,
            g.label,
            g.status_label,
            when(g.started_at),
            when(g.ended_at),
            len(g.draws),
        )
        for g in r.games
    ]
    etapes = [
        (
            g.number,
            s.index + 1,
            s.label,
            s.lot,
            amount(s.lot_value_cents),
            s.divisible,
            when(s.awarded_at),
        )
        for g in r.games
        for s in g.stages
    ]
    tirages = [
        (
            g.number,
            d.seq,
            d.number,
            when(d.at),
            d.source,
            _nos(d.replaced),
            when(d.corrected_at),
        )
        for g in r.games
        for d in g.draws
    ]
    engagements = [
        (
            g.number,
            "boulier électronique" if g.draw else "boulier physique : rien d'engagé",
            g.draw.commitment if g.draw else "",
            f"{g.draw.evening} · série {g.draw.series} · partie {g.number}" if g.draw else "",
            g.draw.seed if g.draw else "",
            g.draw.verdict if g.draw else "",
        )
        for g in r.games
        if g.started_at
    ]
    paper = r.paper
    papier = [
        (
            line.kind_label,
            line.printed,
            line.in_advance,
            line.sold,
            line.given,
            line.cancelled,
            line.unsold,
            line.balanced,
        )
        for line in (paper.lines if paper else ())
    ]
    refus = [
        (when(x.at), x.where, x.carton or x.carton_no, x.label, x.by)
        for x in (paper.refusals if paper else ())
    ]
    cloture: list[Sequence[Any]] = [
        ("Soirée close", "oui" if r.closed_at else "non"),
        ("Close le", when(r.closed_at)),
        ("Close par", r.closed_by),
        ("Motif", r.close_reason),
    ]
    annonces = [
        (
            g.number,
            c.no,
            when(c.at),
            c.stage_label,
            c.player_name,
            c.carton or c.carton_no,
            "" if c.number is None else c.number,
            c.verdict_label,
            c.via_label,
            c.decided,
        )
        for g in r.games
        for c in g.claims
    ]
    ex_aequo: list[Sequence[Any]] = []
    for g in r.games:
        for tie in g.ties:
            free = dict(tie.consolations)
            answers = dict(tie.share_answers)
            if tie.tokens:
                for tok in tie.tokens:
                    ex_aequo.append(
                        (
                            g.number,
                            tie.stage_label,
                            when(tie.at),
                            tie.method_label,
                            tok.player_name,
                            tok.token,
                            tok.won,
                            "",
                            _nos(free.get(tok.player_name, ()))
                            or (
                                f"bon n° {dict(tie.vouchers)[tok.player_name]}"
                                if tok.player_name in dict(tie.vouchers)
                                else ""
                            ),
                        )
                    )
            else:
                for name in tie.winners:
                    ex_aequo.append(
                        (
                            g.number,
                            tie.stage_label,
                            when(tie.at),
                            tie.method_label,
                            name,
                            "",
                            True,
                            answers.get(name, True),
                            "",
                        )
                    )
    lots = [
        (
            w.ticket_no,
            g.number,
            w.stage_label,
            w.lot,
            amount(w.lot_value_cents),
            w.player_name,
            w.share_label,
            w.code,
            when(w.at),
            w.handed_over,
            w.handed_by,
            when(w.handed_at),
            w.origin_label,
            w.voided,
            w.voided_reason,
        )
        for g in r.games
        for w in g.awards
    ]
    litiges = [
        (
            g.number,
            when(d.at),
            d.by_label,
            d.what,
            d.player_name,
            d.reason,
            "" if d.claim_no is None else d.claim_no,
            "" if d.ticket_no is None else d.ticket_no,
        )
        for g in r.games
        for d in g.decisions
    ]
    ventes = [
        (
            s.no,
            when(s.at),
            s.player_name,
            s.kind_label,
            s.pack_label,
            s.quantity,
            amount(s.amount_cents),
            s.method_label,
            s.seller,
            s.cashier,
            s.status_label,
            when(s.settled_at),
            _nos(s.carton_nos),
            when(s.cancelled_at),
            s.cancelled_by,
            s.cancel_reason,
            amount(s.refunded_cents),
        )
        for s in r.sales
    ]
    totaux: list[Sequence[Any]] = [
        ("Encaissé", "", amount(t.collected_cents)),
        ("Remboursé", "", amount(t.refunded_cents)),
        ("Net en caisse", "", amount(t.received_cents)),
        ("À régler", "", amount(t.pending_cents)),
        *(("Par vendeur", name, amount(c)) for name, c in t.by_seller),
        *(("Par type", label, amount(c)) for _, label, c in t.by_kind),
        *(("Par paiement", label, amount(c)) for _, label, c in t.by_method),
        ("Ventes payées", "", t.sales),
        ("Cartons vendus", "", t.cartons),
        ("Ventes annulées ou remboursées", "", t.cancelled),
        ("Cartons offerts (ex aequo)", "", t.free_cartons),
        ("Caisse fermée", t.closed_by, when(t.closed_at) if t.closed else "non"),
    ]
    audit: list[Sequence[Any]] = [
        ("Entrées du journal", a.entries),
        ("Dernier numéro", a.last_seq),
        ("Dernière empreinte", a.last_hash),
        ("Vérification", "journal intact" if a.ok else "ANOMALIES"),
        *(("Anomalie", p) for p in a.problems_fr),
        *(("Incohérence", p) for p in a.consistency),
    ]
    return [
        ("soiree", ("champ", "valeur"), soiree),
        ("joueurs", ("joueur", "origine", "arrivée", "cartons", "cartons offerts"), joueurs),
        ("parties", ("partie", "type", "intitulé", "état", "début", "fin", "numéros"), parties),
        (
            "etapes",
            ("partie", "étape", "forme", "lot", "valeur (€)", "divisible", "attribué à"),
            etapes,
        ),
        (
            "tirages",
            ("partie", "ordre", "numéro", "heure", "source", "corrigé de", "corrigé à"),
            tirages,
        ),
        (
            "engagements",
            ("partie", "tirage", "empreinte (SHA-256)", "lie", "graine révélée", "vérification"),
            engagements,
        ),
        (
            "annonces",
            (
                "partie",
                "annonce",
                "heure",
                "étape",
                "joueur",
                "carton",
                "sur le",
                "verdict",
                "via",
                "décision",
            ),
            annonces,
        ),
        (
            "ex_aequo",
            (
                "partie",
                "étape",
                "heure",
                "méthode",
                "joueur",
                "jeton",
                "gagnant",
                "partage accepté",
                "carton offert",
            ),
            ex_aequo,
        ),
        (
            "lots",
            (
                "ticket",
                "partie",
                "étape",
                "lot",
                "valeur (€)",
                "gagnant",
                "part",
                "code",
                "attribué à",
                "remis",
                "remis par",
                "remis à",
                "origine",
                "retiré",
                "motif du retrait",
            ),
            lots,
        ),
        (
            "litiges",
            ("partie", "heure", "décidé par", "décision", "joueur", "motif", "annonce", "ticket"),
            litiges,
        ),
        (
            "ventes",
            (
                "vente",
                "heure",
                "joueur",
                "type",
                "formule",
                "quantité",
                "montant (€)",
                "paiement",
                "vendeur",
                "caissier",
                "état",
                "réglée à",
                "cartons",
                "annulée à",
                "annulée par",
                "motif",
                "remboursé (€)",
            ),
            ventes,
        ),
        ("totaux", ("rubrique", "détail", "montant (€)"), totaux),
        (
            "papier",
            (
                "type",
                "imprimés",
                "dont à l'avance",
                "vendus",
                "offerts",
                "annulés",
                "invendus",
                "équilibré",
            ),
            papier,
        ),
        ("refus", ("heure", "où", "carton", "motif", "par"), refus),
        ("cloture", ("champ", "valeur"), cloture),
        ("audit", ("champ", "valeur"), audit),
    ]


def _numbers_block(r: EveningReport) -> tuple[str, Sequence[str], list[Sequence[Any]]]:
    """The numbers of the evening: a row per game (its draws and duration in seconds), then a
    row per number 1-90 (how many games drew it)."""
    nums = numbers.of_report(r)
    rows: list[Sequence[Any]] = [
        ("partie", g.no, g.draws, "" if g.seconds is None else g.seconds) for g in nums.games
    ]
    rows += [("numéro", n, times, "") for n, times in enumerate(nums.frequency, start=1)]
    return "numeros", ("quoi", "n°", "tirages / sorties", "durée (s)"), rows


def report_csv(report: EveningReport) -> bytes:
    """The report as a CSV file for LibreOffice or French Excel.

    Returns:
        UTF-8 bytes with a BOM, `;`-separated, CRLF line ends; one block per table (see the
        module's docstring), read back by `read_report_csv`.
    """
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";", quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    blocks = _blocks(report)
    at = next(i for i, b in enumerate(blocks) if b[0] == "tirages") + 1
    blocks.insert(at, _numbers_block(report))
    for i, (section, columns, rows) in enumerate(blocks):
        if i:
            w.writerow([])
        w.writerow(["section", *columns])
        for row in rows:
            w.writerow([section, *(_cell(v) for v in row)])
    return buf.getvalue().encode("utf-8-sig")


def read_report_csv(data: bytes) -> dict[str, list[dict[str, str]]]:
    """Read a `report_csv` file back: section -> rows as {column: text}."""
    out: dict[str, list[dict[str, str]]] = {}
    header: list[str] = []
    for row in csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"):
        if not row:
            continue
        if row[0] == "section":
            header = row[1:]
            continue
        out.setdefault(row[0], []).append(dict(zip(header, row[1:], strict=False)))
    return out


# ---------------------------------------------------------------------- PDF

_GREY = (225, 225, 225)
_HEAD = FontFace(emphasis="BOLD", fill_color=_GREY)


class _Doc:
    """The report being written."""

    #: what the document is (its first words)
    KIND = "Rapport de soirée"

    def __init__(self, report: EveningReport, *, unicode_font: bool, title: str = "") -> None:
        self.r = report
        self.doc_title = title or f"{self.KIND} — {report.name}"
        self.pdf, self.f = new_pdf(self.doc_title, report.audit.last_at, unicode_font=unicode_font)
        pdf = self.pdf
        pdf.set_auto_page_break(True, margin=15)
        pdf.set_margins(12, 12, 12)
        footer_text = self.f.text(f"{report.name} — série {report.series}")
        sans = self.f.sans

        def footer() -> None:
            pdf.set_y(-11)
            pdf.set_font(sans, "", 7)
            pdf.cell(0, 5, footer_text, align="L")
            pdf.set_x(pdf.l_margin)
            pdf.cell(0, 5, f"Page {pdf.page_no()}/{{nb}}", align="R")

        pdf.footer = footer  # type: ignore[method-assign]
        pdf.add_page()

    # -- primitives

    def t(self, text: Any) -> str:
        return self.f.text(str(text))

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.f.sans, "B" if bold else "", size)

    def heading(self, text: str, size: float = 13) -> None:
        pdf = self.pdf
        if pdf.get_y() > pdf.h - 40:
            pdf.add_page()
        pdf.ln(3)
        self.font(size, True)
        pdf.multi_cell(0, size * 0.5, self.t(text), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)

    def para(self, text: str, size: float = 9, bold: bool = False) -> None:
        self.font(size, bold)
        self.pdf.multi_cell(0, size * 0.45, self.t(text), new_x="LMARGIN", new_y="NEXT")

    def table(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        size: float = 8,
        align: Sequence[str] | None = None,
    ) -> None:
        if not rows:
            return
        self.font(size)
        with self.pdf.table(
            col_widths=tuple(widths),
            headings_style=_HEAD,
            line_height=size * 0.5,
            text_align=tuple(align) if align else "LEFT",
            padding=0.8,
            first_row_as_headings=True,
        ) as table:
            table.row([self.t(c) for c in columns])
            for r in rows:
                table.row([self.t("" if v is None else v) for v in r])
        self.pdf.ln(2)

    # -- parts

    def title(self) -> None:
        r = self.r
        self.font(18, True)
        self.pdf.multi_cell(0, 9, self.t(self.doc_title), new_x="LMARGIN")
        self.para(f"Date : {r.date}    Code : {r.join_code}    Série : {r.series}", 10)
        self.pdf.ln(2)

    def summary(self) -> None:
        r, t, a = self.r, self.r.till, self.r.audit
        played = [g for g in r.games if g.started_at]
        tickets = [w for g in r.games for w in g.awards]
        origins = ", ".join(f"{label.lower()} : {n}" for _, label, n in r.origins if n)
        self.heading("Résumé")
        rows = [
            ("Joueurs", f"{len(r.players)}" + (f" ({origins})" if origins else "")),
            ("Parties jouées", f"{len(played)} sur {len(r.games)}"),
            ("Lots attribués", f"{len(tickets)} (remis : {sum(w.handed_over for w in tickets)})"),
            ("Encaissé", euros(t.collected_cents)),
            ("Remboursé", euros(t.refunded_cents)),
            ("Net en caisse", euros(t.received_cents)),
            ("À régler", euros(t.pending_cents)),
            *(r.remote.lines() if r.remote else ()),
            (
                "Caisse",
                f"fermée par {t.closed_by} à {hour(t.closed_at)}" if t.closed else "ouverte",
            ),
            ("Journal", "intact" if a.ok else "ANOMALIES (voir la fin du rapport)"),
            ("Début / fin", f"{when(a.first_at)} / {when(a.last_at)}"),
        ]
        self.table(("Rubrique", "Valeur"), rows, (50, 136), 9)
        self.heading("Réglages annoncés", 11)
        self.table(("Réglage", "Valeur"), self.r.settings, (50, 136), 8)

    def game(self, g: GameReport) -> None:
        self.heading(f"Partie {g.number} — {g.label}")
        self.para(
            f"{g.kind_label} · {g.status_label} · début {hour(g.started_at) or '—'} · "
            f"fin {hour(g.ended_at) or '—'}"
        )
        self.pdf.ln(1)
        self.table(
            ("Étape", "Lot", "Valeur", "Attribué à"),
            [
                (
                    s.label,
                    s.lot,
                    euros(s.lot_value_cents),
                    hour(s.awarded_at) or s.lapsed or "non attribué",
                )
                for s in g.stages
            ],
            (35, 91, 30, 30),
        )
        self.heading(f"Numéros tirés ({len(g.draws)})", 10)
        parts = []
        for d in g.draws:
            # (no-break spaces: a draw's line never splits across a line or a page)
            text = f"{d.seq}.\u00a0**{d.number}**\u00a0({hour(d.at)})"
            if d.replaced:
                fixes = " puis ".join(str(n) for n in d.replaced)
                text += f" [corrigé : {fixes} → {d.number} à {hour(d.corrected_at)}]"
            parts.append(text)
        self.font(9)
        self.pdf.multi_cell(
            0,
            4.5,
            self.t("   ".join(parts) or "Aucun numéro tiré."),
            markdown=True,
            new_x="LMARGIN",
        )
        self.draw_check(g)
        if g.claims:
            self.heading("Annonces", 10)
            self.table(
                ("Heure", "N°", "Étape", "Joueur", "Carton", "Sur le", "Verdict", "Via"),
                [
                    (
                        hour(c.at),
                        c.no,
                        c.stage_label,
                        c.player_name,
                        c.carton or c.carton_no,
                        "" if c.number is None else c.number,
                        c.verdict_label + (f" → décision : {c.decided}" if c.decided else ""),
                        c.via_label,
                    )
                    for c in g.claims
                ],
                (16, 9, 22, 26, 13, 13, 67, 20),
                7.5,
            )
        for tie in g.ties:
            self.heading(f"Ex aequo — {tie.stage_label} ({tie.method_label}, {hour(tie.at)})", 10)
            if tie.tokens:
                self.table(
                    ("Joueur", "Jeton tiré", "Résultat"),
                    [
                        (k.player_name, k.token, "gagne le lot" if k.won else "carton offert")
                        for k in tie.tokens
                    ],
                    (70, 40, 76),
                )
                for name, nos in tie.consolations:
                    self.para(f"Carton offert à {name} : n° {_nos(nos)}", 8)
                for name, ticket in tie.vouchers:
                    self.para(f"Bon « carton offert » à {name} : ticket n° {ticket}", 8)
            elif tie.method == "sudden":
                self.para(
                    "Boules supplémentaires\u00a0: "
                    + ", ".join(map(str, tie.balls))
                    + f"\u202f; gagnant\u00a0: {', '.join(tie.winners)}"
                )
                for name, nos in tie.consolations:
                    self.para(f"Carton offert à {name}\u00a0: n° {_nos(nos)}", 8)
            elif tie.method == "each":
                self.para(f"Un lot identique à chacun\u00a0: {', '.join(tie.winners)}")
            else:
                said = ", ".join(
                    f"{n} : {'accepte' if ok else 'refuse'}" for n, ok in tie.share_answers
                )
                self.para(
                    f"Partage entre {', '.join(tie.winners)}" + (f" ({said})" if said else "")
                )
        if g.awards:
            self.heading("Lots", 10)
            self.table(
                ("Ticket", "Étape", "Lot", "Gagnant", "Part", "Code", "Remis"),
                [
                    (
                        w.ticket_no,
                        w.stage_label,
                        w.lot,
                        w.player_name,
                        w.share_label,
                        w.code,
                        ("RETIRÉ — " if w.voided else "")
                        + (
                            f"oui, par {w.handed_by} à {hour(w.handed_at)}"
                            if w.handed_over
                            else "non"
                        ),
                    )
                    for w in g.awards
                ],
                (13, 24, 42, 26, 22, 17, 42),
                7.5,
            )
        if g.decisions:
            self.heading("Litiges : décisions de l'association (art. 8)", 10)
            self.table(
                ("Heure", "Par", "Décision", "Joueur", "Motif"),
                [(hour(d.at), d.by_label, d.what, d.player_name, d.reason) for d in g.decisions],
                (16, 24, 64, 28, 54),
                7.5,
            )

    def draw_check(self, g: GameReport) -> None:
        """The game's commitment, its seed and the check (or: a physical boulier)."""
        self.pdf.ln(1)
        d = g.draw
        if d is None:
            self.para("Boulier physique : rien n'est engagé, les boules tirées sont le tirage.", 8)
            return
        self.para(
            f"Tirage engagé avant le premier numéro (lié à : {d.evening}, série {d.series}, "
            f"partie {g.number}). Empreinte SHA-256 :",
            8,
        )
        self.pdf.set_font(self.f.mono, "", 7)
        self.pdf.multi_cell(0, 3.6, self.t(d.commitment), new_x="LMARGIN", new_y="NEXT")
        if d.seed:
            self.para("Graine révélée à la fin de la partie :", 8)
            self.pdf.set_font(self.f.mono, "", 7)
            self.pdf.multi_cell(0, 3.6, self.t(d.seed), new_x="LMARGIN", new_y="NEXT")
        self.para(f"Vérification : {d.verdict}.", 8, bold=d.ok is False)

    def paper(self) -> None:
        """The paper cartons of the série, reconciled, and the cartons refused."""
        p = self.r.paper
        if p is None or (not p.lines and not p.refusals):
            return
        self.heading(f"Cartons papier de la série {p.series}")
        self.table(
            ("Type", "Imprimés", "dont à l'avance", "Vendus", "Offerts", "Annulés", "Invendus"),
            [
                (
                    x.kind_label,
                    x.printed,
                    x.in_advance,
                    x.sold,
                    x.given,
                    x.cancelled,
                    x.unsold,
                )
                for x in p.lines
            ],
            (34, 24, 28, 24, 24, 24, 28),
            8.5,
            ("LEFT", *("RIGHT",) * 6),
        )
        self.para(
            (
                "Les lignes « Série … » sont les cartons de l'association (non imprimés par "
                "l'application), enregistrés avant la soirée. "
                if any(x.series for x in p.lines)
                else ""
            )
            + "Chaque carton imprimé est compté : vendu, offert, annulé ou invendu."
            if p.balanced
            else "ÉCART : des cartons imprimés ne sont ni vendus, ni offerts, ni annulés, "
            "ni invendus.",
            9,
            bold=not p.balanced,
        )
        if p.refusals:
            self.heading(f"Cartons refusés ({len(p.refusals)})", 10)
            self.table(
                ("Heure", "Où", "Carton", "Motif"),
                [
                    (hour(x.at), x.where, x.carton or x.carton_no or "?", x.label)
                    for x in p.refusals
                ],
                (20, 24, 20, 122),
                8,
            )

    def closing(self) -> None:
        """Whether the organiser closed the evening's books."""
        r = self.r
        self.heading("Clôture")
        if r.closed_at:
            text = f"Soirée close le {when(r.closed_at)} par {r.closed_by}"
            text += f" (motif : {r.close_reason})." if r.close_reason else "."
            self.para(text + " Plus aucune modification n'a été acceptée après.", 9)
        else:
            self.para("Soirée non close : le journal peut encore s'allonger.", 9)

    def sales(self) -> None:
        r = self.r
        self.heading("Ventes")
        rows = []
        for s in r.sales:
            staff = s.seller or (f"caisse : {s.cashier}" if s.cashier else "téléphone")
            if s.seller and s.cashier:
                staff += f" / {s.cashier}"
            status = s.status_label
            if s.status is SaleStatus.CANCELLED:
                status += f" par {s.cancelled_by} à {hour(s.cancelled_at)} : {s.cancel_reason}"
                if refunded(s):
                    status += f" ({euros(s.refunded_cents)} rendus)"
            rows.append(
                (
                    s.no,
                    hour(s.at),
                    s.player_name,
                    f"{s.pack_label} ({s.kind_label.lower()})",
                    euros(s.amount_cents),
                    "—"
                    if s.method == "pending" and s.status is not SaleStatus.PENDING
                    else s.method_label,
                    staff,
                    status,
                )
            )
        if not rows:
            self.para("Aucune vente.")
        self.table(
            ("N°", "Heure", "Joueur", "Formule", "Montant", "Paiement", "Vendeur", "État"),
            rows,
            (8, 15, 24, 32, 17, 17, 25, 48),
            7.5,
        )

    def totals(self) -> None:
        t = self.r.till
        self.heading("Totaux de caisse")
        rows = [
            ("Encaissé (avant remboursements)", euros(t.collected_cents)),
            ("Remboursé", euros(t.refunded_cents)),
            ("Net en caisse", euros(t.received_cents)),
            ("À régler", euros(t.pending_cents)),
            *((f"Vendeur : {n}", euros(c)) for n, c in t.by_seller),
            *((f"Type : {label}", euros(c)) for _, label, c in t.by_kind),
            *((f"Paiement : {label}", euros(c)) for _, label, c in t.by_method),
            ("Ventes payées", str(t.sales)),
            ("Cartons vendus (vitrines : unités)", str(t.cartons)),
            ("Ventes annulées ou remboursées", str(t.cancelled)),
            ("Cartons offerts (ex aequo)", str(t.free_cartons)),
            (
                "Caisse",
                f"fermée par {t.closed_by} le {when(t.closed_at)}" if t.closed else "non fermée",
            ),
        ]
        self.table(("Rubrique", "Montant"), rows, (110, 76), 9, ("LEFT", "RIGHT"))

    def audit(self) -> None:
        a = self.r.audit
        self.heading("Vérification du journal")
        self.para(
            f"{a.entries} entrées, de {when(a.first_at)} à {when(a.last_at)}. "
            "Chaque entrée est chaînée à la précédente par une empreinte SHA-256 : "
            "toute modification après coup est détectée."
        )
        self.font(8)
        self.pdf.set_font(self.f.mono, "", 7)
        self.pdf.multi_cell(
            0, 4, self.t(f"Dernière empreinte (n° {a.last_seq}) : {a.last_hash}"), new_x="LMARGIN"
        )
        self.pdf.ln(1)
        if a.ok:
            self.para("Résultat : journal intact, aucune anomalie.", 10, True)
            return
        self.para("Résultat : ANOMALIES DÉTECTÉES", 10, True)
        for p in a.problems_fr:
            self.para(f"• {p}")
        for p in a.consistency:
            self.para(f"• {p}")

    def build(self) -> bytes:
        self.title()
        self.summary()
        for g in self.r.games:
            if g.started_at:
                self.game(g)
        later = [g for g in self.r.games if not g.started_at]
        if later:
            self.heading("Parties non jouées", 11)
            for g in later:
                self.para(f"Partie {g.number} — {g.label}")
        numbers.pdf_section(self, numbers.of_report(self.r))
        self.sales()
        self.totals()
        self.paper()
        self.closing()
        self.audit()
        return bytes(self.pdf.output())


def report_pdf(report: EveningReport, *, unicode_font: bool = True) -> bytes:
    """The report as an A4 PDF in French.

    Args:
        report: the evening's report.
        unicode_font: print with DejaVu Sans when the system has it (True), or force the core
            Helvetica font (Windows-1252: accents and "€" print, other signs are transliterated).

    Returns:
        The PDF file. Its creation date is the time of the log's last entry, so the same report
        gives the same bytes.
    """
    return _Doc(report, unicode_font=unicode_font).build()


__all__ = ["SECTIONS", "amount", "read_report_csv", "report_csv", "report_pdf"]
