"""The lean server, the default of `reflex run --env prod` (rxconfig.py; `LOTO_SERVER=granian`
for Granian), one process or several workers with Redis: under half the memory per connected
phone, and a cheaper fan-out (figures: bench/README.md, "Figures behind the settings").

Granian 2.8.9 gives each websocket tungstenite's default 128 KiB read buffer, allocated up front,
and no option reaches it. A broadcast of thousands on a small server runs out of memory before
it runs out of CPU, so rxconfig.py asks Reflex for its other production server: gunicorn (its
workers) running this uvicorn worker, with httptools and the `websockets` library's sans-I/O
protocol.

The worker differs from uvicorn's own in three settings, all about the websocket under
engine.io: uvicorn's sans-I/O implementation of `websockets` (one task and one queue per
socket; the legacy one keeps four more tasks, three events and a stream reader per socket: more
memory per phone, and more CPU per join, measured side by side); no websocket-level ping
(engine.io already pings every phone, rxconfig.py; uvicorn's own, more often, doubled what idle
phones cost) and no permessage-deflate (each compressed socket keeps two zlib streams; Granian
does not compress either, and the messages are small).

And one addition: the fan-out of a message to a room writes its websocket frame, built once, on
each idle connection right away (`DirectWriteProtocol`, loto_app/live/runtime/fanout.py),
without waking each socket's writer task. What it reaches of uvicorn's protocol is
`compat.FrameWriterProtocol`'s (loto_app/live/compat/websocket.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker

from loto_app.live import compat
from loto_app.live.runtime import fanout


class LeanWorker(UvicornWorker):
    """uvicorn under gunicorn (the `uvicorn-worker` package: uvicorn's own `uvicorn.workers` is
    deprecated): uvloop, httptools, sans-I/O `websockets` with direct writes
    (`DirectWriteProtocol`); no ws ping, no compression. rxconfig.py names it by its path."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "uvloop",
        "http": "httptools",
        # (uvicorn takes a websocket protocol class by import string)
        "ws": "loto_app.lean_server:DirectWriteProtocol",
        "ws_ping_interval": None,
        "ws_per_message_deflate": False,
    }


class DirectWriteProtocol(compat.FrameWriterProtocol):
    """uvicorn's sans-I/O websocket protocol (`ws="websockets-sansio"`), whose ASGI scope holds
    its `write_frame` under `fanout.SCOPE_KEY` (`compat.FrameWriterProtocol`): the fan-out of a
    draw then writes the ready-made frame on each phone's connection, without waking the
    socket's writer task and the three ASGI `send` wrappers (Starlette's, Reflex's, engine.io's)
    for each phone."""

    SCOPE_KEY = fanout.SCOPE_KEY
