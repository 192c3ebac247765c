"""The evening's state machine: sales, games, draws, marks, claims, ties, awards, démarquage.

Every move is a method that checks the rules, raises a `LotoError` when the move is illegal
(leaving the state untouched), and otherwise returns the events it applied. `Evening.replay`
rebuilds the exact state from those events: storage persists them and restores evenings that
way. The engine knows nothing of the network, the database or the clock, and uses no randomness
but the `random.Random` it is handed.

Who may call what (the animateur for the draw, a player for their own cartons) is the caller's
job; the engine checks that a player acts on their own cartons.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from loto_app.domain import commitment as draws
from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.cartons import (
    Carton,
    default_rng,
    generate_maxi,
    generate_strip,
    validate_classic,
    validate_maxi,
)
from loto_app.domain.events import LotTicket
from loto_app.domain.program import (
    KIND_LABELS,
    DrawSource,
    GameSpec,
    Kind,
    Offer,
    Program,
    Stage,
    TieMethod,
    TokenSource,
)
from loto_app.domain.serial import verify_check_code
from loto_app.domain.till import (
    DESK_METHODS,
    MAX_PENDING_PER_PLAYER,
    MAX_REASON,
    MAX_STAFF_NAME,
    SETTLE_METHODS,
    Sale,
    SaleStatus,
    pending_orders,
)
from loto_app.domain.verdicts import Verdict, judge
from loto_app.limits import MAX_PARTNER_NAME, MAX_PARTNERS, MAX_PAUSE_MESSAGE, MAX_PLAYER_NAME

MAX_NAME = MAX_PLAYER_NAME
MAX_PER_SALE = 36  # cartons (or vitrine units) in one sale
MAX_PAPER_SHEETS = 50  # sheets (6 cartons each) printed on paper in one go
#: why the desk refused a pre-printed carton (`PaperCartonRefused`)
PAPER_REFUSALS = ("unknown", "sold")
BALLS = range(1, 91)
TOKEN_BAG = 90  # tokens numbered 1..90 in the tie-break bag
#: verdicts of a claim checked on the grid (one such claim per unit, stage and number)
_JUDGED = (Verdict.VALID, Verdict.LATE, Verdict.FALSE, Verdict.ANNULLED, Verdict.AFTER_AWARD)
ORIGINS = ("hall", "remote", "paper")
#: how an order cancelled by its player from the phone is recorded (`cancel_order`)
PLAYER_CANCEL_BY = "joueur"
PLAYER_CANCEL_REASON = "Annulée par le joueur sur son téléphone"
#: who settles a dispute (art. 8): the signed-in animateur or the organiser
DECIDERS = ("animateur", "organisateur")
MAX_DECISION_REASON = 200
#: settings the game in play depends on: changed only between games
PLAY_SETTINGS = (
    "draw_source",
    "auto_marking",
    "tie_method",
    "token_source",
    "last_call_seconds",
    "claim_hint",
    "one_to_go",
)
#: a decision may overturn these verdicts, to "valid" or "false"
_OVERTURNABLE = (Verdict.VALID, Verdict.FALSE, Verdict.LATE, Verdict.AFTER_AWARD)


class GameStatus(StrEnum):
    """Where a game stands."""

    RUNNING = "running"  # numbers are drawn, a stage is in play
    AWAITING_UNMARK = "awaiting_unmark"  # every lot awarded; waiting for "vous pouvez démarquer"
    FINISHED = "finished"  # démarquage allowed: the game is over


@dataclass(frozen=True, slots=True)
class IssuedCarton:
    """A carton of the série: its number, kind, unit (vitrine: 3 cartons share one) and grid."""

    no: int
    kind: Kind
    unit: int
    carton: Carton


@dataclass(frozen=True, slots=True)
class Purchase:
    """Cartons handed to a player, and the first game they play."""

    no: int
    player_id: str
    kind: Kind
    carton_nos: tuple[int, ...]
    first_game: int
    reason: str


@dataclass(slots=True)
class Tie:
    """The settling of an ex aequo on the stage in play."""

    share_offered_to: tuple[str, ...] = ()
    answers: dict[str, bool] = field(default_factory=dict)
    broken: ev.TieBroken | None = None

    @property
    def closed(self) -> bool:
        """Claims are closed once the animateur started settling the tie."""
        return bool(self.share_offered_to) or self.broken is not None

    @property
    def share_refused(self) -> bool:
        """One of the two players said no."""
        return any(a is False for a in self.answers.values())


@dataclass(slots=True)
class Game:
    """One game being played (or played)."""

    index: int
    spec: GameSpec
    status: GameStatus = GameStatus.RUNNING
    stage: int = 0  # index of the stage in play (== len(stages) once all are awarded)
    drawn: list[int] = field(default_factory=list)
    marks: dict[int, set[int]] = field(default_factory=dict)  # carton no -> marked numbers
    annulled: set[int] = field(default_factory=set)  # unit nos annulled after a false claim
    claims: list[ev.ClaimMade] = field(default_factory=list)
    awards: list[ev.StageAwarded] = field(default_factory=list)
    tie_breaks: list[ev.TieBroken] = field(default_factory=list)
    corrections: list[ev.DrawCorrected] = field(default_factory=list)
    tie: Tie = field(default_factory=Tie)
    # the stage in play when the last number came out: claims are judged on it until the next
    # number (art. 2), even once its lot is awarded
    claim_stage: int = 0
    last_call: ev.LastCallOpened | None = None  # "Pas d'autre quine ?" running
    called: set[tuple[int, int]] = field(default_factory=set)  # (stage, number) given a last call
    overturned: dict[int, ev.VerdictOverturned] = field(default_factory=dict)  # claim no ->
    # the electronic boulier's commitment to the game's whole order, and its seed once revealed
    commitment: ev.DrawCommitted | None = None
    revealed: str = ""
    # indexes kept by `Evening.apply`: judged claims by (stage, number, unit), and the players
    # with a valid claim on each stage (the entries), in claim order
    judged: set[tuple[int, int | None, tuple[int, ...]]] = field(default_factory=set)
    valid: dict[int, dict[str, None]] = field(default_factory=dict)

    @property
    def stage_spec(self) -> Stage | None:
        """The stage in play, or None once every lot is awarded."""
        return self.spec.stages[self.stage] if self.stage < len(self.spec.stages) else None

    @property
    def last(self) -> int | None:
        """The last number drawn."""
        return self.drawn[-1] if self.drawn else None

    def stage_claims(self, stage: int | None = None) -> list[ev.ClaimMade]:
        """The claims made on a stage (default: the one in play)."""
        s = self.stage if stage is None else stage
        return [c for c in self.claims if c.stage == s]

    def entries(self) -> tuple[str, ...]:
        """The players with a valid claim on the stage in play, once each, in claim order."""
        return tuple(self.valid.get(self.stage, ()))

    def settled(self, stage: int) -> bool:
        """Has the animateur settled this stage (awarded it, offered the share, drawn tokens)?
        A valid claim on a settled stage is no entry any more ("valide après l'attribution")."""
        return stage < self.stage or (stage == self.stage and self.tie.closed)

    def verdict_of(self, claim: ev.ClaimMade) -> str:
        """A claim's verdict now: the app's, or the one a decision put instead (art. 8)."""
        o = self.overturned.get(claim.claim_no)
        return o.verdict if o is not None else claim.verdict

    def claim(self, claim_no: int) -> ev.ClaimMade | None:
        """A claim of this game by its number."""
        return next((c for c in self.claims if c.claim_no == claim_no), None)

    def recount(self, stage: int) -> None:
        """Rebuild the entries of a stage from its claims (after a decision changed one)."""
        players: dict[str, None] = {}
        for c in self.claims:
            if c.stage != stage or c.player_id is None:
                continue
            o = self.overturned.get(c.claim_no)
            if o.entry if o is not None else c.verdict == Verdict.VALID:
                players.setdefault(c.player_id, None)
        if players:
            self.valid[stage] = players
        else:
            self.valid.pop(stage, None)


class Evening:
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
        self._next_claim = 1
        self._next_ticket = 1

    # ------------------------------------------------------------------ queries

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

    # ------------------------------------------------------------------ moves: players and sales

    def join(self, player_id: str, name: str, origin: str = "hall") -> list[ev.Event]:
        """Register a player under a server-issued id and a pseudonym.

        `origin`: "hall" (a phone in the hall), "remote" (joined with the invitation link, when
        remote play is on) or "paper" (a player without a phone, registered at the desk).
        """
        self._open()
        if not isinstance(player_id, str) or not (1 <= len(player_id) <= 64):
            raise err.InvalidArgument(f"player id {player_id!r} is not a 1-64 character string")
        if player_id in self.players:
            raise err.DuplicatePlayer(f"player {player_id} is already registered")
        if origin not in ORIGINS:
            raise err.InvalidArgument(f"player origin {origin!r}")
        if origin == "remote" and not self.program.settings.remote_play:
            raise err.InvalidArgument(
                "remote join on an evening without remote play",
                "Le jeu à distance n'est pas ouvert pour cette soirée.",
            )
        return self._emit(ev.PlayerJoined(player_id, _clean_name(name), origin))

    # ------------------------------------------------------------------ moves: the till

    def offer(self, index: int) -> Offer:
        """A line of the tariff, by its index."""
        if not _is_int(index) or not 0 <= index < len(self.program.offers):
            raise err.InvalidSale(f"no offer {index!r}", "Ce tarif n'existe pas.")
        return self.program.offers[index]

    def desk_sale(
        self,
        player_id: str,
        offer: int,
        method: str,
        seller: str,
        rng: random.Random | None = None,
        *,
        extra: bool = False,
    ) -> list[ev.Event]:
        """A vendeur sells a pack of the tariff, paid now by cash or card. A player whose order
        is still "à régler" is refused (the desk settles that order instead: the same money
        twice otherwise) unless the vendeur chose to sell `extra`, in addition to it."""
        self._till_open()
        seller = _staff_name(seller)
        if method not in DESK_METHODS:
            raise err.InvalidSale(f"desk payment method {method!r}", "Espèces ou carte.")
        o = self.offer(offer)
        waiting = pending_orders(self.sales.values(), player_id)
        if waiting and extra is not True:
            raise err.PendingOrder(
                f"desk sale to {player_id} with orders {[s.no for s in waiting]} pending"
            )
        events, purchase_no = self._hand(player_id, o, rng)
        return events + self._emit(
            self._sale_record(player_id, offer, o.price_cents, method, seller, purchase_no)
        )

    def _sale_record(
        self,
        player_id: str,
        offer: int,
        price_cents: int,
        method: str,
        seller: str,
        purchase_no: int,
    ) -> ev.SaleRecorded:
        """The next sale of a pack of the tariff `offer` (purchase_no 0: no cartons handed yet)."""
        o = self.program.offers[offer]
        return ev.SaleRecorded(
            len(self.sales) + 1,
            player_id,
            offer,
            o.kind.value,
            o.quantity,
            o.planche,
            price_cents,
            method,
            seller,
            purchase_no,
        )

    def order(self, player_id: str, offer: int, rng: random.Random | None = None) -> list[ev.Event]:
        """A phone orders a pack: "à régler" until a caissier confirms the payment (on a free
        loto, the cartons are handed at once and the sale recorded as "offert")."""
        self._till_open()
        self._need_player(player_id)
        if self.origins.get(player_id) == "paper":
            raise err.InvalidSale(f"order for paper player {player_id}")
        o = self.offer(offer)
        self._check_sellable(o.kind)
        if self.program.settings.free_cartons:
            events, purchase_no = self._hand(player_id, o, rng)
            rec = self._sale_record(player_id, offer, 0, "free", "", purchase_no)
            return [*events, *self._emit(rec)]
        pending = pending_orders(self.sales.values(), player_id)
        if len(pending) >= MAX_PENDING_PER_PLAYER:
            raise err.InvalidSale(
                f"player {player_id} has {len(pending)} orders pending",
                "Vous avez déjà plusieurs commandes à régler : passez à la caisse d'abord.",
            )
        return self._emit(self._sale_record(player_id, offer, o.price_cents, "pending", "", 0))

    def confirm_payment(
        self, sale_no: int, method: str, cashier: str, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """A caissier received the money of an order: its cartons are handed now."""
        self._till_open()
        cashier = _staff_name(cashier)
        if method not in SETTLE_METHODS:
            raise err.InvalidSale(f"settle method {method!r}", "Mode de paiement inconnu.")
        sale = self._sale(sale_no)
        if sale.status is not SaleStatus.PENDING:
            raise err.InvalidSale(
                f"sale {sale_no} is {sale.status}", "Cette commande est déjà réglée ou annulée."
            )
        o = self.offer(sale.offer)
        events, purchase_no = self._hand(sale.player_id, o, rng)
        return [
            *events,
            *self._emit(ev.PaymentConfirmed(sale_no, method, cashier, purchase_no)),
        ]

    def cancel_sale(self, sale_no: int, by: str, reason: str) -> list[ev.Event]:
        """Cancel an order, or refund a sale whose cartons have not played yet (they are
        withdrawn). Nothing is deleted: the cancellation is an event of its own."""
        self._open()
        by = _staff_name(by)
        if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
            raise err.InvalidArgument(
                f"cancel reason {reason!r:.40}", "Indiquez le motif de l'annulation."
            )
        sale = self._sale(sale_no)
        if sale.status is SaleStatus.CANCELLED:
            raise err.InvalidSale(f"sale {sale_no} already cancelled", "Vente déjà annulée.")
        refund = 0
        if sale.status is SaleStatus.PAID:
            self._till_open()
            p = self.purchases[sale.purchase_no - 1]
            if any(g.index >= p.first_game and g.spec.kind is p.kind for g in self.games):
                raise err.InvalidSale(
                    f"sale {sale_no}: cartons already played",
                    "Ces cartons ont déjà joué : la vente ne peut plus être remboursée.",
                )
            refund = sale.amount_cents
        return self._emit(ev.SaleCancelled(sale_no, by, " ".join(reason.split()), refund))

    def cancel_order(self, player_id: str, sale_no: int) -> list[ev.Event]:
        """A player cancels their own order still "à régler" from the phone (a paid sale is
        the desk's to refund, `cancel_sale`). Recorded as a cancellation by the player."""
        self._need_player(player_id)
        sale = self._sale(sale_no)
        if sale.player_id != player_id:
            raise err.UnknownSale(
                f"sale {sale_no} is not an order of player {player_id}",
                "Cette commande n'est pas la vôtre, ou n'existe plus.",
            )
        if sale.status is not SaleStatus.PENDING:
            raise err.InvalidSale(
                f"sale {sale_no} is {sale.status}, not pending",
                "Cette commande est déjà réglée ou annulée.",
            )
        return self._emit(ev.SaleCancelled(sale_no, PLAYER_CANCEL_BY, PLAYER_CANCEL_REASON, 0))

    def close_till(self, by: str) -> list[ev.Event]:
        """The caissier closes the till (every order settled or cancelled first)."""
        self._till_open()
        by = _staff_name(by)
        pending = [s.no for s in self.sales.values() if s.status is SaleStatus.PENDING]
        if pending:
            raise err.InvalidSale(
                f"orders {pending} still pending",
                (
                    "1 commande encore à régler : encaissez-la ou annulez-la."
                    if len(pending) == 1
                    else f"{len(pending)} commandes encore à régler : encaissez-les ou annulez-les."
                ),
            )
        return self._emit(ev.TillClosed(by))

    def hand_over(self, ticket_no: int, by: str) -> list[ev.Event]:
        """The desk hands a lot to the holder of its ticket."""
        self._open()
        by = _staff_name(by)
        if not _is_int(ticket_no) or ticket_no not in self.tickets():
            raise err.UnknownTicket(f"no lot ticket {ticket_no!r}")
        if ticket_no in self.withdrawn:
            raise err.UnknownTicket(
                f"ticket {ticket_no} was voided: {self.withdrawn[ticket_no].reason!r:.60}",
                "Ce ticket a été annulé par l'association : ne remettez pas ce lot.",
            )
        if ticket_no in self.handed_over:
            raise err.UnknownTicket(
                f"ticket {ticket_no} already handed over by {self.handed_over[ticket_no]}",
                "Ce lot a déjà été remis.",
            )
        return self._emit(ev.LotHandedOver(ticket_no, by))

    def _till_open(self) -> None:
        self._open()
        if self.till_closed_by is not None:
            raise err.TillIsClosed(f"till closed by {self.till_closed_by}")

    def _sale(self, sale_no: int) -> Sale:
        if not _is_int(sale_no) or sale_no not in self.sales:
            raise err.UnknownSale(f"no sale {sale_no!r}")
        return self.sales[sale_no]

    def _hand(
        self, player_id: str, o: Offer, rng: random.Random | None
    ) -> tuple[list[ev.Event], int]:
        """Hand the cartons of a tariff's pack: the events, and the purchase's number."""
        if o.planche:
            events = self.sell(player_id, o.kind, planche=True, rng=rng)
        else:
            events = self.sell(player_id, o.kind, o.quantity, rng=rng)
        sold = events[-1]
        assert isinstance(sold, ev.CartonsSold)
        return events, sold.purchase_no

    def _check_sellable(self, kind: Kind) -> None:
        if self.is_over:
            raise err.InvalidSale("the evening is over", "La soirée est terminée.")
        if not self._plays_later(kind):
            raise err.InvalidSale(
                f"no {kind} game left to play",
                "Plus aucune partie de ce type ce soir : ce carton ne jouerait pas.",
            )

    def sell(
        self,
        player_id: str,
        kind: Kind | str,
        quantity: int = 1,
        *,
        planche: bool = False,
        rng: random.Random | None = None,
        reason: str = "sale",
    ) -> list[ev.Event]:
        """Hand cartons to a player.

        Args:
            player_id: the buyer.
            kind: classique, special, vitrine (quantity counts units of 3) or maxiquine.
            quantity: cartons (or vitrine units) to sell, 1 to 36.
            planche: sell a whole fresh planche of 6 (classique or spécial; quantity ignored).
            rng: the source for printing new cartons (default: the system CSPRNG).
            reason: "sale" or "consolation" (free carton after a tie draw).

        Raises:
            InvalidSale: bad quantity, a kind not played tonight, or the evening is over.
        """
        self._open()
        self._need_player(player_id)
        kind = _kind(kind)
        if kind not in self.program.kinds():
            raise err.InvalidSale(
                f"no {kind} game tonight", "Aucune partie de ce type n'est au programme."
            )
        self._check_sellable(kind)
        if planche and kind not in (Kind.CLASSIQUE, Kind.SPECIAL):
            raise err.InvalidSale(
                f"no planche of {kind} cartons", "Planche : classique ou spéciale."
            )
        if not planche and not (_is_int(quantity) and 1 <= quantity <= MAX_PER_SALE):
            raise err.InvalidSale(
                f"quantity {quantity!r} not in 1..{MAX_PER_SALE}",
                f"Choisissez de 1 à {MAX_PER_SALE} cartons.",
            )
        if reason not in ("sale", "consolation"):
            raise err.InvalidArgument(f"sale reason {reason!r}")
        rng = rng or default_rng()
        events: list[ev.Event] = []
        if planche:
            printed = self._print(kind, rng)
            self.apply(printed)
            events.append(printed)
            units = [no for no, _, _ in printed.cartons]
        else:
            while len(self.stock[kind]) < quantity:
                printed = self._print(kind, rng, quantity - len(self.stock[kind]))
                self.apply(printed)
                events.append(printed)
            units = self.stock[kind][:quantity]
        nos = tuple(n for u in units for n in self.units[u])
        sold = ev.CartonsSold(
            purchase_no=len(self.purchases) + 1,
            player_id=player_id,
            kind=kind.value,
            carton_nos=nos,
            first_game=self.next_game_index(),
            reason="planche" if planche else reason,
        )
        self.apply(sold)
        events.append(sold)
        return events

    # ------------------------------------------------------------------ moves: paper cartons

    def print_paper(
        self, kind: Kind | str, sheets: int, by: str, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Print cartons on paper in advance: `sheets` sheets of 6 (a planche covering 1-90,
        two vitrines, or 6 maxiquine grids), numbered in the série, kept apart for the desk
        to sell by number and check code (`sell_printed`)."""
        self._open()
        by = _staff_name(by)
        kind = _kind(kind)
        if kind not in self.program.kinds():
            raise err.InvalidSale(
                f"no {kind} game tonight", "Aucune partie de ce type n'est au programme."
            )
        self._check_sellable(kind)
        if not _is_int(sheets) or not 1 <= sheets <= MAX_PAPER_SHEETS:
            raise err.InvalidSale(
                f"{sheets!r} sheets not in 1..{MAX_PAPER_SHEETS}",
                f"Imprimez de 1 à {MAX_PAPER_SHEETS} feuilles à la fois.",
            )
        rng = rng or default_rng()
        events: list[ev.Event] = []
        for _ in range(sheets):
            printed = self._print(kind, rng, 6)
            self.apply(printed)
            events.append(printed)
        nos = tuple(
            no for p in events if isinstance(p, ev.CartonsPrinted) for no, _, _ in p.cartons
        )
        return events + self._emit(ev.PaperPrinted(kind.value, nos, by))

    def sell_printed(
        self,
        player_id: str,
        name: str,
        offer: int,
        cartons: Sequence[tuple[object, object]],
        method: str,
        seller: str,
    ) -> list[ev.Event]:
        """The desk sells pre-printed paper cartons, each given by its number and check code
        (typed, or the QR code scanned), to a paper player (registered now under `name` when
        `player_id` is new). A carton that is not in this série's paper stock, or whose code is
        wrong, or that was sold already (cancelled included), is refused and counted: the move
        then returns only `PaperCartonRefused` events and sells nothing."""
        self._open()
        self._till_open()
        seller = _staff_name(seller)
        if method not in DESK_METHODS:
            raise err.InvalidSale(f"desk payment method {method!r}", "Espèces ou carte.")
        o = self.offer(offer)
        self._check_sellable(o.kind)
        if not isinstance(cartons, list | tuple) or not 1 <= len(cartons) <= 3 * MAX_PER_SALE:
            raise err.InvalidSale(
                f"{cartons!r:.40} cartons", "Scannez ou tapez les cartons vendus."
            )
        joining = player_id not in self.players
        if joining:
            if not isinstance(player_id, str) or not 1 <= len(player_id) <= 64:
                raise err.InvalidArgument(f"player id {player_id!r:.20}")
            name = _clean_name(name)
        elif self.origins.get(player_id) != "paper":
            raise err.InvalidSale(
                f"printed cartons for {self.origins.get(player_id)} player {player_id}",
                "Les cartons imprimés se vendent aux joueurs sans téléphone.",
            )
        refused: list[ev.PaperCartonRefused] = []
        units: list[int] = []
        for no, code in cartons:
            c = self.cartons.get(no) if _is_int(no) else None  # type: ignore[arg-type]
            genuine = (
                c is not None
                and isinstance(code, str)
                and verify_check_code(self.key, self.program.series, c.no, code)
            )
            typed = no if _is_int(no) and 0 <= no < 10**9 else 0  # type: ignore[operator]
            if c is None or not genuine:
                refused.append(ev.PaperCartonRefused(typed, "unknown", seller))  # type: ignore[arg-type]
            elif c.no in self.purchase_of:
                refused.append(ev.PaperCartonRefused(c.no, "sold", seller))
            elif c.unit not in self.paper_stock[c.kind]:
                refused.append(ev.PaperCartonRefused(c.no, "unknown", seller))
            elif c.kind is not o.kind:
                raise err.InvalidSale(
                    f"carton {c.no} is {c.kind}, the offer {o.kind}",
                    f"Le carton n° {c.no} n'est pas un carton « {KIND_LABELS[o.kind].lower()} ».",
                )
            elif c.unit in units:
                raise err.InvalidSale(
                    f"unit {c.unit} given twice", f"Le carton n° {c.no} est compté deux fois."
                )
            else:
                units.append(c.unit)
        if refused:
            events: list[ev.Event] = []
            for r in refused:
                events += self._emit(r)
            return events
        nos = tuple(sorted(n for u in units for n in self.units[u]))
        if o.planche:
            numbers = sorted(x for n in nos for x in self.cartons[n].carton.numbers)
            whole = len(nos) == 6 and numbers == list(BALLS)
        else:
            whole = len(units) == o.quantity
        if not whole:
            want = "une planche de 6 (les 90 numéros)" if o.planche else o.label
            raise err.InvalidSale(
                f"{len(units)} units for offer {offer} ({o.label})",
                f"Ce tarif vend {want} : {len(units)} carton(s) scanné(s).",
            )
        events = self._emit(ev.PlayerJoined(player_id, name, "paper")) if joining else []
        sold = ev.CartonsSold(
            purchase_no=len(self.purchases) + 1,
            player_id=player_id,
            kind=o.kind.value,
            carton_nos=nos,
            first_game=self.next_game_index(),
            reason="planche" if o.planche else "sale",
        )
        events += self._emit(sold)
        return events + self._emit(
            self._sale_record(player_id, offer, o.price_cents, method, seller, sold.purchase_no)
        )

    def _print(self, kind: Kind, rng: random.Random, wanted: int = 1) -> ev.CartonsPrinted:
        """Number new cartons of the série (not applied)."""
        first = len(self.cartons) + 1
        if kind is Kind.MAXIQUINE:
            grids = [generate_maxi(rng) for _ in range(wanted)]
            return ev.CartonsPrinted(
                kind.value,
                tuple((first + i, first + i, _rows(c)) for i, c in enumerate(grids)),
            )
        strip = generate_strip(rng)
        per_unit = 3 if kind is Kind.VITRINE else 1
        return ev.CartonsPrinted(
            kind.value,
            tuple((first + i, first + i - i % per_unit, _rows(c)) for i, c in enumerate(strip)),
        )

    # ------------------------------------------------------------------ moves: the animateur

    def start_game(self, seed: bytes | None = None) -> list[ev.Event]:
        """Announce and open the next game of the program. With the electronic boulier, the
        game's whole order is fixed now from a fresh secret seed (`seed`: tests only) and the
        commitment to it is published (`DrawCommitted`, binding the evening's join code, the
        série and the game's number); its cartons are fixed too: a carton bought from now on
        plays the next game."""
        self._open()
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            raise err.GameNotFinished(f"game {g.index} is still {g.status}")
        if len(self.games) >= len(self.program.games):
            raise err.EveningOver("every game of the program has been played")
        index = len(self.games)
        electronic = self.program.settings.draw_source is DrawSource.ELECTRONIC
        if seed is not None and (not isinstance(seed, bytes) or len(seed) != draws.SEED_BYTES):
            raise err.InvalidArgument(f"a seed of {draws.SEED_BYTES} bytes, not {seed!r:.20}")
        evening = self.code
        events = self._emit(ev.GameStarted(index))
        if electronic:
            seed = seed or draws.new_seed()
            series = self.program.series
            self.sealed[index] = seed
            events += self._emit(
                ev.DrawCommitted(
                    index,
                    evening,
                    series,
                    draws.commitment(seed, evening, series, index + 1),
                    draws.SCHEME,
                )
            )
        return events

    def draw(self, rng: random.Random | None = None) -> list[ev.Event]:
        """Draw the next number with the electronic boulier: the next of the game's committed
        order (`rng` serves only a game started before draws were committed)."""
        g = self._drawable(DrawSource.ELECTRONIC)
        if g.commitment is not None:
            number = self.committed_order(g)[len(g.drawn)]
        else:
            out = set(g.drawn)
            left = [n for n in BALLS if n not in out]
            number = (rng or default_rng()).choice(left)
        return self._emit(ev.NumberDrawn(g.index, len(g.drawn) + 1, number, "electronic"))

    def committed_order(self, g: Game) -> tuple[int, ...]:
        """The whole order a committed game draws, from its sealed seed, checked against the
        published commitment.

        Raises:
            DrawSeedMissing: the seed is not here, or it is not the committed one.
        """
        order = self._orders.get(g.index)
        if order is not None:
            return order
        c = g.commitment
        seed = self.sealed.get(g.index)
        if c is None or seed is None:
            raise err.DrawSeedMissing(f"no sealed seed for game {g.index}")
        if draws.commitment(seed, c.evening, c.series, g.index + 1) != c.commitment:
            raise err.DrawSeedMissing(f"the sealed seed of game {g.index} is not the committed one")
        order = self._orders[g.index] = draws.draw_order(seed)
        return order

    def _reveal(self, g: Game) -> list[ev.Event]:
        """The seed of a committed game, once the game is over (or the evening closed on it)."""
        seed = self.sealed.get(g.index)
        if g.commitment is None or g.revealed or seed is None:
            return []
        return self._emit(ev.DrawRevealed(g.index, seed.hex()))

    def enter_ball(self, number: int) -> list[ev.Event]:
        """Record the number read on a physical ball."""
        number = _ball(number)
        g = self._drawable(DrawSource.PHYSICAL)
        if number in g.drawn:
            raise err.AlreadyDrawn(
                f"{number} already drawn in game {g.index}", f"Le {number} est déjà sorti."
            )
        return self._emit(ev.NumberDrawn(g.index, len(g.drawn) + 1, number, "physical"))

    def can_correct(self) -> bool:
        """May the last ball be corrected now (a physical ball, no claim on it)?"""
        g = self.game
        return bool(
            g
            and g.status is GameStatus.RUNNING
            and g.drawn
            and self.program.settings.draw_source is DrawSource.PHYSICAL
            and not any(c.number == g.drawn[-1] for c in g.claims)
        )

    def correct_last(self, number: int) -> list[ev.Event]:
        """Replace a mistyped physical ball, while no claim refers to it (logged)."""
        number = _ball(number)
        g = self._running()
        if self.program.settings.draw_source is not DrawSource.PHYSICAL:
            raise err.CorrectionRefused(
                "electronic draws are never corrected", "Un tirage électronique ne se corrige pas."
            )
        if not g.drawn:
            raise err.CorrectionRefused("no number drawn yet", "Aucun numéro à corriger.")
        old = g.drawn[-1]
        if any(c.number == old for c in g.claims):
            raise err.CorrectionRefused(
                f"a claim refers to {old}", f"Un joueur a déjà annoncé sur le {old}."
            )
        if number == old or number in g.drawn:
            raise err.AlreadyDrawn(f"{number} already drawn", f"Le {number} est déjà sorti.")
        return self._emit(ev.DrawCorrected(g.index, len(g.drawn), old, number))

    def offer_share(self) -> list[ev.Event]:
        """Ask the two tied players whether they share the divisible lot (art. 4)."""
        g = self._running()
        self._after_last_call(g)
        entries = g.entries()
        stage = g.stage_spec
        assert stage is not None
        if self.program.settings.tie_method is not TieMethod.SHARE_OR_DRAW:
            raise err.ShareNotAllowed(
                "the evening settles ties by draw only",
                "Ce soir, les ex aequo se départagent par tirage au sort.",
            )
        if len(entries) != 2:
            raise err.ShareNotAllowed(
                f"{len(entries)} players tied, sharing needs exactly 2",
                "Le partage n'est possible qu'entre deux ex aequo.",
            )
        if not stage.lot.divisible:
            raise err.ShareNotAllowed("the lot is not divisible", "Ce lot n'est pas divisible.")
        if g.tie.closed:
            raise err.ShareNotAllowed(
                "the tie is already being settled", "Le partage a déjà été proposé."
            )
        return self._emit(ev.ShareOffered(g.index, g.stage, entries))

    def answer_share(self, player_id: str, accept: bool, by: str = "") -> list[ev.Event]:
        """A tied player accepts or refuses to share; two yes settle the tie.

        `by` "animateur": the animateur records the answer of a paper player (a player with no
        phone, registered at the desk); a phone player answers on their phone.
        """
        g = self._running()
        if by not in ("", "animateur"):
            raise err.InvalidArgument(f"share answer by {by!r:.20}")
        if by and self.origins.get(player_id) != "paper":
            raise err.InvalidArgument(
                f"proxy share answer for {player_id!r:.20}, not a paper player",
                "Ce joueur répond sur son téléphone : seul un joueur papier répond par "
                "l'animateur.",
            )
        if not isinstance(accept, bool):
            raise err.InvalidArgument(f"accept must be a bool, got {accept!r}")
        if not g.tie.share_offered_to or g.tie.broken is not None:
            raise err.NoTie("no share offer is pending", "Aucun partage n'est proposé.")
        if player_id not in g.tie.share_offered_to:
            raise err.NotInTie(f"{player_id} is not part of the share offer")
        if player_id in g.tie.answers:
            raise err.InvalidArgument(f"{player_id} already answered", "Vous avez déjà répondu.")
        events = self._emit(ev.ShareAnswered(g.index, g.stage, player_id, accept, by))
        if all(g.tie.answers.get(p) for p in g.tie.share_offered_to):
            events += self._emit(
                ev.TieBroken(g.index, g.stage, "share", (), tuple(g.tie.share_offered_to))
            )
        return events

    def break_tie_by_draw(self, rng: random.Random | None = None) -> list[ev.Event]:
        """Each tied player draws a numbered token from the app; the highest wins, the others
        get a free carton at once (art. 4, 5). Refused on an evening whose tokens come from
        the bag (`break_tie_with_tokens`)."""
        g, entries = self._tie_to_draw(TokenSource.APP)
        rng = rng or default_rng()
        tokens = rng.sample(range(1, max(TOKEN_BAG, len(entries)) + 1), len(entries))
        return self._tokens_drawn(g, entries, tokens, "app", rng)

    def break_tie_with_tokens(
        self, tokens: dict[str, int], rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Each tied player drew a token from the bag and the animateur typed them: one per
        tied player, distinct, from 1 to 90; the highest wins (art. 4, 5). Refused on an
        evening whose tokens come from the app.

        `rng` prints the losers' free cartons (default: the system CSPRNG).
        """
        g, entries = self._tie_to_draw(TokenSource.BAG)
        if not isinstance(tokens, dict) or set(tokens) != set(entries):
            given = sorted(map(str, tokens)) if isinstance(tokens, dict) else tokens
            raise err.InvalidTokens(
                f"tokens for {given!r:.80}, tied players {list(entries)}",
                "Tapez le jeton de chacun des joueurs ex aequo.",
            )
        values = [tokens[p] for p in entries]
        if not all(_is_int(t) and 1 <= t <= TOKEN_BAG for t in values):
            raise err.InvalidTokens(f"tokens {values!r:.80} not all integers in 1..{TOKEN_BAG}")
        if len(set(values)) != len(values):
            raise err.InvalidTokens(
                f"tokens {values} are not distinct", "Deux jetons portent le même numéro."
            )
        return self._tokens_drawn(g, entries, values, "bag", rng)

    def _tie_to_draw(self, source: TokenSource) -> tuple[Game, tuple[str, ...]]:
        """The game and its tied players, once a token draw may settle them."""
        g = self._running()
        entries = g.entries()
        if len(entries) < 2 or g.tie.broken is not None:
            raise err.NoTie(f"{len(entries)} valid entries, tie broken: {g.tie.broken is not None}")
        self._after_last_call(g)
        st = self.program.settings
        if st.token_source is not source:
            raise err.WrongTokenSource(
                f"{source} tokens on an evening with {st.token_source} tokens",
                "Ce soir, les jetons sortent du sac : tapez le jeton de chaque joueur."
                if st.token_source is TokenSource.BAG
                else "Ce soir, l'appli tire les jetons au sort.",
            )
        lot = g.spec.stages[g.stage].lot
        if (
            st.tie_method is TieMethod.SHARE_OR_DRAW
            and len(entries) == 2
            and lot.divisible
            and not g.tie.share_refused
        ):
            raise err.ShareFirst(
                "two tied players, a divisible lot: the share must be offered and refused first",
                "Partage proposé : attendez les réponses des deux joueurs."
                if g.tie.share_offered_to
                else None,
            )
        return g, entries

    def _tokens_drawn(
        self,
        g: Game,
        entries: tuple[str, ...],
        tokens: Sequence[int],
        source: str,
        rng: random.Random | None,
    ) -> list[ev.Event]:
        winner = entries[max(range(len(entries)), key=tokens.__getitem__)]
        events = self._emit(
            ev.TieBroken(
                g.index,
                g.stage,
                "draw",
                tuple(zip(entries, tokens, strict=True)),
                (winner,),
                source,
            )
        )
        for p in entries:
            if p != winner:
                events += self._console(g.index, g.stage, p, "tie", rng)
        return events

    def _console(
        self, game: int, stage: int, player_id: str, why: str, rng: random.Random | None
    ) -> list[ev.Event]:
        """A consolation: a free carton, a classique one or a single carton of a kind that
        still has a game to play (a vitrine is a unit of 3, not "a carton"); when no game is
        left for it, a "carton offert" voucher."""
        kinds = [Kind.CLASSIQUE, self.program.games[game].kind, Kind.SPECIAL, Kind.MAXIQUINE]
        kind = next((k for k in kinds if k is not Kind.VITRINE and self._plays_later(k)), None)
        if kind is not None:
            return self.sell(player_id, kind, 1, rng=rng or default_rng(), reason="consolation")
        return self._emit(ev.VoucherIssued(self._next_ticket, player_id, game, stage, why))

    def _after_last_call(self, g: Game) -> None:
        if g.last_call is not None:
            raise err.LastCallOpen(
                f"last call on {g.last_call.number} (stage {g.last_call.stage}) still open"
            )

    def close_last_call(self, opened: ev.LastCallOpened | None = None) -> list[ev.Event]:
        """End the last call ("Pas d'autre quine ?"): the lot can be awarded. The runtime
        calls it when the evening's `last_call_seconds` are over; `opened` (the event that
        opened it) makes sure a late timer never closes another one.

        Raises:
            NoLastCall: no last call is open, or not that one.
        """
        self._open()
        g = self.game
        lc = g.last_call if g is not None else None
        if lc is None or (opened is not None and opened != lc):
            raise err.NoLastCall(f"no last call {opened or ''} open")
        return self._emit(ev.LastCallClosed(lc.game, lc.stage, lc.number))

    def _plays_later(self, kind: Kind) -> bool:
        """Is a game of this kind still to be played by a carton bought now?"""
        first = self.next_game_index()
        return any(spec.kind is kind for spec in self.program.games[first:])

    def award(self) -> list[ev.Event]:
        """Give the stage's lot to its winner(s): one lot ticket each."""
        g = self._running()
        entries = g.entries()
        if not entries:
            raise err.NoValidClaim(f"no valid claim on stage {g.stage} of game {g.index}")
        self._after_last_call(g)
        if len(entries) == 1:
            tickets: tuple[tuple[int, str, str], ...] = ((self._next_ticket, entries[0], ev.WHOLE),)
        elif g.tie.broken is None:
            raise err.TieUnresolved(f"{len(entries)} players tied: {entries}")
        else:
            share = ev.WHOLE if g.tie.broken.method == "draw" else ev.HALF
            tickets = tuple(
                (self._next_ticket + i, p, share) for i, p in enumerate(g.tie.broken.winners)
            )
        return self._emit(ev.StageAwarded(g.index, g.stage, tickets))

    def allow_unmark(self) -> list[ev.Event]:
        """ "Vous pouvez démarquer": ends the game; annulled cartons come back."""
        self._open()
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("no game to end")
        if g.status is GameStatus.RUNNING and (len(g.drawn) < len(BALLS) or g.entries()):
            raise err.DemarquageTooEarly(
                f"stage {g.stage + 1} of {len(g.spec.stages)} not awarded yet"
            )
        # (all 90 numbers out and nobody claimed in time: the game ends, the lot stays unwon)
        return self._emit(ev.UnmarkAllowed(g.index)) + self._reveal(g)

    def close_evening(self, by: str, reason: str = "") -> list[ev.Event]:
        """The organiser closes the evening's books: from now on it is read-only, every move is
        refused (`EveningIsClosed`). A game still in play is interrupted (a written reason is
        then required) and its seed revealed first, so that its draw stays checkable."""
        by = _staff_name(by)
        if self.closed is not None:
            raise err.CloseRefused("already closed", "La soirée est déjà close.")
        if not isinstance(reason, str) or len(reason) > MAX_DECISION_REASON:
            raise err.InvalidArgument(f"close reason {reason!r:.40}")
        reason = " ".join(reason.split())
        g = self.game
        in_play = g is not None and g.status is not GameStatus.FINISHED
        if in_play and not reason:
            raise err.CloseRefused(
                f"game {g.index} in play and no reason",  # type: ignore[union-attr]
                "Une partie est en cours : écrivez pourquoi la soirée est close avant sa fin.",
            )
        events = self._reveal(g) if in_play and g is not None else []
        interrupted = g.index if in_play and g is not None else None
        return events + self._emit(ev.EveningClosed(by, reason, interrupted))

    def start_pause(self, message: str, returns_at: int) -> list[ev.Event]:
        """An entracte between games (or before the first): the hall screen shows its message
        and when the games resume (`returns_at`, POSIX seconds: the caller's clock). Starting
        one while another is in course changes its message or its time."""
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            raise err.PauseRefused(
                f"game {g.index} is {g.status}: no entracte during a game",
                "Terminez la partie (« Vous pouvez démarquer ») avant l'entracte.",
            )
        if self.is_over:
            raise err.PauseRefused(
                "every game has been played", "La soirée est terminée : pas d'entracte."
            )
        text = " ".join(message.split()) if isinstance(message, str) else ""
        if not text or len(text) > MAX_PAUSE_MESSAGE or not text.isprintable():
            raise err.InvalidArgument(
                f"pause message {message!r:.40}",
                f"Le message de l'entracte doit faire de 1 à {MAX_PAUSE_MESSAGE} caractères.",
            )
        if not _is_int(returns_at) or returns_at <= 0:
            raise err.InvalidArgument(f"pause return time {returns_at!r}", "Heure de reprise ?")
        return self._emit(ev.PauseStarted(text, returns_at))

    def end_pause(self) -> list[ev.Event]:
        """The entracte is over before the next game starts (starting it ends it too)."""
        if self.pause is None:
            raise err.PauseRefused("no entracte in course", "Aucun entracte en cours.")
        return self._emit(ev.PauseEnded())

    # ------------------------------------------------------------------ moves: the organiser

    def set_lot_photo(self, lot: str, digest: str) -> list[ev.Event]:
        """Attach a photo to a lot of the program (every game that plays a lot of that
        description shows it), or remove it (`digest` "")."""
        key = lot_key(lot)
        if not key or key not in {lot_key(s.lot.description) for s in self._stages()}:
            raise err.PictureRefused(
                f"no lot {lot!r:.60} in the program", "Ce lot n'est pas au programme."
            )
        if digest == "":
            if key not in self.lot_photos:
                raise err.PictureRefused(
                    f"lot {lot!r:.60} has no photo", "Ce lot n'a pas de photo."
                )
        else:
            _digest(digest)
        return self._emit(ev.LotPhotoSet(lot.strip(), digest))

    def add_partner(self, name: str, digest: str) -> list[ev.Event]:
        """A partner's logo for the hall screen (at most `MAX_PARTNERS`)."""
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not clean or len(clean) > MAX_PARTNER_NAME or not clean.isprintable():
            raise err.InvalidArgument(
                f"partner name {name!r:.50}",
                f"Le nom du partenaire doit faire de 1 à {MAX_PARTNER_NAME} caractères.",
            )
        _digest(digest)
        if any(d == digest for _, d in self.partners):
            raise err.PictureRefused(f"logo {digest[:12]} given twice", "Ce logo est déjà là.")
        if len(self.partners) >= MAX_PARTNERS:
            raise err.PictureRefused(
                f"{len(self.partners)} partners already",
                f"{MAX_PARTNERS} partenaires au plus : retirez-en un d'abord.",
            )
        return self._emit(ev.PartnerAdded(clean, digest))

    def remove_partner(self, digest: str) -> list[ev.Event]:
        """Take a partner's logo off the hall screen."""
        if not isinstance(digest, str) or all(d != digest for _, d in self.partners):
            raise err.PictureRefused(
                f"no partner logo {digest!r:.20}", "Ce partenaire n'est plus là."
            )
        return self._emit(ev.PartnerRemoved(digest))

    def _stages(self) -> list[Stage]:
        return [s for g in self.program.games for s in g.stages]

    @property
    def first_amendable_game(self) -> int:
        """The first game the organiser may still change: every earlier one has started."""
        return len(self.games)

    def amend_program(self, program: Program, by: str = "organisateur") -> list[ev.Event]:
        """The organiser's new program, for the games not started yet.

        The games already started (the one in play included) stay as they were, and so does
        the série (cartons are printed in it); while a game is in play, the settings it
        depends on (`PLAY_SETTINGS`) stay too; free cartons cannot be switched once a sale is
        recorded. Cartons already sold keep their price (the sale recorded it) and play the
        games of their kind from their first game: an amendment that would leave sold cartons
        with no game of their kind to play is refused. The legal checks are the program's own
        (`Program` validates itself on construction).

        Raises:
            AmendmentRefused: with the French reason.
        """
        self._open()
        if not isinstance(program, Program):
            raise err.InvalidArgument(f"amendment of {type(program).__name__}, not a Program")
        by = _staff_name(by)
        old, frozen = self.program, self.first_amendable_game
        if self.is_over:
            raise err.AmendmentRefused("the evening is over", "La soirée est terminée.")
        if program.series != old.series:
            raise err.AmendmentRefused(
                f"series {old.series!r} -> {program.series!r:.20}",
                "Le code de série ne change plus : les cartons sont imprimés dans cette série.",
            )
        if len(program.games) < frozen or program.games[:frozen] != old.games[:frozen]:
            changed = next(
                (
                    i
                    for i in range(frozen)
                    if i >= len(program.games) or program.games[i] != old.games[i]
                ),
                frozen - 1,
            )
            raise err.AmendmentRefused(
                f"game {changed} has started: it cannot be amended",
                f"La partie {changed + 1} a commencé : elle ne peut plus être modifiée.",
            )
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            for name in PLAY_SETTINGS:
                if getattr(program.settings, name) != getattr(old.settings, name):
                    raise err.AmendmentRefused(
                        f"setting {name} changed while game {g.index} is in play",
                        f"La partie {g.index + 1} est en cours : ce réglage (tirage, marquage, "
                        "ex aequo, dernier appel, aide) attendra la fin de la partie.",
                    )
        if program.settings.free_cartons != old.settings.free_cartons and self.sales:
            raise err.AmendmentRefused(
                "free_cartons changed after a sale",
                "Des ventes sont enregistrées : le loto gratuit ne peut plus changer.",
            )
        for kind in sorted({p.kind for p in self.purchases}, key=list(Kind).index):
            still_sold = any(
                p.kind is kind and not self.voided.issuperset(p.carton_nos) for p in self.purchases
            )
            was = any(s.kind is kind for s in old.games[frozen:])
            now = any(s.kind is kind for s in program.games[frozen:])
            if still_sold and was and not now:
                raise err.AmendmentRefused(
                    f"sold {kind} cartons would have no game left",
                    f"Des cartons « {KIND_LABELS[kind].lower()} » sont vendus : gardez au "
                    "moins une partie de ce type à venir.",
                )
        if program == old:
            raise err.AmendmentRefused("no change", "Aucun changement à enregistrer.")
        text = json.dumps(program.to_dict(), ensure_ascii=False, sort_keys=True)
        return self._emit(ev.ProgramAmended(text, frozen, by))

    # ------------------------------------------------------------------ moves: disputes (art. 8)

    def reinstate_carton(self, carton_no: int, by: str, reason: str) -> list[ev.Event]:
        """An annulled carton plays again in the current game (the association decided the
        annulment was wrong). `by`: "animateur" or "organisateur"; `reason`: written."""
        self._open()
        by, reason = _decision(by, reason)
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.DisputeRefused(
                "no game in progress", "Aucune partie en cours : les cartons annulés sont revenus."
            )
        c = self._carton(carton_no)
        if c.unit not in g.annulled:
            raise err.DisputeRefused(
                f"carton {carton_no} is not annulled in game {g.index}",
                "Ce carton n'est pas annulé dans cette partie.",
            )
        unit = self.units[c.unit]
        return self._emit(ev.CartonReinstated(g.index, c.no, unit, self.owner(c.no), by, reason))

    def overturn(self, claim_no: int, verdict: str, by: str, reason: str) -> list[ev.Event]:
        """Change the verdict of a claim of the current game to "valid" or "false".

        To "valid": a carton annulled by that (false) claim plays again; the claim joins the
        entries of its stage only if it is on the current number of a stage not settled yet
        (otherwise the association gives a lot or a consolation with `give_lot` or
        `give_consolation`). To "false": the claim leaves the entries and its carton is
        annulled for the rest of the game (as after any fausse annonce); refused while the
        player holds a lot ticket of that stage (withdraw it first) or while the stage's tie
        is being settled.
        """
        self._open()
        by, reason = _decision(by, reason)
        g = self.game
        if g is None:
            raise err.DisputeRefused("no game started", "Aucune partie commencée.")
        claim = g.claim(claim_no) if _is_int(claim_no) else None
        if claim is None or claim.player_id is None:
            raise err.DisputeRefused(
                f"no claim {claim_no!r:.20} of a player in game {g.index}",
                "Cette annonce n'est pas celle d'un joueur de la partie en cours.",
            )
        old = g.verdict_of(claim)
        if verdict not in (Verdict.VALID, Verdict.FALSE) or old not in _OVERTURNABLE:
            raise err.DisputeRefused(
                f"overturn {old!r} to {verdict!r:.20}",
                "Seule une annonce jugée (valide, fausse, tour passé, après l'attribution) "
                "peut devenir valide ou fausse.",
            )
        if old == verdict:
            raise err.DisputeRefused(
                f"claim {claim_no} is already {old}", "L'annonce a déjà ce verdict."
            )
        running = g.status is GameStatus.RUNNING
        entry = False
        if verdict == Verdict.FALSE:
            held = [
                t.no
                for t in self.lot_tickets.values()
                if (t.game, t.stage, t.player_id) == (g.index, claim.stage, claim.player_id)
                and t.kind == "lot"
                and t.no not in self.withdrawn
            ]
            if held:
                raise err.DisputeRefused(
                    f"{claim.player_id} holds lot ticket(s) {held} of that stage",
                    "Ce joueur a reçu le lot : retirez d'abord le lot attribué.",
                )
            if running and claim.stage == g.stage and g.tie.closed:
                raise err.DisputeRefused(
                    f"the tie of stage {g.stage} is being settled",
                    "Le départage de ce lot est en cours : attribuez-le d'abord.",
                )
        else:
            entry = (
                running
                and claim.stage == g.claim_stage == g.stage
                and claim.number == g.last
                and not g.tie.closed
            )
        events = self._emit(
            ev.VerdictOverturned(g.index, claim.claim_no, old, verdict, entry, by, reason)
        )
        if entry:  # an in-time winner again: its last call, unless one runs or ran for it
            events += self._open_last_call(g)
        return events

    def give_lot(self, claim_no: int, by: str, reason: str) -> list[ev.Event]:
        """Give the lot of a claim's stage to its claimant (e.g. a réclamation after the
        award): a lot ticket of its own, checked and handed over at the desk like any."""
        self._open()
        by, reason = _decision(by, reason)
        g, claim = self._claim_of(claim_no)
        assert claim.player_id is not None
        given = [
            d
            for d in self.decisions
            if isinstance(d, ev.LotGiven)
            and d.claim_no == claim.claim_no
            and d.ticket_no not in self.withdrawn
        ]
        if given:
            raise err.DisputeRefused(
                f"claim {claim_no} already got lot ticket {given[0].ticket_no}",
                "Un lot a déjà été donné pour cette annonce.",
            )
        return self._emit(
            ev.LotGiven(
                self._next_ticket, g.index, claim.stage, claim.claim_no, claim.player_id, by, reason
            )
        )

    def give_consolation(
        self, claim_no: int, by: str, reason: str, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Give a consolation to a claimant: a free carton for a game still to play, or a
        "carton offert" voucher when none is left."""
        self._open()
        by, reason = _decision(by, reason)
        g, claim = self._claim_of(claim_no)
        assert claim.player_id is not None
        if any(
            isinstance(d, ev.ConsolationGiven) and d.claim_no == claim.claim_no
            for d in self.decisions
        ):
            raise err.DisputeRefused(
                f"claim {claim_no} already got a consolation",
                "Une consolation a déjà été donnée pour cette annonce.",
            )
        events = self._emit(
            ev.ConsolationGiven(g.index, claim.stage, claim.claim_no, claim.player_id, by, reason)
        )
        return events + self._console(g.index, claim.stage, claim.player_id, "dispute", rng)

    def withdraw_award(self, ticket_no: int, by: str, reason: str) -> list[ev.Event]:
        """Void a lot ticket (or a voucher): the desk can no longer hand it over. The stage
        stays awarded; the association may give the lot to someone else (`give_lot`)."""
        self._open()
        by, reason = _decision(by, reason)
        if not _is_int(ticket_no) or ticket_no not in self.lot_tickets:
            raise err.UnknownTicket(f"no lot ticket {ticket_no!r:.20}")
        if ticket_no in self.withdrawn:
            raise err.DisputeRefused(
                f"ticket {ticket_no} already voided", "Ce ticket est déjà annulé."
            )
        t = self.lot_tickets[ticket_no]
        return self._emit(ev.AwardWithdrawn(ticket_no, t.player_id, by, reason))

    def _claim_of(self, claim_no: int) -> tuple[Game, ev.ClaimMade]:
        """A claim of a player, in any game of the evening."""
        for g in self.games:
            c = g.claim(claim_no) if _is_int(claim_no) else None
            if c is not None and c.player_id is not None:
                return g, c
        raise err.DisputeRefused(
            f"no claim {claim_no!r:.20} of a player", "Annonce introuvable (ou d'aucun joueur)."
        )

    # ------------------------------------------------------------------ moves: a player

    def toggle_mark(self, player_id: str, carton_no: int, number: int) -> list[ev.Event]:
        """Touch a cell: put a pion on a drawn number, or take it off."""
        number = _ball(number)
        g, c = self._own_playing(player_id, carton_no)
        if g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("the game is over", "La partie est terminée.")
        if number not in c.carton.numbers:
            raise err.NumberNotOnCarton(f"{number} not on carton {carton_no}")
        if number in g.marks.get(carton_no, ()):
            return self._emit(ev.CellUnmarked(g.index, player_id, carton_no, number))
        if c.unit in g.annulled:
            raise err.CartonAnnulled(f"carton {carton_no} annulled in game {g.index}")
        if number not in g.drawn:
            raise err.NumberNotDrawn(
                f"{number} not drawn in game {g.index}", f"Le {number} n'est pas encore sorti."
            )
        return self._emit(ev.CellMarked(g.index, player_id, carton_no, number))

    def save_marks(
        self, batches: list[tuple[str, int, list[tuple[int, int, bool]]]]
    ) -> tuple[list[ev.Event], list[tuple[bool, list[tuple[int, int]]]]]:
        """Phones' pions, sent in batches for safekeeping (the pion is the phone's at once:
        marks are not evidence). A batch is (player id, game no 1-based, ops "(carton, number)
        is marked or not"). An op that already holds costs nothing; one `toggle_mark` would
        refuse is skipped; the batch of another game, a finished one or an unknown player is
        refused whole. All the changes make one event.

        Returns:
            The events (none, or one `MarksSaved`), and for each batch (taken, the (carton,
            number) of its ops skipped as illegal).
        """
        g = self.game
        now: dict[tuple[int, int], bool] = {}  # what the batches before set, in this call
        changes: list[tuple[str, int, int, int]] = []
        out: list[tuple[bool, list[tuple[int, int]]]] = []
        for player_id, game_no, ops in batches:
            if (
                not isinstance(player_id, str)
                or player_id not in self.players
                or g is None
                or g.index + 1 != game_no
                or g.status is GameStatus.FINISHED
                or self.closed is not None
            ):
                out.append((False, []))
                continue
            skipped: list[tuple[int, int]] = []
            for carton_no, number, marked in ops:
                key = (carton_no, number)
                held = now.get(key, number in g.marks.get(carton_no, ()))
                if not self._may_mark(g, player_id, carton_no, number, bool(marked)):
                    skipped.append(key)
                elif held != bool(marked):
                    now[key] = bool(marked)
                    changes.append((player_id, carton_no, number, int(bool(marked))))
            out.append((True, skipped))
        if not changes:
            return [], out
        assert g is not None
        return self._emit(ev.MarksSaved(g.index, tuple(changes))), out

    def _may_mark(self, g: Game, player_id: str, carton_no: int, number: int, on: bool) -> bool:
        """Whether `toggle_mark` would let this player put (`on`) or take off a pion there."""
        c = self.cartons.get(carton_no) if _is_int(carton_no) else None
        if c is None or self.owner(carton_no) != player_id or not self.plays(carton_no, g):
            return False
        if not _is_int(number) or number not in c.carton.numbers:
            return False
        return not on or (c.unit not in g.annulled and number in g.drawn)

    def unmark_all(self, player_id: str) -> list[ev.Event]:
        """Clear all my cartons: locked until the animateur allows it (art. 9)."""
        self._need_player(player_id)
        g = self.game
        if g is None:
            return []
        if g.status is not GameStatus.FINISHED:
            raise err.DemarquageLocked(f"game {g.index} is {g.status}")
        mine = {c.no for c in self.player_cartons(player_id)}
        if not any(g.marks.get(n) for n in mine):
            return []
        return self._emit(ev.CartonsCleared(g.index, player_id))

    def claim(self, player_id: str, carton_no: int) -> list[ev.Event]:
        """A player's "QUINE !" on one of their cartons, judged on the last number drawn and
        the stage in play when it came out (art. 2: in time until the next number).

        A valid claim joins the entries of that stage (the ex aequo) until the animateur
        settles it; the first one opens the last call when the evening has one. Once the stage
        is settled, a valid claim is "valide après l'attribution": recorded, never annulled,
        no entry, a réclamation for the association (art. 8).
        """
        self._need_player(player_id)
        c = self._carton(carton_no)
        if self.owner(carton_no) != player_id:
            raise err.NotYourCarton(f"carton {carton_no} is not {player_id}'s")
        return self._claim(c, player_id, "app")

    def paper_claim(self, series: str, carton_no: int, code: str) -> list[ev.Event]:
        """A paper carton's claim, checked by the animateur with the carton's printed check
        code: same verdicts as in the app, plus the série check (art. 10; docs/RULES.md,
        "Claims")."""
        self._open()
        g = self._claimable()
        if not isinstance(series, str) or not isinstance(code, str):
            raise err.InvalidArgument("series and code must be strings")
        if not _is_int(carton_no) or carton_no < 1:
            raise err.InvalidArgument(f"carton number {carton_no!r}", "Numéro de carton invalide.")
        genuine = (
            series.strip().upper() == self.program.series.strip().upper()
            and carton_no in self.cartons
            and verify_check_code(self.key, self.program.series, carton_no, code)
        )
        if not genuine:
            return self._emit(
                self._claim_event(
                    g, None, carton_no, (carton_no,), Verdict.WRONG_SERIES, (), "desk"
                )
            )
        return self._claim(self.cartons[carton_no], self.owner(carton_no), "desk")

    #: The old name (live/states/animateur.py still calls it: to switch, then this goes).

    def _claim(self, c: IssuedCarton, player_id: str | None, via: str) -> list[ev.Event]:
        g = self._claimable()
        unit = self.units[c.unit]
        if player_id is None or not self.plays(c.no, g):
            return self._emit(
                self._claim_event(g, player_id, c.no, unit, Verdict.NOT_IN_GAME, (), via)
            )
        if (g.claim_stage, g.last, unit) in g.judged:
            raise err.AlreadyClaimed(f"unit {c.unit} already claimed on {g.last}")
        if c.unit in g.annulled:
            return self._emit(
                self._claim_event(g, player_id, c.no, unit, Verdict.ANNULLED, (), via)
            )
        stage = g.spec.stages[g.claim_stage]
        j = judge(stage.pattern, [self.cartons[n].carton for n in unit], g.drawn)
        verdict = j.verdict
        if verdict is Verdict.VALID and g.settled(g.claim_stage):
            verdict = Verdict.AFTER_AWARD
        winning = tuple(sorted(j.winning))
        events = self._emit(self._claim_event(g, player_id, c.no, unit, verdict, winning, via))
        if verdict is Verdict.VALID:
            events += self._open_last_call(g)
        return events

    def _open_last_call(self, g: Game) -> list[ev.Event]:
        """The last call of a valid claim on the last number: opened by the first one, and
        again by the next one after the association overturned every claim of the last call
        that ran (every in-time winner has a last call: `called` forgets a number once its
        entries are gone, see `apply`)."""
        seconds = self.program.settings.last_call_seconds
        if not seconds or g.last_call is not None or (g.claim_stage, g.last) in g.called:
            return []
        assert g.last is not None
        return self._emit(ev.LastCallOpened(g.index, g.claim_stage, g.last, seconds))

    def _claim_event(
        self,
        g: Game,
        player_id: str | None,
        carton_no: int,
        unit: Sequence[int],
        verdict: Verdict,
        winning: tuple[int, ...],
        via: str,
    ) -> ev.ClaimMade:
        return ev.ClaimMade(
            self._next_claim,
            g.index,
            g.claim_stage,
            player_id,
            carton_no,
            tuple(unit),
            g.last,
            verdict.value,
            winning,
            via,
        )

    # ------------------------------------------------------------------ guards

    def _need_player(self, player_id: str) -> None:
        self._open()
        if not isinstance(player_id, str) or player_id not in self.players:
            raise err.UnknownPlayer(f"unknown player {player_id!r}")

    def _carton(self, carton_no: int) -> IssuedCarton:
        if not _is_int(carton_no) or carton_no not in self.cartons:
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
        """The game a claim refers to: numbers drawn, and démarquage not allowed yet (the
        window of the last number stays open after its lot is awarded, art. 2)."""
        self._open()
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("no game is running")
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

    # ------------------------------------------------------------------ applying events

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
    ) -> Evening:
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
        is checked again: the move that made the event checked them."""
        self.history.append(e)
        match e:
            case ev.PlayerJoined():
                self.players[e.player_id] = e.name
                self.origins[e.player_id] = e.origin
            case ev.SaleRecorded():
                self.sales[e.sale_no] = Sale(
                    e.sale_no,
                    e.player_id,
                    e.offer,
                    e.kind,
                    e.quantity,
                    e.planche,
                    e.amount_cents,
                    e.method,
                    e.seller,
                    e.purchase_no,
                    SaleStatus.PENDING if e.method == "pending" else SaleStatus.PAID,
                )
            case ev.PaymentConfirmed():
                sale = self.sales[e.sale_no]
                sale.status = SaleStatus.PAID
                sale.method, sale.cashier, sale.purchase_no = e.method, e.cashier, e.purchase_no
            case ev.SaleCancelled():
                sale = self.sales[e.sale_no]
                sale.status = SaleStatus.CANCELLED
                sale.cancelled_by, sale.cancel_reason = e.by, e.reason
                sale.refunded_cents = e.refunded_cents
                if sale.purchase_no:
                    self.voided.update(self.purchases[sale.purchase_no - 1].carton_nos)
            case ev.TillClosed():
                self.till_closed_by = e.by
            case ev.LotHandedOver():
                self.handed_over[e.ticket_no] = e.by
            case ev.CartonsPrinted():
                kind = Kind(e.kind)
                for no, unit, rows in e.cartons:
                    self.cartons[no] = IssuedCarton(no, kind, unit, Carton.from_rows(rows))
                    self.units[unit] = (*self.units.get(unit, ()), no)
                    if unit == no:
                        self.stock[kind].append(unit)
            case ev.CartonsSold():
                p = Purchase(
                    e.purchase_no, e.player_id, Kind(e.kind), e.carton_nos, e.first_game, e.reason
                )
                self.purchases.append(p)
                sold_units = {self.cartons[n].unit for n in e.carton_nos}
                self.stock[p.kind] = [u for u in self.stock[p.kind] if u not in sold_units]
                paper = self.paper_stock[p.kind]
                if paper:
                    self.paper_stock[p.kind] = [u for u in paper if u not in sold_units]
                for n in e.carton_nos:
                    self.purchase_of[n] = p
                    for x in self.cartons[n].carton.numbers:
                        self._by_number[x].append(n)
            case ev.PaperPrinted():
                kind = Kind(e.kind)
                units = {self.cartons[n].unit for n in e.carton_nos}
                self.stock[kind] = [u for u in self.stock[kind] if u not in units]
                self.paper_stock[kind] += sorted(units)
            case ev.PaperCartonRefused():
                pass  # (counted by the reconciliation, from the log)
            case ev.GameStarted():
                self.games.append(Game(e.game, self.program.games[e.game]))
                self.pause = None  # the games resume
            case ev.PauseStarted():
                self.pause = e
            case ev.PauseEnded():
                self.pause = None
            case ev.LotPhotoSet():
                if e.digest:
                    self.lot_photos[lot_key(e.lot)] = e.digest
                else:
                    self.lot_photos.pop(lot_key(e.lot), None)
            case ev.PartnerAdded():
                self.partners.append((e.name, e.digest))
            case ev.PartnerRemoved():
                self.partners = [(n, d) for n, d in self.partners if d != e.digest]
            case ev.DrawCommitted():
                self.games[e.game].commitment = e
            case ev.DrawRevealed():
                self.games[e.game].revealed = e.seed
                self.sealed[e.game] = bytes.fromhex(e.seed)
            case ev.EveningClosed():
                self.closed = e
            case ev.NumberDrawn():
                g = self.games[e.game]
                g.drawn.append(e.number)
                g.claim_stage = g.stage  # claims on this number are judged on this stage
                g.last_call = None
                if self.program.settings.auto_marking:
                    self._auto_mark(g, e.number)
            case ev.DrawCorrected():
                g = self.games[e.game]
                g.drawn[-1] = e.new
                g.corrections.append(e)
                for marks in g.marks.values():
                    marks.discard(e.old)
                if self.program.settings.auto_marking:
                    self._auto_mark(g, e.new)
            case ev.CellMarked():
                self.games[e.game].marks.setdefault(e.carton_no, set()).add(e.number)
            case ev.CellUnmarked():
                self.games[e.game].marks[e.carton_no].discard(e.number)
            case ev.MarksSaved():
                marks = self.games[e.game].marks
                for _pid, carton_no, number, on in e.marks:
                    if on:
                        marks.setdefault(carton_no, set()).add(number)
                    else:
                        marks.get(carton_no, set()).discard(number)
            case ev.ClaimMade():
                g = self.games[e.game]
                g.claims.append(e)
                self._next_claim = e.claim_no + 1
                if e.verdict in _JUDGED:
                    g.judged.add((e.stage, e.number, e.unit_nos))
                if e.verdict == Verdict.VALID and e.player_id is not None:
                    g.valid.setdefault(e.stage, {}).setdefault(e.player_id, None)
                if e.verdict == Verdict.FALSE:
                    g.annulled.add(self.cartons[e.carton_no].unit)
            case ev.LastCallOpened():
                g = self.games[e.game]
                g.last_call = e
                g.called.add((e.stage, e.number))
            case ev.LastCallClosed():
                self.games[e.game].last_call = None
            case ev.ShareOffered():
                self.games[e.game].tie.share_offered_to = e.players
            case ev.ShareAnswered():
                self.games[e.game].tie.answers[e.player_id] = e.accepted
            case ev.TieBroken():
                g = self.games[e.game]
                g.tie.broken = e
                g.tie_breaks.append(e)
            case ev.StageAwarded():
                g = self.games[e.game]
                g.awards.append(e)
                g.stage += 1
                g.tie = Tie()
                g.last_call = None
                self._issue(e)
                if g.stage == len(g.spec.stages):
                    g.status = GameStatus.AWAITING_UNMARK
            case ev.VoucherIssued():
                self._issue(e)
            case ev.CartonReinstated():
                self.games[e.game].annulled.discard(self.cartons[e.carton_no].unit)
                self.decisions.append(e)
            case ev.VerdictOverturned():
                g = self.games[e.game]
                g.overturned[e.claim_no] = e
                claim = g.claim(e.claim_no)
                assert claim is not None
                unit = self.cartons[claim.carton_no].unit
                if g.status is not GameStatus.FINISHED:
                    if e.verdict == Verdict.FALSE:
                        g.annulled.add(unit)
                    elif e.old == Verdict.FALSE:
                        g.annulled.discard(unit)
                g.recount(claim.stage)
                if claim.stage not in g.valid:  # nobody waits for that lot any more: the
                    # next valid claim on that number is a first one, with a last call of its own
                    g.called.discard((claim.stage, claim.number))
                if not g.entries():
                    g.last_call = None  # its only entry is gone
                self.decisions.append(e)
            case ev.LotGiven():
                self._issue(e)
                self.decisions.append(e)
            case ev.ConsolationGiven():
                self.decisions.append(e)
            case ev.AwardWithdrawn():
                self.withdrawn[e.ticket_no] = e
                self.decisions.append(e)
            case ev.UnmarkAllowed():
                g = self.games[e.game]
                g.status = GameStatus.FINISHED
                g.annulled.clear()
            case ev.CartonsCleared():
                g = self.games[e.game]
                for c in self.player_cartons(e.player_id):
                    g.marks.pop(c.no, None)
            case ev.ProgramAmended():
                self.program = Program.from_dict(json.loads(e.program))
            case _:
                raise TypeError(f"unknown event {e!r}")

    def _auto_mark(self, g: Game, number: int) -> None:
        for n in self._by_number[number]:
            if self.plays(n, g) and self.cartons[n].unit not in g.annulled:
                g.marks.setdefault(n, set()).add(number)

    # ------------------------------------------------------------------ consistency

    def _annulled_by_history(self, game: int) -> set[int]:
        """The units annulled in a game, walked through the log (for `check_invariants`)."""
        claims: dict[int, ev.ClaimMade] = {}
        out: set[int] = set()
        for x in self.history:
            if getattr(x, "game", None) != game:
                continue
            match x:
                case ev.ClaimMade():
                    claims[x.claim_no] = x
                    if x.verdict == Verdict.FALSE:
                        out.add(self.cartons[x.carton_no].unit)
                case ev.CartonReinstated():
                    out.discard(self.cartons[x.carton_no].unit)
                case ev.VerdictOverturned():
                    unit = self.cartons[claims[x.claim_no].carton_no].unit
                    if x.verdict == Verdict.FALSE:
                        out.add(unit)
                    elif x.old == Verdict.FALSE:
                        out.discard(unit)
                case ev.UnmarkAllowed():
                    out.clear()
        return out

    def fingerprint(self) -> dict[str, Any]:
        """A canonical, comparable picture of the whole state (for tests and audits)."""
        return {
            "program": self.program.to_dict(),
            "players": dict(sorted(self.players.items())),
            "origins": dict(sorted(self.origins.items())),
            "sales": [
                (
                    s.no,
                    s.player_id,
                    s.offer,
                    s.amount_cents,
                    s.method,
                    s.seller,
                    s.purchase_no,
                    s.status.value,
                    s.cashier,
                    s.cancelled_by,
                    s.cancel_reason,
                    s.refunded_cents,
                )
                for s in self.sales.values()
            ],
            "till_closed_by": self.till_closed_by,
            "pause": self.pause.to_dict() if self.pause else None,
            "lot_photos": dict(sorted(self.lot_photos.items())),
            "partners": list(self.partners),
            "handed_over": dict(sorted(self.handed_over.items())),
            "lot_tickets": sorted(self.lot_tickets.values(), key=lambda t: t.no),
            "withdrawn": {n: w.to_dict() for n, w in sorted(self.withdrawn.items())},
            "decisions": [d.to_dict() for d in self.decisions],
            "voided": sorted(self.voided),
            "cartons": {
                n: (c.kind.value, c.unit, c.carton.to_rows())
                for n, c in sorted(self.cartons.items())
            },
            "purchases": [
                (p.no, p.player_id, p.kind.value, p.carton_nos, p.first_game, p.reason)
                for p in self.purchases
            ],
            "stock": {k.value: list(v) for k, v in self.stock.items()},
            "paper_stock": {k.value: list(v) for k, v in self.paper_stock.items()},
            "closed": self.closed.to_dict() if self.closed else None,
            "games": [
                {
                    "index": g.index,
                    "status": g.status.value,
                    "stage": g.stage,
                    "drawn": list(g.drawn),
                    "marks": {n: sorted(m) for n, m in sorted(g.marks.items()) if m},
                    "annulled": sorted(g.annulled),
                    "claims": [c.to_dict() for c in g.claims],
                    "awards": [a.to_dict() for a in g.awards],
                    "tie_breaks": [t.to_dict() for t in g.tie_breaks],
                    "tie": (
                        g.tie.share_offered_to,
                        dict(g.tie.answers),
                        g.tie.broken.to_dict() if g.tie.broken else None,
                    ),
                    "claim_stage": g.claim_stage,
                    "last_call": g.last_call.to_dict() if g.last_call else None,
                    "called": sorted(g.called),
                    "overturned": {n: o.to_dict() for n, o in sorted(g.overturned.items())},
                    "entries": {s: list(p) for s, p in sorted(g.valid.items())},
                    "commitment": g.commitment.to_dict() if g.commitment else None,
                    "revealed": g.revealed,
                }
                for g in self.games
            ],
        }

    def check_invariants(self) -> None:
        """Raise AssertionError if the state breaks a rule (used by the tests)."""
        assert sorted(self.cartons) == list(range(1, len(self.cartons) + 1)), "carton numbering"
        for c in self.cartons.values():
            (validate_maxi if c.kind is Kind.MAXIQUINE else validate_classic)(c.carton)
            assert c.no in self.units[c.unit]
        for u, nos in self.units.items():
            kinds = {self.cartons[n].kind for n in nos}
            assert len(kinds) == 1
            assert len(nos) == (3 if Kind.VITRINE in kinds else 1), f"unit {u} size"
            sold = [n in self.purchase_of for n in nos]
            assert all(sold) or not any(sold), f"unit {u} partly sold"
            kind = self.cartons[u].kind
            in_stock, on_paper = u in self.stock[kind], u in self.paper_stock[kind]
            assert not (in_stock and on_paper), f"unit {u} in both stocks"
            assert (in_stock or on_paper) != all(sold), f"unit {u}: stock/sold mismatch"
        for sale in self.sales.values():
            if sale.status is SaleStatus.PENDING:
                assert sale.purchase_no == 0, "a pending order holds no cartons"
            elif sale.purchase_no:
                p = self.purchases[sale.purchase_no - 1]
                assert p.player_id == sale.player_id and p.reason in ("sale", "planche")
        assert set(self.handed_over) <= set(self.lot_tickets), "a lot handed without a ticket"
        assert set(self.withdrawn) <= set(self.lot_tickets), "a voided ticket that never was"
        assert sorted(self.lot_tickets) == list(range(1, len(self.lot_tickets) + 1)), "tickets"
        seen: set[int] = set()
        for p in self.purchases:
            assert p.player_id in self.players
            assert not (seen & set(p.carton_nos)), "carton sold twice"
            seen |= set(p.carton_nos)
            assert all(self.cartons[n].kind is p.kind for n in p.carton_nos)
        for i, g in enumerate(self.games):
            assert g.index == i
            assert i == len(self.games) - 1 or g.status is GameStatus.FINISHED
            assert len(set(g.drawn)) == len(g.drawn) and all(n in BALLS for n in g.drawn)
            assert len(g.awards) == g.stage <= len(g.spec.stages)
            if g.stage == len(g.spec.stages):
                assert g.status is not GameStatus.RUNNING
            else:
                assert g.status is GameStatus.RUNNING or len(g.drawn) == len(BALLS)
            for n, marks in g.marks.items():
                assert self.plays(n, g), f"marks on carton {n} which does not play game {i}"
                assert marks <= set(g.drawn) & self.cartons[n].carton.numbers, f"marks {n}"
            if g.status is GameStatus.FINISHED:
                assert not g.annulled
            else:
                assert g.annulled == self._annulled_by_history(i), "annulled units"
            drawn_at: dict[int, int] = {}
            for c in g.claims:
                assert c.number is not None
                if c.verdict in (Verdict.VALID, Verdict.AFTER_AWARD):
                    assert c.number in c.winning
                if c.verdict == Verdict.VALID and c.claim_no not in g.overturned:
                    drawn_at.setdefault(c.stage, c.number)
                    assert drawn_at[c.stage] == c.number, "valid claims of a stage on one number"
            ever_entry = {
                (c.stage, c.player_id)
                for c in g.claims
                if c.verdict == Verdict.VALID
                or (c.claim_no in g.overturned and g.overturned[c.claim_no].entry)
            }
            for a in g.awards:
                assert all((a.stage, p) in ever_entry for _, p, _ in a.tickets), (
                    "a lot to a non-winner"
                )
            for p in g.entries():
                numbers = {
                    c.number
                    for c in g.stage_claims()
                    if c.player_id == p and (c.stage, p) in ever_entry
                }
                assert g.last in numbers, "draw after a valid claim"
            if g.last_call is not None:
                assert g.entries() and g.last_call.number == g.last, "a last call without entry"
                assert (g.last_call.stage, g.last_call.number) in g.called
            c = g.commitment
            if c is not None:
                assert all(d.source == "electronic" for d in self._draws(i)), "committed draws"
                seed = bytes.fromhex(g.revealed) if g.revealed else self.sealed.get(i)
                if seed is not None:
                    assert draws.commitment(seed, c.evening, c.series, i + 1) == c.commitment
                    assert tuple(g.drawn) == draws.draw_order(seed)[: len(g.drawn)], "order"
            if g.revealed:
                assert c is not None, "a reveal without a commitment"
                assert g.status is GameStatus.FINISHED or self.closed, "revealed in play"

    def _draws(self, game: int) -> list[ev.NumberDrawn]:
        return [x for x in self.history if isinstance(x, ev.NumberDrawn) and x.game == game]


# ---------------------------------------------------------------------- argument checks


def lot_key(description: object) -> str:
    """A lot's description as lot photos are keyed: spaces collapsed, case folded (a lot's
    photo follows its description, whichever games play it)."""
    return " ".join(description.split()).casefold() if isinstance(description, str) else ""


def _digest(digest: object) -> str:
    """A picture's digest: 64 lowercase hexadecimal digits (SHA-256)."""
    if (
        not isinstance(digest, str)
        or len(digest) != 64
        or any(c not in "0123456789abcdef" for c in digest)
    ):
        raise err.InvalidArgument(f"picture digest {digest!r:.70}", "Image inconnue.")
    return digest


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ball(number: object) -> int:
    if not _is_int(number) or number not in BALLS:
        raise err.InvalidNumber(f"ball number {number!r} not an integer in 1..90")
    return number  # type: ignore[return-value]


def _kind(kind: object) -> Kind:
    try:
        return Kind(kind)
    except ValueError as exc:
        raise err.InvalidSale(f"unknown carton kind {kind!r}", "Type de carton inconnu.") from exc


def _decision(by: object, reason: object) -> tuple[str, str]:
    """Who decided (the animateur or the organiser) and their written reason, cleaned."""
    if by not in DECIDERS:
        raise err.InvalidArgument(
            f"decision by {by!r:.20}", "Décision de l'animateur ou de l'organisateur."
        )
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_DECISION_REASON:
        raise err.InvalidArgument(
            f"decision reason {reason!r:.40}",
            f"Écrivez le motif de la décision ({MAX_DECISION_REASON} caractères au plus).",
        )
    return str(by), " ".join(reason.split())


def _staff_name(name: object) -> str:
    if not isinstance(name, str) or not (1 <= len(name.strip()) <= MAX_STAFF_NAME):
        raise err.InvalidArgument(f"staff name {name!r:.40}", "Nom du vendeur manquant.")
    return " ".join(name.split())


def _clean_name(name: object) -> str:
    if not isinstance(name, str):
        raise err.InvalidName(f"name {name!r} is not a string")
    clean = " ".join(name.split())
    if not (1 <= len(clean) <= MAX_NAME) or not clean.isprintable():
        raise err.InvalidName(f"name {name!r} must have 1-{MAX_NAME} printable characters")
    return clean


def _rows(c: Carton) -> ev.Rows:
    return tuple(tuple(r) for r in c.grid)
