"""Alembic owns the schema: the same tables on an empty SQLite file and an empty PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from loto_app.storage import models  # noqa: F401
from loto_app.storage.migrations import upgrade

EXPECTED_TABLES = {
    "evening",
    "invitation",
    "series",
    "player",
    "carton",
    "purchase",
    "game",
    "stage",
    "draw",
    "mark",
    "claim",
    "tie_break",
    "award",
    "sale",
    "staff",
    "audit_log",
    "picture",
    "draw_seed",
}


def _schema(url: str) -> dict[str, dict]:
    engine = sa.create_engine(url)
    try:
        insp = sa.inspect(engine)
        out = {}
        for table in insp.get_table_names():
            if table == "alembic_version":
                continue
            cols = {
                c["name"]: (
                    type(c["type"]).__name__.lower() in ("integer", "biginteger"),
                    c["nullable"],
                )
                for c in insp.get_columns(table)
            }
            pk = tuple(insp.get_pk_constraint(table)["constrained_columns"])
            uniques = sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table))
            uniques += sorted(
                tuple(i["column_names"]) for i in insp.get_indexes(table) if i["unique"]
            )
            fks = sorted(
                (tuple(f["constrained_columns"]), f["referred_table"])
                for f in insp.get_foreign_keys(table)
            )
            out[table] = {"columns": cols, "pk": pk, "unique": sorted(set(uniques)), "fks": fks}
        return out
    finally:
        engine.dispose()


def _diff_with_models(url: str) -> list:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    finally:
        engine.dispose()


def test_migrating_empty_sqlite_and_postgresql_gives_the_same_tables(sqlite_url, pg_url):
    upgrade(sqlite_url)
    upgrade(pg_url)
    lite, pg = _schema(sqlite_url), _schema(pg_url)
    assert set(lite) == EXPECTED_TABLES
    assert lite == pg


def test_migrations_match_the_models(sqlite_url, pg_url):
    upgrade(sqlite_url)
    upgrade(pg_url)
    assert _diff_with_models(sqlite_url) == []
    assert _diff_with_models(pg_url) == []


def test_migrating_twice_is_harmless(sqlite_url):
    upgrade(sqlite_url)
    upgrade(sqlite_url)
    assert set(_schema(sqlite_url)) == EXPECTED_TABLES
