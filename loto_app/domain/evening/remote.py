"""Remote play anchored to the hall: the association's invitations, each admitting one phone,
and the cap on remote players (the law and the settings: `domain/remote.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import clean_name, is_int
from loto_app.domain.remote import MAX_INVITATIONS, MAX_INVITES_AT_ONCE, NBSP


@dataclass(slots=True)
class Invitation:
    """An invitation of the association: the invited person's name, and the player it let in
    (empty until used: then it admits no other phone)."""

    no: int
    name: str
    player_id: str = ""


class RemoteMoves(EveningCore):
    """The organiser's invitations; the admission of a remote join (`SalesMoves.join`)."""

    def invite(self, names: list[str] | tuple[str, ...]) -> list[ev.Event]:
        """Invite the people of a member list to play at a distance: one invitation each
        (numbered from the evening's next), for a name not invited yet tonight."""
        self._open()
        if not self.program.settings.remote_play:
            raise err.InvitationRefused(
                "invitations on an evening without remote play",
                "Le jeu à distance n'est pas ouvert pour cette soirée.",
            )
        if not isinstance(names, list | tuple) or not names:
            raise err.InvitationRefused(
                f"invitation names {names!r:.40}",
                f"Écrivez au moins un nom{NBSP}: un nom par ligne.",
            )
        if len(names) > MAX_INVITES_AT_ONCE:
            raise err.InvitationRefused(
                f"{len(names)} invitations at once",
                f"{MAX_INVITES_AT_ONCE} invitations au plus à la fois.",
            )
        if len(self.invitations) + len(names) > MAX_INVITATIONS:
            raise err.InvitationRefused(
                f"{len(self.invitations)} + {len(names)} invitations",
                f"{MAX_INVITATIONS} invitations au plus pour une soirée.",
            )
        taken = {i.name.casefold() for i in self.invitations.values()}
        clean: list[str] = []
        for line, name in enumerate(names, start=1):
            try:
                c = clean_name(name)
            except err.InvalidName as exc:
                raise err.InvitationRefused(
                    f"invitation line {line}: {exc}",
                    f"Ligne {line}{NBSP}: un nom de 1 à 30 caractères.",
                ) from exc
            if c.casefold() in taken:
                raise err.InvitationRefused(
                    f"invitation line {line}: {c!r} invited twice",
                    f"Ligne {line}{NBSP}: «{NBSP}{c}{NBSP}» est déjà invité(e).",
                )
            taken.add(c.casefold())
            clean.append(c)
        first = len(self.invitations) + 1
        events: list[ev.Event] = []
        for i, c in enumerate(clean):
            events += self._emit(ev.PlayerInvited(first + i, c))
        return events

    @property
    def remote_players(self) -> int:
        """How many players joined at a distance."""
        return sum(1 for o in self.origins.values() if o == "remote")

    def _admit_remote(self, player_id: str, invitation: object) -> ev.InvitationUsed:
        """The checks of a remote join: remote play on, an invitation of the evening not used
        by another phone, a place under the cap. Returns the event that uses the invitation."""
        settings = self.program.settings
        if not settings.remote_play:
            raise err.RemoteRefused("remote join on an evening without remote play")
        if self.is_over:
            raise err.RemoteRefused(
                "remote join after the last game",
                f"La soirée est terminée{NBSP}: le jeu à distance ne suit que le tirage fait "
                "en direct dans la salle.",
            )
        inv = self.invitations.get(invitation) if is_int(invitation) else None  # type: ignore[arg-type]
        if inv is None:
            raise err.UnknownInvitation(f"remote join with invitation {invitation!r:.20}")
        if inv.player_id:
            raise err.InvitationAlreadyUsed(
                f"invitation {inv.no} already let player {inv.player_id} in"
            )
        if self.remote_players >= settings.remote_cap:
            raise err.RemoteCapReached(
                f"{self.remote_players} remote players already, cap {settings.remote_cap}"
            )
        return ev.InvitationUsed(inv.no, player_id)


@applies(ev.PlayerInvited)
def _player_invited(self: Any, e: ev.PlayerInvited) -> None:
    self.invitations[e.no] = Invitation(e.no, e.name)


@applies(ev.InvitationUsed)
def _invitation_used(self: Any, e: ev.InvitationUsed) -> None:
    self.invitations[e.no].player_id = e.player_id
