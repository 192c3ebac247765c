"""The check before the doors open (`/verification`): one page, signed in with what this browser
already holds (the organiser's sign-in of `/organisation`, else the animateur's of
`/animateur`), that checks what breaks an evening; the lines and their French words are
`live/present/preflight.py`'s.

What the server decides itself: the PDF of the paper cartons (made, as a test, from a sample
carton and the evening's règlement), the players' phones connected (`presence.phones`), the
address the phones will use (`network.public_origin_of`, as the hall screen's QR code). What
answers now, the hall screens, the animateur's tablets and the desk's phones: every tick of the
page (2 s, assets/verification.js) pokes their rooms, and each browser's answer (`RollCall.here`)
says what its own server-side state is (`live/runtime/roll_call.py`).

What only a browser can tell goes through events checked here:
- the address opened from this page's own browser (`VerificationState.address_seen`: only the
  signed-in page that asked, for the nonce it was given);
- the hall screen's sound test (`VerificationState.test_sound` asks; assets/sound.js plays the
  chime and a sentence on the TV and answers `RollCall.sound_played`, counted only for the test
  open on the TV's own evening).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any, ClassVar

import reflex as rx

from loto_app import network
from loto_app.domain.cartons import generate_strip
from loto_app.domain.reglement import reglement
from loto_app.live.input.guards import BadInput, as_text, choice, form, refuse
from loto_app.live.present import preflight
from loto_app.live.runtime import broadcast, presence, registry, roll_call, signin_limit
from loto_app.live.states.animateur import AnimateurState
from loto_app.live.states.caisse import CaisseState
from loto_app.live.states.screen import ScreenState
from loto_app.live.states.session import StaffSession
from loto_app.records.paper import PaperCarton, paper_pdf
from loto_app.storage.access import StaffMember

log = logging.getLogger("loto_app.live")

ORGANISER, ANIMATEUR = "organiser", "animateur"
#: Seconds after the first roll call during which nobody answering is not yet a red line.
FIRST_CALL = 2.5
NOT_SIGNED_IN = (
    "Connectez-vous d'abord sur la page de l'organisateur (/organisation) ou sur la tablette "
    "de l'animateur (/animateur), puis revenez ici."
)


def sample_pdf(evening_name: str, series: str, program: Any) -> bytes:
    """The paper cartons' PDF of one sample carton (numbered 0, code ESSAI) and the evening's
    règlement: what the organiser's "cartons papier" makes, without touching the evening."""
    carton = PaperCarton(0, "classique", generate_strip()[0].grid, "ESSAI")
    return paper_pdf(evening_name, series, [carton], rules=reglement(program, evening_name))


class RollCall(rx.State):
    """A browser's answers to the check's roll call (any page: each says only what its own
    server-side state is; a page that is none of them records nothing)."""

    @rx.event
    async def here(self):
        """Poked in the rooms of the hall screens, the tablets and the desk."""
        sid = self.router.session.session_id
        book = roll_call.book()
        screen = await self.get_state(ScreenState)
        if screen._evening_id:
            await book.seen(screen._evening_id, roll_call.SCREEN, sid)
        tablet = await self.get_state(AnimateurState)
        if tablet._authorized:
            await book.seen(tablet._evening_id, roll_call.TABLET, sid)
        desk = await self.get_state(CaisseState)
        if desk._authorized:
            detail = f"{desk.role}|{desk.staff_name}"[:80]
            await book.seen(desk._evening_id, roll_call.DESK, sid, detail)

    @rx.event
    async def sound_played(self, form_data: dict):
        """A hall screen's answer to the sound test (its hidden form, assets/sound.js)."""
        sid = self.router.session.session_id
        screen = await self.get_state(ScreenState)
        try:
            data = form(form_data)
            nonce = as_text(data.get("nonce", ""), "nonce", 32)
            result = choice(data.get("result", ""), preflight.SOUND_RESULTS, "result")
            voice = choice(data.get("voice", ""), ("0", "1"), "voice")
        except BadInput as exc:
            refuse(f"screen {sid}", "sound_played", exc)
            return
        if not screen._evening_id:
            refuse(f"screen {sid}", "sound_played", "not a hall screen of an evening")
            return
        answer = result + ("" if voice == "1" or result != preflight.PLAYED else ":voice-off")
        if not await roll_call.book().sound_answer(screen._evening_id, nonce, sid, answer):
            refuse(f"screen {sid}", "sound_played", f"no sound test {nonce!r} open")
            return
        log.info("evening %s: screen %s sound test: %s", screen._evening_id, sid, answer)


