"""The room as the animateur sees it: how many players have a page with a live socket now (the
phones connected), on every worker, and the warning of a mass drop (live/present/room.py).

A player's page, whenever it loads or reconnects, enters its player's socket.io room
`loto:<evening>:<player id>` (`broadcast.enter`); socket.io takes a socket out of its rooms when
it goes. So each process reads who is connected from its rooms, without bookkeeping of its own:
the players with at least one socket (a phone back on the hall's Wi-Fi under a new socket while
the server still holds its old one is one phone, not two). Every `PERIOD` seconds (`run`, a
lifespan task of the app):

- each process writes its players in the `Counts` every process reads: in memory with one
  process; with several workers (`REFLEX_REDIS_URL`), in Redis, a set of player ids per
  evening and worker, and a hash of the workers with the time each wrote (a worker not heard
  from for `STALE` seconds, killed or cut from Redis, is no longer counted);
- a process that serves an animateur's tablet of the evening (its `staff_room`) counts the
  union (a player connected on two workers at once, the old socket not yet noticed, is one),
  feeds it to the evening's `DropWatch`, and sends the tablets on this process the count and
  the warning when they changed (straight to its own sockets: every worker tells its own
  tablets). A tablet that signs in gets them at once (`tell`).

Only the staff room receives them, and nothing a browser sends changes them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from loto_app.live import compat
from loto_app.live.present.room import WARNING, DropWatch
from loto_app.live.runtime import broadcast
from loto_app.shared_redis import redis_url

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two counts
#: A worker not heard from for this long is no longer counted (a worker killed: its phones
#: reconnect to another within seconds, and are counted there).
STALE = 3.0
REDIS_PREFIX = "loto:phones:"


def worker_name() -> str:
    """This process's name in the shared counts (asked in the worker itself: a server that
    imports the app before it forks its workers, gunicorn's --preload, would give every worker
    its parent's pid)."""
    return f"{socket.gethostname()}:{os.getpid()}"


class MemoryCounts:
    """One process: its own players are the room's."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    async def write(self, players: dict[int, set[str]]) -> None:
        self.counts = {e: len(ids) for e, ids in players.items()}

    async def total(self, evening_id: int) -> tuple[int, bool]:
        """The phones connected, and whether a worker's count just went (never here)."""
        return self.counts.get(evening_id, 0), False


class RedisCounts:
    """Several workers: `<prefix><evening>` is a hash `{worker: "<unix time>"}` of the workers
    that wrote, `<prefix><evening>:<worker>` the set of that worker's connected players."""

    #: the size of the union of the sets named (the ids stay in Redis)
    UNION = "return #redis.call('sunion', unpack(KEYS))"

    def __init__(self, url: str, worker: str, clock: Callable[[], float] = time.time) -> None:
        import redis.asyncio as aioredis

        from loto_app.live.runtime.signin_limit import namespaced

        self.redis = aioredis.from_url(url)
        self.prefix = namespaced(REDIS_PREFIX)
        self.worker, self.clock = worker, clock
        self.written: dict[int, set[str]] = {}  # what this worker's sets hold in Redis

    async def write(self, players: dict[int, set[str]]) -> None:
        """This worker's players, every round: a set is written again only when it changed
        (or went: Redis restarted, or another worker took this one for gone); the others only
        have their expiry renewed, so a quiet room costs no per-player work each second."""
        now = self.clock()
        keep = int(STALE * 10)
        mine = {e: f"{self.prefix}{e}:{self.worker}" for e in players}
        same = [e for e, ids in players.items() if ids and self.written.get(e) == ids]
        if same:
            async with self.redis.pipeline(transaction=False) as pipe:
                for e in same:
                    pipe.expire(mine[e], keep)
                renewed = await pipe.execute()
            same = [e for e, kept in zip(same, renewed, strict=True) if kept]
        async with self.redis.pipeline(transaction=True) as pipe:
            for evening_id, ids in players.items():
                key = f"{self.prefix}{evening_id}"
                if evening_id not in same:
                    pipe.delete(mine[evening_id])
                    if ids:
                        pipe.sadd(mine[evening_id], *ids)
                        pipe.expire(mine[evening_id], keep)
                pipe.hset(key, self.worker, f"{now:.3f}")
                pipe.expire(key, keep)
            await pipe.execute()
        self.written = {e: set(ids) for e, ids in players.items()}

    async def total(self, evening_id: int) -> tuple[int, bool]:
        """The players connected on every worker, and whether a worker just went stale (and
        was forgotten)."""
        key = f"{self.prefix}{evening_id}"
        workers = await self.redis.hgetall(key)
        now, fresh, stale = self.clock(), [], []
        for worker, at in workers.items():
            try:
                (fresh if now - float(at) <= STALE else stale).append(worker)
            except ValueError:
                stale.append(worker)
        if stale:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hdel(key, *stale)
                pipe.delete(*(f"{key}:{w.decode()}" for w in stale))
                await pipe.execute()
        if not fresh:
            return 0, bool(stale)
        keys = [f"{key}:{w.decode()}" for w in fresh]
        return int(await self.redis.eval(self.UNION, len(keys), *keys)), bool(stale)


