"""`python -m loto_app.storage.cli verify-draw`: from the database (as a third party runs it, a
subprocess), from an evening file, and by hand (the command's `main`, in this process); a
changed number fails with the first position that differs; a game in play shows its
commitment and keeps its seed secret."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from played_evening import play

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.storage import evening_file
from loto_app.storage.cli import main
from loto_app.storage.migrations import upgrade

ROOT = Path(__file__).resolve().parents[2]


def command(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own."""
    env = {**os.environ, "LOTO_DB_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "loto_app.storage.cli", "verify-draw", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command's `main` in this process (its exit status, stdout and stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = os.environ.get("LOTO_DB_URL")
    os.environ["LOTO_DB_URL"] = url
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["verify-draw", *args])
    finally:
        if old is None:
            os.environ.pop("LOTO_DB_URL", None)
        else:
            os.environ["LOTO_DB_URL"] = old
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@pytest.fixture
def evening(sqlite_url):
    played = play(sqlite_url)
    yield played
    played.store.engine.dispose()


def hand(url: str, c: ev.DrawCommitted, seed: str, numbers: str):
    """`verify-draw` by hand, as someone who noted the commitment and the numbers."""
    return cli(
        url, c.evening, "--seed", seed, "--commitment", c.commitment, "--series", c.series,
        "--game", "1", "--numbers", numbers,
    )  # fmt: skip


def first_game(evening) -> tuple[ev.DrawCommitted, str, list[int]]:
    events = [e for _, e, _ in evening.store.events_after(evening.evening_id, 0)]
    committed = next(e for e in events if isinstance(e, ev.DrawCommitted) and e.game == 0)
    seed = next(e.seed for e in events if isinstance(e, ev.DrawRevealed) and e.game == 0)
    drawn = [e.number for e in events if isinstance(e, ev.NumberDrawn) and e.game == 0]
    return committed, seed, drawn


def test_from_the_database_and_from_an_evening_file(evening, sqlite_url, tmp_path):
    done = command(sqlite_url, evening.code)
    assert done.returncode == 0, done.stderr
    committed, seed, drawn = first_game(evening)
    assert f"Partie 1 : empreinte {committed.commitment}" in done.stdout
    assert f"graine {seed}" in done.stdout
    assert f"conforme : les {len(drawn)} numéros tirés suivent l'ordre engagé" in done.stdout
    path = tmp_path / "soiree.jsonl"
    evening_file.export_to_path(evening.store, evening.code, path)
    again = cli(sqlite_url, "--file", str(path))
    assert again.returncode == 0 and again.stdout == done.stdout


def test_a_changed_number_fails_at_the_first_position_that_differs(evening, sqlite_url):
    committed, seed, drawn = first_game(evening)
    noted = list(drawn)
    noted[6] = next(n for n in range(1, 91) if n not in drawn)  # the 7th number misread
    numbers = " ".join(map(str, noted))
    done = cli(sqlite_url, evening.code, "--game", "1", "--numbers", numbers)
    assert done.returncode == 1
    assert f"au 7e numéro, l'ordre engagé donne {drawn[6]}, le tirage dit {noted[6]}" in done.stdout
    by_hand = hand(sqlite_url, committed, seed, numbers)
    assert by_hand.returncode == 1 and "au 7e numéro" in by_hand.stdout
    honest = hand(sqlite_url, committed, seed, " ".join(map(str, drawn)))
    assert honest.returncode == 0, honest.stdout
    order = " ".join(map(str, draws.draw_order(bytes.fromhex(seed))))
    assert f"Ordre engagé : {order}" in honest.stdout
    wrong = hand(sqlite_url, committed, "00" * 32, "5")
    assert wrong.returncode == 1 and "ne donne pas l'empreinte" in wrong.stdout


def test_a_game_in_play_keeps_its_seed(evening, sqlite_url, drivers):
    live = drivers(evening.store).on(evening.evening_id)
    live.run(lambda e: e.start_game())
    live.run(lambda e: e.draw())
    done = cli(sqlite_url, evening.code, "--game", "2")
    assert done.returncode == 0
    assert "graine secrète jusqu'à la fin de la partie" in done.stdout
    seed = live.evening.sealed[1].hex()
    assert seed not in done.stdout + done.stderr


def test_bad_input_is_told_in_french(sqlite_url):
    assert "illisible" in cli(sqlite_url, "NOPE99").stderr  # (not migrated)
    upgrade(sqlite_url)
    assert "Aucune soirée" in cli(sqlite_url, "NOPE99").stderr
    assert cli(sqlite_url).returncode == 2
    bad = cli(sqlite_url, "X", "--seed", "zz", "--commitment", "a", "--series", "A", "--game", "1")
    assert bad.returncode == 2
