"""Every name of `loto_app.live.compat`, imported and exercised on the libraries' real classes:
after an upgrade (`make upgrade`), a private symbol of Reflex, python-socketio, python-engineio,
uvicorn or websockets that was renamed or reshaped fails here, by name, rather than a draw. And
the library constants copied into a pure layer (`PINNED`) are still the libraries' own."""

from __future__ import annotations

import asyncio
import inspect
import json
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
from reflex_base.constants.event import Endpoint
from reflex_base.event import Event
from reflex_base.event.context import EventContext
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor
from reflex_base.event.processor.future import EventFuture
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY
from reflex_base.utils.format import format_event_handler
from sio_harness import serve, stop, until

import loto_app.loto_app as the_app
from loto_app import lean_server
from loto_app.live import compat
from loto_app.live.input import marks_batch
from loto_app.live.runtime import fanout
from loto_app.live.states.animateur import AnimateurState
from loto_app.live.states.player import PlayerState

STATE_JS = next(
    Path(p) / ".templates" / "web" / "utils" / "state.js"
    for p in __import__("reflex_base").__path__
)


def test_every_name_is_tested_here() -> None:
    """A name added to compat without a test here fails this; so does a name of one of its
    modules that the package does not hand on."""
    source = Path(__file__).read_text()
    missing = [n for n in compat.__all__ if f"compat.{n}" not in source]
    assert not missing, missing
    modules = (compat.reflex_app, compat.reflex_vars, compat.sockets, compat.websocket)
    for module in modules:
        assert set(module.__all__) <= set(compat.__all__), module.__name__
        assert all(getattr(compat, n) is getattr(module, n) for n in module.__all__)
    assert set(compat.__all__) == {n for m in modules for n in m.__all__}


#: Library constants a pure layer reads, copied there as literals (live/input/ imports no Reflex).
PINNED = {"marks_batch.FORM_ENTRIES": (marks_batch.FORM_ENTRIES, FORM_DATA_ENTRIES_KEY)}


def test_the_pinned_constants_are_the_libraries() -> None:
    for name, (copy, library) in PINNED.items():
        assert copy == library, name
    js = STATE_JS.read_text()
    assert f'const FORM_DATA_ENTRIES_KEY = "{marks_batch.FORM_ENTRIES}";' in js


# ------------------------------------------------------------------------------------ Reflex


def test_the_frontend_speaks_the_names_compat_sends() -> None:
    """The form key, the hydrate event and the script event are the frontend's (state.js)."""
    js = STATE_JS.read_text()
    assert f'event.name == "{compat.CALL_SCRIPT}"' in js
    assert f"${{app.state_name}}.{compat.HYDRATE}`" in js
    assert f'socket.current.on("{compat.UPDATE}", (update) =>' in js
    assert f'socket.emit("{compat.UPDATE}", ' in js
    spec = rx.call_script("1 + 1")
    assert spec.handler.fn.__qualname__ == compat.CALL_SCRIPT
    event = compat.call_script("window.location.reload()")
    assert event["name"] == compat.CALL_SCRIPT
    assert set(event["payload"]) == set(inspect.signature(rx.call_script).parameters)
    assert compat.poke(event) == {"events": [event]}
    assert compat.poke() == {"events": []}
    # an event the page sends back: the shape Reflex's own frontend events have
    spec = PlayerState.refresh()
    mine = compat.event(f"{PlayerState.get_full_name()}.refresh")
    assert set(mine) == set(Event.__dataclass_fields__)  # (name, payload, router_data)
    assert mine["name"] == format_event_handler(spec.handler) and mine["payload"] == {}


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


def test_a_raw_javascript_var_names_the_backend_as_reflex_does() -> None:
    """`backend_url`: the expression Reflex's own upload links use (its state.js looks for it),
    the imports it needs (state.js's export, env.json's UPLOAD), and a state var's own data
    (its state, for the page's hooks) kept with it."""
    from loto_app.live.states.hall import HallView

    js = STATE_JS.read_text()
    assert f'a.href.includes("{compat.BACKEND_ORIGIN}")' in js
    assert "export const getBackendURL = " in js
    assert "UPLOAD" in Endpoint.__members__
    fixed = compat.backend_url("/media/upload")
    assert str(fixed) == (
        '(("/media/upload") ? new URL(("/media/upload"), getBackendURL(env.UPLOAD)).href : \'\')'
    )
    data = fixed._get_all_var_data()
    assert data is not None
    imports = {lib: [v.tag for v in vs] for lib, vs in data.imports}
    assert imports == {"$/utils/state": ["getBackendURL"], "$/env.json": ["env"]}
    photo = compat.backend_url(HallView.lot_photo)
    assert str(HallView.lot_photo) in str(photo)
    photo_data = photo._get_all_var_data()
    assert photo_data is not None and photo_data.state == HallView.get_full_name()


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
            assert isinstance(write.__self__, compat.FrameWriterProtocol)
            assert lean_server.DirectWriteProtocol.SCOPE_KEY == fanout.SCOPE_KEY
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


