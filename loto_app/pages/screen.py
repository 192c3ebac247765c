"""`/ecran`: the hall screen (TV), readable from the back of the hall."""

from __future__ import annotations

import reflex as rx

from loto_app.components.board import board
from loto_app.components.control import last_call_banner, readback
from loto_app.components.palette import (
    INFO_LINE,
    TV_BG,
    TV_HIGHLIGHT,
    TV_LAST_TEXT,
    TV_MUTED,
    TV_PANEL,
)
from loto_app.components.ui import announcement_box, connection_banner, tid
from loto_app.live.hall import HallView
from loto_app.live.screen import ScreenState

TITLE = "Loto — écran de la salle"


def index() -> rx.Component:
    """The hall screen."""
    return rx.box(
        rx.box(display="none", custom_attrs={"data-page": "screen"}),
        rx.script(src="/loto.js"),
        connection_banner(),
        rx.cond(
            ScreenState.message != "",
            rx.text(ScreenState.message, font_size="2rem", color="white"),
        ),
        rx.grid(
            rx.vstack(
                rx.heading(HallView.evening_name, as_="h1", font_size="2rem", font_weight="800"),
                rx.text(
                    rx.cond(
                        HallView.game_no > 0,
                        f"Partie {HallView.game_no} / {HallView.games_total}",
                        "Bientôt la première partie",
                    ),
                    font_size="1.8rem",
                ),
                rx.cond(
                    HallView.stage_label != "",
                    rx.text(
                        f"{HallView.stage_label} — {HallView.lot_label}",
                        font_size="2.2rem",
                        font_weight="800",
                        color=TV_HIGHLIGHT,
                    ),
                ),
                rx.text(
                    rx.cond(HallView.last > 0, HallView.last.to_string(), "–"),
                    font_size="16rem",
                    font_weight="900",
                    line_height="1",
                    color=TV_HIGHLIGHT,
                    custom_attrs=tid("last-number", **{"aria-live": "assertive"}),
                ),
                rx.text(
                    f"{HallView.count} ",
                    rx.cond(HallView.count > 1, "numéros sortis", "numéro sorti"),
                    font_size="2rem",
                ),
                rx.cond(
                    HallView.last_five.length() > 0,
                    rx.hstack(
                        rx.text("Avant :", font_size="1.6rem", color=TV_MUTED),
                        rx.foreach(
                            HallView.last_five,
                            lambda n: rx.text(n, font_size="2.4rem", font_weight="800"),
                        ),
                        spacing="4",
                        align="center",
                        justify="center",
                        wrap="wrap",
                        custom_attrs=tid("last-five"),
                    ),
                ),
                rx.cond(
                    HallView.rhythm != "",
                    rx.text(
                        f"Rythme : {HallView.rhythm}",
                        font_size="1.4rem",
                        color=TV_MUTED,
                        custom_attrs=tid("rhythm"),
                    ),
                ),
                rx.cond(
                    HallView.tie_tokens.length() > 0,
                    rx.hstack(
                        rx.foreach(
                            HallView.tie_tokens,
                            lambda t: rx.text(
                                f"{t['name']} : {t['token']}",
                                font_size="2rem",
                                font_weight="800",
                                color=TV_LAST_TEXT,
                                background=TV_HIGHLIGHT,
                                padding="0.2rem 0.8rem",
                                border_radius="0.4rem",
                            ),
                        ),
                        wrap="wrap",
                    ),
                ),
                rx.cond(
                    ScreenState.qr != "",
                    rx.hstack(
                        rx.image(
                            src=ScreenState.qr,
                            width="14rem",
                            height="14rem",
                            alt="QR code pour rejoindre",
                            background="white",
                        ),
                        rx.vstack(
                            rx.text("Rejoignez avec votre téléphone", font_size="1.7rem"),
                            rx.text(
                                f"Code : {HallView.join_code}",
                                font_size="2.4rem",
                                font_weight="900",
                            ),
                            rx.text(f"Série {HallView.series}", font_size="1.6rem"),
                            rx.text(
                                f"ou ouvrez : {ScreenState.join_address}",
                                font_size="1.6rem",
                                custom_attrs=tid("join-address"),
                            ),
                        ),
                        align="center",
                        justify="center",
                        wrap="wrap",
                        custom_attrs=tid("join-qr"),
                    ),
                ),
                rx.hstack(
                    rx.button(
                        "Voix : coupée",
                        size="3",
                        background=TV_PANEL,
                        color="white",
                        border=f"1px solid {INFO_LINE}",
                        custom_attrs=tid("voice-toggle", **{"aria-pressed": "false"}),
                    ),
                    rx.button(
                        "Expressions : activées",
                        size="3",
                        background=TV_PANEL,
                        color="white",
                        border=f"1px solid {INFO_LINE}",
                        custom_attrs=tid("phrases-toggle", **{"aria-pressed": "true"}),
                    ),
                    justify="center",
                    wrap="wrap",
                ),
                align="center",
                spacing="3",
            ),
            rx.vstack(
                announcement_box(
                    HallView.announcement,
                    HallView.announcement_kind,
                    font_size="2rem",
                    color=TV_LAST_TEXT,
                ),
                last_call_banner(
                    ["2rem", "2.4rem", "3rem", "3rem", "3.6rem", "4rem"],
                    ["1rem", "1.1rem", "1.4rem", "1.4rem", "1.6rem", "1.8rem"],
                ),
                # while a claim is checked, its carton replaces the board: the animateur reads
                # it back to the hall (the last number and the numbers before stay on the left)
                rx.cond(
                    HallView.readback_on,
                    readback(
                        ["1.2rem", "1.6rem", "2.2rem", "2.2rem", "2.8rem", "3.4rem"],
                        font_size=["1rem", "1.2rem", "1.6rem", "1.6rem", "1.8rem", "2rem"],
                    ),
                    # as big as the TV allows (phone-first sizes: 360, 480, 768, 992, 1280,
                    # 1536 px)
                    board(["1rem", "1.4rem", "1.8rem", "1.8rem", "2.3rem", "2.8rem"]),
                ),
                spacing="4",
                width="100%",
            ),
            grid_template_columns=["minmax(0, 1fr)", "minmax(0, 1fr)", "minmax(0, 1fr)", "2fr 3fr"],
            gap="2rem",
            width="100%",
        ),
        background=TV_BG,
        color="white",
        min_height="100vh",
        padding="1.5rem",
        custom_attrs={"role": "main"},
    )
