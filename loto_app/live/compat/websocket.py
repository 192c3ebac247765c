"""uvicorn 0.55 and websockets 17.4 (requirements.lock: uvicorn 0.55.0, websockets 17.4): what the
lean server (loto_app/lean_server.py) uses of uvicorn's sans-I/O websocket protocol beyond the
documented API, to write a ready-made frame on a connection. Imported through
`loto_app.live.compat`.

Documented, and used directly elsewhere: uvicorn's `ws=` setting, which takes a protocol class
by import string, and the `uvicorn-worker` package's `UvicornWorker.CONFIG_KWARGS`.
"""

from __future__ import annotations

from typing import ClassVar

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State as WsState

__all__ = ["FrameWriterProtocol", "WebSocketsSansIOProtocol", "ws_open"]


def ws_open(proto: WebSocketsSansIOProtocol) -> bool:
    """Can a complete frame be written on this connection now: open (uvicorn's `disconnected`,
    `close_sent`, `handshake_complete`, `initial_response`; websockets' `state`), its write
    buffer not full (`writable`), no extension (compression) and no fragmented message under
    way (websockets' `extensions`, `expect_continuation_frame`)?"""
    conn = proto.conn
    return not (
        proto.disconnected
        or proto.close_sent
        or not proto.handshake_complete
        or proto.initial_response is not None
        or not proto.writable.is_set()
        or conn.state is not WsState.OPEN
        or conn.extensions
        or conn.expect_continuation_frame
        or proto.transport.is_closing()
    )


class FrameWriterProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol (`ws="websockets-sansio"`) that puts its
    `write_frame` in each connection's ASGI scope under `SCOPE_KEY` (a subclass names it): the
    scope is filled in uvicorn's `run_asgi`, undocumented, which runs the app on the connection
    (its `scope`), and the frame is written on the connection's `transport`."""

    #: The key of the ASGI scope that holds `write_frame`.
    SCOPE_KEY: ClassVar[str] = ""

    async def run_asgi(self) -> None:
        """Run the app on this connection's scope, with `write_frame` in it."""
        self.scope[self.SCOPE_KEY] = self.write_frame  # type: ignore[literal-required]
        await super().run_asgi()

    def write_frame(self, frame: bytes) -> bool:
        """Write a complete, unmasked websocket frame on the connection, if it is open, with no
        extension (no compression), no fragmented message under way and its write buffer not
        full (`ws_open`); else False (the caller sends the ordinary way, which waits for the
        buffer)."""
        if not ws_open(self):
            return False
        self.transport.write(frame)
        return True
