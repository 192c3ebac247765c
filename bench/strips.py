"""Benchmark of the rules core: how many planches (strips of 6 cartons) per second.

Run from the repository root with the project's virtualenv:

    .venv/bin/python bench/strips.py

It prints one line, e.g.
`strips_per_s_system=... strips_per_s_seeded=... (10000 strips, median of 5)`: the rate with the
production source (`secrets.SystemRandom`, one `os.urandom` read per random call) and with a
seeded `random.Random` (the Mersenne Twister, used by the tests). The one-off build of the
generator's tables (about 0.1 s) is done before timing.
"""

from __future__ import annotations

import random
import secrets
import statistics
import time

from loto_app.domain.cartons import generate_strip

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


def main() -> None:
    """Run the benchmarks and print their results on one line."""
    system, seeded = bench_strips()
    print(
        f"strips_per_s_system={system:.0f} strips_per_s_seeded={seeded:.0f} "
        f"({STRIPS} strips, median of {RUNS})"
    )


if __name__ == "__main__":
    main()
