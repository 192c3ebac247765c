"""Durable storage: every change is committed before it is returned, and an evening reloaded
from the database is exactly the evening that was played. Moves go through the production path
(the registry's group-commit writer, `live_driver`)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.errors import LotoError
from loto_app.domain.program import DrawSource, Kind, Settings, demo_program
from loto_app.domain.verdicts import Verdict, judge
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.storage import models as m
from loto_app.storage import projections
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

PLAYERS = ("ana", "bob", "chloe", "dede")


def program():
    p = demo_program("S1")
    return type(p)(
        p.series, p.games[:2], Settings(DrawSource.ELECTRONIC, False, last_call_seconds=0)
    )


def next_move(e: Evening, i: int) -> Callable[[Evening], list]:
    """A deterministic bot playing the animateur and the players, one move per call."""
    rng = random.Random(1000 + i)
    if not e.players:
        return lambda ev: ev.join("ana", "Ana")
    missing = [p for p in PLAYERS if p not in e.players]
    if missing:
        return lambda ev: ev.join(missing[0], missing[0].title())
    unsold = [p for p in PLAYERS if not e.player_cartons(p)]
    if unsold:
        return lambda ev: ev.sell(unsold[0], Kind.CLASSIQUE, 3, rng=rng)
    g = e.game
    if e.is_over:
        return lambda ev: []
    if g is None or g.status is GameStatus.FINISHED:
        seed = hashlib.sha256(f"game at step {i}".encode()).digest()  # (the reference's too)
        return lambda ev: ev.start_game(seed)
    if g.status is GameStatus.AWAITING_UNMARK:
        return lambda ev: ev.allow_unmark()
    entries = g.entries()
    if len(entries) > 1 and g.tie.broken is None:
        return lambda ev: ev.break_tie_by_draw(rng)
    claimed = {(c.carton_no, c.number) for c in g.claims}
    for p in PLAYERS:
        for c in e.player_cartons(p):
            if (c.no, g.last) in claimed or not e.plays(c.no, g):
                continue
            if (
                g.last is not None
                and judge(g.stage_spec.pattern, [c.carton], g.drawn).verdict == Verdict.VALID
            ):
                return lambda ev, p=p, c=c: ev.claim(p, c.no)
            for n in sorted(c.carton.numbers & set(g.drawn) - g.marks.get(c.no, set())):
                return lambda ev, p=p, c=c, n=n: ev.toggle_mark(p, c.no, n)
    if entries:
        return lambda ev: ev.award()
    return lambda ev: ev.draw(rng)


def play(target, steps: range, apply: Callable) -> None:
    for i in steps:
        apply(next_move(target(), i))


def reference(n: int, code: str) -> Evening:
    e = Evening(program(), b"", code)
    play(lambda: e, range(n), lambda move: move(e))
    return e


TOTAL = 400


def test_half_a_game_dropped_and_reloaded_from_the_file_finishes_the_same(db_engine, drivers):
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto du foot", program())
    first = drivers(store)
    live = first.on(creds.evening_id)
    half = 120
    play(lambda: live.evening, range(half), live.run)
    assert live.evening.game is not None and live.evening.game.drawn
    first.close()
    url = db_engine.url
    del live, store
    db_engine.dispose()

    engine = make_engine(url.render_as_string(hide_password=False))
    store = EveningStore(engine)
    driver = drivers(store)
    live = driver.on(creds.evening_id)
    play(lambda: live.evening, range(half, TOTAL), live.run)
    ref = reference(TOTAL, creds.join_code)
    assert live.evening.fingerprint() == ref.fingerprint()
    assert [a.tickets for g in live.evening.games for a in g.awards] == [
        a.tickets for g in ref.games for a in g.awards
    ]
    assert sum(len(g.awards) for g in ref.games) >= 3  # the run went well into the evening
    check_projections(store, creds.evening_id, live.evening)
    assert store.verify_audit(creds.evening_id) == []
    engine.dispose()


def check_projections(store: EveningStore, evening_id: int, e: Evening) -> None:
    """The query tables say what the engine says."""
    with Session(store.engine) as s:

        def rows(model):
            return s.exec(select(model).where(model.evening_id == evening_id)).all()

        assert {r.player_id for r in rows(m.PlayerRow)} == set(e.players)
        assert {r.no: r.grid for r in rows(m.CartonRow)} == {
            n: c.carton.to_rows() for n, c in e.cartons.items()
        }
        assert {r.no: r.carton_nos for r in rows(m.PurchaseRow)} == {
            p.no: list(p.carton_nos) for p in e.purchases
        }
        for g in e.games:
            draws = sorted((r.seq, r.number) for r in rows(m.DrawRow) if r.game_idx == g.index)
            assert [n for _, n in draws] == g.drawn
            claims = [
                (r.no, r.verdict, r.number) for r in rows(m.ClaimRow) if r.game_idx == g.index
            ]
            assert sorted(claims) == [(c.claim_no, c.verdict, c.number) for c in g.claims]
            marks = {(r.carton_no, r.number) for r in rows(m.MarkRow) if r.game_idx == g.index}
            assert marks == {(n, x) for n, xs in g.marks.items() for x in xs}
            game_row = s.get(m.GameRow, (evening_id, g.index))
            assert game_row.status == g.status.value
        tickets = sorted((r.ticket_no, r.player_id, r.share) for r in rows(m.AwardRow))
        assert tickets == [t for g in e.games for a in g.awards for t in a.tickets]


def test_a_move_that_cannot_be_committed_is_undone(db_engine, drivers):
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto", program())
    live = drivers(store).on(creds.evening_id)
    live.run(lambda e: e.join("ana", "Ana"))
    before = live.evening.fingerprint()

    def broken(_session):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        live.run(lambda e: e.join("bob", "Bob"), extra=broken)
    assert live.evening.fingerprint() == before
    assert LiveEvening(store, creds.evening_id).evening.fingerprint() == before


def test_illegal_move_changes_nothing_in_the_database(db_engine, drivers):
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto", program())
    live = drivers(store).on(creds.evening_id)
    live.run(lambda e: e.join("ana", "Ana"))
    seq = live.seq
    with pytest.raises(LotoError):
        live.run(lambda e: e.draw())
    assert live.seq == seq
    assert LiveEvening(store, creds.evening_id).seq == seq


def test_two_processes_on_one_database_stay_in_step(db_engine, drivers):
    store_a, store_b = EveningStore(db_engine), EveningStore(db_engine)
    creds = store_a.create_evening("Loto", program())
    a = drivers(store_a).on(creds.evening_id)  # two processes: two registries
    b = drivers(store_b).on(creds.evening_id)
    a.run(lambda e: e.join("ana", "Ana"))
    b.run(lambda e: e.join("bob", "Bob"))  # b first catches up with ana
    a.run(lambda e: e.start_game())
    assert a.evening.fingerprint() != b.evening.fingerprint()
    b.catch_up()
    assert a.evening.fingerprint() == b.evening.fingerprint()
    (drawn,) = b.run(lambda e: e.draw())  # b holds the committed seed a sealed
    assert drawn.number == a.evening.committed_order(a.evening.game)[0]
    assert store_a.verify_audit(creds.evening_id) == []


def test_player_identity_is_a_server_issued_secret(db_engine, drivers):
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto", program())
    pid, secret = drivers(store).join(creds.evening_id, "Mamie Jo")
    # the process's one store of credential checks (live/runtime/identity.py `access`)
    access = AccessStore(store.engine)
    assert access.known_player(creds.evening_id, secret) is None  # (not seen by this store)
    assert access.player_for_secret(creds.evening_id, secret) == pid  # (from the database)
    assert access.known_player(creds.evening_id, secret) == pid  # kept: no read next time
    assert access.player_for_secret(creds.evening_id, secret + "x") is None
    assert access.known_player(creds.evening_id, secret + "x") is None  # (never kept)
    with Session(store.engine) as s:
        stored = s.exec(select(m.PlayerRow.secret_hash)).all()
    assert secret not in stored  # only a digest is kept
    assert store.evening_id_for_code(creds.join_code.lower()) == creds.evening_id
    assert access.check_animateur(creds.evening_id, creds.animateur_secret)
    assert not access.check_animateur(creds.evening_id, "guess")
    renewed = access.reset_animateur_secret(creds.evening_id)
    assert access.check_animateur(creds.evening_id, renewed)
    assert not access.check_animateur(creds.evening_id, creds.animateur_secret), "old one revoked"


def test_joiners_secrets_are_committed_with_their_joins_in_one_batch(db_engine, drivers):
    """A burst of joins is one transaction: each joiner's digest goes with their row, and the
    log's rows (one Core statement) keep their chain."""
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto", program())
    d = drivers(store)
    seq0 = d.live(creds.evening_id).seq

    async def burst() -> list[tuple[str, str]]:
        joins = (d.registry.join(creds.evening_id, f"Joueur {i}") for i in range(12))
        return list(await asyncio.gather(*joins))

    joined = d.call(burst())
    assert d.live(creds.evening_id).seq == seq0 + 12
    access = AccessStore(store.engine)
    for pid, secret in joined:
        assert access.player_for_secret(creds.evening_id, secret) == pid
    assert len({secret for _, secret in joined}) == 12

    # The join's row already written when its digest is (a projection's statement writes the
    # rows added before it): the digest is then an UPDATE of that row.
    live = d.live(creds.evening_id)
    writer = store.player_secret_writer(creds.evening_id, "zoe", "secret-de-zoe")
    _, events, extra = live.apply_batch([(lambda e: e.join("zoe", "Zoé"), writer)])
    assert extra is not None

    def flushed_first(s: Session) -> None:
        projections.flush(s)
        assert projections.pending_rows(s, m.PlayerRow) == []
        extra(s)

    assert live.commit_batch(events, flushed_first)
    assert access.player_for_secret(creds.evening_id, "secret-de-zoe") == "zoe"
    assert access.player_for_secret(creds.evening_id, "secret-de-zo") is None
    assert store.verify_audit(creds.evening_id) == []
    assert LiveEvening(store, creds.evening_id).evening.fingerprint() == live.evening.fingerprint()