class VerificationState(StaffSession, rx.State):
    """The check's page: its sign-in (the organiser's or the animateur's, stored by their
    pages) and its lines."""

    ROUTE: ClassVar[str] = "/verification"
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume"})

    # the animateur's sign-in as /animateur stores it, and the organiser's as /organisation
    # does (only read here: this page never writes them)
    code: str = rx.LocalStorage("", name="loto_animateur_code")
    secret: str = rx.LocalStorage("", name="loto_animateur_secret")
    org_code: str = rx.LocalStorage("", name="loto_organiser_code")
    org_secret: str = rx.LocalStorage("", name="loto_organiser_secret")
    signed_in: bool = False
    message: str = ""
    as_animateur: bool = False
    evening_name: str = ""
    lines: list[dict[str, str]] = []
    summary: str = ""
    sound_asked: bool = False
    _kind: str = ""
    _first_call: float = 0.0
    _pdf_seconds: float = -1.0  # -1: failed
    _pdf_tried: bool = False
    _join_code: str = ""
    _address: str = ""
    _address_nonce: str = ""
    _address_result: str = ""
    _address_asked: bool = False

    @property
    def KIND(self) -> str:  # type: ignore[override]  # noqa: N802
        """The credential this page signed in with (StaffSession reads it)."""
        return self._kind or ORGANISER

    # ------------------------------------------------------------------ the session

    def _lost(self) -> bool:
        return not self._identified() and not (
            self.code or self.secret or self.org_code or self.org_secret
        )

    async def _resume(self) -> bool:
        """Sign in with the organiser's stored sign-in, else the animateur's."""
        self._sign_out()
        self.message = ""
        for kind, code, secret in (
            (ORGANISER, self.org_code, self.org_secret),
            (ANIMATEUR, self.code, self.secret),
        ):
            stored = self._stored_sign_in({"code": code, "secret": secret})
            if stored is None:
                continue
            self._kind = kind
            try:
                if await self._sign_in(*stored):
                    return True
            except signin_limit.TooManyAttempts as exc:
                self._locked_out(exc)
                return False
        self._kind = ""
        self.message = NOT_SIGNED_IN
        return False

    async def _entered(self, member: StaffMember) -> None:
        self.as_animateur = self._kind == ANIMATEUR
        name, code = await asyncio.to_thread(registry.store().describe, self._evening_id)
        self.evening_name, self._join_code = name, code
        self._new_address()
        self.sound_asked = False
        self._first_call = time.monotonic()
        await self._call_roll()
        await self._try_pdf()
        await self._show()

    def _not_signed_in(self) -> None:
        self.message = NOT_SIGNED_IN

    def _revoked(self) -> None:
        self.lines, self.summary = [], ""
        self.message = NOT_SIGNED_IN

    async def _played(self, events: Any) -> None:
        """(this page plays no move)"""

    # ------------------------------------------------------------------ the checks

    def _new_address(self) -> None:
        """The address the phones will use, as the hall screen's QR code has it, to be opened
        again from this browser."""
        origin = network.public_origin_of(self.router)[:200]
        self._address = f"{origin}/?code={self._join_code}"
        self._address_result, self._address_asked = "", False
        self._address_nonce = secrets.token_hex(8)

    async def _call_roll(self) -> None:
        e = self._evening_id
        rooms = [broadcast.screen_room(e), broadcast.staff_room(e), broadcast.desk_room(e)]
        await broadcast.poke_rooms(rooms, f"{RollCall.get_full_name()}.here")

    async def _try_pdf(self) -> None:
        lv = await registry.live(self._evening_id)
        program = lv.evening.program
        started = time.monotonic()
        try:
            pdf = await asyncio.to_thread(sample_pdf, lv.name, program.series, program)
            if not pdf.startswith(b"%PDF") or len(pdf) < 1000:
                raise ValueError(f"not a PDF ({len(pdf)} bytes)")
            self._pdf_seconds = time.monotonic() - started
        except Exception:
            log.exception("evening %s: the check's sample PDF failed", self._evening_id)
            self._pdf_seconds = -1.0
        self._pdf_tried = True

    async def _facts(self) -> preflight.Facts:
        e, book = self._evening_id, roll_call.book()
        screens = await book.present(e, roll_call.SCREEN)
        tablets = await book.present(e, roll_call.TABLET)
        desk = await book.present(e, roll_call.DESK)
        asked_ago, answers = await book.sound(e)
        sound = preflight.Sound(
            asked_ago if self.sound_asked else None,
            tuple(a.split(":")[0] for a in answers.values()),
            any(a.endswith(":voice-off") for a in answers.values()),
        )
        host = self._address.partition("://")[2].split("/")[0].rsplit(":", 1)[0]
        return preflight.Facts(
            screens=len(screens),
            sound=sound,
            tablets=len(tablets),
            here_is_tablet=self.as_animateur,
            desk=tuple(
                (name, role) for role, _, name in sorted(d.partition("|") for d in desk.values())
            ),
            pdf_seconds=None if self._pdf_seconds < 0 else self._pdf_seconds,
            pdf_tried=self._pdf_tried,
            phones=await presence.phones(e),
            address=preflight.Address(
                self._address, network.is_loopback_host(host), self._address_result
            ),
            asking=time.monotonic() - self._first_call < FIRST_CALL,
        )

    async def _show(self) -> None:
        found = preflight.lines(await self._facts())
        self.lines = [x.as_dict() for x in found]
        self.summary = preflight.summary(found)

    def _ask_address(self) -> Any:
        """The script that opens the phones' address from this browser (once per check)."""
        if self._address_asked or self._address_result or not self._address:
            return None
        self._address_asked = True
        args = json.dumps([self._address, self._address_nonce])
        return rx.call_script(f"window.LotoCheck && LotoCheck.address(...{args})")

    # ------------------------------------------------------------------ events

    @rx.event
    async def tick(self):
        """Every 2 s while the page is open: ask who is there, show what answered."""
        if not self._authorized:  # (signed out: the page says how to sign in)
            return None
        if not await self._signed_in_now("tick"):
            return None
        await self._show()
        await self._call_roll()
        return self._ask_address()

    @rx.event
    async def again(self):
        """ "Vérifier à nouveau": every check from the start."""
        if not await self._signed_in_now("again"):
            return None
        self._new_address()
        self._pdf_tried = False
        self._first_call = time.monotonic()
        await self._call_roll()
        await self._try_pdf()
        await self._show()
        return self._ask_address()

    @rx.event
    async def address_seen(self, form_data: dict):
        """This browser's answer: did the phones' address open?"""
        try:
            data = form(form_data)
            nonce = as_text(data.get("nonce", ""), "nonce", 32)
            result = choice(data.get("result", ""), ("ok", *preflight.ADDRESS_FAILURES), "result")
        except BadInput as exc:
            refuse(self._who(), "address_seen", exc)
            return
        if not await self._signed_in_now("address_seen"):
            return
        if not self._address_asked or nonce != self._address_nonce:
            refuse(self._who(), "address_seen", f"no address check {nonce!r:.40} asked")
            return
        self._address_result = result
        log.info("evening %s: the phones' address %s: %s", self._evening_id, self._address, result)
        await self._show()

    @rx.event
    async def test_sound(self):
        """ "Essayer le son de l'écran": the hall screens play the chime and a sentence."""
        if not await self._signed_in_now("test_sound"):
            return
        e = self._evening_id
        nonce = await roll_call.book().ask_sound(e)
        self.sound_asked = True
        script = f"window.LotoSound && LotoSound.test({json.dumps(nonce)})"
        await broadcast.run_script(broadcast.screen_room(e), script)
        log.info("evening %s: sound test %s sent to the hall screens", e, nonce)
        await self._show()

    @rx.event
    async def open_pdf(self):
        """ "Ouvrir le PDF d'essai": the sample PDF, to see it open on this device."""
        if not await self._signed_in_now("open_pdf"):
            return None
        lv = await registry.live(self._evening_id)
        program = lv.evening.program
        try:
            pdf = await asyncio.to_thread(sample_pdf, lv.name, program.series, program)
        except Exception:
            log.exception("evening %s: the check's sample PDF failed", self._evening_id)
            self._pdf_seconds, self._pdf_tried = -1.0, True
            await self._show()
            return None
        return rx.download(data=pdf, filename="cartons-essai.pdf", mime_type="application/pdf")
