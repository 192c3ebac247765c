"""The desk's handlers (`loto_app.live.states.caisse`): one path from a player's desk code to
their orders à régler, no second sale over an order unless chosen "en plus", the questions
asked once (refund, closing) and the roles. Real state classes, a real SQLite file, no server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from test_session import live_app, root_on, sub  # noqa: F401  (live_app: a fixture)

from loto_app.domain.program import demo_program
from loto_app.domain.till import SaleStatus, desk_code
from loto_app.live.input.guards import BadInput
from loto_app.storage.access import AccessStore
from loto_app.storage.repository import EveningStore


def call(state: Any, handler: str, *args: Any) -> Any:
    from loto_app.live.states.caisse import CaisseState

    return CaisseState.event_handlers[handler].fn(state, *args)


async def signed_in(creds: Any, secret: str) -> Any:
    from loto_app.live.runtime import broadcast
    from loto_app.live.states.caisse import CaisseState

    async def enter(sid: str, evening_id: int, **rooms: Any) -> None:
        pass

    broadcast_enter, broadcast.enter = broadcast.enter, enter
    try:
        desk = sub(root_on("/caisse"), CaisseState)
        await call(desk, "login", {"code": creds.join_code, "secret": secret})
    finally:
        broadcast.enter = broadcast_enter
    assert desk.signed_in
    return desk


def test_a_code_finds_the_order_and_the_desk_never_sells_twice_by_mistake(
    live_app: EveningStore,  # noqa: F811
) -> None:
    from loto_app.live.runtime import registry

    creds = live_app.create_evening("Caisse", demo_program("DSK"))
    access = AccessStore(live_app.engine)
    marie = access.add_staff(creds.evening_id, "Marie", "vendeur")
    jeanne = access.add_staff(creds.evening_id, "Jeanne", "caissier")

    async def scenario() -> tuple[Any, Any]:
        pid, _ = await registry.join(creds.evening_id, "Mamie Jo", "hall")
        await registry.play(creds.evening_id, lambda e: e.order(pid, 0))
        vendeur = await signed_in(creds, marie)
        await call(vendeur, "sell", {"offer": "0", "method": "cash"})
        assert vendeur.message == "Tapez d'abord le code caisse du joueur."
        await call(vendeur, "lookup", {"code": f"LOTO-JOUEUR:{desk_code(pid)}"})  # scanned
        assert vendeur.found_name == "Mamie Jo" and len(vendeur.found_orders) == 1
        assert vendeur.found_orders[0].code == desk_code(pid)
        await call(vendeur, "sell", {"offer": "0", "method": "cash"})
        assert "commande à régler" in vendeur.message and "en plus (3 €)" in vendeur.extra_ask
        lv = await registry.live(creds.evening_id)
        assert len(lv.evening.sales) == 1  # refused: no second sale
        await call(vendeur, "drop_extra")
        await call(vendeur, "sell_extra")  # nothing asked any more: nothing sold
        assert vendeur.message_kind == "error" and len(lv.evening.sales) == 1
        no = vendeur.found_orders[0].no
        await call(vendeur, "confirm", no, "transfer")  # a transfer is the caissier's to check
        assert vendeur.message == "Réservé au caissier."
        await call(vendeur, "confirm", no, "cash")
        assert lv.evening.sales[no].status is SaleStatus.PAID and vendeur.found_orders == []
        assert vendeur.sales[0].seller == "réglée par Marie"
        assert [(t.label, t.amount) for t in vendeur.by_seller] == [("Marie", "3 €")]
        await registry.play(creds.evening_id, lambda e: e.order(pid, 0))
        await call(vendeur, "forget")
        await call(vendeur, "sell", {"player": "FFFFFFFF", "offer": "1", "method": "card"})
        assert vendeur.message.startswith("Aucun joueur") and len(lv.evening.sales) == 2
        # a code in the form (as bench/load.py sends it) is the same path: refused over the order
        await call(vendeur, "sell", {"player": desk_code(pid), "offer": "1", "method": "card"})
        assert vendeur.extra_ask and len(lv.evening.sales) == 2
        await call(vendeur, "sell_extra")  # chosen: in addition to the order
        assert vendeur.message.startswith("Vendu en plus : 3 cartons pour Mamie Jo — 8 €")
        assert len(vendeur.found_orders) == 1 and vendeur.found_cartons == "a déjà 4 cartons"
        for handler in ("ask_close", "drop_close", "drop_cancel", "cancel"):
            await call(vendeur, handler)
            assert vendeur.message == "Réservé au caissier.", handler
        await call(vendeur, "ask_cancel", {"sale": "3", "reason": "Erreur"})
        assert vendeur.message == "Réservé au caissier." and vendeur.cancel_ask == ""
        assert not vendeur.close_ask

        caissier = await signed_in(creds, jeanne)
        await call(caissier, "ask_close")  # an order à régler: not even asked
        assert not caissier.close_ask
        assert caissier.message.startswith("1 commande encore à régler : encaissez-la")
        await call(caissier, "confirm", 2, "transfer")
        assert caissier.message.startswith("Commande n° 2 réglée (virement)")
        await call(caissier, "cancel")  # nothing asked: nothing cancelled
        assert caissier.message.startswith("Rien à annuler")
        await call(caissier, "ask_cancel", {"sale": "99", "reason": "Erreur"})
        assert caissier.message == "Aucune vente n° 99."
        await call(caissier, "ask_cancel", {"sale": "3", "reason": "Erreur de vente"})
        assert "rendre 8 €" in caissier.cancel_ask
        assert lv.evening.sales[3].status is SaleStatus.PAID  # only asked
        await call(caissier, "cancel")
        assert caissier.message == "Vente n° 3 annulée : rendre 8 €."
        await call(caissier, "ask_close")
        assert caissier.close_ask and lv.evening.till_closed_by is None  # only asked
        await call(caissier, "drop_close")
        assert not caissier.close_ask
        return vendeur, caissier

    asyncio.run(scenario())


def test_a_desk_sale_form_names_a_tariff_line_and_a_method_the_desk_takes() -> None:
    from loto_app.live.states.caisse import desk_tariff

    assert desk_tariff({"offer": "2", "method": "cash"}) == (2, "cash")
    assert desk_tariff({"offer": 0, "method": " card "}) == (0, "card")
    for bad in (
        {"offer": "-1", "method": "cash"},
        {"offer": "64", "method": "cash"},
        {"offer": "1", "method": "transfer"},  # settled at the desk, never sold there
        {"offer": "1", "method": ""},
        {"method": "cash"},
    ):
        with pytest.raises(BadInput):
            desk_tariff(bad)
