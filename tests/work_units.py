"""The browser tests' units of work on pytest-xdist workers (`make test`: `-n 3 --dist
loadgroup`): each test module one unit (its module fixtures set up once, on one worker), and
the modules that load the machine (CPU_HEAVY) one unit together, so that two of them never run
at the same time.

Why a scheduler of our own: xdist's loadgroup marks a test's group by appending "@group" to
`item._nodeid`, and pytest 9.2 no longer reads `_nodeid` (`Node.nodeid` comes from `_id`), so
every test became a unit of its own: a module's fixtures were set up on both workers (the LAN
test's server built twice) and the load tests ran beside each other. The units here are read
from the node id alone, which the controller has.

The one library hook this leans on: `pytest_xdist_make_scheduler` (public) returning a
`LoadScopeScheduling` whose `_split_scope(nodeid)` names the unit (xdist's own loadfile and
loadgroup schedulers are written the same way; tests/test_work_units.py runs a real xdist
session against it, pytest-xdist 3.8.0 pinned in requirements-test.lock).
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadScopeScheduling

#: The unit of the modules that load the machine.
HEAVY = "heavy"
#: The browser test modules that load the machine for a minute or more (a load generator,
#: servers killed and restarted): run one after the other on one worker.
CPU_HEAVY = frozenset({"test_load", "test_crash", "test_scale_out"})


def module_of(nodeid: str) -> str:
    """The test module's name (`test_x`) of a node id `dir/test_x.py::test_y[p]`."""
    path = nodeid.split("::", 1)[0]
    return path.rsplit("/", 1)[-1].removesuffix(".py")


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: HEAVY, or its module's path."""
    return HEAVY if module_of(nodeid) in CPU_HEAVY else nodeid.split("::", 1)[0]


class ModuleUnits(LoadScopeScheduling):
    """xdist's scope scheduling with `unit_of` as the scope (given out in collection order
    with `--no-loadscope-reorder`: tests/conftest.py puts the heavy unit first)."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)


def make_scheduler(config: Any, log: Any) -> ModuleUnits | None:
    """`pytest_xdist_make_scheduler`'s answer: ours for `--dist loadgroup`, else xdist's."""
    if config.getvalue("dist") == "loadgroup":
        return ModuleUnits(config, log)
    return None
