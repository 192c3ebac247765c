"""The report's summary as the organiser's page shows it: a few labelled figures, the winners,
the association's decisions and the claims still to settle (from
`loto_app.records.report.EveningReport`). Pure: no Reflex, no database.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from loto_app.records import numbers
from loto_app.records.report import local_time
from loto_app.wording import euros, plural


@dataclasses.dataclass
class ReportLine:
    """One line of the report's summary: a label and its value."""

    label: str = ""
    value: str = ""


def summarize(report: Any) -> tuple[list[ReportLine], list[str]]:
    """The report's summary lines and its winners (`loto_app.records.report.EveningReport`)."""
    games = report.games
    played = [g for g in games if g.status != "not_played"]
    till = report.till
    awards = [a for g in games for a in g.awards]
    lines = [
        ReportLine("Parties jouées", f"{len(played)} sur {len(games)}"),
        ReportLine("Numéros tirés", str(sum(len(g.draws) for g in games))),
        # each number's frequency over the evening ("toujours les mêmes numéros ?")
        ReportLine("Les numéros de la soirée", numbers.of_report(report).summary()),
        ReportLine(
            "Joueurs", ", ".join(f"{label} : {n}" for _, label, n in report.origins if n) or "0"
        ),
        ReportLine("Ventes réglées", f"{till.sales} ({plural(till.cartons, 'carton')})"),
        ReportLine("En caisse", euros(till.received_cents)),
        ReportLine("À régler", euros(till.pending_cents)),
        ReportLine("Cartons offerts", str(till.free_cartons)),
        *(ReportLine(k, v) for k, v in (report.remote.lines() if report.remote else ())),
        ReportLine("Lots remis", f"{sum(a.handed_over for a in awards)} sur {len(awards)}"),
        ReportLine(
            "Journal",
            f"intègre ({plural(report.audit.entries, 'entrée')})"
            if report.audit.ok
            else "PROBLÈME : voir « Vérifier le journal »",
        ),
    ]
    winners = [
        f"Partie {g.number}, {a.stage_label} : {a.lot} → {a.player_name}"
        + ("" if a.share == "1" else f" ({a.share_label.lower()})")
        for g in games
        for a in g.awards
    ]
    return lines, winners[:300]


def decision_lines(report: Any) -> list[str]:
    """The association's decisions (art. 8), then the claims after an award still to settle."""
    return [
        f"Partie {g.number}, {local_time(d.at):%H:%M} — {d.by_label} : {d.what} "
        f"({d.player_name}). Motif : {d.reason}"
        for g in report.games
        for d in g.decisions
    ] + [
        f"Réclamation à régler : annonce n° {c.no} de {c.player_name} (carton {c.carton_no}"
        f", {c.stage_label} sur le {c.number}, partie {g.number}) — {c.verdict_label}"
        for g in report.games
        for c in g.claims
        if c.verdict == "after_award" and c.no not in {d.claim_no for d in g.decisions}
    ]
