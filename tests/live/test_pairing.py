"""The hall TV's pairing codes (live/runtime/pairing.py): short, random, short-lived, bound once by
a signed-in animateur's handler, wrong guesses limited; in this process and in real Redis."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest

from loto_app.live.runtime import pairing
from loto_app.live.runtime.pairing import (
    ALPHABET,
    CODE_LENGTH,
    MAX_FAILURES,
    MAX_ISSUED,
    MemoryCodes,
    PairingStore,
    Refused,
    normalise,
)
from loto_app.live.runtime.signin_limit import MemoryCounter

REDIS_URL = os.environ.get("LOTO_TEST_REDIS_URL", "redis://127.0.0.1:6379")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(coro):
    return asyncio.run(coro)


def memory_store(clock: Clock) -> PairingStore:
    return PairingStore(MemoryCodes(clock), MemoryCounter(clock), ttl=600, window=900)


def test_codes_are_short_readable_random_and_read_forgivingly():
    codes = {pairing.new_code() for _ in range(2000)}
    assert len(codes) > 1990  # random, not a sequence
    for c in codes:
        assert len(c) == CODE_LENGTH and set(c) <= set(ALPHABET)
    assert not set("0O1IL2Z5S8B") & set(ALPHABET)  # nothing to misread from the back
    assert len(ALPHABET) ** CODE_LENGTH > 2 * 10**8
    c = sorted(codes)[0]
    assert normalise(f" {c[:3].lower()}-{c[3:]} ") == c
    for bad in ("", "ABC", "AAAAAAA", "OOOOOO", None, 123456, "A" * 50):
        assert normalise(bad) is None


def test_a_code_is_pending_then_bound_once_to_the_evening_that_typed_it():
    clock = Clock()
    s = memory_store(clock)
    code = run(s.issue("10.0.0.5"))
    assert run(s.status(code)) == (True, None)
    assert run(s.attach(code.lower(), 7, "10.0.0.9")) == code
    assert run(s.status(code)) == (True, 7)
    with pytest.raises(Refused) as exc:  # a second evening cannot take the TV over
        run(s.attach(code, 8, "10.0.0.9"))
    assert "inconnu ou expiré" in exc.value.user_message
    assert run(s.status(code)) == (True, 7)


def test_a_code_expires_after_its_ttl_and_cannot_be_attached_then():
    clock = Clock()
    s = memory_store(clock)
    code = run(s.issue(""))
    clock.now += 599
    assert run(s.status(code)) == (True, None)
    clock.now += 2
    assert run(s.status(code)) == (False, None)
    with pytest.raises(Refused):
        run(s.attach(code, 7, ""))


def test_wrong_codes_are_limited_per_evening_and_per_address_even_the_right_one_then():
    clock = Clock()
    s = memory_store(clock)
    code = run(s.issue(""))
    for _ in range(MAX_FAILURES):
        with pytest.raises(Refused) as exc:
            run(s.attach("AAAAAA", 7, ""))
        assert "inconnu" in exc.value.user_message
    with pytest.raises(Refused) as exc:
        run(s.attach(code, 7, ""))  # the evening is locked for the window, even a good code
    assert "Trop de codes faux" in exc.value.user_message
    assert run(s.attach(code, 8, "")) == code  # another evening is not locked out
    # per address too: one guesser's address across evenings
    other = run(s.issue(""))
    for ev_id in range(100, 100 + MAX_FAILURES):
        with pytest.raises(Refused):
            run(s.attach("AAAAAA", ev_id, "203.0.113.4"))
    with pytest.raises(Refused) as exc:
        run(s.attach(other, 200, "203.0.113.4"))
    assert "Trop de codes faux" in exc.value.user_message
    clock.now += 901  # the window ends (and that code's life: the TV shows a new one)
    fresh = run(s.issue(""))
    assert run(s.attach(fresh, 200, "203.0.113.4")) == fresh


def test_a_tv_address_may_ask_for_a_limited_number_of_codes():
    clock = Clock()
    s = memory_store(clock)
    for _ in range(MAX_ISSUED):
        run(s.issue("10.0.0.5"))
    with pytest.raises(Refused) as exc:
        run(s.issue("10.0.0.5"))
    assert "Trop de codes demandés" in exc.value.user_message
    run(s.issue("10.0.0.6"))  # another TV is not affected
    run(s.issue(""))  # nor this machine itself (not counted, like sign-ins)


def test_in_redis_a_code_is_shared_bound_once_and_keeps_its_expiry():
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except Exception:  # pragma: no cover - the test machine has Redis
        pytest.fail(f"no Redis at {REDIS_URL}")
    from loto_app.live.runtime.pairing import RedisCodes
    from loto_app.live.runtime.signin_limit import RedisCounter

    async def scenario() -> None:
        tv = PairingStore(RedisCodes(REDIS_URL), RedisCounter(REDIS_URL))
        tablet = PairingStore(RedisCodes(REDIS_URL), RedisCounter(REDIS_URL))  # another worker
        evening = 10**9 + secrets.randbelow(10**6)
        code = await tv.issue("")
        assert await tablet.status(code) == (True, None)
        assert await tablet.attach(code, evening, "") == code
        assert await tv.status(code) == (True, evening)
        with pytest.raises(Refused):
            await tablet.attach(code, evening + 1, "")
        ttl = await tv.codes.redis.ttl(tv.codes.prefix + code)
        assert 0 < ttl <= pairing.TTL
        await tv.codes.redis.delete(tv.codes.prefix + code)
        assert await tv.status(code) == (False, None)

    run(scenario())
