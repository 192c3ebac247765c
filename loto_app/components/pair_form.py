"""The hall TV's pairing form (type the code the TV shows), for any state with the
`ScreenPairing` mixin (live/states/screen_pairing.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import step
from loto_app.components.ui import tid


def pair_form(state: Any) -> rx.Component:
    """The code box, its button and the result line."""
    return rx.fragment(
        rx.form(
            rx.flex(
                rx.input(
                    name="pair",
                    placeholder="Code de l'écran",
                    size="3",
                    width="11rem",
                    max_length=20,
                    auto_complete="off",
                    custom_attrs=tid(
                        "pair-code",
                        autocapitalize="characters",
                        **{"aria-label": "Code de l'écran"},
                    ),
                ),
                rx.button(
                    "Relier l'écran", type="submit", size="3", custom_attrs=tid("pair-submit")
                ),
                wrap="wrap",
                gap="0.5rem",
            ),
            on_submit=state.pair_screen,
            reset_on_submit=True,
        ),
        rx.cond(
            state.pair_message != "",
            rx.text(
                state.pair_message,
                font_weight="700",
                color=rx.cond(state.pair_ok, step("green", 11), step("red", 11)),
                custom_attrs=tid("pair-message", role="status"),
            ),
        ),
    )
