"""AnimateurState: the tablet that drives the evening, signed in with the evening's secret.

Every action checks the sign-in (a backend var the client cannot set) and the secret itself
against the database as it stands now before it reaches the engine (`StaffSession`,
live/states/session.py): a player's phone calling
these handlers gets a refusal and nothing changes, and so does a tablet whose secret was renewed
(a lost tablet: the organiser issues a new secret, every tablet that used the old one is signed
out).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any, ClassVar

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import InvalidProgram, NotInTie
from loto_app.domain.verdicts import Verdict
from loto_app.limits import (
    MAX_PAUSE_MESSAGE,
    MAX_PAUSE_MINUTES,
)
from loto_app.live.input.claim_forms import read_own_claim, read_paper_claim
from loto_app.live.input.disputes import (
    decision_move,
    read_decision,
    read_tokens,
    read_withdrawal,
    tokens_for,
)
from loto_app.live.input.guards import (
    BadInput,
    as_bool,
    as_int,
    as_text,
    choice,
    form,
    refuse,
)
from loto_app.live.input.improvised import read_improvised
from loto_app.live.input.typed_lines import BadLines, read_lines, read_typed_form
from loto_app.live.present.typed_claims import typed_verdict
from loto_app.live.present.views import VERDICT_KIND, verdict_text
from loto_app.live.runtime import broadcast, presence, registry, signin_limit
from loto_app.live.states.screen_pairing import ScreenPairing
from loto_app.live.states.session import StaffSession
from loto_app.live.states.typed_lines import TypedLines
from loto_app.storage.access import StaffMember

#: The tablet's occasional forms (`AnimateurState.panel`).
PANELS = ("", "correct", "paper", "withdraw", "improvise")

#: Shown to a tablet whose secret no longer signs in (renewed by the organiser or the CLI).
REVOKED = (
    "Le secret de l'animateur a été renouvelé : connectez-vous avec le nouveau secret "
    "(demandez-le à l'organisateur)."
)


class AnimateurState(ScreenPairing, StaffSession, TypedLines, rx.State):
    """Sign-in (live/states/session.py) and the animateur's moves."""

    ROUTE: ClassVar[str] = "/animateur"
    KIND: ClassVar[str] = "animateur"
    # (`recheck` is a poke of the server's: a lost state waits for its next tap to reload)
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume", "login", "logout", "recheck"})
    WRONG: ClassVar[str] = "Code de soirée ou secret de l'animateur incorrect."

    code: str = rx.LocalStorage("", name="loto_animateur_code")
    secret: str = rx.LocalStorage("", name="loto_animateur_secret")
    signed_in: bool = False
    message: str = ""
    paper_verdict: str = ""
    paper_verdict_kind: str = ""
    # a carton in no list (TypedLines: the lines to type for the claim in play): the verdict
    typed_verdict: str = ""
    typed_verdict_kind: str = ""
    own_series: list[str] = []  # the association's own séries (a claim checked by number)
    dispute_claim: int = 0  # the claim whose "Réclamation / litige" form is open (0: none)
    dispute_message: str = ""
    # the occasional form open on the tablet (`PANELS`; "": none): the main column keeps the
    # next action until one is asked for
    panel: str = ""
    correction: int = 0  # the number typed to replace the last one, waiting for "Oui, corriger"

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Before Reflex's snapshot of a rebuilt state: signed in again from what this tablet
        stores (checked in the database) and the board, so that a restart does not flash the
        sign-in form; `resume`, the page's on_load handler, then signs in fully (rooms,
        snapshot; `whole` is never so here)."""
        stored_sign_in = self._stored_sign_in(stored)
        if stored_sign_in is None:
            return False
        try:  # (an address locked out of sign-ins is not let in this way either; a wrong
            # secret is counted once, by `resume` right after)
            if not await self._sign_in(*stored_sign_in, enter=False):
                return False
        except signin_limit.TooManyAttempts:
            return False
        await broadcast.fill_hall(self, await registry.live(self._evening_id))
        return False

    @rx.event
    async def recheck(self):
        """Poked by the server when the animateur's secret was renewed: a tablet signed in with
        the old one is signed out at once (its next action would be refused anyway)."""
        if self._authorized:
            await self._still_signed_in()

    async def _entered(self, member: StaffMember) -> None:
        lv = await registry.live(self._evening_id)
        self.own_series = sorted(lv.evening.own_series.values())
        sid = self.router.session.session_id
        await broadcast.enter(sid, self._evening_id, staff=True)
        await broadcast.send_snapshot(sid, lv)
        await presence.tell(sid, self._evening_id)  # (the phones connected now)

    def _revoked(self) -> None:
        self.secret, self.message = "", REVOKED

    def _not_signed_in(self) -> None:
        self.message = "Réservé à l'animateur : connectez-vous avec le secret de la soirée."

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
    def open_panel(self, name: str):
        """Open an occasional form (the correction, a paper carton's control, voiding a lot
        ticket); "" or the open one's name closes it."""
        try:
            name = choice(name, PANELS, "panel")
        except BadInput as exc:
            return self._refused("open_panel", exc)
        self.panel = "" if name == self.panel else name
        self.correction = 0
        if self.panel != "paper":
            self.paper_verdict = ""

    @rx.event
    def ask_correction(self, form_data: dict):
        """Physical boulier, a mistyped last number: the right one typed, asked once more
        ("Remplacer le 42 par le 24 ?") before anything changes."""
        try:
            self.correction = as_int(form(form_data).get("ball"), 1, 90, "ball")
        except BadInput as exc:
            self._refused("ask_correction", exc)
            self.message = "Tapez le bon numéro, de 1 à 90."

    @rx.event
    async def correct_last(self, form_data: dict | None = None):
        """Physical boulier: correct a mistyped last number (logged): the number asked by
        `ask_correction`, or one sent with the form."""
        try:
            raw = form(form_data).get("ball") if form_data else self.correction
            n = as_int(raw, 1, 90, "ball")
        except BadInput as exc:
            self._refused("correct_last", exc)
            self.message = "Tapez le bon numéro, de 1 à 90."
            return
        if await self._play("correct_last", lambda e: e.correct_last(n)) is not None:
            self.panel, self.correction = "", 0

    @rx.event
    async def award(self):
        """Give the stage's lot to its winner(s)."""
        await self._play("award", lambda e: e.award())

    @rx.event
    async def tie_draw(self):
        """Ex aequo: token draw, highest wins, the others get a free carton."""
        await self._play("tie_draw", lambda e: e.break_tie_by_draw())

    @rx.event
    async def sudden_ball(self, form_data: dict | None = None):
        """Mort subite: one extra ball among the tied (drawn by the app, or the ball drawn
        from the bag typed in the form)."""
        try:
            raw = form(form_data).get("ball") if form_data else None
            n = None if raw is None else as_int(raw, 1, 90, "ball")
        except BadInput as exc:
            self._refused("sudden_ball", exc)
            self.message = "Tapez le numéro de la boule, de 1 à 90."
            return
        await self._play("sudden_ball", lambda e: e.sudden_death_ball(n))

    @rx.event
    async def add_game(self, form_data: dict):
        """A partie improvisée: a game added to the program now (a donor arrived with a lot)."""
        try:
            spec = read_improvised(form(form_data))
        except (BadInput, InvalidProgram) as exc:
            self._refused("add_game", exc)
            self.message = exc.user_message
            return
        if await self._play("add_game", lambda e: e.add_game(spec, by="animateur")) is not None:
            self.panel = ""

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
    async def start_pause(self, form_data: dict):
        """An entracte between games: its message for the hall screen and how many minutes it
        lasts (the screen shows the time the games resume and counts down)."""
        try:
            data = form(form_data)
            message = as_text(data.get("message", ""), "message", MAX_PAUSE_MESSAGE)
            minutes = as_int(data.get("minutes"), 1, MAX_PAUSE_MINUTES, "minutes")
        except BadInput as exc:
            self._refused("start_pause", exc)
            self.message = "Écrivez le message de l'entracte et choisissez sa durée."
            return
        returns_at = int(time.time()) + 60 * minutes
        await self._play("start_pause", lambda e: e.start_pause(message, returns_at))

    @rx.event
    async def end_pause(self):
        """The entracte is over (starting the next game ends it too)."""
        await self._play("end_pause", lambda e: e.end_pause())

    @rx.event
    async def allow_unmark(self):
        """ "Vous pouvez démarquer": ends the game."""
        await self._play("allow_unmark", lambda e: e.allow_unmark())

    @rx.event
    async def paper_claim(self, form_data: dict):
        """The control desk: a paper player's claim, checked by carton number and check code
        with the same verdicts as in the app."""
        await self._desk_claim(
            "paper_claim",
            form_data,
            read_paper_claim,
            lambda e, no, check: e.paper_claim(e.program.series, no, check),
            "Tapez le numéro du carton et son code de contrôle.",
        )

    # ------------------------------------------------------------------ a carton in no list

    def _typed_opened(self) -> None:
        self.typed_verdict = self.typed_verdict_kind = ""

    @rx.event
    async def typed_claim(self, form_data: dict):
        """A claim on a carton in no list: the numbers of the claimed line(s) as typed
        (`line1`...), judged by `Evening.typed_claim` on the stage in play."""
        try:
            name, fields = read_typed_form(form(form_data))
        except BadInput as exc:
            self._refused("typed_claim", exc)
            self.typed_verdict, self.typed_verdict_kind = "Requête invalide.", "false"
            return
        lv = await self._typed_now("typed_claim")
        if lv is None:
            return
        try:
            if not self.typed_needed:
                raise BadLines("no typed claim now", self.typed_hint)
            lines = read_lines(fields, self.typed_needed)
        except BadLines as exc:
            self._refused("typed_claim", exc)
            self.typed_verdict, self.typed_verdict_kind = exc.user_message, "false"
            return
        pid = f"hl-{secrets.token_hex(8)}"
        events = await self._play(
            "typed_claim",
            lambda e: e.typed_claim(lines, pid, "Animateur", name),
            checked=True,
            say=self._typed_refused,
        )
        claims = [x for x in events or () if isinstance(x, ev.ClaimMade)]
        if claims:
            c, e = claims[-1], lv.evening
            who = e.players.get(c.player_id or "", "")
            self.typed_verdict = (f"{who} — " if who else "") + typed_verdict(e, c)
            self.typed_verdict_kind = VERDICT_KIND[Verdict(c.verdict)]

    def _typed_refused(self, text: str) -> None:
        self.typed_verdict, self.typed_verdict_kind = text, "false"

    @rx.event
    async def own_claim(self, form_data: dict):
        """The control desk: a claim on one of the association's own cartons, checked by its
        série and number alone (no check code), with the same verdicts."""
        await self._desk_claim(
            "own_claim",
            form_data,
            read_own_claim,
            lambda e, series, no: e.own_claim(series, no),
            "Choisissez la série et tapez le numéro du carton.",
        )

    async def _desk_claim(
        self,
        handler: str,
        form_data: dict,
        read: Callable[[dict[str, Any]], tuple[Any, ...]],
        move: Callable[..., list[ev.Event]],
        said: str,
    ) -> None:
        """A paper or own carton's claim at the control desk: its form read (`read`; `said`
        when it does not read), `move(e, *what_was_read)` played, the verdict under the form."""
        try:
            args = read(form(form_data))
        except BadInput as exc:
            self._refused(handler, exc)
            self.message = said
            return
        events = await self._play(handler, lambda e: move(e, *args))
        claims = [x for x in events or () if isinstance(x, ev.ClaimMade)]
        if claims:
            e = (await registry.live(self._evening_id, fresh=False)).evening
            c = claims[-1]
            who = e.players.get(c.player_id or "", "carton non vendu")
            label = e.carton_label(c.carton_no)
            self.paper_verdict = f"{verdict_text(c.verdict, label, c.number)} ({who})"
            self.paper_verdict_kind = VERDICT_KIND[Verdict(c.verdict)]

    # ------------------------------------------------------------------ helpers
