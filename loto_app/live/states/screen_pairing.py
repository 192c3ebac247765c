"""Attaching a hall TV by the pairing code it shows (live/runtime/pairing.py): one handler for
every signed-in staff page that may do it (the animateur's tablet, the organiser's page). A
mixin of a `StaffSession` state: the caller is checked (`_signed_in_now`) before the code is
tried, and a refusal is logged precisely and told in French under the form."""

from __future__ import annotations

import reflex as rx

from loto_app.live.input.guards import BadInput, as_text, form, refuse
from loto_app.live.runtime import pairing, signin_limit


class ScreenPairing(rx.State, mixin=True):
    """The pairing form's handler and its one line of result."""

    pair_message: str = ""
    pair_ok: bool = False

    @rx.event
    async def pair_screen(self, form_data: dict):
        """Attach the hall TV showing this pairing code to the signed-in evening."""
        self.pair_ok = False
        try:
            code = as_text(form(form_data).get("pair", ""), "pair", 20)
        except BadInput as exc:
            refuse(self._who(), "pair_screen", exc)
            self.pair_message = pairing.UNKNOWN
            return
        if not await self._signed_in_now("pair_screen"):
            return
        try:
            address = signin_limit.counted_address(self.router)
            await pairing.store().attach(code, self._evening_id, address)
        except pairing.Refused as exc:
            refuse(self._who(), "pair_screen", exc)
            self.pair_message = exc.user_message
            return
        self.pair_ok = True
        self.pair_message = "Écran relié : il affiche la soirée dans un instant."
