"""The jackpot en N numéros: a carton plein within N numbers drawn wins the jackpot lot; after
that, the carton plein wins the consolation lot (when there is one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games.base import MAX_WITHIN, MIN_WITHIN, GameType, stage_count
from loto_app.domain.games.classic import CLASSIC_KINDS
from loto_app.domain.patterns import Pattern

if TYPE_CHECKING:
    from loto_app.domain.program import GameSpec


def _within(spec: GameSpec) -> None:
    stage_count(spec, 1, 2, "Le jackpot a un lot, et au plus un lot de consolation après lui.")
    n = spec.stages[0].within
    if not MIN_WITHIN <= n <= MAX_WITHIN:
        raise InvalidProgram(
            f"jackpot within {n!r} not in {MIN_WITHIN}..{MAX_WITHIN}",
            f"Jackpot : le nombre de numéros va de {MIN_WITHIN} à {MAX_WITHIN}.",
        )


JACKPOT = GameType(
    "jackpot",
    "Jackpot",
    "le jackpot se gagne par un carton plein en N numéros au plus ; au-delà, le carton plein "
    "gagne le lot de consolation",
    CLASSIC_KINDS,
    (Pattern.FULL_CARD,),
    jackpot=True,
    check=_within,
)
