"""The organisers' side in the database: secrets, staff, the invitations, and the till's
projections (sales, lots handed over), on SQLite and PostgreSQL."""

from __future__ import annotations

import random

import pytest
from sqlmodel import Session, select

from loto_app.domain.engine import Evening
from loto_app.domain.program import demo_program
from loto_app.storage import models as m
from loto_app.storage.access import AccessError, AccessStore
from loto_app.storage.invitations import NewInvitations
from loto_app.storage.repository import EveningStore


def test_organiser_secret_staff_and_invitation(db_engine):
    store, access = EveningStore(db_engine), AccessStore(db_engine)
    creds = store.create_evening("Loto", demo_program("A").with_settings(last_call_seconds=0))
    eid = creds.evening_id
    assert access.check_organiser(eid, creds.organiser_secret)
    assert not access.check_organiser(eid, creds.animateur_secret)
    assert not access.check_animateur(eid, creds.organiser_secret)
    new = access.reset_organiser_secret(eid)
    assert access.check_organiser(eid, new) and not access.check_organiser(
        eid, creds.organiser_secret
    )

    # personal invitations: the engine numbers them, their links' tokens are written beside
    program = demo_program("A").with_settings(
        remote_play=True, remote_cap=5, remote_confirmed=True, last_call_seconds=0
    )
    batch = NewInvitations(eid, ["Marie", "Paul"])
    batch.move(Evening(program))
    with Session(db_engine) as s:
        batch.extra(s)
        s.commit()
    tokens = access.invitations(eid)
    assert sorted(tokens) == [1, 2] and tokens[1] != tokens[2]
    assert access.invitation_no(eid, tokens[2]) == 2
    assert access.invitation_no(eid, tokens[2] + "x") is None
    assert access.invitation_no(eid, "") is None
    assert access.invitation_no(eid + 1, tokens[1]) is None  # (another evening's link)

    s1 = access.add_staff(eid, "  Marie  Dupont ", "vendeur")
    s2 = access.add_staff(eid, "Jeanne", "caissier")
    assert [(x.name, x.role) for x in access.staff(eid)] == [
        ("Marie Dupont", "vendeur"),
        ("Jeanne", "caissier"),
    ]
    assert access.staff_for_secret(eid, s1).name == "Marie Dupont"
    assert access.staff_for_secret(eid, s2).role == "caissier"
    assert access.staff_for_secret(eid, "nope") is None
    other = store.create_evening("Autre", demo_program("B")).evening_id
    assert access.staff_for_secret(other, s1) is None, "a secret opens one evening only"
    with pytest.raises(AccessError) as exc:
        access.add_staff(eid, "Marie Dupont", "caissier")
    assert "existe déjà" in exc.value.user_message
    for name, role in (("", "vendeur"), ("x" * 31, "vendeur"), ("Paul", "boss")):
        with pytest.raises(AccessError):
            access.add_staff(eid, name, role)
    marie = access.staff(eid)[0]
    access.set_active(eid, marie.id, False)
    assert access.staff_for_secret(eid, s1) is None
    with pytest.raises(AccessError):
        access.set_active(other, marie.id, True)
    again = access.reset_staff_secret(eid, "Marie Dupont")
    assert access.staff_for_secret(eid, again).active


def test_sales_and_lots_are_projected_and_survive_a_reload(db_engine, drivers):
    store = EveningStore(db_engine)
    eid = store.create_evening(
        "Loto", demo_program("A").with_settings(last_call_seconds=0)
    ).evening_id
    lv = drivers(store).on(eid)
    ana, _ = lv.join("Ana")
    bob, _ = lv.join("Bob")
    rng = random.Random(4)
    lv.run(lambda e: e.desk_sale(ana, 2, "card", "Marie", rng))
    lv.run(lambda e: e.order(bob, 0))
    lv.run(lambda e: e.order(bob, 1))
    lv.run(lambda e: e.confirm_payment(2, "transfer", "Jeanne", rng))
    lv.run(lambda e: e.cancel_sale(3, "Jeanne", "Doublon"))
    lv.run(lambda e: e.start_game())
    while not lv.evening.game.entries():
        lv.run(lambda e: e.draw(rng))
        g = lv.evening.game
        for c in lv.evening.player_cartons(ana) + lv.evening.player_cartons(bob):
            if any(r <= set(g.drawn) for r in c.carton.rows) and g.last in c.carton.numbers:
                owner = lv.evening.owner(c.no)
                lv.run(lambda e, o=owner, n=c.no: e.claim(o, n))
                break
    if len(lv.evening.game.entries()) > 1:
        lv.run(lambda e: e.break_tie_by_draw(rng))
    lv.run(lambda e: e.award())
    (ticket,) = lv.evening.tickets()
    lv.run(lambda e: e.hand_over(ticket, "Paul"))
    lv.run(lambda e: e.close_till("Jeanne"))

    with Session(db_engine) as s:
        rows = {r.no: r for r in s.exec(select(m.SaleRow).where(m.SaleRow.evening_id == eid))}
        award = s.exec(select(m.AwardRow).where(m.AwardRow.evening_id == eid)).one()
    assert (rows[1].status, rows[1].method, rows[1].seller, rows[1].amount_cents) == (
        "paid",
        "card",
        "Marie",
        1500,
    )
    assert (rows[2].status, rows[2].method, rows[2].cashier) == ("paid", "transfer", "Jeanne")
    assert rows[2].settled_at is not None and rows[2].purchase_no > 0
    assert (rows[3].status, rows[3].cancel_reason, rows[3].refunded_cents) == (
        "cancelled",
        "Doublon",
        0,
    )
    assert award.handed_over and award.handed_by == "Paul" and award.handed_at is not None

    again, _, _ = store.load(eid)
    assert again.fingerprint() == lv.evening.fingerprint()
    assert again.till_closed_by == "Jeanne" and again.handed_over == {ticket: "Paul"}
    assert store.verify_audit(eid) == []
