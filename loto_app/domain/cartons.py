"""Cartons: the players' grids, and how a série of them is generated.

A classique (or spécial, or vitrine) carton is a 3x9 grid holding 15 numbers, 5 per row; column k
holds numbers of its decade (1-9, 10-19, ..., 80-90), rising downwards, and every column holds at
least one number. Cartons are generated in planches (strips) of 6 that together hold 1-90 exactly
once. A maxiquine carton is a 5x5 grid of 25 numbers, column k from the k-th fifth of 1-90.

Randomness comes from the caller: a `random.Random` (seeded, for tests) or, by default,
`secrets.SystemRandom()`.

How a strip is drawn (`generate_strip`)
---------------------------------------
The target is the uniform law over all valid strips (ordered 6-tuples of cartons; there are
467,711,541,132,248,468,278,363,019,351,514,108,076,722,415,153,589,853,880,320,000,000,000,000,000
~= 4.68e77 of them). A strip factors into three layers, each drawn exactly:

1. The count matrix C (6 cartons x 9 columns, entries 1-3, carton sums 15, column sums
   9, 10, ..., 10, 11). Under the uniform law, P(C) is proportional to
   prod_i M(a_i) * prod_{i,k} 1 / C[i][k]!, where a_i is the number of full (3-number) columns of
   carton i and M(a) in {1710, 639, 240, 90} the number of row placements of such a carton (the
   product of factorials counts the ways to deal each column's numbers to the cartons). C is
   unranked from one uniform integer through an exact column-by-column dynamic programme over the
   sorted carton partial sums (211 states), with the product-form proposal weight 16, 8, 1 for
   counts 1, 2, 3; the remaining factor prod_i M(a_i) * (8/3)^a_i is not a product over columns
   and is corrected by exact rejection (acceptance probability >= 0.979). The 6 cartons are then
   put in a uniformly random order.
2. The row placement (mask) of each carton: uniform among the M(a_i) placements matching its
   column counts (enumerated exactly per number of full columns, then spread onto its columns).
3. The numbers: in every column, a uniformly random assignment of the column's numbers to the
   cartons (with the counts of C), sorted downwards. It is obtained by sorting 45-bit random keys;
   a key collision inside a column (probability < 1.2e-11 per strip) resolves by carton order,
   so the law of the strip is within 1.2e-11 total-variation distance of exactly uniform.

Every valid strip therefore has positive probability, and the random integers come from
`randrange`/`getrandbits` (exact), two calls per strip (plus one per rejection, ~2% of strips):
with `secrets.SystemRandom` that is two `os.urandom` reads.

Uniform over strips is not uniform over layouts (a layout being the cartons' masks, without the
numbers): a layout's probability is proportional to its number of deals, prod_k s_k! /
prod_{i,k} C[i][k]!, so layouts whose cartons have fewer full columns are favoured (a carton
with a full columns weighs 4^a/6^a against a = 0; across a strip up to a factor ~1.5e3). That is
the price of every concrete strip being equally likely, which is what a fair draw requires.

The tables (211 DP states, 10,691 options, 2,679 placement shapes, 1,554 count vectors; ~5 MB)
are built on first use, in about 0.1 s. A strip then costs about 30 microseconds.
"""

from __future__ import annotations

import random
import secrets
import struct
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import permutations, product
from math import prod
from operator import add, itemgetter
from typing import Any, NamedTuple

Cell = int | None
Grid = tuple[tuple[Cell, ...], ...]

CLASSIC_ROWS = 3
CLASSIC_COLUMNS = 9
NUMBERS_PER_ROW = 5
STRIP_SIZE = 6
MAXI_SIZE = 5

#: Number range of each classique column (inclusive bounds).
CLASSIC_COLUMN_RANGES: tuple[tuple[int, int], ...] = (
    (1, 9),
    (10, 19),
    (20, 29),
    (30, 39),
    (40, 49),
    (50, 59),
    (60, 69),
    (70, 79),
    (80, 90),
)
#: Number range of each maxiquine column (inclusive bounds).
MAXI_COLUMN_RANGES: tuple[tuple[int, int], ...] = (
    (1, 18),
    (19, 36),
    (37, 54),
    (55, 72),
    (73, 90),
)


