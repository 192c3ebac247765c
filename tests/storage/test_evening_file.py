"""One evening as a file: export, wipe the database, import; the report is the same, the
journal verifies, the secrets still sign in; a tampered file is refused with its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from live_driver import Driver
from played_evening import EVENING_NAME, play, same, wipe
from sqlmodel import Session, SQLModel, select

from loto_app.records import export
from loto_app.records.report import build_report
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.evening_file import (
    EveningFileError,
    export_to_path,
    import_evening,
    import_from_path,
    read_evening_file,
)
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request) -> str:
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


def test_export_wipe_import_gives_the_same_evening(db_url: str, tmp_path: Path) -> None:
    ev = play(db_url)
    before = build_report(ev.store, ev.evening_id)
    assert before.audit.ok and before.games and before.sales
    csv_before = export.report_csv(before)
    picture = ev.store.load(ev.evening_id)[0].fingerprint()
    path = tmp_path / "soiree.jsonl"
    n = export_to_path(ev.store, ev.code.lower(), path)
    assert n == before.audit.entries
    assert len(path.read_text().splitlines()) == n + 2  # header, entries, end
    ev.store.engine.dispose()

    wipe(db_url)
    store = EveningStore(make_engine(db_url))
    assert store.evening_id_for_code(ev.code) is None
    done = import_from_path(store, path)
    assert (done.join_code, done.name, done.entries) == (ev.code, EVENING_NAME, n)

    after = build_report(store, done.evening_id)
    assert same(after) == same(before)
    assert after.audit.ok, (after.audit.problems, after.audit.consistency)
    assert store.verify_audit(done.evening_id) == []
    assert export.report_csv(after) == csv_before
    # the evening replays to the same engine state
    replayed, seq, last = store.load(done.evening_id)
    assert (seq, last) == (before.audit.last_seq, before.audit.last_hash)
    assert replayed.fingerprint() == picture
    # every secret still signs in: the phone, the animateur, the organiser, the desk
    access = AccessStore(store.engine)
    assert access.player_for_secret(done.evening_id, ev.player_secret) == ev.player_id
    assert access.check_animateur(done.evening_id, ev.animateur)
    assert access.check_organiser(done.evening_id, ev.organiser)
    member = access.staff_for_secret(done.evening_id, ev.cashier)
    assert member is not None and member.role == "caissier"
    # and the file it exports again is the same, byte for byte
    again = tmp_path / "again.jsonl"
    export_to_path(store, ev.code, again)
    assert again.read_bytes() == path.read_bytes()
    # the evening goes on after the move: a new player joins, the log stays one chain
    with Driver(store) as driver:
        driver.join(done.evening_id, "Nouvelle")
    assert store.verify_audit(done.evening_id) == []
    store.engine.dispose()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], str]:
    """A played evening's file (SQLite) and the URL of an empty database to import into."""
    tmp = tmp_path_factory.mktemp("evening-file")
    ev = play(f"sqlite:///{tmp / 'source.db'}")
    path = tmp / "soiree.jsonl"
    export_to_path(ev.store, ev.code, path)
    ev.store.engine.dispose()
    target = f"sqlite:///{tmp / 'target.db'}"
    upgrade(target)
    return path.read_text().splitlines(), target


def _evenings(url: str) -> int:
    engine = make_engine(url)
    with Session(engine) as s:
        n = len(s.exec(select(m.EveningRow.id)).all())
    engine.dispose()
    return n


def _refused(lines: list[str], url: str) -> EveningFileError:
    store = EveningStore(make_engine(url))
    try:
        with pytest.raises(EveningFileError) as info:
            import_evening(store, [x + "\n" for x in lines])
    finally:
        store.engine.dispose()
    assert _evenings(url) == 0, "a refused file wrote something"
    return info.value


def _edit(lines: list[str], no: int, change) -> list[str]:
    out = list(lines)
    obj = json.loads(out[no - 1])
    change(obj)
    out[no - 1] = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return out


def _line_of(lines: list[str], type_: str, nth: int = 0) -> int:
    found = [i for i, x in enumerate(lines, start=1) if f'"type":"{type_}"' in x and '"seq"' in x]
    return found[nth]


