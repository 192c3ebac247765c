"""The load generator, short: a fresh production app, 30 emulated phones on the real websocket
protocol (join, cartons, marks), a few draws and a small claim storm, on each production server
(the lean server, gunicorn + uvicorn, the default; Granian with LOTO_SERVER=granian). Checks
what must hold whatever the machine's speed: every phone joined, no draw missed, every mark
answered, and each claim got the verdict the rules give, with the hall showing one tie of
exactly the valid claimants. Timings are printed, never asserted. The long version is in
bench/README.md.

The server commits marks every 0.2 s instead of every 5 (LOTO_MARKS_GATHER_SECONDS): each draw
and each ball of the claim storm waits until every phone's marks are answered, and at 5 s those
~16 waits were most of each run (~100 s of ~130 on a quick machine). The browser tests of marks
run the default window.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
PLAYERS = 30
DRAWS = 4
STORM = 12
VALID = 3


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_load_short(tmp_path: Path, server: str, prod_build: Any) -> None:
    """Granian, and the lean server (rxconfig.py's default, LOTO_SERVER=uvicorn), each serving
    the run's production build (tests/conftest.py `prod_build`) on its port as it is: building
    the same frontend again for each server is ~30 s of CPU that tests nothing of the load. (One
    test at a time serves that port: the heavy unit, tests/work_units.py.)"""
    out = tmp_path / "load.json"
    cmd = [
        sys.executable,
        str(REPO / "bench" / "load.py"),
        "--start",
        "--built",
        str(prod_build.web),
        str(prod_build.port),
        "--server-env",
        f"LOTO_SERVER={server}",
        "--server-env",
        "LOTO_MARKS_GATHER_SECONDS=0.2",
        "--players",
        str(PLAYERS),
        "--draws",
        str(DRAWS),
        "--claim-storm",
        str(STORM),
        "--claim-valid",
        str(VALID),
        "--mark-delay",
        "0.05",
        "0.3",
        "--time-limit",
        "600",
        "--json",
        str(out),
    ]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=900)
    last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    print(last)
    assert run.returncode == 0, (
        f"load.py exited {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    )
    assert last.startswith(f"players={PLAYERS} p50_ms=")
    fields = dict(kv.split("=", 1) for kv in last.split())
    assert set(fields) >= {"players", "p50_ms", "p95_ms", "p99_ms", "max_ms", "missed"}
    res = json.loads(out.read_text())
    assert res["server"] == ("gunicorn" if server == "uvicorn" else "granian")
    assert res["joined"] == PLAYERS and res["join_failed"] == 0
    assert res["draws_done"] == DRAWS
    assert res["missed"] == 0 and fields["missed"] == "0"
    assert res["marks_per_draw"] > 0 and res["marks_unanswered"] == 0
    assert res["errors"] == 0, res["error_sample"]
    assert res["claim_storm"] == STORM
    assert res["claim_valid"] == VALID, res["claim_wrong_sample"]
    assert res["claim_false"] == STORM - VALID, res["claim_wrong_sample"]
    assert res["claim_other"] == 0 and res["claim_wrong"] == 0
    assert res["claim_tie_ok"] is True, res["claim_tie_entrants"]
    assert len(res["claim_tie_entrants"]) == VALID
