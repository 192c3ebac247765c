"""A carton in no list (a player's own), checked at a desk (the animateur's tablet, `/controle`):
how many lines the claim in play is typed as, and the hint saying so. A mixin of a
`StaffSession` state: the caller is checked (`_signed_in_now`) before the evening is read."""

from __future__ import annotations

import reflex as rx

from loto_app.live.present.typed_claims import lines_to_type
from loto_app.live.runtime import registry
from loto_app.live.runtime.live_evening import LiveEvening


class TypedLines(rx.State, mixin=True):
    """The lines to type for the claim in play (0: none now), and the hint."""

    typed_needed: int = 0
    typed_hint: str = ""

    @rx.event
    async def open_typed(self):
        """ "Carton hors liste": how many lines the claim in play is typed as."""
        if await self._typed_now("open_typed") is not None:
            self._typed_opened()

    async def _typed_now(self, handler: str) -> LiveEvening | None:
        """Signed in now, the lines to type read afresh: the evening, or None (refused)."""
        if not await self._signed_in_now(handler):
            return None
        lv = await registry.live(self._evening_id, fresh=False)
        self.typed_needed, self.typed_hint = lines_to_type(lv.evening)
        return lv

    def _typed_opened(self) -> None:
        """The form was opened (a state clears what it showed before)."""
