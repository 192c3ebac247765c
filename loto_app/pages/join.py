"""The join form: an evening's code and a pseudonym (the page `/` is pages/player.py's
`join_or_play`)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.ui import big_button, page_shell, tid
from loto_app.domain.remote import LIVE_ONLY, NBSP
from loto_app.limits import MAX_CODE, MAX_PLAYER_NAME
from loto_app.live.states.join import JoinPrefill
from loto_app.live.states.player import PlayerState

TITLE = "Loto"
REMOTE_INVITED = (
    f"Invitation personnelle à jouer à distance{NBSP}: elle ne sert que sur ce téléphone. "
    "Vos cartons se règlent auprès de la caisse, selon les consignes des organisateurs."
)


def form_page() -> rx.Component:
    """The join form (on `/`, and on `/jouer` without an identity: pages/player.py)."""
    return page_shell(
        rehearsal_banner(JoinPrefill.rehearsal),
        rx.heading("Loto", as_="h1", size="9", text_align="center", custom_attrs=tid("title")),
        rx.text("Rejoindre une soirée de loto", size="6", text_align="center"),
        rx.form(
            rx.vstack(
                rx.el.label(
                    "Code de la soirée", html_for="join-code", font_size="1.2rem", font_weight="700"
                ),
                rx.input(
                    id="join-code",
                    name="code",
                    key=JoinPrefill.code,
                    default_value=JoinPrefill.code,
                    placeholder="ex. DEMO42",
                    size="3",
                    font_size="1.5rem",
                    auto_complete="off",
                    max_length=MAX_CODE,
                    width="100%",
                    custom_attrs=tid("join-code", autocapitalize="characters"),
                ),
                rx.el.label(
                    "Votre pseudo", html_for="join-name", font_size="1.2rem", font_weight="700"
                ),
                rx.input(
                    id="join-name",
                    name="name",
                    placeholder="ex. Mamie Jo",
                    size="3",
                    font_size="1.5rem",
                    max_length=MAX_PLAYER_NAME,
                    auto_complete="nickname",
                    width="100%",
                    custom_attrs=tid("join-name"),
                ),
                rx.el.input(type="hidden", name="invitation", value=JoinPrefill.invitation),
                rx.cond(
                    JoinPrefill.invitation != "",
                    rx.callout.root(
                        rx.callout.text(REMOTE_INVITED, font_weight="700"),
                        rx.callout.text(LIVE_ONLY),
                        color_scheme="indigo",
                        size="2",
                        high_contrast=True,
                        custom_attrs=tid("join-remote-note"),
                    ),
                ),
                # Greyed until the page is connected: a tap before that (a slow phone, the
                # page's script not yet running) was the browser's own form submission, which
                # reloaded the page without the link's code (found by CI on a busy machine).
                big_button(
                    rx.cond(rx.State.is_hydrated, "Rejoindre", "Connexion…"),
                    "join-submit",
                    type="submit",
                    width="100%",
                    disabled=~rx.State.is_hydrated,
                ),
                rx.cond(
                    PlayerState.join_message != "",
                    rx.callout(
                        PlayerState.join_message,
                        color_scheme="red",
                        size="3",
                        custom_attrs=tid("join-message", role="alert"),
                        high_contrast=True,
                    ),
                ),
                spacing="3",
                width="100%",
            ),
            on_submit=PlayerState.join_evening,
            reset_on_submit=False,
            width="100%",
        ),
        rx.cond(
            JoinPrefill.code != "",
            rx.link(
                "Règlement de la soirée",
                href=f"/reglement?code={JoinPrefill.code}",
                size="4",
                text_align="center",
                custom_attrs=tid("reglement-link"),
            ),
        ),
        rx.hstack(
            rx.link("Animateur", href="/animateur", size="3"),
            rx.link("Écran de la salle", href="/ecran", size="3"),
            justify="center",
            spacing="6",
        ),
        max_width="28rem",
    )
