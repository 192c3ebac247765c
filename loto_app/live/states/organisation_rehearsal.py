"""The organiser's rehearsal (répétition): a copy of the evening for the volunteers' test
phones, made and deleted from `/organisation` (`pages/organisation_rehearsal.py`). The copy is an
evening of its own (`storage/rehearsal.py`, `live/runtime/rehearsals.py`): its join code, its
animateur secret (shown once, renewable here), the desk's members with their own secrets. One
at a time per evening; deleted with one confirmed tap. A substate of `OrganisationState`:
every action needs the organiser's sign-in, checked in the database (`_signed_in_now`).
"""

from __future__ import annotations

import logging

import reflex as rx

from loto_app.live.input.guards import refuse
from loto_app.live.runtime import rehearsals
from loto_app.live.states.organisation import OrganisationState
from loto_app.storage.rehearsal import Rehearsal, RehearsalError

log = logging.getLogger("loto_app.live")

NONE_NOW = "Il n'y a pas de répétition en cours."
DELETED = "Répétition supprimée. La vraie soirée n'a pas changé."


class EveningRehearsal(OrganisationState):
    """The signed-in evening's rehearsal, if it has one."""

    rehearsal_code: str = ""  # "" : none
    rehearsal_name: str = ""
    rehearsal_secret: str = ""  # the copy's animateur secret, shown once
    rehearsal_message: str = ""
    rehearsal_done: str = ""  # what was just done (a green line)
    delete_asked: bool = False  # the confirmation step is shown

    @rx.var
    def rehearsal_player_link(self) -> str:
        """The copy's join link (the test phones)."""
        return f"{self.origin}/?code={self.rehearsal_code}"

    @rx.var
    def rehearsal_screen_link(self) -> str:
        """The copy's hall screen."""
        return f"{self.origin}/ecran?code={self.rehearsal_code}"

    @rx.var
    def rehearsal_reglement_link(self) -> str:
        """The copy's règlement."""
        return f"{self.origin}/reglement?code={self.rehearsal_code}"

    # ------------------------------------------------------------------ a task's hooks

    async def _evening_loaded(self) -> None:
        await self._show(await rehearsals.find(self._evening_id))

    def _signed_out(self) -> None:
        self.rehearsal_code = self.rehearsal_name = self.rehearsal_secret = ""
        self.rehearsal_message = self.rehearsal_done = ""
        self.delete_asked = False

    async def _show(self, found: Rehearsal | None) -> None:
        self.rehearsal_code = found.join_code if found else ""
        self.rehearsal_name = found.name if found else ""

    # ------------------------------------------------------------------ the moves

    @rx.event
    async def create_rehearsal(self):
        """Make the copy; its animateur secret is shown once."""
        if not await self._signed_in_now("create_rehearsal"):
            return
        self.rehearsal_done, self.delete_asked = "", False
        try:
            made = await rehearsals.create(self._evening_id)
        except RehearsalError as exc:
            refuse(self._who(), "create_rehearsal", exc)
            self.rehearsal_message = exc.user_message
            await self._show(await rehearsals.find(self._evening_id))
            return
        log.info("evening %s: the organiser made rehearsal %s", self._evening_id, made.evening_id)
        self.rehearsal_message = ""
        self.rehearsal_secret = made.animateur_secret
        await self._show(await rehearsals.find(self._evening_id))

    @rx.event
    async def renew_rehearsal_secret(self):
        """A new animateur secret for the copy (the first one was not written down)."""
        if not await self._signed_in_now("renew_rehearsal_secret"):
            return
        secret = await rehearsals.renew_animateur(self._evening_id)
        if not secret:
            refuse(self._who(), "renew_rehearsal_secret", "no rehearsal")
            self.rehearsal_message = NONE_NOW
            await self._show(None)
            return
        self.rehearsal_message, self.rehearsal_secret = "", secret

    @rx.event
    def hide_rehearsal_secret(self):
        """The copy's animateur secret was written down."""
        self.rehearsal_secret = ""

    @rx.event
    async def ask_delete_rehearsal(self):
        """First tap on "Supprimer la répétition": ask once."""
        if await self._signed_in_now("ask_delete_rehearsal"):
            self.delete_asked, self.rehearsal_done = True, ""

    @rx.event
    def cancel_delete_rehearsal(self):
        """The organiser changed their mind."""
        self.delete_asked = False

    @rx.event
    async def delete_rehearsal(self):
        """Confirmed: delete the copy whole (its players, sales, draws, log)."""
        if not await self._signed_in_now("delete_rehearsal"):
            return
        if not self.delete_asked:
            refuse(self._who(), "delete_rehearsal", "not confirmed")
            self.rehearsal_message = "Confirmez d'abord la suppression."
            return
        self.delete_asked = False
        rid = await rehearsals.delete(self._evening_id)
        if rid is None:
            refuse(self._who(), "delete_rehearsal", "no rehearsal")
            self.rehearsal_message = NONE_NOW
        else:
            log.warning("evening %s: the organiser deleted rehearsal %s", self._evening_id, rid)
            self.rehearsal_message, self.rehearsal_done = "", DELETED
        self.rehearsal_secret = ""
        await self._show(None)
