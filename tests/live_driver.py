"""Synchronous test code driving evenings through the production move path: a `Registry` (the
group-commit writer) on the test's own store, run on an event loop in a thread of its own.

    with Driver(store) as d:
        pid, secret = d.join(evening_id, "Ana")
        d.run(evening_id, lambda e: e.start_game())

`Driver.on(evening_id)` binds one evening: `run(move)` / `join(name)` / `.evening`, the shape
the scenario bots take (`play_evening(live.run, lambda: live.evening, seed)`). Each `Driver`
is one process's registry: two drivers on one database are two workers.

`quine_program(series)` is the tests' usual evening to drive: one classique game, its quine.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from loto_app.domain import events as ev
from loto_app.domain import program as pg
from loto_app.domain.engine import Evening
from loto_app.live.runtime.live_evening import Extra, LiveEvening, Move
from loto_app.live.runtime.registry import Publisher, Registry
from loto_app.storage.repository import EveningStore

T = TypeVar("T")


def quine_program(series: str, **settings: Any) -> pg.Program:
    """One classique game, a quine for a "Panier garni" (30 €), its balls typed in (physical
    draw), no last call (a valid claim's lot can be awarded at once); `settings` are the other
    `Settings` fields to set (`free_cartons=True`)."""
    quine = pg.Stage(pg.Pattern.ONE_LINE, pg.Lot("Panier garni", 3000))
    return pg.Program(
        series,
        (pg.GameSpec(pg.Kind.CLASSIQUE, (quine,)),),
        pg.Settings(pg.DrawSource.PHYSICAL, **{"last_call_seconds": 0, **settings}),
    )


class Driver:
    """A registry on `store` and the event loop it runs on (a daemon thread)."""

    def __init__(self, store: EveningStore, *publishers: Publisher) -> None:
        self.store = store
        self.registry = Registry(store)
        for p in publishers:
            self.registry.on_change(p)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the driver's loop and wait for it (its exception is raised)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=120)

    def run(self, evening_id: int, move: Move, extra: Extra | None = None) -> list[ev.Event]:
        """Play, commit and publish a move (`Registry.play`).

        Raises:
            LotoError: the move is illegal; nothing changed.
        """
        return self.call(self.registry.play(evening_id, move, extra))

    def join(self, evening_id: int, name: str, origin: str = "hall") -> tuple[str, str]:
        """A new player: (player id, secret identity)."""
        return self.call(self.registry.join(evening_id, name, origin))

    def live(self, evening_id: int, *, fresh: bool = False) -> LiveEvening:
        """The registry's evening in memory (`fresh`: caught up with others' commits first)."""

        async def get() -> LiveEvening:
            return await self.registry.live(evening_id, fresh=fresh)

        return self.call(get())

    def on(self, evening_id: int) -> Bound:
        """The same, bound to one evening."""
        return Bound(self, evening_id)

    def close(self) -> None:
        """Cancel the timers, stop the loop and its thread (again: nothing)."""
        if self.loop.is_closed():
            return

        async def forget() -> None:
            self.registry.forget_all()

        self.call(forget())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()

    def __enter__(self) -> Driver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Bound:
    """A driver bound to one evening."""

    def __init__(self, driver: Driver, evening_id: int) -> None:
        self.driver = driver
        self.evening_id = evening_id

    def run(self, move: Move, extra: Extra | None = None) -> list[ev.Event]:
        """Play, commit and publish a move on this evening."""
        return self.driver.run(self.evening_id, move, extra)

    def join(self, name: str, origin: str = "hall") -> tuple[str, str]:
        """A new player of this evening: (player id, secret identity)."""
        return self.driver.join(self.evening_id, name, origin)

    @property
    def live(self) -> LiveEvening:
        """The evening in memory, as the registry holds it."""
        return self.driver.live(self.evening_id)

    @property
    def evening(self) -> Evening:
        """The engine's state, as the registry holds it."""
        return self.live.evening

    @property
    def seq(self) -> int:
        """The sequence number of the last event committed here."""
        return self.live.seq

    def catch_up(self) -> None:
        """Catch up with other processes' commits."""
        self.driver.live(self.evening_id, fresh=True)
