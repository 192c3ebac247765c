"""Every private symbol of Reflex, python-socketio, python-engineio, uvicorn and websockets the
app relies on, named here and nowhere else.

The app is fast because it reaches, where no public hook exists, into the libraries it runs
on: the fan-out writes a draw's frame on each phone's connection, the gate answers a batch of
marks before Reflex loads a state, the reaper drops the states of gone phones. Each such reach
is one name below, written for the versions in requirements.lock (Reflex 0.10.1, uvicorn
0.55.0, websockets 17.4, python-socketio 5.18.1, python-engineio 4.15.1), and
tests/live/test_compat.py imports and exercises every one of them on the real classes: after an
upgrade (`make upgrade`), a renamed or reshaped symbol fails that one test, not a draw.

Everything the rest of the app needs of these libraries' insides goes through this module;
what it uses of their documented API (a Reflex state, a middleware, socket.io's `emit` and
rooms, uvicorn's `ws=` protocol class by import string) it uses directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

import socketio
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex_base.constants.compiler import CompileVars
from reflex_base.constants.state import FIELD_MARKER
from reflex_base.event import Event
from reflex_base.event.context import EventContext
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State as WsState

if TYPE_CHECKING:
    import reflex as rx
    from reflex.state import BaseState

__all__ = [
    "ASGI_SCOPE",
    "CALL_SCRIPT",
    "FIELD_MARKER",
    "FORM_DATA",
    "HYDRATE",
    "MemoryStates",
    "RedisManager",
    "WebSocketsSansIOProtocol",
    "app_state",
    "call_script",
    "connected_tokens",
    "delta",
    "drop_connection_overlay",
    "eio_server",
    "enqueue",
    "has_on_load",
    "in_event",
    "live_socket",
    "manager_rooms",
    "poke",
    "queue_packet",
    "resolved_delta",
    "root_state",
    "set_socket_enqueue",
    "set_socket_handlers",
    "socket_gone",
    "socket_on_event",
    "writer_idle",
    "ws_open",
]

# ============================================================================ Reflex 0.10

# FIELD_MARKER (imported above, `reflex_base.constants.state`): the suffix of a var's name in a
# frontend update and in the browser-stored values a hydrate sends (`"<var>_rx_state_"`).

#: The key under which the browser sends a form's fields in an event's payload.
FORM_DATA: str = FORM_DATA_ENTRIES_KEY

#: The event a page sends when its socket connects (the last part of the event's name).
HYDRATE: str = CompileVars.HYDRATE_AND_LOAD

#: The frontend's built-in event that runs a script (what `rx.call_script` sends).
CALL_SCRIPT = "_call_script"


def delta(state: str, values: dict[str, Any]) -> dict[str, Any]:
    """A frontend update (what Reflex sends after an event) that sets vars of one state, by its
    full name: `{"delta": {state: {var + FIELD_MARKER: value}}}`."""
    return {"delta": {state: {k + FIELD_MARKER: v for k, v in values.items()}}}


def poke(*events: dict[str, Any]) -> dict[str, Any]:
    """A frontend update that makes the page send events to the server (the `events` list of an
    update; each event `{"name", "payload", "router_data"}`)."""
    return {"events": list(events)}


def call_script(javascript: str) -> dict[str, Any]:
    """The event that makes a page run a script (`_call_script`, as `rx.call_script` does)."""
    payload = {"javascript_code": javascript, "callback": None}
    return {"name": CALL_SCRIPT, "payload": payload, "router_data": {}}


def root_state(state: BaseState) -> BaseState:
    """The root of a state's tree (`BaseState._get_root_state`)."""
    return state._get_root_state()


async def resolved_delta(state: BaseState) -> dict[str, Any]:
    """What changed in the state's tree, ready to send (`_get_resolved_delta`), then marked
    clean (`_clean`), as Reflex does after an event."""
    root = state._get_root_state()
    try:
        return await root._get_resolved_delta()
    finally:
        root._clean()


def app_state(app: rx.App) -> type[BaseState] | None:
    """The app's root state class (`App._state`; None before the first page is added)."""
    return app._state


