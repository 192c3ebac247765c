"""The partie inversée: a carton is out as soon as one of its numbers is drawn; the last
carton(s) with no number drawn win. Nobody claims: the server knows (`LAST_STANDING`)."""

from __future__ import annotations

from loto_app.domain.games.base import GameType, TieRule
from loto_app.domain.games.classic import CLASSIC_KINDS
from loto_app.domain.patterns import Pattern

INVERSEE = GameType(
    "inversee",
    "Partie inversée",
    "un carton est éliminé dès qu'un de ses numéros sort ; le dernier carton sans aucun numéro "
    "sorti gagne, sans annonce : l'appli le trouve. Si les derniers cartons sont éliminés par "
    "la même boule, ils sont ex aequo",
    CLASSIC_KINDS,
    (Pattern.LAST_STANDING,),
    fixed=True,
    # (the mort subite needs winning numbers: the inversée's winners have none)
    ties=(TieRule.EVENING, TieRule.DRAW, TieRule.SHARE, TieRule.EACH),
)
