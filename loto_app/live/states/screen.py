"""ScreenState: the hall's TV follows an evening by its code (public data only).

Without a code (a TV has a remote, not a keyboard), the TV shows a pairing code
(`live/runtime/pairing.py`) and polls it every 2 s; once a signed-in animateur has typed it on the
tablet, the TV opens `/ecran?code=<join code>`, which reloads and reconnects keep.
"""

from __future__ import annotations

import asyncio
import base64
import io
from typing import Any, ClassVar

import reflex as rx
import segno

from loto_app import network
from loto_app.limits import MAX_CODE
from loto_app.live.input.guards import BadInput, as_text, refuse
from loto_app.live.runtime import broadcast, pairing, registry, signin_limit


def qr_svg_data_uri(text: str) -> str:
    """A QR code as an SVG data URI (dark on white, large quiet zone for a TV). Data mask 0:
    any of the 8 reads as well, and letting segno score all 8 to pick one was most of the cost
    (~3.3 ms instead of ~0.5 ms). Never a micro QR code (phones' cameras and the desk's scanner
    read the ordinary ones). A player's desk code is drawn by the phone (components/qr.py)."""
    buf = io.BytesIO()
    segno.make(text, error="m", mask=0, micro=False).save(
        buf, kind="svg", scale=10, border=2, xmldecl=False, svgns=True
    )
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode()


#: While a pairing code shows, ask every 2 s whether the tablet attached it (the hidden
#: "pair-poll" button of pages/screen.py runs `ScreenState.poll_pairing`); once per page.
POLL_JS = (
    "window.__lotoPairPoll = window.__lotoPairPoll || setInterval(function () {"
    " var b = document.getElementById('pair-poll'); if (b) b.click(); }, 2000)"
)


class ScreenState(rx.State):
    """The hall screen's join link and QR code."""

    ROUTE: ClassVar[str] = "/ecran"

    join_url: str = ""
    join_address: str = ""  # what to type without the QR code: host[:port] (http:// implied)
    qr: str = ""
    message: str = ""
    pair_code: str = ""  # shown while this TV waits for the tablet to attach it
    _evening_id: int = 0  # the evening this TV shows (0: none; the check's roll call reads it)

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Before Reflex's snapshot of a rebuilt state: the board as it stands (a TV whose
        server restarted never shows an empty board while it joins again); `watch`, the page's
        on_load handler, then joins the room (`whole` is never so here)."""
        code = self.router.url.query_parameters.get("code", "")
        if not isinstance(code, str) or not code or len(code) > MAX_CODE:
            return False
        evening_id = await asyncio.to_thread(registry.store().evening_id_for_code, code)
        if evening_id is not None:
            await broadcast.fill_hall(self, await registry.live(evening_id))
        return False

    @rx.event
    async def watch(self):
        """On load of /ecran?code=XXXX: join the evening's room."""
        try:
            code = as_text(
                self.router.url.query_parameters.get("code", ""), "code", MAX_CODE
            ).upper()
        except BadInput as exc:
            refuse("screen", "watch", exc)
            code = ""
        store = registry.store()
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code) if code else None
        self._evening_id = evening_id or 0
        if evening_id is None:
            if code:
                self.message = "Aucune soirée ne porte ce code : reliez l'écran par la tablette."
            await self._new_pair_code()
            return rx.call_script(POLL_JS)
        self.pair_code = ""
        # the address phones can reach (never this TV's `localhost`; https behind the proxy)
        origin = network.public_origin_of(self.router)
        self.join_url = f"{origin}/?code={code}"
        self.join_address = origin.removeprefix("http://")
        self.qr = qr_svg_data_uri(self.join_url)
        self.message = ""
        lv = await registry.live(evening_id)
        sid = self.router.session.session_id
        await broadcast.enter(sid, evening_id, screen=True)
        await broadcast.send_snapshot(sid, lv)

    async def _new_pair_code(self) -> None:
        try:
            address = signin_limit.counted_address(self.router)
            self.pair_code = await pairing.store().issue(address)
        except pairing.Refused as exc:
            refuse("screen", "pairing", exc)
            self.pair_code = ""
            self.message = exc.user_message

    @rx.event
    async def poll_pairing(self):
        """Every 2 s while a pairing code shows: attached by the tablet? Then open the
        evening's screen; expired? A new code."""
        if not self.pair_code:
            return None
        alive, evening_id = await pairing.store().status(self.pair_code)
        if not alive:
            await self._new_pair_code()
            return None
        if evening_id is None:
            return None
        _, join_code = await asyncio.to_thread(registry.store().describe, evening_id)
        self.pair_code = ""
        return rx.redirect(f"/ecran?code={join_code}")
