"""The organiser's fourth task: closing the evening's books. Paper cartons printed in advance for
the desk (a PDF of the sheets), the série's paper cartons reconciled, the procès-verbal of a
game or of the evening (PDF), and closing the evening, asked once with what is still open
(after it every handler refuses, in French: `EveningIsClosed`). A substate of
`OrganisationState`: every action needs the organiser's sign-in, checked in the database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import MAX_DECISION_REASON, MAX_PAPER_SHEETS, Evening, GameStatus
from loto_app.domain.program import Kind
from loto_app.domain.till import SaleStatus
from loto_app.live.input.guards import BadInput, as_int, as_text, choice, form, refuse
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.records import proces_verbal
from loto_app.records.paper import cartons_for, paper_pdf
from loto_app.records.report import build_report, local_time
from loto_app.wording import plural

log = logging.getLogger("loto_app.live")

KIND_CHOICES = {k.value: k for k in Kind}


def open_matters(e: Evening) -> list[str]:
    """What is still open on the evening, in French, for the organiser to read before closing."""
    out = []
    g = e.game
    if g is not None and g.status is not GameStatus.FINISHED:
        out.append(
            f"La partie {g.index + 1} est en cours : elle sera interrompue (sa graine publiée)."
        )
    left = len(e.program.games) - len([x for x in e.games if x.status is GameStatus.FINISHED])
    if left and (g is None or g.status is GameStatus.FINISHED):
        out.append(
            f"{plural(left, 'partie')} du programme "
            + ("non jouée." if left == 1 else "non jouées.")
        )
    if e.till_closed_by is None:
        out.append("La caisse n'est pas fermée.")
    pending = [s for s in e.sales.values() if s.status is SaleStatus.PENDING]
    if pending:
        out.append(f"{plural(len(pending), 'commande')} encore à régler.")
    waiting = [
        t for t in e.lot_tickets.values() if t.no not in e.handed_over and t.no not in e.withdrawn
    ]
    if waiting:
        out.append(f"{plural(len(waiting), 'lot')} pas encore remis.")
    return out


class EveningBooks(OrganisationState):
    """Paper sheets, the reconciliation, the procès-verbaux and the closing."""

    books_message: str = ""
    books_ok: bool = False
    paper_lines: list[dict[str, Any]] = []
    paper_refusals: list[str] = []
    paper_balanced: bool = True
    close_asked: bool = False
    close_reason: str = ""
    close_open: list[str] = []
    closed_text: str = ""  # "" while the evening is open

    @rx.event
    async def print_paper(self, form_data: Any):
        """Print sheets of paper cartons in advance for the desk: the PDF of those cartons."""
        try:
            data = form(form_data)
            kind = KIND_CHOICES[choice(data.get("kind", ""), tuple(KIND_CHOICES), "kind")]
            sheets = as_int(data.get("sheets"), 1, MAX_PAPER_SHEETS, "sheets")
        except BadInput as exc:
            refuse(self._who(), "print_paper", exc)
            return self._say(
                f"Choisissez le type de carton et de 1 à {MAX_PAPER_SHEETS} feuilles.", False
            )
        if not await self._signed_in_now("print_paper"):
            return None
        events = await self._play(
            "print_paper", lambda e: e.print_paper(kind, sheets, "organisateur"), checked=True
        )
        if events is None:
            return None
        nos = next(list(x.carton_nos) for x in events if isinstance(x, ev.PaperPrinted))
        try:
            cartons = await asyncio.to_thread(cartons_for, registry.store(), self._evening_id, nos)
            pdf = await asyncio.to_thread(
                paper_pdf, self.evening_name, self.evening_series, cartons
            )
        except Exception:
            log.exception("evening %s: printed paper cartons PDF failed", self._evening_id)
            return self._say(
                f"{len(nos)} cartons numérotés, mais le PDF n'a pas pu être créé.", False
            )
        self._say(f"{len(nos)} cartons papier imprimés (n° {nos[0]} à {nos[-1]}).", True)
        await self._reconcile()
        return rx.download(
            data=pdf,
            filename=f"cartons-a-vendre-{self.evening_code}-{nos[0]}-{nos[-1]}.pdf",
            mime_type="application/pdf",
        )

    @rx.event
    async def show_paper(self):
        """The série's paper cartons, reconciled."""
        if await self._signed_in_now("show_paper"):
            await self._reconcile()

    @rx.event
    async def evening_pv(self):
        """Download the procès-verbal of the evening."""
        return await self._pv(0)

    @rx.event
    async def game_pv(self, form_data: Any):
        """Download the procès-verbal of one game."""
        try:
            number = as_int(form(form_data).get("game"), 1, 99, "game")
        except BadInput as exc:
            refuse(self._who(), "game_pv", exc)
            return self._say("Tapez le numéro d'une partie jouée.", False)
        return await self._pv(number)

    async def _pv(self, number: int):
        handler = "game_pv" if number else "evening_pv"
        if not await self._signed_in_now(handler):
            return None
        try:
            report = await asyncio.to_thread(build_report, registry.store(), self._evening_id)
            if number:
                data = await asyncio.to_thread(proces_verbal.game_pv, report, number)
            else:
                data = await asyncio.to_thread(proces_verbal.evening_pv, report)
        except ValueError:
            return self._say(f"La partie {number} n'a pas été jouée.", False)
        except Exception:
            log.exception("evening %s: procès-verbal %s failed", self._evening_id, number)
            return self._say("Le procès-verbal n'a pas pu être créé.", False)
        self._say("", True)
        name = f"partie-{number}" if number else "soiree"
        return rx.download(
            data=data,
            filename=f"proces-verbal-{name}-{self.evening_code}.pdf",
            mime_type="application/pdf",
        )

    @rx.event
    async def ask_close(self, form_data: Any):
        """First step of closing: what is still open, and the reason when a game is in play."""
        try:
            reason = as_text(form(form_data).get("reason", ""), "reason", MAX_DECISION_REASON)
        except BadInput as exc:
            refuse(self._who(), "ask_close", exc)
            return self._say(f"Motif : {MAX_DECISION_REASON} caractères au plus.", False)
        if not await self._signed_in_now("ask_close"):
            return None
        e = (await registry.live(self._evening_id)).evening
        if e.closed is not None:
            return self._say("La soirée est déjà close.", False)
        g = e.game
        if g is not None and g.status is not GameStatus.FINISHED and not reason:
            return self._say(
                "Une partie est en cours : écrivez pourquoi la soirée est close avant sa fin.",
                False,
            )
        self.close_asked, self.close_reason, self.close_open = True, reason, open_matters(e)
        self._say("", True)
        return None

    @rx.event
    def cancel_close(self):
        """The organiser changed their mind."""
        self.close_asked, self.close_open = False, []

    @rx.event
    async def close_evening(self):
        """Close the evening (asked once before): read-only from now on."""
        if not await self._signed_in_now("close_evening"):
            return
        if not self.close_asked:
            refuse(self._who(), "close_evening", "not confirmed")
            self._say("Confirmez d'abord la clôture.", False)
            return
        reason = self.close_reason
        self.close_asked, self.close_open = False, []
        closed = await self._play(
            "close_evening", lambda e: e.close_evening("organisateur", reason), checked=True
        )
        if closed is None:
            return
        log.warning("evening %s: closed by the organiser", self._evening_id)
        await self._show_closed()
        self._say("Soirée close : elle ne change plus. Téléchargez le procès-verbal.", True)

    # ------------------------------------------------------------------ helpers and hooks

    def _say(self, text: str, ok: bool) -> None:
        self.books_message, self.books_ok = text, ok

    async def _reconcile(self) -> None:
        try:
            report = await asyncio.to_thread(build_report, registry.store(), self._evening_id)
        except Exception:
            log.exception("evening %s: reconciliation failed", self._evening_id)
            self._say("Le rapprochement des cartons papier n'a pas pu être établi.", False)
            return
        p = report.paper
        lines = p.lines if p else ()
        self.paper_lines = [
            {
                "kind": x.kind_label,
                "printed": x.printed,
                "in_advance": x.in_advance,
                "sold": x.sold,
                "given": x.given,
                "cancelled": x.cancelled,
                "unsold": x.unsold,
            }
            for x in lines
        ]
        self.paper_refusals = [
            f"{local_time(r.at):%H:%M} · carton {r.carton or r.carton_no or '?'} : {r.label}"
            for r in (p.refusals if p else ())
        ][-30:]
        self.paper_balanced = p.balanced if p else True

    async def _show_closed(self) -> None:
        e = (await registry.live(self._evening_id)).evening
        c = e.closed
        if c is None:
            self.closed_text = ""
            return
        when_closed = ""
        try:
            report = await asyncio.to_thread(build_report, registry.store(), self._evening_id)
            if report.closed_at is not None:
                when_closed = f"{local_time(report.closed_at):%d/%m/%Y à %H:%M}"
        except Exception:
            log.exception("evening %s: report failed", self._evening_id)
        self.closed_text = (
            f"Soirée close le {when_closed} par l'organisateur"
            + (f" (motif : {c.reason})" if c.reason else "")
            + ". Plus aucune modification n'est acceptée : le rapport, le procès-verbal et "
            "l'export restent disponibles."
        )

    async def _evening_loaded(self) -> None:
        self.books_message, self.close_asked, self.close_open = "", False, []
        self.paper_lines, self.paper_refusals = [], []
        await self._show_closed()

    def _signed_out(self) -> None:
        self.close_asked, self.close_open, self.closed_text = False, [], ""

    def _tell(self, text: str) -> None:
        self._say(text, False)
