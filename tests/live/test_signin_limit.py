"""Sign-in attempts limited per client address (`loto_app.live.runtime.signin_limit`): the
counter in memory with a fake clock, the same counter in the real Redis, and which address is
counted. tests/e2e/test_signin_limit.py drives it through the real server's websocket."""

from __future__ import annotations

import asyncio
import uuid
from types import SimpleNamespace

import pytest
from local_servers import REDIS_MISSING, redis_up

from loto_app.live.runtime import signin_limit as sl


class Clock:
    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t


def run(coro):
    return asyncio.run(coro)


async def _fail(limiter: sl.SignInLimiter, address: str, times: int) -> None:
    for _ in range(times):
        await limiter.check(address)
        await limiter.failed(address, "animateur")


def test_ten_wrong_secrets_lock_the_address_for_the_window() -> None:
    clock = Clock()
    limiter = sl.SignInLimiter(sl.MemoryCounter(clock), limit=10, window=900)

    async def scenario() -> None:
        await _fail(limiter, "203.0.113.7", 9)
        await limiter.check("203.0.113.7")  # the 10th try is still allowed
        await limiter.failed("203.0.113.7", "desk")
        with pytest.raises(sl.TooManyAttempts) as info:
            await limiter.check("203.0.113.7")
        assert info.value.user_message == (
            "Trop d'essais de connexion depuis ce réseau : réessayez dans 15 minutes."
        )
        await limiter.check("203.0.113.8")  # another address is not concerned
        clock.t += 899
        with pytest.raises(sl.TooManyAttempts, match="1 s left") as info:
            await limiter.check("203.0.113.7")
        assert "dans 1 minute." in info.value.user_message
        clock.t += 1  # the window ends: ten more tries
        await _fail(limiter, "203.0.113.7", 10)
        with pytest.raises(sl.TooManyAttempts):
            await limiter.check("203.0.113.7")

    run(scenario())


def test_the_window_starts_at_the_first_failure_and_successes_do_not_count() -> None:
    clock = Clock()
    limiter = sl.SignInLimiter(sl.MemoryCounter(clock), limit=3, window=60)

    async def scenario() -> None:
        for _ in range(50):  # a staff member signing in again and again: never a failure
            await limiter.check("192.168.1.40")
        await _fail(limiter, "192.168.1.40", 2)
        clock.t += 61  # those two are forgotten with their window
        await _fail(limiter, "192.168.1.40", 2)
        await limiter.check("192.168.1.40")

    run(scenario())


def test_memory_stays_bounded() -> None:
    clock = Clock()
    counter = sl.MemoryCounter(clock)
    limiter = sl.SignInLimiter(counter, limit=3, window=60)

    async def scenario() -> None:
        for i in range(sl.MAX_ADDRESSES + 10):
            await limiter.failed(f"a{i}", "animateur")
            if i % 10_000 == 0:
                clock.t += 61

    run(scenario())
    assert len(counter.windows) <= sl.MAX_ADDRESSES


def test_with_redis_every_worker_counts_in_one_place() -> None:
    if not redis_up():
        pytest.skip(REDIS_MISSING)
    address = f"test-{uuid.uuid4().hex}"

    async def scenario() -> None:
        one = sl.SignInLimiter(sl.RedisCounter("redis://127.0.0.1:6379"), limit=4, window=30)
        two = sl.SignInLimiter(sl.RedisCounter("redis://127.0.0.1:6379"), limit=4, window=30)
        try:
            await _fail(one, address, 2)
            await _fail(two, address, 2)  # a second worker adds to the same count
            for limiter in (one, two):
                with pytest.raises(sl.TooManyAttempts) as info:
                    await limiter.check(address)
                assert "minute" in info.value.user_message
            ttl = await one.counter.redis.ttl(one.counter.prefix + address)
            assert 0 < ttl <= 30  # the window expires by itself
        finally:
            await one.counter.redis.delete(one.counter.prefix + address)
            await one.counter.redis.aclose()
            await two.counter.redis.aclose()

    run(scenario())


def test_an_unreachable_redis_falls_back_to_this_process() -> None:
    async def scenario() -> None:
        limiter = sl.SignInLimiter(sl.RedisCounter("redis://127.0.0.1:1"), limit=2, window=60)
        await _fail(limiter, "203.0.113.9", 2)
        with pytest.raises(sl.TooManyAttempts):
            await limiter.check("203.0.113.9")

    run(scenario())


def router(peer: str, **headers: str) -> SimpleNamespace:
    return SimpleNamespace(
        session=SimpleNamespace(client_ip=peer),
        headers=SimpleNamespace(raw_headers=headers),
    )


def test_which_address_is_counted() -> None:
    # a phone on the hall's Wi-Fi: its address, whatever it claims
    assert sl.counted_address(router("192.168.1.31")) == "192.168.1.31"
    assert sl.counted_address(router("192.168.1.31", **{"x-forwarded-for": "1.2.3.4"})) == (
        "192.168.1.31"
    )
    # the proxy on this machine: the address it forwards for
    assert sl.counted_address(router("127.0.0.1", **{"x-forwarded-for": "203.0.113.5"})) == (
        "203.0.113.5"
    )
    # this machine itself, not through a proxy: not counted
    assert sl.counted_address(router("127.0.0.1")) == ""
    assert sl.counted_address(router("::1")) == ""
