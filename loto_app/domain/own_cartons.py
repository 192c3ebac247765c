"""The association's own cartons: cartons the app did not print (bought from a supplier, or rigid
cartons reused every year), registered by the organiser as a série of their own.

Their numbers are the ones printed on them, so they may be the same as the app's série numbers
(carton 12 of the app and carton 12 of the supplier's box): each own série has a name given by
the organiser (“ROUGE”), and inside the engine its cartons are numbered apart from the app's,
`base + printed number`, with `base` a multiple of `OWN_BASE` (1,000,000) that no app carton
reaches. Every screen and record names such a carton by its série and printed number
(`carton_label`: « ROUGE n° 347 »), never by the engine's number.

A carton is given as its 15 numbers in reading order (row 1's five, row 2's five, row 3's five);
`grid_of` places each number in the column of its decade and checks the classique rules
(`cartons.validate_classic`), saying in French what is wrong. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from loto_app.domain.cartons import (
    CLASSIC_COLUMN_RANGES,
    CLASSIC_COLUMNS,
    CLASSIC_NUMBERS,
    CLASSIC_ROWS,
    NUMBERS_PER_ROW,
    Carton,
    validate_classic,
)

#: the engine numbers an own série's cartons from a multiple of this (above any app number)
OWN_BASE = 1_000_000
#: the highest number printed on an own carton
MAX_OWN_NO = 99_999
#: own séries an evening may have
MAX_OWN_SERIES = 9
#: an own série's name (characters)
MAX_SERIES_NAME = 16
_NAME = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ÿ0-9][A-Za-zÀ-ÖØ-öø-ÿ0-9 '\-]*$")


class BadOwnCarton(ValueError):
    """A carton that is not a valid classique carton: `str()` in English, `french` for the
    organiser."""

    def __init__(self, detail: str, french: str) -> None:
        super().__init__(detail)
        self.french = french


def is_own(no: int) -> bool:
    """Is this engine number an own carton's?"""
    return no >= OWN_BASE


def printed_no(no: int) -> int:
    """The number printed on a carton (an app carton's is its engine number)."""
    return no % OWN_BASE if is_own(no) else no


def carton_label(no: int, series_names: Mapping[int, str]) -> str:
    """How every screen names a carton: « 12 » for the app's, « ROUGE n° 347 » for an own
    série's (`series_names`: base -> name)."""
    if not is_own(no):
        return str(no)
    name = series_names.get(no - no % OWN_BASE, "?")
    return f"{name} n°\u00a0{no % OWN_BASE}"


def clean_series_name(name: object) -> str:
    """An own série's name as the organiser typed it: letters, digits, spaces, ' and -, 1 to
    16 characters, spaces collapsed; upper case (it is read out and compared that way).

    Raises:
        BadOwnCarton: an empty, too long or odd name.
    """
    if not isinstance(name, str):
        raise BadOwnCarton(f"series name {name!r:.30}", "Donnez un nom à la série.")
    clean = " ".join(name.split()).upper()
    if not clean:
        raise BadOwnCarton("empty series name", "Donnez un nom à la série (ex. ROUGE).")
    if len(clean) > MAX_SERIES_NAME or not _NAME.match(clean):
        raise BadOwnCarton(
            f"series name {name!r:.30}",
            f"Nom de série : lettres et chiffres, {MAX_SERIES_NAME} caractères au plus.",
        )
    return clean


def _column(n: int) -> int:
    return next(k for k, (lo, hi) in enumerate(CLASSIC_COLUMN_RANGES) if lo <= n <= hi)


def _decade(k: int) -> str:
    lo, hi = CLASSIC_COLUMN_RANGES[k]
    return f"{lo} à {hi}"


def grid_of(numbers: Sequence[int]) -> Carton:
    """The carton whose 15 numbers are these, in reading order (a row's five may come in any
    order: each goes to the column of its decade).

    Raises:
        BadOwnCarton: not 15 numbers, a number outside 1-90 or twice, two numbers of a row in
            the same column, a column empty or not rising downwards.
    """
    if len(numbers) != CLASSIC_NUMBERS:
        raise BadOwnCarton(
            f"{len(numbers)} numbers", f"{len(numbers)} numéros au lieu de {CLASSIC_NUMBERS}"
        )
    for n in numbers:
        if not 1 <= n <= 90:
            raise BadOwnCarton(f"number {n}", f"le numéro {n} n'est pas entre 1 et 90")
    seen: set[int] = set()
    for n in numbers:
        if n in seen:
            raise BadOwnCarton(f"{n} twice", f"le numéro {n} est deux fois sur le carton")
        seen.add(n)
    rows: list[list[int | None]] = []
    for r in range(CLASSIC_ROWS):
        row: list[int | None] = [None] * CLASSIC_COLUMNS
        for n in numbers[r * NUMBERS_PER_ROW : (r + 1) * NUMBERS_PER_ROW]:
            k = _column(n)
            other = row[k]
            if other is not None:
                raise BadOwnCarton(
                    f"row {r + 1}: {other} and {n} in column {k + 1}",
                    f"ligne {r + 1} du carton : {min(other, n)} et {max(other, n)} sont dans "
                    f"la même colonne ({_decade(k)})",
                )
            row[k] = n
        rows.append(row)
    for k in range(CLASSIC_COLUMNS):
        column = [row[k] for row in rows if row[k] is not None]
        if not column:
            raise BadOwnCarton(
                f"column {k + 1} empty", f"aucun numéro de {_decade(k)} (colonne vide)"
            )
        if column != sorted(column):
            raise BadOwnCarton(
                f"column {k + 1} not rising: {column}",
                f"colonne {_decade(k)} : les numéros doivent croître de haut en bas "
                f"({', '.join(map(str, column))})",
            )
    carton = Carton(tuple(tuple(row) for row in rows))
    validate_classic(carton)  # the engine's own rule, once more
    return carton


def numbers_of(carton: Carton) -> tuple[int, ...]:
    """A classique carton's 15 numbers in reading order (what `grid_of` reads back)."""
    return tuple(n for row in carton.grid for n in row if n is not None)