def test_tampering_with_the_audit_log_is_detected(db_engine, drivers):
    store = EveningStore(db_engine)
    creds = store.create_evening("Loto", program())
    live = drivers(store).on(creds.evening_id)
    play(lambda: live.evening, range(40), live.run)
    assert store.verify_audit(creds.evening_id) == []
    with Session(store.engine) as s:
        row = s.exec(
            select(m.AuditRow).where(m.AuditRow.type == "number_drawn").order_by(m.AuditRow.seq)
        ).first()
        payload = dict(row.payload)
        payload["number"] = payload["number"] % 90 + 1
        s.exec(sa.update(m.AuditRow).where(m.AuditRow.id == row.id).values(payload=payload))
        s.commit()
        seq = row.seq
    problems = store.verify_audit(creds.evening_id)
    assert problems == [f"entry {seq}: content does not match its hash"]


def test_rows_added_and_changed_in_one_transaction_are_written_before_the_change(
    db_engine, drivers
):
    """A batch whose second move changes a row its first one added (an order, then its payment
    at the desk): the new row is written before the UPDATE, which finds it."""
    store = EveningStore(db_engine)
    eid = store.create_evening("Loto", program()).evening_id
    d = drivers(store)
    d.call(d.registry.join(eid, "Ana"))
    live = d.live(eid)
    (ana,) = live.evening.players
    sale_no = len(live.evening.sales) + 1
    rng = random.Random(2)
    results, events, extra = live.apply_batch(
        [
            (lambda e: e.order(ana, 0), None),
            (lambda e: e.confirm_payment(sale_no, "transfer", "Jeanne", rng), None),
        ]
    )
    assert all(isinstance(r, list) and r for r in results), results
    assert live.commit_batch(events, extra)
    with Session(db_engine) as s:
        sale = s.exec(select(m.SaleRow).where(m.SaleRow.evening_id == eid)).one()
        assert (sale.no, sale.status, sale.method) == (sale_no, "paid", "transfer")
        assert sale.settled_at is not None
    check_projections(store, eid, live.evening)
    assert LiveEvening(store, eid).evening.fingerprint() == live.evening.fingerprint()
