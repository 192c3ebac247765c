"""The evening's state machine: sales, games, draws, marks, claims, ties, awards, démarquage.

Every move is a method that checks the rules, raises a `LotoError` when the move is illegal
(leaving the state untouched), and otherwise returns the events it applied. `Evening.replay`
rebuilds the exact state from those events: storage persists them and restores evenings that
way. The engine knows nothing of the network, the database or the clock, and uses no randomness
but the `random.Random` it is handed.

Who may call what (the animateur for the draw, a player for their own cartons) is the caller's
job; the engine checks that a player acts on their own cartons.

`Evening` is put together from one module a concern under `loto_app/domain/evening/` (the
till, paper, the draw, claims and the last call, ties, disputes, marks, the program and
media, the invariants), on `EveningCore` (state, queries, guards, `apply`); each event has one
applier, in the module of its concern. This module is the only one the rest of the app imports.
"""

from __future__ import annotations

from loto_app.domain.evening.base import APPLIERS, EveningCore
from loto_app.domain.evening.checks import lot_key
from loto_app.domain.evening.claims import ClaimMoves
from loto_app.domain.evening.disputes import DisputeMoves
from loto_app.domain.evening.draw import DrawMoves
from loto_app.domain.evening.invariants import Invariants
from loto_app.domain.evening.marks import MarkMoves
from loto_app.domain.evening.own import OwnMoves
from loto_app.domain.evening.paper import PaperMoves
from loto_app.domain.evening.program import ProgramMoves
from loto_app.domain.evening.remote import Invitation, RemoteMoves
from loto_app.domain.evening.sales import SalesMoves
from loto_app.domain.evening.state import (
    BALLS,
    DECIDERS,
    MAX_DECISION_REASON,
    MAX_NAME,
    MAX_PAPER_SHEETS,
    MAX_PER_SALE,
    ORIGINS,
    PAPER_REFUSALS,
    PLAY_SETTINGS,
    PLAYER_CANCEL_BY,
    PLAYER_CANCEL_REASON,
    TOKEN_BAG,
    Game,
    GameStatus,
    IssuedCarton,
    Purchase,
    Tie,
)
from loto_app.domain.evening.ties import TieMoves
from loto_app.domain.evening.typed import TypedMoves

__all__ = [
    "APPLIERS",
    "BALLS",
    "DECIDERS",
    "MAX_DECISION_REASON",
    "MAX_NAME",
    "MAX_PAPER_SHEETS",
    "MAX_PER_SALE",
    "ORIGINS",
    "PAPER_REFUSALS",
    "PLAYER_CANCEL_BY",
    "PLAYER_CANCEL_REASON",
    "PLAY_SETTINGS",
    "TOKEN_BAG",
    "Evening",
    "Game",
    "GameStatus",
    "Invitation",
    "IssuedCarton",
    "Purchase",
    "Tie",
    "lot_key",
]


class Evening(
    SalesMoves,
    OwnMoves,
    RemoteMoves,
    PaperMoves,
    DrawMoves,
    ClaimMoves,
    TypedMoves,
    TieMoves,
    DisputeMoves,
    MarkMoves,
    ProgramMoves,
    Invariants,
    EveningCore,
):
    """One loto evening: the program, the série of cartons, the players and the games.

    Args:
        program: the announced program and settings.
        key: the evening's secret key for check codes (never stored in events).
        code: the evening's join code (what a draw's commitment binds, with the série).
    """
