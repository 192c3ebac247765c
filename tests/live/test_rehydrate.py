"""A rebuilt Reflex state fills itself in before its first snapshot
(loto_app/live/gate/rehydrate.py): on the real states, a real SQLite database and the production
move path (registry.play)."""

from __future__ import annotations

import asyncio

import pytest

from loto_app.domain.program import demo_program
from loto_app.live.gate.rehydrate import stored_values
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


def test_stored_values_reads_one_state_and_ignores_junk() -> None:
    from loto_app.live.states.player import PlayerState

    name = PlayerState.get_full_name()
    got = stored_values(
        PlayerState,
        {
            f"{name}.secret_rx_state_": "s3cret",
            f"{name}.code": "ABC",
            f"{name}.name": 7,  # not a string: ignored
            "other.state.secret": "no",
            12: "x",
        },
    )
    assert got == {"secret": "s3cret", "code": "ABC"}
    assert stored_values(PlayerState, "not a dict") == {}


@pytest.fixture
def live_app(tmp_path, monkeypatch):
    """The app's states and registry on a fresh SQLite file."""
    import loto_app.loto_app  # noqa: F401  (builds the state tree, binds the broadcast)
    from loto_app.live.runtime import registry

    url = f"sqlite:///{tmp_path / 'loto.db'}"
    upgrade(url)
    store = EveningStore(make_engine(url))
    monkeypatch.setattr(registry, "_store", store)
    registry.forget_all()
    yield store
    registry.forget_all()
    store.engine.dispose()


def test_a_rebuilt_player_state_shows_its_cartons_and_the_board_before_any_handler(
    live_app: EveningStore,
) -> None:
    import reflex as rx

    from loto_app.live.runtime import registry
    from loto_app.live.states.hall import HallView
    from loto_app.live.states.player import PlayerState

    creds = live_app.create_evening("Chaud", demo_program("HOT").with_settings(free_cartons=True))
    eid = creds.evening_id

    async def scenario() -> tuple[PlayerState, HallView, list[int], PlayerState]:
        pid, secret = await registry.join(eid, "Mamie Jo")
        await registry.play(eid, lambda e: e.order(pid, 1))  # 3 classique cartons, free
        await registry.play(eid, lambda e: e.start_game())
        for _ in range(5):
            await registry.play(eid, lambda e: e.draw())
        lv = await registry.live(eid)
        drawn = list(lv.evening.game.drawn)
        root = rx.State(_reflex_internal_init=True)
        player = root.get_substate(PlayerState.get_full_name().split(".")[1:])
        assert player.cartons == [] and not player.ready  # a rebuilt state: defaults
        await player._warm({"secret": secret, "code": creds.join_code})
        hall = root.get_substate(HallView.get_full_name().split(".")[1:])
        stranger_root = rx.State(_reflex_internal_init=True)
        stranger = stranger_root.get_substate(PlayerState.get_full_name().split(".")[1:])
        await stranger._warm({"secret": secret + "x", "code": creds.join_code})
        await stranger._warm({"secret": "", "code": ""})
        return player, hall, drawn, stranger

    player, hall, drawn, stranger = asyncio.run(scenario())
    assert player.ready and player.name == "Mamie Jo"
    assert len(player.cartons) == 3
    assert list(hall.drawn) == drawn and hall.last == drawn[-1] and hall.count == 5
    assert hall.evening_name == "Chaud"
    # a wrong secret or none fills nothing in
    assert stranger.cartons == [] and not stranger.ready and not stranger._player_id


def test_the_middleware_warms_the_state_of_the_page_being_hydrated(
    live_app: EveningStore,
) -> None:
    """Through the middleware, as Reflex calls it: the hydrate of /jouer warms PlayerState with
    the identity in the hydrate's payload (and of `/`, the same page); other events and other
    pages are left alone."""
    import reflex as rx
    from reflex.event import Event

    from loto_app import loto_app as entry
    from loto_app.live.gate.rehydrate import WarmHydrate
    from loto_app.live.runtime import registry
    from loto_app.live.states.player import PlayerState

    (warm,) = [m for m in entry.app._middlewares if isinstance(m, WarmHydrate)]
    assert warm.by_route["/jouer"] == [PlayerState]
    creds = live_app.create_evening("Tiède", demo_program("WRM").with_settings(free_cartons=True))
    name = PlayerState.get_full_name()

    async def scenario(path: str, event_name: str) -> PlayerState:
        pid, secret = await registry.join(creds.evening_id, "Pépé")
        await registry.play(creds.evening_id, lambda e: e.order(pid, 0))
        root = rx.State(_reflex_internal_init=True)
        root.router_data = root._update_router_vars({"pathname": path, "asPath": path}, {})
        assert root.router.url.path == path
        vars_ = {f"{name}.secret_rx_state_": secret, f"{name}.code_rx_state_": creds.join_code}
        event = Event(name=event_name, payload={"vars": vars_})
        assert await warm.preprocess(entry.app, root, event) is None  # never stops an event
        return root.get_substate(name.split(".")[1:])

    hydrate = "reflex___state____state.hydrate_and_load"
    assert len(asyncio.run(scenario("/jouer", hydrate)).cartons) == 1
    # `/` is the same page (the join form, then the player's page): warmed as well, its
    # hydrate being its whole load (the next test)
    assert warm.by_route["/"][0] is PlayerState
    assert asyncio.run(scenario("/reglement", hydrate)).cartons == []
    assert asyncio.run(scenario("/jouer", f"{name}.refresh")).cartons == []


