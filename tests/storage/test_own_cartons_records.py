"""The association's own cartons in the records, from an evening committed to SQLite: the
reconciliation's line of the own série, the refusals and the claims named « ROUGE n° 347 » in
the report, its CSV and PDF, and the procès-verbal."""

from __future__ import annotations

import random

from live_driver import Driver, quine_program
from test_proces_verbal import pdf_text

from loto_app.domain.cartons import generate_strip
from loto_app.domain.own_cartons import numbers_of
from loto_app.domain.program import Kind
from loto_app.records.export import report_csv, report_pdf
from loto_app.records.proces_verbal import evening_pv
from loto_app.records.report import build_report
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


def test_own_cartons_are_reconciled_and_named_in_the_records(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    store = EveningStore(make_engine(sqlite_url))
    creds = store.create_evening("Loto", quine_program("APP"))
    box = [(345 + i, numbers_of(c)) for i, c in enumerate(generate_strip(random.Random(1))[:4])]
    with Driver(store) as driver:
        live = driver.on(creds.evening_id)
        live.run(lambda e: e.register_own("rouge", Kind.CLASSIQUE, box, "organisateur"))
        live.run(lambda e: e.sell_own("p1", "Mme Martin", 0, "ROUGE", [347], "cash", "Paul"))
        live.run(lambda e: e.sell_own("p2", "Jo", 0, "ROUGE", [347], "cash", "Paul"))
        live.run(lambda e: e.start_game())
        for n in box[2][1][:5]:
            live.run(lambda e, n=n: e.enter_ball(n))
        live.run(lambda e: e.own_claim("ROUGE", 347))
    report = build_report(store, creds.evening_id)
    assert report.paper is not None
    (line,) = report.paper.lines
    assert (line.kind_label, line.printed, line.sold, line.unsold) == (
        "Série ROUGE (classique)",
        4,
        1,
        3,
    )
    assert [r.carton for r in report.paper.refusals] == ["ROUGE n°\u00a0347"]
    (claim,) = report.games[0].claims
    assert claim.carton == "ROUGE n°\u00a0347" and claim.verdict == "valid"
    csv_text = report_csv(report).decode("utf-8-sig")
    assert "Série ROUGE (classique)" in csv_text and "ROUGE n°\u00a0347" in csv_text
    pdf = pdf_text(report_pdf(report))
    assert "Série ROUGE (classique)" in pdf and "cartons de l'association" in pdf
    assert "ROUGE n° 347" in pdf.replace("\u00a0", " ")
    assert "Série ROUGE" in pdf_text(evening_pv(report))
    store.engine.dispose()
