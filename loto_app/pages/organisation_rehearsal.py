"""`/organisation`, the rehearsal: a copy of the evening for the volunteers' test phones, made,
listed apart from the real evening (its own code and addresses, under the RÉPÉTITION band) and
deleted with one confirmed tap (`EveningRehearsal`, live/states/organisation_rehearsal.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import error, secret_line, section
from loto_app.components.palette import CHECK_LINE, MUTED, NOTICE_BG, step
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.ui import tid
from loto_app.live.states.organisation_rehearsal import EveningRehearsal

R = EveningRehearsal
BIG = {"size": "3", "font_weight": "700", "font_size": "1.15rem", "min_height": "3rem"}


def _link(label: str, url: Any, testid: str) -> rx.Component:
    return rx.flex(
        rx.text(label, font_weight="700", min_width="13rem", font_size="1.1rem"),
        rx.link(
            url,
            href=url,
            is_external=True,
            word_break="break-all",
            font_size="1.1rem",
            custom_attrs=tid(testid),
        ),
        gap="0.2rem 1rem",
        wrap="wrap",
    )


def _secret() -> rx.Component:
    return rx.cond(
        R.rehearsal_secret != "",
        rx.box(
            secret_line(
                "Secret animateur de la répétition (à noter, il ne sera plus affiché)\u00a0:",
                R.rehearsal_secret,
                "rehearsal-animateur-secret",
                size="6",
            ),
            rx.button(
                "C'est noté",
                on_click=R.hide_rehearsal_secret,
                margin_top="0.5rem",
                custom_attrs=tid("rehearsal-secret-done"),
                **BIG,
            ),
            padding="0.8rem",
            background=NOTICE_BG,
            border=f"2px solid {CHECK_LINE}",
            border_radius="0.5rem",
        ),
        rx.button(
            "Nouveau secret animateur pour la répétition",
            on_click=R.renew_rehearsal_secret,
            variant="outline",
            custom_attrs=tid("rehearsal-secret-renew"),
            **BIG,
        ),
    )


def _delete() -> rx.Component:
    return rx.cond(
        R.delete_asked,
        rx.box(
            rx.text(
                "Supprimer la répétition\u202f? Ses joueurs, ventes, tirages et son journal "
                "sont effacés. La vraie soirée n'est pas touchée.",
                font_weight="700",
                font_size="1.15rem",
            ),
            rx.flex(
                rx.button(
                    "Oui, supprimer la répétition",
                    on_click=R.delete_rehearsal,
                    color_scheme="red",
                    custom_attrs=tid("rehearsal-delete-confirm"),
                    **BIG,
                ),
                rx.button(
                    "Annuler",
                    on_click=R.cancel_delete_rehearsal,
                    variant="outline",
                    custom_attrs=tid("rehearsal-delete-cancel"),
                    **BIG,
                ),
                gap="0.75rem",
                wrap="wrap",
                margin_top="0.5rem",
            ),
            padding="0.8rem",
            background=NOTICE_BG,
            border=f"2px solid {CHECK_LINE}",
            border_radius="0.5rem",
            custom_attrs=tid("rehearsal-delete-ask", role="alertdialog"),
        ),
        rx.button(
            "Supprimer la répétition",
            on_click=R.ask_delete_rehearsal,
            color_scheme="red",
            variant="outline",
            custom_attrs=tid("rehearsal-delete"),
            **BIG,
        ),
    )


def _made() -> rx.Component:
    """The copy, apart: under its band, its own code and addresses."""
    return rx.vstack(
        rehearsal_banner(True),
        rx.text(
            R.rehearsal_name,
            font_weight="800",
            font_size="1.3rem",
            custom_attrs=tid("rehearsal-name"),
        ),
        secret_line("Code de la répétition\u00a0:", R.rehearsal_code, "rehearsal-code", size="7"),
        rx.text(
            "Sur les téléphones d'essai, la tablette et l'écran, utilisez ce code, pas celui "
            "de la soirée. La caisse et le contrôle s'y connectent avec le même secret que pour "
            "la soirée.",
            color=MUTED,
        ),
        _link("Téléphones d'essai", R.rehearsal_player_link, "rehearsal-link-players"),
        _link("Écran de la salle", R.rehearsal_screen_link, "rehearsal-link-screen"),
        _link("Règlement", R.rehearsal_reglement_link, "rehearsal-link-reglement"),
        _secret(),
        _delete(),
        spacing="3",
        width="100%",
        align="stretch",
        padding="0.75rem",
        border=f"3px dashed {CHECK_LINE}",
        border_radius="0.75rem",
        custom_attrs=tid("rehearsal"),
    )


def rehearsal() -> rx.Component:
    """The rehearsal's section of the organiser's page."""
    return section(
        "Répétition avant la soirée",
        rx.text(
            "Une copie de la soirée (programme, lots, tarif, écrans) pour que les bénévoles "
            "s'entraînent avec des téléphones d'essai. Rien de la répétition ne compte pour "
            "la vraie soirée\u00a0: ni ses joueurs, ni ses ventes, ni ses tirages. Une seule "
            "répétition à la fois\u00a0; supprimez-la avant d'ouvrir les portes.",
            color=MUTED,
        ),
        error(R.rehearsal_message, "rehearsal-message"),
        rx.cond(
            R.rehearsal_done != "",
            rx.text(
                R.rehearsal_done,
                color=step("green", 11),
                font_weight="700",
                font_size="1.15rem",
                custom_attrs=tid("rehearsal-done", role="status"),
            ),
        ),
        rx.cond(
            R.rehearsal_code != "",
            _made(),
            rx.button(
                "Faire une répétition",
                on_click=R.create_rehearsal,
                custom_attrs=tid("rehearsal-create"),
                **BIG,
            ),
        ),
        testid="org-rehearsal",
    )
