"""`/reglement?code=…`: the evening's règlement, readable on a phone."""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import MUTED
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.ui import page_shell, tid
from loto_app.live.states.reglement import ReglementState

TITLE = "Loto — règlement de la soirée"


def _article(a) -> rx.Component:
    return rx.box(
        rx.heading(f"Article {a['no']} — {a['title']}", as_="h2", size="5"),
        rx.foreach(
            a["paragraphs"].to(list[str]),
            lambda p: rx.text(p, font_size="1.15rem", line_height="1.5", margin_top="0.4rem"),
        ),
        margin_top="1rem",
        custom_attrs=tid("reglement-article"),
    )


def index() -> rx.Component:
    """The règlement page."""
    return page_shell(
        rehearsal_banner(ReglementState.rehearsal),
        rx.heading(ReglementState.title, as_="h1", size="7", custom_attrs=tid("reglement-title")),
        rx.cond(
            ReglementState.message != "",
            rx.callout(
                ReglementState.message,
                color_scheme="red",
                size="3",
                custom_attrs=tid("reglement-message", role="alert"),
                high_contrast=True,
            ),
        ),
        rx.foreach(ReglementState.articles, _article),
        rx.cond(
            ReglementState.code != "",
            rx.text(
                rx.link("Retour au jeu", href="/jouer", size="4"),
                " · ",
                rx.link("Rejoindre la soirée", href=f"/?code={ReglementState.code}", size="4"),
                color=MUTED,
                margin_top="1.5rem",
            ),
        ),
        max_width="44rem",
    )
