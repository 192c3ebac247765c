"""Domain events: every change of an evening, as immutable facts.

The engine decides a move, turns it into events and applies them; applying the same events to a
fresh evening gives the same state (this is how storage restores an evening). Events hold only
JSON-ready values (str, int, bool, None and tuples of them), so that `to_dict`/`from_dict`
round-trip exactly.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from typing import Any, ClassVar

Rows = tuple[tuple[int | None, ...], ...]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: `type` names the event in the log."""

    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict, with the event type (tuples become lists). What `asdict` then
        thawing gave, without its deep copy of every value (a join's commit spent ~3 % of its
        CPU there)."""
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _thaw(getattr(self, name))
        return out


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _thaw(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_thaw(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {name: _thaw(getattr(value, name)) for name in _field_names(type(value))}
    raise TypeError(f"not JSON-ready in an event: {value!r}")


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A player entered the evening (phone, or a paper player registered at the desk)."""

    type: ClassVar[str] = "player_joined"
    player_id: str
    name: str
    origin: str = "hall"  # "hall" (phone in the hall) | "remote" (invitation) | "paper" (desk)


@dataclass(frozen=True, slots=True)
class PlayerInvited(Event):
    """The association invited someone to play at a distance (remote play on): invitation
    `no`, for the name on its member list. The invitation's link (its secret token) is kept by
    storage, never in the log."""

    type: ClassVar[str] = "player_invited"
    no: int
    name: str


@dataclass(frozen=True, slots=True)
class InvitationUsed(Event):
    """A remote player joined with invitation `no`: it admits no other phone."""

    type: ClassVar[str] = "invitation_used"
    no: int
    player_id: str


@dataclass(frozen=True, slots=True)
class CartonsPrinted(Event):
    """New cartons of the série, numbered, ready for sale (a planche, or maxiquine grids).

    `cartons` holds (carton number, unit number, grid rows); a vitrine's 3 cartons share a unit.
    """

    type: ClassVar[str] = "cartons_printed"
    kind: str
    cartons: tuple[tuple[int, int, Rows], ...]


@dataclass(frozen=True, slots=True)
class PaperPrinted(Event):
    """Cartons printed on paper in advance (numbered by the `CartonsPrinted` just before), for
    the desk to sell by their number and check code: they leave the stock phones are served
    from, and are reconciled at the end (printed, sold, cancelled, unsold)."""

    type: ClassVar[str] = "paper_printed"
    kind: str
    carton_nos: tuple[int, ...]
    by: str


@dataclass(frozen=True, slots=True)
class OwnCartonsRegistered(Event):
    """Cartons the app did not print (the association's own, from a supplier or reused every
    year), registered by the organiser in an own série named `series`: `cartons` holds (the
    number printed on the carton, grid rows). The engine numbers them `base` + that number
    (`domain/own_cartons.py`: apart from the app's série); the desk sells them by number, the
    control checks a claim on one by its number alone."""

    type: ClassVar[str] = "own_cartons_registered"
    series: str
    base: int
    kind: str
    cartons: tuple[tuple[int, Rows], ...]
    by: str


@dataclass(frozen=True, slots=True)
class PaperCartonRefused(Event):
    """A pre-printed carton the desk was asked to sell and refused, counted for the
    reconciliation: `why` "unknown" (no carton of this série's paper stock has that number and
    check code) or "sold" (sold already, or cancelled: a carton sold twice). `carton_no` is
    what was typed (0 when it was not a number)."""

    type: ClassVar[str] = "paper_carton_refused"
    carton_no: int
    why: str
    by: str


