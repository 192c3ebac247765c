"""The vitrine: 3 cartons sold and played together; a lot for 1 full carton, then 2, then 3."""

from __future__ import annotations

from loto_app.domain.carton_kinds import Kind
from loto_app.domain.games.base import GameType
from loto_app.domain.patterns import Pattern

VITRINE = GameType(
    "vitrine",
    "Partie vitrine",
    "les 3 cartons d'une vitrine jouent ensemble : un lot pour 1 carton plein, puis 2, puis 3",
    (Kind.VITRINE,),
    (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS),
)
