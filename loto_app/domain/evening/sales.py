"""Players and the till: joining, desk sales, phone orders, payments, refunds, lots handed."""

from __future__ import annotations

import random
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.cartons import (
    Carton,
    default_rng,
)
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_kind, check_staff_name, clean_name, is_int
from loto_app.domain.evening.state import (
    MAX_PER_SALE,
    ORIGINS,
    PLAYER_CANCEL_BY,
    PLAYER_CANCEL_REASON,
    IssuedCarton,
    Purchase,
)
from loto_app.domain.program import (
    Kind,
    Offer,
)
from loto_app.domain.till import (
    DESK_METHODS,
    MAX_PENDING_PER_PLAYER,
    MAX_REASON,
    SETTLE_METHODS,
    Sale,
    SaleStatus,
    pending_orders,
)


class SalesMoves(EveningCore):
    """Players and the till: joining, desk sales, phone orders, payments, refunds, lots handed."""

    def join(
        self, player_id: str, name: str, origin: str = "hall", invitation: int = 0
    ) -> list[ev.Event]:
        """Register a player under a server-issued id and a pseudonym.

        `origin`: "hall" (a phone in the hall), "remote" (joined with the association's
        `invitation` number, when remote play is on: an invitation not used yet, a place under
        the cap, `RemoteMoves._admit_remote`) or "paper" (a player without a phone, registered
        at the desk).
        """
        self._open()
        if not isinstance(player_id, str) or not (1 <= len(player_id) <= 64):
            raise err.InvalidArgument(f"player id {player_id!r} is not a 1-64 character string")
        if player_id in self.players:
            raise err.DuplicatePlayer(f"player {player_id} is already registered")
        if origin not in ORIGINS:
            raise err.InvalidArgument(f"player origin {origin!r}")
        if origin != "remote":
            return self._emit(ev.PlayerJoined(player_id, clean_name(name), origin))
        used = self._admit_remote(player_id, invitation)  # type: ignore[attr-defined]
        joined = ev.PlayerJoined(player_id, clean_name(name), origin)
        return self._emit(joined) + self._emit(used)

    def offer(self, index: int) -> Offer:
        """A line of the tariff, by its index."""
        if not is_int(index) or not 0 <= index < len(self.program.offers):
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
        seller = check_staff_name(seller)
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
        cashier = check_staff_name(cashier)
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
        by = check_staff_name(by)
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
        by = check_staff_name(by)
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
        by = check_staff_name(by)
        if not is_int(ticket_no) or ticket_no not in self.tickets():
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
        if not is_int(sale_no) or sale_no not in self.sales:
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
        kind = check_kind(kind)
        if kind not in self.program.kinds():
            raise err.InvalidSale(
                f"no {kind} game tonight", "Aucune partie de ce type n'est au programme."
            )
        self._check_sellable(kind)
        if planche and not KINDS[kind].planche:
            raise err.InvalidSale(
                f"no planche of {kind} cartons",
                "Pas de planche pour ces cartons (ni vitrine, ni maxiquine, ni enfants).",
            )
        if not planche and not (is_int(quantity) and 1 <= quantity <= MAX_PER_SALE):
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


@applies(ev.PlayerJoined)
def _player_joined(self: Any, e: ev.PlayerJoined) -> None:
    self.players[e.player_id] = e.name
    self.origins[e.player_id] = e.origin


@applies(ev.SaleRecorded)
def _sale_recorded(self: Any, e: ev.SaleRecorded) -> None:
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


@applies(ev.PaymentConfirmed)
def _payment_confirmed(self: Any, e: ev.PaymentConfirmed) -> None:
    sale = self.sales[e.sale_no]
    sale.status = SaleStatus.PAID
    sale.method, sale.cashier, sale.purchase_no = e.method, e.cashier, e.purchase_no


@applies(ev.SaleCancelled)
def _sale_cancelled(self: Any, e: ev.SaleCancelled) -> None:
    sale = self.sales[e.sale_no]
    sale.status = SaleStatus.CANCELLED
    sale.cancelled_by, sale.cancel_reason = e.by, e.reason
    sale.refunded_cents = e.refunded_cents
    if sale.purchase_no:
        self.voided.update(self.purchases[sale.purchase_no - 1].carton_nos)


@applies(ev.TillClosed)
def _till_closed(self: Any, e: ev.TillClosed) -> None:
    self.till_closed_by = e.by


@applies(ev.LotHandedOver)
def _lot_handed_over(self: Any, e: ev.LotHandedOver) -> None:
    self.handed_over[e.ticket_no] = e.by


@applies(ev.CartonsPrinted)
def _cartons_printed(self: Any, e: ev.CartonsPrinted) -> None:
    kind = Kind(e.kind)
    for no, unit, rows in e.cartons:
        self.cartons[no] = IssuedCarton(no, kind, unit, Carton.from_rows(rows))
        self.units[unit] = (*self.units.get(unit, ()), no)
        if unit == no:
            self.stock[kind].append(unit)


@applies(ev.CartonsSold)
def _cartons_sold(self: Any, e: ev.CartonsSold) -> None:
    p = Purchase(e.purchase_no, e.player_id, Kind(e.kind), e.carton_nos, e.first_game, e.reason)
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