@dataclass(frozen=True, slots=True)
class CartonsSold(Event):
    """Cartons handed to a player: a sale, or a free consolation carton.

    `first_game` is the index of the first game these cartons play.
    """

    type: ClassVar[str] = "cartons_sold"
    purchase_no: int
    player_id: str
    kind: str
    carton_nos: tuple[int, ...]
    first_game: int
    reason: str  # "sale" | "planche" | "consolation"


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The animateur announced the game and its stages."""

    type: ClassVar[str] = "game_started"
    game: int


@dataclass(frozen=True, slots=True)
class DrawCommitted(Event):
    """The electronic boulier's commitment to a game's whole draw, before its first number:
    the SHA-256 of the game's secret seed and of what it binds (the evening's join code, the
    série, the game's number), `domain/commitment.py`. The seed itself is kept out of the log
    (and of every screen, report and evening file) until the game ends (`DrawRevealed`)."""

    type: ClassVar[str] = "draw_committed"
    game: int
    evening: str  # the evening's join code
    series: str
    commitment: str  # SHA-256, lowercase hex
    scheme: str = "loto-tirage-v1"


@dataclass(frozen=True, slots=True)
class DrawRevealed(Event):
    """A committed game is over: its seed (hex) is public, anyone can check the draw."""

    type: ClassVar[str] = "draw_revealed"
    game: int
    seed: str


@dataclass(frozen=True, slots=True)
class NumberDrawn(Event):
    """A number came out of the boulier."""

    type: ClassVar[str] = "number_drawn"
    game: int
    seq: int  # 1 for the first number of the game
    number: int
    source: str


@dataclass(frozen=True, slots=True)
class DrawCorrected(Event):
    """A mistyped physical ball, corrected before any claim referred to it."""

    type: ClassVar[str] = "draw_corrected"
    game: int
    seq: int
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class CellMarked(Event):
    """A player put a pion on a drawn number of their carton."""

    type: ClassVar[str] = "cell_marked"
    game: int
    player_id: str
    carton_no: int
    number: int


@dataclass(frozen=True, slots=True)
class CellUnmarked(Event):
    """A player took a pion off (a slip corrected)."""

    type: ClassVar[str] = "cell_unmarked"
    game: int
    player_id: str
    carton_no: int
    number: int


@dataclass(frozen=True, slots=True)
class MarksSaved(Event):
    """Pions kept on the phones, saved for safekeeping: one event for the batches of many
    phones (marks are not evidence, RULES.md: a claim is judged on the numbers drawn). Each
    mark is (player id, carton no, number, 1 = a pion put, 0 = taken off); only changes."""

    type: ClassVar[str] = "marks_saved"
    game: int
    marks: tuple[tuple[str, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class ClaimMade(Event):
    """A claim and its verdict. `number` is the last number drawn when it was received."""

    type: ClassVar[str] = "claim_made"
    claim_no: int
    game: int
    stage: int
    player_id: str | None
    carton_no: int
    unit_nos: tuple[int, ...]
    number: int | None
    verdict: str
    winning: tuple[int, ...]
    # "app" | "desk" | "server" (a winner the server found: the inversée) | "typed" (a carton
    # in no list, judged on the lines typed: `LinesTyped`)
    via: str


@dataclass(frozen=True, slots=True)
class LinesTyped(Event):
    """The record of a claim on a carton in no list ("carton hors liste, lignes tapées"): the
    lines of numbers the contrôleur typed, and those not drawn. The claim itself follows, a
    `ClaimMade` with the same `claim_no`, `carton_no` 0, no unit and `via` "typed"."""

    type: ClassVar[str] = "lines_typed"
    claim_no: int
    game: int
    stage: int
    lines: tuple[tuple[int, ...], ...]
    missing: tuple[int, ...]
    by: str  # who typed them (the staff member's name)


@dataclass(frozen=True, slots=True)
class ShareOffered(Event):
    """The animateur asked the two tied players whether they share the divisible lot."""

    type: ClassVar[str] = "share_offered"
    game: int
    stage: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShareAnswered(Event):
    """One tied player accepted or refused to share."""

    type: ClassVar[str] = "share_answered"
    game: int
    stage: int
    player_id: str
    accepted: bool
    by: str = ""  # "" (the player, on their phone) | "animateur" (a paper player's answer)


@dataclass(frozen=True, slots=True)
class TieBroken(Event):
    """The ex aequo of a stage settled: by tokens (highest wins) or by an agreed share.

    `tokens` holds (player id, token) in entry order for a draw; empty otherwise. `method`:
    "draw" (tokens), "share" (the lot shared), "each" (a lot each, the game's tie rule),
    "sudden" (a mort subite: `SuddenDeathBall` events before it). `source` says where the
    tokens or balls came from: the app's random draw, or the bag (typed by the animateur).
    """

    type: ClassVar[str] = "tie_broken"
    game: int
    stage: int
    method: str  # "draw" | "share" | "each" | "sudden"
    tokens: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    source: str = "app"  # "app" | "bag"


@dataclass(frozen=True, slots=True)
class LastCallOpened(Event):
    """The first valid claim on a number: "Pas d'autre quine ?" for `seconds` (every valid
    claim on that number meanwhile joins the ex aequo; the lot waits for the close)."""

    type: ClassVar[str] = "last_call_opened"
    game: int
    stage: int
    number: int
    seconds: int


@dataclass(frozen=True, slots=True)
class LastCallClosed(Event):
    """The last call is over: the lot of the stage can be awarded."""

    type: ClassVar[str] = "last_call_closed"
    game: int
    stage: int
    number: int


@dataclass(frozen=True, slots=True)
class VoucherIssued(Event):
    """A "carton offert" voucher (a consolation when no game is left for a free carton to
    play), numbered with the lot tickets so that the desk checks and hands it the same way.

    `why`: "tie" (lost a token draw) or "dispute" (a consolation given by a decision).
    """

    type: ClassVar[str] = "voucher_issued"
    ticket_no: int
    player_id: str
    game: int
    stage: int
    why: str


@dataclass(frozen=True, slots=True)
class StageAwarded(Event):
    """The lot of a stage went to its winner(s); each gets a lot ticket.

    `tickets` holds (ticket number, player id, share) with share "1", or "1/N" for N tied
    winners who share the lot (`share_of`).
    """

    type: ClassVar[str] = "stage_awarded"
    game: int
    stage: int
    tickets: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True, slots=True)
class StageLapsed(Event):
    """A stage no longer in play, unwon: a jackpot nobody won within its N numbers (`why`
    "within"), or the consolation left unplayed because the jackpot was won ("jackpot_won")."""

    type: ClassVar[str] = "stage_lapsed"
    game: int
    stage: int
    why: str  # "within" | "jackpot_won"


@dataclass(frozen=True, slots=True)
class SuddenDeathBall(Event):
    """One extra ball of a mort subite among the ex aequo: drawn among the balls not out (it
    goes back in the boulier afterwards), and the tied players still in after it (`left`:
    those whose winning carton holds it, or everyone still in when nobody's does)."""

    type: ClassVar[str] = "sudden_death_ball"
    game: int
    stage: int
    number: int
    left: tuple[str, ...]
    source: str  # "app" | "bag" (typed by the animateur)


@dataclass(frozen=True, slots=True)
class UnmarkAllowed(Event):
    """ "Vous pouvez démarquer": the game is over, annulled cartons come back."""

    type: ClassVar[str] = "unmark_allowed"
    game: int


@dataclass(frozen=True, slots=True)
class PauseStarted(Event):
    """An entracte between games, started from the animateur's tablet: the hall screen shows
    `message` and the time the games resume, `returns_at` (POSIX seconds, given by the caller:
    the engine has no clock). A new one replaces the one in course."""

    type: ClassVar[str] = "pause_started"
    message: str
    returns_at: int


@dataclass(frozen=True, slots=True)
class PauseEnded(Event):
    """The entracte is over (the animateur said so, before the next game starts)."""

    type: ClassVar[str] = "pause_ended"


@dataclass(frozen=True, slots=True)
class LotPhotoSet(Event):
    """The organiser attached a photo to a lot (by its description: every game that plays this
    lot shows it), or removed it (`digest` ""). The picture itself is stored by its digest
    (SHA-256 of the file the app made), beside the log."""

    type: ClassVar[str] = "lot_photo_set"
    lot: str
    digest: str


@dataclass(frozen=True, slots=True)
class PartnerAdded(Event):
    """A partner's logo (a sponsor of the evening), shown on the hall screen."""

    type: ClassVar[str] = "partner_added"
    name: str
    digest: str


@dataclass(frozen=True, slots=True)
class PartnerRemoved(Event):
    """A partner's logo taken off the hall screen."""

    type: ClassVar[str] = "partner_removed"
    digest: str


@dataclass(frozen=True, slots=True)
class CartonsCleared(Event):
    """A player cleared their cartons after démarquage was allowed."""

    type: ClassVar[str] = "cartons_cleared"
    game: int
    player_id: str


@dataclass(frozen=True, slots=True)
class SaleRecorded(Event):
    """Money side of a sale: a desk sale paid by cash or card, or an order from a phone left
    "à régler" (`method` "pending", no cartons yet: `purchase_no` 0).

    `offer` is the index of the tariff line in the program's offers.
    """

    type: ClassVar[str] = "sale_recorded"
    sale_no: int
    player_id: str
    offer: int
    kind: str
    quantity: int
    planche: bool
    amount_cents: int
    method: str  # "cash" | "card" | "pending"
    seller: str  # the vendeur's name, or "" for an order from the phone
    purchase_no: int


@dataclass(frozen=True, slots=True)
class PaymentConfirmed(Event):
    """A caissier received the payment of an order; its cartons were handed (`purchase_no`)."""

    type: ClassVar[str] = "payment_confirmed"
    sale_no: int
    method: str  # "cash" | "card" | "transfer" | a provider's name
    cashier: str
    purchase_no: int


@dataclass(frozen=True, slots=True)
class SaleCancelled(Event):
    """A sale cancelled (an order never paid) or refunded (its unplayed cartons withdrawn)."""

    type: ClassVar[str] = "sale_cancelled"
    sale_no: int
    by: str
    reason: str
    refunded_cents: int


@dataclass(frozen=True, slots=True)
class TillClosed(Event):
    """The caissier closed the till: no more sales tonight."""

    type: ClassVar[str] = "till_closed"
    by: str


@dataclass(frozen=True, slots=True)
class LotHandedOver(Event):
    """The desk handed the lot of a lot ticket to its winner."""

    type: ClassVar[str] = "lot_handed_over"
    ticket_no: int
    by: str


# ---------------------------------------------------------------------- disputes (art. 8)
# "Tous les litiges seront réglés par l'association": every decision names who decided
# (`by`: "animateur" or "organisateur") and why (`reason`, written), and changes nothing else
# than what it says. Nothing is deleted: a decision is an event of its own.


@dataclass(frozen=True, slots=True)
class CartonReinstated(Event):
    """An annulled carton (unit) plays again in the current game."""

    type: ClassVar[str] = "carton_reinstated"
    game: int
    carton_no: int
    unit_nos: tuple[int, ...]
    player_id: str | None
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class VerdictOverturned(Event):
    """A claim's verdict changed by a decision.

    `verdict` is the new one ("valid" or "false"); `entry` says whether the claim joined the
    entries (the ex aequo) of its stage: only a claim on the current number of a stage not
    settled yet does. A claim overturned to "false" annuls its carton for the rest of the game
    and leaves the entries; one overturned to "valid" gives its carton back.
    """

    type: ClassVar[str] = "verdict_overturned"
    game: int
    claim_no: int
    old: str
    verdict: str
    entry: bool
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class LotGiven(Event):
    """A lot of a stage given to a claimant by a decision: a lot ticket of its own."""

    type: ClassVar[str] = "lot_given"
    ticket_no: int
    game: int
    stage: int
    claim_no: int
    player_id: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class ConsolationGiven(Event):
    """A consolation given to a claimant by a decision: a free carton for a game still to
    play (the `CartonsSold` that follows), or a "carton offert" voucher (`VoucherIssued`)."""

    type: ClassVar[str] = "consolation_given"
    game: int
    stage: int
    claim_no: int
    player_id: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class AwardWithdrawn(Event):
    """A lot ticket voided by a decision: the desk can no longer hand its lot over."""

    type: ClassVar[str] = "award_withdrawn"
    ticket_no: int
    player_id: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class EveningClosed(Event):
    """The organiser closed the evening's books: it is read-only from now on (no event is
    accepted after this one). `interrupted` names the game in play, if one was (its seed is
    revealed just before)."""

    type: ClassVar[str] = "evening_closed"
    by: str
    reason: str = ""
    interrupted: int | None = None


#: The decisions of the association (art. 8), for the report and the players' views.
@dataclass(frozen=True, slots=True)
class ProgramAmended(Event):
    """The organiser changed the program before the games concerned: games not started yet
    (their lots, stages, kinds, order), the tariff, and the settings no game in play depends
    on. `program` is the whole program from then on (`Program.to_dict()` as canonical JSON);
    `from_game` is the first game it may change (every earlier one had started). Cartons
    already sold keep their price and the games they play (their kind, from `first_game`)."""

    type: ClassVar[str] = "program_amended"
    program: str
    from_game: int
    by: str


DISPUTE_EVENTS = (CartonReinstated, VerdictOverturned, LotGiven, ConsolationGiven, AwardWithdrawn)

#: A lot ticket's share: the whole lot, or half of it (two ex aequo who agreed to share).
WHOLE, HALF = "1", "1/2"


def share_of(winners: int) -> str:
    """The share of each of `winners` who share a lot: "1", "1/2", "1/3"..."""
    return WHOLE if winners <= 1 else f"1/{winners}"


@dataclass(frozen=True, slots=True)
class LotTicket:
    """A ticket the desk checks and hands over: a lot (`kind` "lot", from an award or a
    decision) or a "carton offert" voucher (`kind` "voucher")."""

    no: int
    game: int
    stage: int
    player_id: str
    share: str  # WHOLE | HALF (a voucher: WHOLE)
    kind: str  # "lot" | "voucher"
    origin: str  # "award" | "decision" | "tie" | "dispute"


def issued_tickets(e: Event) -> tuple[LotTicket, ...]:
    """The lot tickets an event issues (an award, a lot given by a decision, a voucher)."""
    match e:
        case StageAwarded():
            return tuple(
                LotTicket(no, e.game, e.stage, pid, share, "lot", "award")
                for no, pid, share in e.tickets
            )
        case LotGiven():
            return (LotTicket(e.ticket_no, e.game, e.stage, e.player_id, WHOLE, "lot", "decision"),)
        case VoucherIssued():
            return (LotTicket(e.ticket_no, e.game, e.stage, e.player_id, WHOLE, "voucher", e.why),)
    return ()


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        PlayerJoined,
        PlayerInvited,
        InvitationUsed,
        CartonsPrinted,
        CartonsSold,
        GameStarted,
        NumberDrawn,
        DrawCorrected,
        CellMarked,
        CellUnmarked,
        MarksSaved,
        ClaimMade,
        LinesTyped,
        ShareOffered,
        ShareAnswered,
        TieBroken,
        StageAwarded,
        UnmarkAllowed,
        PauseStarted,
        PauseEnded,
        LotPhotoSet,
        PartnerAdded,
        PartnerRemoved,
        CartonsCleared,
        SaleRecorded,
        PaymentConfirmed,
        SaleCancelled,
        TillClosed,
        LotHandedOver,
        LastCallOpened,
        LastCallClosed,
        VoucherIssued,
        ProgramAmended,
        DrawCommitted,
        DrawRevealed,
        EveningClosed,
        PaperPrinted,
        PaperCartonRefused,
        OwnCartonsRegistered,
        StageLapsed,
        SuddenDeathBall,
        *DISPUTE_EVENTS,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from `Event.to_dict()` output.

    Raises:
        ValueError: unknown type or fields that do not match.
    """
    try:
        cls = EVENT_TYPES[data["type"]]
    except KeyError as exc:
        raise ValueError(f"unknown event type in {data!r}") from exc
    names = {f.name for f in fields(cls)}
    required = {f.name for f in fields(cls) if f.default is MISSING}
    given = set(data) - {"type"}
    if not required <= given <= names:
        raise ValueError(f"event {cls.type}: fields {sorted(given)} != {sorted(names)}")
    return cls(**{k: _freeze(v) for k, v in data.items() if k != "type"})
