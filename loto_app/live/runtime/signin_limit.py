"""Sign-in attempts limited per client address: the animateur's, the desk's and the
organiser's secrets cannot be guessed from one address faster than `MAX_FAILURES` wrong tries
per `WINDOW` seconds.

The per-socket event limit (`ratelimit.py`) does not stop a guesser who opens a new socket for
every try; this counts the failed sign-ins of a client *address* (`network.client_address`:
behind a trusted proxy, the address it forwards for). Once an address has failed
`MAX_FAILURES` times, every sign-in from it is refused, right or wrong, until its window ends,
with a French message; a successful sign-in does not count. With several workers the counts
live in Redis (`REFLEX_REDIS_URL`), shared by every worker; otherwise in this process.

Not counted: a browser on this very machine that no proxy forwarded (loopback peer, no
`X-Forwarded-For`): whoever sits at the server can read its database anyway. So the hall's own
laptop is never locked out, while through a proxy on the same machine every client is counted
by its forwarded address.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loto_app import network
from loto_app.refusal import Refusal
from loto_app.shared_redis import redis_url

log = logging.getLogger("loto_app.live")

MAX_FAILURES = 10
WINDOW = 15 * 60.0  # seconds
MAX_ADDRESSES = 50_000  # addresses kept in memory before expired windows are pruned
REDIS_PREFIX = "loto:signin:"


class TooManyAttempts(Refusal):
    """Sign-ins from this address are refused for now (`user_message` says until when)."""

    def __init__(self, address: str, seconds: float) -> None:
        minutes = max(1, math.ceil(seconds / 60))
        super().__init__(
            f"{address}: too many failed sign-ins, {seconds:.0f} s left",
            "Trop d'essais de connexion depuis ce réseau : réessayez dans "
            f"{minutes} minute{'s' if minutes > 1 else ''}.",
        )
        self.address = address


@dataclass(slots=True)
class _Window:
    started: float
    failures: int = 0


class MemoryCounter:
    """Failures per address in fixed windows, in this process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.windows: dict[str, _Window] = {}

    async def blocked_for(self, address: str, limit: int, window: float) -> float:
        """Seconds this address stays refused (0: it may try)."""
        w = self.windows.get(address)
        if w is None:
            return 0.0
        left = w.started + window - self.clock()
        if left <= 0:
            del self.windows[address]
            return 0.0
        return left if w.failures >= limit else 0.0

    async def fail(self, address: str, window: float) -> int:
        """Count a failure; the address's failures in its window."""
        now = self.clock()
        w = self.windows.get(address)
        if w is None or now >= w.started + window:
            if len(self.windows) >= MAX_ADDRESSES:
                self._prune(now, window)
            w = self.windows[address] = _Window(now)
        w.failures += 1
        return w.failures

    def _prune(self, now: float, window: float) -> None:
        for a in [a for a, w in self.windows.items() if now >= w.started + window]:
            del self.windows[a]
        if len(self.windows) >= MAX_ADDRESSES:  # all in their window: forget the oldest half
            for a in sorted(self.windows, key=lambda a: self.windows[a].started)[
                : len(self.windows) // 2
            ]:
                del self.windows[a]


def namespaced(prefix: str) -> str:
    """`prefix` for this deployment's Redis keys: one namespace per database (as the room
    channel, live/runtime/broadcast.py), so that two apps sharing one Redis server never count
    each other's sign-ins or see each other's pairing codes."""
    from loto_app.storage.db import database_url

    return f"{prefix}{hashlib.sha256(database_url().encode()).hexdigest()[:16]}:"


class RedisCounter:
    """Failures per address in fixed windows, in Redis (shared by every worker)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(url)
        self.prefix = namespaced(REDIS_PREFIX)

    async def blocked_for(self, address: str, limit: int, window: float) -> float:
        key = self.prefix + address
        failures, ttl = await self.redis.get(key), await self.redis.pttl(key)
        if failures is None or int(failures) < limit:
            return 0.0
        return max(ttl, 1000) / 1000 if ttl and ttl > 0 else window

    async def fail(self, address: str, window: float) -> int:
        key = self.prefix + address
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key, 0, ex=math.ceil(window), nx=True)  # the window starts at the first
            pipe.incr(key)  # failure (INCR keeps the expiry)
            _, failures = await pipe.execute()
        return int(failures)


class SignInLimiter:
    """The limit: `check` before a secret is tried, `failed` after a wrong one."""

    def __init__(
        self, counter: Any = None, limit: int = MAX_FAILURES, window: float = WINDOW
    ) -> None:
        self.counter = counter if counter is not None else MemoryCounter()
        self.limit, self.window = limit, window
        self._fallback: MemoryCounter | None = None

    async def check(self, address: str) -> None:
        """Raises TooManyAttempts when this address may not try now."""
        if not address:
            return
        left = await self._call("blocked_for", address, self.limit, self.window)
        if left > 0:
            raise TooManyAttempts(address, left)

    async def failed(self, address: str, what: str) -> None:
        """A wrong secret from this address (`what`: animateur, desk, organiser)."""
        if not address:
            return
        n = await self._call("fail", address, self.window)
        if n == self.limit:
            log.warning(
                "sign-in: %d failed %s sign-ins from %s within %.0f s: its sign-ins are refused "
                "until the window ends",
                n,
                what,
                address,
                self.window,
            )

    async def _call(self, method: str, *args: Any) -> Any:
        try:
            return await getattr(self.counter, method)(*args)
        except Exception:  # Redis away: count in this process rather than lock everyone out
            if self._fallback is None:
                log.exception("sign-in limit: counter unavailable, counting in this process")
                self._fallback = MemoryCounter()
            return await getattr(self._fallback, method)(*args)


_limiter: SignInLimiter | None = None


def limiter() -> SignInLimiter:
    """The process's limiter (Redis-backed when `REFLEX_REDIS_URL` is set)."""
    global _limiter
    if _limiter is None:
        url = redis_url()
        _limiter = SignInLimiter(RedisCounter(url) if url else MemoryCounter())
    return _limiter


def counted_address(router: Any) -> str:
    """The address a sign-in through this Reflex router counts against ("" when not counted:
    this machine itself, not through a proxy)."""
    return counted_address_of(network.request_headers(router), network.peer_of(router))


def counted_address_of(headers: Any, peer: str) -> str:
    """`counted_address` of a request's headers (lower-case names) and peer address."""
    ip = network.parse_ip(peer)
    if ip is not None and ip.is_loopback and not network.forwarded(headers, peer):
        return ""
    return network.client_address(headers, peer)


async def check(router: Any) -> None:
    """Before trying a secret: raises TooManyAttempts when the caller's address is locked."""
    await limiter().check(counted_address(router))


async def failed(router: Any, what: str) -> None:
    """After a wrong secret."""
    await limiter().failed(counted_address(router), what)
