"""`/controle`: a vendeur's, caissier's or contrôleur's phone at the tables checks a paper
player's claim (`ControleState`, live/states/controle.py): the camera reads the carton's QR code
(or its number and check code are typed), and the verdict and the carton read back show at
once, as the control desk would give them. Phone first, one thumb, large."""

from __future__ import annotations

import reflex as rx

from loto_app.components.board import last_number
from loto_app.components.control import readback
from loto_app.components.form import (
    label_around,
    line_input,
    player_name_input,
    section,
    series_select,
)
from loto_app.components.palette import LINE, MUTED
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.scanner import scanner
from loto_app.components.signin import sign_in_form
from loto_app.components.ui import big_button, page_shell, tid, verdict_box
from loto_app.limits import MAX_CODE
from loto_app.live.input.typed_lines import MAX_FIELDS
from loto_app.live.states.controle import CARTON_PREFIX, ControleState
from loto_app.live.states.hall import HallView

TITLE = "Loto — contrôle des cartons"
C = ControleState
SCAN_FORM = "controle-scan-form"
FIELD = {"size": "3", "font_size": "1.3rem", "width": "100%"}
#: A carton's number as printed, on the number keypad.
CARTON_FIELD = {"name": "carton", "type": "number", "min": 1, "input_mode": "numeric", **FIELD}


def _carton_number(html_id: str) -> rx.Component:
    """The number of the carton checked (its id is its test id)."""
    return rx.input(id=html_id, custom_attrs=tid(html_id), **CARTON_FIELD)


def _outline_button(label: str, testid: str, on_click: rx.EventHandler) -> rx.Component:
    """What comes next (another carton, the typed lines' form): a full-width outlined button."""
    return big_button(label, testid, on_click=on_click, variant="outline", width="100%")


def _login() -> rx.Component:
    return sign_in_form(
        "Contrôle des cartons papier",
        "controle",
        "Votre secret",
        C.login,
        intro="Contrôleurs, vendeurs et caissiers : le secret vous est donné par l'organisateur.",
        message=C.message,
    )


def _where() -> rx.Component:
    """Where the game stands: the last number, the stage in play (what a claim is judged on)."""
    return rx.hstack(
        last_number("3rem", "5rem"),
        rx.vstack(
            rx.text(HallView.evening_name, font_weight="800"),
            rx.cond(
                HallView.stage_label != "",
                rx.text(f"En jeu : {HallView.stage_label} — {HallView.lot_label}"),
                rx.text("Pas de partie en cours", color=MUTED),
            ),
            rx.text(f"{C.staff_name} ({C.role_label})", color=MUTED, font_size="0.95rem"),
            spacing="0",
            align="start",
        ),
        width="100%",
        padding_bottom="0.5rem",
        border_bottom=f"2px solid {LINE}",
    )


def _result() -> rx.Component:
    """The verdict of the carton just checked, its read-back, and the way to the next one."""
    return rx.cond(
        C.verdict != "",
        rx.vstack(
            verdict_box(C.verdict, C.verdict_kind, "controle-verdict", font_size="1.2rem"),
            readback(["1.1rem", "1.3rem", "1.5rem"], source=C),
            _outline_button("Carton suivant", "controle-next", C.clear),
            spacing="3",
            width="100%",
        ),
    )


def _scan() -> rx.Component:
    """The camera: the carton's QR code, read and sent with a hidden form."""
    return rx.box(
        scanner(
            "carton-scanner",
            form_id=SCAN_FORM,
            field="qr",
            prefix=CARTON_PREFIX,
            what="celui d'un carton de loto",
            label="Scanner le carton",
        ),
        rx.form(
            rx.el.input(type="hidden", name="qr", custom_attrs=tid("controle-qr")),
            id=SCAN_FORM,
            on_submit=C.check_carton,
            reset_on_submit=True,
        ),
        width="100%",
    )


def _typed() -> rx.Component:
    """The way in without a camera: the carton's number and check code, as printed."""
    return rx.form(
        rx.vstack(
            rx.el.label("N° du carton", html_for="controle-carton", font_weight="700"),
            _carton_number("controle-carton"),
            rx.el.label("Code de contrôle", html_for="controle-check", font_weight="700"),
            rx.input(
                id="controle-check",
                name="check",
                max_length=MAX_CODE,
                auto_complete="off",
                custom_attrs=tid("controle-check", autocapitalize="characters"),
                **FIELD,
            ),
            big_button("Vérifier l'annonce", "controle-submit", type="submit", width="100%"),
            spacing="2",
            width="100%",
        ),
        on_submit=C.check_carton,
        reset_on_submit=True,
        width="100%",
    )


