"""PrintedSale: the desk sells paper cartons printed in advance (`Evening.sell_printed`), by
their numbers and check codes typed or scanned. A substate of `CaisseState`: the same sign-in
and roles (a vendeur or a caissier), re-checked before the move. A carton unknown in the série
or sold already is refused (and counted for the reconciliation): nothing is sold then, and the
desk is told which one and why."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.live.input.guards import BadInput, as_text, form, refuse
from loto_app.live.input.printed_cartons import BadCartons, read_cartons
from loto_app.live.states.caisse import CaisseState, desk_tariff

WHY = {"sold": "déjà vendu", "unknown": "inconnu dans cette série (numéro ou code faux)"}


class PrintedSale(CaisseState):
    """The form's answer."""

    printed_message: str = ""
    printed_ok: bool = False

    @rx.event
    async def sell_printed(self, form_data: Any):
        """Sell the cartons typed or scanned, against the tariff line chosen."""
        try:
            data = form(form_data)
            name = as_text(data.get("name", ""), "name", 60)
            offer, method = desk_tariff(data)
            cartons = read_cartons(data.get("cartons", ""))
        except BadCartons as exc:
            refuse(self._who(), "sell_printed", exc)
            return self._answer(exc.user_message, False)
        except BadInput as exc:
            refuse(self._who(), "sell_printed", exc)
            return self._answer("Tarif, paiement et cartons sont nécessaires.", False)
        name = name or f"Carton papier n° {cartons[0][0]}"
        await self._sell_named(
            "sell_printed",
            name,
            lambda e, pid, seller: e.sell_printed(pid, name, offer, cartons, method, seller),
            self._answer,
            lambda r: f"carton n° {r.carton_no or '?'} {WHY[r.why]}",
            numbered="n° ",
        )

    def _answer(self, text: str, ok: bool) -> None:
        self.printed_message, self.printed_ok = text, ok
