"""Hypothesis strategies shared by the domain's property tests: games of every type."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES, GameType, TieRule
from loto_app.domain.games.base import MAX_WITHIN, MIN_WITHIN
from loto_app.domain.program import GameSpec, Lot, Stage

lot_names = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=20)


@st.composite
def game_specs(
    draw: st.DrawFn, types: Sequence[GameType] | None = None, max_repeats: int = 4
) -> GameSpec:
    """A valid game of any type (or of one of `types`): its kind of cartons, a shape of
    stages the type plays, random lots, a tie rule it allows, sometimes improvised."""
    gt = draw(st.sampled_from(list(GAME_TYPES.values()) if types is None else list(types)))
    kind = draw(st.sampled_from(gt.kinds))
    if gt.fixed:
        chosen = list(gt.patterns)
    elif gt.repeats:
        chosen = [draw(st.sampled_from(gt.patterns))] * draw(st.integers(1, max_repeats))
    elif gt.jackpot:
        chosen = [gt.patterns[0]] * draw(st.integers(1, 2))
    else:
        mask = draw(st.lists(st.booleans(), min_size=len(gt.patterns), max_size=len(gt.patterns)))
        chosen = [p for p, keep in zip(gt.patterns, mask, strict=True) if keep]
        chosen = chosen or [gt.patterns[-1]]
    tie = draw(st.sampled_from(gt.ties))
    within = draw(st.integers(MIN_WITHIN, MAX_WITHIN)) if gt.jackpot else 0
    stages = tuple(
        Stage(
            p,
            Lot(draw(lot_names), divisible=tie is TieRule.SHARE or draw(st.booleans())),
            within=within if i == 0 else 0,
        )
        for i, p in enumerate(chosen)
    )
    title = draw(st.sampled_from(["", "La grande partie", "Partie du donateur"]))
    improvised = draw(st.booleans())
    try:
        return GameSpec(kind, stages, title, gt.name, tie, improvised)
    except InvalidProgram:  # a shape the type's own check refuses (a maxiquine plays one lot)
        return GameSpec(kind, stages[-1:], title, gt.name, tie, improvised)
