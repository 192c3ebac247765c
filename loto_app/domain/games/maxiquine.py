"""The maxiquine: a draw on the 25-number grids, for the carton plein or a diagonal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loto_app.domain.carton_kinds import Kind
from loto_app.domain.games.base import GameType, stage_count
from loto_app.domain.patterns import Pattern

if TYPE_CHECKING:
    from loto_app.domain.program import GameSpec


def _one_lot(spec: GameSpec) -> None:
    stage_count(spec, 1, 1, "Un tirage maxiquine se joue sur un seul lot.")


MAXIQUINE = GameType(
    "maxiquine",
    "Partie maxiquine",
    "un tirage sur les grandes grilles de 25 numéros, pour un seul lot : le carton plein, ou "
    "une diagonale",
    (Kind.MAXIQUINE,),
    (Pattern.FULL_CARD, Pattern.DIAGONAL),
    check=_one_lot,
)
