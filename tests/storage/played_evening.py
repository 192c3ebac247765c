"""A played evening committed to a database, shared by the backup and evening-file tests."""

from __future__ import annotations

import dataclasses

import sqlalchemy as sa
from evening_scenario import EVENING_DATE, EVENING_NAME, find_seed, play_evening, program
from live_driver import Driver
from sqlmodel import SQLModel

from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


@dataclasses.dataclass
class Evening:
    url: str
    store: EveningStore
    evening_id: int
    code: str
    animateur: str
    organiser: str
    cashier: str
    player_id: str
    player_secret: str


def play(url: str) -> Evening:
    """The records' scripted evening (sales, refunds, a paper player, a tie, awards, a lot
    handed over, the till closed) plus a phone player with a secret and a caissier."""
    upgrade(url)
    store = EveningStore(make_engine(url))
    creds = store.create_evening(EVENING_NAME, program(), date=EVENING_DATE)
    cashier = AccessStore(store.engine).add_staff(creds.evening_id, "Jeanne", "caissier")
    with Driver(store) as driver:  # the production path: the registry's writer
        live = driver.on(creds.evening_id)
        play_evening(live.run, lambda: live.evening, find_seed())
        pid, secret = live.join("Zoé")
    return Evening(
        url,
        store,
        creds.evening_id,
        creds.join_code,
        creds.animateur_secret,
        creds.organiser_secret,
        cashier,
        pid,
        secret,
    )


def wipe(url: str) -> None:
    """Drop every table, then migrate again: an empty database."""
    engine = make_engine(url)
    SQLModel.metadata.drop_all(engine)
    with engine.begin() as c:
        c.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    upgrade(url)


def same(report):
    """The report without the database's own evening id."""
    return dataclasses.replace(report, evening_id=0)
