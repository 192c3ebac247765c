"""Backups of the whole database, and putting one back.

- SQLite: `backup` copies the live file with SQLite's online backup API (a consistent copy,
  even while the app is writing; no need to stop it), to `FILE.part`, then renames it.
  `restore` checks that the file is a SQLite database of this app (`alembic_version` present,
  `PRAGMA integrity_check` ok) and copies it over the configured database with the same API.
- PostgreSQL: with `pg_dump`/`pg_restore` on PATH, their custom format (`pg_dump -Fc`, restored
  with `--clean --if-exists --single-transaction`); without them, or with `logical=True`, a
  logical export this module writes and reads: every table of the schema, row by row, as gzipped
  JSON Lines (`{"format": "loto-backup", ...}`, then `{"table": ..., "row": {...}}`), put back
  in one transaction after emptying the tables, the identity sequences moved past the rows.
  The logical format also restores into SQLite (and a SQLite database's logical export into
  PostgreSQL): a way to move from the laptop to a server.

Stop the app before a restore: a running app keeps evenings in memory and would not see it.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url
from sqlmodel import SQLModel

from loto_app.storage import models  # noqa: F401 - registers the tables on SQLModel.metadata
from loto_app.storage.db import database_url, make_engine

LOGICAL_FORMAT = "loto-backup"
LOGICAL_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
GZIP_MAGIC = b"\x1f\x8b"


class BackupError(RuntimeError):
    """A backup or a restore that cannot be done (the message says why, in English)."""


@dataclass(frozen=True, slots=True)
class Done:
    """What a backup or restore did."""

    method: str  # "sqlite" | "pg_dump" | "logical"
    path: Path
    rows: int = -1  # rows written or read (logical), -1 when the tool does not say


# ---------------------------------------------------------------------- helpers


def _sqlite_path(url: str) -> Path:
    db = make_url(url).database
    if not db or db == ":memory:":
        raise BackupError(f"{url}: not a SQLite file")
    return Path(db)


def _libpq_url(url: str) -> str:
    """The URL as libpq (pg_dump, pg_restore) reads it: no SQLAlchemy driver suffix."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _tools() -> bool:
    return bool(shutil.which("pg_dump") and shutil.which("pg_restore"))


def _kind(path: Path) -> str:
    with path.open("rb") as f:
        head = f.read(16)
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "pg_dump"
    if head.startswith(GZIP_MAGIC):
        return "logical"
    raise BackupError(f"{path}: not a Loto backup (neither SQLite, pg_dump nor logical)")


def _run(cmd: list[str]) -> None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False)
    except OSError as exc:
        raise BackupError(f"{cmd[0]}: {exc}") from exc
    if out.returncode != 0:
        raise BackupError(f"{cmd[0]} failed ({out.returncode}): {out.stderr.strip()[-2000:]}")


# ---------------------------------------------------------------------- SQLite


def sqlite_backup(src: Path, dest: Path) -> None:
    """Online backup of a SQLite file (consistent while others write)."""
    if not src.exists():
        raise BackupError(f"{src}: no such database file")
    tmp = dest.with_name(dest.name + ".part")
    tmp.unlink(missing_ok=True)
    with (
        contextlib.closing(sqlite3.connect(src)) as a,
        contextlib.closing(sqlite3.connect(tmp)) as b,
    ):
        a.backup(b)
    tmp.replace(dest)


def check_sqlite_backup(path: Path) -> None:
    """Raises BackupError unless `path` is an intact SQLite database of this app."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as c:
        try:
            ok = c.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path}: {exc}") from exc
    if ok != "ok":
        raise BackupError(f"{path}: integrity check failed ({ok})")
    missing = {"alembic_version", "evening", "audit_log"} - tables
    if missing:
        raise BackupError(f"{path}: not a Loto database (no {', '.join(sorted(missing))})")


def sqlite_restore(src: Path, dest: Path) -> None:
    """Copy a checked SQLite backup over the database file `dest` (online backup API)."""
    check_sqlite_backup(src)
    with (
        contextlib.closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True)) as a,
        contextlib.closing(sqlite3.connect(dest)) as b,
    ):
        a.backup(b)


# ---------------------------------------------------------------------- logical


def _tables() -> list[sa.Table]:
    """The app's tables, parents before children (foreign keys)."""
    return list(SQLModel.metadata.sorted_tables)


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, date):
        return {"$date": value.isoformat()}
    if isinstance(value, bytes):
        return {"$b64": base64.b64encode(value).decode()}
    return value


def _decode(value: Any, column: sa.Column) -> Any:
    if isinstance(value, dict) and len(value) == 1 and not isinstance(column.type, sa.JSON):
        ((tag, text),) = value.items()
        if tag == "$dt":
            return datetime.fromisoformat(text)
        if tag == "$date":
            return date.fromisoformat(text)
        if tag == "$b64":
            return base64.b64decode(text)
    return value


def _alembic_version(conn: sa.Connection) -> str:
    try:
        return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() or ""
    except sa.exc.DBAPIError:
        return ""


def logical_lines(engine: Engine) -> Iterator[dict[str, Any]]:
    """The logical export's objects: the header, then every row of every table."""
    with engine.connect() as conn, conn.begin():  # one snapshot (PostgreSQL: one transaction)
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
        tables = _tables()
        yield {
            "format": LOGICAL_FORMAT,
            "version": LOGICAL_VERSION,
            "schema": _alembic_version(conn),
            "tables": [t.name for t in tables],
            "from": engine.dialect.name,
        }
        for t in tables:
            pk = list(t.primary_key.columns)
            for row in conn.execute(sa.select(t).order_by(*pk)).mappings():
                yield {"table": t.name, "row": {k: _encode(v) for k, v in row.items()}}


