"""The evenings this process serves: one `LiveEvening` each, moves serialised per evening.
This is the one path by which a move is played, committed and told.

Moves go through one writer task per evening (group commit): the moves queued meanwhile are run
on the engine in order (on the event loop, where the evening is read) and committed together, in
one transaction, in a worker thread; then each committed move is published (in commit order) and
only then is its caller answered. A join storm or a claim storm costs one commit and one thread
hop per batch instead of per move, and nothing is told before it is in the database.

The last call ("Pas d'autre quine ?") is closed here too: whenever an evening is loaded, caught
up or committed with a last call open that this process has no timer for, a timer closes it
after the evening's seconds (a move like any other: a second worker's timer, or one that fires
after the last call was closed otherwise, is simply refused by the engine).

`Registry` holds all this for one database; the process uses one (`default()`, on the
configured database) through this module's functions. Tests make their own on a SQLite file,
with a recording publisher.

One process (no `REFLEX_REDIS_URL`, so no second worker) is the database's only writer: its
evenings in memory are the log's latest state, and nothing asks the database whether another
process committed (a page load or a batch did; ~8 % of a join's server CPU). Should another
process commit all the same (two apps on one database), the commit it races fails on the log's
(evening, seq) key, the evening is replayed from the database and the registry catches up
before every move from then on.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from loto_app.domain import events as ev
from loto_app.domain.errors import LotoError
from loto_app.live.input.guards import refuse
from loto_app.live.runtime.live_evening import Extra, LiveEvening, Move
from loto_app.shared_redis import redis_url
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

log = logging.getLogger(__name__)

Publisher = Callable[[int, LiveEvening, list[ev.Event], str | None], Awaitable[None]]

#: At most this many moves per transaction (a batch still commits in a few milliseconds).
MAX_BATCH = 256


@dataclass(slots=True)
class _Move:
    move: Move
    extra: Extra | None
    actor: str | None
    answer: asyncio.Future


class Registry:
    """The live evenings of one database, their writers, publishers and last-call timers.

    Args:
        store: the database; None: the process's configured database (`store()`).
        sole_writer: no other process writes this database: no catching up (see above).
    """

    def __init__(self, store: EveningStore | None = None, *, sole_writer: bool = False) -> None:
        self._store = store
        self.sole_writer = sole_writer
        self._lives: dict[int, LiveEvening] = {}
        self._queues: dict[int, list[_Move]] = {}
        self._writers: dict[int, asyncio.Task] = {}
        self._publishers: list[Publisher] = []
        self._last_calls: dict[int, ev.LastCallOpened] = {}  # evening -> the one a timer closes
        self._timers: set[asyncio.Task] = set()  # (a task needs a strong reference)

    @property
    def store(self) -> EveningStore:
        """The database access."""
        return self._store if self._store is not None else store()

    def served(self) -> list[int]:
        """The evenings loaded here."""
        return list(self._lives)

    def on_change(self, publisher: Publisher) -> None:
        """Register what runs after every committed move (the broadcast)."""
        self._publishers.append(publisher)

    def loaded(self, evening_id: int) -> LiveEvening | None:
        """The evening if it is in memory here (no loading, no catching up)."""
        return self._lives.get(evening_id)

    async def live(self, evening_id: int, *, fresh: bool = True) -> LiveEvening:
        """The evening, loaded on first use; `fresh` catches up with other processes' commits."""
        lv = self._lives.get(evening_id)
        if lv is None:
            lv = await asyncio.to_thread(LiveEvening, self.store, evening_id)
            lv = self._lives.setdefault(evening_id, lv)
        elif fresh and not self.sole_writer:
            await asyncio.to_thread(lv.catch_up)
        self.watch_last_call(evening_id, lv)
        return lv

    async def play(
        self,
        evening_id: int,
        move: Move,
        extra: Extra | None = None,
        actor: str | None = None,
    ) -> list[ev.Event]:
        """Run a move, commit it, then publish it (`actor`: the socket that made it, whose own
        handler already refreshes its view; the player's other tabs are still told).

        Raises:
            LotoError: the move is illegal; nothing changed and nothing is published.
        """
        answer = asyncio.get_running_loop().create_future()
        self._queues.setdefault(evening_id, []).append(_Move(move, extra, actor, answer))
        writer = self._writers.get(evening_id)
        if writer is None or writer.done() or writer.get_loop() is not answer.get_loop():
            self._writers[evening_id] = asyncio.create_task(self._write(evening_id))
        return await answer

    async def join(
        self, evening_id: int, name: str, origin: str = "hall", invitation: int = 0
    ) -> tuple[str, str]:
        """Register a player ("hall", "remote" with the number of the association's
        `invitation`, or "paper"); returns (player id, secret identity for the browser, whose
        digest is committed with the join)."""
        player_id = uuid.uuid4().hex[:16]
        secret = secrets.token_urlsafe(24)
        await self.play(
            evening_id,
            lambda e: e.join(player_id, name, origin, invitation),
            self.store.player_secret_writer(evening_id, player_id, secret),
        )
        return player_id, secret

    async def _write(self, evening_id: int) -> None:
        """The evening's writer: commit what is queued, batch after batch, until nothing is."""
        queue = self._queues[evening_id]
        while queue:
            batch = queue[:MAX_BATCH]
            del queue[:MAX_BATCH]
            try:
                lv = await self.live(evening_id, fresh=False)
                release = await asyncio.to_thread(lv.lock_writers)  # other workers wait (PG)
                try:
                    for _attempt in range(3):
                        if not self.sole_writer:  # other processes' commits, if any
                            await asyncio.to_thread(lv.catch_up)
                        # The engine runs here, on the loop that reads the evening (no reader
                        # sees a half-applied move); the commit in a worker thread.
                        results, events, extra = lv.apply_batch([(m.move, m.extra) for m in batch])
                        if not events or await asyncio.to_thread(lv.commit_batch, events, extra):
                            break
                        self._not_alone(evening_id)
                    else:
                        raise RuntimeError(
                            f"evening {evening_id}: could not commit after 3 attempts"
                        )
                finally:
                    await asyncio.to_thread(release)
            except Exception as exc:  # nothing of the batch took effect
                for m in batch:
                    if not m.answer.done():
                        m.answer.set_exception(exc)
                continue
            self.watch_last_call(evening_id, lv)
            for m, r in zip(batch, results, strict=True):  # committed: tell, in commit order
                if isinstance(r, list) and r:
                    await self._publish(evening_id, lv, r, m.actor)
            for m, r in zip(batch, results, strict=True):
                if m.answer.done():  # the caller went away
                    continue
                if isinstance(r, LotoError):
                    m.answer.set_exception(r)
                else:
                    m.answer.set_result(r)

    def _not_alone(self, evening_id: int) -> None:
        """A commit lost a race (the evening was reloaded): another process writes this
        database, so catch up with it before every move and page from now on."""
        if self.sole_writer:
            log.error(
                "evening %s: another process commits to this database, though this one was "
                "started as its only writer (no REFLEX_REDIS_URL); catching up with it from now "
                "on. Run several workers with REFLEX_REDIS_URL, never two apps on one database",
                evening_id,
            )
            self.sole_writer = False

    async def _publish(
        self, evening_id: int, lv: LiveEvening, events: list[ev.Event], actor: str | None
    ) -> None:
        for publish in self._publishers:
            try:
                await publish(evening_id, lv, events, actor)
            except Exception:  # a failed broadcast must not undo a committed move
                log.exception("evening %s: publishing failed", evening_id)

    def watch_last_call(self, evening_id: int, lv: LiveEvening) -> None:
        """Schedule the close of the evening's open last call, unless a timer already waits
        for it (the loop must be running: call it from the event loop)."""
        g = lv.evening.game
        opened = g.last_call if g is not None else None
        if opened is None or self._last_calls.get(evening_id) == opened:
            return
        self._last_calls[evening_id] = opened
        task = asyncio.get_running_loop().create_task(self._close_last_call(evening_id, opened))
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    async def _close_last_call(self, evening_id: int, opened: ev.LastCallOpened) -> None:
        try:
            await asyncio.sleep(opened.seconds)
            await self.play(evening_id, lambda e: e.close_last_call(opened))
            log.info("evening %s: last call on %s closed", evening_id, opened.number)
        except LotoError as exc:  # closed already (another worker's timer, a decision)
            log.info("evening %s: last call on %s: %s", evening_id, opened.number, exc)
        except Exception:
            log.exception(
                "evening %s: closing the last call on %s failed", evening_id, opened.number
            )
        finally:
            if self._last_calls.get(evening_id) == opened:
                del self._last_calls[evening_id]

    def forget(self, evening_id: int) -> None:
        """Drop a deleted evening (a rehearsal): its copy in memory, its queue, its writer and
        its last call's timer."""
        self._lives.pop(evening_id, None)
        self._queues.pop(evening_id, None)
        writer = self._writers.pop(evening_id, None)
        if writer is not None and not writer.done():
            writer.cancel()
        self._last_calls.pop(evening_id, None)

    def forget_all(self) -> None:
        """Drop every cached evening and pending last-call timer (tests)."""
        self._lives.clear()
        self._queues.clear()
        self._writers.clear()
        for task in list(self._timers):
            task.cancel()
        self._last_calls.clear()


