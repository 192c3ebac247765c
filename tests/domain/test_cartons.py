"""Tests of carton generation and validation (docs/RULES.md, "Cartons").

Three layers:

* validity: every generated strip, vitrine and maxiquine obeys the rules, checked both by the
  module's validators and by an independent checker written here; each validator rejects a
  hand-made grid breaking each rule once;
* coverage of the layout space: the generator is not a template; the row placements are counted
  by brute force here, every placement shape shows up, uniformly given the column counts, and the
  law of the carton types matches an exact dynamic programme written independently here;
* the `Carton` value object's helpers.
"""

from __future__ import annotations

import math
import random
import secrets
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, product, repeat
from operator import add

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loto_app.domain import cartons as cartons_module
from loto_app.domain.cartons import (
    Carton,
    CartonFormat,
    generate_maxi,
    generate_strip,
    generate_vitrine,
    validate_classic,
    validate_maxi,
    validate_strip,
)

CLASSIC_RANGES = ((1, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 59), (60, 69), (70, 79))
CLASSIC_RANGES = (*CLASSIC_RANGES, (80, 90))
MAXI_RANGES = ((1, 18), (19, 36), (37, 54), (55, 72), (73, 90))
COLUMN_SIZES = tuple(hi - lo + 1 for lo, hi in CLASSIC_RANGES)  # 9, 10, ..., 10, 11
SEEDS = st.integers(min_value=0, max_value=2**128)

# A valid classique carton, written by hand: rows of 5, columns rising, every column used.
GOOD_ROWS: tuple[tuple[int | None, ...], ...] = (
    (1, None, 21, None, 41, None, 61, 71, None),
    (None, 11, 22, 31, None, 51, None, 72, None),
    (2, 12, None, 32, None, 52, None, None, 81),
)
GOOD_MAXI_ROWS = (
    (1, 19, 37, 55, 73),
    (2, 20, 38, 56, 74),
    (3, 21, 39, 57, 75),
    (4, 22, 40, 58, 76),
    (18, 36, 54, 72, 90),
)


def grid(rows: Sequence[Sequence[int | None]]) -> Carton:
    """A carton from rows given as lists or tuples."""
    return Carton(tuple(tuple(r) for r in rows))


def edited(rows: Sequence[Sequence[int | None]], *cells: tuple[int, int, int | None]) -> Carton:
    """A copy of `rows` with some cells (row, column, value) replaced."""
    new = [list(r) for r in rows]
    for r, k, value in cells:
        new[r][k] = value
    return grid(new)


# --------------------------------------------------------------------------------------------
# An independent checker (does not use the module's validators)
# --------------------------------------------------------------------------------------------


def assert_classic(carton: Carton) -> None:
    """Assert the classique format of docs/RULES.md, rule by rule."""
    g = carton.grid
    assert len(g) == 3
    assert all(len(row) == 9 for row in g)
    assert all(sum(c is not None for c in row) == 5 for row in g)
    for k, (lo, hi) in enumerate(CLASSIC_RANGES):
        column = [row[k] for row in g if row[k] is not None]
        assert column, f"column {k} empty"
        assert all(type(n) is int and lo <= n <= hi for n in column)
        assert column == sorted(column)
        assert len(set(column)) == len(column)
    assert carton.format is CartonFormat.CLASSIC


def assert_strip(strip: Sequence[Carton]) -> None:
    """Assert a planche: 6 classique cartons holding 1..90 exactly once."""
    assert len(strip) == 6
    for carton in strip:
        assert_classic(carton)
    numbers = [n for carton in strip for row in carton.grid for n in row if n is not None]
    assert sorted(numbers) == list(range(1, 91))


def assert_maxi(carton: Carton) -> None:
    """Assert the maxiquine format of docs/RULES.md."""
    g = carton.grid
    assert len(g) == 5
    assert all(len(row) == 5 for row in g)
    for k, (lo, hi) in enumerate(MAXI_RANGES):
        column = [row[k] for row in g]
        assert all(type(n) is int and lo <= n <= hi for n in column)
        assert column == sorted(set(column))
    assert carton.format is CartonFormat.MAXI


# --------------------------------------------------------------------------------------------
# Validity of generated cartons
# --------------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_every_seeded_strip_is_valid(seed: int) -> None:
    strip = generate_strip(random.Random(seed))
    assert_strip(strip)
    validate_strip(strip)


