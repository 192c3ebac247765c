"""Pairing a hall TV with an evening: the TV shows a short code, a signed-in animateur types it.

A TV has a remote, not a keyboard. `/ecran` without a code asks this store for a pairing code
and shows it; the animateur's tablet (signed in, checked by its handler) types it and the store
records the evening for that code; the TV, polling its code, then opens `/ecran?code=<join
code>` (reloads and reconnects keep that address). The TV never names an evening itself: only
`attach`, called by a signed-in animateur's handler, binds a code to one.

Codes: `CODE_LENGTH` characters from `ALPHABET` (no 0/O, 1/I/L, 2/Z, 5/S, 8/B: read from the
back of a hall, typed on a tablet), about 3 × 10^8 codes, each alive `TTL` seconds and bound
once. Wrong codes are limited (`MAX_FAILURES` per `WINDOW`) per client address and per evening,
and a TV address may ask for `MAX_ISSUED` codes per `WINDOW`: guessing a live code is hopeless.

With several workers (`REFLEX_REDIS_URL`), codes live in Redis and the counters too (the
sign-in limiter's counters, under their own keys); otherwise in this process (a restart then
shows the TV a fresh code).
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from loto_app.live.runtime.signin_limit import (
    MemoryCounter,
    RedisCounter,
    SignInLimiter,
    namespaced,
)
from loto_app.refusal import Refusal
from loto_app.shared_redis import redis_url

log = logging.getLogger("loto_app.live")

ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 6
TTL = 10 * 60.0  # seconds a code stays valid
MAX_FAILURES = 10  # wrong codes per address, and per evening, per window
MAX_ISSUED = 30  # codes a TV address may ask for per window
WINDOW = 15 * 60.0
REDIS_PREFIX = "loto:pair:"
PENDING = ""


def normalise(code: Any) -> str | None:
    """The code as stored (upper case, spaces and dashes dropped), or None when it cannot be a
    pairing code."""
    if not isinstance(code, str) or len(code) > 20:
        return None
    c = code.upper().replace(" ", "").replace("-", "")
    if len(c) != CODE_LENGTH or any(ch not in ALPHABET for ch in c):
        return None
    return c


def new_code() -> str:
    """A fresh random code (the system's CSPRNG)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


class MemoryCodes:
    """Codes in this process: code -> (expiry, evening id or None)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.codes: dict[str, tuple[float, int | None]] = {}

    def _prune(self) -> None:
        now = self.clock()
        for c in [c for c, (exp, _) in self.codes.items() if exp <= now]:
            del self.codes[c]

    async def add(self, code: str, ttl: float) -> bool:
        self._prune()
        if code in self.codes:
            return False
        self.codes[code] = (self.clock() + ttl, None)
        return True

    async def get(self, code: str) -> tuple[bool, int | None]:
        """(alive, evening id)."""
        entry = self.codes.get(code)
        if entry is None or entry[0] <= self.clock():
            self.codes.pop(code, None)
            return False, None
        return True, entry[1]

    async def bind(self, code: str, evening_id: int) -> bool:
        alive, bound = await self.get(code)
        if not alive or bound is not None:
            return False
        self.codes[code] = (self.codes[code][0], evening_id)
        return True


class RedisCodes:
    """Codes in Redis (shared by every worker): `loto:pair:<code>` -> "" or the evening id."""

    #: bind only a pending code, keeping its expiry
    BIND = (
        "if redis.call('get', KEYS[1]) == '' then "
        "redis.call('set', KEYS[1], ARGV[1], 'KEEPTTL') return 1 end return 0"
    )

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(url)
        self.prefix = namespaced(REDIS_PREFIX)

    async def add(self, code: str, ttl: float) -> bool:
        return bool(await self.redis.set(self.prefix + code, PENDING, ex=math.ceil(ttl), nx=True))

    async def get(self, code: str) -> tuple[bool, int | None]:
        value = await self.redis.get(self.prefix + code)
        if value is None:
            return False, None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return True, int(text) if text.isdigit() else None

    async def bind(self, code: str, evening_id: int) -> bool:
        return bool(await self.redis.eval(self.BIND, 1, self.prefix + code, str(evening_id)))


class Refused(Refusal):
    """A pairing refused: `user_message` says why in French."""


UNKNOWN = "Code inconnu ou expiré : tapez le code affiché en ce moment sur l'écran."
TOO_MANY = "Trop de codes faux : réessayez dans quelques minutes."
TOO_MANY_CODES = "Trop de codes demandés par cet écran : patientez quelques minutes."


class PairingStore:
    """Pairing codes and their limits."""

    def __init__(
        self,
        codes: Any = None,
        counter: Any = None,
        ttl: float = TTL,
        window: float = WINDOW,
    ) -> None:
        self.codes = codes if codes is not None else MemoryCodes()
        counter = counter if counter is not None else MemoryCounter()
        self.ttl = ttl
        self.failures = SignInLimiter(counter, MAX_FAILURES, window)
        self.issued = SignInLimiter(counter, MAX_ISSUED, window)

    async def issue(self, address: str) -> str:
        """A new pending code for a TV at this address (""/loopback: not counted).

        Raises:
            Refused: this address asked for too many codes.
        """
        key = f"pair-issue:{address}" if address else ""
        try:
            await self.issued.check(key)
        except Exception as exc:
            raise Refused(f"{address}: too many pairing codes", TOO_MANY_CODES) from exc
        await self.issued.failed(key, "pairing code")  # counts one issued code
        for _ in range(8):
            code = new_code()
            if await self.codes.add(code, self.ttl):
                return code
        raise Refused("no free pairing code after 8 tries", "Réessayez dans un instant.")

    async def attach(self, code: Any, evening_id: int, address: str) -> str:
        """Bind a pending code to an evening (the caller checked that a signed-in animateur or
        organiser of that evening asks). Returns the code as stored.

        Raises:
            Refused: malformed, unknown, expired or already used code; or too many wrong codes
                from this address or for this evening.
        """
        keys = [f"pair:evening:{evening_id}"] + ([f"pair:{address}"] if address else [])
        try:
            for k in keys:
                await self.failures.check(k)
        except Exception as exc:
            raise Refused(
                f"evening {evening_id} / {address}: too many wrong codes", TOO_MANY
            ) from exc
        c = normalise(code)
        if c is not None and await self.codes.bind(c, evening_id):
            log.info("pairing: code %s attached to evening %d", c, evening_id)
            return c
        for k in keys:
            await self.failures.failed(k, "pairing")
        raise Refused(f"pairing code {code!r:.24} is not a live pending code", UNKNOWN)

    async def status(self, code: str) -> tuple[bool, int | None]:
        """(alive, evening id or None while pending) of a code."""
        c = normalise(code)
        if c is None:
            return False, None
        return await self.codes.get(c)


_store: PairingStore | None = None


def store() -> PairingStore:
    """The process's pairing store (Redis-backed when `REFLEX_REDIS_URL` is set)."""
    global _store
    if _store is None:
        url = redis_url()
        _store = PairingStore(RedisCodes(url), RedisCounter(url)) if url else PairingStore()
    return _store
