"""`/caisse`: selling the association's own cartons (`OwnSale`) by their printed numbers, in
their own série (shown only when the organiser registered one)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.form import outcome, section
from loto_app.components.palette import MUTED
from loto_app.components.ui import big_button, tid
from loto_app.live.states.caisse import CaisseState
from loto_app.live.states.caisse_own import OwnSale

FIELD = {"font_size": "1.2rem", "padding": "0.5rem", "width": "100%", "min_height": "3rem"}


def own_sale() -> rx.Component:
    """The form: the série, the numbers, the buyer's name (optional), the tariff, the payment."""
    method = rx.radio_group.root(
        rx.flex(
            rx.radio_group.item("Espèces", value="cash", custom_attrs=tid("own-cash")),
            rx.radio_group.item("Carte", value="card", custom_attrs=tid("own-card")),
            gap="1.5rem",
            align="center",
        ),
        name="method",
        default_value="cash",
        size="3",
        aria_label="Paiement",
    )
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
                    rx.el.select(
                        rx.foreach(CaisseState.own_series, lambda s: rx.el.option(s, value=s)),
                        id="own-series",
                        name="series",
                        custom_attrs=tid("own-sale-series"),
                        **FIELD,
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
                    rx.el.label(
                        "Nom du joueur (facultatif)", font_weight="700", html_for="own-name"
                    ),
                    rx.input(
                        id="own-name",
                        name="name",
                        size="3",
                        font_size="1.3rem",
                        width="100%",
                        max_length=30,
                        custom_attrs=tid("own-sale-name"),
                    ),
                    rx.el.select(
                        rx.foreach(
                            CaisseState.offers, lambda o: rx.el.option(o.amount, value=o.label)
                        ),
                        name="offer",
                        custom_attrs=tid("own-sale-offer", **{"aria-label": "Tarif"}),
                        **FIELD,
                    ),
                    method,
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