def test_system_random_strips_are_valid() -> None:
    rng = secrets.SystemRandom()
    for _ in range(300):
        strip = generate_strip(rng)
        assert_strip(strip)
        validate_strip(strip)
    for _ in range(20):
        assert_strip(generate_strip())  # the default source


def test_default_source_is_default_rng(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cartons_module, "default_rng", lambda: random.Random(99))
    assert generate_strip() == generate_strip(random.Random(99))
    assert generate_maxi() == generate_maxi(random.Random(99))
    assert generate_vitrine() == generate_vitrine(random.Random(99))


def test_default_rng_is_the_os_csprng() -> None:
    assert isinstance(cartons_module.default_rng(), secrets.SystemRandom)


@settings(max_examples=50, deadline=None)
@given(SEEDS)
def test_same_seed_same_strip(seed: int) -> None:
    assert generate_strip(random.Random(seed)) == generate_strip(random.Random(seed))
    assert generate_maxi(random.Random(seed)) == generate_maxi(random.Random(seed))
    assert generate_vitrine(random.Random(seed)) == generate_vitrine(random.Random(seed))


def test_different_seeds_give_different_strips() -> None:
    strips = {generate_strip(random.Random(seed)) for seed in range(200)}
    assert len(strips) == 200


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_every_maxiquine_is_valid(seed: int) -> None:
    carton = generate_maxi(random.Random(seed))
    assert_maxi(carton)
    validate_maxi(carton)
    assert len(carton.numbers) == 25


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_every_vitrine_is_three_disjoint_classique_cartons(seed: int) -> None:
    unit = generate_vitrine(random.Random(seed))
    assert len(unit) == 3
    for carton in unit:
        assert_classic(carton)
        validate_classic(carton)
    assert len(unit[0].numbers | unit[1].numbers | unit[2].numbers) == 45


def test_maxiquine_covers_every_number_of_each_fifth() -> None:
    rng = random.Random(7)
    seen: list[set[int]] = [set() for _ in range(5)]
    for _ in range(300):
        g = generate_maxi(rng).grid
        for k in range(5):
            seen[k].update(row[k] for row in g)
    assert [sorted(s) for s in seen] == [list(range(lo, hi + 1)) for lo, hi in MAXI_RANGES]


# --------------------------------------------------------------------------------------------
# Validators reject each broken rule
# --------------------------------------------------------------------------------------------


def test_hand_made_cartons_are_valid() -> None:
    validate_classic(grid(GOOD_ROWS))
    assert_classic(grid(GOOD_ROWS))
    validate_maxi(grid(GOOD_MAXI_ROWS))
    assert_maxi(grid(GOOD_MAXI_ROWS))


