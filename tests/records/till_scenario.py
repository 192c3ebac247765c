"""Random evenings at the till, driven through the engine (no database), for the properties of
the report (tests/records/test_properties.py) and of the desk (tests/live/test_desk_totals.py):
desk sales, orders, orders settled, refunds, orders cancelled, games played (their cartons can
no longer be refunded) and the till closed, in any order; a refused move is skipped."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st

from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError
from loto_app.domain.program import demo_program
from loto_app.records.report import report_from_entries

T0 = datetime(2025, 3, 1, 18, 30, tzinfo=UTC)
PLAYERS = ("p0", "p1", "p2")
N_OFFERS = len(demo_program("A").offers)
SELLERS = ("Marie", "Luc")  # vendeurs at the desk
CASHIERS = ("Jeanne", "Zoé")  # caissiers settling the orders (Jeanne refunds and closes)


def report_of(e: Evening):
    entries = [(i + 1, T0 + timedelta(seconds=7 * i), x) for i, x in enumerate(e.history)]
    return report_from_entries(entries, e.program, name="Loto")


till_ops = st.lists(
    st.one_of(
        st.tuples(
            st.just("desk"),
            st.sampled_from(PLAYERS),
            st.integers(0, N_OFFERS - 1),
            st.sampled_from(["cash", "card"]),
            st.sampled_from(SELLERS),
        ),
        st.tuples(st.just("order"), st.sampled_from(PLAYERS), st.integers(0, N_OFFERS - 1)),
        st.tuples(
            st.just("confirm"),
            st.integers(1, 12),
            st.sampled_from(["cash", "card", "transfer"]),
            st.sampled_from(CASHIERS),
        ),
        st.tuples(st.just("cancel"), st.integers(1, 12), st.sampled_from(["Erreur", "Doublon"])),
        st.tuples(st.just("play")),
        st.tuples(st.just("close")),
    ),
    max_size=30,
)


def drive(e: Evening, ops) -> None:
    rng = random.Random(0)
    for op in ops:
        try:
            match op:
                case ("desk", p, offer, method, seller):
                    e.desk_sale(p, offer, method, seller, rng=rng)
                case ("order", p, offer):
                    e.order(p, offer)
                case ("confirm", no, method, cashier):
                    e.confirm_payment(no, method, cashier, rng=rng)
                case ("cancel", no, reason):
                    e.cancel_sale(no, "Jeanne", reason)
                case ("play",):  # the next game starts: its cartons can no longer be refunded
                    e.start_game()
                    e.draw(rng)
                case ("close",):
                    e.close_till("Jeanne")
        except LotoError:
            pass


def evening_after(ops, *, free: bool = False) -> Evening:
    """The demo evening (a free loto when `free`: orders handed at once), its players joined,
    after the moves `ops` (`till_ops`)."""
    program = demo_program("A")
    e = Evening(program.with_settings(free_cartons=True) if free else program)
    for p in PLAYERS:
        e.join(p, p.upper())
    drive(e, ops)
    return e