class CartonFormat(StrEnum):
    """The shape of a grid."""

    CLASSIC = "3x9"
    MAXI = "5x5"


@dataclass(frozen=True, slots=True)
class Carton:
    """One grid of numbers: an immutable value object.

    Attributes:
        grid: rows of cells, each an `int` or `None` (3 rows of 9 cells for the classique
            format, 5 rows of 5 for maxiquine).
    """

    grid: Grid

    @property
    def format(self) -> CartonFormat:
        """The grid's shape."""
        return CartonFormat.MAXI if len(self.grid[0]) == MAXI_SIZE else CartonFormat.CLASSIC

    @property
    def numbers(self) -> frozenset[int]:
        """Every number on the carton."""
        return frozenset(c for row in self.grid for c in row if c is not None)

    @property
    def rows(self) -> tuple[frozenset[int], ...]:
        """The numbers of each row (the lines of a quine)."""
        return tuple(frozenset(c for c in row if c is not None) for row in self.grid)

    @property
    def diagonals(self) -> tuple[frozenset[int], ...]:
        """The two diagonals of a maxiquine grid (empty for the classique format)."""
        if self.format is not CartonFormat.MAXI:
            return ()
        n = len(self.grid)
        return (
            frozenset(self.grid[i][i] for i in range(n)),  # type: ignore[misc]
            frozenset(self.grid[i][n - 1 - i] for i in range(n)),  # type: ignore[misc]
        )

    def to_rows(self) -> list[list[Cell]]:
        """The grid as plain lists (for JSON)."""
        return [list(r) for r in self.grid]

    @classmethod
    def from_rows(cls, rows: list[list[Cell]]) -> Carton:
        """Rebuild a carton from `to_rows()` output."""
        return cls(tuple(tuple(c for c in r) for r in rows))


def default_rng() -> random.Random:
    """The production source of randomness: the operating system's CSPRNG."""
    return secrets.SystemRandom()


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------

#: Numbers a classique carton holds.
CLASSIC_NUMBERS = NUMBERS_PER_ROW * CLASSIC_ROWS
#: Numbers 1-90 of a strip.
STRIP_NUMBERS = CLASSIC_COLUMN_RANGES[-1][1]


def _is_number(cell: object) -> bool:
    return isinstance(cell, int) and not isinstance(cell, bool)


def _check_shape(carton: Carton, rows: int, columns: int, what: str) -> Grid:
    grid: Any = getattr(carton, "grid", None)
    if not isinstance(grid, tuple) or len(grid) != rows:
        raise ValueError(f"{what} carton must have {rows} rows (grid={grid!r})")
    for r, row in enumerate(grid):
        if not isinstance(row, tuple) or len(row) != columns:
            raise ValueError(f"{what} carton row {r + 1} must be a tuple of {columns} cells")
        for k, cell in enumerate(row):
            if cell is not None and not _is_number(cell):
                raise ValueError(
                    f"{what} carton cell (row {r + 1}, column {k + 1}) holds {cell!r}, "
                    "expected an int or None"
                )
    return grid  # type: ignore[no-any-return]


def _check_columns(
    grid: Grid, ranges: tuple[tuple[int, int], ...], what: str, *, full: bool
) -> None:
    """Check column ranges, rising order and non-empty (or full) columns, then distinctness."""
    for k, (lo, hi) in enumerate(ranges):
        column = [(r, row[k]) for r, row in enumerate(grid) if row[k] is not None]
        if not column:
            raise ValueError(f"{what} carton column {k + 1} ({lo}-{hi}) is empty")
        if full and len(column) != len(grid):
            raise ValueError(f"{what} carton column {k + 1} ({lo}-{hi}) has an empty cell")
        previous: int | None = None
        for r, number in column:
            assert number is not None
            if not lo <= number <= hi:
                raise ValueError(
                    f"{what} carton column {k + 1} ({lo}-{hi}) holds {number} at row {r + 1}"
                )
            if previous is not None and number <= previous:
                raise ValueError(
                    f"{what} carton column {k + 1} is not rising downwards: "
                    f"{number} at row {r + 1} is below {previous}"
                )
            previous = number
    seen: set[int] = set()
    for row in grid:
        for cell in row:
            if cell is not None:
                if cell in seen:  # unreachable with disjoint rising columns; kept as a guard
                    raise ValueError(f"{what} carton holds {cell} twice")
                seen.add(cell)