def _line_field(i: int) -> rx.Component:
    """One typed line: its 5 numbers, large, on a keypad with a separator (the label wraps
    the field: an id would send it twice with the form)."""
    return rx.cond(
        C.typed_needed >= i,
        label_around(
            f"Ligne {i}",
            line_input(i, f"controle-line{i}", "ex. 5 12 23 47 81"),
            width="100%",
        ),
    )


def _hors_liste() -> rx.Component:
    """A carton in no list (a player's own): the numbers of the claimed line(s) typed."""
    return section(
        "Carton hors liste",
        rx.text(
            "Le joueur a son propre carton (ni imprimé ni vendu ce soir) : tapez les "
            "numéros de la ligne annoncée, séparés par des espaces ou des virgules."
        ),
        rx.cond(
            C.typed_needed > 0,
            rx.form(
                rx.vstack(
                    rx.text(
                        C.typed_hint, font_weight="700", custom_attrs=tid("controle-typed-hint")
                    ),
                    *[_line_field(i) for i in range(1, MAX_FIELDS + 1)],
                    label_around(
                        "Nom du joueur (facultatif)",
                        player_name_input("controle-typed-name", font_size="1.2rem"),
                        width="100%",
                    ),
                    big_button(
                        "Vérifier les lignes", "controle-typed-submit", type="submit", width="100%"
                    ),
                    spacing="2",
                    width="100%",
                ),
                on_submit=C.check_typed_lines,
                reset_on_submit=False,  # (a slip is corrected, not retyped)
                width="100%",
            ),
            rx.vstack(
                rx.cond(C.typed_hint != "", rx.text(C.typed_hint, color=MUTED)),
                _outline_button(
                    "Taper les numéros de la ligne", "controle-typed-open", C.open_typed
                ),
                width="100%",
            ),
        ),
        testid="controle-typed-section",
    )


def _own() -> rx.Component:
    """The association's own cartons (no code printed by the app): the série and the number."""
    return rx.cond(
        C.own_series.length() > 0,
        section(
            "Carton de l'association (sans code)",
            rx.text(
                "Un carton qui n'a pas été imprimé par l'application : sa série et son numéro."
            ),
            rx.form(
                rx.vstack(
                    rx.el.label("Série", html_for="controle-own-series", font_weight="700"),
                    series_select(
                        C.own_series,
                        "controle-own-series",
                        id="controle-own-series",
                        font_size="1.3rem",
                        padding="0.5rem",
                        width="100%",
                        min_height="3rem",
                    ),
                    rx.el.label("N° du carton", html_for="controle-own-carton", font_weight="700"),
                    _carton_number("controle-own-carton"),
                    big_button(
                        "Vérifier l'annonce", "controle-own-submit", type="submit", width="100%"
                    ),
                    spacing="2",
                    width="100%",
                ),
                on_submit=C.check_own,
                reset_on_submit=True,
                width="100%",
            ),
            testid="controle-own-section",
        ),
    )


def _checking() -> rx.Component:
    return rx.vstack(
        _where(),
        rx.cond(
            C.message != "",
            rx.callout(
                C.message, color_scheme="orange", custom_attrs=tid("controle-message", role="alert")
            ),
        ),
        _result(),
        section(
            "Un joueur annonce avec un carton papier",
            rx.text(
                "Scannez le QR code imprimé sur le carton : l'annonce est vérifiée sur le "
                "dernier numéro et enregistrée, comme au contrôle.",
            ),
            _scan(),
            rx.el.details(
                rx.el.summary(
                    "Pas de caméra ? Tapez le numéro et le code",
                    font_weight="700",
                    cursor="pointer",
                    padding="0.4rem 0",
                    custom_attrs=tid("controle-type-open"),
                ),
                _typed(),
            ),
            testid="controle-check-section",
        ),
        _hors_liste(),
        _own(),
        rx.button(
            "Se déconnecter",
            on_click=C.logout,
            variant="ghost",
            size="3",
            align_self="center",
        ),
        spacing="4",
        width="100%",
    )


def index() -> rx.Component:
    """The control page."""
    return page_shell(
        rehearsal_banner(HallView.rehearsal & C.signed_in),
        rx.heading("Contrôle des cartons", as_="h1", size="7"),
        rx.cond(C.signed_in, _checking(), _login()),
    )
