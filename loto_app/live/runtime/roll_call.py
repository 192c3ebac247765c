"""Who answers now, for the check before the doors open (`/verification`): the hall screens, the
animateur's tablets and the desk's phones of an evening, and the hall screens' sound test.

The check's page asks every `live/states/verification.py` tick: the server pokes the rooms of
those pages (`broadcast.poke_rooms`); each page's browser answers with an event, handled on
the worker that holds its state, which says what that state is (a screen watching the evening,
a signed-in tablet, a signed-in desk member) and records it here (`seen`). What answered within
`SEEN_FOR` seconds is there now (`present`). So it holds with several workers: the answers are
kept in Redis (`REFLEX_REDIS_URL`), else in this process.

The sound test: `ask_sound` opens a test (a fresh nonce) that the screens are told to play; a
screen's answer counts only for the test open on its own evening (`sound_answer`).
Nothing here comes from a browser unchecked: the states that call it say who answers.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from loto_app.shared_redis import redis_url

SCREEN, TABLET, DESK = "screen", "tablet", "desk"
KINDS = (SCREEN, TABLET, DESK)
#: Seconds an answer counts (the page asks every 2 s: two rounds missed and more).
SEEN_FOR = 6.0
REDIS_PREFIX = "loto:check:"
KEEP = 120  # seconds Redis keeps a key nobody writes any more


class MemoryRollCall:
    """One process: the answers in memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.answers: dict[tuple[int, str], dict[str, tuple[float, str]]] = {}
        self.tests: dict[int, tuple[str, float, dict[str, str]]] = {}

    async def seen(self, evening_id: int, kind: str, who: str, detail: str = "") -> None:
        self.answers.setdefault((evening_id, kind), {})[who] = (self.clock(), detail)

    async def present(self, evening_id: int, kind: str) -> dict[str, str]:
        now = self.clock()
        book = self.answers.get((evening_id, kind), {})
        for who in [w for w, (at, _) in book.items() if now - at > SEEN_FOR]:
            del book[who]
        return {who: detail for who, (_, detail) in book.items()}

    async def ask_sound(self, evening_id: int) -> str:
        nonce = secrets.token_hex(8)
        self.tests[evening_id] = (nonce, self.clock(), {})
        return nonce

    async def sound_answer(self, evening_id: int, nonce: str, who: str, answer: str) -> bool:
        test = self.tests.get(evening_id)
        if test is None or test[0] != nonce:
            return False
        test[2][who] = answer
        return True

    async def sound(self, evening_id: int) -> tuple[float | None, dict[str, str]]:
        """(seconds since the last test was asked, or None; each screen's answer)."""
        test = self.tests.get(evening_id)
        if test is None:
            return None, {}
        return self.clock() - test[1], dict(test[2])


class RedisRollCall:
    """Several workers: `<prefix><evening>:<kind>` a hash `{who: "<unix time>|<detail>"}`;
    `<prefix><evening>:sound` the test open (`nonce`, `at`) and `answer:<who>` fields."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        import redis.asyncio as aioredis

        from loto_app.live.runtime.signin_limit import namespaced

        self.redis = aioredis.from_url(url, decode_responses=True)
        self.prefix = namespaced(REDIS_PREFIX)
        self.clock = clock

    async def seen(self, evening_id: int, kind: str, who: str, detail: str = "") -> None:
        key = f"{self.prefix}{evening_id}:{kind}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, who, f"{self.clock():.3f}|{detail}")
            pipe.expire(key, KEEP)
            await pipe.execute()

    async def present(self, evening_id: int, kind: str) -> dict[str, str]:
        key = f"{self.prefix}{evening_id}:{kind}"
        now, out, old = self.clock(), {}, []
        for who, value in (await self.redis.hgetall(key)).items():
            at, _, detail = value.partition("|")
            try:
                fresh = now - float(at) <= SEEN_FOR
            except ValueError:
                fresh = False
            if fresh:
                out[who] = detail
            else:
                old.append(who)
        if old:
            await self.redis.hdel(key, *old)
        return out

    async def ask_sound(self, evening_id: int) -> str:
        nonce = secrets.token_hex(8)
        key = f"{self.prefix}{evening_id}:sound"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping={"nonce": nonce, "at": f"{self.clock():.3f}"})
            pipe.expire(key, KEEP * 30)
            await pipe.execute()
        return nonce

    async def sound_answer(self, evening_id: int, nonce: str, who: str, answer: str) -> bool:
        key = f"{self.prefix}{evening_id}:sound"
        if await self.redis.hget(key, "nonce") != nonce:
            return False
        await self.redis.hset(key, f"answer:{who}", answer)
        return True

    async def sound(self, evening_id: int) -> tuple[float | None, dict[str, str]]:
        fields = await self.redis.hgetall(f"{self.prefix}{evening_id}:sound")
        try:
            age = self.clock() - float(fields["at"])
        except (KeyError, ValueError):
            return None, {}
        answers = {k.removeprefix("answer:"): v for k, v in fields.items() if k[:7] == "answer:"}
        return age, answers


_book: Any = None


def book() -> MemoryRollCall | RedisRollCall:
    """The process's roll call (Redis-backed when `REFLEX_REDIS_URL` is set)."""
    global _book
    if _book is None:
        url = redis_url()
        _book = RedisRollCall(url) if url else MemoryRollCall()
    return _book
