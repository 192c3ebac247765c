"""Every name of `loto_app.live.compat`, imported and exercised on the libraries' real classes:
after an upgrade (`make upgrade`), a private symbol of Reflex, python-socketio, python-engineio,
uvicorn or websockets that was renamed or reshaped fails here, by name, rather than a draw."""

from __future__ import annotations

import asyncio
import inspect
import time
from pathlib import Path
from types import SimpleNamespace

import reflex as rx
import socketio
from reflex.app import App, EventNamespace
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State
from reflex.utils.token_manager import LocalTokenManager
from reflex_base.event import Event
from reflex_base.event.context import EventContext
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor
from reflex_base.event.processor.future import EventFuture
from sio_harness import serve, stop, until

import loto_app.loto_app as the_app
from loto_app import lean_server
from loto_app.live import compat
from loto_app.live.runtime import fanout
from loto_app.live.states.animateur import AnimateurState
from loto_app.live.states.player import PlayerState

STATE_JS = next(
    Path(p) / ".templates" / "web" / "utils" / "state.js"
    for p in __import__("reflex_base").__path__
)


def test_every_name_is_tested_here() -> None:
    """A name added to compat without a test here fails this."""
    source = Path(__file__).read_text()
    missing = [n for n in compat.__all__ if f"compat.{n}" not in source]
    assert not missing, missing


# ------------------------------------------------------------------------------------ Reflex


def test_the_frontend_speaks_the_names_compat_sends() -> None:
    """The form key, the hydrate event and the script event are the frontend's (state.js)."""
    js = STATE_JS.read_text()
    assert f'const FORM_DATA_ENTRIES_KEY = "{compat.FORM_DATA}";' in js
    assert f'event.name == "{compat.CALL_SCRIPT}"' in js
    assert f"${{app.state_name}}.{compat.HYDRATE}`" in js
    spec = rx.call_script("1 + 1")
    assert spec.handler.fn.__qualname__ == compat.CALL_SCRIPT
    event = compat.call_script("window.location.reload()")
    assert event["name"] == compat.CALL_SCRIPT
    assert set(event["payload"]) == set(inspect.signature(rx.call_script).parameters)
    assert compat.poke(event) == {"events": [event]}


def test_a_hand_made_delta_is_what_reflex_sends() -> None:
    async def scenario() -> None:
        manager = StateManagerMemory(token_expiration=3600)
        root = await manager.get_state(BaseStateToken(ident="tok", cls=State))
        player = await root.get_state(PlayerState)
        assert compat.root_state(player) is root
        player.name = "Mamie Jo"
        sent = await compat.resolved_delta(player)
        name = PlayerState.get_full_name()
        assert f"name{compat.FIELD_MARKER}" in sent[name]
        mine = compat.delta(name, {"name": "Mamie Jo"})["delta"][name]
        assert mine.items() <= sent[name].items()
        assert await compat.resolved_delta(player) == {}  # (cleaned: nothing left to send)
        await manager.close()

    asyncio.run(scenario())


def test_the_app_state_and_its_load_events() -> None:
    root = compat.app_state(the_app.app)
    assert root is not None and issubclass(PlayerState, root)
    assert compat.has_on_load(the_app.app, PlayerState.ROUTE)
    assert compat.has_on_load(the_app.app, AnimateurState.ROUTE)
    assert not compat.has_on_load(the_app.app, "/")  # (the join page: its hydrate loads it)


def test_an_event_is_enqueued_after_the_current_one() -> None:
    queued: list[tuple[str, tuple[Event, ...]]] = []

    async def enqueue(token: str, *events: Event) -> None:
        queued.append((token, events))

    async def scenario() -> None:
        ctx = EventContext(token="tok", state_manager=None, enqueue_impl=enqueue)  # type: ignore[arg-type]
        reset = EventContext.set(ctx)
        try:
            await compat.enqueue(PlayerState.resume)
        finally:
            EventContext.reset(reset)

    asyncio.run(scenario())
    ((token, events),) = queued
    assert token == "tok"
    assert [e.name for e in events] == [f"{PlayerState.get_full_name()}.resume"]