class _Socket:
    """A socket connected to the app's socket.io server (the rooms' bookkeeping, no network)
    and the hydrate's event context: the events it queues after itself (`queued`)."""

    def __enter__(self) -> _Socket:
        from reflex_base.event.context import EventContext

        from loto_app import loto_app as entry

        self.sio = entry.app.sio
        self.ns = entry.app.event_namespace.namespace
        self.sid = asyncio.run(self.sio.manager.connect("eio-test", self.ns))
        self.queued: list = []

        async def enqueue(token: str, *events: object) -> None:
            self.queued.extend(events)

        ctx = EventContext(token="tok", state_manager=None, enqueue_impl=enqueue)  # type: ignore[arg-type]
        self.reset = EventContext.set(ctx)
        return self

    def rooms(self) -> list[str]:
        return sorted(self.sio.manager.get_rooms(self.sid, self.ns))

    def __exit__(self, *exc: object) -> None:
        from reflex_base.event.context import EventContext

        EventContext.reset(self.reset)
        asyncio.run(self.sio.manager.disconnect(self.sid, self.ns))


def test_the_join_page_is_loaded_by_its_hydrate_alone(live_app: EveningStore) -> None:
    """`/` (the QR code) has no on_load handler (three events fewer per joining phone): before
    its snapshot the form gets the link's code, and a player's socket its cartons, the board and
    the broadcast rooms (a reload, a reconnect: React Router's path stays `/` after a join); an
    identity that is no player's queues `resume` after the hydrate (the join form again), as
    the on_load handler did."""
    import reflex as rx
    from reflex.event import Event

    from loto_app import loto_app as entry
    from loto_app.limits import MAX_CODE
    from loto_app.live.gate.rehydrate import WarmHydrate
    from loto_app.live.runtime import broadcast, registry
    from loto_app.live.states.join import JoinPrefill
    from loto_app.live.states.player import PlayerState

    assert entry.app.get_load_events("/") == []
    assert entry.app.get_load_events("/jouer")  # (resume)
    (warm,) = [m for m in entry.app._middlewares if isinstance(m, WarmHydrate)]
    creds = live_app.create_evening("Froid", demo_program("QRC").with_settings(free_cartons=True))
    eid, name = creds.evening_id, PlayerState.get_full_name()

    async def hydrate(socket: _Socket, query: str = "", secret: str = "") -> rx.State:
        root = rx.State(_reflex_internal_init=True)
        url = f"/?{query}" if query else "/"
        params = dict(p.split("=") for p in query.split("&")) if query else {}
        router = {"pathname": "/", "asPath": url, "query": params, "sid": socket.sid}
        root.router_data = root._update_router_vars(router, {})
        vars_ = {f"{name}.secret_rx_state_": secret, f"{name}.code_rx_state_": creds.join_code}
        event = Event(name="reflex___state____state.hydrate_and_load", payload={"vars": vars_})
        assert await warm.preprocess(entry.app, root, event) is None
        return root

    def player_of(root: rx.State) -> PlayerState:
        return root.get_substate(name.split(".")[1:])

    # a phone scanning the QR code: the code in the form; no room, nothing queued
    with _Socket() as socket:
        root = asyncio.run(hydrate(socket, f"code={creds.join_code.lower()}&invitation=abc"))
        prefill = root.get_substate(JoinPrefill.get_full_name().split(".")[1:])
        assert (prefill.code, prefill.invitation) == (creds.join_code, "abc")
        assert socket.queued == [] and socket.rooms() == [socket.sid]
    # a code as long as the app takes (MAX_CODE) is shown whole, a longer one cut there
    with _Socket() as socket:
        root = asyncio.run(hydrate(socket, "code=abcdefghjkmnpqrs"))
        prefill = root.get_substate(JoinPrefill.get_full_name().split(".")[1:])
        assert prefill.code == "ABCDEFGHJKMNPQRS" and len(prefill.code) == MAX_CODE
        root = asyncio.run(hydrate(socket, "code=abcdefghjkmnpqrstuvw"))
        prefill = root.get_substate(JoinPrefill.get_full_name().split(".")[1:])
        assert prefill.code == "ABCDEFGHJKMNPQRS"

    # a player back on `/` (a reload, its socket reconnected): cartons, board, rooms
    pid, secret = asyncio.run(registry.join(eid, "Mémé"))
    asyncio.run(registry.play(eid, lambda e: e.order(pid, 0)))
    with _Socket() as socket:
        player = player_of(asyncio.run(hydrate(socket, secret=secret)))
        assert len(player.cartons) == 1 and player.ready
        rooms = sorted([socket.sid, broadcast.room(eid), broadcast.player_room(eid, pid)])
        assert socket.rooms() == rooms
        assert socket.queued == []

    # a stored identity that is no player's: no room, `resume` queued (it forgets it)
    with _Socket() as socket:
        player = player_of(asyncio.run(hydrate(socket, secret=secret + "x")))
        assert player.cartons == [] and not player.ready
        assert socket.rooms() == [socket.sid]
        assert [e.name for e in socket.queued] == [f"{name}.resume"]
