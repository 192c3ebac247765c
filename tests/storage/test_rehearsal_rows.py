"""A rehearsal: a copy of an evening played apart, then deleted whole; the real evening's rows
(its log above all) are the same, byte for byte, before and after (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random

import pytest
import sqlalchemy as sa
from live_driver import Driver
from sqlmodel import SQLModel

from loto_app.domain.program import demo_program
from loto_app.images import Picture
from loto_app.storage import pictures
from loto_app.storage import rehearsal as rh
from loto_app.storage.access import AccessStore
from loto_app.storage.repository import EveningStore

PHOTO = Picture(b"RIFF-photo", 8, 8, "a" * 64)
LOGO = Picture(b"RIFF-logo", 8, 8, "b" * 64)


def _tables() -> list[sa.Table]:
    return [t for t in SQLModel.metadata.sorted_tables if "evening_id" in t.c]


def rows_of(store: EveningStore, evening_id: int) -> str:
    """Every row of an evening (its own row, its log, its projections), serialized."""
    out: dict[str, list] = {}
    with store.engine.connect() as c:
        evening = SQLModel.metadata.tables["evening"]
        out["evening"] = [
            dict(r._mapping)
            for r in c.execute(sa.select(evening).where(evening.c.id == evening_id))
        ]
        for t in _tables():
            order = list(t.primary_key.columns)
            q = sa.select(t).where(t.c.evening_id == evening_id).order_by(*order)
            out[t.name] = [dict(r._mapping) for r in c.execute(q)]
    return json.dumps(out, default=repr, sort_keys=True)


def count_rows(store: EveningStore, evening_id: int) -> int:
    with store.engine.connect() as c:
        n = sum(
            c.execute(
                sa.select(sa.func.count()).select_from(t).where(t.c.evening_id == evening_id)
            ).scalar_one()
            for t in _tables()
        )
        evening = SQLModel.metadata.tables["evening"]
        return (
            n
            + c.execute(
                sa.select(sa.func.count()).select_from(evening).where(evening.c.id == evening_id)
            ).scalar_one()
        )


@pytest.fixture
def real(db_engine):
    """A real evening under way: a desk member, a lot's photo, a partner, players, a sale."""
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto du club", demo_program(), date="2026-12-24")
    secret = AccessStore(db_engine).add_staff(creds.evening_id, "Marie", "vendeur")
    lot = demo_program().games[0].stages[0].lot.description
    rng = random.Random(7)
    with Driver(store) as d:
        live = d.on(creds.evening_id)
        live.run(
            lambda e: e.set_lot_photo(lot, PHOTO.digest), pictures.writer(creds.evening_id, PHOTO)
        )
        live.run(
            lambda e: e.add_partner("Boulangerie", LOGO.digest),
            pictures.writer(creds.evening_id, LOGO),
        )
        pid, _ = live.join("Ana")
        live.run(lambda e: e.desk_sale(pid, 0, "cash", "Marie", rng=rng))
        live.run(lambda e: e.start_game())
        live.run(lambda e: e.draw())
    return store, creds, secret


def test_a_whole_rehearsal_leaves_the_real_evening_byte_for_byte(real):
    store, creds, marie = real
    eid = creds.evening_id
    before = rows_of(store, eid)
    copy = rh.create(store, eid)
    rid = copy.evening_id
    assert rid != eid and copy.join_code != creds.join_code
    assert store.rehearsal_of(rid) == eid and store.rehearsal_of(eid) is None
    assert rh.find(store, eid) == rh.Rehearsal(
        rid, "Répétition — Loto du club", copy.join_code, rh.find(store, eid).created_at
    )
    assert store.current_program(rid) == store.current_program(eid)
    access = AccessStore(store.engine)
    # its own animateur secret; the desk's members sign in with their own secret and its code
    assert access.check_animateur(rid, copy.animateur_secret)
    assert not access.check_animateur(eid, copy.animateur_secret)
    assert not access.check_animateur(rid, creds.animateur_secret)
    assert access.staff_for_secret(rid, marie).name == "Marie"
    with Driver(store) as d:
        rehearsal = d.on(rid)
        shown = rehearsal.evening
        assert list(shown.lot_photos.values()) == [PHOTO.digest]
        assert shown.partners == [("Boulangerie", LOGO.digest)]
        assert not shown.players and not shown.sales and shown.game is None
        assert pictures.count(store.engine, rid) == 2
        # the volunteers play: joins, sales, draws, a claim
        rng = random.Random(3)
        pid, _ = rehearsal.join("Testeur")
        rehearsal.run(lambda e: e.desk_sale(pid, 0, "cash", "Marie", rng=rng))
        rehearsal.run(lambda e: e.start_game())
        for _ in range(5):
            rehearsal.run(lambda e: e.draw())
        no = rehearsal.evening.player_cartons(pid)[0].no
        rehearsal.run(lambda e: e.claim(pid, no))
        assert rehearsal.evening.game.claims
        assert rows_of(store, eid) == before
        # one rehearsal at a time, and none of a rehearsal
        with pytest.raises(rh.RehearsalError) as twice:
            rh.create(store, eid)
        assert twice.value.user_message == rh.ALREADY
        with pytest.raises(rh.RehearsalError) as of_one:
            rh.create(store, rid)
        assert of_one.value.user_message == rh.OF_A_REHEARSAL
    assert count_rows(store, rid) > 20
    assert rh.delete(store, eid) == rid
    assert count_rows(store, rid) == 0
    assert rh.find(store, eid) is None
    assert store.evening_id_for_code(copy.join_code) is None
    assert rows_of(store, eid) == before
    assert store.verify_audit(eid) == []
    assert rh.delete(store, eid) is None  # (nothing left: nothing done)
    # and a new one may be made
    again = rh.create(store, eid)
    assert rh.find(store, eid).evening_id == again.evening_id
    assert rows_of(store, eid) == before


def test_an_evening_with_no_pictures_nor_staff_is_copied_too(db_engine):
    store = EveningStore(db_engine)
    creds = store.create_evening("Petit loto", demo_program())
    copy = rh.create(store, creds.evening_id)
    evening, seq, _ = store.load(copy.evening_id)
    assert seq == 0 and evening.program == demo_program()
    assert AccessStore(db_engine).staff(copy.evening_id) == []
