"""Properties of the report over random evenings driven through the engine (no database)."""

from __future__ import annotations

import contextlib
import dataclasses

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from till_scenario import evening_after, report_of, till_ops

from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError
from loto_app.domain.program import DrawSource, Settings, demo_program
from loto_app.domain.till import SaleStatus, refunded, totals
from loto_app.records.export import read_report_csv, report_csv


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(till_ops)
def test_report_totals_equal_the_till_totals(ops) -> None:
    e = evening_after(ops)
    r = report_of(e)
    t, engine = r.till, totals(list(e.sales.values()))
    assert (t.received_cents, t.refunded_cents, t.pending_cents, t.sales, t.cartons) == (
        engine.received_cents,
        engine.refunded_cents,
        engine.pending_cents,
        engine.sales,
        engine.cartons,
    )
    assert dict(t.by_seller) == engine.by_seller
    assert {k: c for k, _, c in t.by_method} == engine.by_method
    assert {k: c for k, _, c in t.by_kind} == engine.by_kind
    assert t.collected_cents == sum(
        s.amount_cents for s in e.sales.values() if s.status is SaleStatus.PAID or s.refunded_cents
    )
    assert t.closed == (e.till_closed_by is not None)
    for line in r.sales:
        sale = e.sales[line.no]
        assert line.status is sale.status
        assert refunded(line) == (sale.refunded_cents > 0) == (line.status_label == "Remboursée")
        if line.status is SaleStatus.PENDING:
            assert line.status_label == "À régler" and not line.carton_nos
    rows = read_report_csv(report_csv(r))
    assert len(rows.get("ventes", [])) == len(e.sales)


@hsettings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["enter", "correct"]), st.integers(1, 90)), max_size=40))
def test_draws_in_the_report_follow_corrections(ops) -> None:
    p = demo_program("A")
    e = Evening(dataclasses.replace(p, settings=Settings(draw_source=DrawSource.PHYSICAL)))
    e.start_game()
    for what, n in ops:
        with contextlib.suppress(LotoError):
            (e.enter_ball if what == "enter" else e.correct_last)(n)
    g = e.games[0]
    (game, *_) = report_of(e).games
    assert list(game.numbers) == g.drawn
    assert [d.seq for d in game.draws] == list(range(1, len(g.drawn) + 1))
    for d in game.draws:
        fixes = [c for c in g.corrections if c.seq == d.seq]
        assert d.replaced == tuple(c.old for c in fixes)
        assert (d.corrected_at is None) == (not fixes)
        assert d.source == "physical"