def logical_backup(engine: Engine, dest: Path) -> int:
    """Write the logical export to `dest` (gzip, atomically); returns the rows written."""
    tmp = dest.with_name(dest.name + ".part")
    n = 0
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        for obj in logical_lines(engine):
            f.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
            n += "row" in obj
    tmp.replace(dest)
    return n


def logical_restore(engine: Engine, src: Path) -> int:
    """Empty every table and load the logical export's rows (one transaction); returns the
    rows read.

    Raises:
        BackupError: not a logical export, another schema version, an unknown table or column.
    """
    from loto_app.storage.migrations import upgrade

    with gzip.open(src, "rt", encoding="utf-8") as f:
        try:
            header = json.loads(f.readline())
        except (json.JSONDecodeError, OSError, EOFError) as exc:
            raise BackupError(f"{src}: not a logical backup ({exc})") from exc
        if header.get("format") != LOGICAL_FORMAT or header.get("version") != LOGICAL_VERSION:
            raise BackupError(f"{src}: not a logical backup of this app version")
        upgrade(engine.url.render_as_string(hide_password=False))
        with engine.connect() as conn:
            here = _alembic_version(conn)
        if header.get("schema") != here:
            raise BackupError(
                f"{src}: schema {header.get('schema')!r}, this database is at {here!r}"
            )
        tables = {t.name: t for t in _tables()}
        n = 0
        with engine.begin() as conn:
            for t in reversed(list(tables.values())):
                conn.execute(t.delete())
            batch: list[dict[str, Any]] = []
            current: sa.Table | None = None
            for no, line in enumerate(f, start=2):
                obj = json.loads(line)
                t = tables.get(obj.get("table"))
                if t is None:
                    raise BackupError(f"{src}: line {no}: unknown table {obj.get('table')!r}")
                if current is not t and batch:
                    conn.execute(current.insert(), batch)  # type: ignore[union-attr]
                    batch = []
                current = t
                row = obj["row"]
                unknown = set(row) - set(t.columns.keys())
                if unknown:
                    raise BackupError(f"{src}: line {no}: unknown columns {sorted(unknown)}")
                batch.append({k: _decode(v, t.columns[k]) for k, v in row.items()})
                n += 1
                if len(batch) >= 1000:
                    conn.execute(t.insert(), batch)
                    batch = []
            if batch and current is not None:
                conn.execute(current.insert(), batch)
            if engine.dialect.name == "postgresql":
                _reset_sequences(conn, tables.values())
    return n


def _reset_sequences(conn: sa.Connection, tables: Any) -> None:
    """PostgreSQL: move each serial key's sequence past the rows just loaded."""
    for t in tables:
        for c in t.primary_key.columns:
            if c.autoincrement is True or (
                c.autoincrement == "auto"
                and isinstance(c.type, sa.Integer)
                and len(t.primary_key.columns) == 1
            ):
                seq = conn.execute(
                    sa.text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": t.name, "c": c.name}
                ).scalar()
                if seq:
                    conn.execute(
                        sa.text(
                            f'SELECT setval(:s, COALESCE((SELECT MAX("{c.name}") FROM '
                            f'"{t.name}"), 0) + 1, false)'
                        ),
                        {"s": seq},
                    )


# ---------------------------------------------------------------------- the commands


def backup(dest: Path, url: str | None = None, *, logical: bool = False) -> Done:
    """Back the configured database (LOTO_DB_URL) up to `dest`."""
    url = url or database_url()
    dest = Path(dest)
    if url.startswith("sqlite") and not logical:
        sqlite_backup(_sqlite_path(url), dest)
        return Done("sqlite", dest)
    if url.startswith("postgresql") and not logical and _tools():
        tmp = dest.with_name(dest.name + ".part")
        _run(["pg_dump", "-Fc", "--no-owner", "--no-privileges", "-f", str(tmp), _libpq_url(url)])
        tmp.replace(dest)
        return Done("pg_dump", dest)
    engine = make_engine(url)
    try:
        return Done("logical", dest, logical_backup(engine, dest))
    finally:
        engine.dispose()


def restore(src: Path, url: str | None = None) -> Done:
    """Put a backup back into the configured database (its format is read from the file)."""
    url = url or database_url()
    src = Path(src)
    if not src.is_file():
        raise BackupError(f"{src}: no such file")
    kind = _kind(src)
    if kind == "sqlite":
        if not url.startswith("sqlite"):
            raise BackupError(
                f"{src} is a SQLite file: restore it into SQLite, or use a logical "
                "backup (backup --logical) to move to PostgreSQL"
            )
        sqlite_restore(src, _sqlite_path(url))
        return Done("sqlite", src)
    if kind == "pg_dump":
        if not url.startswith("postgresql"):
            raise BackupError(f"{src} is a pg_dump file: restore it into PostgreSQL")
        if not _tools():
            raise BackupError("pg_restore is not on PATH")
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "-d",
                _libpq_url(url),
                str(src),
            ]
        )
        return Done("pg_dump", src)
    engine = make_engine(url)
    try:
        return Done("logical", src, logical_restore(engine, src))
    finally:
        engine.dispose()
