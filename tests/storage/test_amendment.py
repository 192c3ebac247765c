"""An amended program in the database: the log replays it, the query tables and the
report follow it, a reload and another worker's registry see it."""

from __future__ import annotations

import dataclasses
import random

import pytest
from sqlmodel import Session, select

from loto_app.domain.engine import Evening
from loto_app.domain.errors import AmendmentRefused
from loto_app.domain.program import DrawSource, Kind, Lot, Offer, Program, demo_program
from loto_app.records.report import build_report
from loto_app.storage import models as m
from loto_app.storage.repository import EveningStore


def relot(program: Program, i: int, description: str) -> Program:
    g = program.games[i]
    first = dataclasses.replace(g.stages[0], lot=Lot(description, 4200))
    games = list(program.games)
    games[i] = dataclasses.replace(g, stages=(first, *g.stages[1:]))
    return dataclasses.replace(program, games=tuple(games))


def test_an_amended_game_is_played_projected_and_reported_as_amended(db_engine, drivers):
    store = EveningStore(db_engine)
    base = demo_program("AM").with_settings(draw_source=DrawSource.PHYSICAL)
    creds = store.create_evening("Loto amendé", base)
    eid = creds.evening_id
    live = drivers(store).on(eid)
    pid, _ = live.join("Paul", "hall")
    live.run(lambda e: e.sell(pid, Kind.CLASSIQUE, 1, rng=random.Random(3)))
    live.run(lambda e: e.desk_sale(pid, 0, "cash", "Alice"))
    live.run(lambda e: e.start_game())
    live.run(lambda e: e.enter_ball(7))

    amended = relot(live.evening.program, 1, "Cafetière")
    amended = dataclasses.replace(
        amended, offers=(Offer(Kind.CLASSIQUE, 1, 350), *amended.offers[1:])
    )
    live.run(lambda e: e.amend_program(amended, "organisateur"))
    with pytest.raises(AmendmentRefused):
        live.run(lambda e: e.amend_program(relot(e.program, 0, "Non"), "organisateur"))
    assert store.current_program(eid) == amended

    # another worker (a fresh registry on the same database) replays the amendment
    other = drivers(EveningStore(db_engine)).on(eid)
    assert other.evening.program == amended
    loaded, _, _ = store.load(eid)
    assert loaded.fingerprint() == live.evening.fingerprint()

    for n in range(1, 91):
        if n != 7:
            live.run(lambda e, n=n: e.enter_ball(n))
    live.run(lambda e: e.allow_unmark())
    # game 2 started by the other worker: its projection reads the amended lots
    other.run(lambda e: e.start_game())
    with Session(db_engine) as s:
        lots = s.exec(
            select(m.StageRow.lot_description)
            .where(m.StageRow.evening_id == eid, m.StageRow.game_idx == 1)
            .order_by(m.StageRow.idx)
        ).all()
    assert lots[0] == "Cafetière"

    report = build_report(store, eid)
    assert report.games[1].stages[0].lot == "Cafetière"
    assert report.games[0].stages[0].lot == base.games[0].stages[0].lot.description
    assert [s.amount_cents for s in report.sales] == [300]  # sold before: its price
    assert not report.audit.problems and not report.audit.consistency
    assert Evening.replay(base, loaded.history).program == amended
