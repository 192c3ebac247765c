"""`/organisation`: the organiser creates the evening (program, tariff, settings), then hands
out the desk's access and keeps the records. Mostly used on a laptop or a tablet. The page's
frame and sign-in are here; each task's sections are in `organisation_setup.py`,
`organisation_staff.py` and `organisation_records.py`, as their states are."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import (
    error,
    section,
)
from loto_app.components.signin import sign_in_form
from loto_app.components.ui import page_shell, tid
from loto_app.live.states.organisation import OrganisationState
from loto_app.pages import organisation_records, organisation_setup, organisation_staff

TITLE = "Loto — organisation"
P = OrganisationState  # the sign-in and the evening


def _login_form() -> rx.Component:
    return section(
        "Se connecter à une soirée",
        sign_in_form(
            "",
            "org-login",
            "Secret de l'organisateur",
            P.login,
            submit_id="org-login",
            message=P.login_message,
        ),
        testid="org-login-section",
    )


def _signed_out() -> rx.Component:
    tab = {
        "size": "4",
        "flex": "1 1 12rem",
        "min_height": "3.5rem",
        "font_size": "1.2rem",
        "font_weight": "700",
    }
    return rx.fragment(
        rx.flex(
            rx.button(
                "Créer une soirée",
                on_click=P.show_tab("create"),
                variant=rx.cond(P.tab == "create", "solid", "outline"),
                custom_attrs=tid("tab-create", **{"aria-pressed": P.tab == "create"}),
                **tab,
            ),
            rx.button(
                "J'ai déjà une soirée",
                on_click=P.show_tab("signin"),
                variant=rx.cond(P.tab == "signin", "solid", "outline"),
                custom_attrs=tid("tab-signin", **{"aria-pressed": P.tab == "signin"}),
                **tab,
            ),
            gap="0.75rem",
            wrap="wrap",
            width="100%",
        ),
        rx.cond(P.tab == "create", organisation_setup.create_form(), _login_form()),
    )


# ---------------------------------------------------------------------------- signed in


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


def _links() -> rx.Component:
    return section(
        "Les adresses de la soirée",
        _link("Joueurs (téléphones)", P.player_link, "link-players"),
        _link("Écran de la salle", P.screen_link, "link-screen"),
        _link("Animateur", f"{P.origin}/animateur", "link-animateur"),
        _link("Caisse", f"{P.origin}/caisse", "link-caisse"),
        testid="org-links",
    )


def _signed_in() -> rx.Component:
    return rx.fragment(
        organisation_setup.credentials(),
        rx.flex(
            rx.vstack(
                rx.heading(P.evening_name, as_="h2", size="7", custom_attrs=tid("org-evening")),
                rx.text(
                    f"Code {P.evening_code} — série {P.evening_series}",
                    font_size="1.2rem",
                ),
                spacing="1",
            ),
            rx.spacer(),
            rx.button(
                "Se déconnecter",
                on_click=P.logout,
                variant="outline",
                size="3",
                custom_attrs=tid("org-logout"),
            ),
            gap="0.75rem",
            wrap="wrap",
            align="center",
            width="100%",
        ),
        _links(),
        organisation_staff.animateur_secret(),
        organisation_staff.staff(),
        organisation_staff.invitation(),
        organisation_records.records(),
    )


def index() -> rx.Component:
    """The organiser's page."""
    return page_shell(
        rx.heading("Organisation de la soirée", as_="h1", size="8", custom_attrs=tid("title")),
        error(P.message, "org-message"),
        rx.cond(P.signed_in, _signed_in(), _signed_out()),
        max_width="72rem",
        padding=["0.5rem", "1rem", "1.5rem"],
        font_size="1.05rem",
    )