def local_players(app: Any) -> tuple[dict[int, set[str]], set[int]]:
    """This process's connected players per evening, and the evenings with a tablet here."""
    rooms = compat.app_rooms(app)
    players: dict[int, set[str]] = {}
    staff: set[int] = set()
    for name, members in list(rooms.items()):
        if not isinstance(name, str) or not name.startswith("loto:") or not members:
            continue
        parts = name.split(":")
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        evening_id, who = int(parts[1]), parts[2]
        if who == broadcast.STAFF:
            staff.add(evening_id)
        elif who not in (broadcast.DESK, broadcast.SCREEN):
            players.setdefault(evening_id, set()).add(who)
    return players, staff


class Presence:
    """This process's side of the room's count (see the module's docstring)."""

    def __init__(self, counts: MemoryCounts | RedisCounts, clock=time.monotonic) -> None:
        self.counts, self.clock = counts, clock
        self.watches: dict[int, DropWatch] = {}
        self.views: dict[int, dict[str, Any]] = {}  # what this process's tablets were sent
        self.reported: set[int] = set()  # evenings this process writes its players for
        self.settle_until = 0.0  # (after a failure: the counts are not comparable yet)

    async def view(self, evening_id: int) -> dict[str, Any]:
        """The count and the warning now (the drop watch fed)."""
        total, worker_gone = await self.counts.total(evening_id)
        watch = self.watches.setdefault(evening_id, DropWatch())
        if worker_gone or self.clock() < self.settle_until:
            # (not the hall's Wi-Fi: a worker gone, whose phones reconnect elsewhere; Redis back,
            # the other workers' players not all written again yet)
            watch.rebase(self.clock(), total)
        warn = watch.see(self.clock(), total)
        return {"phones": total, "phones_warning": WARNING if warn else ""}

    async def sweep(self, app: Any) -> None:
        """One round: write this process's players, tell this process's tablets."""
        players, staff = local_players(app)
        # (an evening whose last player here left is written on, empty: a worker that stops
        # writing is a worker gone)
        self.reported |= set(players)
        await self.counts.write({e: players.get(e, set()) for e in self.reported})
        for evening_id in staff:
            view = await self.view(evening_id)
            if view != self.views.get(evening_id):
                self.views[evening_id] = view
                await _send(app, broadcast.staff_room(evening_id), view)
        for evening_id in [e for e in self.views if e not in staff]:
            del self.views[evening_id]  # (no tablet here: the next one is told afresh)
            self.watches.pop(evening_id, None)

    def failed(self) -> None:
        """A round failed (Redis away): the next `STALE` seconds' counts are no reference."""
        self.settle_until = self.clock() + STALE

    async def tell(self, app: Any, sid: str, evening_id: int) -> None:
        """A tablet that just signed in: the count as it stands."""
        view = self.views.get(evening_id)
        if view is None:
            view = {"phones": (await self.counts.total(evening_id))[0], "phones_warning": ""}
        await _send(app, sid, view)


async def _send(app: Any, to: str, view: dict[str, Any]) -> None:
    """To this process's own sockets only (every worker tells its own tablets)."""
    await compat.send(app, broadcast.delta(view), to, here_only=True)


_presence: Presence | None = None
_app: Any = None


async def tell(sid: str, evening_id: int) -> None:
    """Send a tablet that just signed in the room's count (nothing before the app runs)."""
    if _presence is not None and _app is not None:
        try:
            await _presence.tell(_app, sid, evening_id)
        except Exception:  # (the count is a help, never a reason to fail a sign-in)
            log.exception("evening %s: the phones' count could not be sent", evening_id)


async def phones(evening_id: int) -> int | None:
    """The players' phones connected now, on every worker (None: the count is not running)."""
    if _presence is None:
        return None
    try:
        return (await _presence.counts.total(evening_id))[0]
    except Exception:  # (Redis away)
        log.exception("evening %s: the phones' count could not be read", evening_id)
        return None


async def run(app: Any) -> None:
    """The lifespan task: count every `PERIOD` seconds while the app runs."""
    global _presence, _app
    url = redis_url()
    counts = RedisCounts(url, worker_name()) if url else MemoryCounts()
    _presence, _app = Presence(counts), app
    failing = False
    while True:
        await asyncio.sleep(PERIOD)
        if not compat.serves_pages(app):
            continue
        try:
            await _presence.sweep(app)
            if failing:
                log.warning("phones' count: working again")
            failing = False
        except Exception:  # (Redis away: the count waits; never take the app down)
            _presence.failed()
            if not failing:
                log.exception("phones' count failed (logged once until it works again)")
            failing = True
