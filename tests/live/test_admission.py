"""The admission gate of several workers: at most `slots` of the phones' events in Reflex's
hands at once, the others admitted in order of arrival as slots come back, a page's hydrate
after the events of pages already loaded; a chained event goes straight through; a cancelled
wait gives up its place; a slot comes back when its event is done, or after `HOLD_MAX` s
whatever happens; an event whose enqueue fails gives its slot back.

Reflex's side is a stand-in here (an `enqueue` returning futures the test resolves): the
gate is what is under test; tests/live/test_compat.py runs it in front of Reflex's real event
processor, and the several-worker browser test and bench/load.py --scale-out run the app with it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from reflex_base.event.context import EventContext

from loto_app.live.gate import admission


@dataclass(frozen=True)
class Ev:
    """An event, by its full name."""

    name: str


HYDRATE = f"reflex___state____state.{admission.HYDRATE}"


class Reflex:
    """An event processor's `enqueue`: each event gets a future, done when the test says."""

    def __init__(self) -> None:
        self.futures: dict[str, asyncio.Future] = {}
        self.order: list[str] = []
        self.fail: set[str] = set()

    async def enqueue(self, token: str, event: str | Ev) -> asyncio.Future:
        event = event if isinstance(event, str) else f"{token}:{event.name.rpartition('.')[2]}"
        if event in self.fail:
            raise RuntimeError("queue shut down")
        self.order.append(event)
        f = self.futures[event] = asyncio.get_running_loop().create_future()
        return f

    def running(self) -> int:
        return sum(not f.done() for f in self.futures.values())


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def test_at_most_slots_at_once_then_in_order_of_arrival() -> None:
    async def scenario() -> None:
        reflex = Reflex()
        gate = admission.Admission(reflex.enqueue, slots=3)
        names = [f"e{i}" for i in range(8)]
        tasks = [asyncio.create_task(gate.enqueue("tok", n)) for n in names]
        await _settle()
        assert reflex.order == names[:3] and gate.waiting == 5
        reflex.futures["e1"].set_result(None)
        await _settle()
        assert reflex.order == names[:4] and reflex.running() == 3
        for n in ("e0", "e2", "e3"):
            reflex.futures[n].set_exception(RuntimeError("failed"))  # (a slot all the same)
        await _settle()
        assert reflex.order == names[:7] and reflex.running() == 3
        failed = [reflex.futures[n].exception() for n in ("e0", "e2", "e3")]
        assert all(isinstance(e, RuntimeError) for e in failed)
        for f in list(reflex.futures.values()):
            if not f.done():
                f.cancel()  # (superseded or dropped: a slot too)
        await _settle()
        assert reflex.order == names and gate.waiting == 0
        assert [t.result() for t in tasks] == [reflex.futures[n] for n in names]

    asyncio.run(scenario())


def test_a_chained_event_is_not_counted_again() -> None:
    async def scenario() -> None:
        reflex = Reflex()
        gate = admission.Admission(reflex.enqueue, slots=1)
        await gate.enqueue("tok", "hydrate")
        ctx = EventContext(token="tok", state_manager=None, enqueue_impl=None, txid="t1")  # type: ignore[arg-type]
        reset = EventContext.set(ctx)
        try:
            await asyncio.wait_for(gate.enqueue("tok", "on_load"), 1)  # no slot needed
        finally:
            EventContext.reset(reset)
        assert reflex.order == ["hydrate", "on_load"]

    asyncio.run(scenario())


def test_a_slot_comes_back_after_hold_max_and_after_a_failed_enqueue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(admission, "HOLD_MAX", 0.05)

    async def scenario() -> None:
        reflex = Reflex()
        reflex.fail.add("broken")
        gate = admission.Admission(reflex.enqueue, slots=1)
        with pytest.raises(RuntimeError):
            await gate.enqueue("tok", "broken")
        await asyncio.wait_for(gate.enqueue("tok", "stuck"), 1)  # (its slot came back)
        late = asyncio.create_task(gate.enqueue("tok", "next"))
        await _settle()
        assert not late.done()
        await asyncio.wait_for(late, 1)  # "stuck" never finishes: its slot comes back anyway
        reflex.futures["stuck"].set_result(None)  # (and is not given back twice)
        await _settle()
        third = asyncio.create_task(gate.enqueue("tok", "third"))
        await _settle()
        assert not third.done(), "one slot, held by 'next'"
        reflex.futures["next"].set_result(None)
        await asyncio.wait_for(third, 1)

    asyncio.run(scenario())


def test_a_hydrate_waits_behind_the_events_of_loaded_pages() -> None:
    """Phones arriving (hydrates) queue behind the joins, purchases and claims of the phones
    already in, which go first as slots come back; a cancelled wait gives up its place."""

    async def scenario() -> None:
        reflex = Reflex()
        gate = admission.Admission(reflex.enqueue, slots=1)
        first = await gate.enqueue("a", Ev(HYDRATE))
        arriving = [asyncio.create_task(gate.enqueue(t, Ev(HYDRATE))) for t in "bcd"]
        await _settle()
        loaded = [
            asyncio.create_task(gate.enqueue("a", Ev("x.player_state.join_evening"))),
            asyncio.create_task(gate.enqueue("z", Ev("x.player_state.claim"))),
        ]
        await _settle()
        arriving[1].cancel()  # (that phone went away)
        await _settle()
        assert gate.waiting == 4
        first.set_result(None)
        for _ in range(4):
            await _settle()
            (running,) = [f for f in reflex.futures.values() if not f.done()]
            running.set_result(None)
        await _settle()
        assert reflex.order == [
            "a:hydrate_and_load",
            "a:join_evening",
            "z:claim",
            "b:hydrate_and_load",
            "d:hydrate_and_load",
        ]
        assert gate.waiting == 0 and all(t.done() for t in loaded)
        assert arriving[1].cancelled()

    asyncio.run(scenario())
