"""OwnSale: the desk sells the association's own cartons (domain/own_cartons.py) by their
printed numbers, in their own série (`Evening.sell_own`): "who has carton 347 tonight" is then
in the books. A substate of `CaisseState`: the same sign-in and roles (a vendeur or a
caissier), re-checked before the move. A number not registered in the série, or a carton sold
already, is refused (and counted for the reconciliation): nothing is sold then."""

from __future__ import annotations

import uuid
from typing import Any

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.own_cartons import MAX_SERIES_NAME, printed_no
from loto_app.live.input.guards import BadInput, as_text, form, refuse
from loto_app.live.input.own_cartons import read_numbers
from loto_app.live.runtime import registry
from loto_app.live.states.caisse import CaisseState, desk_tariff, named_ranges
from loto_app.wording import euros, plural

WHY = {"sold": "déjà vendu", "unknown": "pas enregistré dans cette série"}


class OwnSale(CaisseState):
    """The form's answer."""

    own_message: str = ""
    own_ok: bool = False

    @rx.event
    async def sell_own(self, form_data: Any):
        """Sell the association's cartons typed, against the tariff line chosen."""
        try:
            data = form(form_data)
            name = as_text(data.get("name", ""), "name", 60)
            series = as_text(data.get("series", ""), "series", MAX_SERIES_NAME + 8)
            offer, method = desk_tariff(data)
            nos = read_numbers(data.get("cartons", ""))
        except BadInput as exc:
            refuse(self._who(), "sell_own", exc)
            return self._answer(
                "Série, numéros (ex. « 347 » ou « 345-347 »), tarif et paiement sont nécessaires.",
                False,
            )
        if not await self._allowed("sell_own", ("vendeur", "caissier")):
            return self._answer(self.message, False)
        pid = uuid.uuid4().hex[:16]
        name = name or f"Carton {series.upper()} n° {nos[0]}"
        seller = self.staff_name
        events = await self._play(
            "sell_own",
            lambda e: e.sell_own(pid, name, offer, series, nos, method, seller),
            checked=True,
            say=lambda text: self._answer(text, False),
        )
        if events is None:
            return None
        refused = [x for x in events if isinstance(x, ev.PaperCartonRefused)]
        if refused:
            said = " ; ".join(
                f"carton {series.upper()} n° {printed_no(r.carton_no) or '?'} {WHY[r.why]}"
                for r in refused
            )
            return self._answer(
                f"Refusé, rien n'est vendu : {said}. (Refus compté pour le rapprochement.)",
                False,
            )
        sold = next(x for x in events if isinstance(x, ev.CartonsSold))
        sale = next(x for x in events if isinstance(x, ev.SaleRecorded))
        e = (await registry.live(self._evening_id, fresh=False)).evening
        self._answer(
            f"Vendu : {plural(len(sold.carton_nos), 'carton')} pour {name} — "
            f"{euros(sale.amount_cents)} : {named_ranges(e, sold.carton_nos)}.",
            True,
        )
        return None

    def _answer(self, text: str, ok: bool) -> None:
        self.own_message, self.own_ok = text, ok
