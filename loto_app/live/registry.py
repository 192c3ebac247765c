"""The evenings this process serves: one `LiveEvening` each, moves serialised per evening.

A move runs on the engine and is committed to the database in a worker thread (never on the
event loop), under the evening's lock; the public picture is then published to everyone, still
under the lock, so that broadcasts go out in commit order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlmodel import Session

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore, LiveEvening

log = logging.getLogger(__name__)

Publisher = Callable[[int, LiveEvening, list[ev.Event], str | None], Awaitable[None]]

_store: EveningStore | None = None
_lives: dict[int, LiveEvening] = {}
_locks: dict[int, asyncio.Lock] = {}
_publishers: list[Publisher] = []


def store() -> EveningStore:
    """The process's database access (the configured database)."""
    global _store
    if _store is None:
        _store = EveningStore(make_engine())
    return _store


def on_change(publisher: Publisher) -> None:
    """Register what runs after every committed move (the broadcast)."""
    _publishers.append(publisher)


def _lock(evening_id: int) -> asyncio.Lock:
    return _locks.setdefault(evening_id, asyncio.Lock())


async def live(evening_id: int, *, fresh: bool = True) -> LiveEvening:
    """The evening, loaded on first use; `fresh` catches up with other processes' commits."""
    lv = _lives.get(evening_id)
    if lv is None:
        lv = await asyncio.to_thread(LiveEvening, store(), evening_id)
        lv = _lives.setdefault(evening_id, lv)
    elif fresh:
        await asyncio.to_thread(lv.catch_up)
    return lv


async def play(
    evening_id: int,
    move: Callable[[Evening], list[ev.Event]],
    extra: Callable[[Session], None] | None = None,
    actor: str | None = None,
) -> list[ev.Event]:
    """Run a move, commit it, then publish it (`actor`: the socket that made it, whose own
    handler already refreshes its view; the player's other tabs are still told).

    Raises:
        LotoError: the move is illegal; nothing changed and nothing is published.
    """
    async with _lock(evening_id):
        lv = await live(evening_id, fresh=False)
        events = await asyncio.to_thread(lv.run, move, extra)
        if events:
            await _publish(evening_id, lv, events, actor)
        return events


async def join(evening_id: int, name: str, origin: str = "hall") -> tuple[str, str]:
    """Register a player ("hall", "remote" or "paper"); returns (player id, secret identity)."""
    async with _lock(evening_id):
        lv = await live(evening_id, fresh=False)
        pid, secret = await asyncio.to_thread(lv.join, name, origin)
        await _publish(evening_id, lv, lv.evening.history[-1:], None)
        return pid, secret


async def _publish(
    evening_id: int, lv: LiveEvening, events: list[ev.Event], actor: str | None
) -> None:
    for publish in _publishers:
        try:
            await publish(evening_id, lv, events, actor)
        except Exception:  # a failed broadcast must not undo a committed move
            log.exception("evening %s: publishing failed", evening_id)


def forget_all() -> None:
    """Drop every cached evening (tests)."""
    _lives.clear()
    _locks.clear()
