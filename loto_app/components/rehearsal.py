"""The banner of a rehearsal (domain/rehearsal.py): "RÉPÉTITION" across the top of every
screen of the copy (the phones, the tablet, the hall screen, the desk, the contrôle, the
règlement), high contrast and in the page's flow, so that it never covers the game."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import REHEARSAL_BG, REHEARSAL_TEXT
from loto_app.components.ui import tid
from loto_app.domain.rehearsal import WORD

SAYS = "Soirée d'essai\u00a0: rien ne compte pour la vraie soirée."
SHORT = "Essai\u00a0: rien ne compte"  # (a phone's width)
#: ink stripes above and below, as on a hazard tape (no text on them)
_TAPE = f"repeating-linear-gradient(-45deg, {REHEARSAL_TEXT} 0 0.6rem, {REHEARSAL_BG} 0 1.2rem)"


def rehearsal_banner(shown: Any, *, tv: bool = False) -> rx.Component:
    """The banner, shown while `shown` (a var: the evening is a rehearsal); `tv`: the hall
    screen's sizes, read from the back of the hall."""
    # on a phone one short strip (it stays in view: it must not take the carton's room)
    word = ["1.25rem", "1.6rem"] if not tv else "clamp(1.6rem, 3.2vw, 4rem)"
    says = ["0.95rem", "1.1rem"] if not tv else "clamp(1rem, 1.5vw, 2rem)"
    banner = rx.box(
        rx.flex(
            rx.text(WORD, font_size=word, font_weight="900", letter_spacing="0.08em"),
            rx.text(
                rx.el.span(SHORT, display=["inline", "none"]),
                rx.el.span(SAYS, display=["none", "inline"]),
                font_size=says,
                font_weight="700",
            ),
            gap="0 0.75rem",
            wrap="wrap",
            align="center",
            justify="center",
            background=REHEARSAL_BG,
            padding=["0.1rem 0.4rem", "0.3rem 0.75rem"],
        ),
        background=_TAPE,
        padding=["0.2rem 0", "0.35rem 0"],
        color=REHEARSAL_TEXT,
        text_align="center",
        width="100%",
        flex_shrink="0",
        # (over a page it stays in view; on the organiser's page, a label of the copy's box)
        position="static" if shown is True else "sticky",
        top="0",
        z_index="15",
        custom_attrs=tid("rehearsal-banner", role="status", **{"aria-label": WORD}),
    )
    return banner if shown is True else rx.cond(shown, banner)