def test_updates_reach_a_room_of_the_pages_namespace() -> None:
    """`send` on a real served connection (a room, one socket, here only), `app_rooms` reads
    the room; the app's own namespace is Reflex's event namespace."""
    app = the_app.app
    assert compat.serves_pages(app)
    assert compat.event_namespace(app) == app.event_namespace.namespace == "/_event"
    assert not compat.serves_pages(SimpleNamespace(sio=None, event_namespace=None))  # type: ignore[arg-type]

    async def run() -> list[str]:
        sio, server, task, clients = await serve(True, ["hall"])
        try:
            (client,) = clients
            page = SimpleNamespace(sio=sio, event_namespace=SimpleNamespace(namespace="/"))
            assert client.sid in compat.app_rooms(page)["hall"]  # type: ignore[arg-type]
            await compat.send(page, compat.delta("s", {"n": 1}), "hall")  # type: ignore[arg-type]
            update = compat.poke(compat.event("s.refresh"))
            await compat.send(page, update, client.sid, here_only=True)  # type: ignore[arg-type]
            await compat.send(page, {"x": 1}, "hall", skip_sid=client.sid)  # type: ignore[arg-type]
            await until(lambda: len(client.events) == 2)
            await asyncio.sleep(0.05)  # (the skipped one would be in by now)
            return client.events
        finally:
            await stop(server, task, clients)

    events = [json.loads(e[2:]) for e in asyncio.run(run())]
    assert events == [
        [compat.UPDATE, {"delta": {"s": {f"n{compat.FIELD_MARKER}": 1}}}],
        [compat.UPDATE, {"events": [{"name": "s.refresh", "payload": {}, "router_data": {}}]}],
    ]


def test_a_packet_manager_is_handed_each_message_encoded_once() -> None:
    """`PacketManager` on a real server (`assign_manager`, before any client: `serving`): a
    room message's engine.io packets and recipients go to `deliver` (the server's `emit`
    passes `HERE_ONLY`, which it drops); a message with a callback goes the library's way; so
    does one whose recipients cannot be read (`failed` told)."""
    delivered: list[tuple[list[str], list[str]]] = []
    failures: list[str] = []

    class Manager(compat.PacketManager):
        broken = 0  # the next calls of `get_participants` that raise

        def deliver(self, eio_sids: list[str], eio_pkts: list[object]) -> None:
            delivered.append((eio_sids, [p.encode() for p in eio_pkts]))  # type: ignore[attr-defined]
            for eio_sid in eio_sids:
                for p in eio_pkts:
                    compat.queue_packet(self.server.eio.sockets[eio_sid], p)

        def get_participants(self, namespace: str, room: object) -> object:
            if self.broken:
                self.broken -= 1
                raise AttributeError("renamed")
            return super().get_participants(namespace, room)

        def failed(self, exc: Exception, where: str) -> None:
            failures.append(where)

    assert compat.HERE_ONLY in inspect.signature(socketio.AsyncServer.emit).parameters
    assert compat.HERE_ONLY in inspect.getsource(socketio.AsyncRedisManager.emit)
    assert list(inspect.signature(socketio.AsyncManager.is_connected).parameters) == [
        "self",
        "sid",
        "namespace",
    ]

    async def run() -> list[str]:
        sio = socketio.AsyncServer(async_mode="asgi")
        manager = Manager()
        assert not compat.serving(sio)
        compat.assign_manager(sio, manager)
        assert sio.manager is manager and manager.server is sio
        sio2, server, task, clients = await serve(False, ["hall", "hall"], manager=manager)
        try:
            assert compat.serving(sio2)
            a, b = clients
            await sio2.emit("n", 1, to="hall", skip_sid=b.sid)
            await sio2.emit("n", (2, 3), to="hall")
            manager.broken = 1  # (the library's emit, which follows, reads them again)
            await sio2.emit("n", 4, to="hall")
            await until(lambda: len(a.events) == 3 and len(b.events) == 2)
            return a.events
        finally:
            await stop(server, task, clients)

    assert asyncio.run(run()) == ['42["n",1]', '42["n",2,3]', '42["n",4]']
    assert [(len(sids), pkts) for sids, pkts in delivered] == [
        (1, ['42["n",1]']),
        (2, ['42["n",2,3]']),
    ]
    assert failures == ["the message to 'hall'"]


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
