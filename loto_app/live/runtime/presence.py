"""The room as the animateur sees it: how many players' phones have a live socket now, on every
worker, and the warning of a mass drop (live/present/room.py).

A player's page, whenever it loads or reconnects, enters the socket.io room
`loto:<evening>:phones` with its other rooms (`broadcast.enter`); socket.io takes a socket out
of its rooms when it goes. So each process counts its own phones from its rooms, without
bookkeeping of its own. Every `PERIOD` seconds (`run`, a lifespan task of the app):

- each process writes its counts in the `Counts` every process reads: in memory with one
  process; with several workers (`REFLEX_REDIS_URL`), in Redis, one hash per evening with a
  field per worker (its count and the time it was written; a field not written again for
  `STALE` seconds, a worker killed or cut from Redis, is no longer counted);
- a process that serves an animateur's tablet of the evening (its `staff_room`) sums them,
  feeds the sum to the evening's `DropWatch`, and sends the tablets on this process the count
  and the warning when they changed (straight to its own sockets: every worker tells its own
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

log = logging.getLogger(__name__)

PERIOD = 1.0  # seconds between two counts
STALE = 6.0  # a worker's count not renewed for this long is no longer counted
REDIS_PREFIX = "loto:phones:"
#: One name per process in the shared counts.
WORKER = f"{socket.gethostname()}:{os.getpid()}"


class MemoryCounts:
    """One process: its own counts are the room's."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    async def write(self, counts: dict[int, int]) -> None:
        self.counts = dict(counts)

    async def total(self, evening_id: int) -> int:
        return self.counts.get(evening_id, 0)


class RedisCounts:
    """Several workers: `<prefix><evening>` is a hash `{worker: "<count> <unix time>"}`."""

    def __init__(
        self, url: str, worker: str = WORKER, clock: Callable[[], float] = time.time
    ) -> None:
        import redis.asyncio as aioredis

        from loto_app.live.runtime.signin_limit import namespaced

        self.redis = aioredis.from_url(url)
        self.prefix = namespaced(REDIS_PREFIX)
        self.worker, self.clock = worker, clock

    async def write(self, counts: dict[int, int]) -> None:
        now = self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            for evening_id, n in counts.items():
                key = f"{self.prefix}{evening_id}"
                pipe.hset(key, self.worker, f"{n} {now:.3f}")
                pipe.expire(key, int(STALE * 10))
            await pipe.execute()

    async def total(self, evening_id: int) -> int:
        fields = await self.redis.hgetall(f"{self.prefix}{evening_id}")
        now, out, stale = self.clock(), 0, []
        for worker, value in fields.items():
            try:
                n, at = value.decode().split()
                if now - float(at) > STALE:
                    stale.append(worker)
                else:
                    out += int(n)
            except ValueError:
                stale.append(worker)
        if stale:
            await self.redis.hdel(f"{self.prefix}{evening_id}", *stale)
        return out


def local_counts(app: Any) -> tuple[dict[int, int], set[int]]:
    """This process's phones per evening, and the evenings with a tablet here."""
    rooms = compat.manager_rooms(app.sio.manager).get(app.event_namespace.namespace, {})
    phones: dict[int, int] = {}
    staff: set[int] = set()
    for name, members in list(rooms.items()):
        if not isinstance(name, str) or not name.startswith("loto:") or not members:
            continue
        parts = name.split(":")
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        if parts[2] == broadcast.PHONES:
            phones[int(parts[1])] = len(members)
        elif parts[2] == broadcast.STAFF:
            staff.add(int(parts[1]))
    return phones, staff


class Presence:
    """This process's side of the room's count (see the module's docstring)."""

    def __init__(self, counts: MemoryCounts | RedisCounts, clock=time.monotonic) -> None:
        self.counts, self.clock = counts, clock
        self.watches: dict[int, DropWatch] = {}
        self.views: dict[int, dict[str, Any]] = {}  # what this process's tablets were sent
        self.reported: set[int] = set()  # evenings this process wrote a count for

    async def view(self, evening_id: int) -> dict[str, Any]:
        """The count and the warning now (the drop watch fed)."""
        total = await self.counts.total(evening_id)
        watch = self.watches.setdefault(evening_id, DropWatch())
        warn = watch.see(self.clock(), total)
        return {"phones": total, "phones_warning": WARNING if warn else ""}

    async def sweep(self, app: Any) -> None:
        """One round: write this process's counts, tell this process's tablets."""
        phones, staff = local_counts(app)
        # (an evening whose last phone here left is written once more, as 0)
        await self.counts.write({e: phones.get(e, 0) for e in self.reported | set(phones)})
        self.reported = set(phones)
        for evening_id in staff:
            view = await self.view(evening_id)
            if view != self.views.get(evening_id):
                self.views[evening_id] = view
                await _send(app, broadcast.staff_room(evening_id), view)
        for evening_id in [e for e in self.views if e not in staff]:
            del self.views[evening_id]  # (no tablet here: the next one is told afresh)
            self.watches.pop(evening_id, None)

    async def tell(self, app: Any, sid: str, evening_id: int) -> None:
        """A tablet that just signed in: the count as it stands."""
        view = self.views.get(evening_id)
        if view is None:
            view = {"phones": await self.counts.total(evening_id), "phones_warning": ""}
        await _send(app, sid, view)


async def _send(app: Any, to: str, view: dict[str, Any]) -> None:
    """To this process's own sockets only (every worker tells its own tablets)."""
    await app.sio.emit(
        "event",
        broadcast.delta(view),
        to=to,
        namespace=app.event_namespace.namespace,
        ignore_queue=True,
    )


_presence: Presence | None = None
_app: Any = None


async def tell(sid: str, evening_id: int) -> None:
    """Send a tablet that just signed in the room's count (nothing before the app runs)."""
    if _presence is not None and _app is not None:
        try:
            await _presence.tell(_app, sid, evening_id)
        except Exception:  # (the count is a help, never a reason to fail a sign-in)
            log.exception("evening %s: the phones' count could not be sent", evening_id)


async def run(app: Any) -> None:
    """The lifespan task: count every `PERIOD` seconds while the app runs."""
    global _presence, _app
    url = os.environ.get("REFLEX_REDIS_URL")
    counts = RedisCounts(url) if url else MemoryCounts()
    _presence, _app = Presence(counts), app
    failing = False
    while True:
        await asyncio.sleep(PERIOD)
        if app.sio is None or app.event_namespace is None:
            continue
        try:
            await _presence.sweep(app)
            if failing:
                log.warning("phones' count: working again")
            failing = False
        except Exception:  # (Redis away: the count waits; never take the app down)
            if not failing:
                log.exception("phones' count failed (logged once until it works again)")
            failing = True