# ---------------------------------------------------------------------- the process's registry

_store: EveningStore | None = None
#: One process without Redis is its database's only writer.
_default = Registry(sole_writer=not redis_url())


def store() -> EveningStore:
    """The process's database access (the configured database)."""
    global _store
    if _store is None:
        _store = EveningStore(make_engine())
    return _store


def default() -> Registry:
    """The process's registry (on `store()`)."""
    return _default


def served() -> list[int]:
    """The evenings this process has loaded."""
    return _default.served()


def on_change(publisher: Publisher) -> None:
    """Register what runs after every committed move (the broadcast)."""
    _default.on_change(publisher)


async def live(evening_id: int, *, fresh: bool = True) -> LiveEvening:
    """The evening, loaded on first use; `fresh` catches up with other processes' commits."""
    return await _default.live(evening_id, fresh=fresh)


def loaded(evening_id: int) -> LiveEvening | None:
    """The evening if this process has it in memory (no loading, no catching up)."""
    return _default.loaded(evening_id)


async def play(
    evening_id: int, move: Move, extra: Extra | None = None, actor: str | None = None
) -> list[ev.Event]:
    """`Registry.play` on the process's registry.

    Raises:
        LotoError: the move is illegal; nothing changed and nothing is published.
    """
    return await _default.play(evening_id, move, extra, actor)


