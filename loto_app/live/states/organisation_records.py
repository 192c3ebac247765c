"""The organiser's third task: the evening's records. The PDF of the paper players' cartons,
the report (its summary on the page, `live/present/report_summary.py`; CSV and PDF to download), the
association's decisions on claims (art. 8, the same moves as the animateur's tablet), and the
check of the hash-chained journal. A substate of `OrganisationState`: every action needs the
organiser's sign-in, checked in the database (`_signed_in_now`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import reflex as rx

from loto_app.live.input.disputes import decision_move, read_decision, read_withdrawal
from loto_app.live.input.guards import BadInput, form, refuse
from loto_app.live.present.report_summary import ReportLine, decision_lines, summarize
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import NOT_SIGNED_IN, OrganisationState
from loto_app.records import export
from loto_app.records.paper import cartons_for, paper_pdf
from loto_app.records.report import build_report, problem_fr

log = logging.getLogger("loto_app.live")


class EveningRecords(OrganisationState):
    """Paper cartons, the report, the decisions, the journal."""

    records_message: str = ""
    report_lines: list[ReportLine] = []
    report_winners: list[str] = []
    report_decisions: list[str] = []
    decision_message: str = ""
    decision_ok: bool = False
    audit_ok: bool = False
    audit_message: str = ""
    audit_problems: list[str] = []

    @rx.event
    async def paper_cartons(self):
        """Download the PDF of the cartons sold to paper players."""
        if not await self._signed_in_now("paper_cartons"):
            return None
        eid = self._evening_id
        evening = (await registry.live(eid)).evening
        nos = sorted(
            c.no
            for pid, origin in evening.origins.items()
            if origin == "paper"
            for c in evening.player_cartons(pid)
        )
        if not nos:
            self.records_message = "Aucun carton papier vendu pour l'instant."
            return None
        store = registry.store()
        try:
            cartons = await asyncio.to_thread(cartons_for, store, eid, nos)
            pdf = await asyncio.to_thread(
                paper_pdf, self.evening_name, self.evening_series, cartons
            )
        except Exception:
            log.exception("evening %s: paper cartons PDF failed", eid)
            self.records_message = "Le PDF des cartons papier n'a pas pu être créé."
            return None
        self.records_message = f"{len(nos)} cartons papier."
        return rx.download(
            data=pdf,
            filename=f"cartons-papier-{self.evening_code}.pdf",
            mime_type="application/pdf",
        )

    @rx.event
    async def show_report(self):
        """The evening's summary: games, numbers drawn, winners, sales."""
        if not await self._signed_in_now("show_report"):
            return
        report = await self._report()
        if report is None:
            return
        self.report_lines, self.report_winners = summarize(report)
        self.report_decisions = decision_lines(report)
        # the report carries its own check of the journal: an older check would contradict it
        self.records_message, self.audit_message, self.audit_problems = "", "", []

    @rx.event
    async def decide(self, form_data: Any):
        """A decision of the association on a claim (art. 8): same moves as the tablet's."""
        try:
            claim_no, decision, reason = read_decision(form(form_data))
        except BadInput as exc:
            refuse(self._who(), "decide", exc)
            self.decision_message, self.decision_ok = exc.user_message, False
            return
        await self._decision("decide", decision_move(claim_no, decision, "organisateur", reason))

    @rx.event
    async def withdraw_award(self, form_data: Any):
        """Void a lot ticket (the desk can no longer hand it over)."""
        try:
            ticket, reason = read_withdrawal(form(form_data))
        except BadInput as exc:
            refuse(self._who(), "withdraw_award", exc)
            self.decision_message, self.decision_ok = exc.user_message, False
            return
        await self._decision(
            "withdraw_award", lambda e: e.withdraw_award(ticket, "organisateur", reason)
        )

    def _decision_refused(self, text: str) -> None:
        self.decision_message, self.decision_ok = text, False

    async def _decision(self, handler: str, move: Any) -> None:
        if not await self._signed_in_now(handler):
            self.decision_message, self.decision_ok = NOT_SIGNED_IN, False
            return
        if await self._play(handler, move, checked=True, say=self._decision_refused) is None:
            return
        self.decision_message, self.decision_ok = "Décision enregistrée.", True
        await self.show_report()

    @rx.event
    async def report_csv(self):
        """Download the report as CSV."""
        return await self._download_report("csv")

    @rx.event
    async def report_pdf(self):
        """Download the report as PDF."""
        return await self._download_report("pdf")

    async def _download_report(self, fmt: str):
        if not await self._signed_in_now(f"report_{fmt}"):
            return None
        report = await self._report()
        if report is None:
            return None
        try:
            make = export.report_csv if fmt == "csv" else export.report_pdf
            data = await asyncio.to_thread(make, report)
        except Exception:
            log.exception("evening %s: report %s failed", self._evening_id, fmt)
            self.records_message = "Le rapport n'a pas pu être créé."
            return None
        mime = "text/csv" if fmt == "csv" else "application/pdf"
        return rx.download(data=data, filename=f"rapport-{self.evening_code}.{fmt}", mime_type=mime)

    async def _report(self) -> Any:
        try:
            return await asyncio.to_thread(build_report, registry.store(), self._evening_id)
        except Exception:
            log.exception("evening %s: building the report failed", self._evening_id)
            self.records_message = "Le rapport de la soirée n'a pas pu être établi."
            return None

    @rx.event
    async def verify_journal(self):
        """Check the evening's hash-chained event log."""
        if not await self._signed_in_now("verify_journal"):
            return
        store = registry.store()
        eid = self._evening_id
        problems = await asyncio.to_thread(store.verify_audit, eid)
        if problems:
            log.warning("evening %s: audit log problems: %s", eid, problems[:5])
            self.audit_ok = False
            self.audit_problems = [problem_fr(str(p))[:200] for p in problems[:50]]
            self.audit_message = f"Journal altéré : {len(problems)} problème(s)."
            return
        count = len((await registry.live(eid)).evening.history)
        self.audit_ok, self.audit_problems = True, []
        self.audit_message = f"Journal intègre ({count} entrée{'s' if count > 1 else ''})."

    # ------------------------------------------------------------------ hooks

    async def _evening_loaded(self) -> None:
        self.records_message = self.audit_message = ""
        self.audit_problems, self.report_lines, self.report_winners = [], [], []
        self.report_decisions, self.decision_message = [], ""

    def _tell(self, text: str) -> None:
        self.records_message = text
