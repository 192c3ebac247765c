"""`/animateur`: the tablet that drives the evening."""

from __future__ import annotations

import reflex as rx

from loto_app.components.board import board
from loto_app.components.palette import ACCENT, LINE, MUTED, TIE_LINE
from loto_app.components.ui import announcement_box, big_button, page_shell, sign_in_form, tid
from loto_app.live.animateur import AnimateurState
from loto_app.live.hall import HallView

TITLE = "Loto — animateur"


def _login() -> rx.Component:
    return sign_in_form(
        "Connexion de l'animateur", "animateur", "Secret de l'animateur", AnimateurState.login
    )


def _claims() -> rx.Component:
    return rx.box(
        rx.heading("Annonces", size="5"),
        rx.cond(HallView.claims.length() == 0, rx.text("Aucune annonce pour l'instant.")),
        rx.foreach(
            HallView.claims,
            lambda c: rx.hstack(
                rx.badge(
                    rx.match(
                        c["verdict"].to(str),
                        ("valid", "VALIDE"),
                        ("false", "FAUSSE"),
                        ("late", "TOUR PASSÉ"),
                        ("wrong_series", "AUTRE SÉRIE"),
                        ("not_in_game", "HORS PARTIE"),
                        ("annulled", "ANNULÉ"),
                        "?",
                    ),
                    size="2",
                    color_scheme=rx.match(
                        c["verdict"].to(str), ("valid", "green"), ("false", "red"), "gray"
                    ),
                ),
                rx.text(f"{c['name']} — carton {c['carton']} — {c['stage']} sur le {c['number']}"),
                rx.text(c["label"], color=MUTED),
                wrap="wrap",
                padding_y="0.25rem",
                border_bottom=f"1px solid {LINE}",
            ),
        ),
        custom_attrs=tid("claims"),
    )


def _draw_controls() -> rx.Component:
    return rx.cond(
        HallView.physical,
        rx.form(
            rx.hstack(
                rx.input(
                    name="ball",
                    type="number",
                    min=1,
                    max=90,
                    size="3",
                    font_size="1.6rem",
                    width="7rem",
                    placeholder="n°",
                    custom_attrs=tid(
                        "ball-input", inputmode="numeric", **{"aria-label": "Numéro de la boule"}
                    ),
                ),
                big_button(
                    "Annoncer la boule", "ball-submit", type="submit", disabled=~HallView.can_draw
                ),
            ),
            on_submit=AnimateurState.enter_ball,
            reset_on_submit=True,
        ),
        big_button(
            "Tirer un numéro",
            "draw",
            on_click=AnimateurState.draw,
            disabled=~HallView.can_draw,
            width="100%",
            min_height="5rem",
            font_size="2rem",
        ),
    )


def _tie_controls() -> rx.Component:
    return rx.cond(
        HallView.tie,
        rx.box(
            rx.text("Ex aequo : ", rx.text.span(HallView.entries.join(", ")), font_weight="800"),
            rx.hstack(
                big_button(
                    "Tirage au sort des jetons",
                    "tie-draw",
                    on_click=AnimateurState.tie_draw,
                    color_scheme="indigo",
                ),
                big_button(
                    "Proposer le partage",
                    "tie-share",
                    on_click=AnimateurState.tie_share,
                    disabled=~HallView.share_possible,
                    variant="outline",
                ),
                wrap="wrap",
            ),
            rx.cond(HallView.share_pending, rx.text("Partage proposé : en attente des joueurs.")),
            padding="0.6rem",
            border=f"3px solid {TIE_LINE}",
            border_radius="0.5rem",
        ),
    )


def _game_controls() -> rx.Component:
    return rx.vstack(
        rx.cond(
            HallView.can_start,
            rx.cond(
                HallView.game_no == 0,
                big_button(
                    "Commencer la première partie",
                    "start-game",
                    on_click=AnimateurState.start_game,
                    width="100%",
                ),
                big_button(
                    "Partie suivante", "next-game", on_click=AnimateurState.start_game, width="100%"
                ),
            ),
        ),
        rx.cond(HallView.status == "running", _draw_controls()),
        rx.cond(
            (HallView.entries.length() > 0) & ~HallView.tie,
            big_button(
                f"Attribuer le lot : {HallView.lot_label}",
                "award",
                on_click=AnimateurState.award,
                color_scheme="green",
                width="100%",
            ),
        ),
        _tie_controls(),
        rx.cond(
            HallView.status != "over",
            big_button(
                "Vous pouvez démarquer",
                "allow-unmark",
                on_click=AnimateurState.allow_unmark,
                disabled=~HallView.awaiting_unmark,
                color_scheme="green",
                variant=rx.cond(HallView.awaiting_unmark, "solid", "outline"),
                width="100%",
            ),
            rx.text("Toutes les parties ont été jouées. Merci !", font_weight="800"),
        ),
        rx.cond(
            HallView.physical & (HallView.status == "running"),
            rx.form(
                rx.hstack(
                    rx.input(
                        name="ball",
                        type="number",
                        min=1,
                        max=90,
                        width="6rem",
                        placeholder="n°",
                        custom_attrs=tid("correct-input"),
                    ),
                    rx.button(
                        "Corriger le dernier numéro",
                        type="submit",
                        variant="outline",
                        custom_attrs=tid("correct-submit"),
                    ),
                ),
                on_submit=AnimateurState.correct_last,
                reset_on_submit=True,
            ),
        ),
        width="100%",
        align="stretch",
        spacing="3",
    )


