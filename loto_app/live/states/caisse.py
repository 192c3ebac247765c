"""CaisseState: the sales desk (`/caisse`), signed in as a vendeur or a caissier.

One path for a phone player: the desk types (or scans) the code their app shows and finds them
with their orders still "à régler"; from there it settles an order (cash or card) or sells a
new pack of the tariff. A sale over an order à régler is refused unless the vendeur chose
"vendre en plus" (the engine's rule: never the same money twice by mistake). A player without
a phone is registered on the spot (their cartons are printed as a PDF). A caissier does the
same, and also settles orders by transfer, cancels or refunds a sale (logged, never deleted;
asked once, with the sum to give back), watches the totals and closes the till (asked once,
with the totals). Both hand
lots over against lot tickets. Every handler re-checks the sign-in (a backend var the client
cannot set, and the secret in the database: `StaffSession`, live/states/session.py) and the role
before anything reaches the engine.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
from collections.abc import Callable
from typing import ClassVar

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError, PendingOrder
from loto_app.domain.own_cartons import OWN_BASE, is_own
from loto_app.domain.program import KIND_LABELS, Kind
from loto_app.domain.till import (
    DESK_METHODS,
    METHOD_LABELS,
    SETTLE_METHODS,
    SaleStatus,
    counted_by,
    desk_code,
    pending_orders,
    player_for_desk_code,
    totals,
)
from loto_app.limits import MAX_OFFER_INDEX, MAX_SALE_NO, MAX_TICKET_NO
from loto_app.live.input.guards import BadInput, as_int, as_text, form, refuse
from loto_app.live.runtime import broadcast, registry
from loto_app.live.states.session import StaffSession
from loto_app.payments import provider
from loto_app.storage.access import StaffMember
from loto_app.wording import euros, plural, share_note, ticket_view

log = logging.getLogger(__name__)

SHOWN_SALES = 60  # the latest sales listed (the report has them all)
SHOWN_ORDERS = 100
STATUS_LABELS = {
    SaleStatus.PENDING: "À régler",
    SaleStatus.PAID: "Payée",
    SaleStatus.CANCELLED: "Annulée",
}


@dataclasses.dataclass
class SaleLine:
    """A sale as the desk lists it."""

    no: int = 0
    player: str = ""
    label: str = ""
    amount: str = ""
    method: str = ""
    seller: str = ""
    status: str = ""
    pending: bool = False
    cancelled: bool = False
    cartons: str = ""
    code: str = ""  # the player's desk code (what their phone shows)


@dataclasses.dataclass
class TicketLine:
    """A lot ticket to hand over."""

    no: int = 0
    player: str = ""
    lot: str = ""
    stage: str = ""
    share: str = ""
    code: str = ""
    handed: bool = False
    handed_by: str = ""
    voided: bool = False  # withdrawn by a decision of the association: not to hand over


@dataclasses.dataclass
class TotalLine:
    """One line of a breakdown of the till."""

    label: str = ""
    amount: str = ""


#: What a contrôleur reads at the desk: their page is another.
CONTROLEUR = "Un contrôleur vérifie les cartons papier sur la page /controle ; il ne vend pas."


class CaisseState(StaffSession, rx.State):
    """Sign-in (live/states/session.py), the desk's lists and its moves."""

    ROUTE: ClassVar[str] = "/caisse"
    KIND: ClassVar[str] = "desk"
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume", "login", "logout"})
    WRONG: ClassVar[str] = "Code de soirée ou secret incorrect (ou accès retiré)."

    code: str = rx.LocalStorage("", name="loto_caisse_code")
    secret: str = rx.LocalStorage("", name="loto_caisse_secret")
    signed_in: bool = False
    staff_name: str = ""
    role: str = ""  # "vendeur" | "caissier"
    evening_name: str = ""
    rehearsal: bool = False  # a rehearsal's copy (its banner)
    message: str = ""
    message_kind: str = ""  # "ok" | "error"
    offers: list[TotalLine] = []  # label = "<index>", amount = "3 cartons — 8 €"
    orders: list[SaleLine] = []
    orders_count: int = 0
    sales: list[SaleLine] = []
    tickets: list[TicketLine] = []
    received: str = ""
    refunded: str = ""
    pending: str = ""
    sold_cartons: int = 0
    own_series: list[str] = []  # the association's own séries (sold by number)
    by_seller: list[TotalLine] = []
    by_kind: list[TotalLine] = []
    by_method: list[TotalLine] = []
    till_closed: bool = False
    till_closed_by: str = ""
    payment_note: str = ""
    # the player found by their desk code, and their orders à régler
    found_name: str = ""
    found_code: str = ""
    found_cartons: str = ""  # "a déjà 3 cartons"
    found_orders: list[SaleLine] = []
    _found_pid: str = ""  # (backend only: the client names a player by code, never by id)
    # questions asked once before a move that costs money or cannot be undone
    extra_ask: str = ""
    _extra: tuple[str, int, str] = ("", 0, "")  # player id, offer, method
    cancel_ask: str = ""
    _cancel: tuple[int, str] = (0, "")  # sale number, reason
    close_ask: bool = False
    _selling: tuple[str, int, str] = ("", 0, "")  # the sale being played (player, offer, method)

    # ------------------------------------------------------------------ sign-in

    async def _entered(self, member: StaffMember) -> None:
        self.staff_name, self.role = member.name, member.role
        if member.role == "controleur":  # (checks cartons, sells nothing)
            self._say(CONTROLEUR, ok=False)
        lv = await registry.live(self._evening_id)
        self.evening_name, self.rehearsal = lv.name, lv.rehearsal
        remote = lv.evening.program.settings.remote_play  # (then the manual settlement only)
        self.payment_note = provider(remote_play=remote).instructions
        await broadcast.enter(self.router.session.session_id, self._evening_id, desk=True)
        self._show(lv.evening)

    async def _left(self) -> None:
        self.role = self.staff_name = ""
        self.rehearsal = False
        self._forget()

    def _still_the_same(self, member: StaffMember) -> bool:
        return member.name == self.staff_name

    def _not_signed_in(self) -> None:
        self._say("Réservé à la caisse : connectez-vous avec votre secret.", ok=False)

    def _login_said(self, text: str) -> None:
        if not text and self.role == "controleur":  # (signed in, with nothing to sell)
            return self._say(CONTROLEUR, ok=False)
        self._say(text, ok=not text)

    def _tell(self, text: str) -> None:
        self._say(text, ok=False)

    # ------------------------------------------------------------------ the lists

    @rx.event
    async def refresh(self):
        """Reload the lists (poked by the server after every change of the till)."""
        if self._authorized:  # (a lost state: the event gate reloads the page, session.py)
            lv = await registry.live(self._evening_id)
            self._show(lv.evening)

    def _show(self, e: Evening) -> None:
        names = e.players
        self.offers = [
            TotalLine(str(i), f"{o.name} — {euros(o.price_cents)}")
            for i, o in enumerate(e.program.offers)
        ]
        sales = list(e.sales.values())
        pending = [s for s in sales if s.status is SaleStatus.PENDING]
        self.orders_count = len(pending)
        self.orders = [_line(e, s, names) for s in pending[:SHOWN_ORDERS]]
        mine = sales if self.role == "caissier" else counted_by(sales, self.staff_name)
        self.sales = [_line(e, s, names) for s in reversed(mine[-SHOWN_SALES:])]
        t = totals(mine)
        self.received, self.refunded, self.pending = (
            euros(t.received_cents),
            euros(t.refunded_cents),
            euros(t.pending_cents),
        )
        self.sold_cartons = t.cartons
        self.by_seller = [TotalLine(k, euros(v)) for k, v in sorted(t.by_seller.items())]
        self.by_kind = [
            TotalLine(KIND_LABELS[Kind(k)], euros(v)) for k, v in sorted(t.by_kind.items())
        ]
        self.by_method = [
            TotalLine(METHOD_LABELS.get(k, k), euros(v)) for k, v in sorted(t.by_method.items())
        ]
        self.own_series = sorted(e.own_series.values())
        self.till_closed = e.till_closed_by is not None
        self.till_closed_by = e.till_closed_by or ""
        tickets = []
        for no, t in sorted(e.tickets().items()):
            view = ticket_view(e, t)
            tickets.append(
                TicketLine(
                    no=no,
                    player=names.get(t.player_id, "?"),
                    lot=view.lot,
                    stage=view.stage,
                    share=share_note(t.share),
                    code=view.code,
                    handed=no in e.handed_over,
                    handed_by=e.handed_over.get(no, ""),
                    voided=view.voided,
                )
            )
        self.tickets = tickets
        self._show_found(e)

    def _show_found(self, e: Evening) -> None:
        pid = self._found_pid
        if not pid or pid not in e.players:
            self.found_name = self.found_code = self.found_cartons = ""
            self.found_orders = []
            return
        self.found_name = e.players[pid]
        self.found_code = desk_code(pid)
        held = sum(c.no not in e.voided for c in e.player_cartons(pid))  # refunds withdrawn
        self.found_cartons = f"a déjà {plural(held, 'carton')}" if held else "pas encore de carton"
        self.found_orders = [_line(e, s, e.players) for s in pending_orders(e.sales.values(), pid)]

    def _forget(self) -> None:
        self._found_pid = ""
        self.found_name = self.found_code = self.found_cartons = self.extra_ask = ""
        self.found_orders = []
        self._extra = ("", 0, "")

    # ------------------------------------------------------------------ moves

    @rx.event
    async def lookup(self, form_data: dict):
        """Find a phone player by the desk code their app shows (typed, or scanned: the QR code
        types it), with their orders à régler: the desk settles one or sells from there."""
        try:
            player_code = as_text(form(form_data).get("code", ""), "player code", 40)
        except BadInput as exc:
            self._refused("lookup", exc)
            return self._say("Tapez le code caisse affiché dans l'application du joueur.", ok=False)
        if not await self._allowed("lookup", ("vendeur", "caissier")):
            return
        lv = await registry.live(self._evening_id)
        pid = player_for_desk_code(player_code, lv.evening.players)
        self._forget()
        if pid is None:
            refuse(self._who(), "lookup", f"no single player with desk code {player_code!r}")
            return self._say(
                f"Aucun joueur avec le code « {player_code} » : vérifiez le code affiché "
                "dans son application.",
                ok=False,
            )
        self._found_pid = pid
        self._show(lv.evening)
        n = len(self.found_orders)
        self._say(
            f"{self.found_name} : "
            + (
                f"{plural(n, 'commande')} à régler ci-dessous."
                if n
                else "aucune commande à régler. Choisissez le tarif."
            ),
            ok=True,
        )

    @rx.event
    async def forget(self):
        """Done with this player: the desk is ready for the next code."""
        if not await self._allowed("forget", ("vendeur", "caissier")):
            return
        self._forget()
        self.message = ""

    @rx.event
    async def sell(self, form_data: dict):
        """Sell a pack to the player found by their code (or named by a "player" code in the
        form, as bench/load.py sends it: the same as a lookup first). Refused, with the
        question "vendre en plus ?", while they have an order à régler (the engine's rule)."""
        try:
            data = form(form_data)
            player_code = as_text(data.get("player", ""), "player code", 40)
            offer, method = desk_tariff(data)
        except BadInput as exc:
            self._refused("sell", exc)
            return self._say("Choisissez le tarif et le paiement.", ok=False)
        if not await self._allowed("sell", ("vendeur", "caissier")):
            return
        if player_code:
            lv = await registry.live(self._evening_id)
            found = player_for_desk_code(player_code, lv.evening.players)
            if found is None:
                refuse(self._who(), "sell", f"no single player with desk code {player_code!r}")
                return self._say(f"Aucun joueur avec le code « {player_code} ».", ok=False)
            if found != self._found_pid:
                self._forget()
                self._found_pid = found
        pid = self._found_pid
        if not pid:
            refuse(self._who(), "sell", "no player found by code first")
            return self._say("Tapez d'abord le code caisse du joueur.", ok=False)
        name = self.staff_name
        self._selling = (pid, offer, method)  # (asked "vendre en plus ?" on a PendingOrder)
        events = await self._play(
            "sell", lambda e: e.desk_sale(pid, offer, method, name), checked=True
        )
        self._selling = ("", 0, "")
        if events is not None:
            lv = await registry.live(self._evening_id, fresh=False)
            self._say(_sold_text(lv.evening, events), ok=True)

    @rx.event
    async def sell_extra(self):
        """The vendeur chose to sell a pack in addition to the player's order à régler."""
        if not await self._allowed("sell_extra", ("vendeur", "caissier")):
            return
        pid, offer, method = self._extra
        self.extra_ask, self._extra = "", ("", 0, "")
        if not pid or pid != self._found_pid:
            refuse(self._who(), "sell_extra", "no sale in addition was asked")
            return self._say("Rien à vendre en plus : recommencez la vente.", ok=False)
        name = self.staff_name
        events = await self._play(
            "sell_extra",
            lambda e: e.desk_sale(pid, offer, method, name, extra=True),
            checked=True,
        )
        if events is not None:
            lv = await registry.live(self._evening_id, fresh=False)
            self._say("Vendu en plus : " + _sold_text(lv.evening, events), ok=True)

    @rx.event
    async def drop_extra(self):
        """No sale in addition (the desk settles the order instead)."""
        if not await self._allowed("drop_extra", ("vendeur", "caissier")):
            return
        self.extra_ask, self._extra = "", ("", 0, "")
        self._say("Pas de vente en plus : encaissez la commande à régler.", ok=True)

    @rx.event
    async def sell_paper(self, form_data: dict):
        """A player without a phone: register them and sell a pack; their cartons are printed
        (PDF: a planche of 6 per page, série, number, check code, QR code)."""
        try:
            data = form(form_data)
            name = as_text(data.get("name", ""), "name", 60)
            offer, method = desk_tariff(data)
        except BadInput as exc:
            self._refused("sell_paper", exc)
            return self._say("Nom du joueur, tarif et paiement sont nécessaires.", ok=False)
        if not name:
            return self._say("Indiquez le nom du joueur (inscrit sur ses cartons).", ok=False)
        if not await self._allowed("sell_paper", ("vendeur", "caissier")):
            return
        lv = await registry.live(self._evening_id, fresh=False)
        try:
            lv.evening.offer(offer)
        except LotoError as exc:
            return self._refused("sell_paper", exc)
        try:
            pid, _secret = await registry.join(self._evening_id, name, "paper")
        except LotoError as exc:
            return self._refused("sell_paper", exc)
        seller = self.staff_name
        events = await self._play(
            "sell_paper", lambda e: e.desk_sale(pid, offer, method, seller), checked=True
        )
        if events is None:
            return
        self._say(_sold_text(lv.evening, events) + " Impression des cartons…", ok=True)
        nos = [n for x in events if isinstance(x, ev.CartonsSold) for n in x.carton_nos]
        pdf = await asyncio.to_thread(_paper_pdf, self._evening_id, lv, nos)
        if pdf is not None:
            return rx.download(data=pdf, filename=f"cartons-{'-'.join(map(str, nos[:1]))}.pdf")

    @rx.event
    async def confirm(self, sale_no: int, method: str):
        """The desk received the money of an order: the player's cartons are handed. A vendeur
        settles by cash or card (the money in hand); a transfer is the caissier's to check."""
        try:
            no = as_int(sale_no, 1, MAX_SALE_NO, "sale")
            how = as_text(method, "method", 12)
            if how not in SETTLE_METHODS:
                raise BadInput(f"settle method {how!r}")
        except BadInput as exc:
            return self._refused("confirm", exc)
        if not await self._allowed("confirm", ("vendeur", "caissier")):
            return
        if how == "transfer" and not self._role_ok("confirm", ("caissier",)):
            return
        self.extra_ask, self._extra = "", ("", 0, "")
        name = self.staff_name
        events = await self._play(
            "confirm", lambda e: e.confirm_payment(no, how, name), checked=True
        )
        if events is not None:
            lv = await registry.live(self._evening_id, fresh=False)
            self._say(
                f"Commande n° {no} réglée ({METHOD_LABELS[how].lower()}) : "
                + _sold_text(lv.evening, events),
                ok=True,
            )

    @rx.event
    async def ask_cancel(self, form_data: dict):
        """Cancel an order, or refund a sale whose cartons have not played: asked once, with
        the sale and the sum to give back."""
        try:
            data = form(form_data)
            no = as_int(data.get("sale"), 1, MAX_SALE_NO, "sale")
            reason = as_text(data.get("reason", ""), "reason", 120)
        except BadInput as exc:
            self._refused("ask_cancel", exc)
            return self._say("Numéro de vente et motif (120 caractères au plus).", ok=False)
        if not reason:
            return self._say("Indiquez le motif de l'annulation.", ok=False)
        if not await self._allowed("ask_cancel", ("caissier",)):
            return
        lv = await registry.live(self._evening_id)
        sale = lv.evening.sales.get(no)
        if sale is None:
            refuse(self._who(), "ask_cancel", f"no sale {no}")
            return self._say(f"Aucune vente n° {no}.", ok=False)
        if sale.status is SaleStatus.CANCELLED:
            return self._say(f"La vente n° {no} est déjà annulée.", ok=False)
        who = lv.evening.players.get(sale.player_id, "?")
        what = f"n° {no} ({who}, {euros(sale.amount_cents)})"
        self._cancel = (no, reason)
        self.cancel_ask = (
            f"Rembourser la vente {what} : rendre {euros(sale.amount_cents)} et retirer ses "
            f"cartons ? Motif : {reason}"
            if sale.status is SaleStatus.PAID
            else f"Annuler la commande à régler {what} ? Rien à rendre. Motif : {reason}"
        )

    @rx.event
    async def drop_cancel(self):
        """No cancellation after all."""
        if not await self._allowed("drop_cancel", ("caissier",)):
            return
        self.cancel_ask, self._cancel = "", (0, "")

    @rx.event
    async def cancel(self):
        """The caissier confirmed the cancellation or refund asked (logged, never deleted)."""
        if not await self._allowed("cancel", ("caissier",)):
            return
        no, reason = self._cancel
        self.cancel_ask, self._cancel = "", (0, "")
        if not no:
            refuse(self._who(), "cancel", "no cancellation was asked")
            return self._say("Rien à annuler : indiquez le numéro de vente et le motif.", ok=False)
        name = self.staff_name
        events = await self._play("cancel", lambda e: e.cancel_sale(no, name, reason), checked=True)
        for x in events or ():
            if isinstance(x, ev.SaleCancelled):
                refund = f" : rendre {euros(x.refunded_cents)}" if x.refunded_cents else ""
                self._say(f"Vente n° {no} annulée{refund}.", ok=True)

    @rx.event
    async def ask_close(self):
        """Closing the till is for good: asked once, with the totals."""
        if not await self._allowed("ask_close", ("caissier",)):
            return
        lv = await registry.live(self._evening_id)
        self._show(lv.evening)
        if self.orders_count:  # the engine would refuse: say so before asking
            n = self.orders_count
            return self._say(
                f"{plural(n, 'commande')} encore à régler : "
                + ("encaissez-la ou annulez-la" if n == 1 else "encaissez-les ou annulez-les")
                + " avant de fermer la caisse.",
                ok=False,
            )
        self.close_ask = True

    @rx.event
    async def drop_close(self):
        """The till stays open."""
        if not await self._allowed("drop_close", ("caissier",)):
            return
        self.close_ask = False

    @rx.event
    async def close_till(self):
        """Close the till: no more sales tonight."""
        if not await self._allowed("close_till", ("caissier",)):
            return
        self.close_ask = False
        name = self.staff_name
        if await self._play("close_till", lambda e: e.close_till(name), checked=True) is not None:
            self._say(f"Caisse fermée. Total encaissé : {self.received}.", ok=True)

    @rx.event
    async def hand_over(self, ticket_no: int):
        """The lot of a ticket was handed to its winner."""
        try:
            no = as_int(ticket_no, 1, MAX_TICKET_NO, "ticket")
        except BadInput as exc:
            return self._refused("hand_over", exc)
        if not await self._allowed("hand_over", ("vendeur", "caissier")):
            return
        name = self.staff_name
        if await self._play("hand_over", lambda e: e.hand_over(no, name), checked=True) is not None:
            self._say(f"Lot du ticket n° {no} remis.", ok=True)

    # ------------------------------------------------------------------ helpers

    def _who(self) -> str:
        return (
            f"desk {self.staff_name or '?'} ({self.role or '?'}) evening {self._evening_id} "
            f"(sid {self.router.session.session_id})"
        )

    def _say(self, text: str, *, ok: bool) -> None:
        self.message, self.message_kind = text, ("ok" if ok else "error")

    async def _allowed(self, handler: str, roles: tuple[str, ...]) -> bool:
        """Signed in now (`_signed_in_now`, a database read), in one of these roles. A move
        that follows in the same event is played with `checked=True`."""
        return await self._signed_in_now(handler) and self._role_ok(handler, roles)

    def _role_ok(self, handler: str, roles: tuple[str, ...]) -> bool:
        if self.role not in roles:
            self._refused(handler, BadInput(f"role {self.role} may not {handler}"))
            self._say(CONTROLEUR if self.role == "controleur" else "Réservé au caissier.", ok=False)
            return False
        return True

    async def _played(self, events: list[ev.Event]) -> None:
        lv = await registry.live(self._evening_id, fresh=False)
        self._show(lv.evening)

    async def _sell_named(
        self,
        handler: str,
        name: str,
        move: Callable[[Evening, str, str], list[ev.Event]],
        answer: Callable[[str, bool], None],
        refused: Callable[[ev.PaperCartonRefused], str],
        numbered: str = "",
    ) -> None:
        """A sale of paper cartons the desk names by their numbers (printed in advance, or the
        association's own): the role re-checked, `move(e, player_id, seller)` played, and the
        desk told by `answer(text, ok)`. Any carton refused (`refused`: how it is named, and
        why) and nothing is sold; else the cartons sold, read out after `numbered`."""
        if not await self._allowed(handler, ("vendeur", "caissier")):
            return answer(self.message, False)
        pid = uuid.uuid4().hex[:16]
        seller = self.staff_name
        events = await self._play(
            handler,
            lambda e: move(e, pid, seller),
            checked=True,
            say=lambda text: answer(text, False),
        )
        if events is None:
            return None
        cartons = [x for x in events if isinstance(x, ev.PaperCartonRefused)]
        if cartons:
            said = "\u202f; ".join(refused(r) for r in cartons)
            return answer(
                f"Refusé, rien n'est vendu\u00a0: {said}. (Refus compté pour le rapprochement.)",
                False,
            )
        sold = next(x for x in events if isinstance(x, ev.CartonsSold))
        sale = next(x for x in events if isinstance(x, ev.SaleRecorded))
        e = (await registry.live(self._evening_id, fresh=False)).evening
        answer(
            f"Vendu\u00a0: {plural(len(sold.carton_nos), 'carton')} pour {name} — "
            f"{euros(sale.amount_cents)}\u00a0: {numbered}{named_ranges(e, sold.carton_nos)}.",
            True,
        )
        return None

    def _move_refused(self, handler: str, exc: LotoError) -> None:
        """A sale refused over an order à régler asks "vendre en plus ?" (`sell_extra`)."""
        pid, offer, method = self._selling
        lv = registry.loaded(self._evening_id)
        if not (handler == "sell" and pid and isinstance(exc, PendingOrder) and lv):
            self._tell(exc.user_message)
            return
        self._show(lv.evening)
        self._extra = (pid, offer, method)
        price = euros(lv.evening.offer(offer).price_cents)
        self.extra_ask = (
            f"{self.found_name} a déjà {plural(len(self.found_orders), 'commande')} à "
            f"régler. Encaissez plutôt la commande ci-dessus. Vendre quand même un paquet "
            f"en plus ({price}) ?"
        )
        self._say(exc.user_message, ok=False)


