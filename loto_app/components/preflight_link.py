"""The way to the check before the doors open (`/verification`, pages/verification.py), on the
organiser's page and the animateur's tablet."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import INFO_BG, INFO_LINE, MUTED
from loto_app.components.ui import tid


def preflight_link(**props: Any) -> rx.Component:
    """A large link: "Vérification avant l'ouverture", and what it checks."""
    return rx.link(
        rx.box(
            rx.text("Vérification avant l'ouverture →", font_weight="800", font_size="1.25rem"),
            rx.text(
                "Écran, son, tablette, caisse, adresse des téléphones, PDF\u00a0: tout est-il "
                "prêt\u202f?",
                color=MUTED,
                font_size="1rem",
            ),
            background=INFO_BG,
            border_left=f"0.5rem solid {INFO_LINE}",
            padding="0.75rem 1rem",
            border_radius="0.5rem",
        ),
        href="/verification",
        underline="none",
        display="block",
        width="100%",
        custom_attrs=tid("link-verification"),
        **props,
    )
