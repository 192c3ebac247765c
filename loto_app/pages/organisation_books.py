"""`/organisation`, the books: paper cartons printed in advance for the desk, their
reconciliation, the procès-verbal (evening, game) and closing the evening (`EveningBooks`,
live/states/organisation_books.py)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.form import section
from loto_app.components.palette import MUTED, SUCCESS, step
from loto_app.components.ui import tid
from loto_app.domain.engine import MAX_PAPER_SHEETS
from loto_app.live.states.organisation_books import EveningBooks

B = EveningBooks
FIELD = {"size": "3"}
BTN = {"size": "3", "variant": "outline"}
COLUMNS = (
    ("kind", "Type"),
    ("printed", "Imprimés"),
    ("in_advance", "dont à l'avance"),
    ("sold", "Vendus"),
    ("given", "Offerts"),
    ("cancelled", "Annulés"),
    ("unsold", "Invendus"),
)


def _paper() -> rx.Component:
    return rx.box(
        rx.heading("Cartons papier à vendre à la caisse", as_="h3", size="5"),
        rx.text(
            "Imprimez à l'avance des feuilles de 6 cartons de la série : la caisse les vend "
            "en tapant (ou scannant) leur numéro et leur code. Un carton vendu deux fois ou "
            "inconnu est refusé et compté.",
            color=MUTED,
        ),
        rx.form(
            rx.flex(
                rx.el.select(
                    rx.el.option("Classique", value="classique"),
                    rx.el.option("Spécial", value="special"),
                    rx.el.option("Vitrine", value="vitrine"),
                    rx.el.option("Maxiquine", value="maxiquine"),
                    name="kind",
                    font_size="1.1rem",
                    padding="0.5rem",
                    custom_attrs=tid("paper-kind", **{"aria-label": "Type de carton"}),
                ),
                rx.input(
                    name="sheets",
                    type="number",
                    min=1,
                    max=MAX_PAPER_SHEETS,
                    default_value="1",
                    width="7rem",
                    custom_attrs=tid("paper-sheets", **{"aria-label": "Nombre de feuilles"}),
                    **FIELD,
                ),
                rx.button(
                    "Imprimer les feuilles (PDF)",
                    type="submit",
                    disabled=B.closed_text != "",
                    custom_attrs=tid("paper-print"),
                    **FIELD,
                ),
                rx.button(
                    "Rapprochement des cartons papier",
                    type="button",
                    on_click=B.show_paper,
                    custom_attrs=tid("paper-reconcile"),
                    **BTN,
                ),
                gap="0.6rem",
                wrap="wrap",
                align="center",
            ),
            on_submit=B.print_paper,
        ),
        rx.cond(
            B.paper_lines.length() > 0,
            rx.box(
                rx.table.root(
                    rx.table.header(
                        rx.table.row(*[rx.table.column_header_cell(t) for _, t in COLUMNS])
                    ),
                    rx.table.body(
                        rx.foreach(
                            B.paper_lines,
                            lambda x: rx.table.row(*[rx.table.cell(x[k]) for k, _ in COLUMNS]),
                        )
                    ),
                    size="2",
                    custom_attrs=tid("paper-lines"),
                ),
                rx.text(
                    rx.cond(
                        B.paper_balanced,
                        "Chaque carton imprimé est compté : vendu, offert, annulé ou invendu.",
                        "ÉCART : des cartons imprimés ne sont pas comptés.",
                    ),
                    font_weight="700",
                ),
                overflow_x="auto",
            ),
        ),
        rx.cond(
            B.paper_refusals.length() > 0,
            rx.box(
                rx.text("Cartons refusés", font_weight="800"),
                rx.el.ul(
                    rx.foreach(B.paper_refusals, lambda r: rx.el.li(r)),
                    custom_attrs=tid("paper-refusals"),
                ),
            ),
        ),
    )


def _verbal() -> rx.Component:
    return rx.box(
        rx.heading("Procès-verbal", as_="h3", size="5"),
        rx.flex(
            rx.button(
                "Procès-verbal de la soirée (PDF)",
                on_click=B.evening_pv,
                custom_attrs=tid("pv-evening"),
                **BTN,
            ),
            rx.form(
                rx.flex(
                    rx.input(
                        name="game",
                        type="number",
                        min=1,
                        placeholder="Partie n°",
                        width="8rem",
                        custom_attrs=tid("pv-game-no", **{"aria-label": "Numéro de la partie"}),
                        **FIELD,
                    ),
                    rx.button(
                        "Procès-verbal de la partie",
                        type="submit",
                        custom_attrs=tid("pv-game"),
                        **BTN,
                    ),
                    gap="0.5rem",
                ),
                on_submit=B.game_pv,
            ),
            gap="0.6rem",
            wrap="wrap",
        ),
    )


def _closing() -> rx.Component:
    return rx.box(
        rx.heading("Clore la soirée", as_="h3", size="5"),
        rx.cond(
            B.closed_text != "",
            rx.callout(
                B.closed_text,
                color_scheme="green",
                size="3",
                high_contrast=True,
                custom_attrs=tid("closed-text", role="status"),
            ),
            rx.cond(
                B.close_asked,
                rx.box(
                    rx.text(
                        "Clore la soirée ? Après, plus rien ne change : ni vente, ni partie, "
                        "ni décision. Le rapport et le procès-verbal restent disponibles.",
                        font_weight="800",
                        font_size="1.15rem",
                    ),
                    rx.el.ul(rx.foreach(B.close_open, lambda x: rx.el.li(x))),
                    rx.cond(B.close_reason != "", rx.text(f"Motif : {B.close_reason}")),
                    rx.flex(
                        rx.button(
                            "Oui, clore définitivement",
                            on_click=B.close_evening,
                            color_scheme="red",
                            size="3",
                            custom_attrs=tid("close-confirm"),
                        ),
                        rx.button(
                            "Non, pas encore",
                            on_click=B.cancel_close,
                            size="3",
                            variant="outline",
                            custom_attrs=tid("close-drop"),
                        ),
                        gap="0.6rem",
                        wrap="wrap",
                        margin_top="0.5rem",
                    ),
                    border=f"2px solid {step('red', 9)}",
                    padding="0.8rem",
                    border_radius="0.5rem",
                    custom_attrs=tid("close-ask"),
                ),
                rx.form(
                    rx.text(
                        "À la fin de la soirée, l'organisateur la clôt : elle devient "
                        "consultable seulement. Conservez ensuite son export (voir la "
                        "documentation) avec le procès-verbal signé.",
                        color=MUTED,
                    ),
                    rx.flex(
                        rx.input(
                            name="reason",
                            placeholder="Motif (obligatoire si une partie est en cours)",
                            max_length=200,
                            flex="1",
                            min_width="14rem",
                            custom_attrs=tid("close-reason", **{"aria-label": "Motif"}),
                            **FIELD,
                        ),
                        rx.button(
                            "Clore la soirée…",
                            type="submit",
                            color_scheme="red",
                            variant="outline",
                            custom_attrs=tid("close-ask-button"),
                            **FIELD,
                        ),
                        gap="0.5rem",
                        wrap="wrap",
                        margin_top="0.4rem",
                    ),
                    on_submit=B.ask_close,
                ),
            ),
        ),
    )


def books() -> rx.Component:
    """Paper cartons, the procès-verbal and the closing."""
    return section(
        "Registre de la soirée",
        _paper(),
        _verbal(),
        _closing(),
        rx.cond(
            B.books_message != "",
            rx.text(
                B.books_message,
                font_weight="700",
                color=rx.cond(B.books_ok, SUCCESS, step("red", 11)),
                custom_attrs=tid("books-message", role="status"),
            ),
        ),
        testid="org-books",
    )
