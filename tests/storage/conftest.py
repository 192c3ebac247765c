"""Fixtures: fresh, migrated databases (a SQLite file, and a new PostgreSQL database)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade

PG_ADMIN_URL = os.environ.get("LOTO_TEST_PG_URL", "postgresql+psycopg://root@127.0.0.1:5432/test")


def _pg_admin() -> sa.Engine:
    engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as c:
            c.execute(sa.text("select 1"))
    except sa.exc.OperationalError as exc:
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN_URL}: {exc.orig}")
    return engine


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """An empty SQLite file."""
    return f"sqlite:///{tmp_path / 'loto.db'}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new, empty PostgreSQL database on the local server, dropped afterwards."""
    admin = _pg_admin()
    name = f"loto_test_{uuid.uuid4().hex[:10]}"
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    try:
        yield url
    finally:
        sa.create_engine(url).dispose()
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_engine(request) -> Iterator[sa.Engine]:
    """A migrated database of each kind."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    upgrade(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()