def test_a_changed_number_is_refused_with_its_line(exported) -> None:
    lines, url = exported
    no = _line_of(lines, "number_drawn", 3)

    def other_number(obj):
        obj["payload"]["number"] = obj["payload"]["number"] % 90 + 1

    exc = _refused(_edit(lines, no, other_number), url)
    assert exc.line == no and "does not match its hash" in str(exc)


def test_a_changed_entry_with_its_hash_recomputed_breaks_the_next_link(exported) -> None:
    from loto_app.storage.audit import entry_hash

    lines, url = exported
    no = _line_of(lines, "sale_recorded")

    def cheaper(obj):
        obj["payload"]["amount_cents"] = 1
        at = __import__("datetime").datetime.fromisoformat(obj["at"])
        obj["hash"] = entry_hash(obj["prev_hash"], obj["seq"], at, obj["type"], obj["payload"])

    exc = _refused(_edit(lines, no, cheaper), url)
    assert exc.line == no + 1 and "previous-hash link broken" in str(exc)


def test_a_removed_or_swapped_entry_is_refused(exported) -> None:
    lines, url = exported
    no = _line_of(lines, "claim_made")
    exc = _refused(lines[: no - 1] + lines[no:], url)
    assert exc.line == no and "expected sequence number" in str(exc)
    swapped = list(lines)
    swapped[no - 1], swapped[no] = swapped[no], swapped[no - 1]
    assert _refused(swapped, url).line == no


def test_an_edited_header_a_cut_file_and_garbage_are_refused(exported) -> None:
    lines, url = exported

    def rename(obj):
        obj["evening"]["name"] = "Autre soirée"

    exc = _refused(_edit(lines, 1, rename), url)
    assert exc.line == 1 and "digest" in str(exc)
    assert "no end line" in str(_refused(lines[:-1], url))
    exc = _refused([*lines[:5], "{not json", *lines[5:]], url)
    assert exc.line == 6 and "not JSON" in str(exc)
    assert "not a Loto evening file" in str(_refused(['{"format": "other"}'], url))
    exc = _refused([*lines, '{"seq": 1}'], url)
    assert exc.line == len(lines) + 1 and "after the end" in str(exc)


def test_an_evening_whose_code_is_taken_is_not_imported_twice(exported) -> None:
    lines, url = exported
    store = EveningStore(make_engine(url))
    try:
        done = import_evening(store, lines)
        assert read_evening_file(lines).entries[-1].seq == done.entries
        with pytest.raises(EveningFileError, match="already has an evening"):
            import_evening(store, lines)
        assert _evenings(url) == 1
    finally:
        with Session(store.engine) as s:  # leave the target empty for the other tests
            for t in reversed(SQLModel.metadata.sorted_tables):
                if t.name != "alembic_version":
                    s.exec(t.delete())
            s.commit()
        store.engine.dispose()


def _other_last_char(text: str) -> str:
    """The same text with another last character (a time that ended in "9" stayed the same
    when a "9" was written over it: the tampering then changed nothing, 1 run in 10)."""
    return text[:-1] + ("8" if text[-1] == "9" else "9")


def test_the_command_line_exports_and_refuses_a_tampered_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    ev = play(url)
    ev.store.engine.dispose()
    path = tmp_path / "soiree.jsonl"

    def cli(*args: str, db: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "loto_app.storage.cli", *args],
            cwd=REPO,
            env={"LOTO_DB_URL": db, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=120,
        )

    out = cli("export-evening", ev.code, str(path), db=url)
    assert out.returncode == 0, out.stderr
    assert ev.code in out.stdout
    lines = path.read_text().splitlines()
    no = _line_of(lines, "cell_marked") if any("cell_marked" in x for x in lines) else 5
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text(
        "\n".join(_edit(lines, no, lambda o: o.update(at=_other_last_char(o["at"])))) + "\n"
    )
    other = f"sqlite:///{tmp_path / 'b.db'}"
    upgrade(other)
    out = cli("import-evening", str(tampered), db=other)
    assert out.returncode == 1
    assert f"ligne {no}" in out.stderr and "does not match its hash" in out.stderr
    out = cli("import-evening", str(path), db=other)
    assert out.returncode == 0, out.stderr
    assert "importée" in out.stdout
