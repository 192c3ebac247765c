"""The 1-90 board of drawn numbers (hall screen, animateur)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import (
    ACCENT,
    TV_CELL,
    TV_CELL_TEXT,
    TV_HIGHLIGHT,
    TV_LAST_TEXT,
    WHITE,
)
from loto_app.components.ui import tid
from loto_app.live.states.hall import HallView


def _number(n: int, size: str | list[str]) -> rx.Component:
    drawn = HallView.drawn.contains(n)
    last = HallView.last == n
    return rx.box(
        str(n),
        background=rx.cond(last, TV_HIGHLIGHT, rx.cond(drawn, ACCENT, TV_CELL)),
        # undrawn numbers dim but readable (5.5:1); drawn ones bold with a ring, not only colour
        color=rx.cond(last, TV_LAST_TEXT, rx.cond(drawn, "white", TV_CELL_TEXT)),
        font_weight=rx.cond(drawn, "900", "400"),
        box_shadow=rx.cond(
            last,
            f"inset 0 0 0 0.1em {TV_LAST_TEXT}",
            rx.cond(drawn, f"inset 0 0 0 0.1em {WHITE}", "none"),
        ),
        font_size=size,
        text_align="center",
        border_radius="0.4rem",
        padding="0.15em 0",
        custom_attrs=tid(f"board-{n}", **{"data-drawn": rx.cond(drawn, "true", "false")}),
    )


def board(size: str | list[str] = "1.2rem") -> rx.Component:
    """Ten numbers a row, drawn ones lit; `size` may be responsive (a list, phone first)."""
    return rx.box(
        *[_number(n, size) for n in range(1, 91)],
        display="grid",
        grid_template_columns="repeat(10, minmax(0, 1fr))",
        gap=["0.2rem", "0.3rem"],
        width="100%",
        custom_attrs={"aria-label": "Numéros tirés"},
    )
