"""OwnSale: the desk sells the association's own cartons (domain/own_cartons.py) by their
printed numbers, in their own série (`Evening.sell_own`): "who has carton 347 tonight" is then
in the books. A substate of `CaisseState`: the same sign-in and roles (a vendeur or a
caissier), re-checked before the move. A number not registered in the série, or a carton sold
already, is refused (and counted for the reconciliation): nothing is sold then."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.domain.own_cartons import MAX_SERIES_NAME, printed_no
from loto_app.live.input.guards import BadInput, as_text, form, refuse
from loto_app.live.input.own_cartons import read_numbers
from loto_app.live.states.caisse import CaisseState, desk_tariff

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
        name = name or f"Carton {series.upper()} n° {nos[0]}"
        await self._sell_named(
            "sell_own",
            name,
            lambda e, pid, seller: e.sell_own(pid, name, offer, series, nos, method, seller),
            self._answer,
            lambda r: f"carton {series.upper()} n° {printed_no(r.carton_no) or '?'} {WHY[r.why]}",
        )

    def _answer(self, text: str, ok: bool) -> None:
        self.own_message, self.own_ok = text, ok
