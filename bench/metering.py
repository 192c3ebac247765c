"""What the benchmarks measure of a server and of the machine: the server's process tree (CPU,
memory, when it is idle), the CPU other processes used meanwhile, percentiles, and the
checkout's commit for the record. Shared by `load.py` and `soak.py`."""

from __future__ import annotations

import asyncio
import contextlib
import math
import subprocess
from typing import Any

import psutil
from emulator import BenchError, now
from serving import ROOT

IDLE_CPU = 0.05  # "idle": the server used less than 5 % of a core over a window


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile of a sorted list (inf for missing values sorts last)."""
    if not values:
        return math.nan
    return values[max(0, math.ceil(q * len(values)) - 1)]


def ms(x: float) -> float:
    """Seconds to milliseconds, rounded (inf stays inf)."""
    return round(x * 1000, 1) if math.isfinite(x) else math.inf


class Server:
    """The Reflex server's processes (the whole tree under the `reflex run` process)."""

    def __init__(self, root_pid: int) -> None:
        self.root = psutil.Process(root_pid)
        self.idle_cpu = IDLE_CPU  # cores: below this over a window, the server is idle
        self._procs: list[psutil.Process] = []
        self._listed = -math.inf

    def procs(self) -> list[psutil.Process]:
        """The root and all its descendants (listed again every 5 s: a scan of /proc)."""
        if now() - self._listed > 5:
            try:
                self._procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                self._procs = []
            self._listed = now()
        return self._procs

    def cpu(self) -> float:
        """User + system CPU seconds of the tree."""
        total = 0.0
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def kind(self) -> str:
        """Which server serves: "gunicorn" (rxconfig.py's LOTO_SERVER=uvicorn) or "granian"."""
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                if "gunicorn" in p.cmdline():
                    return "gunicorn"
        return "granian"

    def rss(self) -> int:
        """Resident memory of the tree, bytes."""
        total = 0
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    @classmethod
    def listening_on(cls, port: int) -> Server:
        """The server listening on `port`, climbing to the top `reflex` process."""
        pid = next(
            (
                c.pid
                for c in psutil.net_connections("tcp")
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid
            ),
            None,
        )
        if pid is None:
            raise BenchError(f"no process listens on port {port} (or not visible to this user)")
        p = psutil.Process(pid)
        while (parent := p.parent()) is not None and "reflex" in " ".join(parent.cmdline()):
            p = parent
        return cls(p.pid)

    async def wait_idle(self, limit: float, window: float = 1.0) -> tuple[float, float] | None:
        """Wait until the tree used < 5 % of a core over `window` s.

        Returns:
            When that idle window began and the tree's CPU seconds then; None on timeout.
        """
        end = now() + limit
        while now() < end:
            c0, t0 = self.cpu(), now()
            await asyncio.sleep(window)
            if (self.cpu() - c0) / (now() - t0) < self.idle_cpu:
                return t0, c0
        return None


def summary(values: list[float]) -> dict[str, float]:
    """p50/p95/p99/max in ms of a list of seconds (inf = missing)."""
    v = sorted(values)
    return {
        "p50_ms": ms(pct(v, 0.50)),
        "p95_ms": ms(pct(v, 0.95)),
        "p99_ms": ms(pct(v, 0.99)),
        "max_ms": ms(v[-1]) if v else math.nan,
    }


def _busy(t: Any) -> float:
    return t.user + t.nice + t.system + t.irq + t.softirq + t.steal


def foreign_cpu(total0: Any, total1: Any, own: float) -> float:
    """Average cores used by other processes (not the server, not us) over an interval."""
    cores = psutil.cpu_count() or 1
    wall = (sum(total1) - sum(total0)) / cores  # seconds elapsed
    return max(0.0, (_busy(total1) - _busy(total0) - own) / wall) if wall > 0 else 0.0


def git_commit() -> str:
    """The checkout's commit, "+dirty" when files differ from it ("" without git)."""

    def git(*args: str) -> str:
        run = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10)
        return run.stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return ""
    return head + ("+dirty" if dirty else "")
