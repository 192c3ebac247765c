"""The double quine et carton: two lots on one draw, the double quine then the carton plein
(no lot for the first quine: the hall's quicker cut of the classique)."""

from __future__ import annotations

from loto_app.domain.games.base import GameType
from loto_app.domain.games.classic import CLASSIC_KINDS
from loto_app.domain.patterns import Pattern

DOUBLE_QUINE_ET_CARTON = GameType(
    "double_quine_et_carton",
    "Double quine et carton",
    "deux lots sur un même tirage : la double quine, puis le carton plein (pas de lot à la quine)",
    CLASSIC_KINDS,
    (Pattern.TWO_LINES, Pattern.FULL_CARD),
    fixed=True,
)
