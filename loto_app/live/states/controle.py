"""ControleState: a vendeur's, caissier's or contrôleur's phone at the tables (`/controle`),
signed in with their desk secret. A paper player calls "Quine !": the phone reads the QR code
printed on the carton with its camera (components/scanner.py), or the carton's number and check
code are typed, and the claim is made and judged as at the control desk (`Evening.paper_claim`,
the animateur's tablet's move: same verdicts, same record, the hall sees the same read-back);
the phone shows the verdict and the carton read back, for the table to see.

The phone also follows the evening (the public picture: the last number, the stage in play).
"""

from __future__ import annotations

import secrets
from typing import ClassVar

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.verdicts import Verdict
from loto_app.limits import MAX_CARTON_NO, MAX_CODE, MAX_SERIES
from loto_app.live.input.claim_forms import read_own_claim, read_paper_claim
from loto_app.live.input.guards import BadInput, as_int, as_text, form
from loto_app.live.input.typed_lines import BadLines, read_lines, read_typed_form
from loto_app.live.present.snapshot import claim_readback
from loto_app.live.present.typed_claims import typed_verdict
from loto_app.live.present.views import VERDICT_KIND, verdict_text
from loto_app.live.runtime import broadcast, registry
from loto_app.live.states.readback import ReadBack
from loto_app.live.states.session import StaffSession
from loto_app.live.states.typed_lines import TypedLines
from loto_app.records.paper import QR_PREFIX, parse_qr_text
from loto_app.storage.access import ROLES, StaffMember

#: What a carton's QR code holds (records/paper.py): "LOTO:<série>:<no>:<code>".
CARTON_PREFIX = f"{QR_PREFIX}:"
NOT_A_CARTON = "Ce QR code n'est pas celui d'un carton de loto : tapez le numéro et le code."


