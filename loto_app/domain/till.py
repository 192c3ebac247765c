"""The till: sales of cartons, their payments, refunds, and the totals the caissier closes.

Pure bookkeeping over `Sale` records kept by the engine (which applies the sale events); the
money rules themselves (who may sell, when) are moves of `Evening`. The totals are added up
here once, for the desk and for the report alike (`totals`, over any `SaleFigures`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar

from loto_app.limits import MAX_STAFF_NAME as MAX_STAFF_NAME


class SaleStatus(StrEnum):
    """Where a sale stands. A refund is no status of its own: it is a cancelled sale that gave
    its money back (`refunded`), as the engine records it (one `SaleCancelled` event)."""

    PENDING = "pending"  # ordered on a phone, "à régler": no cartons yet
    PAID = "paid"  # cartons handed, money received
    CANCELLED = "cancelled"  # an order cancelled, or a sale refunded (cartons withdrawn)


#: How a sale may be paid at the desk, and the French names.
DESK_METHODS: dict[str, str] = {"cash": "Espèces", "card": "Carte"}
#: How a caissier may settle an order ("à régler"): at the desk, or a transfer received.
SETTLE_METHODS: dict[str, str] = {**DESK_METHODS, "transfer": "Virement"}
METHOD_LABELS: dict[str, str] = {**SETTLE_METHODS, "pending": "À régler", "free": "Offert"}
MAX_REASON = 120
MAX_PENDING_PER_PLAYER = 5


@dataclass(slots=True)
class Sale:
    """One sale of a pack of cartons (mutable: an order becomes paid, a sale cancelled)."""

    no: int
    player_id: str
    offer: int
    kind: str
    quantity: int
    planche: bool
    amount_cents: int
    method: str  # "pending" until paid
    seller: str  # "" for an order from a phone
    purchase_no: int  # 0 while pending
    status: SaleStatus
    cashier: str = ""
    cancelled_by: str = ""
    cancel_reason: str = ""
    refunded_cents: int = 0


class SaleFigures(Protocol):
    """What the till reads of a sale (and never writes): the engine's `Sale`, the report's
    `SaleRecord`."""

    status: SaleStatus
    amount_cents: int
    refunded_cents: int
    quantity: int
    kind: str
    method: str
    seller: str
    cashier: str


S = TypeVar("S", bound=SaleFigures)


def refunded(sale: SaleFigures) -> bool:
    """Whether a sale was refunded: paid, then cancelled with its money given back (an order
    cancelled before it was paid, or a free carton withdrawn, gave nothing back: only
    cancelled)."""
    return sale.status is SaleStatus.CANCELLED and sale.refunded_cents > 0


@dataclass(frozen=True, slots=True)
class TillTotals:
    """What the caissier counts: money received, by vendeur, kind and method."""

    received_cents: int  # paid sales, refunds deducted
    refunded_cents: int
    pending_cents: int
    sales: int  # paid sales (not cancelled)
    cartons: int  # cartons (vitrine: units) in those sales
    cancelled: int  # sales cancelled (orders) or refunded
    by_seller: dict[str, int]
    by_kind: dict[str, int]
    by_method: dict[str, int]

    @property
    def collected_cents(self) -> int:
        """Every payment received, before refunds."""
        return self.received_cents + self.refunded_cents


def totals(sales: Iterable[SaleFigures]) -> TillTotals:
    """Add up the till: cancelled sales count only as refunds (their money was given back); a
    sale counts for whoever took its money (`counter_name`)."""
    by_seller: dict[str, int] = defaultdict(int)
    by_kind: dict[str, int] = defaultdict(int)
    by_method: dict[str, int] = defaultdict(int)
    received = given_back = pending = count = cartons = cancelled = 0
    for s in sales:
        status = SaleStatus(s.status)  # (refuses any other vocabulary, never counts it as paid)
        if status is SaleStatus.PENDING:
            pending += s.amount_cents
            continue
        if status is SaleStatus.CANCELLED:
            given_back += s.refunded_cents
            cancelled += 1
            continue
        received += s.amount_cents
        count += 1
        cartons += s.quantity
        by_seller[counter_name(s.seller, s.cashier)] += s.amount_cents
        by_kind[s.kind] += s.amount_cents
        by_method[s.method] += s.amount_cents
    return TillTotals(
        received,
        given_back,
        pending,
        count,
        cartons,
        cancelled,
        dict(by_seller),
        dict(by_kind),
        dict(by_method),
    )


#: Who took the money of a free loto's cartons ordered on a phone: nobody.
NO_COUNTER = "Application (offert)"


def counter_name(seller: str, cashier: str) -> str:
    """Who took the money, by the one name of the staff member (the same person whether they
    sold a pack or settled an order): the vendeur, else the one who settled the order, else
    nobody (a free loto's cartons ordered on a phone). Desk, report and organiser alike."""
    return seller or cashier or NO_COUNTER


def counted_by(sales: Iterable[S], name: str) -> list[S]:
    """The sales whose money `name` took (`counter_name`), cancelled ones included: what a
    vendeur's desk lists and adds up (`totals`), the report's line for them."""
    return [s for s in sales if counter_name(s.seller, s.cashier) == name]


def pending_orders(sales: Iterable[Sale], player_id: str) -> list[Sale]:
    """A player's orders still "à régler", oldest first."""
    return [s for s in sales if s.player_id == player_id and s.status is SaleStatus.PENDING]


DESK_CODE_LENGTH = 8
DESK_QR_PREFIX = "LOTO-JOUEUR:"  # what the QR code of a player's desk code holds


def desk_code(player_id: str) -> str:
    """The code a player shows the vendeur (in the app, as text and QR code): the start of
    their server-issued id, upper case. It only names the buyer: it grants nothing."""
    return player_id[:DESK_CODE_LENGTH].upper()


def player_for_desk_code(code: str, player_ids: list[str] | set[str] | dict) -> str | None:
    """The player a typed or scanned desk code names (None when unknown or ambiguous)."""
    if not isinstance(code, str):
        return None
    clean = "".join(code.split()).upper()
    clean = clean.removeprefix(DESK_QR_PREFIX).replace("-", "")  # a scanned QR code types it
    if len(clean) != DESK_CODE_LENGTH:
        return None
    found = [p for p in player_ids if p[:DESK_CODE_LENGTH].upper() == clean]
    return found[0] if len(found) == 1 else None
