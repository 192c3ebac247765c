"""The lean server, `LOTO_SERVER=uvicorn`: under half the memory per connected phone.

`reflex run --env prod` serves with Granian by default (rxconfig.py). Granian 2.8.9 gives each
websocket tungstenite's default 128 KiB read buffer, allocated up front, and no option reaches
it: ~285 KB of server memory per connected phone (bench/load.py, README "Capacité"). A broadcast
of thousands on a small server runs out of memory before it runs out of CPU, so rxconfig.py can
ask Reflex for its other production server instead: gunicorn (one process) running this uvicorn
worker, with httptools and the `websockets` library's sans-I/O protocol (the `lean` extra of
pyproject.toml): ~116 KB per phone (bench/load.py, 1,000 phones, 2026-12-04).

The worker differs from uvicorn's own in three settings, all about the websocket under
engine.io: uvicorn's sans-I/O implementation of `websockets` (one task and one queue per
socket; the legacy one keeps four more tasks, three events and a stream reader per socket: 6 KB
more per phone, and more CPU per join, measured side by side); no websocket-level ping
(engine.io already pings every phone every 60 s, rxconfig.py; uvicorn's own every 20 s doubled
what idle phones cost) and no permessage-deflate (each compressed socket keeps two zlib
streams, hundreds of KB; Granian does not compress either, and the messages are small).
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn.workers import UvicornWorker


class LeanWorker(UvicornWorker):
    """uvicorn under gunicorn: uvloop, httptools, sans-I/O `websockets`; no ws ping, no
    compression. rxconfig.py names it by its path (it imports no app code, nor uvicorn)."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "uvloop",
        "http": "httptools",
        "ws": "websockets-sansio",
        "ws_ping_interval": None,
        "ws_per_message_deflate": False,
    }
