"""Did Redis lose its data? After a reconnect, a worker cannot tell a network blip (Redis kept
everything) from a restart without its disk (Reflex's per-client states all gone: the next
event of every page would be dropped for a page load, `session.reload_if_lost`, the
animateur's next draw and a player's next claim with it).

Each worker keeps a key of its own in Redis (`Marker`); after a reconnect, the key gone means
the data is gone, and the worker has its pages load again at once (`broadcast`), rather than at
their next tap.
"""

from __future__ import annotations

import os
import socket
import uuid

#: Long enough for any evening; renewed at every check.
KEEP_SECONDS = 7 * 24 * 3600


class Marker:
    """This worker's key in Redis."""

    def __init__(self, url: str, worker: str | None = None) -> None:
        import redis.asyncio as aioredis

        from loto_app.live.runtime.signin_limit import namespaced

        self.redis = aioredis.from_url(url)
        name = worker or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.key = f"{namespaced('loto:alive:')}{name}"
        self.placed = False  # (Redis away at the worker's start: nothing to compare with yet)

    async def put(self) -> None:
        """Set the key (at the worker's start)."""
        await self.redis.set(self.key, "1", ex=KEEP_SECONDS)
        self.placed = True

    async def lost(self) -> bool:
        """Was the key gone? (It is set again: the next check compares with now.)"""
        if not self.placed:
            await self.put()
            return False
        created = await self.redis.set(self.key, "1", ex=KEEP_SECONDS, nx=True)
        if not created:
            await self.redis.expire(self.key, KEEP_SECONDS)
        return bool(created)
