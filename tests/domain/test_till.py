"""The till: desk sales, orders "à régler", payments, refunds, closing, lots handed over, and
the legal limits of a loto traditionnel (L322-4) in the set-up."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.program import (
    GameSpec,
    Kind,
    Lot,
    Offer,
    Pattern,
    Program,
    Settings,
    Stage,
    default_offers,
)
from loto_app.domain.till import (
    NO_COUNTER,
    SaleStatus,
    counter_name,
    desk_code,
    pending_orders,
    player_for_desk_code,
    totals,
)
from loto_app.domain.verdicts import Verdict
from loto_app.wording import euros

KEY = b"t" * 32
QUINE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))
OFFERS = (
    Offer(Kind.CLASSIQUE, 1, 300),
    Offer(Kind.CLASSIQUE, 3, 800),
    Offer(Kind.CLASSIQUE, 6, 1500, planche=True),
)


def evening(remote: bool = False, games: int = 2) -> Evening:
    program = Program(
        "A",
        (QUINE,) * games,
        Settings(
            remote_play=remote,
            remote_cap=5 if remote else 0,
            remote_confirmed=remote,
            last_call_seconds=0,
        ),
        OFFERS,
    )
    e = Evening(program, KEY)
    for pid in ("ana", "bob", "cat"):
        e.join(pid, pid.capitalize())
    return e


# ---------------------------------------------------------------------- set-up: the law


@pytest.mark.parametrize("price", [2000, 2500, 10_000])
def test_a_price_of_20_euros_or_more_is_refused_with_the_law(price):
    with pytest.raises(err.InvalidProgram) as exc:
        Offer(Kind.CLASSIQUE, 1, price)
    assert "20 €" in exc.value.user_message and "L322-4" in exc.value.user_message


def test_a_price_just_under_20_euros_is_allowed():
    assert Offer(Kind.CLASSIQUE, 6, 1999, planche=True).label == "Planche de 6"


@pytest.mark.parametrize("price", [0, -100, 12.5, True, "300"])
def test_prices_are_positive_integers_of_cents(price):
    with pytest.raises(err.InvalidProgram):
        Offer(Kind.CLASSIQUE, 1, price)


def test_a_cash_lot_is_refused_with_the_law():
    with pytest.raises(err.InvalidProgram) as exc:
        Lot("100 € en espèces", 10_000, cash=True)
    assert "L322-4" in exc.value.user_message and "argent" in exc.value.user_message


def test_offers_must_match_the_kinds_played_and_not_repeat():
    with pytest.raises(err.InvalidProgram):
        Program("A", (QUINE,), offers=(Offer(Kind.MAXIQUINE, 1, 200),))
    with pytest.raises(err.InvalidProgram):
        Program("A", (QUINE,), offers=(Offer(Kind.CLASSIQUE, 1, 200),) * 2)
    with pytest.raises(err.InvalidProgram):
        Offer(Kind.VITRINE, 6, 900, planche=True)


def test_default_tariff_covers_the_kinds_played_and_round_trips():
    p = Program("A", (QUINE,), Settings(remote_play=True, remote_cap=9, remote_confirmed=True))
    assert p.offers == default_offers({Kind.CLASSIQUE})
    assert all(o.kind is Kind.CLASSIQUE for o in p.offers)
    again = Program.from_dict(p.to_dict())
    assert again == p and again.settings.remote_play


def test_old_programs_without_tariff_or_remote_play_still_load():
    data = Program("A", (QUINE,)).to_dict()
    del data["offers"], data["settings"]["remote_play"]
    for g in data["games"]:
        for s in g["stages"]:
            del s["lot"]["cash"]
    p = Program.from_dict(data)
    assert p.offers and not p.settings.remote_play


# ---------------------------------------------------------------------- sales


def test_desk_sale_hands_the_pack_and_records_the_money():
    e = evening()
    events = e.desk_sale("ana", 1, "cash", "Marie", rng=random.Random(1))
    sold = [x for x in events if isinstance(x, ev.CartonsSold)]
    rec = events[-1]
    assert isinstance(rec, ev.SaleRecorded)
    assert len(sold) == 1 and len(sold[0].carton_nos) == 3
    assert rec.amount_cents == 800 and rec.method == "cash" and rec.seller == "Marie"
    assert len(e.player_cartons("ana")) == 3
    e.desk_sale("bob", 2, "card", "Paul", rng=random.Random(2))
    assert len(e.player_cartons("bob")) == 6
    t = totals(list(e.sales.values()))
    assert t.received_cents == 2300 and t.sales == 2
    assert t.by_seller == {"Marie": 800, "Paul": 1500}
    assert t.by_method == {"cash": 800, "card": 1500}
    assert t.by_kind == {"classique": 2300}
    e.check_invariants()


@pytest.mark.parametrize(
    ("offer", "method", "seller"),
    [
        (9, "cash", "Marie"),
        (-1, "cash", "Marie"),
        ("1", "cash", "Marie"),
        (0, "cheque", "M"),
        (0, "cash", ""),
        (0, "cash", "x" * 31),
        (0, None, "Marie"),
    ],
)
def test_desk_sale_arguments_are_checked(offer, method, seller):
    e = evening()
    before = e.fingerprint()
    with pytest.raises(err.LotoError):
        e.desk_sale("ana", offer, method, seller)
    assert e.fingerprint() == before


def test_an_order_from_a_phone_waits_a_regler_without_cartons():
    e = evening()
    (rec,) = e.order("ana", 0)
    assert rec.method == "pending" and rec.purchase_no == 0
    assert e.player_cartons("ana") == []
    assert totals(list(e.sales.values())).pending_cents == 300
    events = e.confirm_payment(rec.sale_no, "transfer", "Jeanne", rng=random.Random(3))
    assert isinstance(events[-1], ev.PaymentConfirmed)
    assert len(e.player_cartons("ana")) == 1
    sale = e.sales[rec.sale_no]
    assert sale.status is SaleStatus.PAID and sale.cashier == "Jeanne"
    with pytest.raises(err.InvalidSale):
        e.confirm_payment(rec.sale_no, "cash", "Jeanne")
    e.check_invariants()


def test_a_desk_sale_over_an_order_a_regler_is_refused_unless_sold_in_addition():
    e = evening()
    (rec,) = e.order("ana", 0)
    before = e.fingerprint()
    with pytest.raises(err.PendingOrder) as exc:
        e.desk_sale("ana", 0, "cash", "Marie", rng=random.Random(1))
    assert "commande à régler" in exc.value.user_message
    assert e.fingerprint() == before and e.player_cartons("ana") == []
    e.desk_sale("bob", 0, "cash", "Marie", rng=random.Random(2))  # others are not held up
    e.confirm_payment(rec.sale_no, "cash", "Marie", rng=random.Random(3))  # settled: one sale
    assert [s.no for s in pending_orders(e.sales.values(), "ana")] == []
    e.desk_sale("ana", 1, "card", "Marie", rng=random.Random(4))  # nothing pending: a new pack
    e.order("ana", 0)
    e.desk_sale("ana", 0, "cash", "Marie", rng=random.Random(5), extra=True)  # chosen: in addition
    assert len(pending_orders(e.sales.values(), "ana")) == 1
    assert len(e.player_cartons("ana")) == 1 + 3 + 1
    e.check_invariants()


def test_one_name_per_staff_member_in_the_totals_whoever_sold_or_settled():
    e = evening()
    e.desk_sale("ana", 1, "cash", "Caisse démo", rng=random.Random(1))
    (rec,) = e.order("bob", 0)
    e.confirm_payment(rec.sale_no, "card", "Caisse démo", rng=random.Random(2))
    (rec,) = e.order("cat", 0)
    e.confirm_payment(rec.sale_no, "cash", "Jeanne", rng=random.Random(3))
    assert totals(list(e.sales.values())).by_seller == {"Caisse démo": 1100, "Jeanne": 300}
    assert counter_name("", "") == NO_COUNTER


def test_a_player_cannot_pile_up_orders():
    e = evening()
    for _ in range(5):
        e.order("ana", 0)
    with pytest.raises(err.InvalidSale) as exc:
        e.order("ana", 0)
    assert "caisse" in exc.value.user_message


def test_paper_players_buy_at_the_desk_only():
    e = evening()
    e.join("pap", "Mme Papier", "paper")
    with pytest.raises(err.InvalidSale):
        e.order("pap", 0)
    e.desk_sale("pap", 0, "cash", "Marie", rng=random.Random(1))
    assert len(e.player_cartons("pap")) == 1


def test_remote_players_join_only_when_remote_play_is_on():
    with pytest.raises(err.RemoteRefused) as exc:
        evening().join("far", "Loin", "remote")
    assert "distance" in exc.value.user_message
    e = evening(remote=True)
    with pytest.raises(err.UnknownInvitation):
        e.join("far", "Loin", "remote")  # (no invitation: nobody at a distance)
    e.invite(["Loin"])
    e.join("far", "Loin", "remote", 1)
    assert e.origins["far"] == "remote"


def test_cancelling_an_order_refunds_nothing_and_deletes_nothing():
    e = evening()
    (rec,) = e.order("ana", 1)
    (c,) = e.cancel_sale(rec.sale_no, "Jeanne", "Erreur de commande")
    assert c.refunded_cents == 0
    assert e.sales[rec.sale_no].status is SaleStatus.CANCELLED
    assert rec in e.history and c in e.history
    with pytest.raises(err.InvalidSale):
        e.cancel_sale(rec.sale_no, "Jeanne", "encore")
    with pytest.raises(err.InvalidSale):
        e.confirm_payment(rec.sale_no, "cash", "Jeanne")


def test_a_refund_withdraws_cartons_that_have_not_played():
    e = evening()
    e.desk_sale("ana", 0, "cash", "Marie", rng=random.Random(1))
    e.desk_sale("bob", 0, "cash", "Marie", rng=random.Random(2))
    (no,) = [c.no for c in e.player_cartons("ana")]
    (c,) = e.cancel_sale(1, "Jeanne", "Partie")
    assert c.refunded_cents == 300
    e.start_game()
    assert not e.plays(no)
    e.draw(random.Random(5))
    (claim,) = e.claim("ana", no)
    assert claim.verdict == Verdict.NOT_IN_GAME
    with pytest.raises(err.CartonNotInGame):
        e.toggle_mark("ana", no, e.game.last)
    t = totals(list(e.sales.values()))
    assert (t.received_cents, t.refunded_cents, t.sales) == (300, 300, 1)
    e.check_invariants()


def test_no_refund_once_the_cartons_have_played():
    e = evening()
    e.desk_sale("ana", 0, "cash", "Marie", rng=random.Random(1))
    e.start_game()
    with pytest.raises(err.InvalidSale) as exc:
        e.cancel_sale(1, "Jeanne", "trop tard")
    assert "déjà joué" in exc.value.user_message


def test_closing_the_till_needs_every_order_settled_then_stops_sales():
    e = evening()
    (rec,) = e.order("ana", 0)
    with pytest.raises(err.InvalidSale):
        e.close_till("Jeanne")
    e.confirm_payment(rec.sale_no, "cash", "Jeanne", rng=random.Random(1))
    e.close_till("Jeanne")
    assert e.till_closed_by == "Jeanne"
    for move in (
        lambda: e.desk_sale("bob", 0, "cash", "Marie"),
        lambda: e.order("bob", 0),
        lambda: e.close_till("Jeanne"),
    ):
        with pytest.raises(err.TillIsClosed):
            move()


def test_lot_tickets_are_handed_over_once():
    e = evening()
    e.desk_sale("ana", 2, "cash", "Marie", rng=random.Random(1))
    e.start_game()
    rng = random.Random(7)
    while True:
        e.draw(rng)
        winners = [
            c.no
            for c in e.player_cartons("ana")
            if any(r <= set(e.game.drawn) for r in c.carton.rows)
        ]
        if winners:
            break
    e.claim("ana", winners[0])
    e.award()
    (ticket,) = e.tickets()
    with pytest.raises(err.UnknownTicket):
        e.hand_over(ticket + 1, "Paul")
    e.hand_over(ticket, "Paul")
    assert e.handed_over == {ticket: "Paul"}
    with pytest.raises(err.UnknownTicket) as exc:
        e.hand_over(ticket, "Paul")
    assert "déjà" in exc.value.user_message
    e.check_invariants()


def test_money_format():
    assert euros(300) == "3 €"
    assert euros(850) == "8,50 €"
    assert euros(123456) == "1\u202f234,56 €"
    assert euros(-300) == "-3 €"


# ---------------------------------------------------------------------- property


moves = st.lists(
    st.tuples(
        st.sampled_from(["desk", "extra", "order", "confirm", "cancel", "start", "close"]),
        st.sampled_from(["ana", "bob", "cat"]),
        st.integers(0, 3),  # offer (3 does not exist)
        st.sampled_from(["cash", "card", "transfer", "bitcoin"]),
        st.integers(1, 8),  # sale number
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(moves, st.integers(0, 2**32))
def test_the_till_adds_up_and_replays_whatever_the_desk_does(ops, seed):
    e = evening(games=3)
    rng = random.Random(seed)
    paid: dict[int, int] = {}
    refunded = 0
    for op, pid, offer, method, sale_no in ops:
        before = e.fingerprint()
        try:
            match op:
                case "desk" | "extra":
                    waiting = pending_orders(e.sales.values(), pid)
                    e.desk_sale(pid, offer, method, "Marie", rng, extra=op == "extra")
                    assert op == "extra" or not waiting, "sold again over an order à régler"
                    paid[len(e.sales)] = e.sales[len(e.sales)].amount_cents
                case "order":
                    e.order(pid, offer)
                case "confirm":
                    e.confirm_payment(sale_no, method, "Jeanne", rng)
                    paid[sale_no] = e.sales[sale_no].amount_cents
                case "cancel":
                    (c,) = e.cancel_sale(sale_no, "Jeanne", "motif")
                    refunded += c.refunded_cents
                    paid.pop(sale_no, None)
                case "start":
                    if e.game is not None:
                        e.allow_unmark() if e.game.drawn else None
                    e.start_game()
                case "close":
                    e.close_till("Jeanne")
        except err.LotoError:
            assert e.fingerprint() == before, f"{op} failed but changed the state"
    e.check_invariants()
    t = totals(list(e.sales.values()))
    assert t.received_cents == sum(paid.values())
    assert t.refunded_cents == refunded
    assert t.pending_cents == sum(
        s.amount_cents for s in e.sales.values() if s.status is SaleStatus.PENDING
    )
    assert sum(t.by_method.values()) == sum(t.by_seller.values()) == t.received_cents
    # every paid sale holds exactly its pack's cartons, withdrawn ones play no more
    for s in e.sales.values():
        if s.status is SaleStatus.PAID:
            assert len(e.purchases[s.purchase_no - 1].carton_nos) == s.quantity
    again = Evening.replay(e.program, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
    assert again.fingerprint() == e.fingerprint()


def test_on_a_free_loto_a_phone_order_hands_the_cartons_at_once_for_nothing():
    program = Program("A", (QUINE,), Settings(free_cartons=True), OFFERS)
    e = Evening(program, KEY)
    e.join("ana", "Ana")
    events = e.order("ana", 1, rng=random.Random(1))
    rec = events[-1]
    assert isinstance(rec, ev.SaleRecorded)
    assert (rec.method, rec.amount_cents) == ("free", 0)
    assert len(e.player_cartons("ana")) == 3
    t = totals(list(e.sales.values()))
    assert (t.received_cents, t.cartons, t.pending_cents) == (0, 3, 0)
    e.check_invariants()


def test_desk_codes_name_one_player_typed_or_scanned():
    ids = ["3fa2c91b00aa", "3fa2c91c00bb", "77aa00ff0000"]
    code = desk_code(ids[0])
    assert code == "3FA2C91B"
    assert player_for_desk_code(code, ids) == ids[0]
    assert player_for_desk_code(" 3fa2-c91b ", ids) == ids[0]
    assert player_for_desk_code("LOTO-JOUEUR:3FA2C91B", ids) == ids[0]
    for bad in ("3FA2C91", "", None, 42, "ZZZZZZZZ"):
        assert player_for_desk_code(bad, ids) is None
    assert player_for_desk_code("3FA2C91B", [*ids, "3fa2c91bffff"]) is None, "ambiguous"


# ---------------------------------------------------------------------- a player cancels an order


def test_a_player_cancels_their_own_unpaid_order_recorded_as_theirs():
    e = evening()
    (rec,) = e.order("ana", 1)
    (c,) = e.cancel_order("ana", rec.sale_no)
    assert (c.sale_no, c.by, c.refunded_cents) == (rec.sale_no, "joueur", 0)
    assert e.sales[rec.sale_no].status is SaleStatus.CANCELLED
    assert rec in e.history and c in e.history  # nothing deleted
    with pytest.raises(err.InvalidSale):
        e.confirm_payment(rec.sale_no, "cash", "Jeanne")


def test_a_player_cannot_cancel_someone_elses_order_or_a_paid_or_cancelled_one():
    e = evening()
    (rec,) = e.order("ana", 1)
    with pytest.raises(err.UnknownSale):
        e.cancel_order("bob", rec.sale_no)
    with pytest.raises(err.UnknownSale):
        e.cancel_order("ana", 99)
    with pytest.raises(err.UnknownPlayer):
        e.cancel_order("nobody", rec.sale_no)
    e.confirm_payment(rec.sale_no, "cash", "Jeanne", rng=random.Random(3))
    with pytest.raises(err.InvalidSale):
        e.cancel_order("ana", rec.sale_no)
    (other,) = e.order("ana", 0)
    e.cancel_order("ana", other.sale_no)
    with pytest.raises(err.InvalidSale):
        e.cancel_order("ana", other.sale_no)
    assert e.sales[rec.sale_no].status is SaleStatus.PAID
    assert e.player_cartons("ana")  # the paid order's cartons stay


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ana", "bob"]), st.sampled_from(["ana", "bob"]))))
def test_only_the_owner_cancels_and_each_order_once(moves):
    """Orders by one player, cancellations tried by either: an order is cancelled only by
    its owner, at most once, and the replayed log gives the same till."""
    e = evening()
    for buyer, canceller in moves:
        if sum(s.status is SaleStatus.PENDING for s in e.sales.values()) >= 5:
            break
        try:
            (rec,) = e.order(buyer, 0)
        except err.InvalidSale:
            continue
        for _ in range(2):
            with contextlib.suppress(err.UnknownSale, err.InvalidSale):
                e.cancel_order(canceller, rec.sale_no)
        cancelled = e.sales[rec.sale_no].status is SaleStatus.CANCELLED
        assert cancelled == (canceller == buyer)
    done = [x for x in e.history if isinstance(x, ev.SaleCancelled)]
    assert len({x.sale_no for x in done}) == len(done)
    again = Evening.replay(e.program, e.history, KEY)
    assert {n: s.status for n, s in again.sales.items()} == {
        n: s.status for n, s in e.sales.items()
    }