def has_on_load(app: rx.App, path: str) -> bool:
    """Does the page at `path` have on_load handlers (`App.get_load_events`)?"""
    return bool(app.get_load_events(path))


async def enqueue(handler: Any) -> None:
    """Queue an event handler to run after the event being processed, for the same client (as
    an on_load handler runs after the hydrate: `EventContext.enqueue`, `Event.from_event_type`).
    """
    await EventContext.get().enqueue(*Event.from_event_type(handler))


OnEvent = Callable[[str, Any], Awaitable[None]]


def _namespace(app: rx.App) -> Any:
    namespace = app.event_namespace
    if namespace is None:
        raise RuntimeError("the app has no event namespace yet (no state)")
    return namespace


def socket_on_event(app: rx.App) -> OnEvent:
    """The app's socket event handler as it stands: Reflex's `EventNamespace.on_event`, or what
    was put in front of it (python-socketio dispatches an `event` message to its namespace's
    `on_event` attribute).

    Raises:
        RuntimeError: the app has no event namespace yet (no state).
    """
    return _namespace(app).on_event


def set_socket_handlers(
    app: rx.App,
    on_event: OnEvent | None = None,
    before_disconnect: Callable[[str], None] | None = None,
) -> None:
    """Make `on_event(sid, data)` the app's socket event handler (it calls the one it replaces,
    `socket_on_event`, for what it does not take), and call `before_disconnect(sid)` before
    Reflex's `on_disconnect` when a socket leaves.

    Raises:
        RuntimeError: the app has no event namespace yet (no state).
    """
    namespace = _namespace(app)
    if on_event is not None:
        namespace.on_event = on_event
    if before_disconnect is not None:
        reflex_disconnect = namespace.on_disconnect

        def disconnected(sid: str, *reason: Any) -> Any:
            before_disconnect(sid)
            return reflex_disconnect(sid, *reason)

        namespace.on_disconnect = disconnected


Enqueue = Callable[..., Awaitable[Any]]


def set_socket_enqueue(app: rx.App, wrap: Callable[[Enqueue], Enqueue]) -> None:
    """Make `wrap(enqueue)` the `enqueue(token, event, ev_ctx=None) -> EventFuture` of the app's
    event processor, which Reflex's socket handler calls for each event a page sends
    (`EventNamespace.on_event`: `app.event_processor.enqueue`) and which returns the future of
    that event's processing (done once its handler ran and its state was saved and unlocked).
    The processor (made by a lifespan task of Reflex's: call this from a later one) has slots,
    so the app's `_event_processor` becomes a `_Enqueueing` in front of it. Events that handlers
    chain come through the processor's own `enqueue` (`enqueue_many`), not this one."""
    processor = app.event_processor
    app._event_processor = _Enqueueing(processor, wrap(processor.enqueue))  # type: ignore[assignment]


class _Enqueueing:
    """An event processor with another `enqueue`; everything else is the processor's."""

    def __init__(self, processor: Any, enqueue: Enqueue) -> None:
        object.__setattr__(self, "_processor", processor)
        object.__setattr__(self, "enqueue", enqueue)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._processor, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._processor, name, value)


def in_event() -> bool:
    """Is the running task an event being processed: Reflex's `EventContext` set, with a
    transaction id (`txid`; the processor's root context, set where it started, has none)?"""
    try:
        return bool(EventContext.get().txid)
    except LookupError:
        return False


def drop_connection_overlay(app: rx.App) -> None:
    """No "Cannot connect to server" toast: the app-wide wrapper Reflex adds under the key
    `(5, "Overlay")` of `App.app_wraps` renders nothing."""
    app.app_wraps[(5, "Overlay")] = lambda _stateful: None


def connected_tokens(app: rx.App) -> dict[str, Any]:
    """The client tokens with a socket on this process (the event namespace's token manager,
    `_token_manager.token_to_socket`; a local registry: Reflex is given no Redis, rxconfig.py)."""
    return app.event_namespace._token_manager.token_to_socket


