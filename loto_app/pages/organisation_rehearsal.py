"""`/organisation`, the rehearsal: a copy of the evening for the volunteers' test phones, made,
listed apart from the real evening (its own code and addresses, under the RÉPÉTITION band) and
deleted with one confirmed tap (`EveningRehearsal`, live/states/organisation_rehearsal.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import button_row, error, link_line, notice, secret_line, section
from loto_app.components.palette import CHECK_LINE, MUTED, step
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.ui import big_button, tid
from loto_app.live.states.organisation_rehearsal import EveningRehearsal

R = EveningRehearsal
BIG = {"size": "3", "font_weight": "700", "font_size": "1.15rem", "min_height": "3rem"}


def _button(label: str, testid: str, on_click: Any, **props: Any) -> rx.Component:
    return big_button(label, testid, on_click=on_click, **{**BIG, **props})


def _secret() -> rx.Component:
    return rx.cond(
        R.rehearsal_secret != "",
        notice(
            secret_line(
                "Secret animateur de la répétition (à noter, il ne sera plus affiché)\u00a0:",
                R.rehearsal_secret,
                "rehearsal-animateur-secret",
                size="6",
            ),
            _button(
                "C'est noté", "rehearsal-secret-done", R.hide_rehearsal_secret, margin_top="0.5rem"
            ),
        ),
        _button(
            "Nouveau secret animateur pour la répétition",
            "rehearsal-secret-renew",
            R.renew_rehearsal_secret,
            variant="outline",
        ),
    )


def _delete() -> rx.Component:
    return rx.cond(
        R.delete_asked,
        notice(
            rx.text(
                "Supprimer la répétition\u202f? Ses joueurs, ventes, tirages et son journal "
                "sont effacés. La vraie soirée n'est pas touchée.",
                font_weight="700",
                font_size="1.15rem",
            ),
            button_row(
                _button(
                    "Oui, supprimer la répétition",
                    "rehearsal-delete-confirm",
                    R.delete_rehearsal,
                    color_scheme="red",
                ),
                _button(
                    "Annuler",
                    "rehearsal-delete-cancel",
                    R.cancel_delete_rehearsal,
                    variant="outline",
                ),
                gap="0.75rem",
            ),
            custom_attrs=tid("rehearsal-delete-ask", role="alertdialog"),
        ),
        _button(
            "Supprimer la répétition",
            "rehearsal-delete",
            R.ask_delete_rehearsal,
            color_scheme="red",
            variant="outline",
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
        link_line("Téléphones d'essai", R.rehearsal_player_link, "rehearsal-link-players"),
        link_line("Écran de la salle", R.rehearsal_screen_link, "rehearsal-link-screen"),
        link_line("Règlement", R.rehearsal_reglement_link, "rehearsal-link-reglement"),
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
            _button("Faire une répétition", "rehearsal-create", R.create_rehearsal),
        ),
        testid="org-rehearsal",
    )
