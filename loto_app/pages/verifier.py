"""`/verifier?code=…`: anyone checks an evening's electronic draws on a phone (VerifierState).

Phone first, large: the evening's code, its games, then for the game chosen its commitment (the
digits the hall screen showed before the first number in bold), its seed once revealed and the
numbers drawn, all three editable (a player may type their own notes), and one big button.
The answer is a large green or red box in words, never colour alone.
"""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import (
    FALSE_BG,
    FALSE_LINE,
    FIELD_LINE,
    INFO_BG,
    MUTED,
    WIN_BG,
    WIN_LINE,
)
from loto_app.components.ui import big_button, page_shell, tid
from loto_app.live.states.verifier import SECRET, VerifierState

TITLE = "Loto — vérifier un tirage"
V = VerifierState
TEXT = "1.2rem"
MONO = {
    "font_family": "ui-monospace, Menlo, Consolas, monospace",
    "font_size": "1.15rem",
    "line_height": "1.6",
    "word_spacing": "0.2em",
}


def _label(text: str, for_: str) -> rx.Component:
    return rx.el.label(text, html_for=for_, font_size=TEXT, font_weight="800", display="block")


def _code_form() -> rx.Component:
    return rx.form(
        _label("Code de la soirée", "verifier-code"),
        rx.flex(
            rx.input(
                name="code",
                id="verifier-code",
                default_value=V.code,
                key=V.code,
                placeholder="ex. DEMO42",
                size="3",
                max_length=16,
                auto_capitalize="characters",
                flex="1",
                min_width="8rem",
                font_size="1.4rem",
                custom_attrs=tid("verifier-code"),
            ),
            rx.button(
                "Afficher",
                type="submit",
                size="3",
                min_height="3rem",
                font_size="1.2rem",
                custom_attrs=tid("verifier-open"),
            ),
            gap="0.5rem",
            margin_top="0.3rem",
        ),
        on_submit=V.open_evening,
    )


def _game_button(g) -> rx.Component:
    return rx.button(
        rx.vstack(
            rx.text(f"Partie {g['no']}", font_size="1.3rem", font_weight="900"),
            rx.text(g["state"], font_size="1.05rem", font_weight="600"),
            spacing="0",
            align="start",
        ),
        on_click=V.pick(g["no"]),
        variant=rx.cond(V.game_no == g["no"], "solid", "outline"),
        size="4",
        height="auto",
        min_height="4rem",
        padding="0.6rem 1rem",
        width="100%",
        justify_content="flex-start",
        custom_attrs=tid(f"verifier-game-{g['no']}"),
    )


def _field(label: str, name: str, value, testid: str, rows: str = "3") -> rx.Component:
    return rx.box(
        _label(label, testid),
        rx.text_area(
            name=name,
            id=testid,
            default_value=value,
            key=value,
            rows=rows,
            width="100%",
            spell_check=False,
            auto_capitalize="none",
            border=f"2px solid {FIELD_LINE}",
            custom_attrs=tid(testid),
            **MONO,
        ),
        width="100%",
    )


def _result() -> rx.Component:
    return rx.cond(
        V.result != "",
        rx.box(
            rx.text(
                rx.cond(V.result_ok, "✓ ", "✗ "),
                V.result,
                font_size="1.35rem",
                font_weight="800",
                line_height="1.35",
            ),
            background=rx.cond(V.result_ok, WIN_BG, FALSE_BG),
            border_left=rx.cond(
                V.result_ok, f"0.6rem solid {WIN_LINE}", f"0.6rem solid {FALSE_LINE}"
            ),
            padding="0.9rem 1rem",
            border_radius="0.5rem",
            custom_attrs=tid(
                "verifier-result", role="status", **{"aria-live": "polite", "data-ok": V.result_ok}
            ),
        ),
    )


def _game() -> rx.Component:
    return rx.cond(
        V.commitment != "",
        rx.vstack(
            rx.heading(f"Partie {V.game_no}", as_="h2", size="6"),
            rx.text(V.game_label, font_size=TEXT, color=MUTED),
            rx.box(
                rx.text(
                    "Empreinte montrée avant le premier numéro :",
                    font_size=TEXT,
                    font_weight="700",
                ),
                rx.text(
                    V.commitment_short,
                    font_size="1.5rem",
                    white_space="nowrap",
                    font_weight="900",
                    letter_spacing="0.06em",
                    custom_attrs=tid("verifier-short"),
                    **{k: v for k, v in MONO.items() if k != "font_size"},
                ),
                background=INFO_BG,
                padding="0.6rem 0.9rem",
                border_radius="0.5rem",
                width="100%",
            ),
            rx.cond(
                V.revealed,
                rx.form(
                    rx.vstack(
                        _field(
                            "Empreinte (SHA-256)", "commitment", V.commitment, "verifier-commitment"
                        ),
                        _field(
                            "Graine révélée à la fin de la partie", "seed", V.seed, "verifier-seed"
                        ),
                        _field(
                            "Numéros tirés, dans l'ordre (corrigez-les d'après vos notes)",
                            "numbers",
                            V.numbers,
                            "verifier-numbers",
                            "9",
                        ),
                        big_button(
                            "Vérifier le tirage", "verifier-check", type="submit", width="100%"
                        ),
                        spacing="3",
                        width="100%",
                    ),
                    on_submit=V.verify,
                    width="100%",
                ),
                rx.vstack(
                    rx.text(
                        "Graine : ",
                        rx.el.strong(SECRET),
                        " Elle est publiée quand l'animateur annonce « vous pouvez démarquer ».",
                        font_size=TEXT,
                        custom_attrs=tid("verifier-secret"),
                    ),
                    rx.text("Numéros tirés jusqu'ici :", font_size=TEXT, font_weight="700"),
                    rx.text(V.numbers, custom_attrs=tid("verifier-drawn"), **MONO),
                    spacing="2",
                    width="100%",
                ),
            ),
            _result(),
            rx.cond(
                V.order != "",
                rx.box(
                    rx.text(
                        "L'ordre complet que donne la graine :", font_size=TEXT, font_weight="700"
                    ),
                    rx.text(V.order, custom_attrs=tid("verifier-order"), **MONO),
                ),
            ),
            spacing="3",
            width="100%",
            align="stretch",
        ),
    )


def index() -> rx.Component:
    """The verification page."""
    return page_shell(
        rx.heading("Vérifier un tirage", as_="h1", size="8"),
        rx.text(
            "Avant chaque partie au boulier électronique, l'appli fixe tout l'ordre des numéros "
            "et en montre l'empreinte. À la fin de la partie, elle publie la graine : ici, "
            "n'importe qui recalcule l'empreinte et l'ordre, et les compare aux numéros tirés.",
            font_size=TEXT,
            line_height="1.5",
        ),
        _code_form(),
        rx.cond(
            V.message != "",
            rx.callout(
                V.message,
                size="3",
                color_scheme="orange",
                high_contrast=True,
                custom_attrs=tid("verifier-message", role="status"),
            ),
        ),
        rx.cond(
            V.evening_name != "",
            rx.text(
                rx.el.strong(V.evening_name),
                f" · série {V.series}",
                font_size=TEXT,
                custom_attrs=tid("verifier-evening"),
            ),
        ),
        rx.vstack(rx.foreach(V.games, _game_button), spacing="2", width="100%"),
        _game(),
        rx.text(
            "La méthode (SHA-256, mélange de Fisher-Yates) est décrite en quelques lignes dans "
            "la documentation de l'appli : un informaticien peut refaire le calcul chez lui.",
            font_size="1.05rem",
            color=MUTED,
        ),
        max_width="40rem",
    )
