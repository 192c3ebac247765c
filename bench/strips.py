"""Benchmark of the rules core: how many planches (strips of 6 cartons) per second.

Run from the repository root with the project's virtualenv:

    .venv/bin/python bench/strips.py

It prints two lines. The first,
`strips_per_s_system=... strips_per_s_seeded=... (10000 strips, median of 5)`, gives the rate
with the production source (`secrets.SystemRandom`, one `os.urandom` read per random call) and
with a seeded `random.Random` (the Mersenne Twister, used by the tests). The one-off build of the
generator's tables (about 0.1 s) is done before timing.

The second, `claims=1000 verify_ms=... engine_ms=... committed_ms=...`, times 1,000
simultaneous claims on one number (1,000 players with one carton each, a quine in play): the
controller's check alone (`verdicts.judge`), the engine's whole claim move (verdict, tie
entries, annulment), and the same moves each committed to a SQLite file (`registry.Registry.play`
awaited one by one: one transaction per claim). Medians of 5 runs.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from loto_app.domain.cartons import generate_strip
from loto_app.domain.engine import Evening
from loto_app.domain.program import DrawSource, Kind, Program, Settings, demo_program
from loto_app.domain.verdicts import judge
from loto_app.live.runtime.registry import Registry
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

STRIPS = 10_000
RUNS = 5
SEED = 20240601


def strips_per_second(rng: random.Random, strips: int = STRIPS, runs: int = RUNS) -> float:
    """The median, over `runs` runs, of the rate of generating `strips` strips with `rng`.

    Args:
        rng: the source of randomness.
        strips: strips generated per run.
        runs: number of timed runs.

    Returns:
        Strips per second (median of the runs), measured with `time.perf_counter`.
    """
    generate_strip(rng)  # builds the tables once, outside the timing
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(strips):
            generate_strip(rng)
        rates.append(strips / (time.perf_counter() - start))
    return statistics.median(rates)


def bench_strips(strips: int = STRIPS, runs: int = RUNS) -> tuple[float, float]:
    """Strips per second with `secrets.SystemRandom` and with a seeded `random.Random`.

    Args:
        strips: strips generated per run.
        runs: number of timed runs (the median is kept).

    Returns:
        (rate with SystemRandom, rate with random.Random(SEED)).
    """
    system = strips_per_second(secrets.SystemRandom(), strips, runs)
    seeded = strips_per_second(random.Random(SEED), strips, runs)
    return system, seeded


CLAIMS = 1_000


def _program() -> Program:
    demo = demo_program("BENCH")
    return Program(demo.series, demo.games, Settings(DrawSource.ELECTRONIC))


def _setup(evening: Evening, rng: random.Random, players: int, run) -> None:
    """`players` players with one classique carton each; a game with 30 numbers drawn."""
    for i in range(players):
        pid = f"p{i}"
        run(lambda e, pid=pid: e.join(pid, f"Joueur {pid}"))
        run(lambda e, pid=pid: e.sell(pid, Kind.CLASSIQUE, 1, rng=rng))
    run(lambda e: e.start_game())
    for _ in range(30):
        run(lambda e: e.draw(rng))


def _claim_all(evening: Evening, run) -> None:
    for c in sorted(evening.cartons.values(), key=lambda c: c.no):
        owner = evening.owner(c.no)
        if owner is not None:
            run(lambda e, owner=owner, no=c.no: e.claim(owner, no))


def bench_claims(claims: int = CLAIMS, runs: int = RUNS) -> tuple[float, float, float]:
    """Milliseconds to verify `claims` simultaneous claims on the same number.

    Returns:
        (judge only, engine moves, engine moves each committed to SQLite), medians.
    """
    judged, moved, committed = [], [], []
    for r in range(runs):
        rng = random.Random(SEED + r)
        evening = Evening(_program())
        _setup(evening, rng, claims, lambda move, ev=evening: move(ev))
        g = evening.game
        assert g is not None and g.stage_spec is not None
        units = [[c.carton] for c in evening.cartons.values() if evening.owner(c.no)]
        t = time.perf_counter()
        for unit in units:
            judge(g.stage_spec.pattern, unit, g.drawn)
        judged.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        _claim_all(evening, lambda move, ev=evening: move(ev))
        moved.append((time.perf_counter() - t) * 1000)

        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            upgrade(url)
            engine = make_engine(url)
            store = EveningStore(engine)
            eid = store.create_evening("Bench", _program()).evening_id
            reg, loop = Registry(store), asyncio.new_event_loop()

            def run(move, reg=reg, loop=loop, eid=eid):
                return loop.run_until_complete(reg.play(eid, move))

            live = loop.run_until_complete(reg.live(eid))
            rng = random.Random(SEED + r)
            _setup(live.evening, rng, claims, run)
            t = time.perf_counter()
            _claim_all(live.evening, run)
            committed.append((time.perf_counter() - t) * 1000)
            reg.forget_all()  # the last-call timers
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()
            engine.dispose()
    return statistics.median(judged), statistics.median(moved), statistics.median(committed)


def main() -> None:
    """Run the benchmarks and print their results."""
    system, seeded = bench_strips()
    print(
        f"strips_per_s_system={system:.0f} strips_per_s_seeded={seeded:.0f} "
        f"({STRIPS} strips, median of {RUNS})"
    )
    judged, moved, committed = bench_claims()
    print(
        f"claims={CLAIMS} verify_ms={judged:.1f} engine_ms={moved:.1f} "
        f"committed_ms={committed:.0f} (median of {RUNS})"
    )


if __name__ == "__main__":
    main()
