"""Several workers: a worker hands Reflex at most `SLOTS` of its phones' events at once; the
others wait their turn, in order of arrival.

Reflex starts every event the moment it arrives, so in a join storm a worker processes a
thousand at once, each a slice at a time: every phone then waits as long as the slowest
(bench/README.md, "Figures behind the settings"). Here, an event that finds
every slot taken waits for one; once admitted it runs alongside `SLOTS - 1` others only. A
page's hydrate (a phone arriving: its page shows "Connexion…" until it is answered) waits
behind the events of pages already loaded, so that the wait of a storm is spent there: a phone
let in goes through its join and its cartons at once, and those already playing (a claim)
never wait behind a crowd arriving.

Events a handler chains (the on_load handlers after a hydrate, an event a handler returns) are
not counted again: their parent was. A slot is given back when its event's processing is done
(its future), or after `HOLD_MAX` s whatever happens, so that a future that never ends cannot
shrink the gate. One process runs without it (measured there without: bench/README.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from loto_app.live import compat
from loto_app.shared_redis import redis_url

if TYPE_CHECKING:
    import reflex as rx

log = logging.getLogger(__name__)

HYDRATE = compat.HYDRATE

#: Events of phones in Reflex's hands at once, per worker: enough to keep a core busy while
#: some wait on Redis or the database (bench/README.md has what a join's events cost).
SLOTS = 24

#: A slot is given back after this many seconds even if its event's future is not done.
HOLD_MAX = 30.0

#: A wait longer than this is logged (at most once every `LOG_EVERY` s).
SLOW_WAIT = 2.0
LOG_EVERY = 10.0


class Admission:
    """Wraps the event processor's `enqueue` (`compat.set_socket_enqueue`).

    Two queues: a page's hydrate (a phone arriving, on "Connexion…") waits behind the events
    of pages already loaded (a join, a purchase, a claim), so that a phone once in goes through
    its join at once, and a crowd arriving never holds up those already playing."""

    def __init__(self, enqueue: compat.Enqueue, slots: int = SLOTS) -> None:
        self._enqueue = enqueue
        self._free = slots
        self._loaded: deque[asyncio.Future] = deque()  # events of loaded pages, first served
        self._arriving: deque[asyncio.Future] = deque()  # hydrates
        self.longest_wait = 0.0  # s, since the process started
        self._logged_at = 0.0

    @property
    def waiting(self) -> int:
        """Events waiting for a slot now."""
        return len(self._loaded) + len(self._arriving)

    async def enqueue(self, token: str, event: Any, *args: Any, **kwargs: Any) -> Any:
        """Reflex's `enqueue`, once a slot is free (at once for a chained event)."""
        if compat.in_event():
            return await self._enqueue(token, event, *args, **kwargs)
        t0 = time.monotonic()
        await self._acquire(str(getattr(event, "name", "")).rpartition(".")[2] == HYDRATE)
        self._waited(time.monotonic() - t0)
        try:
            future = await self._enqueue(token, event, *args, **kwargs)
        except BaseException:
            self._release()
            raise
        self._hold(future)
        return future

    async def _acquire(self, arriving: bool) -> None:
        ahead = (self._arriving or self._loaded) if arriving else self._loaded
        if self._free > 0 and not ahead:
            self._free -= 1
            return
        turn = asyncio.get_running_loop().create_future()
        (self._arriving if arriving else self._loaded).append(turn)
        try:
            await turn  # (the slot is handed over with it: `_release`)
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # handed over just as the wait was cancelled: pass it on
            else:
                with contextlib.suppress(ValueError):  # (`_release` may have skipped it)
                    (self._arriving if arriving else self._loaded).remove(turn)
            raise

    def _release(self) -> None:
        """Hand the slot to the next waiting event (loaded pages first), or free it."""
        for queue in (self._loaded, self._arriving):
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self._free += 1

    def _hold(self, future: asyncio.Future) -> None:
        """Give the slot back once the event's processing is done, or after `HOLD_MAX` s."""
        released = False

        def release(_: Any = None) -> None:
            nonlocal released
            if not released:
                released = True
                timer.cancel()
                self._release()

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
    if not redis_url():
        return

    @contextlib.asynccontextmanager
    async def gate() -> AsyncIterator[None]:
        compat.set_socket_enqueue(app, lambda enqueue: Admission(enqueue).enqueue)
        yield

    app.register_lifespan_task(gate)
