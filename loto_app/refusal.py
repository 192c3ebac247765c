"""The root of every refusal told to a person: a precise English detail for the log
(`str(exc)`) and a short French `user_message` for whoever made the call.

A rule of the game (`domain.errors.LotoError`), a handler argument no page sends
(`live.input.guards.BadInput`), a field of the organiser's form (`FormProblem`), a staff change
(`storage.access.AccessError`), a screen pairing (`pairing.Refused`) and a sign-in locked out
(`signin_limit.TooManyAttempts`) are all `Refusal`s: a page tells `exc.user_message`, whatever
the layer that refused. A module of its own, below every layer (the domain raises it too).
"""

from __future__ import annotations

from typing import ClassVar


class Refusal(Exception):
    """A refused call, with a French message for the person who made it.

    Attributes:
        user_message: what the player, the animateur, the desk or the organiser reads.
    """

    default_user_message: ClassVar[str] = "Action impossible."

    def __init__(self, detail: str, user_message: str | None = None) -> None:
        super().__init__(detail)
        self.user_message = user_message or self.default_user_message
