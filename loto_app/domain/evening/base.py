"""The evening's state and what every concern needs: queries, guards, applying events."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Self, TypeVar

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.checks import is_int
from loto_app.domain.evening.state import BALLS, Game, GameStatus, IssuedCarton, Purchase
from loto_app.domain.events import LotTicket
from loto_app.domain.own_cartons import carton_label
from loto_app.domain.program import (
    DrawSource,
    Kind,
    Program,
)
from loto_app.domain.till import (
    Sale,
)

Applier = Callable[[Any, Any], None]
#: the applier of each event type, registered by the concern modules (`applies`)
APPLIERS: dict[type, Applier] = {}
F = TypeVar("F", bound=Applier)


def applies(*types: type) -> Callable[[F], F]:
    """Register a function as the applier of these event types (one applier an event)."""

    def register(fn: F) -> F:
        for t in types:
            if t in APPLIERS:
                raise TypeError(f"{t.__name__} has two appliers")
            APPLIERS[t] = fn
        return fn

    return register


class EveningCore:
    """One loto evening: the program, the série of cartons, the players and the games.

    Args:
        program: the announced program and settings.
        key: the evening's secret key for check codes (never stored in events).
        code: the evening's join code (what a draw's commitment binds, with the série).
    """

    def __init__(self, program: Program, key: bytes = b"", code: str = "") -> None:
        self.program = program
        self.key = key
        self.code = code
        self.players: dict[str, str] = {}
        self.origins: dict[str, str] = {}  # player id -> "hall" | "remote" | "paper"
        self.invitations: dict[int, Any] = {}  # no -> remote.Invitation (remote play)
        self.sales: dict[int, Sale] = {}
        self.till_closed_by: str | None = None
        self.handed_over: dict[int, str] = {}  # lot ticket no -> who handed it
        self.lot_tickets: dict[int, LotTicket] = {}  # every lot ticket and voucher, by number
        self.withdrawn: dict[int, ev.AwardWithdrawn] = {}  # voided tickets (a decision)
        self.decisions: list[ev.Event] = []  # the association's decisions (art. 8), in order
        self.voided: set[int] = set()  # cartons of refunded sales: they play no more
        self.cartons: dict[int, IssuedCarton] = {}
        self.units: dict[int, tuple[int, ...]] = {}
        self.purchases: list[Purchase] = []
        self.purchase_of: dict[int, Purchase] = {}  # carton no -> its purchase
        self.stock: dict[Kind, list[int]] = {k: [] for k in Kind}  # unsold units, in order
        # units printed on paper in advance, not sold yet (the desk sells them by number)
        self.paper_stock: dict[Kind, list[int]] = {k: [] for k in Kind}
        # the association's own cartons (domain/own_cartons.py): their engine numbers, and the
        # name of each own série by its base
        self.own_cartons: set[int] = set()
        self.own_series: dict[int, str] = {}
        self.games: list[Game] = []
        self.pause: ev.PauseStarted | None = None  # the entracte in course (between games)
        self.lot_photos: dict[str, str] = {}  # lot_key(description) -> picture digest
        self.partners: list[tuple[str, str]] = []  # (name, picture digest), in order
        self.history: list[ev.Event] = []
        #: The secret seeds of committed games, by game index: not from the log (storage keeps
        #: them apart until the reveal, `EventLog.load`), never shown.
        self.sealed: dict[int, bytes] = {}
        self._orders: dict[int, tuple[int, ...]] = {}  # committed orders, checked, by game
        self.closed: ev.EveningClosed | None = None  # the organiser closed the books
        self._by_number: dict[int, list[int]] = {n: [] for n in BALLS}  # sold cartons per number
        # the lines typed for claims on cartons in no list, by claim number (`LinesTyped`)
        self.typed: dict[int, ev.LinesTyped] = {}
        self._next_claim = 1
        self._next_ticket = 1

    @property
    def game(self) -> Game | None:
        """The current (or last played) game."""
        return self.games[-1] if self.games else None

    @property
    def is_over(self) -> bool:
        """Every announced game has been played."""
        return len(self.games) == len(self.program.games) and (
            self.games[-1].status is GameStatus.FINISHED
        )

    def owner(self, carton_no: int) -> str | None:
        """Who holds a carton (None when unsold)."""
        p = self.purchase_of.get(carton_no)
        return p.player_id if p else None

    def carton_label(self, carton_no: int) -> str:
        """How screens and records name a carton: « 12 », or « ROUGE n° 347 » for one of the
        association's own (its série and printed number)."""
        return carton_label(carton_no, self.own_series)

    def player_cartons(self, player_id: str) -> list[IssuedCarton]:
        """A player's cartons, in number order."""
        return [
            self.cartons[n]
            for p in self.purchases
            if p.player_id == player_id
            for n in p.carton_nos
        ]

    def plays(self, carton_no: int, game: Game | None = None) -> bool:
        """Does this carton play this game (default: the current one)?"""
        g = game or self.game
        p = self.purchase_of.get(carton_no)
        return bool(
            g
            and p
            and p.first_game <= g.index
            and p.kind is g.spec.kind
            and carton_no not in self.voided
        )

    def cartons_with(self, number: int) -> list[int]:
        """The sold cartons holding this number (in the order they were sold)."""
        return list(self._by_number.get(number, ()))

    def tickets(self) -> dict[int, LotTicket]:
        """Every lot ticket and "carton offert" voucher, voided ones included (`withdrawn`)."""
        return dict(self.lot_tickets)

    def next_game_index(self) -> int:
        """The index of the game a carton bought now plays first (art. 7, choice)."""
        g = self.game
        if g is None:
            return 0
        # a committed game's cartons are fixed when it starts; otherwise at its first number
        if g.status is GameStatus.RUNNING and not g.drawn and g.commitment is None:
            return g.index
        return g.index + 1

    def can_draw(self) -> bool:
        """True when the animateur may draw the next number."""
        g = self.game
        return bool(
            g
            and self.closed is None
            and g.status is GameStatus.RUNNING
            and not g.entries()
            and len(g.drawn) < len(BALLS)
        )

    def _need_player(self, player_id: str) -> None:
        self._open()
        if not isinstance(player_id, str) or player_id not in self.players:
            raise err.UnknownPlayer(f"unknown player {player_id!r}")

    def _carton(self, carton_no: int) -> IssuedCarton:
        if not is_int(carton_no) or carton_no not in self.cartons:
            raise err.UnknownCarton(f"no carton {carton_no!r} in the série")
        return self.cartons[carton_no]

    def _running(self) -> Game:
        self._open()
        g = self.game
        if g is None or g.status is not GameStatus.RUNNING:
            raise err.NoGameInProgress("no game is running")
        return g

    def _drawable(self, source: DrawSource) -> Game:
        g = self._running()
        if self.program.settings.draw_source is not source:
            raise err.WrongDrawSource(
                f"draw from {source} on an evening using {self.program.settings.draw_source}"
            )
        if g.entries():
            raise err.DrawingClosed(
                f"valid claim open on stage {g.stage} of game {g.index}",
                "Une annonce valide attend son lot : attribuez-le avant de tirer.",
            )
        if len(g.drawn) >= len(BALLS):
            raise err.NoNumberLeft("all 90 numbers drawn")
        return g

    def _claimable(self) -> Game:
        """The game a claim refers to: one that takes claims (not the inversée, whose winners
        the server finds), numbers drawn, and démarquage not allowed yet (the window of the
        last number stays open after its lot is awarded, art. 2)."""
        self._open()
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("no game is running")
        if not g.spec.game_type.claimed:
            raise err.NoClaimInThisGame(f"game {g.index} ({g.spec.type}) takes no claim")
        if not g.drawn:
            raise err.NoStageInPlay("no number drawn yet", "Aucun numéro n'est encore sorti.")
        return g

    def _own_playing(self, player_id: str, carton_no: int) -> tuple[Game, IssuedCarton]:
        self._need_player(player_id)
        c = self._carton(carton_no)
        if self.owner(carton_no) != player_id:
            raise err.NotYourCarton(f"carton {carton_no} is not {player_id}'s")
        g = self.game
        if g is None:
            raise err.NoGameInProgress("no game started")
        if not self.plays(carton_no, g):
            raise err.CartonNotInGame(f"carton {carton_no} does not play game {g.index}")
        return g, c

    def _emit(self, event: ev.Event) -> list[ev.Event]:
        self._open()
        self.apply(event)
        return [event]

    def _open(self) -> None:
        """Every move is refused once the organiser closed the evening."""
        if self.closed is not None:
            raise err.EveningIsClosed(f"evening closed by {self.closed.by}")

    @classmethod
    def replay(
        cls,
        program: Program,
        events: Iterable[ev.Event],
        key: bytes = b"",
        sealed: dict[int, bytes] | None = None,
        code: str = "",
    ) -> Self:
        """Rebuild an evening from its events (as returned by the moves, in order); `sealed`:
        the secret seeds of the committed games, kept apart from the log."""
        evening = cls(program, key, code)
        evening.sealed.update(sealed or {})
        for e in events:
            evening.apply(e)
        return evening

    def _issue(self, e: ev.Event) -> None:
        """Keep the lot tickets an event issues; the next ticket is numbered after them."""
        for t in ev.issued_tickets(e):
            self.lot_tickets[t.no] = t
            self._next_ticket = t.no + 1

    def apply(self, e: ev.Event) -> None:
        """Apply an event that a move returned (here, or in another process that committed
        it): replay, catching up with another worker's commits, reading an evening file. No rule
        is checked again: the move that made the event checked them. Each event has one
        applier, in the module of its concern (`applies`)."""
        self.history.append(e)
        applier = APPLIERS.get(type(e))
        if applier is None:
            raise TypeError(f"unknown event {e!r}")
        applier(self, e)
