"""Several workers: a worker hands Reflex at most `SLOTS` of its phones' events at once; the
others wait their turn, in order of arrival, before any lock is taken.

With Redis, Reflex locks a client's state in Redis for each event, and the lock expires after
10 s (`redis_lock_expiration`): the event's handler then fails and its work is lost. Reflex
starts every event the moment it arrives, so in a join storm a worker processes a thousand at
once, each a slice at a time: on 2 cores shared with the load generator, 1,000 phones joining
at once on 2 workers held their locks 1.5-9.8 s and a few expired (bench/load.py, 2026-12-06).
Here, an event that finds every slot taken waits for one with no lock held, while its phone
shows "Connexion…" (a page not yet hydrated) or its button's pending state; once admitted it
runs alongside `SLOTS - 1` others only, and holds its lock for a fraction of a second.

Events a handler chains (the on_load handlers after a hydrate, an event a handler returns) are
not counted again: their parent was. A slot is given back when its event's processing is done
(its future), or after `HOLD_MAX` s whatever happens, so that a future that never ends cannot
shrink the gate. One process keeps its states in memory, with no lock to expire: no gate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from loto_app.live import compat

if TYPE_CHECKING:
    import reflex as rx

log = logging.getLogger(__name__)

#: Events of phones in Reflex's hands at once, per worker: enough to keep a core busy while
#: some wait on Redis or the database (a join's events take 4-13 ms of CPU each).
SLOTS = 24

#: A slot is given back after this many seconds even if its event's future is not done.
HOLD_MAX = 30.0

#: A wait longer than this is logged (at most once every `LOG_EVERY` s).
SLOW_WAIT = 2.0
LOG_EVERY = 10.0


class Admission:
    """Wraps the event processor's `enqueue` (`compat.set_socket_enqueue`)."""

    def __init__(self, enqueue: compat.Enqueue, slots: int = SLOTS) -> None:
        self._enqueue = enqueue
        self._slots = asyncio.Semaphore(slots)
        self.waiting = 0  # events waiting for a slot now
        self.longest_wait = 0.0  # s, since the process started
        self._logged_at = 0.0

    async def enqueue(self, token: str, event: Any, *args: Any, **kwargs: Any) -> Any:
        """Reflex's `enqueue`, once a slot is free (at once for a chained event)."""
        if compat.in_event():
            return await self._enqueue(token, event, *args, **kwargs)
        t0 = time.monotonic()
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self._waited(time.monotonic() - t0)
        try:
            future = await self._enqueue(token, event, *args, **kwargs)
        except BaseException:
            self._slots.release()
            raise
        self._hold(future)
        return future

    def _hold(self, future: asyncio.Future) -> None:
        """Give the slot back once the event's processing is done, or after `HOLD_MAX` s."""
        released = False

        def release(_: Any = None) -> None:
            nonlocal released
            if not released:
                released = True
                timer.cancel()
                self._slots.release()

        timer = asyncio.get_running_loop().call_later(HOLD_MAX, release)
        future.add_done_callback(release)

    def _waited(self, seconds: float) -> None:
        self.longest_wait = max(self.longest_wait, seconds)
        now = time.monotonic()
        if seconds > SLOW_WAIT and now - self._logged_at > LOG_EVERY:
            self._logged_at = now
            log.warning(
                "admission: an event waited %.1f s for its turn (%d more waiting, longest "
                "wait so far %.1f s): more phones at once than this worker serves at once",
                seconds,
                self.waiting,
                self.longest_wait,
            )


def install(app: rx.App) -> None:
    """With several workers (`REFLEX_REDIS_URL`), gate the app's events once its event
    processor exists (a lifespan task, registered after Reflex's own, which makes it)."""
    if not os.environ.get("REFLEX_REDIS_URL"):
        return

    @contextlib.asynccontextmanager
    async def gate() -> AsyncIterator[None]:
        compat.set_socket_enqueue(app, lambda enqueue: Admission(enqueue).enqueue)
        yield

    app.register_lifespan_task(gate)
