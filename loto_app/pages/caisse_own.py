"""`/caisse`: selling the association's own cartons (`OwnSale`) by their printed numbers, in
their own série (shown only when the organiser registered one)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.desk_form import FIELD, buyer_name, method_choice, offer_select
from loto_app.components.form import outcome, section, series_select
from loto_app.components.palette import MUTED
from loto_app.components.ui import big_button, tid
from loto_app.live.states.caisse import CaisseState
from loto_app.live.states.caisse_own import OwnSale


def own_sale() -> rx.Component:
    """The form: the série, the numbers, the buyer's name (optional), the tariff, the payment."""
    return rx.cond(
        CaisseState.own_series.length() > 0,
        section(
            "Cartons de l'association",
            rx.text(
                "Les cartons de l'association (non imprimés par l'application) : la série, "
                "puis les numéros vendus (ex. « 347 » ou « 345-347 »).",
                color=MUTED,
            ),
            rx.form(
                rx.vstack(
                    rx.el.label("Série", font_weight="700", html_for="own-series"),
                    series_select(
                        CaisseState.own_series, "own-sale-series", id="own-series", **FIELD
                    ),
                    rx.el.label("Numéros vendus", font_weight="700", html_for="own-cartons"),
                    rx.input(
                        id="own-cartons",
                        name="cartons",
                        size="3",
                        font_size="1.3rem",
                        width="100%",
                        custom_attrs=tid("own-sale-cartons"),
                    ),
                    buyer_name("own-name", "own-sale-name"),
                    offer_select("own-sale-offer"),
                    method_choice("own"),
                    big_button(
                        "Encaisser ces cartons", "own-sale-submit", type="submit", width="100%"
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=OwnSale.sell_own,
                reset_on_submit=True,
            ),
            outcome(OwnSale.own_message, OwnSale.own_ok, "own-sale-message", high_contrast=True),
            testid="sell-own",
        ),
    )
