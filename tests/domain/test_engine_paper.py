"""Paper cartons printed in advance and sold at the desk by number and check code: refused and
counted when unknown or sold twice; and their reconciliation (records/reconciliation.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from test_engine_rules import KEY

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.program import DrawSource, Kind, Settings, demo_program
from loto_app.domain.serial import check_code
from loto_app.records.reconciliation import reconcile

ONE, THREE, PLANCHE, ONE_SPECIAL, _, ONE_VITRINE, ONE_MAXI = range(7)


def evening() -> Evening:
    p = demo_program("A")
    return Evening(type(p)(p.series, p.games, Settings(DrawSource.PHYSICAL)), KEY)


def code(no: int) -> str:
    return check_code(KEY, "A", no)


def printed(e: Evening, kind: Kind = Kind.CLASSIQUE, sheets: int = 1) -> list[int]:
    events = e.print_paper(kind, sheets, "organisateur", random.Random(5))
    assert isinstance(events[-1], ev.PaperPrinted)
    return list(events[-1].carton_nos)


def entries(e: Evening) -> list:
    at = datetime(2025, 3, 1, 20, tzinfo=UTC)
    return [(i + 1, at, x) for i, x in enumerate(e.history)]


def test_printed_cartons_are_kept_apart_from_the_phones_stock():
    e = evening()
    nos = printed(e, sheets=2)
    assert len(nos) == 12 and sorted(e.paper_stock[Kind.CLASSIQUE]) == nos
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 6, rng=random.Random(1))
    assert not set(nos) & {c.no for c in e.player_cartons("ana")}  # a phone never gets one
    e.check_invariants()


def test_the_desk_sells_printed_cartons_by_number_and_code():
    e = evening()
    nos = printed(e)
    events = e.sell_printed(
        "p1", "Mme Martin", THREE, [(n, code(n)) for n in nos[:3]], "cash", "Luc"
    )
    joined, sold, sale = events
    assert joined == ev.PlayerJoined("p1", "Mme Martin", "paper")
    assert sold.carton_nos == tuple(nos[:3]) and sale.amount_cents == 800
    assert e.paper_stock[Kind.CLASSIQUE] == nos[3:]
    e.check_invariants()


def test_a_carton_sold_twice_or_unknown_is_refused_counted_and_nothing_is_sold():
    e = evening()
    nos = printed(e)
    e.sell_printed("p1", "Paul", ONE, [(nos[0], code(nos[0]))], "cash", "Luc")
    sales = len(e.sales)
    (twice,) = e.sell_printed("p2", "Jo", ONE, [(nos[0], code(nos[0]))], "cash", "Luc")
    assert twice == ev.PaperCartonRefused(nos[0], "sold", "Luc")
    refused = e.sell_printed(
        "p2",
        "Jo",
        THREE,
        [(nos[1], "AAAAAA"), (999, code(999)), (nos[2], code(nos[2]))],
        "cash",
        "Luc",
    )
    assert [(r.carton_no, r.why) for r in refused] == [(nos[1], "unknown"), (999, "unknown")]
    assert len(e.sales) == sales and "p2" not in e.players  # nothing sold, nobody registered
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 1, rng=random.Random(2))
    phone = e.player_cartons("ana")[0].no
    (r,) = e.sell_printed("p2", "Jo", ONE, [(phone, code(phone))], "cash", "Luc")
    assert r.why == "sold"  # a phone's carton, with its code: held already
    rec = reconcile(entries(e), "A")
    assert rec.count("sold") == 2 and rec.count("unknown") == 2
    e.check_invariants()


def test_the_quantity_and_kind_must_match_the_tariff():
    e = evening()
    nos = printed(e)
    with pytest.raises(err.InvalidSale, match="units"):
        e.sell_printed("p1", "Paul", THREE, [(n, code(n)) for n in nos[:2]], "cash", "Luc")
    with pytest.raises(err.InvalidSale, match="twice"):
        e.sell_printed("p1", "Paul", THREE, [(nos[0], code(nos[0]))] * 3, "cash", "Luc")
    with pytest.raises(err.InvalidSale, match="is classique"):
        e.sell_printed("p1", "Paul", ONE_SPECIAL, [(nos[0], code(nos[0]))], "cash", "Luc")
    planche = e.sell_printed("p1", "Paul", PLANCHE, [(n, code(n)) for n in nos], "card", "Luc")
    assert planche[1].reason == "planche" and len(planche[1].carton_nos) == 6
    e.join("ana", "Ana")
    more = printed(e)
    with pytest.raises(err.InvalidSale, match="hall player"):  # a phone shows its cartons
        e.sell_printed("ana", "", ONE, [(more[0], code(more[0]))], "cash", "Luc")
    e.check_invariants()


def test_a_vitrine_is_sold_by_any_of_its_three_cartons():
    e = evening()
    nos = printed(e, Kind.VITRINE)
    (_, sold, _) = e.sell_printed("p1", "Paul", ONE_VITRINE, [(nos[1], code(nos[1]))], "cash", "L")
    assert sold.carton_nos == tuple(nos[:3])
    e.check_invariants()


def test_the_reconciliation_adds_up():
    e = evening()
    nos = printed(e)  # 6 printed in advance
    e.sell_printed("p1", "Paul", THREE, [(n, code(n)) for n in nos[:3]], "cash", "Luc")
    e.sell_printed("p2", "Jo", ONE, [(nos[3], code(nos[3]))], "cash", "Luc")
    e.cancel_sale(2, "Jeanne", "Joueur parti")  # Jo's carton: cancelled
    e.join("dede", "Dédé", "paper")
    e.desk_sale("dede", ONE, "cash", "Luc", rng=random.Random(3))  # printed at the sale
    e.start_game()
    e.enter_ball(1)
    e.paper_claim("A", nos[5], code(nos[5]))  # an unsold carton at the control desk
    e.paper_claim("Z", 1, "AAAAAA")  # another série
    (line,) = reconcile(entries(e), "A").lines
    assert (line.printed, line.in_advance, line.sold, line.cancelled, line.unsold) == (
        7,
        6,
        4,
        1,
        2,
    )
    rec = reconcile(entries(e), "A")
    assert rec.balanced and rec.count("nobody") == 1 and rec.count("wrong_series") == 1
    e.check_invariants()


def test_printing_is_refused_for_a_kind_not_played_or_a_bad_number_of_sheets():
    e = evening()
    for kind, sheets in (
        (Kind.CLASSIQUE, 0),
        (Kind.CLASSIQUE, 51),
        ("x", 1),
        (Kind.CLASSIQUE, "2"),
    ):
        with pytest.raises(err.LotoError):
            e.print_paper(kind, sheets, "organisateur")  # type: ignore[arg-type]
    assert not e.history
