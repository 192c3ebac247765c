"""The games of the 15-number carton: the classique and its usual cuts.

The classique plays any ordered subset of quine, double quine, carton plein on one draw. The
others are the cuts halls announce by name: the partie rapide (one quine, the game ends), the
double quine seule, the gros lot (carton plein direct), the quine et carton; the spéciale is a
carton plein on the cartons sold for it. Each may be played with the coloured séries.
"""

from __future__ import annotations

from loto_app.domain.carton_kinds import COLOURED, Kind
from loto_app.domain.games.base import GameType
from loto_app.domain.patterns import Pattern

#: the cartons of the classique's games: the classique, or a coloured série sold for them
CLASSIC_KINDS = (Kind.CLASSIQUE, *COLOURED)

CLASSIQUE = GameType(
    "classique",
    "Partie classique",
    "quine, double quine et carton plein (ou une partie d'entre eux, dans cet ordre) sur un "
    "même tirage",
    CLASSIC_KINDS,
    (Pattern.ONE_LINE, Pattern.TWO_LINES, Pattern.FULL_CARD),
)
RAPIDE = GameType(
    "rapide",
    "Partie rapide",
    "un seul lot, à la première quine ; la partie s'arrête là",
    CLASSIC_KINDS,
    (Pattern.ONE_LINE,),
    fixed=True,
)
DOUBLE_QUINE = GameType(
    "double_quine",
    "Double quine seule",
    "un seul lot, à la première double quine (deux lignes complètes d'un même carton)",
    CLASSIC_KINDS,
    (Pattern.TWO_LINES,),
    fixed=True,
)
GROS_LOT = GameType(
    "gros_lot",
    "Gros lot",
    "un seul lot, au premier carton plein (carton plein direct)",
    CLASSIC_KINDS,
    (Pattern.FULL_CARD,),
    fixed=True,
)
QUINE_ET_CARTON = GameType(
    "quine_et_carton",
    "Quine et carton",
    "deux lots sur un même tirage : la quine, puis le carton plein",
    CLASSIC_KINDS,
    (Pattern.ONE_LINE, Pattern.FULL_CARD),
    fixed=True,
)
SPECIALE = GameType(
    "speciale",
    "Partie spéciale",
    "un carton plein, joué par les cartons vendus pour elle",
    (Kind.SPECIAL, *COLOURED),
    (Pattern.FULL_CARD,),
)
