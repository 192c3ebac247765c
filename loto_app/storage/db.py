"""Where the database is, and how to connect to it.

The embedded default is a SQLite file (`loto.db` in the working directory); `LOTO_DB_URL`
switches to another database, e.g. `postgresql://root@127.0.0.1:5432/test`.
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

DEFAULT_URL = "sqlite:///loto.db"


def database_url() -> str:
    """The configured database URL, normalised for the installed drivers (psycopg 3)."""
    url = os.environ.get("LOTO_DB_URL") or os.environ.get("REFLEX_DB_URL") or DEFAULT_URL
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str | None = None) -> Engine:
    """An SQLAlchemy engine; SQLite gets WAL, foreign keys and a busy timeout."""
    url = url or database_url()
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - driver hook
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True)
