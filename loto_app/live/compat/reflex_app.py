"""Reflex 0.10 (requirements.lock: reflex 0.10.1): what the runtime and the gate use of the app,
its states, its events and its frontend updates beyond the documented API (`BaseState`'s and
`App`'s underscore methods and fields, the event namespace's handlers and token manager, the
in-memory state manager's bookkeeping, the event processor and its context, the update's wire
shape). Imported through `loto_app.live.compat`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex_base.constants.compiler import CompileVars
from reflex_base.constants.event import SocketEvent
from reflex_base.constants.state import FIELD_MARKER
from reflex_base.event import Event
from reflex_base.event.context import EventContext

from loto_app.live.compat.sockets import HERE_ONLY, manager_rooms

if TYPE_CHECKING:
    import reflex as rx
    from reflex.state import BaseState

__all__ = [
    "CALL_SCRIPT",
    "FIELD_MARKER",
    "HYDRATE",
    "UPDATE",
    "Enqueue",
    "MemoryStates",
    "app_rooms",
    "app_state",
    "call_script",
    "connected_tokens",
    "delta",
    "drop_connection_overlay",
    "enqueue",
    "event",
    "event_namespace",
    "has_on_load",
    "in_event",
    "poke",
    "resolved_delta",
    "root_state",
    "send",
    "serves_pages",
    "set_socket_enqueue",
    "set_socket_handlers",
    "socket_on_event",
]

# FIELD_MARKER (imported above, `reflex_base.constants.state`): the suffix of a var's name in a
# frontend update and in the browser-stored values a hydrate sends (`"<var>_rx_state_"`).

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
    update, each made by `event`; none: an update that asks for nothing)."""
    return {"events": list(events)}


def event(name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    """An event as a frontend update lists it, `{"name", "payload", "router_data"}`: the page
    sends it to the server (`name`: a handler's full name, `<state full name>.<handler>`), or
    runs it itself (a built-in one, `call_script`)."""
    return {"name": name, "payload": payload or {}, "router_data": {}}


def call_script(javascript: str) -> dict[str, Any]:
    """The event that makes a page run a script (`_call_script`, as `rx.call_script` does)."""
    return event(CALL_SCRIPT, {"javascript_code": javascript, "callback": None})


#: The socket.io event under which Reflex's frontend receives its updates (and sends its events).
UPDATE: str = SocketEvent.EVENT


def serves_pages(app: rx.App) -> bool:
    """Does the app serve its pages' sockets yet: its socket.io server (`App.sio`) and its event
    namespace (`App.event_namespace`) made, with the first state?"""
    return app.sio is not None and app.event_namespace is not None


def event_namespace(app: rx.App) -> str:
    """The socket.io namespace of the app's pages (`app.event_namespace.namespace`), in which
    their sockets enter rooms and receive updates.

    Raises:
        RuntimeError: the app has no event namespace yet (no state).
    """
    return _namespace(app).namespace


async def send(
    app: rx.App,
    update: dict[str, Any],
    to: str,
    *,
    skip_sid: str | None = None,
    here_only: bool = False,
) -> None:
    """Send a frontend update (`delta`, `poke`) to a socket or a room of the app's pages, as
    Reflex sends an event's update (socket.io's `emit` of `UPDATE` in `event_namespace`), maybe
    not to one socket (`skip_sid`). `here_only`: to this process's sockets only, never through
    the Redis manager of several workers (`sockets.HERE_ONLY`)."""
    sio = app.sio
    if sio is None:
        raise RuntimeError("the app has no socket.io server yet")
    extra = {HERE_ONLY: True} if here_only else {}
    await sio.emit(
        UPDATE, update, to=to, namespace=event_namespace(app), skip_sid=skip_sid, **extra
    )


def app_rooms(app: rx.App) -> dict[str, Any]:
    """The rooms of the app's pages on this process, `{room: {sid: eio_sid}}` (the socket.io
    manager's rooms of `event_namespace`)."""
    sio = app.sio
    if sio is None:
        return {}
    return manager_rooms(sio.manager).get(event_namespace(app), {})


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
