"""The report counts the players at a distance apart (players, cartons, money), in the CSV and
the PDF; with remote play, the payment stays manual (loto_app/payments.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from loto_app import payments
from loto_app.domain.engine import Evening
from loto_app.domain.program import demo_program
from loto_app.records.export import read_report_csv, report_csv, report_pdf
from loto_app.records.report import report_from_entries


def remote_evening() -> Evening:
    p = demo_program().with_settings(remote_play=True, remote_cap=4, remote_confirmed=True)
    e = Evening(p, b"k" * 32)
    e.invite(["Marie", "Paul", "Jeanne"])
    e.join("far1", "Marie", "remote", 1)
    e.join("far2", "Paul", "remote", 2)
    e.join("hall", "Salle", "hall")
    rng = random.Random(4)
    e.desk_sale("hall", 1, "cash", "Alice", rng)  # 3 cartons, in the hall
    (order,) = e.order("far1", 0)  # 1 carton, settled by transfer
    e.confirm_payment(order.sale_no, "transfer", "Bruno", rng)
    e.order("far2", 1)  # 3 cartons à régler: no cartons yet
    return e


def test_the_report_counts_remote_players_cartons_and_money_apart():
    e = remote_evening()
    at = datetime(2031, 3, 15, 20, tzinfo=UTC)
    entries = [(i + 1, at, x) for i, x in enumerate(e.history)]
    r = report_from_entries(entries, e.program, evening_id=1, name="Loto", join_code="ABCDEF")
    price = e.program.offers
    assert r.remote is not None
    assert (r.remote.invited, r.remote.players, r.remote.cap) == (3, 2, 4)
    assert (r.remote.cartons, r.remote.sales) == (1, 1)
    assert r.remote.received_cents == price[0].price_cents
    assert r.remote.pending_cents == price[1].price_cents
    assert r.till.received_cents == price[0].price_cents + price[1].price_cents
    rows = {row["champ"]: row["valeur"] for row in read_report_csv(report_csv(r))["soiree"]}
    assert rows["À distance : joueurs"] == "2 (au plus 4)"
    assert rows["À distance : cartons"] == "1"
    assert rows["À distance : invitations"] == "3"
    assert report_pdf(r, unicode_font=False).startswith(b"%PDF")


def test_no_remote_block_without_remote_play():
    e = Evening(demo_program())
    e.join("hall", "Salle")
    at = datetime(2031, 3, 15, 20, tzinfo=UTC)
    r = report_from_entries([(1, at, e.history[0])], e.program, evening_id=1, name="L")
    assert r.remote is None


def test_with_remote_play_online_payment_is_refused_and_the_desk_settles_by_hand(monkeypatch):
    payments.check_provider("manual", remote_play=True)
    payments.check_provider("helloasso", remote_play=False)
    with pytest.raises(payments.OnlinePaymentRefused) as refused:
        payments.check_provider("helloasso", remote_play=True)
    assert "pas de paiement en ligne" in refused.value.user_message
    monkeypatch.setenv("LOTO_PAYMENT_PROVIDER", "helloasso")
    assert payments.provider(remote_play=True).name == "manual"