def desk_tariff(data: dict[str, object]) -> tuple[int, str]:
    """The tariff line and the payment method a desk's sale form names.

    Raises:
        BadInput: an offer index out of range, or a method the desk does not take.
    """
    offer = as_int(data.get("offer"), 0, MAX_OFFER_INDEX, "offer")
    method = as_text(data.get("method", ""), "method", 10)
    if method not in DESK_METHODS:
        raise BadInput(f"desk method {method!r}")
    return offer, method


def _line(e: Evening, s, names: dict[str, str]) -> SaleLine:
    nos = e.purchases[s.purchase_no - 1].carton_nos if s.purchase_no else ()
    return SaleLine(
        no=s.no,
        player=names.get(s.player_id, "?")
        + (" (papier)" if e.origins.get(s.player_id) == "paper" else ""),
        label=e.program.offers[s.offer].name,
        amount=euros(s.amount_cents),
        method=METHOD_LABELS.get(s.method, s.method),
        seller=s.seller or (f"réglée par {s.cashier}" if s.cashier else "téléphone"),
        status=STATUS_LABELS[s.status]
        + (f" — remboursée {euros(s.refunded_cents)}" if s.refunded_cents else "")
        + (f" ({s.cancel_reason})" if s.cancel_reason else ""),
        pending=s.status is SaleStatus.PENDING,
        cancelled=s.status is SaleStatus.CANCELLED,
        cartons=named_ranges(e, nos),
        code=desk_code(s.player_id),
    )


