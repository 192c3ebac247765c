"""What completes a stage: each pattern is one `StageRule` that carries all of it.

A pattern is "`needed` of these target lines complete" (or, for the inversée, untouched): the
lines of a quine are a carton's rows, of a carton plein the whole carton, of a diagonal a
maxiquine's two diagonals, of a vitrine's stages its 3 cartons. The server's verdicts
(`verdicts.judge`) and the phone's hint and "plus qu'un numéro" (`targets`, read by
assets/targets.js) both start from `StageRule.lines`, so the two cannot drift. A rule also
carries its French words: its name, the claim button's shout, the last call, and what it means
in the règlement. `tests/domain/test_patterns.py` fails when a pattern lacks a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from loto_app.domain.cartons import Carton


class Pattern(StrEnum):
    """What completes a stage."""

    ONE_LINE = "one_line"  # quine
    TWO_LINES = "two_lines"  # double quine
    FULL_CARD = "full_card"  # carton plein (15 numbers, or 25 on a maxiquine)
    ONE_CARD = "one_card"  # vitrine: one of the 3 cartons complete
    TWO_CARDS = "two_cards"
    THREE_CARDS = "three_cards"
    DIAGONAL = "diagonal"  # maxiquine: either diagonal (choice)
    LAST_STANDING = "last_standing"  # partie inversée: no number of the carton drawn


class Mode(StrEnum):
    """How a target line counts."""

    COMPLETE = "complete"  # every number of the line drawn
    UNTOUCHED = "untouched"  # no number of the line drawn (the inversée)


Lines = Callable[[Sequence[Carton]], tuple[frozenset[int], ...]]


def _rows(unit: Sequence[Carton]) -> tuple[frozenset[int], ...]:
    return tuple(r for c in unit for r in c.rows)


def _whole(unit: Sequence[Carton]) -> tuple[frozenset[int], ...]:
    return tuple(c.numbers for c in unit)


def _diagonals(unit: Sequence[Carton]) -> tuple[frozenset[int], ...]:
    return tuple(d for c in unit for d in c.diagonals)


@dataclass(frozen=True, slots=True)
class StageRule:
    """Everything about one pattern.

    Attributes:
        pattern: the pattern it describes.
        label: its French name ("Quine").
        shout: the claim button's word ("QUINE"), "" when nobody claims (the server knows).
        last_call: the last call after the first valid claim ("Pas d'autre quine ?").
        meaning: what completes it, for the règlement ("une ligne complète de 5 numéros").
        lines: the target lines of a claimed unit (one carton, or a vitrine's 3).
        needed: how many of those lines complete it.
        mode: complete lines, or untouched ones (the inversée).
    """

    pattern: Pattern
    label: str
    shout: str
    last_call: str
    meaning: str
    lines: Lines
    needed: int = 1
    mode: Mode = Mode.COMPLETE

    @property
    def claimed(self) -> bool:
        """Does a player claim it (else the server finds the winners itself)?"""
        return bool(self.shout)


RULES: dict[Pattern, StageRule] = {
    r.pattern: r
    for r in (
        StageRule(
            Pattern.ONE_LINE,
            "Quine",
            "QUINE",
            "Pas d'autre quine\u202f?",
            "une ligne complète de 5 numéros",
            _rows,
        ),
        StageRule(
            Pattern.TWO_LINES,
            "Double quine",
            "DOUBLE QUINE",
            "Pas d'autre double quine\u202f?",
            "deux lignes complètes du même carton",
            _rows,
            2,
        ),
        StageRule(
            Pattern.FULL_CARD,
            "Carton plein",
            "CARTON PLEIN",
            "Pas d'autre carton plein\u202f?",
            "le carton entier",
            _whole,
        ),
        StageRule(
            Pattern.ONE_CARD,
            "Un carton",
            "CARTON",
            "Pas d'autre carton\u202f?",
            "un des 3 cartons de la vitrine complet",
            _whole,
        ),
        StageRule(
            Pattern.TWO_CARDS,
            "Deux cartons",
            "DEUX CARTONS",
            "Pas d'autres deux cartons\u202f?",
            "deux des 3 cartons de la vitrine complets",
            _whole,
            2,
        ),
        StageRule(
            Pattern.THREE_CARDS,
            "Trois cartons",
            "TROIS CARTONS",
            "Pas d'autres trois cartons\u202f?",
            "les 3 cartons de la vitrine complets",
            _whole,
            3,
        ),
        StageRule(
            Pattern.DIAGONAL,
            "Diagonale",
            "DIAGONALE",
            "Pas d'autre diagonale\u202f?",
            "l'une des deux diagonales de la grille, 5 numéros",
            _diagonals,
        ),
        StageRule(
            Pattern.LAST_STANDING,
            "Dernier carton",
            "",
            "",
            "le dernier carton dont aucun numéro n'est sorti (aucune annonce : l'appli le sait)",
            _whole,
            mode=Mode.UNTOUCHED,
        ),
    )
}


def rule(pattern: Pattern | str) -> StageRule:
    """The rule of a pattern (KeyError for an unknown one)."""
    return RULES[Pattern(pattern)]


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a unit stands on a pattern: the lines that count, and what each still misses."""

    done: tuple[frozenset[int], ...]  # complete (or untouched) lines
    missing: tuple[frozenset[int], ...]  # per target line, the numbers it still waits for
    needed: int = 1  # lines the pattern needs

    @property
    def holds(self) -> bool:
        """Is the pattern there?"""
        return len(self.done) >= self.needed

    @property
    def need(self) -> int:
        """How many numbers the unit still needs at the least (0: the pattern holds)."""
        return sum(sorted(len(m) for m in self.missing)[: self.needed])


def progress(pattern: Pattern, unit: Sequence[Carton], drawn: frozenset[int]) -> Progress:
    """The unit's lines against the numbers drawn."""
    r = rule(pattern)
    lines = r.lines(unit)
    if r.mode is Mode.UNTOUCHED:
        done = tuple(ln for ln in lines if ln.isdisjoint(drawn))
        return Progress(done, (), 1)
    return Progress(
        tuple(ln for ln in lines if ln <= drawn), tuple(ln - drawn for ln in lines), r.needed
    )


def targets(pattern: Pattern, unit: Sequence[Carton]) -> dict[str, Any]:
    """What a phone needs to tell, from its cartons' drawn cells, whether the unit completes
    the pattern and what it still needs (assets/targets.js): `{"k": needed, "lines": [...]}`
    for a claimed pattern, `{}` for one nobody claims (no hint for the inversée)."""
    r = rule(pattern)
    if not r.claimed or r.mode is not Mode.COMPLETE:
        return {}
    return {"k": r.needed, "lines": [sorted(ln) for ln in r.lines(unit)]}
