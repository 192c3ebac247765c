"""`/verification`: the check before the doors open (`VerificationState`,
live/states/verification.py; its lines are live/present/preflight.py's). Opened from
`/organisation` or the animateur's tablet, signed in with what that browser already holds. One
column of lines, each green ("Prêt") or red ("À régler") with what to do; a word and an icon as
well as the colour."""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import (
    FALSE_BG,
    FALSE_LINE,
    INFO_BG,
    INFO_LINE,
    MUTED,
    SUCCESS,
    WIN_BG,
    WIN_LINE,
)
from loto_app.components.ui import big_button, page_shell, quiet_button, tid
from loto_app.live.states.verification import VerificationState

TITLE = "Loto — vérification avant l'ouverture"
V = VerificationState
SCRIPT = "/verification.js"


def _status_word(status: rx.Var) -> rx.Component:
    return rx.text(
        rx.match(status, ("ok", "✓ Prêt"), ("bad", "✗ À régler"), "… En cours"),
        font_weight="800",
        font_size="1.05rem",
        color=rx.match(status, ("ok", SUCCESS), ("bad", FALSE_LINE), MUTED),
        white_space="nowrap",
    )


def _line(line: rx.Var) -> rx.Component:
    return rx.box(
        rx.hstack(
            rx.heading(line["title"], as_="h2", font_size="1.2rem", flex="1"),
            _status_word(line["status"]),
            align="center",
            width="100%",
            wrap="wrap",
        ),
        rx.text(line["said"], font_size="1.1rem", margin_top="0.25rem"),
        rx.cond(
            line["todo"] != "",
            rx.text(
                rx.el.strong("À faire\u00a0: "),
                line["todo"],
                font_size="1.1rem",
                margin_top="0.35rem",
                custom_attrs=tid("check-todo"),
            ),
        ),
        rx.cond(
            line["key"] == "sound",
            big_button(
                "Essayer le son de l'écran",
                "test-sound",
                on_click=V.test_sound,
                margin_top="0.6rem",
                width="100%",
            ),
        ),
        rx.cond(
            (line["key"] == "pdf") & (line["status"] == "ok"),
            quiet_button(
                "Ouvrir le PDF d'essai",
                "open-pdf",
                on_click=V.open_pdf,
                margin_top="0.6rem",
            ),
        ),
        background=rx.match(line["status"], ("ok", WIN_BG), ("bad", FALSE_BG), INFO_BG),
        border_left=rx.match(
            line["status"],
            ("ok", f"0.5rem solid {WIN_LINE}"),
            ("bad", f"0.5rem solid {FALSE_LINE}"),
            f"0.5rem solid {INFO_LINE}",
        ),
        padding="0.75rem 1rem",
        border_radius="0.5rem",
        width="100%",
        custom_attrs={
            "data-testid": f"check-{line['key']}",
            "data-status": line["status"],
        },
    )


def _checks() -> rx.Component:
    return rx.vstack(
        rx.text(f"Soirée\u00a0: {V.evening_name}", color=MUTED, font_size="1.05rem"),
        rx.box(
            rx.text(V.summary, font_weight="800", font_size="1.3rem"),
            padding="0.75rem 1rem",
            border_radius="0.5rem",
            background=INFO_BG,
            width="100%",
            custom_attrs=tid("check-summary", role="status", **{"aria-live": "polite"}),
        ),
        rx.foreach(V.lines, _line),
        quiet_button("Vérifier à nouveau", "check-again", on_click=V.again, width="100%"),
        rx.link(
            rx.cond(V.as_animateur, "← Retour à la tablette", "← Retour à l'organisation"),
            href=rx.cond(V.as_animateur, "/animateur", "/organisation"),
            font_size="1.1rem",
            custom_attrs=tid("check-back"),
        ),
        # clicked every 2 s by assets/verification.js: who is there now
        rx.el.button("Actualiser", id="check-tick", on_click=V.tick, hidden=True, tab_index=-1),
        rx.form(
            rx.el.input(type="hidden", name="nonce"),
            rx.el.input(type="hidden", name="result"),
            on_submit=V.address_seen,
            reset_on_submit=False,
            display="none",
            custom_attrs={"data-testid": "address-form", "aria-hidden": "true"},
        ),
        spacing="3",
        width="100%",
        align="stretch",
    )


def _signed_out() -> rx.Component:
    return rx.vstack(
        rx.text(V.message, font_size="1.15rem", custom_attrs=tid("check-message", role="status")),
        rx.link("Page de l'organisateur", href="/organisation", font_size="1.15rem"),
        rx.link("Tablette de l'animateur", href="/animateur", font_size="1.15rem"),
        spacing="3",
        align="start",
    )


def index() -> rx.Component:
    """The check's page."""
    return page_shell(
        rx.script(src=SCRIPT),
        rx.heading("Vérification avant l'ouverture", as_="h1", font_size="1.7rem"),
        rx.cond(V.signed_in, _checks(), _signed_out()),
        max_width="48rem",
    )
