"""`/organisation`, the association's own cartons (`OwnCartons`,
live/states/organisation_own.py): a CSV file imported (read by assets/own_csv.js) or one carton
typed, in an own série named by the organiser; what is registered; every problem of a file
refused, by its line."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import labelled, section
from loto_app.components.palette import FIELD_LINE, MUTED, SUCCESS, step
from loto_app.components.ui import tid
from loto_app.domain.own_cartons import MAX_SERIES_NAME
from loto_app.live.states.organisation_own import OwnCartons

OWN = OwnCartons
FIELD = {"size": "3", "font_size": "1.1rem"}
SELECT = {
    "font_size": "1.1rem",
    "padding": "0.5rem",
    "min_height": "2.75rem",
    "border": f"1px solid {FIELD_LINE}",
    "border_radius": "0.4rem",
    "background": "white",
}
STACK = {"spacing": "2", "width": "100%", "align": "stretch"}


def _input(fid: str, name: str, **props: Any) -> rx.Component:
    """A text field of the forms: its id is its test id."""
    return rx.input(id=fid, name=name, **{"custom_attrs": tid(fid), **FIELD, **props})


def _submit(label: str, testid: str, **props: Any) -> rx.Component:
    return rx.button(label, type="submit", custom_attrs=tid(testid), **FIELD, **props)


def _part(title: str, *children: rx.Component) -> rx.Component:
    """One way in (the file, the typed carton), under its heading."""
    return rx.vstack(rx.heading(title, as_="h3", size="5"), *children, **STACK)


def _series_fields(prefix: str) -> rx.Component:
    return rx.flex(
        labelled(
            "Nom de la série",
            _input(
                f"{prefix}-series",
                "series",
                placeholder="ex. ROUGE",
                max_length=MAX_SERIES_NAME,
                width="12rem",
                custom_attrs=tid(f"{prefix}-series", autocapitalize="characters"),
            ),
            f"{prefix}-series",
        ),
        labelled(
            "Type de carton",
            rx.el.select(
                rx.foreach(OWN.own_kinds, lambda k: rx.el.option(k["label"], value=k["value"])),
                id=f"{prefix}-kind",
                name="kind",
                custom_attrs=tid(f"{prefix}-kind"),
                **SELECT,
            ),
            f"{prefix}-kind",
        ),
        gap="0.8rem",
        wrap="wrap",
    )


def _file() -> rx.Component:
    """The file chosen, read into the form's text area by assets/own_csv.js (outside the form:
    the file itself is never sent)."""
    return rx.vstack(
        rx.el.input(
            id="own-file",
            type="file",
            accept=".csv,.txt,text/csv,text/plain",
            custom_attrs={"data-own-csv": "", "data-testid": "own-file", "aria-hidden": "true"},
            tab_index=-1,
            display="none",
        ),
        rx.button(
            rx.icon("file-up", size=20),
            "Choisir le fichier CSV…",
            type="button",
            variant="soft",
            size="3",
            align_self="start",
            on_click=rx.call_script("document.getElementById('own-file').click()"),
            custom_attrs=tid("own-file-choose"),
        ),
        rx.text(
            "",
            custom_attrs={"data-own-csv-status": "", "data-testid": "own-file-status"},
            aria_live="polite",
            font_weight="600",
        ),
        **STACK,
    )


def _import() -> rx.Component:
    return _part(
        "Importer un fichier",
        rx.text(
            "Un fichier CSV (enregistré depuis un tableur), une ligne par carton : son "
            "numéro, puis ses 15 numéros dans l'ordre de lecture (les 5 de la 1re ligne, "
            "de la 2e, de la 3e), séparés par « ; » ou « , ». Une ligne d'en-tête est "
            "permise. Au plus 600 cartons par fichier.",
            color=MUTED,
        ),
        _file(),
        rx.form(
            rx.vstack(
                _series_fields("own"),
                rx.el.label(
                    "Lignes du fichier (ou collez-les ici)", html_for="own-csv", font_weight="700"
                ),
                rx.text_area(
                    id="own-csv",
                    name="csv",
                    rows="5",
                    width="100%",
                    font_family="monospace",
                    spell_check=False,
                    border=f"2px solid {FIELD_LINE}",
                    placeholder="numero;n1;n2;…\n347;4;12;25;31;60;…",
                    custom_attrs={"data-own-csv-text": "", "data-testid": "own-csv"},
                ),
                _submit("Importer ces cartons", "own-import"),
                **STACK,
            ),
            on_submit=OWN.import_own,
        ),
    )


def _typed() -> rx.Component:
    return rx.form(
        _part(
            "Ou tapez un carton",
            _series_fields("own-one"),
            rx.flex(
                labelled(
                    "N° du carton",
                    _input("own-one-no", "no", input_mode="numeric", width="8rem"),
                    "own-one-no",
                ),
                labelled(
                    "Ses 15 numéros, ligne par ligne",
                    _input(
                        "own-one-numbers", "numbers", placeholder="4 12 25 31 60 …", width="100%"
                    ),
                    "own-one-numbers",
                    flex="1",
                    min_width="14rem",
                ),
                gap="0.8rem",
                wrap="wrap",
                width="100%",
            ),
            _submit("Enregistrer ce carton", "own-add", variant="outline"),
        ),
        on_submit=OWN.add_own,
        reset_on_submit=False,
    )


def own_cartons() -> rx.Component:
    """The section: the import, the typed carton, the séries registered, the outcome."""
    return section(
        "Cartons de l'association",
        rx.text(
            "Les cartons que l'application n'a pas imprimés (achetés à un fournisseur, ou "
            "réutilisés chaque année) : enregistrez-les dans une série à leur nom (ex. ROUGE), "
            "distincte de la série de l'application. La caisse les vend par leur numéro, le "
            "contrôle vérifie une annonce par « ROUGE » et le numéro.",
            color=MUTED,
        ),
        rx.cond(
            OWN.own_message != "",
            rx.box(
                rx.text(
                    OWN.own_message,
                    font_weight="800",
                    font_size="1.1rem",
                    color=rx.cond(OWN.own_ok, SUCCESS, step("red", 11)),
                ),
                rx.cond(
                    OWN.own_problems.length() > 0,
                    rx.el.ul(
                        rx.foreach(OWN.own_problems, lambda p: rx.el.li(p)),
                        custom_attrs=tid("own-problems"),
                        padding_left="1.2rem",
                    ),
                ),
                border=rx.cond(OWN.own_ok, f"2px solid {SUCCESS}", f"2px solid {step('red', 9)}"),
                border_radius="0.5rem",
                padding="0.7rem",
                custom_attrs=tid("own-message", role="status"),
            ),
        ),
        rx.cond(
            OWN.own_series.length() > 0,
            rx.el.ul(
                rx.foreach(OWN.own_series, lambda s: rx.el.li(s, font_weight="700")),
                custom_attrs=tid("own-registered"),
                padding_left="1.2rem",
            ),
        ),
        _import(),
        _typed(),
        rx.script(src="/own_csv.js"),
        testid="org-own",
    )
