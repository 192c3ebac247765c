"""The organiser's second task: who may sign in to the evening. The desk's vendeurs and
caissiers (each with a secret, shown once; an access can be withdrawn and given back), the
animateur's secret (renewed when a tablet is lost: every tablet signed in with the old one is
signed out). A substate of `OrganisationState`: every
action needs the organiser's sign-in, checked in the database (`_signed_in_now`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import reflex as rx

from loto_app.limits import MAX_STAFF_NAME
from loto_app.live.input.guards import BadInput, as_bool, as_int, as_text, choice, form, refuse
from loto_app.live.runtime import broadcast
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.screen_pairing import ScreenPairing
from loto_app.live.states.session import access
from loto_app.storage.access import ROLES, AccessError

log = logging.getLogger("loto_app.live")


@dataclasses.dataclass
class StaffView:
    """A member of the desk, for the list."""

    id: int = 0
    name: str = ""
    role: str = ""
    role_label: str = ""
    active: bool = True


class EveningStaff(ScreenPairing, OrganisationState):
    """The desk's members, the animateur's secret, and the hall TVs
    attached by their pairing code (the animateur's handler: `ScreenPairing`)."""

    staff: list[StaffView] = []
    staff_message: str = ""
    new_staff_name: str = ""
    new_staff_role: str = ""
    new_staff_secret: str = ""
    renew_animateur_asked: bool = False  # the confirmation step is shown
    renewed_animateur_secret: str = ""  # shown once

    # ------------------------------------------------------------------ the desk's staff

    @rx.event
    async def add_staff(self, form_data: Any):
        """A new vendeur or caissier: their secret is shown once."""
        if not await self._signed_in_now("add_staff"):
            return
        try:
            data = form(form_data)
            name = as_text(data.get("name", ""), "name", MAX_STAFF_NAME * 2)
            role = choice(data.get("role", ""), ROLES, "role")
        except BadInput as exc:
            refuse(self._who(), "add_staff", exc)
            self.staff_message = (
                f"Le nom doit faire de 1 à {MAX_STAFF_NAME} caractères ; "
                "choisissez vendeur, caissier ou contrôleur."
            )
            return
        try:
            secret = await asyncio.to_thread(access().add_staff, self._evening_id, name, role)
        except AccessError as exc:
            refuse(self._who(), "add_staff", exc)
            self.staff_message = exc.user_message
            return
        log.info("evening %s: organiser added %s %r", self._evening_id, role, name)
        self.new_staff_name, self.new_staff_role, self.new_staff_secret = name, ROLES[role], secret
        self.staff_message = ""
        await self._load_staff()

    @rx.event
    def hide_staff_secret(self):
        """The new member's secret was written down."""
        self.new_staff_name = self.new_staff_role = self.new_staff_secret = ""

    @rx.event
    async def set_staff_active(self, staff_id: Any, active: Any):
        """Withdraw (False) or give back (True) a member's access."""
        if not await self._signed_in_now("set_staff_active"):
            return
        try:
            sid = as_int(staff_id, 1, 2**31 - 1, "staff id")
            on = as_bool(active, "active")
        except BadInput as exc:
            refuse(self._who(), "set_staff_active", exc)
            self.staff_message = "Membre inconnu."
            return
        try:
            await asyncio.to_thread(access().set_active, self._evening_id, sid, on)
        except AccessError as exc:
            refuse(self._who(), "set_staff_active", exc)
            self.staff_message = exc.user_message
            return
        log.info("evening %s: staff %s active=%s", self._evening_id, sid, on)
        self.staff_message = ""
        await self._load_staff()

    # ------------------------------------------------------------------ the animateur's secret

    @rx.event
    async def ask_renew_animateur(self):
        """First step of renewing the animateur's secret (a lost tablet): ask to confirm."""
        if await self._signed_in_now("ask_renew_animateur"):
            self.renew_animateur_asked, self.renewed_animateur_secret = True, ""

    @rx.event
    def cancel_renew_animateur(self):
        """The organiser changed their mind."""
        self.renew_animateur_asked = False

    @rx.event
    async def renew_animateur_secret(self):
        """Issue a new animateur secret, shown once: every tablet signed in with the old one is
        signed out (at once in this process, at its next action elsewhere)."""
        if not await self._signed_in_now("renew_animateur_secret"):
            return
        if not self.renew_animateur_asked:
            refuse(self._who(), "renew_animateur_secret", "not confirmed")
            self.staff_message = "Confirmez d'abord le renouvellement."
            return
        secret = await asyncio.to_thread(access().reset_animateur_secret, self._evening_id)
        log.warning("evening %s: the organiser renewed the animateur's secret", self._evening_id)
        self.renew_animateur_asked, self.renewed_animateur_secret = False, secret
        await broadcast.recheck_staff(self._evening_id)

    @rx.event
    def hide_renewed_animateur_secret(self):
        """The new secret was written down."""
        self.renewed_animateur_secret = ""

    # ------------------------------------------------------------------ hooks

    async def _evening_loaded(self) -> None:
        await self._load_staff()
        self.staff_message = ""

    def _signed_out(self) -> None:
        self.new_staff_secret = self.new_staff_name = ""
        self.renew_animateur_asked, self.renewed_animateur_secret = False, ""
        self.pair_message, self.pair_ok = "", False

    def _tell(self, text: str) -> None:
        self.staff_message = text

    async def _load_staff(self) -> None:
        members = await asyncio.to_thread(access().staff, self._evening_id)
        self.staff = [
            StaffView(m.id, m.name, m.role, ROLES.get(m.role, m.role), m.active) for m in members
        ]
