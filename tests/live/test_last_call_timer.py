"""The runtime closes the last call ("Pas d'autre quine ?") after the evening's seconds: when
the claim that opens it is committed, and again when an evening is loaded with a last call open
(a restart). A real SQLite file, the real registry; no Reflex."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from loto_app.domain import events as ev
from loto_app.domain.errors import LastCallOpen, NoLastCall
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
)
from loto_app.live.runtime import registry
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

SECONDS = 1
WAIT = 15.0  # at most this long for a timer of SECONDS (a loaded machine is slow)
PROGRAM = Program(
    "LC",
    (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon")),)),),
    Settings(DrawSource.PHYSICAL, last_call_seconds=SECONDS),
)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[EveningStore]:
    url = f"sqlite:///{tmp_path / 'loto.db'}"
    upgrade(url)
    engine = make_engine(url)
    store = EveningStore(engine)
    monkeypatch.setattr(registry, "_store", store)
    registry.forget_all()
    yield store
    registry.forget_all()
    engine.dispose()


def logged(store: EveningStore, evening_id: int) -> list[ev.Event]:
    """The evening's events, as committed (read back from the database)."""
    return [e for _, e, _ in store.events_after(evening_id, 0)]


async def claim_with_last_call(evening_id: int) -> ev.LastCallOpened:
    """A player completes a row and claims: the claim opens the last call."""
    pid, _ = await registry.join(evening_id, "Ana")
    await registry.play(evening_id, lambda e: e.sell(pid, Kind.CLASSIQUE, 1, rng=random.Random(3)))
    await registry.play(evening_id, lambda e: e.start_game())
    lv = await registry.live(evening_id)
    (carton,) = lv.evening.player_cartons(pid)
    for n in sorted(carton.carton.rows[0]):
        await registry.play(evening_id, lambda e, n=n: e.enter_ball(n))
    _, opened = await registry.play(evening_id, lambda e: e.claim(pid, carton.no))
    assert isinstance(opened, ev.LastCallOpened) and opened.seconds == SECONDS
    return opened


async def closed(store: EveningStore, evening_id: int) -> bool:
    """Wait (bounded) until the log holds the close of the last call."""
    for _ in range(int(WAIT / 0.05)):
        if any(isinstance(e, ev.LastCallClosed) for e in logged(store, evening_id)):
            return True
        await asyncio.sleep(0.05)
    return False


def test_the_last_call_is_closed_after_its_seconds_then_the_lot_can_be_awarded(store):
    eid = store.create_evening("Soirée", PROGRAM).evening_id

    async def evening() -> None:
        opened = await claim_with_last_call(eid)
        with pytest.raises(LastCallOpen):
            await registry.play(eid, lambda e: e.award())
        assert await closed(store, eid)
        (close,) = [e for e in logged(store, eid) if isinstance(e, ev.LastCallClosed)]
        assert close == ev.LastCallClosed(opened.game, opened.stage, opened.number)
        (award,) = await registry.play(eid, lambda e: e.award())
        assert isinstance(award, ev.StageAwarded)

    asyncio.run(evening())


def test_a_second_timer_on_the_same_last_call_is_refused_and_changes_nothing(store):
    """Two workers each scheduled a timer: one closes it, the other's move is refused."""
    eid = store.create_evening("Soirée", PROGRAM).evening_id

    async def evening() -> None:
        opened = await claim_with_last_call(eid)
        await registry.play(eid, lambda e: e.close_last_call(opened))  # the other worker
        assert await closed(store, eid)
        await asyncio.sleep(SECONDS + 0.5)  # our own timer fires meanwhile: refused
        with pytest.raises(NoLastCall):
            await registry.play(eid, lambda e: e.close_last_call(opened))
        assert sum(isinstance(e, ev.LastCallClosed) for e in logged(store, eid)) == 1

    asyncio.run(evening())


def test_an_evening_loaded_with_a_last_call_open_schedules_its_close_again(store):
    """A restart: the process that opened the last call is gone with its timer."""
    eid = store.create_evening("Soirée", PROGRAM).evening_id

    async def before_the_crash() -> None:
        await claim_with_last_call(eid)

    asyncio.run(before_the_crash())
    registry.forget_all()  # (the timer is cancelled with its loop: the process died)
    assert not any(isinstance(e, ev.LastCallClosed) for e in logged(store, eid))

    async def after_the_restart() -> None:
        lv = await registry.live(eid)  # loading the evening finds the last call open
        assert lv.evening.game.last_call is not None
        assert await closed(store, eid)

    asyncio.run(after_the_restart())
