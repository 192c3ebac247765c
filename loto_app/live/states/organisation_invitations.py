"""The organiser's invitations to play at a distance (remote play on): a member list typed or
pasted, one name a line, makes one personal link each (`Evening.invite`, the links' tokens
written with it: storage/invitations.py); the list shows each link, whether it let a phone in,
and how many remote players joined against the cap. A substate of `OrganisationState`."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import reflex as rx

from loto_app.domain.remote import MAX_INVITES_AT_ONCE, NBSP
from loto_app.live.input.guards import BadInput, form, refuse
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.session import access
from loto_app.storage.invitations import NewInvitations

log = logging.getLogger("loto_app.live")

#: The member list's textarea: at most this many characters (300 names of 30, and newlines).
MAX_LIST = MAX_INVITES_AT_ONCE * 32


@dataclasses.dataclass
class InvitationView:
    """One invitation, for the organiser's list."""

    no: int = 0
    name: str = ""
    link: str = ""
    used: bool = False


class EveningInvitations(OrganisationState):
    """The member list, its invitations and the remote players' count."""

    invite_message: str = ""
    invite_ok: bool = False
    invitations: list[InvitationView] = []
    remote_players: int = 0
    remote_cap: int = 0

    @rx.event
    async def invite(self, form_data: Any):
        """Invite every name of the member list (the form's `names`, one a line): one personal
        link each, or nothing at all (refused whole, in French)."""
        if not await self._signed_in_now("invite"):
            return
        try:
            text = form(form_data).get("names", "")
            if not isinstance(text, str) or len(text) > MAX_LIST:
                raise BadInput(
                    f"invite: names of {len(text) if isinstance(text, str) else text!r:.20}",
                    f"{MAX_INVITES_AT_ONCE} noms au plus à la fois.",
                )
        except BadInput as exc:
            refuse(self._who(), "invite", exc)
            self.invite_message, self.invite_ok = exc.user_message, False
            return
        names = [line for line in text.splitlines() if line.strip()]
        batch = NewInvitations(self._evening_id, names)

        def refused(text: str) -> None:
            self.invite_message, self.invite_ok = text, False

        played = await self._play(
            "invite", batch.move, checked=True, say=refused, extra=batch.extra
        )
        if played is None:
            return
        n = len(batch.invited)
        log.info("evening %s: %d invitations made", self._evening_id, n)
        self.invite_message = (
            f"{n} invitation{'s' if n > 1 else ''} créée{'s' if n > 1 else ''}{NBSP}: "
            "envoyez à chaque personne son propre lien."
        )
        self.invite_ok = True
        await self._load_invitations()

    @rx.event
    async def refresh_invitations(self):
        """Read the list again (who has joined since)."""
        if not await self._signed_in_now("refresh_invitations"):
            return
        await self._load_invitations()

    async def _load_invitations(self) -> None:
        eid = self._evening_id
        evening = (await registry.live(eid)).evening
        tokens = await asyncio.to_thread(access().invitations, eid)
        base = f"{self.origin}/?code={self.evening_code}&invitation="
        self.invitations = [
            InvitationView(
                i.no, i.name, base + tokens[i.no] if i.no in tokens else "", bool(i.player_id)
            )
            for i in evening.invitations.values()
        ]
        self.remote_players = evening.remote_players
        self.remote_cap = evening.program.settings.remote_cap

    # ------------------------------------------------------------------ hooks

    async def _evening_loaded(self) -> None:
        self.invite_message, self.invite_ok = "", False
        if self.evening_remote:
            await self._load_invitations()
        else:
            self.invitations, self.remote_players, self.remote_cap = [], 0, 0

    def _signed_out(self) -> None:
        self.invitations, self.invite_message = [], ""

    def _tell(self, text: str) -> None:
        self.invite_message, self.invite_ok = text, False