@pytest.mark.parametrize(
    ("carton", "message"),
    [
        pytest.param(edited(GOOD_ROWS, (0, 4, None)), "row 1 holds 4 numbers", id="4-in-a-row"),
        pytest.param(edited(GOOD_ROWS, (1, 0, 3)), "row 2 holds 6 numbers", id="6-in-a-row"),
        pytest.param(edited(GOOD_ROWS, (0, 0, 10)), r"column 1 \(1-9\) holds 10", id="range"),
        pytest.param(
            edited(GOOD_ROWS, (2, 8, 91)), r"column 9 \(80-90\) holds 91", id="range-above-90"
        ),
        pytest.param(edited(GOOD_ROWS, (0, 0, 5)), "column 1 is not rising", id="descending"),
        pytest.param(edited(GOOD_ROWS, (0, 0, 2)), "column 1 is not rising", id="duplicate"),
        pytest.param(
            edited(GOOD_ROWS, (2, 8, None), (2, 6, 62)), r"column 9 \(80-90\) is empty", id="empty"
        ),
        pytest.param(edited(GOOD_ROWS, (0, 0, "1")), "holds '1'", id="not-an-int"),
        pytest.param(edited(GOOD_ROWS, (0, 0, True)), "holds True", id="bool"),
        pytest.param(grid(GOOD_ROWS[:2]), "must have 3 rows", id="two-rows"),
        pytest.param(grid([*GOOD_ROWS[:2], GOOD_ROWS[2][:8]]), "row 3 must be", id="8-cells"),
        pytest.param(grid(GOOD_MAXI_ROWS), "must have 3 rows", id="maxi-shape"),
    ],
)
def test_validate_classic_rejects_each_broken_rule(carton: Carton, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_classic(carton)
    with pytest.raises(AssertionError):
        assert_classic(carton)


@pytest.mark.parametrize(
    ("carton", "message"),
    [
        pytest.param(edited(GOOD_MAXI_ROWS, (2, 2, None)), "column 3 .* empty cell", id="hole"),
        pytest.param(edited(GOOD_MAXI_ROWS, (0, 1, 18)), r"column 2 \(19-36\) holds 18", id="rg"),
        pytest.param(edited(GOOD_MAXI_ROWS, (0, 4, 80)), "column 5 is not rising", id="down"),
        pytest.param(edited(GOOD_MAXI_ROWS, (1, 3, 55)), "column 4 is not rising", id="dup"),
        pytest.param(grid(GOOD_MAXI_ROWS[:4]), "must have 5 rows", id="4-rows"),
        pytest.param(grid(GOOD_ROWS), "must have 5 rows", id="classic-shape"),
    ],
)
def test_validate_maxi_rejects_each_broken_rule(carton: Carton, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_maxi(carton)
    with pytest.raises(AssertionError):
        assert_maxi(carton)


def strip_with(edit: dict[int, Carton]) -> list[Carton]:
    """A valid strip (seed 1) with some cartons replaced."""
    strip = list(generate_strip(random.Random(1)))
    for i, carton in edit.items():
        strip[i] = carton
    return strip


def swap_number(carton: Carton, old: int, new: int) -> Carton:
    """The carton with number `old` replaced by `new` (same cell)."""
    return grid([[new if n == old else n for n in row] for row in carton.grid])


def test_validate_strip_accepts_a_strip_in_any_order() -> None:
    strip = strip_with({})
    validate_strip(strip)
    validate_strip(list(reversed(strip)))


def test_validate_strip_rejects_a_wrong_count() -> None:
    with pytest.raises(ValueError, match="holds 6 cartons, got 5"):
        validate_strip(strip_with({})[:5])
    with pytest.raises(ValueError, match="holds 6 cartons, got 7"):
        validate_strip([*strip_with({}), grid(GOOD_ROWS)])


def test_validate_strip_rejects_an_invalid_carton() -> None:
    bad = edited(GOOD_ROWS, (0, 4, None))
    with pytest.raises(ValueError, match="strip carton 4: classique carton row 1 holds 4"):
        validate_strip(strip_with({3: bad}))


def test_validate_strip_rejects_a_missing_and_a_doubled_number() -> None:
    strip = strip_with({})
    # Replace a number m of carton 3 by its neighbour n of the same column, held by another
    # carton: carton 3 stays valid (nothing of it lies between m and n), the strip does not.
    carton = strip[2]
    m, n = next(
        (m, n)
        for m in sorted(carton.numbers)
        for n in (m - 1, m + 1)
        if n not in carton.numbers
        and any(lo <= m <= hi and lo <= n <= hi for lo, hi in CLASSIC_RANGES)
    )
    doubled = swap_number(carton, m, n)
    validate_classic(doubled)
    owner = next(i for i, c in enumerate(strip) if n in c.numbers)
    first, second = sorted((owner + 1, 3))
    with pytest.raises(
        ValueError,
        match=rf"^strip holds more than once {n} \(cartons {first}, {second}\) and is missing {m}$",
    ):
        validate_strip(strip_with({2: doubled}))


# --------------------------------------------------------------------------------------------
# Brute-force counts of the layout space
# --------------------------------------------------------------------------------------------

ROW_PATTERNS = [sum(1 << k for k in cols) for cols in combinations(range(9), 5)]  # 126


def placements_of(counts: Sequence[int]) -> int:
    """Number of 3x9 0/1 masks with 5 per row and these column counts (brute force)."""
    choices = [list(combinations(range(3), c)) for c in counts]
    total = 0
    for pick in product(*choices):
        rows = [0, 0, 0]
        for chosen in pick:
            for r in chosen:
                rows[r] += 1
        total += rows == [5, 5, 5]
    return total


def count_vectors() -> list[tuple[int, ...]]:
    """Every column-count vector of a carton (counts 1-3, sum 15)."""
    return [v for v in product((1, 2, 3), repeat=9) if sum(v) == 15]


def test_row_placements_counted_by_brute_force() -> None:
    # By full-column count a: one representative per a, checked against the generator's table.
    by_full = {}
    for counts in ((1,) * 3 + (2,) * 6, (3,) + (2,) * 4 + (1,) * 4, (3, 3, 2, 2) + (1,) * 5):
        by_full[counts.count(3)] = placements_of(counts)
    by_full[3] = placements_of((3, 3, 3) + (1,) * 6)
    assert by_full == {0: 1710, 1: 639, 2: 240, 3: 90}
    assert tuple(by_full[a] for a in range(4)) == cartons_module._PLACEMENTS_BY_FULL
    # A column permutation does not change the count.
    assert placements_of((2, 1, 2, 2, 1, 2, 1, 2, 2)) == 1710
    # Every mask with 5 per row and no empty column, counted from pairs of rows (the 3rd row
    # must hold the columns the first two miss, plus any of the others), equals the sum over
    # count vectors of their placements: 735,210 carton masks.
    masks = 0
    for top, middle in product(ROW_PATTERNS, repeat=2):
        used = top | middle
        missing = 9 - used.bit_count()
        if missing <= 5:
            masks += math.comb(used.bit_count(), 5 - missing)
    vectors = count_vectors()
    assert len(vectors) == 1554
    assert masks == sum(by_full[v.count(3)] for v in vectors) == 735_210
    # Every count vector fits in a strip, so every one of the 735,210 masks can appear: the
    # other 5 cartons need a 5x9 matrix with entries 1-3, row sums 15 and column sums
    # r_k = s_k - c_k. Minus 1 everywhere: entries 0-2, row sums 6, column sums r_k - 5 (total
    # 30); by max-flow/min-cut it exists iff every set K of columns asks at most what 5 rows can
    # give it, 5 * min(6, 2|K|), i.e. iff 0 <= r_k - 5 <= 10 (|K| = 1; larger K then follow).
    assert all(5 <= s - c <= 15 for v in vectors for s, c in zip(COLUMN_SIZES, v, strict=True))


def test_rejection_step_corrects_the_proposal_exactly() -> None:
    """White-box: proposal weight x acceptance is proportional to the uniform-strip weight.

    Under the uniform law a carton's count vector c weighs M(a) / prod_k c_k! (placements times
    deals); the generator proposes with prod_k w(c_k) and accepts with limit(a) / radix.
    """
    m = cartons_module
    proposal = m._PROPOSAL_WEIGHT
    ratios = set()
    for v in count_vectors():
        a = v.count(3)
        target = Fraction(m._PLACEMENTS_BY_FULL[a], math.prod(map(math.factorial, v)))
        accept = Fraction(m._PLACEMENTS_BY_FULL[a] * m._ACCEPT_STEP[a], m._ACCEPT_RADIX)
        assert 0 < accept <= 1
        ratios.add(target / (math.prod(proposal[c] for c in v) * accept))
    assert len(ratios) == 1
    # The placement index d // step is uniform: each index gets exactly `step` values of d.
    assert all(m._ACCEPT_STEP[a] * n <= m._ACCEPT_RADIX for a, n in enumerate(by_full_values()))


def by_full_values() -> tuple[int, ...]:
    """M(a), the number of placements of a carton with a full columns (a = 0..3)."""
    return tuple(placements_of((3,) * a + (2,) * (6 - 2 * a) + (1,) * (3 + a)) for a in range(4))


class CountingSystemRandom(secrets.SystemRandom):
    """The OS CSPRNG, counting its reads of the OS (one per `getrandbits` call)."""

    reads = 0

    def getrandbits(self, k: int) -> int:
        self.reads += 1
        return super().getrandbits(k)


def test_few_os_reads_per_strip() -> None:
    rng = CountingSystemRandom()
    for _ in range(200):
        generate_strip(rng)
    # randrange (sometimes 2 reads) + one read for the 90 keys (+ a redraw in ~2% of strips).
    assert rng.reads <= 200 * 3.5


# --------------------------------------------------------------------------------------------
# Statistics over many strips (one pass, shared)
# --------------------------------------------------------------------------------------------

STRIPS = 15_000
NUMBER_STRIPS = 5_000  # strips whose numbers are tallied too


@dataclass
class Stats:
    """What the `stats` fixture counts over the strips."""

    strips: int = 0
    counts: Counter[tuple[int, ...]] = field(default_factory=Counter)  # column-count vectors
    masks: set[tuple[int, int, int]] = field(default_factory=set)  # row bitmasks of cartons
    count_at: set[tuple[int, int, int]] = field(default_factory=set)  # (carton, column, count)
    carton_of: Counter[tuple[int, int]] = field(default_factory=Counter)  # (number, carton)
    row_of: set[tuple[int, int]] = field(default_factory=set)  # (number, row)
    placement: dict[int, Counter[tuple[tuple[int, ...], tuple[int, ...]]]] = field(
        default_factory=lambda: defaultdict(Counter)
    )  # by full columns: (missing rows of 2-columns, rows of 1-columns)
    first_type: Counter[int] = field(default_factory=Counter)  # full columns of carton 1
    type_sets: Counter[tuple[int, ...]] = field(default_factory=Counter)  # sorted full counts


@pytest.fixture(scope="module")
def stats() -> Stats:
    rng = random.Random(2024)
    s = Stats(strips=STRIPS)
    for strip_no in range(STRIPS):
        types = []
        for i, carton in enumerate(generate_strip(rng)):
            g = carton.grid
            columns = list(zip(*g, strict=True))
            counts = tuple(3 - col.count(None) for col in columns)
            s.counts[counts] += 1
            s.masks.add(tuple(sum(1 << k for k, n in enumerate(row) if n is not None) for row in g))
            s.count_at.update(zip(repeat(i), range(9), counts))
            if strip_no < NUMBER_STRIPS:
                for r, row in enumerate(g):
                    numbers = [n for n in row if n is not None]
                    s.carton_of.update(zip(numbers, repeat(i)))
                    s.row_of.update(zip(numbers, repeat(r)))
            missing = tuple(col.index(None) for col in columns if col.count(None) == 1)
            single = tuple(
                0 if col[0] is not None else 1 if col[1] is not None else 2
                for col in columns
                if col.count(None) == 2
            )
            full = counts.count(3)
            s.placement[full][missing, single] += 1
            types.append(full)
        s.first_type[types[0]] += 1
        s.type_sets[tuple(sorted(types))] += 1
    return s


def chi2_limit(df: int) -> float:
    """An upper quantile (p about 1e-6) of the chi-square law, Wilson-Hilferty approximation."""
    z = 4.75
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def test_every_carton_sees_every_count_in_every_column(stats: Stats) -> None:
    assert stats.count_at == set(product(range(6), range(9), (1, 2, 3)))


def test_count_vectors_cover_the_space(stats: Stats) -> None:
    vectors = set(count_vectors())
    assert set(stats.counts) <= vectors
    # Vectors with at most one full column are common: every one of them (714) shows up.
    assert {v for v in vectors if v.count(3) <= 1} <= set(stats.counts)
    # Those with 2-3 full columns are rarer (a full column takes 3 of the 10 numbers of its
    # decade); most show up already.
    assert len(stats.counts) >= 0.95 * len(vectors)


def test_not_a_template_nearly_every_carton_mask_is_new(stats: Stats) -> None:
    cartons = 6 * stats.strips
    # 735,210 masks exist; a template generator would show a handful. Here nearly every one of
    # the 90,000 cartons has a mask never seen before.
    assert len(stats.masks) >= 0.85 * cartons
    assert all(
        all(row.bit_count() == 5 for row in m) and m[0] | m[1] | m[2] == 0b111111111
        for m in stats.masks
    )


def valid_placements(full: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Brute force: (missing rows of the 2-columns, rows of the 1-columns) giving 5 per row."""
    out = []
    for missing in product(range(3), repeat=6 - 2 * full):
        for single in product(range(3), repeat=3 + full):
            # Row r: the full columns, the 2-columns not missing it, the 1-columns filling it.
            per_row = [full + (6 - 2 * full) - missing.count(r) + single.count(r) for r in range(3)]
            if per_row == [5, 5, 5]:
                out.append((missing, single))
    return out


@pytest.mark.parametrize("full", [0, 1, 2, 3])
def test_row_placement_is_uniform_given_the_column_counts(stats: Stats, full: int) -> None:
    """Every placement shape (which row each partial column misses or fills) is reachable and,
    given the carton's column counts, uniform (chi-square, p ~ 1e-6)."""
    valid = valid_placements(full)
    assert len(valid) == (1710, 639, 240, 90)[full]
    observed = stats.placement[full]
    assert set(observed) <= set(valid)
    total = sum(observed.values())
    expected = total / len(valid)
    if expected >= 10:  # 0, 1 and 2 full columns: each shape seen; 3 is rare (~0.2%)
        assert set(observed) == set(valid)
        stat = chi2([observed[p] for p in valid], [expected] * len(valid))
        assert stat < chi2_limit(len(valid) - 1)
    else:
        assert total > 50
        assert len(observed) >= 0.8 * len(valid)


def test_each_number_goes_to_each_carton_uniformly_and_to_each_row(stats: Stats) -> None:
    observed = [stats.carton_of[n, i] for n in range(1, 91) for i in range(6)]
    assert min(observed) > 0
    assert chi2(observed, [NUMBER_STRIPS / 6] * len(observed)) < chi2_limit(90 * 5)
    assert stats.row_of == set(product(range(1, 91), range(3)))


def exact_type_law() -> dict[tuple[int, ...], float]:
    """The exact law of the sorted full-column counts of a uniform strip (independent DP).

    A strip is a count matrix C (carton sums 15, column sums 9, 10..10, 11), a row placement per
    carton (M(a) of them for a carton with a full columns) and a deal of each column's numbers
    (s_k! / prod_i C[i][k]! ways). A forward DP over the columns tracks, per carton, its partial
    sum and number of full columns (sorted: cartons are exchangeable), weighting each column
    vector by prod_i 6/C[i][k]!.
    """
    placements = {0: 1710, 1: 639, 2: 240, 3: 90}
    weight = {1: 6, 2: 3, 3: 1}
    states: dict[tuple[int, ...], int] = {(0,) * 6: 1}
    for k, size in enumerate(COLUMN_SIZES):
        left = 8 - k
        lo, hi = (15 - 3 * left) * 4, (15 - left) * 4 + 3
        vectors = [
            (math.prod(weight[c] for c in v), tuple(4 * c + (c == 3) for c in v))
            for v in product((1, 2, 3), repeat=6)
            if sum(v) == size
        ]
        nxt: dict[tuple[int, ...], int] = defaultdict(int)
        for state, w in states.items():
            for wv, step in vectors:
                new = sorted(map(add, state, step))
                if lo <= new[0] and new[-1] <= hi:
                    nxt[tuple(new)] += w * wv
        states = nxt
    law: dict[tuple[int, ...], int] = defaultdict(int)
    for state, w in states.items():
        if all(x >> 2 == 15 for x in state):
            types = tuple(x & 3 for x in state)
            law[types] += w * math.prod(placements[a] for a in types)
    total = sum(law.values())
    # The number of strips: total * prod(s_k!) / 6^54.
    strips, rest = divmod(total * math.prod(map(math.factorial, COLUMN_SIZES)), 6**54)
    assert rest == 0
    assert f"{strips:.6e}" == "4.677115e+77"
    return {types: w / total for types, w in law.items()}


def test_carton_types_follow_the_exact_law(stats: Stats) -> None:
    """The count matrix is drawn with the right weights (incl. the exact rejection step)."""
    law = exact_type_law()
    assert set(stats.type_sets) <= set(law)
    n = stats.strips
    common = sorted(t for t, p in law.items() if p * n >= 10)
    observed = [stats.type_sets[t] for t in common]
    expected = [law[t] * n for t in common]
    observed.append(n - sum(observed))
    expected.append(n - sum(expected))
    assert chi2(observed, expected) < chi2_limit(len(observed) - 1)
    # The first carton of a strip: P(a full columns) = E[number of such cartons] / 6.
    first = [sum(p * t.count(a) for t, p in law.items()) / 6 for a in range(4)]
    observed = [stats.first_type[a] for a in range(4)]
    assert chi2(observed, [n * p for p in first]) < chi2_limit(3)


# --------------------------------------------------------------------------------------------
# The Carton value object
# --------------------------------------------------------------------------------------------


def test_carton_rows_numbers_and_diagonals() -> None:
    classic = grid(GOOD_ROWS)
    assert classic.format is CartonFormat.CLASSIC
    assert classic.rows == (
        frozenset({1, 21, 41, 61, 71}),
        frozenset({11, 22, 31, 51, 72}),
        frozenset({2, 12, 32, 52, 81}),
    )
    assert classic.numbers == frozenset().union(*classic.rows)
    assert classic.diagonals == ()
    maxi = grid(GOOD_MAXI_ROWS)
    assert maxi.format is CartonFormat.MAXI
    assert maxi.diagonals == (frozenset({1, 20, 39, 58, 90}), frozenset({73, 56, 39, 22, 18}))
    assert len(maxi.numbers) == 25
    assert maxi.rows[4] == frozenset({18, 36, 54, 72, 90})


def test_carton_round_trips_through_rows() -> None:
    for carton in (*generate_strip(random.Random(5)), generate_maxi(random.Random(5))):
        assert Carton.from_rows(carton.to_rows()) == carton
        assert carton.to_rows() == [list(r) for r in carton.grid]
