"""`/organisation`, the records task: paper cartons, the report, the journal's check, the
association's decisions (`EveningRecords`, live/states/organisation_records.py)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.disputes import withdraw_form
from loto_app.components.form import (
    outcome,
    section,
)
from loto_app.components.palette import (
    ACCENT,
    ON_SOLID,
    SUCCESS,
    step,
)
from loto_app.components.ui import tid
from loto_app.live.input.disputes import DECISIONS
from loto_app.live.states.organisation_records import EveningRecords

R = EveningRecords  # the records


def records() -> rx.Component:
    """Paper cartons, the report, the journal's check and the association's decisions."""
    btn = {"size": "3", "variant": "outline"}
    return section(
        "Cartons papier et rapport",
        rx.flex(
            rx.button(
                "PDF des cartons papier",
                on_click=R.paper_cartons,
                custom_attrs=tid("paper-pdf"),
                **btn,
            ),
            rx.button(
                "Voir le rapport", on_click=R.show_report, custom_attrs=tid("report-show"), **btn
            ),
            rx.button("Rapport CSV", on_click=R.report_csv, custom_attrs=tid("report-csv"), **btn),
            rx.button("Rapport PDF", on_click=R.report_pdf, custom_attrs=tid("report-pdf"), **btn),
            rx.button(
                "Vérifier le journal",
                on_click=R.verify_journal,
                custom_attrs=tid("audit-verify"),
                **btn,
            ),
            gap="0.6rem",
            wrap="wrap",
        ),
        rx.cond(
            R.records_message != "",
            rx.text(R.records_message, font_weight="700", custom_attrs=tid("records-message")),
        ),
        outcome(R.audit_message, R.audit_ok, "audit-message"),
        rx.foreach(R.audit_problems, lambda p: rx.text(p, color=ACCENT)),
        rx.cond(
            R.report_lines.length() > 0,
            rx.box(
                rx.el.dl(
                    rx.foreach(
                        R.report_lines,
                        lambda r: rx.flex(
                            rx.el.dt(r.label, font_weight="700", min_width="11rem"),
                            rx.el.dd(r.value, margin="0"),
                            gap="0.2rem 1rem",
                            wrap="wrap",
                            padding_y="0.2rem",
                        ),
                    ),
                ),
                rx.heading("Gagnants", as_="h3", size="4", margin_top="0.6rem"),
                rx.cond(R.report_winners.length() == 0, rx.text("Aucun lot attribué.")),
                rx.el.ul(rx.foreach(R.report_winners, lambda w: rx.el.li(w))),
                rx.heading("Litiges (art. 8)", as_="h3", size="4", margin_top="0.6rem"),
                rx.cond(R.report_decisions.length() == 0, rx.text("Aucune décision.")),
                rx.el.ul(
                    rx.foreach(R.report_decisions, lambda d: rx.el.li(d)),
                    custom_attrs=tid("report-decisions"),
                ),
                font_size="1.1rem",
                custom_attrs=tid("report-summary"),
            ),
        ),
        _disputes(),
        testid="org-records",
    )


def _disputes() -> rx.Component:
    """The association's decisions (art. 8), as on the animateur's tablet: on a claim (by its
    number, as the report lists it) or voiding a lot ticket; each with a written reason."""
    field = {"size": "3"}
    return rx.box(
        rx.heading("Régler un litige", as_="h3", size="4", margin_top="0.8rem"),
        rx.form(
            rx.flex(
                rx.input(
                    name="claim",
                    type="number",
                    min=1,
                    placeholder="N° de l'annonce",
                    width="10rem",
                    custom_attrs=tid("org-decision-claim", **{"aria-label": "Numéro de l'annonce"}),
                    **field,
                ),
                rx.el.select(
                    rx.el.option("Choisir la décision…", value=""),
                    *[rx.el.option(label, value=v) for v, label in DECISIONS.items()],
                    name="decision",
                    font_size="1.05rem",
                    padding="0.4rem",
                    max_width="100%",  # (a select is as wide as its longest option)
                    flex="1 1 14rem",
                    custom_attrs=tid("org-decision", **{"aria-label": "Décision"}),
                ),
                rx.input(
                    name="reason",
                    placeholder="Motif (obligatoire)",
                    max_length=200,
                    flex="1",
                    min_width="14rem",
                    custom_attrs=tid("org-decision-reason", **{"aria-label": "Motif"}),
                    **field,
                ),
                rx.button(
                    "Confirmer la décision",
                    type="submit",
                    background=SUCCESS,
                    color=ON_SOLID,
                    custom_attrs=tid("org-decision-submit"),
                    **field,
                ),
                gap="0.5rem",
                wrap="wrap",
            ),
            on_submit=R.decide,
            reset_on_submit=True,
        ),
        withdraw_form(R.withdraw_award, "org-"),
        rx.cond(
            R.decision_message != "",
            rx.text(
                R.decision_message,
                font_weight="700",
                color=rx.cond(R.decision_ok, SUCCESS, step("red", 11)),
                custom_attrs=tid("org-decision-message", role="status"),
            ),
        ),
    )
