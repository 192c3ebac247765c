"""The browser tests' units of work (tests/work_units.py) in a real pytest-xdist session: a
module's tests on one worker, the heavy modules on one worker one after the other, and the
heavy unit first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import work_units

TESTS = Path(__file__).resolve().parent

CONFTEST = """
import os
import pytest
import work_units

def pytest_xdist_make_scheduler(config, log):
    return work_units.make_scheduler(config, log)

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: work_units.unit_of(item.nodeid) != work_units.HEAVY)
"""

MODULE = """
import os
import time
import pytest

@pytest.mark.parametrize("i", range(3))
def test_one(i, tmp_path_factory):
    out = tmp_path_factory.getbasetemp().parent.parent / "seen.txt"
    with out.open("a") as f:
        f.write(f"{os.environ['PYTEST_XDIST_WORKER']} {__name__} {time.monotonic()}\\n")
    time.sleep(0.2)
"""


def test_unit_of_names_the_module_or_the_heavy_unit() -> None:
    assert work_units.unit_of("tests/e2e/test_pwa.py::test_x[a::b]") == "tests/e2e/test_pwa.py"
    assert work_units.unit_of("tests/e2e/test_load.py::test_load_short[granian]") == "heavy"
    assert work_units.unit_of("tests/e2e/test_crash.py::test_y") == "heavy"
    assert work_units.module_of("test_scale_out.py::t") == "test_scale_out"
    assert work_units.unit_of("tests/e2e/test_scale_out_faults.py::t") != "heavy"


def test_modules_stay_whole_and_the_heavy_ones_apart(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    names = ["test_a", "test_b", "test_c", "test_load", "test_crash"]
    for name in names:
        (tmp_path / f"{name}.py").write_text(MODULE)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup",
         "--no-loadscope-reorder", "-p", "no:cacheprovider", "-p", "no:randomly",
         f"--basetemp={tmp_path / 'base'}", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    seen = [line.split() for line in (tmp_path / "seen.txt").read_text().splitlines()]
    assert len(seen) == 3 * len(names)
    workers = {name: {w for w, m, _ in seen if m == name} for name in names}
    assert all(len(w) == 1 for w in workers.values()), workers
    assert workers["test_load"] == workers["test_crash"], workers
    # the two heavy modules one after the other: never a test of one between the other's
    heavy = sorted((float(t), m) for _, m, t in seen if m in ("test_load", "test_crash"))
    order = [m for _, m in heavy]
    assert order in (["test_load"] * 3 + ["test_crash"] * 3, ["test_crash"] * 3 + ["test_load"] * 3)
    # and the heavy unit first on its worker
    (heavy_worker,) = workers["test_load"]
    first = min((float(t), m) for w, m, t in seen if w == heavy_worker)
    assert first[1] in ("test_load", "test_crash")
