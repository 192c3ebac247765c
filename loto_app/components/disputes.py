"""Forms of the association's decisions (art. 8) shared by the tablet and the organiser."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.ui import tid
from loto_app.domain.engine import MAX_DECISION_REASON


def withdraw_form(on_submit: Any, prefix: str = "") -> rx.Component:
    """Void a lot ticket: its number and the written reason (test ids `<prefix>withdraw-…`)."""
    return rx.form(
        rx.flex(
            rx.input(
                name="ticket",
                type="number",
                min=1,
                placeholder="N° du ticket",
                size="3",
                width="10rem",
                custom_attrs=tid(f"{prefix}withdraw-ticket", **{"aria-label": "Numéro du ticket"}),
            ),
            rx.input(
                name="reason",
                placeholder="Motif (obligatoire)",
                max_length=MAX_DECISION_REASON,
                size="3",
                flex="1",
                min_width="12rem",
                custom_attrs=tid(f"{prefix}withdraw-reason", **{"aria-label": "Motif du retrait"}),
            ),
            rx.button(
                "Retirer ce lot",
                type="submit",
                size="3",
                variant="outline",
                color_scheme="gray",
                high_contrast=True,
                custom_attrs=tid(f"{prefix}withdraw-submit"),
            ),
            wrap="wrap",
            gap="0.5rem",
            margin_top="0.5rem",
        ),
        on_submit=on_submit,
        reset_on_submit=True,
    )
