"""Fixtures: one evening played through the registry and committed to a SQLite file, shared by
the records tests (they only read it). (The Hypothesis profiles are tests/conftest.py's.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from evening_scenario import EVENING_DATE, EVENING_NAME, Played, find_seed, play_evening, program
from live_driver import Driver

from loto_app.records.report import build_report
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """The scripted evening (see `evening_scenario`), committed to SQLite, and its report."""
    url = f"sqlite:///{tmp_path_factory.mktemp('records') / 'loto.db'}"
    upgrade(url)
    engine = make_engine(url)
    store = EveningStore(engine)
    creds = store.create_evening(EVENING_NAME, program(), date=EVENING_DATE)
    with Driver(store) as driver:  # the production path: the registry's writer
        bound = driver.on(creds.evening_id)
        info = play_evening(bound.run, lambda: bound.evening, find_seed())
        live = bound.live
    yield Played(store, creds.evening_id, live, info, build_report(store, creds.evening_id))
    engine.dispose()