def validate_classic(carton: Carton) -> None:
    """Check that a carton is a valid classique grid (also spécial and vitrine cartons).

    Rules: 3 rows of 9 cells; each cell an `int` or `None`; exactly 5 numbers per row; column k
    holds only numbers of its range (1-9, 10-19, ..., 70-79, 80-90), rising from top to bottom;
    every column holds at least one number; no number twice.

    Args:
        carton: the carton to check.

    Raises:
        ValueError: with a precise message naming the first broken rule.
    """
    grid = _check_shape(carton, CLASSIC_ROWS, CLASSIC_COLUMNS, "classique")
    for r, row in enumerate(grid):
        count = sum(cell is not None for cell in row)
        if count != NUMBERS_PER_ROW:
            raise ValueError(
                f"classique carton row {r + 1} holds {count} numbers, expected {NUMBERS_PER_ROW}"
            )
    _check_columns(grid, CLASSIC_COLUMN_RANGES, "classique", full=False)


def validate_strip(cartons: Sequence[Carton]) -> None:
    """Check that cartons form a valid planche: 6 valid classique cartons holding 1-90 once.

    Args:
        cartons: the cartons of the strip, in order.

    Raises:
        ValueError: with a precise message: which carton breaks which rule, or which numbers the
            strip holds twice (and in which cartons) and which it misses.
    """
    if len(cartons) != STRIP_SIZE:
        raise ValueError(f"a strip holds {STRIP_SIZE} cartons, got {len(cartons)}")
    owners: dict[int, list[int]] = {}
    for i, carton in enumerate(cartons):
        try:
            validate_classic(carton)
        except ValueError as error:
            raise ValueError(f"strip carton {i + 1}: {error}") from None
        for number in carton.numbers:
            owners.setdefault(number, []).append(i + 1)
    twice = [
        f"{n} (cartons {', '.join(map(str, owners[n]))})"
        for n in sorted(owners)
        if len(owners[n]) > 1
    ]
    missing = [str(n) for n in range(1, STRIP_NUMBERS + 1) if n not in owners]
    if twice or missing:
        problems = []
        if twice:
            problems.append(f"holds more than once {'; '.join(twice)}")
        if missing:
            problems.append(f"is missing {', '.join(missing)}")
        raise ValueError(f"strip {' and '.join(problems)}")


def validate_maxi(carton: Carton) -> None:
    """Check that a carton is a valid maxiquine grid.

    Rules: 5 rows of 5 numbers (no empty cell); column k holds numbers of the k-th fifth of 1-90
    (1-18, 19-36, 37-54, 55-72, 73-90), rising from top to bottom; 25 distinct numbers.

    Args:
        carton: the carton to check.

    Raises:
        ValueError: with a precise message naming the first broken rule.
    """
    grid = _check_shape(carton, MAXI_SIZE, MAXI_SIZE, "maxiquine")
    _check_columns(grid, MAXI_COLUMN_RANGES, "maxiquine", full=True)


# --------------------------------------------------------------------------------------------
# Strip generation: tables (built once, on first use)
# --------------------------------------------------------------------------------------------