class MemoryStates:
    """The bookkeeping of Reflex's in-memory state manager (`StateManagerMemory`): which client
    tokens it holds (`_token_expires_at`), whether an event is being handled for one
    (`_states_locks`), keeping one from expiring (`_track_token`), dropping one
    (`_purge_token`)."""

    def __init__(self, manager: StateManagerMemory) -> None:
        self.manager = manager

    @staticmethod
    def of(app: rx.App) -> MemoryStates | None:
        """The app's in-memory state manager (None: Redis, disk)."""
        manager = app.state_manager
        return MemoryStates(manager) if isinstance(manager, StateManagerMemory) else None

    def client_tokens(self) -> Iterator[BaseStateToken]:
        """Every client token that has a state (shared states' tokens left out)."""
        for _expires, token in list(self.manager._token_expires_at.values()):
            if isinstance(token, BaseStateToken):
                yield token

    def busy(self, token: BaseStateToken) -> bool:
        """Is an event being handled for this token (its lock held)?"""
        lock = self.manager._states_locks.get(token.lock_key)
        return lock is not None and lock.locked()

    def keep(self, token: BaseStateToken) -> None:
        """Move the token's expiry on, as an event would."""
        self.manager._track_token(token)

    def drop(self, token: BaseStateToken) -> None:
        """Forget the token's state (the client hydrates a fresh one if it comes back)."""
        self.manager._purge_token(token)

    def count(self) -> int:
        """States in memory."""
        return len(self.manager.states)


# ================================================================== python-socketio 5.18

#: The environ key under which python-engineio's ASGI driver keeps a connection's ASGI scope.
ASGI_SCOPE = "asgi.scope"


def manager_rooms(manager: socketio.AsyncManager) -> dict[str, Any]:
    """The manager's rooms, `{namespace: {room: {sid: eio_sid}}}` (`rooms`)."""
    return manager.rooms


class RedisManager(socketio.AsyncRedisManager):
    """python-socketio's Redis manager, which calls `reconnected()` each time its connection
    to Redis is made again (after the first: `_redis_connect`, which its listener calls
    after every failure)."""

    _connections = 0

    def _redis_connect(self) -> None:
        super()._redis_connect()
        self._connections += 1
        if self._connections > 1:
            self.reconnected()

    def reconnected(self) -> None:
        """The hook: the connection to Redis came back."""


# ================================================================== python-engineio 4.15


def eio_server(server: socketio.AsyncServer) -> tuple[dict[str, Any], dict[str, Any], float]:
    """A socket.io server's engine.io sockets (`eio.sockets`, by engine.io sid), their WSGI/ASGI
    environs (`environ`, by the same sid) and its ping timeout (s)."""
    eio = server.eio
    return eio.sockets, server.environ, eio.ping_timeout


def live_socket(sockets: dict[str, Any], eio_sid: str) -> Any | None:
    """The engine.io socket of a sid, unless it is gone or closed (`closed`)."""
    sock = sockets.get(eio_sid)
    return None if sock is None or sock.closed else sock


def socket_gone(sock: Any, wall: float, timeout: float) -> bool:
    """Has the client of this engine.io socket stopped answering pings (`last_ping`), as its
    `send` checks before it closes the socket?"""
    last = sock.last_ping
    return bool(last) and wall - last > timeout


def writer_idle(sock: Any) -> bool:
    """An upgraded websocket (`upgraded`, not `upgrading`) whose writer task waits for its next
    packet: none is queued or being sent (its `queue`, and the asyncio queue's `_getters`)."""
    if not sock.upgraded or sock.upgrading:
        return False
    q = sock.queue
    return q.empty() and any(not g.done() for g in q._getters)


def queue_packet(sock: Any, pkt: Any) -> None:
    """Put a packet on the socket's queue, which its writer task sends (`queue`), as `send`
    does once it checked the pings."""
    sock.queue.put_nowait(pkt)


# ======================================================== uvicorn 0.55 and websockets 17.4

# WebSocketsSansIOProtocol (uvicorn's `ws="websockets-sansio"`) is imported above: the lean
# server subclasses it (loto_app/lean_server.py).


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
