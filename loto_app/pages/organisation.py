"""`/organisation`: the organiser creates the evening (program, tariff, settings), then hands
out the desk's access and keeps the records. Mostly used on a laptop or a tablet. The page's
frame and sign-in are here; each task's sections are in `organisation_setup.py`,
`organisation_staff.py` and `organisation_records.py`, as their states are."""

from __future__ import annotations

import reflex as rx

from loto_app.components.form import error, link_line, section
from loto_app.components.help_link import help_link
from loto_app.components.pair_form import pair_form
from loto_app.components.palette import ACCENT, INK, MUTED, SECTION_LINE
from loto_app.components.preflight_link import preflight_link
from loto_app.components.signin import sign_in_form
from loto_app.components.ui import page_shell, tid
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.organisation_staff import EveningStaff
from loto_app.pages import (
    organisation_books,
    organisation_invitations,
    organisation_media,
    organisation_own,
    organisation_records,
    organisation_rehearsal,
    organisation_setup,
    organisation_staff,
)

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


def _choice_card(testid: str, title: str, text: str, tab: str, icon: str) -> rx.Component:
    return rx.el.button(
        rx.flex(
            rx.icon(icon, size=40, color=ACCENT, flex_shrink="0"),
            rx.vstack(
                rx.text(title, font_size="1.6rem", font_weight="800", color=INK),
                rx.text(text, font_size="1.15rem", color=MUTED, text_align="left"),
                spacing="1",
                align="start",
            ),
            gap="1rem",
            align="center",
        ),
        on_click=P.show_tab(tab),
        padding="1.4rem 1.25rem",
        min_height="7.5rem",
        width="100%",
        cursor="pointer",
        background="white",
        border=f"2px solid {SECTION_LINE}",
        border_left=f"0.5rem solid {ACCENT}",
        border_radius="0.9rem",
        text_align="left",
        custom_attrs=tid(testid),
    )


def _choice() -> rx.Component:
    """A visitor with no evening on this browser: what do you want to do?"""
    return rx.vstack(
        rx.text("Que voulez-vous faire ?", font_size="1.3rem", font_weight="700"),
        rx.grid(
            _choice_card(
                "tab-signin",
                "J'ai déjà une soirée",
                "La gérer ou la modifier avec son code et le secret de l'organisateur.",
                "signin",
                "log-in",
            ),
            _choice_card(
                "tab-create",
                "Créer une soirée",
                "Le programme, les lots et le tarif, en 4 étapes (tout est prérempli).",
                "create",
                "circle-plus",
            ),
            columns=rx.breakpoints(initial="1", md="2"),
            spacing="4",
            width="100%",
        ),
        spacing="3",
        width="100%",
        align="stretch",
        custom_attrs=tid("org-choice"),
    )


def _signed_out() -> rx.Component:
    tab = {"size": "3", "min_height": "2.75rem", "font_size": "1.05rem", "font_weight": "700"}
    return rx.cond(
        P.tab == "",
        _choice(),
        rx.fragment(
            rx.flex(
                rx.button(
                    "Créer une soirée",
                    on_click=P.show_tab("create"),
                    variant=rx.cond(P.tab == "create", "soft", "ghost"),
                    custom_attrs=tid("tab-create", **{"aria-pressed": P.tab == "create"}),
                    **tab,
                ),
                rx.button(
                    "J'ai déjà une soirée",
                    on_click=P.show_tab("signin"),
                    variant=rx.cond(P.tab == "signin", "soft", "ghost"),
                    custom_attrs=tid("tab-signin", **{"aria-pressed": P.tab == "signin"}),
                    **tab,
                ),
                gap="0.75rem",
                wrap="wrap",
                width="100%",
            ),
            rx.cond(P.tab == "create", organisation_setup.create_form(), _login_form()),
        ),
    )


# ---------------------------------------------------------------------------- signed in


def _links() -> rx.Component:
    return section(
        "Les adresses de la soirée",
        link_line("Joueurs (téléphones)", P.player_link, "link-players"),
        link_line("Écran de la salle", P.screen_link, "link-screen"),
        link_line("Animateur", f"{P.origin}/animateur", "link-animateur"),
        link_line("Caisse", f"{P.origin}/caisse", "link-caisse"),
        testid="org-links",
    )


def _screens() -> rx.Component:
    return section(
        "Relier l'écran de la salle",
        rx.text(
            "Ouvrez /ecran sur la télévision de la salle et tapez le code qu'elle affiche : "
            "elle montre la soirée aussitôt, sans clavier sur la télévision.",
            color=MUTED,
        ),
        pair_form(EveningStaff),
        testid="pair-screen",
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
        preflight_link(),  # the check before the doors open (pages/verification.py)
        organisation_setup.edit_program(),
        organisation_media.media(),
        organisation_own.own_cartons(),
        _links(),
        _screens(),
        organisation_staff.animateur_secret(),
        organisation_staff.staff(),
        organisation_invitations.invitations(),
        organisation_records.records(),
        organisation_books.books(),
        organisation_rehearsal.rehearsal(),
    )


def index() -> rx.Component:
    """The organiser's page."""
    return page_shell(
        help_link("organisation"),
        rx.heading("Organisation de la soirée", as_="h1", size="8", custom_attrs=tid("title")),
        error(P.message, "org-message"),
        rx.cond(P.signed_in, _signed_in(), _signed_out()),
        max_width="72rem",
        padding=["0.5rem", "1rem", "1.5rem"],
        font_size="1.05rem",
    )
