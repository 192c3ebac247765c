"""The electronic draw's commitment as the hall screen and the phones show it: a note in words
(committed before the first number, verifiable at the end; or nothing committed with the
physical boulier) and the commitment's first 16 hex digits, large (`snapshot.draw_public`)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import INFO_BG, INFO_LINE, MUTED, TV_HIGHLIGHT, TV_MUTED
from loto_app.components.ui import tid
from loto_app.live.states.hall import HallView

MONO = "ui-monospace, Menlo, Consolas, monospace"


def _digits(size: Any, color: Any = None) -> rx.Component:
    return rx.el.span(
        HallView.commitment_short,
        font_family=MONO,
        font_weight="900",
        letter_spacing="0.05em",
        white_space="nowrap",
        font_size=size,
        color=color,
        custom_attrs=tid("commitment-short"),
    )


def phone_draw_note() -> rx.Component:
    """Under the phone's messages: the commitment in a box before the first number (and where
    to check once the game is over), one short line while the numbers come out; with the
    physical boulier, its note before the first number only."""
    full = rx.box(
        rx.text(HallView.draw_note, font_size="1.05rem", font_weight="600"),
        rx.cond(
            HallView.commitment_short != "",
            rx.text("Empreinte : ", _digits("1.3rem"), font_size="1.1rem"),
        ),
        rx.cond(
            HallView.draw_revealed,
            rx.link(
                "Vérifier ce tirage",
                href=f"/verifier?code={HallView.join_code}",
                font_size="1.15rem",
                font_weight="800",
                custom_attrs=tid("verify-link"),
            ),
        ),
        background=INFO_BG,
        border_left=f"0.4rem solid {INFO_LINE}",
        padding="0.5rem 0.8rem",
        border_radius="0.5rem",
        custom_attrs=tid("draw-commitment"),
    )
    line = rx.text(
        "Tirage engagé · empreinte ",
        _digits("1.05rem"),
        font_size="1rem",
        color=MUTED,
        custom_attrs=tid("draw-commitment"),
    )
    # (with the physical boulier the note is said before the first number; while the balls
    # come out it would only push the player's cartons down)
    return rx.cond(
        HallView.draw_note != "",
        rx.cond(
            (HallView.count == 0) | HallView.draw_revealed,
            full,
            rx.cond(HallView.commitment_short != "", line),
        ),
    )


def tv_draw_note(
    large: bool, font_size: Any, address: Any = "", big: Any = None, small: Any = None
) -> rx.Component:
    """On the hall screen: large before the first number (under the way in), small in the
    footer while the numbers come out."""
    if not large:  # (while the numbers come out: the way in and the note are not shown)
        return rx.cond(
            (HallView.commitment_short != "") & (HallView.count > 0) & ~HallView.draw_revealed,
            rx.text(
                "Tirage engagé · empreinte ",
                _digits(font_size, TV_HIGHLIGHT),
                font_size=font_size,
                color=TV_MUTED,
                custom_attrs=tid("tv-commitment-small"),
            ),
        )
    return rx.cond(
        HallView.draw_note != "",
        rx.vstack(
            rx.cond(
                HallView.commitment_short != "",
                rx.text(
                    rx.cond(
                        HallView.draw_revealed,
                        "Tirage vérifiable · empreinte",
                        "Tirage engagé · empreinte",
                    ),
                    font_size=font_size,
                    font_weight="800",
                    text_align="center",
                ),
            ),
            rx.cond(HallView.commitment_short != "", _digits(big, TV_HIGHLIGHT)),
            rx.cond(
                HallView.draw_revealed,
                rx.text(
                    f"Vérifiez-le sur {address}/verifier",
                    font_size=small,
                    color=TV_MUTED,
                    text_align="center",
                ),
            ),
            rx.cond(
                HallView.commitment_short == "",
                rx.text(
                    HallView.draw_note, font_size=font_size, color=TV_MUTED, text_align="center"
                ),
            ),
            align="center",
            spacing="1",
            custom_attrs=tid("tv-commitment"),
        ),
    )