def _paper_claim() -> rx.Component:
    """The control desk: a paper player's claim, by carton number and check code."""
    return rx.box(
        rx.heading("Contrôle d'un carton papier", size="5"),
        rx.form(
            rx.flex(
                rx.input(
                    name="carton",
                    type="number",
                    min=1,
                    placeholder="N° du carton",
                    size="3",
                    width="9rem",
                    custom_attrs=tid("paper-carton", **{"aria-label": "Numéro du carton"}),
                ),
                rx.input(
                    name="check",
                    placeholder="Code de contrôle",
                    size="3",
                    width="11rem",
                    auto_complete="off",
                    custom_attrs=tid("paper-check", **{"aria-label": "Code de contrôle"}),
                ),
                rx.button(
                    "Vérifier l'annonce",
                    type="submit",
                    size="3",
                    font_weight="700",
                    font_size="1.2rem",
                    custom_attrs=tid("paper-submit"),
                ),
                wrap="wrap",
                gap="0.5rem",
            ),
            on_submit=AnimateurState.paper_claim,
            reset_on_submit=True,
        ),
        rx.cond(
            AnimateurState.paper_verdict != "",
            announcement_box(
                AnimateurState.paper_verdict,
                rx.match(
                    AnimateurState.paper_verdict_kind,
                    ("valid", "winner"),
                    ("false", "false"),
                    "check",
                ),
                testid="paper-verdict",
                margin_top="0.5rem",
            ),
        ),
        padding_top="0.5rem",
        custom_attrs=tid("paper-desk"),
    )


def _dashboard() -> rx.Component:
    return rx.fragment(
        rx.hstack(
            rx.box(
                rx.text("Dernier", color=MUTED),
                rx.text(
                    rx.cond(HallView.last > 0, HallView.last.to_string(), "–"),
                    font_size="4rem",
                    font_weight="900",
                    color=ACCENT,
                    line_height="1",
                    custom_attrs=tid("last-number"),
                ),
                text_align="center",
                min_width="7rem",
            ),
            rx.vstack(
                rx.text(HallView.evening_name, font_weight="800"),
                rx.text(
                    f"Code : {HallView.join_code} — série {HallView.series} — {HallView.players} ",
                    rx.cond(HallView.players > 1, "joueurs", "joueur"),
                ),
                rx.text(
                    rx.cond(
                        HallView.game_no > 0,
                        f"Partie {HallView.game_no}/{HallView.games_total} : {HallView.game_label}",
                        "Aucune partie commencée",
                    )
                ),
                rx.cond(
                    HallView.stage_label != "",
                    rx.text(
                        f"En jeu : {HallView.stage_label} — {HallView.lot_label}", font_weight="700"
                    ),
                ),
                rx.text(
                    f"{HallView.count} ",
                    rx.cond(HallView.count > 1, "numéros tirés", "numéro tiré"),
                ),
                spacing="1",
                align="start",
            ),
            width="100%",
        ),
        announcement_box(HallView.announcement, HallView.announcement_kind),
        rx.cond(
            AnimateurState.message != "",
            rx.callout(
                AnimateurState.message,
                color_scheme="orange",
                custom_attrs=tid("animateur-message", role="alert"),
            ),
        ),
        _game_controls(),
        _claims(),
        rx.cond(HallView.status == "running", _paper_claim()),
        board("1rem"),
        rx.button(
            "Se déconnecter",
            on_click=AnimateurState.logout,
            variant="ghost",
            size="3",
            align_self="center",  # a ghost button's negative margins widen the page otherwise
        ),
    )


def index() -> rx.Component:
    """The animateur page."""
    return page_shell(
        rx.cond(
            AnimateurState.signed_in,
            _dashboard(),
            rx.fragment(
                _login(),
                rx.cond(
                    AnimateurState.message != "",
                    rx.callout(
                        AnimateurState.message,
                        color_scheme="red",
                        custom_attrs=tid("animateur-message", role="alert"),
                    ),
                ),
            ),
        ),
        max_width="60rem",
    )