def named_ranges(e: Evening, nos: tuple[int, ...] | list[int]) -> str:
    """Carton numbers as the vendeur reads them out, an own série's named: '13 à 18, ROUGE
    345 à 347' (domain/own_cartons.py)."""
    app = [n for n in nos if not is_own(n)]
    parts = [_ranges(app)] if app else []
    for base, name in sorted(e.own_series.items()):
        own = [n - base for n in nos if n - base in range(1, OWN_BASE)]
        if own:
            parts.append(f"{name} {_ranges(own)}")
    return ", ".join(parts)


def _ranges(nos: tuple[int, ...] | list[int]) -> str:
    """Carton numbers as the vendeur reads them out: '13 à 18, 25'."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(nos):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(f"{run[0]} à {run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        out.append(f"{run[0]} à {run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


def _sold_text(e: Evening, events: list[ev.Event]) -> str:
    sold = [x for x in events if isinstance(x, ev.CartonsSold)]
    rec = [x for x in events if isinstance(x, ev.SaleRecorded)]
    nos = [n for x in sold for n in x.carton_nos]
    who = e.players.get(sold[0].player_id, "?") if sold else "?"
    amount = f" — {euros(rec[-1].amount_cents)}" if rec else ""
    return f"{plural(len(nos), 'carton')} pour {who}{amount} : n° {_ranges(nos)}."


def _paper_pdf(evening_id: int, lv, carton_nos: list[int]) -> bytes | None:
    """The PDF of a paper player's cartons (None, logged, if printing is unavailable)."""
    try:
        from loto_app.domain.reglement import reglement
        from loto_app.records.paper import cartons_for, paper_pdf
    except ImportError:
        log.exception("paper cartons: the PDF module is missing")
        return None
    cartons = cartons_for(registry.store(), evening_id, carton_nos)
    rules = reglement(lv.evening.program, lv.name)  # its last page
    return paper_pdf(lv.name, lv.evening.program.series, cartons, rules=rules)
