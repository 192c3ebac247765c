"""The controller's check of a claim: is the pattern there, and is the last number on it?

This is the hall's control (art. 2, 3) as a pure function of the claimed cartons and the numbers
drawn so far. Marks play no part: they are the player's pions, not evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from loto_app.domain.cartons import Carton
from loto_app.domain.patterns import Mode, Pattern, progress, rule


class Verdict(StrEnum):
    """The outcome of a claim."""

    VALID = "valid"  # pattern complete, last number on the winning line(s)
    FALSE = "false"  # fausse annonce: pattern not complete; the carton is annulled for the game
    LATE = "late"  # tour passé: the pattern held before the last number; no lot
    WRONG_SERIES = "wrong_series"  # not a carton of tonight's série (art. 10)
    NOT_IN_GAME = "not_in_game"  # a carton that does not play this game
    ANNULLED = "annulled"  # the carton was already annulled in this game
    # valid on its number, but the stage was already settled (awarded, share offered or tokens
    # drawn): recorded, never annulled, no entry; a réclamation the association settles
    AFTER_AWARD = "after_award"


VERDICT_LABELS: dict[Verdict, str] = {
    Verdict.VALID: "Annonce valide",
    Verdict.FALSE: "Fausse annonce : carton annulé pour cette partie",
    Verdict.LATE: "Tour passé : le dernier numéro n'est pas sur la ligne gagnante",
    Verdict.WRONG_SERIES: "Carton d'une autre série : nul",
    Verdict.NOT_IN_GAME: "Ce carton ne joue pas cette partie",
    Verdict.ANNULLED: "Carton déjà annulé pour cette partie",
    Verdict.AFTER_AWARD: (
        "Valide après l'attribution du lot : réclamation à régler par l'association"
    ),
}


@dataclass(frozen=True, slots=True)
class Judgement:
    """A verdict and the numbers that won (the winning line(s), card or diagonal)."""

    verdict: Verdict
    winning: frozenset[int] = frozenset()


def judge(pattern: Pattern, unit: Sequence[Carton], drawn: Sequence[int]) -> Judgement:
    """Check a claim the way the hall's controller does.

    Args:
        pattern: the pattern of the stage in play (its lines: `patterns.RULES`).
        unit: the claimed cartons: one carton, or the 3 cartons of a vitrine unit.
        drawn: the numbers drawn in this game, in order; the claim refers to the last one.

    Returns:
        VALID when the pattern is complete and the last number lies on the winning line(s);
        LATE when the pattern is complete but held already before the last number;
        FALSE otherwise. For a pattern of untouched lines (the inversée, which nobody
        claims): VALID while no number of the unit is drawn, FALSE after.
    """
    if not drawn:
        return Judgement(Verdict.FALSE)
    p = progress(pattern, unit, frozenset(drawn))
    if rule(pattern).mode is Mode.UNTOUCHED:
        return Judgement(Verdict.VALID if p.holds else Verdict.FALSE)
    return _lines(list(p.done), p.needed, drawn[-1])


def _lines(complete: list[frozenset[int]], needed: int, last: int) -> Judgement:
    """`needed` complete lines, one of them holding the last number."""
    if len(complete) < needed:
        return Judgement(Verdict.FALSE)
    with_last = [ln for ln in complete if last in ln]
    if not with_last:
        return Judgement(Verdict.LATE)
    others = [ln for ln in complete if last not in ln]
    chosen = with_last[:1] + (with_last[1:] + others)[: needed - 1]
    return Judgement(Verdict.VALID, frozenset().union(*chosen))
