"""Every private or undocumented part of Reflex, python-socketio, python-engineio, uvicorn and
websockets the app relies on, named in this package and nowhere else: the app uses them as
`compat.<name>` (`from loto_app.live import compat`).

The app is fast because it reaches, where no public hook exists, into the libraries it runs
on: the fan-out writes a draw's frame on each phone's connection, the gate answers a batch of
marks before Reflex loads a state, the reaper drops the states of gone phones. Each such reach
is one name here, in the module of its library, written for the version in requirements.lock
that the module's docstring names:

- `reflex_app.py`: Reflex's app, states, events and frontend updates (the runtime, the gate);
- `reflex_vars.py`: Reflex's vars made of raw JavaScript (the components, the pages);
- `sockets.py`: python-socketio's managers and packets, python-engineio's sockets (the fan-out,
  the rooms of several workers);
- `websocket.py`: uvicorn's and websockets' connection (the lean server's direct writes).

tests/live/test_compat.py imports and exercises every name of `__all__` on the real classes:
after an upgrade (`make upgrade`), a renamed or reshaped symbol fails that one test, not a
draw. The import-linter contract "Only compat reaches into the libraries" (pyproject.toml)
refuses `reflex_base`, `engineio`, `uvicorn` and `websockets` anywhere else in the app. (One
constant is copied where a pure layer reads it, and pinned by that test as well: the form
entries' key, `live/input/marks_batch.FORM_ENTRIES`.)

What the app uses of these libraries' documented API (a Reflex state, a middleware, socket.io's
`emit` and rooms, uvicorn's `ws=` protocol class by import string) it uses directly.
"""

from __future__ import annotations

from loto_app.live.compat.reflex_app import (
    CALL_SCRIPT,
    FIELD_MARKER,
    HYDRATE,
    UPDATE,
    Enqueue,
    MemoryStates,
    app_rooms,
    app_state,
    call_script,
    connected_tokens,
    delta,
    drop_connection_overlay,
    enqueue,
    event,
    event_namespace,
    has_on_load,
    in_event,
    poke,
    resolved_delta,
    root_state,
    send,
    serves_pages,
    set_socket_enqueue,
    set_socket_handlers,
    socket_on_event,
)
from loto_app.live.compat.reflex_vars import BACKEND_ORIGIN, backend_url
from loto_app.live.compat.sockets import (
    ASGI_SCOPE,
    HERE_ONLY,
    PacketManager,
    RedisManager,
    assign_manager,
    eio_server,
    live_socket,
    manager_rooms,
    queue_packet,
    serving,
    socket_gone,
    writer_idle,
)
from loto_app.live.compat.websocket import FrameWriterProtocol, WebSocketsSansIOProtocol, ws_open

__all__ = [
    "ASGI_SCOPE",
    "BACKEND_ORIGIN",
    "CALL_SCRIPT",
    "FIELD_MARKER",
    "HERE_ONLY",
    "HYDRATE",
    "UPDATE",
    "Enqueue",
    "FrameWriterProtocol",
    "MemoryStates",
    "PacketManager",
    "RedisManager",
    "WebSocketsSansIOProtocol",
    "app_rooms",
    "app_state",
    "assign_manager",
    "backend_url",
    "call_script",
    "connected_tokens",
    "delta",
    "drop_connection_overlay",
    "eio_server",
    "enqueue",
    "event",
    "event_namespace",
    "has_on_load",
    "in_event",
    "live_socket",
    "manager_rooms",
    "poke",
    "queue_packet",
    "resolved_delta",
    "root_state",
    "send",
    "serves_pages",
    "serving",
    "set_socket_enqueue",
    "set_socket_handlers",
    "socket_gone",
    "socket_on_event",
    "writer_idle",
    "ws_open",
]
