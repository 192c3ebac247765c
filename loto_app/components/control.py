"""The control of a claim, as the hall sees it: the last call ("Pas d'autre quine ?") with its
countdown, and the read-back of the claimed carton (seed 002: the animateur reads its numbers
back to the hall). Same components on the hall screen, the tablet and the phones."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import (
    CELL_BORDER,
    CELL_EMPTY,
    CHECK_LINE,
    DRAWN,
    FALSE_LINE,
    INFO_LINE,
    INK,
    ON_SOLID,
    SUCCESS,
    WHITE,
    WIN_LINE,
)
from loto_app.components.ui import tid
from loto_app.live.states.hall import HallView

_KIND_BORDER = {"winner": WIN_LINE, "false": FALSE_LINE, "check": CHECK_LINE}


#: What the hall hears during the last call (the phones say it to those who can still claim).
LAST_CALL_NOTE = "Dernier appel : si vous l'avez aussi sur ce numéro, annoncez-le maintenant !"


def last_call_banner(
    font_size: Any = "1.6rem", note_size: Any = "1.05rem", note: Any = LAST_CALL_NOTE, **props: Any
) -> rx.Component:
    """ "Pas d'autre quine ?" while the last call runs: every valid claim on this number
    meanwhile joins the ex aequo. A bar empties over the evening's seconds (CSS only: the
    server closes the last call, the bar is a cue). `note`: what it asks of whoever reads it."""
    return rx.cond(
        HallView.last_call,
        rx.box(
            rx.text(
                HallView.last_call_text,
                font_size=font_size,
                font_weight="900",
                line_height="1.1",
            ),
            rx.text(
                note, font_weight="700", font_size=note_size, custom_attrs=tid("last-call-note")
            ),
            rx.box(
                rx.box(
                    class_name="loto-countdown",
                    background=INK,
                    style={"animation_duration": f"{HallView.last_call_seconds}s"},
                    key=HallView.last_call_key,
                ),
                height="0.8rem",
                width="100%",
                background=WHITE,
                border=f"2px solid {INK}",
                border_radius="0.4rem",
                overflow="hidden",
                margin_top="0.4rem",
                custom_attrs={"aria-hidden": "true"},
            ),
            background=DRAWN,
            color=INK,
            padding="0.75rem 1rem",
            border=f"4px solid {INK}",
            border_radius="0.6rem",
            width="100%",
            custom_attrs=tid("last-call", role="status", **{"aria-live": "assertive"}),
            **props,
        ),
    )


def _cell(cell: rx.Var[dict[str, Any]], font_size: Any) -> rx.Component:
    n = cell["n"].to(int)
    win = cell["win"].to(bool)
    drawn = cell["drawn"].to(bool)
    last = cell["last"].to(bool)
    return rx.cond(
        n == 0,
        rx.box(background=CELL_EMPTY, border_radius="0.3rem"),
        rx.box(
            n,
            font_size=font_size,
            font_weight=rx.cond(drawn, "900", "500"),
            # the number in the middle of its cell, and every cell of a row as tall: the
            # circled last number takes its ring inside (a shadow), never more height
            line_height="1",
            height="1.6em",
            display="flex",
            align_items="center",
            justify_content="center",
            white_space="nowrap",
            # a winning number: green with white text; another drawn one: yellow; not drawn
            # (a false claim's missing number): white, struck through
            background=rx.cond(win, SUCCESS, rx.cond(drawn, DRAWN, WHITE)),
            color=rx.cond(win, ON_SOLID, INK),
            text_decoration=rx.cond(drawn, "none", "line-through"),
            border=f"1px solid {CELL_BORDER}",
            box_shadow=rx.cond(last, f"inset 0 0 0 0.16em {INK}", "none"),
            border_radius=rx.cond(last, "999px", "0.3rem"),
            custom_attrs={
                "data-n": n,
                "data-win": rx.cond(win, "true", "false"),
                "data-last": rx.cond(last, "true", "false"),
                "data-drawn": rx.cond(drawn, "true", "false"),
            },
        ),
    )


def _grids(cell_size: Any, source: Any) -> rx.Component:
    labels = getattr(source, "readback_labels", None)  # (an ex aequo's: the hall's only)

    def grid(carton: Any, i: Any) -> rx.Component:
        box = rx.box(
            rx.foreach(carton, lambda cell: _cell(cell, cell_size)),
            display="grid",
            grid_template_columns=rx.cond(
                source.readback_cols == 5,
                "repeat(5, minmax(0, 1fr))",
                "repeat(9, minmax(0, 1fr))",
            ),
            gap="0.25rem",
            margin_top="0.5rem",
            custom_attrs=tid("readback-grid"),
        )
        if labels is None:
            return box
        return rx.fragment(
            rx.cond(
                labels[i] != "",
                rx.text(
                    labels[i],
                    font_weight="800",
                    margin_top="0.5rem",
                    custom_attrs=tid("readback-label"),
                ),
            ),
            box,
        )

    return rx.foreach(source.readback_cartons, grid)


def readback(
    cell_size: Any = "1.6rem", tie_cell_size: Any = None, source: Any = HallView, **props: Any
) -> rx.Component:
    """The claimed carton(s) as a grid: the winning line(s) green, the last number circled,
    the numbers not drawn struck through; its number, its owner and the verdict above. An ex
    aequo shows every tied carton, each named (`tie_cell_size`: smaller cells for them).
    `source`: the state holding the `readback_*` vars (the hall's public one by default; a
    controller's page holds the read-back of the carton it checked)."""
    kind = source.readback_kind
    grids = (
        _grids(cell_size, source)
        if tie_cell_size is None
        else rx.cond(
            source.readback_cartons.length() > 1,
            _grids(tie_cell_size, source),
            _grids(cell_size, source),
        )
    )
    return rx.cond(
        source.readback_on,
        rx.box(
            rx.text(source.readback_title, font_weight="900", font_size="1.2em"),
            rx.text(source.readback_caption, font_weight="700"),
            grids,
            rx.text(
                "Vert : la ligne gagnante — cerclé : le dernier numéro — barré : pas encore sorti",
                font_size="0.95em",
                margin_top="0.4rem",
            ),
            background=WHITE,
            color=INK,
            padding="0.75rem 1rem",
            border_left=rx.match(
                kind,
                ("winner", f"0.6rem solid {_KIND_BORDER['winner']}"),
                ("false", f"0.6rem solid {_KIND_BORDER['false']}"),
                ("check", f"0.6rem solid {_KIND_BORDER['check']}"),
                f"0.6rem solid {INFO_LINE}",
            ),
            border_radius="0.6rem",
            width="100%",
            custom_attrs=tid("readback", **{"data-kind": kind}),
            **props,
        ),
    )
