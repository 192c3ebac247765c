"""The pieces every sale form of the desk (`/caisse`) shares: the tariff's select, the choice of
the payment, a field's look."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.ui import tid
from loto_app.live.states.caisse import CaisseState

#: A select of the desk's forms: large text, a thumb's height, the form's width.
FIELD = {"font_size": "1.2rem", "padding": "0.5rem", "width": "100%", "min_height": "3rem"}


def offer_select(testid: str) -> rx.Component:
    """The tariff line sold (sent as `offer`: its index)."""
    return rx.el.select(
        rx.foreach(CaisseState.offers, lambda o: rx.el.option(o.amount, value=o.label)),
        name="offer",
        custom_attrs=tid(testid, **{"aria-label": "Tarif"}),
        **FIELD,
    )


def method_choice(prefix: str, **props: Any) -> rx.Component:
    """Cash or card (sent as `method`; test ids `<prefix>-cash`, `<prefix>-card`); props go to
    the radio group."""
    return rx.radio_group.root(
        rx.flex(
            rx.radio_group.item("Espèces", value="cash", custom_attrs=tid(f"{prefix}-cash")),
            rx.radio_group.item("Carte", value="card", custom_attrs=tid(f"{prefix}-card")),
            gap="1.5rem",
            align="center",
        ),
        name="method",
        default_value="cash",
        size="3",
        aria_label="Paiement",
        **props,
    )


def buyer_name(html_id: str, testid: str) -> rx.Component:
    """The buyer's name, optional (sent as `name`), under its label."""
    return rx.fragment(
        rx.el.label("Nom du joueur (facultatif)", font_weight="700", html_for=html_id),
        rx.input(
            id=html_id,
            name="name",
            size="3",
            font_size="1.3rem",
            width="100%",
            max_length=30,
            custom_attrs=tid(testid),
        ),
    )
