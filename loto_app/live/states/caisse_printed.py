"""PrintedSale: the desk sells paper cartons printed in advance (`Evening.sell_printed`), by
their numbers and check codes typed or scanned. A substate of `CaisseState`: the same sign-in
and roles (a vendeur or a caissier), re-checked before the move. A carton unknown in the série
or sold already is refused (and counted for the reconciliation): nothing is sold then, and the
desk is told which one and why."""

from __future__ import annotations

import uuid
from typing import Any

import reflex as rx

from loto_app.domain import events as ev
from loto_app.live.input.guards import BadInput, as_text, form, refuse
from loto_app.live.input.printed_cartons import BadCartons, read_cartons
from loto_app.live.states.caisse import CaisseState, _ranges, desk_tariff
from loto_app.wording import euros, plural

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
        if not await self._allowed("sell_printed", ("vendeur", "caissier")):
            return self._answer(self.message, False)
        pid = uuid.uuid4().hex[:16]
        name = name or f"Carton papier n° {cartons[0][0]}"
        seller = self.staff_name
        events = await self._play(
            "sell_printed",
            lambda e: e.sell_printed(pid, name, offer, cartons, method, seller),
            checked=True,
            say=lambda text: self._answer(text, False),
        )
        if events is None:
            return None
        refused = [x for x in events if isinstance(x, ev.PaperCartonRefused)]
        if refused:
            said = " ; ".join(f"carton n° {r.carton_no or '?'} {WHY[r.why]}" for r in refused)
            return self._answer(
                f"Refusé, rien n'est vendu : {said}. (Refus compté pour le rapprochement.)",
                False,
            )
        sold = next(x for x in events if isinstance(x, ev.CartonsSold))
        sale = next(x for x in events if isinstance(x, ev.SaleRecorded))
        self._answer(
            f"Vendu : {plural(len(sold.carton_nos), 'carton')} pour {name} — "
            f"{euros(sale.amount_cents)} : n° {_ranges(sold.carton_nos)}.",
            True,
        )
        return None

    def _answer(self, text: str, ok: bool) -> None:
        self.printed_message, self.printed_ok = text, ok
