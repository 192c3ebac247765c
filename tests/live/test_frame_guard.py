"""The socket's front door (loto_app/live/gate/frame_guard.py): oversized events and unknown handler
names are refused before Reflex reads them, with a bounded amount of logging per client."""

from __future__ import annotations

import asyncio
import json
import logging
import os

import pytest

from loto_app.live.gate.frame_guard import (
    MAX_EVENT_BYTES,
    MAX_FRAME_BYTES,
    FrameGuard,
    RefusalLog,
    bounded_size,
    handler_names,
)

NAME = "reflex___state____state.loto_app___live___states___player____player_state.claim"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_bounded_size_follows_json_size_and_stops_early() -> None:
    small = {"carton_no": "12", "list": [1, 2, {"a": "bc"}]}
    assert abs(bounded_size(small, 10**6) - len(json.dumps(small))) < 20
    huge = {"carton_no": "9" * 900_000}
    assert bounded_size(huge, 1000) > 1000
    wide = {"x": list(range(100_000))}
    assert bounded_size(wide, 5000) > 5000  # counted up to the limit, not the whole list
    deep: list = []
    for _ in range(10_000):  # no recursion: a deep payload does not overflow the stack
        deep = [deep]
    assert bounded_size(deep, 10**6) >= 10_000


def test_refusal_log_writes_one_line_per_client_and_kind_per_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="loto_app.live")
    clock = Clock()
    refusals = RefusalLog(every=10.0, clock=clock)
    logged = [refusals.refused("sid A", "no handler", f"no handler {i}") for i in range(1000)]
    assert logged[0] and not any(logged[1:])
    assert refusals.refused("sid B", "no handler", "x"), "another client has its own line"
    assert refusals.refused("sid A", "oversized claim", "x"), "another kind has its own line"
    clock.now += 10.0
    assert refusals.refused("sid A", "no handler", "again")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4
    assert "999 more like it" in lines[-1]
    assert all(len(line) < 400 for line in lines)


def test_refusal_log_memory_is_bounded() -> None:
    clock = Clock()
    refusals = RefusalLog(clock=clock, max_clients=100)
    for i in range(1000):
        clock.now += 0.001
        refusals.refused(f"sid {i}", "no handler", "x")
    assert len(refusals.counts) <= 100


def _guard() -> tuple[FrameGuard, list]:
    passed: list = []

    async def on_event(sid: str, data: object) -> None:
        passed.append((sid, data))

    return FrameGuard(on_event, lambda: [NAME]), passed


def test_the_guard_passes_real_events_and_refuses_the_rest() -> None:
    guard, passed = _guard()
    ok = {"name": NAME, "payload": {"carton_no": 12}, "router_data": {"pathname": "/jouer"}}
    cases = [
        {"name": NAME, "payload": {"carton_no": "9" * 900_000}},  # the frame
        {"name": NAME, "payload": {"carton_no": ["9"] * 50_000}},
        {"name": NAME, "payload": {}, "router_data": {"pathname": "x" * 100_000}},
        {"name": NAME + "_nope", "payload": {}},  # no such handler
        {"name": "x" * 10_000, "payload": {}},
        {"name": 7, "payload": {}},
        "a string",
        None,
    ]

    async def run() -> None:
        await guard.handle("sid1", ok)
        for data in cases:
            await guard.handle("sid1", data)

    asyncio.run(run())
    assert passed == [("sid1", ok)]
    assert guard.problem({"name": NAME, "payload": {"v": "x" * (MAX_EVENT_BYTES - 100)}}) is None


def test_the_app_installs_the_guard_and_knows_its_handlers() -> None:
    from loto_app import loto_app

    namespace = loto_app.app.event_namespace
    assert namespace is not None
    assert getattr(namespace.on_event, "__self__", None).__class__ is FrameGuard
    names = handler_names(loto_app.app._state)
    assert NAME in names
    assert "reflex___state____state.hydrate" in names  # Reflex's own boot event passes
    assert not any(n.endswith("._play") for n in names), "private methods are not handlers"


def test_the_socket_frame_limit_is_set_below_reflex_default() -> None:
    import rxconfig  # noqa: F401  (sets the limit for every server process)

    assert int(os.environ["REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE"]) == MAX_FRAME_BYTES
    assert MAX_EVENT_BYTES < MAX_FRAME_BYTES < 1_000_000
