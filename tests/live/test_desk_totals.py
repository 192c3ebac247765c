"""The desk shows the report's till: the caissier's totals are the report's, each vendeur's are
the report's line for them, on random sales, orders settled, refunds and cancellations (a free
loto too). The desk adds up the engine's sales, the report the lines it rebuilds from the log:
both through `till.totals`. Real state classes (`CaisseState`), no server, no database."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from test_session import root_on, sub
from till_scenario import CASHIERS, SELLERS, evening_after, report_of, till_ops

from loto_app.domain.till import counted_by, totals
from loto_app.wording import euros


def desk() -> Any:
    import loto_app.loto_app  # noqa: F401  (builds the state tree)
    from loto_app.live.states.caisse import CaisseState

    return sub(root_on("/caisse"), CaisseState)


def lines(shown: list) -> list[tuple[str, str]]:
    return [(x.label, x.amount) for x in shown]


@hsettings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(till_ops, st.booleans())
def test_the_desk_shows_the_reports_totals(ops, free: bool) -> None:
    e = evening_after(ops, free=free)
    report = report_of(e)
    till = report.till
    d = desk()
    d.role, d.staff_name = "caissier", CASHIERS[0]
    d._show(e)
    assert (d.received, d.refunded, d.pending, d.sold_cartons) == (
        euros(till.received_cents),
        euros(till.refunded_cents),
        euros(till.pending_cents),
        till.cartons,
    )
    assert lines(d.by_seller) == [(name, euros(c)) for name, c in till.by_seller]
    assert lines(d.by_kind) == [(label, euros(c)) for _, label, c in till.by_kind]
    assert lines(d.by_method) == [(label, euros(c)) for _, label, c in till.by_method]
    assert d.till_closed == till.closed

    by_seller = dict(till.by_seller)
    for name in SELLERS + CASHIERS:  # a vendeur's desk: the sales whose money they took
        d.role, d.staff_name = "vendeur", name
        d._show(e)
        theirs = totals(counted_by(report.sales, name))
        assert d.received == euros(by_seller.get(name, 0)) == euros(theirs.received_cents)
        assert lines(d.by_seller) == ([(name, euros(by_seller[name]))] if name in by_seller else [])
        assert (d.refunded, d.pending, d.sold_cartons) == (
            euros(theirs.refunded_cents),
            euros(0),  # an order à régler is nobody's money yet
            theirs.cartons,
        )
        assert {s.no for s in d.sales} == {s.no for s in counted_by(report.sales, name)}
