"""Who is told what after a commit (loto_app/live/runtime/broadcast.py `routes`): the public
picture to the evening's room once per committed state, the player count to the animateur's
tablets, a poke to the desk and to each player whose private view changed, never back to the socket
that made the move. Moves go through the real registry on a SQLite file; the publisher records."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from loto_app.domain import events as ev
from loto_app.domain.program import DrawSource, demo_program
from loto_app.live.runtime import broadcast
from loto_app.live.runtime.broadcast import Emit, desk_room, player_room, room, staff_room
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.live.runtime.registry import Registry
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

PROGRAM = demo_program("B").with_settings(draw_source=DrawSource.ELECTRONIC, last_call_seconds=0)
HALL, REFRESH, DESK = "state.hall_view", "state.player_state.refresh", "state.caisse.refresh"
POKE = {"events": [{"name": REFRESH, "payload": {}, "router_data": {}}]}
DESK_POKE = {"events": [{"name": DESK, "payload": {}, "router_data": {}}]}


@pytest.fixture
def routed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Registry, list]]:
    """A registry on a fresh SQLite file whose publisher records each move's routes."""
    monkeypatch.setattr(broadcast, "_hall_state", HALL)
    monkeypatch.setattr(broadcast, "_refresh_event", REFRESH)
    monkeypatch.setattr(broadcast, "_desk_refresh_event", DESK)
    url = f"sqlite:///{tmp_path / 'loto.db'}"
    upgrade(url)
    engine = make_engine(url)
    reg, sent = Registry(EveningStore(engine)), []

    async def record(eid: int, lv: LiveEvening, events: list[ev.Event], actor: str | None):
        sent.append(broadcast.routes(eid, lv, events, actor))

    reg.on_change(record)
    yield reg, sent
    engine.dispose()


def test_each_change_reaches_exactly_those_it_concerns(routed) -> None:
    reg, sent = routed
    eid = reg.store.create_evening("Soirée", PROGRAM).evening_id
    rng = random.Random(3)

    async def evening() -> tuple[str, dict]:
        ana, _ = await reg.join(eid, "Ana")
        await reg.play(eid, lambda e: e.desk_sale(ana, 0, "cash", "Marie", rng), actor="desk-1")
        await reg.play(eid, lambda e: e.start_game(), actor="tablet")
        await reg.play(eid, lambda e: e.draw(rng), actor="tablet")
        lv = await reg.live(eid)
        return ana, broadcast.picture(lv)

    ana, picture = asyncio.run(evening())
    joined, sold, started, drawn = sent
    # a join: only the animateur's tablets, with the new count (a join storm pokes no one)
    assert joined == [Emit(staff_room(eid), {"delta": {HALL: {"players_rx_state_": 1}}})]
    # a desk sale: the other desks and the buyer's phones, not the desk that sold
    assert sold == [
        Emit(desk_room(eid), DESK_POKE, skip_sid="desk-1"),
        Emit(player_room(eid, ana), POKE, skip_sid="desk-1"),
    ]
    # a game starts: the picture, and every private view (which cartons play)
    assert [r.to for r in started] == [room(eid), room(eid)]
    assert started[1] == Emit(room(eid), POKE)
    # a number: the picture to everyone, including the tablet that drew it (its hall view)
    assert drawn == [Emit(room(eid), broadcast.delta(picture))]


def test_one_picture_per_committed_state_for_a_batch(routed) -> None:
    reg, sent = routed
    eid = reg.store.create_evening("Soirée", PROGRAM).evening_id
    rng = random.Random(4)

    async def evening() -> None:
        pid, _ = await reg.join(eid, "Ana")
        await reg.play(eid, lambda e: e.desk_sale(pid, 0, "cash", "Marie", rng))
        await reg.play(eid, lambda e: e.start_game())
        await reg.live(eid)
        # three numbers queued at once: one commit, three publications, one picture
        await asyncio.gather(*(reg.play(eid, lambda e: e.draw(rng)) for _ in range(3)))

    asyncio.run(evening())
    draws = sent[-3:]
    assert [len(r) for r in draws] == [1, 0, 0]
    (picture,) = draws[0]
    assert picture.to == room(eid)
    assert len(picture.message["delta"][HALL]["drawn_rx_state_"]) == 3  # the state after all


def test_one_player_count_per_count_for_a_batch_of_joins(routed) -> None:
    reg, sent = routed
    eid = reg.store.create_evening("Soirée", PROGRAM).evening_id

    async def evening() -> None:
        await reg.join(eid, "Ana")
        # five joins queued at once: one commit, five publications, the count told once
        await asyncio.gather(*(reg.join(eid, f"Joueur {i}") for i in range(5)))
        await reg.join(eid, "Zoé")

    asyncio.run(evening())
    assert [len(r) for r in sent] == [1, 1, 0, 0, 0, 0, 1]
    counts = [r[0].message["delta"][HALL]["players_rx_state_"] for r in sent if r]
    assert counts == [1, 6, 7]
    assert all(r[0].to == staff_room(eid) for r in sent if r)
