"""The types of games an evening may play, one module each (see `base.GameType`)."""

from __future__ import annotations

from loto_app.domain.carton_kinds import Kind
from loto_app.domain.games.base import TIE_LABELS, TIE_MEANINGS, GameType, TieRule
from loto_app.domain.games.classic import (
    CLASSIQUE,
    DOUBLE_QUINE,
    GROS_LOT,
    QUINE_ET_CARTON,
    RAPIDE,
    SPECIALE,
)
from loto_app.domain.games.double_quine_et_carton import DOUBLE_QUINE_ET_CARTON
from loto_app.domain.games.enfants import ENFANTS
from loto_app.domain.games.inversee import INVERSEE
from loto_app.domain.games.jackpot import JACKPOT
from loto_app.domain.games.maxiquine import MAXIQUINE
from loto_app.domain.games.vitrine import VITRINE

#: every type, by name, in the order the organiser's form offers them
GAME_TYPES: dict[str, GameType] = {
    t.name: t
    for t in (
        CLASSIQUE,
        RAPIDE,
        DOUBLE_QUINE,
        GROS_LOT,
        QUINE_ET_CARTON,
        DOUBLE_QUINE_ET_CARTON,
        SPECIALE,
        VITRINE,
        MAXIQUINE,
        INVERSEE,
        ENFANTS,
        JACKPOT,
    )
}

#: the type a program without one plays, by its kind of cartons (programs stored before types)
DEFAULT_TYPES: dict[Kind, GameType] = {
    Kind.CLASSIQUE: CLASSIQUE,
    Kind.SPECIAL: SPECIALE,
    Kind.VITRINE: VITRINE,
    Kind.MAXIQUINE: MAXIQUINE,
    Kind.ENFANT: ENFANTS,
    Kind.VERT: CLASSIQUE,
    Kind.JAUNE: CLASSIQUE,
    Kind.BLEU: CLASSIQUE,
    Kind.ROSE: CLASSIQUE,
}

__all__ = ["DEFAULT_TYPES", "GAME_TYPES", "TIE_LABELS", "TIE_MEANINGS", "GameType", "TieRule"]