_CARTON_CELLS = CLASSIC_ROWS * CLASSIC_COLUMNS
#: Size of each classique column's range: 9, 10, ..., 10, 11 (the column sums of a strip).
_COLUMN_SIZES: tuple[int, ...] = tuple(hi - lo + 1 for lo, hi in CLASSIC_COLUMN_RANGES)
#: Proposal weight of a count 1, 2, 3: proportional to (1/c!) * (3/8 if c == 3 else 1).
_PROPOSAL_WEIGHT = {1: 16, 2: 8, 3: 1}
#: Row placements M(a) of a carton with a full (3-number) columns (see `_placements`).
_PLACEMENTS_BY_FULL = (1710, 639, 240, 90)
#: Exact rejection: draw d in range(_ACCEPT_RADIX), accept iff d < M(a) * step(a) with
#: step(a) = 27 * (8/3)^a, i.e. with probability M(a) * (8/3)^a / 1710 (1 for a = 0, >= 0.9965);
#: then the placement index d // step(a) is uniform over the M(a) placements.
_ACCEPT_RADIX = 46170
_ACCEPT_STEP = (27, 72, 192, 512)
#: A tracker word is partial_sum << _SUM_SHIFT | code, code = sum((count_k - 1) * 3^k) < 3^9.
_SUM_SHIFT = 20
_DIGIT = tuple(3**k for k in range(CLASSIC_COLUMNS))
#: Sort keys are positive IEEE doubles (little-endian): exponent 1023 + column, then a 52-bit
#: mantissa = 45 random bits | canonical rank of the column in its carton (4 bits) | carton (3).
_KEY_EXPONENT_SHIFT = 52
_KEY_RANDOM_SHIFT = 7
_KEY_RANDOM_BITS = 45
_KEY_RANK_SHIFT = 3
_KEYS = struct.Struct(f"<{STRIP_NUMBERS}d")
#: A group is a (carton, column) pair; its id is carton * 9 + canonical rank of the column
#: (< 54 = _GROUPS). The low byte of a key, translated by this table, is its slot's group id.
_GROUPS = STRIP_SIZE * CLASSIC_COLUMNS
_GROUP_OF_KEY_BYTE = bytes(
    (b & 7) * CLASSIC_COLUMNS + (b >> _KEY_RANK_SHIFT & 15) for b in range(256)
)
#: The 27 values of carton i, as indexes into smallest[:54] + second[:54] + largest[:54] (the
#: smallest, 2nd smallest and largest number of each group): for n in (smallest, 2nd, largest),
#: for each of its 9 groups in canonical column order (see `_row_getters`).
_DEAL_LAYOUT = bytes(
    n * _GROUPS + i * CLASSIC_COLUMNS + j
    for i in range(STRIP_SIZE)
    for n in range(CLASSIC_ROWS)
    for j in range(CLASSIC_COLUMNS)
)
_NUMBERS = bytes(range(1, STRIP_NUMBERS + 1))
_NUMBERS_DOWN = _NUMBERS[::-1]
_NUMBERS_INT = int.from_bytes(_NUMBERS, "little")
_LOW7 = int.from_bytes(b"\x7f" * STRIP_NUMBERS, "little")
_ALL_ONES = (1 << (8 * STRIP_NUMBERS)) - 1
_TABLE_PAD = bytes(256 - 3 * _GROUPS)
_CARTON_ORDERS = 720  # 6!
_CARTON_STARTS = tuple(range(0, STRIP_SIZE * _CARTON_CELLS, _CARTON_CELLS))

_Getter = Callable[[Sequence[int | None]], tuple[Any, ...]]


class _CartonInfo(NamedTuple):
    """What a carton's count vector fixes (keyed by its final tracker word)."""

    limit: int  # accept the placement draw d iff d < limit
    step: int  # placement index = d // step
    rows: tuple[tuple[_Getter, _Getter, _Getter], ...]  # per placement, row getters (canonical)
    spread: _Getter  # canonical column order -> actual column order
    key_pattern: bytes  # exponent and rank bits of the carton's 15 sort keys


class _StripTables(NamedTuple):
    root: tuple[tuple[int, ...], tuple[Any, ...]]
    paths: int  # total proposal weight: C is unranked from randrange(paths)
    radix: int  # paths * 6! * _ACCEPT_RADIX**6
    orders: tuple[_Getter, ...]  # the 720 orders of 6 cartons
    cartons: dict[int, _CartonInfo]
    random_mask: int
    label_pattern: int


