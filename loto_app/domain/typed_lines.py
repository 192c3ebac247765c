"""A claim on a carton that is in no list, judged on the lines the contrôleur types.

Many players keep a carton of their own (an old one, a supplier's): the app knows nothing of
it. The contrôleur types the numbers of the claimed line(s) — one line for a quine, two for a
double quine, three (the 15 numbers) for a carton plein, a vitrine's cartons three lines each,
a maxiquine's five lines or its diagonal — and the claim is judged on them the way the hall's
controller does (`verdicts.judge`): valid only when every typed number was drawn and the last
number drawn is on one of the lines (docs/RULES.md, "Claims").

What is typed must look like what the stage needs: the right number of lines of 5 numbers,
numbers 1-90, none twice, and each line a plausible carton row (at most one number per column:
1-9, 10-19, ..., 80-90 on a classique grid; the fifths of 1-90 on a maxiquine). Anything else
is a typing slip, refused (`InvalidTypedLines`) before any verdict: a slip never annuls a
carton.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loto_app.domain import errors as err
from loto_app.domain.carton_kinds import Grid
from loto_app.domain.cartons import CLASSIC_COLUMN_RANGES, MAXI_COLUMN_RANGES
from loto_app.domain.patterns import Pattern
from loto_app.domain.verdicts import Verdict

LINE_LENGTH = 5  # a carton's row, a maxiquine's row or diagonal: 5 numbers
MAX_TYPED_LINES = 9  # a vitrine's three cartons

#: How many lines the contrôleur types for each pattern, on each grid (None: not on that grid)
_LINES: dict[Pattern, dict[Grid, int]] = {
    Pattern.ONE_LINE: {Grid.CLASSIC: 1, Grid.MAXI: 1},
    Pattern.TWO_LINES: {Grid.CLASSIC: 2, Grid.MAXI: 2},
    Pattern.FULL_CARD: {Grid.CLASSIC: 3, Grid.MAXI: 5},
    Pattern.ONE_CARD: {Grid.CLASSIC: 3},
    Pattern.TWO_CARDS: {Grid.CLASSIC: 6},
    Pattern.THREE_CARDS: {Grid.CLASSIC: 9},
    Pattern.DIAGONAL: {Grid.MAXI: 1},
}


def lines_needed(pattern: Pattern | str, grid: Grid) -> int:
    """How many lines of 5 numbers the contrôleur types for this pattern (0: the pattern
    cannot be checked on typed lines: the inversée, whose winner the app finds)."""
    try:
        return _LINES.get(Pattern(pattern), {}).get(grid, 0)
    except ValueError:
        return 0


def column_of(number: int, grid: Grid) -> int:
    """The column of a carton where a number stands (0-based)."""
    ranges = MAXI_COLUMN_RANGES if grid is Grid.MAXI else CLASSIC_COLUMN_RANGES
    return next(k for k, (lo, hi) in enumerate(ranges) if lo <= number <= hi)


def check_lines(
    pattern: Pattern | str, grid: Grid, lines: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], ...]:
    """The typed lines, checked against what the stage needs, each sorted.

    Raises:
        InvalidTypedLines: with a French message saying what is wrong (and which line).
    """
    needed = lines_needed(pattern, grid)
    if not needed:
        raise err.InvalidTypedLines(
            f"pattern {pattern} on {grid} is not checked on typed lines",
            "Cette partie ne se contrôle pas sur des lignes tapées.",
        )
    if not isinstance(lines, list | tuple) or len(lines) != needed:
        got = len(lines) if isinstance(lines, list | tuple) else "?"
        raise err.InvalidTypedLines(
            f"{got} lines typed, {needed} needed",
            f"Cette annonce se contrôle sur {_lines_word(needed)} de {LINE_LENGTH} numéros.",
        )
    seen: dict[int, int] = {}
    out: list[tuple[int, ...]] = []
    for i, line in enumerate(lines, 1):
        where = f"Ligne {i}" if needed > 1 else "La ligne"
        if not isinstance(line, list | tuple) or not all(_is_int(n) for n in line):
            raise err.InvalidTypedLines(f"line {i}: {line!r:.60}", f"{where}\u00a0: des numéros.")
        if len(line) != LINE_LENGTH:
            raise err.InvalidTypedLines(
                f"line {i}: {len(line)} numbers",
                f"{where}\u00a0: {len(line)} numéro(s) tapé(s), il en faut {LINE_LENGTH}.",
            )
        bad = [n for n in line if not 1 <= n <= 90]
        if bad:
            raise err.InvalidTypedLines(
                f"line {i}: {bad} out of 1-90", f"{where}\u00a0: le {bad[0]} n'est pas de 1 à 90."
            )
        for n in line:
            if n in seen:
                again = f"tapé deux fois (ligne {seen[n]})" if seen[n] != i else "tapé deux fois"
                raise err.InvalidTypedLines(
                    f"line {i}: {n} twice", f"{where}\u00a0: le {n} est {again}."
                )
            seen[n] = i
        columns: dict[int, int] = {}
        for n in sorted(line):
            col = column_of(n, grid)
            if col in columns:
                raise err.InvalidTypedLines(
                    f"line {i}: {columns[col]} and {n} in one column",
                    f"{where}\u00a0: le {columns[col]} et le {n} sont dans la même colonne "
                    f"({_column_words(col, grid)})\u00a0: une ligne de carton n'en a qu'un.",
                )
            columns[col] = n
        out.append(tuple(sorted(line)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TypedJudgement:
    """The verdict of typed lines: VALID, LATE (tour passé) or FALSE (fausse annonce); the
    typed numbers not drawn (for a fausse annonce); the winning numbers (the lines, when
    valid)."""

    verdict: Verdict
    missing: tuple[int, ...] = ()
    winning: tuple[int, ...] = ()


def judge_typed(lines: Sequence[Sequence[int]], drawn: Sequence[int]) -> TypedJudgement:
    """Judge checked typed lines (`check_lines`) against the numbers drawn, in order.

    Returns:
        FALSE with the numbers not drawn when some are (the pattern is not complete);
        LATE when every number was drawn but the last number drawn is on none of the lines
        (they were complete before it: tour passé); VALID otherwise, the lines winning.
    """
    numbers = sorted({n for line in lines for n in line})
    out = set(drawn)
    missing = tuple(n for n in numbers if n not in out)
    if missing or not drawn:
        return TypedJudgement(Verdict.FALSE, missing or tuple(numbers))
    if drawn[-1] not in numbers:
        return TypedJudgement(Verdict.LATE)
    return TypedJudgement(Verdict.VALID, (), tuple(numbers))


def _is_int(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)


def _lines_word(n: int) -> str:
    return "une ligne" if n == 1 else f"{n} lignes"


def _column_words(col: int, grid: Grid) -> str:
    ranges = MAXI_COLUMN_RANGES if grid is Grid.MAXI else CLASSIC_COLUMN_RANGES
    lo, hi = ranges[col]
    return f"{lo} à {hi}"
