"""The entracte, from the animateur's tablet: between games (or before the first), a message and
a duration for the hall screen, which shows the time the games resume and counts down; while it
runs, what the hall reads and a button to end it (starting the next game ends it too)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import CHECK_BG, CHECK_LINE, SECTION_LINE
from loto_app.components.ui import tid
from loto_app.limits import MAX_PAUSE_MESSAGE
from loto_app.live.states.hall import HallView

DEFAULT_MESSAGE = "Buvette et pâtisseries au fond de la salle"
MINUTES = ("5", "10", "15", "20", "30", "45", "60")


def entracte(state: Any) -> rx.Component:
    """The entracte's controls for `state` (a state with `start_pause(form)` and `end_pause`)."""
    running = rx.box(
        rx.text(
            f"Entracte en cours — reprise à {HallView.pause_at}",
            font_weight="800",
            font_size="1.2rem",
        ),
        rx.text(f"À l'écran : « {HallView.pause_message} »"),
        rx.button(
            "Terminer l'entracte",
            on_click=state.end_pause,
            size="3",
            variant="outline",
            margin_top="0.5rem",
            custom_attrs=tid("pause-end"),
        ),
        background=CHECK_BG,
        border_left=f"0.5rem solid {CHECK_LINE}",
        padding="0.75rem 1rem",
        border_radius="0.5rem",
        custom_attrs=tid("pause-running", role="status"),
    )
    start = rx.el.details(
        rx.el.summary(
            "Entracte sur l'écran de la salle",
            font_weight="700",
            font_size="1.15rem",
            cursor="pointer",
            padding="0.4rem 0",
            custom_attrs=tid("pause-open"),
        ),
        rx.form(
            rx.vstack(
                rx.el.label("Message pour la salle", html_for="pause-message", font_weight="700"),
                rx.input(
                    id="pause-message",
                    name="message",
                    default_value=DEFAULT_MESSAGE,
                    max_length=MAX_PAUSE_MESSAGE,
                    size="3",
                    width="100%",
                    custom_attrs=tid("pause-message-input"),
                ),
                rx.el.label("Durée", html_for="pause-minutes", font_weight="700"),
                rx.el.select(
                    *[rx.el.option(f"{m} minutes", value=m) for m in MINUTES],
                    id="pause-minutes",
                    name="minutes",
                    default_value="15",
                    font_size="1.1rem",
                    padding="0.4rem",
                    custom_attrs=tid("pause-minutes"),
                ),
                rx.button(
                    "Lancer l'entracte",
                    type="submit",
                    size="3",
                    font_weight="700",
                    custom_attrs=tid("pause-start"),
                ),
                spacing="2",
                align="start",
                width="100%",
            ),
            on_submit=state.start_pause,
        ),
        border=f"1px solid {SECTION_LINE}",
        border_radius="0.5rem",
        padding="0.25rem 0.75rem 0.75rem",
        custom_attrs=tid("pause-form"),
    )
    return rx.cond(
        HallView.scene == "pause",
        running,
        rx.cond(HallView.can_start, start),
    )