class ControleState(StaffSession, ReadBack, TypedLines, rx.State):
    """Sign-in (live/states/session.py), and the check of a paper carton at the table."""

    ROUTE: ClassVar[str] = "/controle"
    KIND: ClassVar[str] = "desk"
    WRONG: ClassVar[str] = "Code de soirée ou secret incorrect (ou accès retiré)."

    code: str = rx.LocalStorage("", name="loto_controle_code")
    secret: str = rx.LocalStorage("", name="loto_controle_secret")
    signed_in: bool = False
    staff_name: str = ""
    role_label: str = ""
    message: str = ""
    # the last carton checked here: the verdict, and its read-back (ReadBack)
    verdict: str = ""
    verdict_kind: str = ""  # "valid" | "false" | "late"
    own_series: list[str] = []  # the association's own séries (checked by number alone)

    # ------------------------------------------------------------------ sign-in

    async def _entered(self, member: StaffMember) -> None:
        self.staff_name, self.role_label = member.name, ROLES.get(member.role, member.role)
        self.message = ""
        self._forget()
        lv = await registry.live(self._evening_id)
        self.own_series = sorted(lv.evening.own_series.values())
        sid = self.router.session.session_id
        await broadcast.enter(sid, self._evening_id)
        await broadcast.send_snapshot(sid, lv)

    async def _left(self) -> None:
        self.staff_name = self.role_label = ""
        self._forget()

    def _still_the_same(self, member: StaffMember) -> bool:
        return member.name == self.staff_name

    def _not_signed_in(self) -> None:
        self.message = "Réservé à l'équipe : connectez-vous avec votre secret."

    # ------------------------------------------------------------------ the check

    @rx.event
    async def check_carton(self, form_data: dict):
        """A paper carton's claim: its QR code as the camera read it (`qr`), or its number and
        check code as typed (`carton`, `check`)."""
        said = "Tapez le numéro du carton et son code de contrôle."
        try:
            data = form(form_data)
            qr = as_text(data.get("qr", ""), "qr", MAX_SERIES + MAX_CODE + 20)
            if qr:
                parsed = parse_qr_text(qr)
                if parsed is None:
                    said = NOT_A_CARTON
                    raise BadInput(f"not a carton's QR code: {qr!r:.60}")
                series, no, check = parsed
                no = as_int(str(no), 1, MAX_CARTON_NO, "carton")
                check = as_text(check, "check", MAX_CODE)
            else:
                no, check = read_paper_claim(data)
                series = ""
            if not check:
                raise BadInput("no check code")
        except BadInput as exc:
            self._refused("check_carton", exc)
            self._forget()
            self.message = said
            return
        if not await self._signed_in_now("check_carton"):
            return
        lv = await registry.live(self._evening_id, fresh=False)
        series = series or lv.evening.program.series
        events = await self._play(
            "check_carton",
            lambda e: e.paper_claim(series, no, check),
            checked=True,
            say=self._carton_refused,
        )
        if events is not None:
            self._show_claim(lv.evening, events)

    # ------------------------------------------------------------------ a carton in no list

    @rx.event
    async def check_typed_lines(self, form_data: dict):
        """A claim on a carton in no list: the numbers of the claimed line(s) as typed
        (`line1`...), and the player's name if given (`name`), judged by
        `Evening.typed_claim` on the stage in play."""
        try:
            name, fields = read_typed_form(form(form_data))
        except BadInput as exc:
            self._refused("check_typed_lines", exc)
            self.message = "Requête invalide."
            return
        lv = await self._typed_now("check_typed_lines")
        if lv is None:
            return
        if not self.typed_needed:
            self._forget()
            self.message = self.typed_hint
            return
        try:
            lines = read_lines(fields, self.typed_needed)
        except BadLines as exc:
            self._refused("check_typed_lines", exc)
            self._forget()
            self.message = exc.user_message
            return
        pid = f"hl-{secrets.token_hex(8)}"
        by = self.staff_name
        events = await self._play(
            "check_typed_lines",
            lambda e: e.typed_claim(lines, pid, by, name),
            checked=True,
            say=self._carton_refused,
        )
        claims = [x for x in events or () if isinstance(x, ev.ClaimMade)]
        if not claims:
            return
        c, e = claims[-1], lv.evening
        self.message = ""
        who = e.players.get(c.player_id or "", "")
        self.verdict = (f"{who} — " if who else "") + typed_verdict(e, c)
        self.verdict_kind = VERDICT_KIND[Verdict(c.verdict)]
        for key, value in claim_readback(e, e.games[c.game], c).items():
            setattr(self, key, value)

    @rx.event
    async def check_own(self, form_data: dict):
        """A claim on one of the association's own cartons (no check code printed by the app):
        its série (`series`) and its number (`carton`), judged as any paper carton."""
        try:
            series, no = read_own_claim(form(form_data))
            if not series:
                raise BadInput("no series")
        except BadInput as exc:
            self._refused("check_own", exc)
            self._forget()
            self.message = "Choisissez la série et tapez le numéro du carton."
            return
        if not await self._signed_in_now("check_own"):
            return
        events = await self._play(
            "check_own", lambda e: e.own_claim(series, no), checked=True, say=self._carton_refused
        )
        if events is not None:
            self._show_claim((await registry.live(self._evening_id, fresh=False)).evening, events)

    def _show_claim(self, e: Evening, events: list[ev.Event]) -> None:
        """The verdict of a paper or own carton's claim, and the carton read back (none for a
        carton not of this evening, or not in this game)."""
        claims = [x for x in events if isinstance(x, ev.ClaimMade)]
        if not claims:
            return
        c = claims[-1]
        who = e.players.get(c.player_id or "", "carton non vendu")
        self.message = ""
        self.verdict = f"{who} — {verdict_text(c.verdict, e.carton_label(c.carton_no), c.number)}"
        self.verdict_kind = VERDICT_KIND[Verdict(c.verdict)]
        known = c.unit_nos and c.carton_no in e.cartons
        grid = claim_readback(e, e.games[c.game], c) if known else None
        if grid is None or c.verdict in (Verdict.WRONG_SERIES, Verdict.NOT_IN_GAME):
            self._forget_grid()
            return
        for name, value in grid.items():
            setattr(self, name, value)

    @rx.event
    def clear(self):
        """Ready for the next carton (the typed lines' form closes: it opens again empty)."""
        self._forget()
        self.message = ""
        self.typed_needed, self.typed_hint = 0, ""

    # ------------------------------------------------------------------ helpers

    def _carton_refused(self, text: str) -> None:
        """The engine refused the check: why, and no carton shown."""
        self._tell(text)
        self._forget()

    def _forget(self) -> None:
        self.verdict = self.verdict_kind = ""
        self._forget_grid()

    def _forget_grid(self) -> None:
        self.readback_on = False
        self.readback_title = self.readback_caption = self.readback_kind = ""
        self.readback_cols, self.readback_cartons = 9, []
