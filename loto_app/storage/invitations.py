"""The association's invitations to play at a distance, made in one move: the engine numbers
them (`Evening.invite`: `PlayerInvited` events, in the log), and the tokens of their links are
written in the same transaction (`invitation` table), never in the log."""

from __future__ import annotations

import secrets

from sqlmodel import Session

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.storage import models as m


class NewInvitations:
    """One member list invited: `move` for the registry, `extra` for its commit.

    The registry may play the move again (a commit raced by another process): each play draws
    the tokens of the invitations it made, and the commit writes those of the last play."""

    def __init__(self, evening_id: int, names: list[str]) -> None:
        self.evening_id = evening_id
        self.names = names
        self.invited: list[ev.PlayerInvited] = []
        self.tokens: dict[int, str] = {}

    def move(self, e: Evening) -> list[ev.Event]:
        """The engine's move (`Evening.invite`): refused whole, or every name invited."""
        events = e.invite(self.names)
        self.invited = [x for x in events if isinstance(x, ev.PlayerInvited)]
        self.tokens = {x.no: secrets.token_urlsafe(12) for x in self.invited}
        return events

    def extra(self, s: Session) -> None:
        """The links' tokens, in the move's transaction."""
        for x in self.invited:
            s.add(
                m.InvitationRow(
                    evening_id=self.evening_id, no=x.no, name=x.name, token=self.tokens[x.no]
                )
            )
