"""AnimateurState: the tablet that drives the evening, signed in with the evening's secret.

Every action checks the sign-in (a backend var the client cannot set) and the secret itself
against the database as it stands now before it reaches the engine: a player's phone calling
these handlers gets a refusal and nothing changes, and so does a tablet whose secret was renewed
(a lost tablet: the organiser issues a new secret, every tablet that used the old one is signed
out).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError, NotInTie
from loto_app.domain.verdicts import Verdict
from loto_app.live import broadcast, registry, signin_limit
from loto_app.live.disputes import (
    decision_move,
    read_decision,
    read_tokens,
    read_withdrawal,
    tokens_for,
)
from loto_app.live.guards import BadInput, as_bool, as_int, as_text, form, log, refuse
from loto_app.live.views import VERDICT_KIND, verdict_text
from loto_app.storage.access import AccessStore

#: Shown to a tablet whose secret no longer signs in (renewed by the organiser or the CLI).
REVOKED = (
    "Le secret de l'animateur a été renouvelé : connectez-vous avec le nouveau secret "
    "(demandez-le à l'organisateur)."
)


class AnimateurState(rx.State):
    """Sign-in and the animateur's moves."""

    code: str = rx.LocalStorage("", name="loto_animateur_code")
    secret: str = rx.LocalStorage("", name="loto_animateur_secret")
    signed_in: bool = False
    message: str = ""
    paper_verdict: str = ""
    paper_verdict_kind: str = ""
    dispute_claim: int = 0  # the claim whose "Réclamation / litige" form is open (0: none)
    dispute_message: str = ""
    _evening_id: int = 0
    _authorized: bool = False

    WARM_ROUTE: ClassVar[str] = "/animateur"  # live/rehydrate.py

    async def _warm(self, stored: dict[str, Any]) -> None:
        """Before Reflex's snapshot of a rebuilt state: signed in again from what this tablet
        stores (checked in the database) and the board, so that a restart does not flash the
        sign-in form; `resume` then signs in fully (rooms, snapshot)."""
        code, secret = stored.get("code", ""), stored.get("secret", "")
        if not code or not secret or len(code) > 16 or len(secret) > 64:
            return
        try:  # an address locked out of sign-ins is not let in this way either; a wrong secret
            await signin_limit.check(self.router)  # is counted once, by `resume` right after
        except signin_limit.TooManyAttempts:
            return
        store = registry.store()
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
        if evening_id is None or not await asyncio.to_thread(
            AccessStore(store.engine).check_animateur, evening_id, secret
        ):
            return
        self._evening_id, self._authorized, self.signed_in = evening_id, True, True
        await broadcast.fill_hall(self, await registry.live(evening_id))

    @rx.event
    async def login(self, form_data: dict):
        """The sign-in form: evening code and the animateur's secret."""
        try:
            data = form(form_data)
            code = as_text(data.get("code", ""), "code", 16).upper()
            secret = as_text(data.get("secret", ""), "secret", 64)
        except BadInput as exc:
            return self._refused("login", exc)
        try:
            ok = await self._sign_in(code, secret)
        except signin_limit.TooManyAttempts as exc:
            return self._refused("login", exc)
        if not ok:
            self.message = "Code de soirée ou secret de l'animateur incorrect."
            return
        self.code, self.secret, self.message = code, secret, ""

    @rx.event
    async def resume(self):
        """On load: sign in again with what this tablet remembers."""
        self.signed_in = False
        if isinstance(self.code, str) and isinstance(self.secret, str) and self.secret:
            try:
                await self._sign_in(self.code, self.secret)
            except signin_limit.TooManyAttempts as exc:
                self._refused("resume", exc)

    @rx.event
    def logout(self):
        """Forget the sign-in on this tablet."""
        self.code, self.secret, self.signed_in, self._authorized = "", "", False, False

    @rx.event
    async def recheck(self):
        """Poked by the server when the animateur's secret was renewed: a tablet signed in with
        the old one is signed out at once (its next action would be refused anyway)."""
        if self._authorized:
            await self._still_signed_in()

    async def _sign_in(self, code: str, secret: str) -> bool:
        """Raises signin_limit.TooManyAttempts when this address failed too often."""
        await signin_limit.check(self.router)
        store = registry.store()
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
        ok = evening_id is not None and await asyncio.to_thread(
            AccessStore(store.engine).check_animateur, evening_id, secret
        )
        if not ok:
            refuse(self._who(), "login", "wrong code or secret")
            await signin_limit.failed(self.router, "animateur")
            return False
        self._evening_id, self._authorized, self.signed_in = evening_id, True, True
        lv = await registry.live(evening_id)
        sid = self.router.session.session_id
        await broadcast.enter(sid, evening_id, staff=True)
        await broadcast.send_snapshot(sid, lv)
        return True

    # ------------------------------------------------------------------ moves

    @rx.event
    async def start_game(self):
        """Announce and start the next game of the program."""
        await self._play("start_game", lambda e: e.start_game())

    @rx.event
    async def draw(self):
        """Electronic boulier: draw the next number."""
        await self._play("draw", lambda e: e.draw())

    @rx.event
    async def enter_ball(self, form_data: dict):
        """Physical boulier: the number read on the ball."""
        try:
            n = as_int(form(form_data).get("ball"), 1, 90, "ball")
        except BadInput as exc:
            self._refused("enter_ball", exc)
            self.message = "Tapez le numéro de la boule, de 1 à 90."
            return
        await self._play("enter_ball", lambda e: e.enter_ball(n))

    @rx.event
    async def correct_last(self, form_data: dict):
        """Physical boulier: correct a mistyped last number (logged)."""
        try:
            n = as_int(form(form_data).get("ball"), 1, 90, "ball")
        except BadInput as exc:
            self._refused("correct_last", exc)
            self.message = "Tapez le bon numéro, de 1 à 90."
            return
        await self._play("correct_last", lambda e: e.correct_last(n))

    @rx.event
    async def award(self):
        """Give the stage's lot to its winner(s)."""
        await self._play("award", lambda e: e.award())

    @rx.event
    async def tie_draw(self):
        """Ex aequo: token draw, highest wins, the others get a free carton."""
        await self._play("tie_draw", lambda e: e.break_tie_by_draw())

    @rx.event
    async def tie_tokens(self, form_data: dict):
        """Tokens from the bag: the number each tied player drew, typed in entry order."""
        try:
            key, numbers = read_tokens(form(form_data))
        except BadInput as exc:
            self._refused("tie_tokens", exc)
            self.message = exc.user_message
            return

        def move(e: Evening) -> list[ev.Event]:
            return e.break_tie_with_tokens(tokens_for(e, key, numbers))

        await self._play("tie_tokens", move)

    @rx.event
    async def paper_answer(self, index: int, accept: bool):
        """A paper player's answer to the share, as they said it to the animateur."""
        try:
            i = as_int(index, 0, 9, "tied player")
            yes = as_bool(accept, "accept")
        except BadInput as exc:
            return self._refused("paper_answer", exc)

        def move(e: Evening) -> list[ev.Event]:
            g = e.game
            offered = g.tie.share_offered_to if g is not None else ()
            if i >= len(offered):
                raise NotInTie(f"no tied player {i} in the share offer {offered}")
            return e.answer_share(offered[i], yes, by="animateur")

        await self._play("paper_answer", move)

    @rx.event
    def open_dispute(self, claim_no: int):
        """Open the "Réclamation / litige" form of a claim (0 closes it)."""
        try:
            self.dispute_claim = as_int(claim_no, 0, 1_000_000, "claim")
        except BadInput as exc:
            return self._refused("open_dispute", exc)
        self.dispute_message = ""

    @rx.event
    async def decide(self, form_data: dict):
        """A decision of the association on a claim (art. 8), with its written reason."""
        try:
            claim_no, decision, reason = read_decision(form(form_data))
        except BadInput as exc:
            refuse(self._who(), "decide", exc)
            self.dispute_message = exc.user_message  # (said in the form, where it was typed)
            return
        if await self._play("decide", decision_move(claim_no, decision, "animateur", reason)):
            self.dispute_claim, self.dispute_message = 0, ""
        elif self._authorized:
            self.dispute_message, self.message = self.message, ""

    @rx.event
    async def withdraw_award(self, form_data: dict):
        """Void a lot ticket by a decision (the desk can no longer hand it over)."""
        try:
            ticket, reason = read_withdrawal(form(form_data))
        except BadInput as exc:
            self._refused("withdraw_award", exc)
            self.message = exc.user_message
            return
        await self._play("withdraw_award", lambda e: e.withdraw_award(ticket, "animateur", reason))

    @rx.event
    async def tie_share(self):
        """Ex aequo of two on a divisible lot: ask both players whether they share."""
        await self._play("tie_share", lambda e: e.offer_share())

    @rx.event
    async def allow_unmark(self):
        """ "Vous pouvez démarquer": ends the game."""
        await self._play("allow_unmark", lambda e: e.allow_unmark())

    @rx.event
    async def paper_claim(self, form_data: dict):
        """The control desk: a paper player's claim, checked by carton number and check code
        with the same verdicts as in the app."""
        try:
            data = form(form_data)
            no = as_int(data.get("carton"), 1, 100_000, "carton")
            check = as_text(data.get("check", ""), "check", 16)
        except BadInput as exc:
            self._refused("paper_claim", exc)
            self.message = "Tapez le numéro du carton et son code de contrôle."
            return
        if not self._authorized or not await self._still_signed_in():
            await self._play("paper_claim", lambda e: [])
            return
        lv = await registry.live(self._evening_id, fresh=False)
        series = lv.evening.program.series
        events = await self._play("paper_claim", lambda e: e.desk_claim(series, no, check))
        claims = [x for x in events or () if isinstance(x, ev.ClaimMade)]
        if claims:
            c = claims[-1]
            who = lv.evening.players.get(c.player_id or "", "carton non vendu")
            self.paper_verdict = f"{verdict_text(c.verdict, c.carton_no, c.number)} ({who})"
            self.paper_verdict_kind = VERDICT_KIND[Verdict(c.verdict)]

    # the hall TV's pairing (issue 13): its own line of result, under its form
    pair_message: str = ""
    pair_ok: bool = False

    @rx.event
    async def pair_screen(self, form_data: dict):
        """Attach the hall TV showing this pairing code to the evening (live/pairing.py)."""
        from loto_app.live import pairing

        self.pair_ok = False
        try:
            code = as_text(form(form_data).get("pair", ""), "pair", 20)
        except BadInput as exc:
            refuse(self._who(), "pair_screen", exc)
            self.pair_message = pairing.UNKNOWN
            return
        if not self._authorized or not await self._still_signed_in():
            await self._play("pair_screen", lambda e: [])
            return
        try:
            address = signin_limit.counted_address(self.router)
            await pairing.store().attach(code, self._evening_id, address)
        except pairing.Refused as exc:
            refuse(self._who(), "pair_screen", exc)
            self.pair_message = exc.user_message
            return
        self.pair_ok = True
        self.pair_message = "Écran relié : il affiche la soirée dans un instant."

    # ------------------------------------------------------------------ helpers

    async def _still_signed_in(self) -> bool:
        """Does the secret this tablet signed in with still sign in, now? (Renewed: the tablet
        is signed out, the secret it remembers forgotten, and it is told why.)"""
        secret = self.secret if isinstance(self.secret, str) else ""
        access = AccessStore(registry.store().engine)
        if await asyncio.to_thread(access.check_animateur, self._evening_id, secret):
            return True
        log.warning("%s: the animateur's secret was renewed: signed out", self._who())
        self.secret, self.signed_in, self._authorized = "", False, False
        self.message = REVOKED
        return False

    def _who(self) -> str:
        return f"animateur? evening {self._evening_id} (sid {self.router.session.session_id})"

    def _refused(self, handler: str, exc: Exception) -> None:
        refuse(self._who(), handler, exc)
        self.message = getattr(exc, "user_message", "Action impossible.")

    async def _play(
        self, handler: str, move: Callable[[Evening], list[ev.Event]]
    ) -> list[ev.Event] | None:
        if not self._authorized:
            lost = not self.secret and not self.code
            if lost and self.router.url.path.rstrip("/") == "/animateur":
                # only a signed-in tablet shows these buttons: this socket's state was lost
                # (Redis restarted or expired it); a page load sends the stored sign-in again
                log.warning("%s: %s after a lost state: reloading", self._who(), handler)
                await broadcast.reload_page(self.router.session.session_id)
                return None
            self._refused(handler, BadInput("not signed in as animateur"))
            self.message = "Réservé à l'animateur : connectez-vous avec le secret de la soirée."
            return None
        if not await self._still_signed_in():
            refuse(self._who(), handler, "the animateur's secret was renewed: signed out")
            return None
        try:
            events = await registry.play(self._evening_id, move)
            self.message = ""
            return events
        except LotoError as exc:
            self._refused(handler, exc)
            return None
