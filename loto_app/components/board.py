"""The 1-90 board of drawn numbers (hall screen, animateur, the player's phone)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import (
    ACCENT,
    DRAWN,
    INK,
    LINE,
    MUTED,
    TV_CELL,
    TV_CELL_TEXT,
    TV_HIGHLIGHT,
    TV_LAST_TEXT,
    WHITE,
)
from loto_app.components.ui import tid
from loto_app.live.states.hall import HallView

#: (undrawn background, undrawn text, last background, last text) on a dark screen (the TV) or
#: a light page (the phone); drawn numbers are white on the loto red on both.
_DARK = (TV_CELL, TV_CELL_TEXT, TV_HIGHLIGHT, TV_LAST_TEXT)
_LIGHT = (WHITE, MUTED, DRAWN, INK)


def _number(n: int, size: str | list[str], light: bool) -> rx.Component:
    drawn = HallView.drawn.contains(n)
    last = HallView.last == n
    cell, cell_text, last_bg, last_text = _LIGHT if light else _DARK
    return rx.box(
        rx.el.span(str(n), custom_attrs={"aria-hidden": "true"}),
        # the number and its state for a screen reader (the colours say it to the eye)
        rx.el.span(
            rx.cond(last, f"{n}, sorti, le dernier", rx.cond(drawn, f"{n}, sorti", f"{n}")),
            class_name="loto-sr-only",
        ),
        background=rx.cond(last, last_bg, rx.cond(drawn, ACCENT, cell)),
        # undrawn numbers dim but readable (over 4.5:1); drawn ones bold with a ring, not only
        # colour
        color=rx.cond(last, last_text, rx.cond(drawn, "white", cell_text)),
        font_weight=rx.cond(drawn, "900", "500"),
        box_shadow=rx.cond(
            last,
            f"inset 0 0 0 0.1em {last_text}",
            rx.cond(
                drawn, f"inset 0 0 0 0.1em {WHITE}", f"inset 0 0 0 1px {LINE}" if light else "none"
            ),
        ),
        font_size=size,
        text_align="center",
        border_radius="0.4rem",
        padding="0.15em 0",
        custom_attrs=tid(
            f"board-{n}",
            role="listitem",
            **{"data-n": n, "data-drawn": rx.cond(drawn, "true", "false")},
        ),
    )


def board(size: str | list[str] = "1.2rem", *, light: bool = False) -> rx.Component:
    """Ten numbers a row, drawn ones lit; `size` may be responsive (a list, phone first);
    `light`: on a light page (the phone) rather than the TV's dark one. A list of 90 items for
    a screen reader, each saying whether it is out."""
    return rx.box(
        *[_number(n, size, light) for n in range(1, 91)],
        display="grid",
        grid_template_columns="repeat(10, minmax(0, 1fr))",
        gap=["0.2rem", "0.3rem"],
        width="100%",
        custom_attrs={"role": "list", "aria-label": "Les 90 numéros"},
    )


def last_number(size: str, min_width: str) -> rx.Component:
    """ "Dernier" and the last number drawn, large (a dash before the first), for a staff
    page's status line (the animateur's tablet, the contrôleur's phone)."""
    return rx.box(
        rx.text("Dernier", color=MUTED),
        rx.text(
            rx.cond(HallView.last > 0, HallView.last.to_string(), "–"),
            font_size=size,
            font_weight="900",
            color=ACCENT,
            line_height="1",
            custom_attrs=tid("last-number"),
        ),
        text_align="center",
        min_width=min_width,
    )
