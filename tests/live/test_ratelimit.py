"""The per-client token bucket and the payload check of `loto_app.live.gate.ratelimit` (no server:
a fake clock). The middleware itself is exercised over a real websocket in
tests/e2e/test_fuzz.py."""

from __future__ import annotations

import pytest

from loto_app.live.gate.ratelimit import BURST, RATE, RateLimiter, TokenBucket, payload_problem


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_burst_passes_then_the_next_event_is_dropped(clock: Clock) -> None:
    rl = RateLimiter(burst=20, rate=10, clock=clock)
    assert all(rl.allow("a") for _ in range(20))
    assert not rl.allow("a")
    assert rl.dropped("a") == 1
    assert rl.dropped("a") == 0


def test_the_bucket_refills_at_the_sustained_rate(clock: Clock) -> None:
    rl = RateLimiter(burst=20, rate=10, clock=clock)
    for _ in range(20):
        rl.allow("a")
    clock.t += 0.25  # 2.5 tokens back
    assert [rl.allow("a") for _ in range(3)] == [True, True, False]
    clock.t += 100  # never more than the burst
    assert sum(rl.allow("a") for _ in range(50)) == 20


def test_a_steady_client_at_the_rate_is_never_dropped(clock: Clock) -> None:
    rl = RateLimiter(burst=20, rate=10, clock=clock)
    for _ in range(10_000):  # exactly 10 events a second for 1000 s
        assert rl.allow("a")
        clock.t += 0.1


def test_a_flood_gets_the_rate_and_no_more(clock: Clock) -> None:
    rl = RateLimiter(burst=20, rate=10, clock=clock)
    passed = 0
    for _ in range(10_000):  # 1000 events a second for 10 s
        passed += rl.allow("a")
        clock.t += 0.001
    assert 20 + 99 <= passed <= 20 + 101


def test_clients_have_separate_buckets(clock: Clock) -> None:
    rl = RateLimiter(burst=3, rate=1, clock=clock)
    assert all(rl.allow("flood") for _ in range(3))
    assert not rl.allow("flood")
    assert all(rl.allow("other") for _ in range(3))


def test_the_client_is_told_at_most_once_every_few_seconds(clock: Clock) -> None:
    rl = RateLimiter(burst=1, rate=1, tell_every=5, clock=clock)
    assert not rl.should_tell("unknown")
    rl.allow("a")
    told = []
    for _ in range(100):  # 10 s of refused events
        rl.allow("a")
        told.append(rl.should_tell("a"))
        clock.t += 0.1
    assert sum(told) == 2 and told[0]


def test_memory_is_bounded_idle_clients_forgotten_first(clock: Clock) -> None:
    rl = RateLimiter(burst=5, rate=1, clock=clock, max_clients=100)
    for i in range(100):
        rl.allow(f"idle{i}")
    for _ in range(5):
        rl.allow("busy")  # pruning happens when a new client arrives past the bound
    clock.t += 10  # every idle bucket is full again
    rl.allow("new")
    assert len(rl.buckets) <= 100
    assert "new" in rl.buckets
    for i in range(1000):  # all busy: the oldest half goes, the dict stays bounded
        rl.allow(f"c{i}")
    assert len(rl.buckets) <= 100


def test_a_clock_going_backwards_gives_nothing_back() -> None:
    b = TokenBucket(capacity=2, rate=1, tokens=0, updated=10.0)
    assert not b.take(5.0)
    assert b.updated == 10.0
    assert not b.take(10.5)
    assert b.take(11.0)


def test_the_defaults_fit_a_page_load_and_fast_marking(clock: Clock) -> None:
    """A reload (hydrate, on_load, resume...: 4 events) then marking 5 cells a second for a
    minute with a `refresh` poke every 10 s: never dropped."""
    rl = RateLimiter(clock=clock)
    assert BURST >= 20 and RATE >= 10
    assert all(rl.allow("p") for _ in range(4))
    for i in range(300):
        assert rl.allow("p")
        if i % 50 == 0:
            assert rl.allow("p")
        clock.t += 0.2


def test_invalid_rates_are_refused() -> None:
    with pytest.raises(ValueError, match="burst 0"):
        RateLimiter(burst=0)
    with pytest.raises(ValueError, match="rate 0"):
        RateLimiter(rate=0)


def handler(self, carton_no: int, number: int):  # the shape of PlayerState.toggle
    return None


def no_args(self):
    return None


@pytest.mark.parametrize(
    ("fn", "payload"),
    [
        (handler, {"carton_no": 1, "number": 2}),
        (handler, {"carton_no": "x" * 10_000, "number": {"a": [1]}}),  # values: the handler's job
        (no_args, {}),
    ],
)
def test_payloads_that_fit_the_handler_pass(fn, payload) -> None:
    assert payload_problem(fn, payload) is None


@pytest.mark.parametrize(
    ("fn", "payload", "why"),
    [
        (handler, {"carton_no": 1}, "do not fit"),
        (handler, {"carton_no": 1, "number": 2, "player_id": "p1"}, "do not fit"),
        (no_args, {"x": 1}, "do not fit"),
        (handler, [1, 2], "not a dict"),
        (handler, "carton_no=1", "not a dict"),
        (handler, None, "not a dict"),
        (handler, {f"k{i}": i for i in range(100)}, "short names"),
        (handler, {"k" * 1000: 1, "number": 2}, "short names"),
    ],
)
def test_payloads_that_do_not_fit_are_refused(fn, payload, why: str) -> None:
    problem = payload_problem(fn, payload)
    assert problem is not None and why in problem


@pytest.mark.parametrize(
    ("state_path", "staff"),
    [
        ("loto_app.live.states.caisse.CaisseState", True),
        ("loto_app.live.states.animateur.AnimateurState", True),
        ("loto_app.live.states.player.PlayerState", False),
    ],
)
def test_only_signed_in_staff_is_exempt(state_path: str, staff: bool) -> None:
    """The exemption reads the real state classes: signed-in animateur and desk only."""
    import asyncio
    import importlib

    import reflex as rx
    from reflex.event import Event

    import loto_app.loto_app  # noqa: F401  (builds the app's state tree)
    from loto_app.live.gate.ratelimit import _signed_in_staff

    module, _, name = state_path.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    root = rx.State(_reflex_internal_init=True)
    event = Event(name=f"{cls.get_full_name()}.refresh")
    assert asyncio.run(_signed_in_staff(root, event)) is False  # not signed in
    sub = root.get_substate(cls.get_full_name().split(".")[1:])
    if hasattr(sub, "_authorized"):
        sub._authorized = True
    assert asyncio.run(_signed_in_staff(root, event)) is staff
