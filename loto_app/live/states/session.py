"""Who is on the other end of a socket: the two Reflex state mixins every page state that signs
someone in is built on.

- `BrowserSession`: an identity the browser keeps in its local storage (`code`, `secret`, with
  the storage names each page chose) and the server resolves against the database; the page's
  route (`ROUTE`); how a refusal is logged and told (`_who`, `_refused`); how a move is played
  (`_play`, the one way every page state plays); and when this socket's state was lost (`_lost`:
  the process that held it in memory restarted or dropped it once idle, while the browser kept
  its identity).
  `PlayerState` and every staff state use it.
- `StaffSession`: a member of the association signed in with the evening's code and a secret
  (the animateur, the desk's vendeurs and caissiers, the organiser): one `login`, `resume` and
  `logout`, the sign-in limit per address (`signin_limit.py`), and `_signed_in_now`, which
  every staff action calls first: signed in on this socket, and the secret still signs in in
  the database now (a renewed secret or a withdrawn access is refused from the next action on).
  The credential itself is checked by `AccessStore.signs_in`, one place for every kind.

The event gate (`ratelimit.py`) reads two things from these classes: a signed-in staff state is
not rate limited (`_authorized`), and an event that needs a session but reaches a lost state on
the session's own page makes the page load again (`reload_if_lost` below): the load sends the
identity the browser stores, and `resume` signs in again. Handlers that need no session (the
sign-in form, the page's on-load `resume`, ...) are named in `OPEN`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import reflex as rx

from loto_app.domain.errors import LotoError
from loto_app.limits import MAX_CODE, MAX_SECRET
from loto_app.live import compat
from loto_app.live.input.guards import BadInput, as_text, form, log, refuse
from loto_app.live.runtime import broadcast, registry, signin_limit
from loto_app.live.runtime.identity import access
from loto_app.live.runtime.live_evening import Extra
from loto_app.refusal import Refusal
from loto_app.storage.access import StaffMember

if TYPE_CHECKING:
    from reflex.state import BaseState

    from loto_app.domain import events as ev
    from loto_app.domain.engine import Evening

#: Shown on a phone while its page, whose state was lost, loads again (`RELOAD_MESSAGE`).
RECONNECTING = "Reconnexion en cours…"


class BrowserSession(rx.State, mixin=True):
    """An identity kept by the browser and checked by the server (the mixin: a state class
    lists it before `rx.State` and declares its own `code` and `secret` `rx.LocalStorage`)."""

    #: The page this state serves (its on-load handler is `resume`).
    ROUTE: ClassVar[str] = ""
    #: Other routes that serve the same page (the player's page is also the join page, `/`).
    ALSO_AT: ClassVar[tuple[str, ...]] = ()
    #: The handlers that need no session (anything else on a lost state reloads the page).
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume"})
    #: False on a substate whose handlers all work without a session (a form filled in first).
    NEEDS_SESSION: ClassVar[bool] = True
    #: Shown (in `message`) while the page loads again after a lost state ("": nothing).
    RELOAD_MESSAGE: ClassVar[str] = ""

    _evening_id: int = 0

    def _lost(self) -> bool:
        """No identity on the server and none stored in the state: Reflex's state for this
        socket was lost while the browser kept its identity (or never had one)."""
        return not self._identified() and not self.code and not self.secret

    def _identified(self) -> bool:
        """Is the socket signed in / identified on the server?"""
        raise NotImplementedError

    def _who(self) -> str:
        raise NotImplementedError

    def _tell(self, text: str) -> None:
        """Show a refusal's French message (the page's `message`, unless a state says where)."""
        self.message = text

    def _refused(self, handler: str, exc: Exception) -> None:
        """Log a refused call precisely, tell the user in French."""
        refuse(self._who(), handler, exc)
        self._tell(exc.user_message if isinstance(exc, Refusal) else "Action impossible.")

    # ------------------------------------------------------------------ moves

    async def _play(
        self,
        handler: str,
        move: Callable[[Evening], list[ev.Event]],
        *,
        checked: bool = False,
        say: Callable[[str], object] | None = None,
        extra: Extra | None = None,
    ) -> list[ev.Event] | None:
        """Run a move through the engine on behalf of this socket, the actor (the room
        messages that follow skip it: it shows its own move's result), then `_played`: the one
        way every page state plays. None when refused: logged (`registry.attempt`) and told in
        French, by `say(text)` when the handler names where (a form's own message), else by
        `_move_refused` (the state's `_tell`).

        `checked`: the handler checked the session itself earlier in this event
        (`_may_play`), so that it is not read from the database twice. `extra`: rows the
        move's commit writes beside its events (`registry.play`)."""
        if not checked and not await self._may_play(handler):
            return None

        def refused(exc: LotoError) -> None:
            if say is None:
                self._move_refused(handler, exc)
            else:
                say(exc.user_message)

        events = await registry.attempt(
            self._evening_id,
            move,
            who=self._who(),
            handler=handler,
            refused=refused,
            extra=extra,
            actor=self.router.session.session_id,
        )
        if events is not None:
            await self._played(events)
        return events

    async def _may_play(self, handler: str) -> bool:
        """May this socket play now (refused, logged and told otherwise)?"""
        raise NotImplementedError

    def _move_refused(self, handler: str, exc: LotoError) -> None:
        """The engine refused the move (a rule, a state of the game; logged already): say why."""
        self._tell(exc.user_message)

    async def _played(self, events: list[ev.Event]) -> None:
        """The move was committed: a message of a refusal before it no longer holds."""
        self.message = ""


class StaffSession(BrowserSession, mixin=True):
    """A staff member signed in with the evening's code and a secret.

    A state class sets `KIND` (the credential: "animateur", "desk" or "organiser", see
    `AccessStore.signs_in`), `ROUTE`, its `code` and `secret` local storage and a `signed_in`
    var, and may override the hooks `_entered`, `_left`, `_revoked`, `_not_signed_in`,
    `_login_said`, `_still_the_same`, `_locked_out` and `_resume_failed`.
    """

    KIND: ClassVar[str] = ""
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume", "login", "logout"})
    #: Said when the code or the secret is wrong.
    WRONG: ClassVar[str] = "Code de soirée ou secret incorrect."
    #: Said when the sign-in form sends something no form sends (None: "Requête invalide.").
    MALFORMED: ClassVar[str | None] = None

    _authorized: bool = False  # signed in on this socket (a backend var: the client cannot set it)
    _secret: str = ""  # the secret it signed in with, checked again before every action

    # ------------------------------------------------------------------ events

    @rx.event
    async def login(self, form_data: dict):
        """The sign-in form: the evening's code and a secret."""
        try:
            data = form(form_data)
            code = as_text(data.get("code", ""), "code", MAX_CODE).upper()
            secret = as_text(data.get("secret", ""), "secret", MAX_SECRET)
        except BadInput as exc:
            refuse(self._who(), "login", exc)
            self._login_said(self.MALFORMED or exc.user_message)
            return
        try:
            ok = bool(code and secret) and await self._sign_in(code, secret)
        except signin_limit.TooManyAttempts as exc:
            refuse(self._who(), "login", exc)
            self._login_said(exc.user_message)
            return
        if not ok:
            self._login_said(self.WRONG)
            return
        self.code, self.secret = code, secret
        self._login_said("")

    @rx.event
    async def resume(self):
        """On load: sign in again with what this device remembers."""
        await self._resume()

    @rx.event
    async def logout(self):
        """Forget the sign-in on this device."""
        self.code, self.secret = "", ""
        self._sign_out()
        await self._left()

    # ------------------------------------------------------------------ the session

    async def _resume(self) -> bool:
        """Sign in again with the stored code and secret (True when signed in)."""
        self._sign_out()
        code, secret = self.code, self.secret
        if not isinstance(code, str) or not isinstance(secret, str) or not secret:
            return False
        if len(code) > MAX_CODE or len(secret) > MAX_SECRET:
            refuse(self._who(), "resume", "stored code or secret too long")
            self._resume_failed()
            return False
        try:
            ok = await self._sign_in(code.strip().upper(), secret)
        except signin_limit.TooManyAttempts as exc:
            self._locked_out(exc)
            return False
        if not ok:
            self._resume_failed()
        return ok

    async def _sign_in(self, code: str, secret: str, *, enter: bool = True) -> bool:
        """Check the code and secret and sign in: the one sign-in of every staff page.

        `enter`: the page then loads the evening (`_entered`: its lists, its rooms), and a
        wrong code or secret is counted by the sign-in limit. Without it (a rebuilt state
        warming up before its snapshot, `_warm`) the socket is only signed in: the page's
        `resume` follows, enters, and counts a failure once.

        Raises:
            signin_limit.TooManyAttempts: this address failed too often.
        """
        await signin_limit.check(self.router)
        evening_id = await asyncio.to_thread(registry.store().evening_id_for_code, code)
        member = None
        if evening_id is not None:
            member = await asyncio.to_thread(access().signs_in, self.KIND, evening_id, secret)
        if evening_id is None or member is None:
            if enter:
                refuse(self._who(), "login", f"wrong code {code!r} or {self.KIND} secret")
                await signin_limit.failed(self.router, self.KIND)
            return False
        if enter:
            await self._enter(evening_id, secret, member)
        else:
            self._signed(evening_id, secret)
        return True

    def _signed(self, evening_id: int, secret: str) -> None:
        """Signed in on this socket (the secret was checked)."""
        self._evening_id, self._secret, self._authorized = evening_id, secret, True
        self.signed_in = True

    async def _enter(self, evening_id: int, secret: str, member: StaffMember) -> None:
        """Signed in (the secret was checked): the page loads the evening."""
        self._signed(evening_id, secret)
        await self._entered(member)

    @staticmethod
    def _stored_sign_in(stored: dict[str, Any]) -> tuple[str, str] | None:
        """The code and secret a browser stores, if they could sign in (lengths)."""
        code, secret = stored.get("code", ""), stored.get("secret", "")
        if not isinstance(code, str) or not isinstance(secret, str) or not code or not secret:
            return None
        if len(code) > MAX_CODE or len(secret) > MAX_SECRET:
            return None
        return code.strip().upper(), secret

    def _sign_out(self) -> None:
        self._evening_id, self._secret, self._authorized = 0, "", False
        self.signed_in = False

    def _identified(self) -> bool:
        return self._authorized

    async def _may_play(self, handler: str) -> bool:
        return await self._signed_in_now(handler)

    async def _signed_in_now(self, handler: str) -> bool:
        """Before every staff action: signed in on this socket, and the secret still signs in
        (refused, logged and told otherwise)."""
        if not self._authorized:
            refuse(self._who(), handler, f"not signed in as {self.KIND}")
            self._not_signed_in()
            return False
        if not await self._still_signed_in():
            refuse(self._who(), handler, f"the {self.KIND}'s secret no longer signs in")
            return False
        return True

    async def _still_signed_in(self) -> bool:
        """Does the secret this device signed in with still sign in, now? (Not: signed out,
        and told why.)"""
        member = await asyncio.to_thread(
            access().signs_in, self.KIND, self._evening_id, self._secret
        )
        if member is not None and self._still_the_same(member):
            return True
        log.warning("%s: the %s's secret no longer signs in: signed out", self._who(), self.KIND)
        self._sign_out()
        self._revoked()
        return False

    # ------------------------------------------------------------------ hooks

    async def _entered(self, member: StaffMember) -> None:
        """Signed in: load what the page shows, join the rooms."""

    async def _left(self) -> None:
        """Signed out by the user: forget what the page showed."""

    def _locked_out(self, exc: signin_limit.TooManyAttempts) -> None:
        """The stored sign-in could not be tried: this address failed too often."""
        self._refused("resume", exc)

    def _resume_failed(self) -> None:
        """The stored code and secret no longer sign in."""

    def _still_the_same(self, member: StaffMember) -> bool:
        """The member the secret signs in as now is the one that signed in."""
        return True

    def _revoked(self) -> None:
        """The secret no longer signs in (renewed, or the access withdrawn)."""
        self._not_signed_in()

    def _not_signed_in(self) -> None:
        self._tell("Réservé aux membres de l'association : connectez-vous.")

    def _login_said(self, text: str) -> None:
        """The sign-in form's message ("" on success)."""
        self.message = text

    def _who(self) -> str:
        return f"{self.KIND}? evening {self._evening_id} (sid {self.router.session.session_id})"


# ---------------------------------------------------------------------------- the event gate


def is_session(cls: Any) -> bool:
    """Is this state class a session, or a substate of one (a substate inherits its class)?"""
    return isinstance(cls, type) and issubclass(cls, BrowserSession)


async def reload_if_lost(state: BaseState, target: type, handler: str) -> bool:
    """The lost-state rule, for the event gate: an event that needs a session, on the session's
    own page, reaching a state with no identity at all makes the page load again (True: the
    event is dropped). Only a page with an identity shows the buttons that send such events, so
    a state without one was lost; the page load sends the stored identity again, and `resume`
    signs in. On another page (an attacker calling staff handlers from `/jouer`), or for an
    open handler, the handler runs and refuses as usual."""
    if not is_session(target) or not target.ROUTE or not target.NEEDS_SESSION:
        return False
    if handler in target.OPEN:
        return False
    root = compat.root_state(state)
    if (root.router.url.path.rstrip("/") or "/") not in (target.ROUTE, *target.ALSO_AT):
        return False
    sub: Any = await root.get_state(target)
    if not sub._lost():
        return False
    log.warning("%s: %s after a lost state: reloading", sub._who(), handler)
    if target.RELOAD_MESSAGE and "message" in target.vars:  # (a substate shows its parent's)
        sub.message = target.RELOAD_MESSAGE
    await broadcast.reload_page(root.router.session.session_id)
    return True
