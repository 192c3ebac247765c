"""OrganisationState: the organiser's page (`/organisation`), signed in with the evening's code and
the organiser's secret, and the parent of the organiser's three tasks, each its own substate:

- `live/states/organisation_setup.py` (`EveningSetup`): the new evening's form, open to anyone (it
  only hands out new secrets), which signs its creator in;
- `live/states/organisation_staff.py` (`EveningStaff`): who may sign in: the desk's members, the
  animateur's secret, the remote players' invitation link;
- `live/states/organisation_records.py` (`EveningRecords`): paper cartons, the report, the
  association's decisions, the journal's check.

The sign-in is a `StaffSession` (live/states/session.py): the secret is checked against the database
again before every action of a task, so a secret that was reset stops working at once, and the
code and secret the browser remembers (`rx.LocalStorage`) are only ever used to sign in again.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

import reflex as rx

from loto_app import network
from loto_app.live.input.guards import BadInput, choice, refuse
from loto_app.live.runtime import registry, signin_limit
from loto_app.live.states.session import StaffSession
from loto_app.storage.access import StaffMember

if TYPE_CHECKING:
    from loto_app.domain import events as ev

NOT_SIGNED_IN = "Réservé à l'organisateur : connectez-vous avec le code et le secret de la soirée."


class OrganisationState(StaffSession, rx.State):
    """The organiser's sign-in and the evening they manage (the tasks are its substates)."""

    ROUTE: ClassVar[str] = "/organisation"
    KIND: ClassVar[str] = "organiser"
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume", "login", "logout", "show_tab"})
    WRONG: ClassVar[str] = "Code de soirée ou secret de l'organisateur incorrect."
    MALFORMED: ClassVar[str | None] = "Code ou secret trop long."

    # remembered by this browser, only to sign in again (the server checks them each time)
    code: str = rx.LocalStorage("", name="loto_organiser_code")
    secret: str = rx.LocalStorage("", name="loto_organiser_secret")
    signed_in: bool = False
    tab: str = ""  # while signed out: "" (the choice), "create" or "signin"
    login_message: str = ""
    message: str = ""  # from the event gate (loto_app/live/gate/ratelimit.py): too many requests
    origin: str = ""  # the page's scheme://host, for the links

    # --- the signed-in organiser's evening
    evening_name: str = ""
    evening_code: str = ""
    evening_series: str = ""
    evening_remote: bool = False

    @rx.var
    def player_link(self) -> str:
        """The players' join link of the signed-in evening."""
        return f"{self.origin}/?code={self.evening_code}"

    @rx.var
    def screen_link(self) -> str:
        """The hall screen's link."""
        return f"{self.origin}/ecran?code={self.evening_code}"

    @rx.event
    def show_tab(self, tab: Any):
        """Signed out: the choice, creating an evening, or signing in."""
        try:
            self.tab = choice(tab, ("", "create", "signin"), "tab")
        except BadInput as exc:
            refuse(self._who(), "show_tab", exc)
            return
        self.login_message = ""

    # ------------------------------------------------------------------ the session's hooks

    async def _resume(self) -> bool:
        """On load: the page's address for the links, each task's defaults; then sign in
        again with what this browser remembers."""
        self.origin = network.public_origin_of(self.router)[:200]
        for task in await self._tasks():
            task._page_loaded()
        return await StaffSession._resume(self)

    async def _entered(self, member: StaffMember) -> None:
        store = registry.store()
        eid = self._evening_id
        name, code = await asyncio.to_thread(store.describe, eid)
        program = (await registry.live(eid)).evening.program
        self.evening_name, self.evening_code = name, code
        self.evening_series = program.series
        self.evening_remote = program.settings.remote_play
        for task in await self._tasks():
            await task._evening_loaded()

    async def _left(self) -> None:
        for task in await self._tasks():
            task._signed_out()
        self.tab = "signin"

    def _resume_failed(self) -> None:
        self.code, self.secret = "", ""
        self.tab = "signin"  # (this browser had signed in to an evening: sign in again)

    def _locked_out(self, exc: signin_limit.TooManyAttempts) -> None:
        refuse(self._who(), "resume", exc)
        self.login_message, self.tab = exc.user_message, "signin"

    def _revoked(self) -> None:
        self.code, self.secret = "", ""
        self.login_message = "Le secret de l'organisateur n'est plus valable : reconnectez-vous."
        self.tab = "signin"

    def _login_said(self, text: str) -> None:
        self.login_message = text

    async def _played(self, events: list[ev.Event]) -> None:
        """A task's move committed: nothing to clear (`message` is the event gate's; each task
        says its own results)."""

    async def _tasks(self) -> list[Any]:
        """The organiser's task states of this client (whichever state asks)."""
        return [await self.get_state(cls) for cls in OrganisationState.get_substates()]

    # ------------------------------------------------------------------ a task's hooks

    def _page_loaded(self) -> None:
        """The page was (re)loaded: a task's defaults."""

    async def _evening_loaded(self) -> None:
        """Signed in to an evening: what the task shows of it."""

    def _signed_out(self) -> None:
        """Signed out: forget what the task showed (secrets shown once first)."""

    def _not_signed_in(self) -> None:
        self._tell(NOT_SIGNED_IN)