def test_socket_handlers_are_replaced_and_dispatched_by_socketio() -> None:
    """Reflex's namespace has the handlers compat replaces, and python-socketio dispatches to
    the replacements (its namespaces call their `on_<event>` attribute)."""
    for name in ("on_event", "on_disconnect"):
        assert callable(getattr(EventNamespace, name))
    assert list(inspect.signature(EventNamespace.on_event).parameters)[1:] == ["sid", "data"]
    calls: list[tuple[str, object]] = []

    class Namespace(socketio.AsyncNamespace):
        async def on_event(self, sid: str, data: object) -> None:
            calls.append(("reflex", data))

        def on_disconnect(self, sid: str, reason: object = None) -> None:
            calls.append(("reflex gone", sid))

    ns = Namespace("/_event")
    app = SimpleNamespace(event_namespace=ns)
    reflex_on_event = compat.socket_on_event(app)  # type: ignore[arg-type]

    async def mine(sid: str, data: object) -> None:
        calls.append(("mine", data))
        await reflex_on_event(sid, data)

    compat.set_socket_handlers(
        app,  # type: ignore[arg-type]
        on_event=mine,
        before_disconnect=lambda sid: calls.append(("forget", sid)),
    )

    async def scenario() -> None:
        await ns.trigger_event("event", "sid1", {"name": "x"})
        await ns.trigger_event("disconnect", "sid1", "client disconnect")

    asyncio.run(scenario())
    assert calls == [
        ("mine", {"name": "x"}),
        ("reflex", {"name": "x"}),
        ("forget", "sid1"),
        ("reflex gone", "sid1"),
    ]
    # and on the app itself: the frame guard is in front, on Reflex's real namespace
    assert compat.socket_on_event(the_app.app).__self__.__class__.__name__ == "FrameGuard"


def test_the_socket_enqueue_is_replaced_in_front_of_a_real_event_processor() -> None:
    """Reflex's socket handler enqueues through `app.event_processor.enqueue`, the events
    handlers chain through the processor's own; the replacement gets the socket's events and
    returns the real future, done once the event was processed; everything else is the
    processor's. `in_event` is true in an event's context only (not the root context)."""
    assert "self.app.event_processor.enqueue(token, event)" in inspect.getsource(
        EventNamespace.on_event
    )
    assert "self.enqueue(token, event)" in inspect.getsource(BaseStateEventProcessor.enqueue_many)
    seen: list[tuple[str, bool]] = []

    def wrap(enqueue: compat.Enqueue) -> compat.Enqueue:
        async def mine(token: str, event: Event, *args: object) -> object:
            seen.append((event.name, compat.in_event()))
            return await enqueue(token, event, *args)

        return mine

    async def scenario() -> None:
        assert not compat.in_event()
        async with BaseStateEventProcessor().configure() as processor:
            app = SimpleNamespace(event_processor=processor, _event_processor=processor)
            compat.set_socket_enqueue(app, wrap)  # type: ignore[arg-type]
            gated = app._event_processor
            assert gated is not processor and gated._root_context is processor._root_context
            assert not compat.in_event()  # (the root context, set by the processor)
            name = f"{State.get_full_name()}.set_is_hydrated"
            future = await gated.enqueue("tok", Event(name=name, payload={"value": True}))
            assert isinstance(future, EventFuture)
            await asyncio.wait_for(future, 5)
            state = await processor._root_context.state_manager.get_state(
                BaseStateToken(ident="tok", cls=State)
            )
            assert state.is_hydrated is True
            assert seen == [(name, False)]
            ctx = processor._root_context.fork(token="tok")
            reset = EventContext.set(ctx)
            try:
                assert compat.in_event()
            finally:
                EventContext.reset(reset)

    asyncio.run(scenario())


def test_the_connection_overlay_is_the_key_reflex_uses() -> None:
    defaults = App.__dataclass_fields__["app_wraps"].default_factory()  # type: ignore[misc]
    assert (5, "Overlay") in defaults
    app = SimpleNamespace(app_wraps=dict(defaults))
    compat.drop_connection_overlay(app)  # type: ignore[arg-type]
    assert app.app_wraps[(5, "Overlay")](True) is None
    assert the_app.app.app_wraps[(5, "Overlay")](True) is None