def _count_vectors(total: int, length: int) -> list[tuple[int, ...]]:
    """All vectors of counts 1-3 of the given length and sum, in lexicographic order."""
    return [v for v in product((1, 2, 3), repeat=length) if sum(v) == total]


def _build_count_tables() -> tuple[tuple[tuple[int, ...], tuple[Any, ...]], int]:
    """The column-by-column unranking tables of the count matrix (proposal law).

    A state is the sorted tuple of the 6 cartons' partial sums (211 states over the 10 levels).
    For a state, the options are the column vectors v (in the state's order) that leave every
    carton able to reach 15; option j covers `[ends[j-1], ends[j])` of the state's weight, i.e.
    weight(v) times the weight of the next state, and records (start, weight of the next state,
    next table, tracker increments).

    Returns:
        The root table and its total weight.
    """
    per_carton = CLASSIC_NUMBERS
    vectors = {s: _count_vectors(s, STRIP_SIZE) for s in set(_COLUMN_SIZES)}
    weight = {v: prod(_PROPOSAL_WEIGHT[c] for c in v) for vs in vectors.values() for v in vs}
    start = (0,) * STRIP_SIZE
    levels = [{start}]
    for k, size in enumerate(_COLUMN_SIZES):
        left = CLASSIC_COLUMNS - k - 1
        reachable = set()
        for state in levels[-1]:
            for v in vectors[size]:
                nxt = tuple(sorted(map(add, state, v)))
                if nxt[-1] + left <= per_carton <= nxt[0] + 3 * left:
                    reachable.add(nxt)
        levels.append(reachable)
    end = (per_carton,) * STRIP_SIZE
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}
    totals: dict[tuple[int, ...], int] = {end: 1}
    tables: dict[tuple[int, ...], Any] = {end: ((), ())}
    for k in reversed(range(CLASSIC_COLUMNS)):
        new_totals: dict[tuple[int, ...], int] = {}
        new_tables: dict[tuple[int, ...], Any] = {}
        for state in levels[k]:
            ends: list[int] = []
            options: list[tuple[int, int, Any, tuple[int, ...]]] = []
            acc = 0
            for v in vectors[_COLUMN_SIZES[k]]:
                nxt = tuple(sorted(map(add, state, v)))
                g = totals.get(nxt)
                if g is None:
                    continue
                steps = tuple((c << _SUM_SHIFT) + (c - 1) * _DIGIT[k] for c in v)
                options.append((acc, g, tables[nxt], shared.setdefault(steps, steps)))
                acc += weight[v] * g
                ends.append(acc)
            if acc:
                new_totals[state] = acc
                new_tables[state] = (tuple(ends), tuple(options))
        totals, tables = new_totals, new_tables
    return tables[start], totals[start]


def _placements(full: int) -> tuple[tuple[int, ...], ...]:
    """Every row placement of a carton with `full` 3-number columns, in canonical column order.

    Canonical order: the `full` 3-number columns, then the b = 6 - 2*full 2-number columns, then
    the d = 3 + full 1-number columns (each group in column order). A column code has bit r set
    when row r holds a number. A 2-number column misses one row x, a 1-number column fills one
    row y; every row holds 5 numbers iff, for each row, #(y equal to it) = #(x equal to it) +
    full - 1. Returns the M(full) code tuples.
    """
    doubles = 6 - 2 * full
    singles = 3 + full
    by_counts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for ys in product(range(CLASSIC_ROWS), repeat=singles):
        by_counts.setdefault(tuple(ys.count(r) for r in range(CLASSIC_ROWS)), []).append(ys)
    out = []
    for xs in product(range(CLASSIC_ROWS), repeat=doubles):
        need = tuple(xs.count(r) + full - 1 for r in range(CLASSIC_ROWS))
        for ys in by_counts.get(need, ()):
            out.append((7,) * full + tuple(7 ^ (1 << x) for x in xs) + tuple(1 << y for y in ys))
    return tuple(out)


