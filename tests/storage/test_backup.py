"""Backups of the whole database: back up, change or lose the database, restore; the evenings
are exactly as they were backed up, the journals verify, and new writes go on."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from live_driver import Driver
from played_evening import play, same, wipe

from loto_app.domain.program import demo_program
from loto_app.records.report import build_report
from loto_app.storage import backup as backups
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

REPO = Path(__file__).resolve().parents[2]


def reports(url: str) -> dict[str, object]:
    """Every evening's report, by join code (ids are kept by a whole-database restore)."""
    store = EveningStore(make_engine(url))
    try:
        from sqlmodel import Session, select

        from loto_app.storage import models as m

        with Session(store.engine) as s:
            ids = s.exec(select(m.EveningRow.id, m.EveningRow.join_code)).all()
        return {code: build_report(store, eid) for eid, code in ids}
    finally:
        store.engine.dispose()


def later_changes(url: str, code: str) -> None:
    """What happens after the backup: a new player, a new evening."""
    store = EveningStore(make_engine(url))
    with Driver(store) as driver:
        driver.join(store.evening_id_for_code(code), "Après la sauvegarde")
    store.create_evening("Soirée suivante", demo_program("B"))
    store.engine.dispose()


def check_restored(url: str, saved: dict[str, object]) -> None:
    got = reports(url)
    assert set(got) == set(saved)
    for code, report in got.items():
        assert report == saved[code]
        assert report.audit.ok, (report.audit.problems, report.audit.consistency)
    # the database takes new writes: new ids do not collide with restored ones
    store = EveningStore(make_engine(url))
    creds = store.create_evening("Après restauration", demo_program("C"))
    with Driver(store) as driver:
        driver.join(creds.evening_id, "Nouveau")
    assert store.verify_audit(creds.evening_id) == []
    store.engine.dispose()


@pytest.mark.parametrize("logical", [False, True], ids=["sqlite-backup-api", "logical"])
def test_sqlite_backup_and_restore(sqlite_url: str, tmp_path: Path, logical: bool) -> None:
    ev = play(sqlite_url)
    ev.store.engine.dispose()
    saved = reports(sqlite_url)
    path = tmp_path / "sauvegarde.bak"
    done = backups.backup(path, sqlite_url, logical=logical)
    assert done.method == ("logical" if logical else "sqlite")
    later_changes(sqlite_url, ev.code)
    assert reports(sqlite_url) != saved
    assert backups.restore(path, sqlite_url).method == done.method
    check_restored(sqlite_url, saved)


def test_sqlite_backup_while_the_evening_is_being_written(sqlite_url: str, tmp_path: Path, drivers):
    """The online backup is a consistent copy even while another connection commits."""
    ev = play(sqlite_url)
    live = drivers(ev.store).on(ev.evening_id)
    stop = threading.Event()

    def writer() -> None:
        i = 0
        while not stop.is_set():
            live.join(f"Joueur {i}")
            i += 1

    t = threading.Thread(target=writer)
    t.start()
    try:
        paths = [tmp_path / f"b{i}.db" for i in range(3)]
        for p in paths:
            backups.backup(p, sqlite_url)
    finally:
        stop.set()
        t.join()
    ev.store.engine.dispose()
    for p in paths:  # each copy is a database whose journal verifies
        url = f"sqlite:///{p}"
        backups.check_sqlite_backup(p)
        store = EveningStore(make_engine(url))
        assert store.verify_audit(ev.evening_id) == []
        assert build_report(store, ev.evening_id).audit.ok
        store.engine.dispose()


@pytest.mark.parametrize("logical", [False, True], ids=["pg_dump", "logical"])
def test_postgresql_backup_and_restore(pg_url: str, tmp_path: Path, logical: bool) -> None:
    if not logical and not backups._tools():
        pytest.skip("pg_dump/pg_restore not on PATH")
    ev = play(pg_url)
    ev.store.engine.dispose()
    saved = reports(pg_url)
    path = tmp_path / "sauvegarde.bak"
    done = backups.backup(path, pg_url, logical=logical)
    assert done.method == ("logical" if logical else "pg_dump")
    later_changes(pg_url, ev.code)
    assert reports(pg_url) != saved
    backups.restore(path, pg_url)
    check_restored(pg_url, saved)
    # and onto an empty database (the server was reinstalled)
    wipe(pg_url)
    assert reports(pg_url) == {}
    backups.restore(path, pg_url)
    check_restored(pg_url, saved)


def test_a_logical_backup_moves_the_laptop_s_sqlite_to_postgresql(
    sqlite_url: str, pg_url: str, tmp_path: Path
) -> None:
    ev = play(sqlite_url)
    ev.store.engine.dispose()
    saved = reports(sqlite_url)
    path = tmp_path / "vers-serveur.bak"
    backups.backup(path, sqlite_url, logical=True)
    backups.restore(path, pg_url)
    got = reports(pg_url)
    assert {c: same(r) for c, r in got.items()} == {c: same(r) for c, r in saved.items()}
    assert all(r.audit.ok for r in got.values())


def test_restore_refuses_what_is_not_a_backup(sqlite_url: str, tmp_path: Path) -> None:
    upgrade(sqlite_url)
    junk = tmp_path / "notes.txt"
    junk.write_text("pas une sauvegarde")
    with pytest.raises(backups.BackupError, match="not a Loto backup"):
        backups.restore(junk, sqlite_url)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE t (x)")
    with pytest.raises(backups.BackupError, match="not a Loto database"):
        backups.restore(other, sqlite_url)
    bad = tmp_path / "bad.bak"
    with gzip.open(bad, "wt") as f:
        f.write(json.dumps({"format": "loto-backup", "version": 99}) + "\n")
    with pytest.raises(backups.BackupError, match="not a logical backup"):
        backups.restore(bad, sqlite_url)
    with pytest.raises(backups.BackupError, match="no such file"):
        backups.restore(tmp_path / "missing.bak", sqlite_url)


def test_the_command_line_backs_up_and_restores(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'loto.db'}"
    ev = play(url)
    ev.store.engine.dispose()
    saved = reports(url)
    path = tmp_path / "soir.bak"

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "loto_app.storage.cli", *args],
            cwd=REPO,
            env={"LOTO_DB_URL": url, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=120,
        )

    out = cli("backup", str(path))
    assert out.returncode == 0 and "Sauvegarde (sqlite) écrite" in out.stdout, out.stderr
    later_changes(url, ev.code)
    out = cli("restore", str(path))
    assert out.returncode == 0 and "restaurée" in out.stdout, out.stderr
    assert reports(url) == saved
    out = cli("restore", str(tmp_path / "nope.bak"))
    assert out.returncode == 1 and "Échec" in out.stderr
