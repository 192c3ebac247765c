"""The animateur's count of the phones connected: the mass drop's warning (pure), and the counts
several workers share in a real Redis."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from local_servers import REDIS_MISSING, redis_up

from loto_app.live.present.room import HOLD, MIN_LOST, WARNING, DropWatch, is_mass_drop
from loto_app.live.runtime.presence import STALE, MemoryCounts, Presence, RedisCounts


def test_a_third_of_the_room_gone_within_seconds_warns_until_they_are_back() -> None:
    watch = DropWatch()
    for t in range(5):
        assert not watch.see(t, 12)
    assert not watch.see(5.0, 10)  # two phones asleep: ordinary
    assert watch.see(6.0, 6)  # 6 of 12 gone within ten seconds: the Wi-Fi
    assert watch.see(7.0, 3)  # still going
    assert watch.see(9.0, 8)  # five of nine back: not yet
    assert not watch.see(10.0, 11)  # back (the lowest was 3: 9 lost, 8 of them back)
    assert not watch.see(11.0, 11)


def test_a_slow_trickle_is_no_drop_and_the_warning_gives_up() -> None:
    watch = DropWatch()
    for t, n in enumerate([30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17]):
        assert not watch.see(t * 3.0, n)  # one phone every three seconds: people leaving
    watch = DropWatch()
    watch.see(0.0, 20)
    assert watch.see(2.0, 10)
    assert watch.see(2.0 + HOLD - 1, 10)
    assert not watch.see(2.0 + HOLD, 10)  # nobody came back: the animateur goes on
    assert not watch.see(3.0 + HOLD, 10)


def test_a_worker_gone_is_not_a_drop() -> None:
    watch = DropWatch()
    watch.see(0.0, 20)
    watch.see(1.0, 30)  # a worker killed: its 10 phones back on the other, still counted there
    watch.rebase(2.0, 20)  # its count went stale
    assert not watch.see(2.0, 20)
    assert watch.see(3.0, 13)  # then the Wi-Fi: 7 of 20


def test_small_rooms_never_warn_for_fewer_than_five() -> None:
    watch = DropWatch()
    watch.see(0.0, 6)
    assert not watch.see(1.0, 2)  # four of six: fewer than five phones
    watch = DropWatch()
    watch.see(0.0, 7)
    assert watch.see(1.0, 2)


@given(before=st.integers(0, 5000), now=st.integers(0, 5000))
def test_mass_drop_is_a_third_and_at_least_five(before: int, now: int) -> None:
    lost = before - now
    assert is_mass_drop(before, now) == (lost >= MIN_LOST and 3 * lost >= before)


@given(counts=st.lists(st.integers(0, 200), min_size=1, max_size=60))
def test_the_warning_starts_only_after_a_mass_drop_in_the_window(counts: list[int]) -> None:
    watch = DropWatch()
    for i, n in enumerate(counts):
        was = watch.warning
        recent = [m for j, m in enumerate(counts[: i + 1]) if i - j <= 10]
        now = watch.see(float(i), n)
        if now and not was:
            assert is_mass_drop(max(recent), n)


def test_workers_players_are_counted_once_in_redis_and_a_silent_worker_drops_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not redis_up():
        pytest.skip(REDIS_MISSING)
    monkeypatch.setenv("LOTO_DB_URL", f"sqlite:///presence-{uuid.uuid4().hex}.db")
    now = [1000.0]
    ana, bob, cat, dan = "a" * 16, "b" * 16, "c" * 16, "d" * 16

    async def scenario() -> None:
        a = RedisCounts("redis://127.0.0.1:6379", worker="a", clock=lambda: now[0])
        b = RedisCounts("redis://127.0.0.1:6379", worker="b", clock=lambda: now[0])
        try:
            await a.write({7: {ana, bob, cat}, 8: {dan}})
            # cat's phone came back on b while a still holds its old socket: one phone
            await b.write({7: {cat, dan}})
            assert await a.total(7) == (4, False)
            assert await b.total(8) == (1, False)
            await a.write({7: {ana, bob}, 8: set()})  # cat's old socket noticed at last
            assert await b.total(7) == (4, False)
            assert await b.total(8) == (0, False)
            now[0] += STALE - 1
            await b.write({7: {cat}})  # b still there; a killed, it no longer writes
            assert await b.total(7) == (3, False)
            now[0] += 2
            assert await b.total(7) == (1, True)  # (a's phones: counted by b once back)
            assert await b.total(7) == (1, False)
            assert await b.redis.hkeys(f"{b.prefix}7") == [b"b"]  # (a forgotten)
            assert not await b.redis.exists(f"{b.prefix}7:a")
            # b's set lost (Redis restarted): the next round writes it again, unchanged or not
            await b.redis.delete(f"{b.prefix}7:b")
            await b.write({7: {cat}})
            assert await b.total(7) == (1, False)
            await b.write({7: {cat, dan}})
            assert await b.total(7) == (2, False)
        finally:
            keys = [f"{a.prefix}{e}{w}" for e in (7, 8) for w in ("", ":a", ":b")]
            await a.redis.delete(*keys)
            await a.redis.aclose()
            await b.redis.aclose()

    asyncio.run(scenario())


def test_after_a_failed_round_the_counts_settle_before_any_warning() -> None:
    clock = [0.0]
    counts = MemoryCounts()
    presence = Presence(counts, clock=lambda: clock[0])

    async def at(t: float, players: int) -> str:
        clock[0] = t
        await counts.write({1: {f"{i:016x}" for i in range(players)}})
        return (await presence.view(1))["phones_warning"]

    async def scenario() -> None:
        assert await at(0, 12) == ""
        presence.failed()  # Redis away a moment; the other workers' players come back slowly
        assert await at(1, 3) == ""
        assert await at(2, 12) == ""
        assert await at(STALE + 1, 12) == ""
        assert await at(STALE + 2, 4) == WARNING  # the Wi-Fi, this time
        assert (await presence.view(1))["phones"] == 4

    asyncio.run(scenario())
