"""The partie enfants: N successive winners of one pattern (the quine), one lot each, one win
per player, played by the enfants' cartons at a price of their own."""

from __future__ import annotations

from loto_app.domain.carton_kinds import Kind
from loto_app.domain.games.base import MAX_STAGES, GameType
from loto_app.domain.patterns import Pattern

MAX_WINNERS = MAX_STAGES

ENFANTS = GameType(
    "enfants",
    "Partie enfants",
    "plusieurs gagnants successifs sur la même figure (la quine), un lot chacun ; un joueur ne "
    "gagne qu'un lot dans la partie",
    (Kind.ENFANT,),
    (Pattern.ONE_LINE, Pattern.TWO_LINES, Pattern.FULL_CARD),
    repeats=True,
    one_win_per_player=True,
)