def test_the_memory_state_bookkeeping() -> None:
    async def scenario() -> None:
        manager = StateManagerMemory(token_expiration=3600)
        states = compat.MemoryStates(manager)
        for ident in ("a", "b"):
            await manager.get_state(BaseStateToken(ident=ident, cls=State))
        tokens = {t.ident: t for t in states.client_tokens()}
        assert set(tokens) == {"a", "b"} and states.count() == 2
        assert not states.busy(tokens["a"])
        async with manager.modify_state(tokens["a"]):
            assert states.busy(tokens["a"])
        manager._token_expires_at["a"] = (time.time() - 1, tokens["a"])
        states.keep(tokens["a"])
        assert manager._token_expires_at["a"][0] > time.time() + 3000
        states.drop(tokens["b"])
        assert {t.ident for t in states.client_tokens()} == {"a"} and states.count() == 1
        await manager.close()

    asyncio.run(scenario())
    assert compat.MemoryStates.of(SimpleNamespace(state_manager=object())) is None  # type: ignore[arg-type]
    memory = SimpleNamespace(state_manager=StateManagerMemory(token_expiration=60))
    assert isinstance(compat.MemoryStates.of(memory), compat.MemoryStates)  # type: ignore[arg-type]


def test_connected_tokens_are_the_token_managers() -> None:
    async def scenario() -> None:
        tokens = LocalTokenManager()
        app = SimpleNamespace(event_namespace=SimpleNamespace(_token_manager=tokens))
        connected = compat.connected_tokens(app)  # type: ignore[arg-type]
        await tokens.link_token_to_sid("tok", "sid")
        assert "tok" in connected
        await tokens.disconnect_token("tok", "sid")
        assert "tok" not in connected

    asyncio.run(scenario())
    assert isinstance(the_app.app.event_namespace._token_manager, LocalTokenManager)


# ------------------------------------------------------------- python-socketio, engine.io


def test_engineio_sockets_on_a_served_connection() -> None:
    """The socket and environ reads of the fan-out, on a real connection: a client that
    answers its pings is not gone, its upgraded websocket's writer is idle, a queued packet
    reaches it, and its ASGI scope holds the lean server's writer."""

    async def run() -> list[str]:
        sio, server, task, clients = await serve(True, ["hall"], direct=True)
        try:
            (client,) = clients
            assert compat.manager_rooms(sio.manager)["/"]["hall"]
            sockets, environs, timeout = compat.eio_server(sio)
            assert timeout == sio.eio.ping_timeout
            eio_sid = sio.manager.eio_sid_from_sid(client.sid, "/")
            sock = compat.live_socket(sockets, eio_sid)
            assert sock is not None and compat.live_socket(sockets, "nobody") is None
            assert not compat.socket_gone(sock, time.time(), timeout)
            assert compat.socket_gone(sock, time.time() + timeout + 60, timeout) == bool(
                sock.last_ping
            )
            assert await until(lambda: compat.writer_idle(sock))
            write = environs[eio_sid][compat.ASGI_SCOPE][fanout.SCOPE_KEY]
            assert isinstance(write.__self__, compat.WebSocketsSansIOProtocol)
            assert isinstance(write.__self__, lean_server.DirectWriteProtocol)
            assert compat.ws_open(write.__self__)
            from engineio import packet as eio_packet

            compat.queue_packet(sock, eio_packet.Packet(eio_packet.MESSAGE, '2["q",1]'))
            assert await until(lambda: len(client.events) == 1)
            client.ws.close()
            assert await until(lambda: not compat.ws_open(write.__self__))
            assert await until(lambda: compat.live_socket(sockets, eio_sid) is None)
            return client.events
        finally:
            await stop(server, task, clients)

    assert asyncio.run(run()) == ['42["q",1]']


def test_the_redis_manager_calls_reconnected_on_a_new_connection() -> None:
    """`_redis_connect` is what the Redis manager's listener calls to (re)connect: the hook
    fires from the second connection on (no Redis server needed: connecting builds a client)."""
    seen: list[int] = []

    class Manager(compat.RedisManager):
        def reconnected(self) -> None:
            seen.append(self._connections)

    m = Manager("redis://127.0.0.1:6379/0", channel="loto-compat-test", write_only=True)
    m._redis_connect()
    assert seen == []
    m._redis_connect()
    assert seen == [2]
    assert "_redis_connect" in inspect.getsource(
        socketio.AsyncRedisManager._redis_listen_with_retries
    )
