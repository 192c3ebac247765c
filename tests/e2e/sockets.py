"""Raw frames on a real page's own websocket (Playwright routes the page's socket through the
test): what a hostile or broken phone could send, and a socket dropped under a live page."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocketRoute

ROOT = "reflex___state____state"
PLAYER = f"{ROOT}.loto_app___live___player____player_state"
ANIMATEUR = f"{ROOT}.loto_app___live___animateur____animateur_state"
HALL = f"{ROOT}.loto_app___live___hall____hall_view"
EVENT_PREFIX = "42/_event,"


class Injector:
    """Sends raw socket.io frames on a page's own websocket, and can cut the page off its socket
    while the server side stays open (what a phone sees when its network drops before the server
    notices: Reflex then hands the reconnecting page a new client token, upstream issue 6252)."""

    def __init__(self, page: Page) -> None:
        self.server: WebSocketRoute | None = None
        self.page_side: WebSocketRoute | None = None
        self.router_data: dict[str, Any] = {}
        self.sockets = 0  # sockets the page opened
        self.new_tokens: list[str] = []  # `new_token` messages the server sent the page
        self.held: list[WebSocketRoute] = []  # server sides kept open after the page was cut
        page.route_web_socket(re.compile(r".*/_event/.*"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.server, self.page_side = server, ws
        self.sockets += 1

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith(EVENT_PREFIX):
                event = json.loads(message[len(EVENT_PREFIX) :])[1]
                self.router_data = event.get("router_data") or self.router_data
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith('42/_event,["new_token"'):
                self.new_tokens.append(json.loads(message[len(EVENT_PREFIX) :])[1])
            ws.send(message)

        def page_closed(code: int | None, reason: str | None) -> None:
            # a closed page closes its server side too, unless the test cut it off on purpose
            if server not in self.held:
                server.close(code=code or 1000, reason=reason or "")

        ws.on_message(from_page)
        server.on_message(from_server)
        ws.on_close(page_closed)  # (an on_close handler turns Playwright's forwarding off)

    def send(self, handler: str, payload: Any) -> None:
        """One event, as the page's Reflex client would send it."""
        assert self.server is not None, "the page has no websocket yet"
        event = {"name": handler, "payload": payload, "router_data": self.router_data}
        self.server.send(EVENT_PREFIX + json.dumps(["event", event]))

    def send_raw(self, frame: str) -> None:
        """Any frame at all."""
        assert self.server is not None, "the page has no websocket yet"
        self.server.send(frame)

    def cut_page_off(self) -> None:
        """Close the page's side of its socket and keep the server's side open: the page
        reconnects at once while the server still holds its old connection."""
        assert self.page_side is not None and self.server is not None
        self.held.append(self.server)
        self.page_side.close(code=4000, reason="network lost")
