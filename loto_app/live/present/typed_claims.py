"""A claim on a carton in no list, as screens show it: the lines typed laid out as carton rows
(each number in its column) for the read-back, and the verdict with its precise reason (the
numbers not drawn, the last number not on the line). Pure."""

from __future__ import annotations

from typing import Any

from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS, Grid
from loto_app.domain.engine import Evening, Game
from loto_app.domain.typed_lines import column_of, lines_needed
from loto_app.domain.verdicts import Verdict

#: how the record and the screens name such a carton
HORS_LISTE = "carton hors liste, lignes tapées"


def grid_of(g: Game) -> Grid:
    """The grid of the game's cartons (classique 9 columns, maxiquine 5)."""
    return KINDS[g.spec.kind].grid


def typed_cartons(e: Evening, g: Game, claim: ev.ClaimMade) -> list[list[dict[str, Any]]]:
    """The read-back's grids of a typed claim: each line a row, its numbers in their columns;
    three lines a carton (five on a maxiquine)."""
    t = e.typed_lines_of(claim)
    if t is None:
        return []
    grid = grid_of(g)
    cols, per = (5, 5) if grid is Grid.MAXI else (9, 3)
    drawn, win = set(g.drawn), set(claim.winning)
    out: list[list[dict[str, Any]]] = []
    for start in range(0, len(t.lines), per):
        cells: list[dict[str, Any]] = []
        for line in t.lines[start : start + per]:
            row: list[int] = [0] * cols
            for n in line:
                row[column_of(n, grid)] = n
            cells += [
                {
                    "n": n,
                    "drawn": bool(n and n in drawn),
                    "win": bool(n and n in win),
                    "last": bool(n) and n == claim.number,
                }
                for n in row
            ]
        out.append(cells)
    return out


def typed_verdict(e: Evening, claim: ev.ClaimMade) -> str:
    """What the contrôleur and the animateur read of a typed claim (docs/RULES.md, "Claims")."""
    t = e.typed_lines_of(claim)
    v = Verdict(claim.verdict)
    n = claim.number
    if v is Verdict.VALID:
        return f"Annonce valide sur le {n} ({HORS_LISTE})\u00a0: l'animateur va attribuer le lot."
    if v is Verdict.FALSE:
        missing = t.missing if t else ()
        said = _numbers(missing)
        verb = "n'est pas sorti" if len(missing) == 1 else "ne sont pas sortis"
        return (
            f"Fausse annonce\u00a0: {said} {verb}. Carton hors liste\u00a0: retirez-le du jeu "
            "pour cette partie."
        )
    if v is Verdict.LATE:
        return (
            f"Tour passé\u00a0: le dernier numéro ({n}) n'est pas sur la ligne. Pas de lot, le "
            "carton reste en jeu."
        )
    if v is Verdict.AFTER_AWARD:
        return (
            f"Valide sur le {n}, mais après l'attribution du lot\u00a0: réclamation à régler "
            "par l'association."
        )
    return v.value


def _numbers(ns: tuple[int, ...]) -> str:
    words = [f"le {x}" for x in ns]
    if len(words) <= 1:
        return "".join(words) or "un numéro"
    return ", ".join(words[:-1]) + " et " + words[-1]


def lines_to_type(e: Evening) -> tuple[int, str]:
    """How many lines a claim now is typed as (the stage in play when the last number came
    out), and the hint that says so; (0, why) when no claim can be typed now."""
    g = e.game
    if g is None or not g.drawn or not g.spec.game_type.claimed or g.status.value == "finished":
        return 0, "Pas d'annonce à contrôler maintenant."
    stage = g.spec.stages[g.claim_stage]
    n = lines_needed(stage.pattern, grid_of(g))
    if not n:
        return 0, "Cette partie ne se contrôle pas sur des lignes tapées."
    what = "la ligne annoncée" if n == 1 else f"les {n} lignes annoncées"
    return n, f"{stage.label}\u00a0: tapez {what}, 5 numéros par ligne."
