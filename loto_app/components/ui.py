"""Look and feel: large, high-contrast, one-thumb controls."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex_components_core.core.banner import has_connection_errors

from loto_app.components.palette import (
    BANNER,
    CHECK_BG,
    CHECK_LINE,
    FALSE_BG,
    FALSE_LINE,
    INFO_BG,
    INFO_LINE,
    INK,
    PAPER,
    TIE_BG,
    TIE_LINE,
    WIN_BG,
    WIN_LINE,
)


def tid(name: Any, **more: Any) -> dict[str, Any]:
    """custom_attrs with a stable data-testid."""
    return {"data-testid": name, **more}


def big_button(label: Any, testid: str, **props: Any) -> rx.Component:
    """A large button for a thumb (at least 56 px high).

    Args:
        label: its text, or a tuple of its children (an icon and a text, two lines of text).
        testid: its data-testid (more attributes in `custom_attrs`).
        props: override the defaults; a default given as None is left to the theme (the font
            of a Radix button of that size).
    """
    style = {"size": "4", "min_height": "3.5rem", "font_size": "1.35rem", "font_weight": "700"}
    attrs = {**tid(testid), **props.pop("custom_attrs", {})}
    children = label if isinstance(label, tuple) else (label,)
    chosen = {k: v for k, v in {**style, **props}.items() if v is not None}
    return rx.button(*children, custom_attrs=attrs, **chosen)


def quiet_button(label: Any, testid: str, **props: Any) -> rx.Component:
    """A secondary action (a toggle, "Répéter", opening a form): outlined, dark text on the
    page's background, a thumb's height; props override the defaults."""
    style = {
        "size": "3",
        "variant": "outline",
        "color_scheme": "gray",
        "high_contrast": True,
        "min_height": "2.75rem",
    }
    attrs = {**tid(testid), **props.pop("custom_attrs", {})}
    return rx.button(label, custom_attrs=attrs, **{**style, **props})


def announcement_box(
    text: Any, kind: Any, testid: str = "announcement", **props: Any
) -> rx.Component:
    """The announcement band: colour and an icon word, never colour alone."""
    return rx.box(
        rx.text(text, font_weight="700"),
        background=rx.match(
            kind,
            ("winner", WIN_BG),
            ("check", CHECK_BG),
            ("tie", TIE_BG),
            ("false", FALSE_BG),
            ("unmark", WIN_BG),
            INFO_BG,
        ),
        border_left=rx.match(
            kind,
            ("winner", f"0.5rem solid {WIN_LINE}"),
            ("check", f"0.5rem solid {CHECK_LINE}"),
            ("tie", f"0.5rem solid {TIE_LINE}"),
            ("false", f"0.5rem solid {FALSE_LINE}"),
            ("unmark", f"0.5rem solid {WIN_LINE}"),
            f"0.5rem solid {INFO_LINE}",
        ),
        padding="0.75rem 1rem",
        border_radius="0.5rem",
        width="100%",
        custom_attrs=tid(testid, role="status", **{"aria-live": "polite"}),
        **props,
    )


def verdict_box(text: Any, verdict_kind: Any, testid: str, **props: Any) -> rx.Component:
    """A claim's verdict in the announcement band (`verdict_kind`: "valid" as a winner, "false"
    as a false claim, any other to be checked); props go to the band."""
    kind = rx.match(verdict_kind, ("valid", "winner"), ("false", "false"), "check")
    return announcement_box(text, kind, testid=testid, **props)


def connection_banner() -> rx.Component:
    """Shown while the connection to the server is lost; Reflex reconnects by itself and the
    page reloads the whole current state when it is back."""
    return rx.cond(
        has_connection_errors,
        rx.box(
            rx.text("Connexion perdue — reconnexion en cours…", font_weight="800"),
            rx.text(
                "Vos cartons sont gardés sur le serveur, vos pions sur ce téléphone.",
                font_size="0.95rem",
            ),
            background=BANNER,
            color="white",
            padding="0.6rem 1rem",
            position="sticky",
            top="0",
            z_index="20",
            border_radius="0.4rem",
            custom_attrs=tid("connection-banner", role="alert"),
        ),
    )


def page_shell(*children: rx.Component, max_width: str = "40rem", **props: Any) -> rx.Component:
    """Centered column, phone first: the page's main landmark; props override the defaults."""
    style = {"padding": ["0.5rem", "0.75rem"], "min_height": "100vh"}
    return rx.box(
        rx.vstack(connection_banner(), *children, spacing="4", width="100%", align="stretch"),
        max_width=max_width,
        margin="0 auto",
        background=PAPER,
        color=INK,
        custom_attrs={"role": "main"},
        **{**style, **props},
    )