def _row_getters(codes: tuple[int, ...]) -> tuple[_Getter, _Getter, _Getter]:
    """Getters building each row (canonical column order) of a carton with this placement.

    They read the carton's 28 values: the smallest number of each column (canonical order),
    then the 2nd smallest of each, then the largest of each, then `None` (the empty cells). A
    column's numbers go to its filled rows top to bottom: 1 number -> smallest; 2 -> smallest,
    largest; 3 -> smallest, 2nd smallest, largest.
    """
    empty = CLASSIC_ROWS * CLASSIC_COLUMNS
    index: list[list[int]] = [[empty] * CLASSIC_COLUMNS for _ in range(CLASSIC_ROWS)]
    for j, code in enumerate(codes):
        rows = [r for r in range(CLASSIC_ROWS) if code >> r & 1]
        ranks = {1: (0,), 2: (0, 2), 3: (0, 1, 2)}[len(rows)]
        for r, n in zip(rows, ranks, strict=True):
            index[r][j] = n * CLASSIC_COLUMNS + j
    top, middle, bottom = (itemgetter(*row) for row in index)
    return top, middle, bottom


@cache
def _strip_tables() -> _StripTables:
    """Build every table `generate_strip` uses (about 0.1 s, once per process)."""
    root, paths = _build_count_tables()
    placements = tuple(_placements(a) for a in range(4))
    assert tuple(map(len, placements)) == _PLACEMENTS_BY_FULL
    rows = tuple(tuple(map(_row_getters, p)) for p in placements)
    cartons: dict[int, _CartonInfo] = {}
    for counts in _count_vectors(CLASSIC_NUMBERS, CLASSIC_COLUMNS):
        code = sum((c - 1) * d for c, d in zip(counts, _DIGIT, strict=True))
        full = counts.count(3)
        canonical = [k for c in (3, 2, 1) for k in range(CLASSIC_COLUMNS) if counts[k] == c]
        cartons[CLASSIC_NUMBERS << _SUM_SHIFT | code] = _CartonInfo(
            limit=_PLACEMENTS_BY_FULL[full] * _ACCEPT_STEP[full],
            step=_ACCEPT_STEP[full],
            rows=rows[full],
            spread=itemgetter(*map(canonical.index, range(CLASSIC_COLUMNS))),
            key_pattern=b"".join(
                (
                    (1023 + k) << _KEY_EXPONENT_SHIFT | canonical.index(k) << _KEY_RANK_SHIFT
                ).to_bytes(8, "little")
                for k in range(CLASSIC_COLUMNS)
                for _ in range(counts[k])
            ),
        )
    return _StripTables(
        root=root,
        paths=paths,
        radix=paths * _CARTON_ORDERS * _ACCEPT_RADIX**STRIP_SIZE,
        orders=tuple(itemgetter(*p) for p in permutations(range(STRIP_SIZE))),
        cartons=cartons,
        random_mask=sum(
            ((1 << _KEY_RANDOM_BITS) - 1) << (64 * g + _KEY_RANDOM_SHIFT)
            for g in range(STRIP_NUMBERS)
        ),
        label_pattern=sum((g // CLASSIC_NUMBERS) << (64 * g) for g in range(STRIP_NUMBERS)),
    )


# --------------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------------


def generate_strip(rng: random.Random | None = None) -> tuple[Carton, ...]:
    """Draw a planche: 6 classique cartons that together hold 1-90 exactly once.

    The law is uniform over all valid strips up to a total-variation distance below 1.2e-11
    (see the module docstring), so every valid layout can come out. Two calls to `rng` per strip
    (one more per rejection, about 2% of strips).

    Args:
        rng: the source of randomness; defaults to `default_rng()` (the OS CSPRNG).

    Returns:
        The 6 cartons, each valid for `validate_classic`, together valid for `validate_strip`.
    """
    if rng is None:
        rng = default_rng()
    t = _strip_tables()
    cartons = t.cartons
    while True:
        # 1. The count matrix, unranked column by column. `tracker` holds, for each carton in
        #    order of partial sum, its tracker word (partial sum, base-3 code of its counts).
        rest, u = divmod(rng.randrange(t.radix), t.paths)
        ends, options = t.root
        tracker = [0] * STRIP_SIZE
        for _ in _COLUMN_SIZES:
            start, width, (ends, options), steps = options[bisect_right(ends, u)]
            u = (u - start) % width
            tracker = sorted(map(add, tracker, steps))
        # 2. A uniform carton order, the exact rejection and each carton's row placement.
        rest, order = divmod(rest, _CARTON_ORDERS)
        chosen = tuple(map(cartons.__getitem__, t.orders[order](tracker)))
        layouts = []
        for limit, step, rows, spread, _ in chosen:
            rest, d = divmod(rest, _ACCEPT_RADIX)
            if d >= limit:
                break
            layouts.append((*rows[d // step], spread))
        else:
            break
    # 3. The numbers. Each carton's 15 slots (c_k in column k) get a sort key (column, 45 random
    #    bits, canonical rank of the column, carton); sorting the 90 keys deals number n to the
    #    slot of the n-th key: in each column, a uniformly random assignment of its numbers to
    #    the cartons. The low byte of the n-th key names the group (carton, column) of n; three
    #    translation tables give each group's smallest, 2nd smallest and largest number, which
    #    fill the column's cells top to bottom.
    pattern = int.from_bytes(b"".join([info.key_pattern for info in chosen]), "little")
    keys = rng.getrandbits(64 * STRIP_NUMBERS) & t.random_mask | t.label_pattern | pattern
    ranked = _KEYS.pack(*sorted(_KEYS.unpack(keys.to_bytes(_KEYS.size, "little"))))
    groups = ranked[::8].translate(_GROUP_OF_KEY_BYTE)  # group of number n at index n - 1
    # bytes.maketrans keeps the last pair for a repeated key: group -> largest / smallest number.
    largest = bytes.maketrans(groups, _NUMBERS)
    smallest = bytes.maketrans(groups[::-1], _NUMBERS_DOWN)
    # Hide each group's smallest number (group id 255) to find its 2nd smallest: x has a zero
    # byte exactly where number n is the smallest of its group; z has 0x80 at those bytes.
    x = int.from_bytes(groups.translate(smallest), "little") ^ _NUMBERS_INT
    z = (((x & _LOW7) + _LOW7) | x | _LOW7) ^ _ALL_ONES
    others = (int.from_bytes(groups, "little") | (z >> 7) * 255).to_bytes(STRIP_NUMBERS, "little")
    second = bytes.maketrans(others[::-1], _NUMBERS_DOWN)
    dealt = _DEAL_LAYOUT.translate(
        smallest[:_GROUPS] + second[:_GROUPS] + largest[:_GROUPS] + _TABLE_PAD
    )
    strip = []
    for (top, middle, bottom, spread), start in zip(layouts, _CARTON_STARTS, strict=False):
        values = (*dealt[start : start + _CARTON_CELLS], None)
        strip.append(Carton((spread(top(values)), spread(middle(values)), spread(bottom(values)))))
    return tuple(strip)


def generate_vitrine(rng: random.Random | None = None) -> tuple[Carton, Carton, Carton]:
    """Draw a vitrine unit: 3 classique-format cartons with disjoint numbers.

    They are the first 3 cartons of a freshly drawn strip (whose carton order is random).

    Args:
        rng: the source of randomness; defaults to `default_rng()`.

    Returns:
        3 cartons, each valid for `validate_classic`, no number on two of them.
    """
    first, second, third, *_ = generate_strip(rng)
    return first, second, third


def generate_maxi(rng: random.Random | None = None) -> Carton:
    """Draw a maxiquine carton: 5x5 numbers, column k from the k-th fifth of 1-90, rising.

    Each column is a uniformly random 5-subset of its range, so the law is uniform over all
    valid maxiquine grids.

    Args:
        rng: the source of randomness; defaults to `default_rng()`.

    Returns:
        A carton valid for `validate_maxi`.
    """
    if rng is None:
        rng = default_rng()
    columns = [sorted(rng.sample(range(lo, hi + 1), MAXI_SIZE)) for lo, hi in MAXI_COLUMN_RANGES]
    return Carton(tuple(zip(*columns, strict=True)))