async def attempt(
    evening_id: int,
    move: Move,
    *,
    who: str,
    handler: str,
    refused: Callable[[LotoError], object],
    extra: Extra | None = None,
    actor: str | None = None,
) -> list[ev.Event] | None:
    """`play`, with the engine's refusal handled the one way: logged precisely (`refuse`: the
    handler, who, the rule's English detail), then handed to `refused`, which says its French
    `user_message` where the caller shows it; None then. Every page state plays through it
    (`BrowserSession._play`, live/states/session.py), and so does the HTTP upload
    (loto_app/media_upload.py)."""
    try:
        return await play(evening_id, move, extra, actor)
    except LotoError as exc:
        refuse(who, handler, exc)
        refused(exc)
        return None


async def join(
    evening_id: int, name: str, origin: str = "hall", invitation: int = 0
) -> tuple[str, str]:
    """Register a player ("hall", "remote" with an invitation's number, or "paper"); returns
    (player id, secret identity)."""
    return await _default.join(evening_id, name, origin, invitation)


def forget(evening_id: int) -> None:
    """`Registry.forget` on the process's registry (a deleted rehearsal)."""
    _default.forget(evening_id)


def watch_last_call(evening_id: int, lv: LiveEvening) -> None:
    """`Registry.watch_last_call` on the process's registry."""
    _default.watch_last_call(evening_id, lv)


def forget_all() -> None:
    """Drop every cached evening and pending last-call timer (tests)."""
    _default.forget_all()
