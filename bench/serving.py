"""The app as the benchmarks (and a few e2e tests) serve it: `scripts/with-env.sh
.venv/bin/reflex run --env prod` on one port (of 127.0.0.1 unless told), in its own process
group (the `reflex run` process and its workers are stopped, or SIGKILLed, as one), its output
appended to a log file.

Shared by `load.py`, `phone.py`, `crash.py`, `soak.py` and tests/e2e/test_lan.py and
test_https.py; each prepares its own database and environment.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv" if (ROOT / ".venv" / "bin" / "reflex").exists() else Path(sys.prefix)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ping(url: str, timeout: float = 2.0) -> bool:
    """GET /ping answers."""
    try:
        with urllib.request.urlopen(f"{url}/ping", timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def spawn(
    port: int,
    env: dict[str, str],
    log: Path,
    banner: str = "",
    *,
    host: str = "127.0.0.1",
    prefix: tuple[str, ...] = (),
    rebuild: bool = True,
) -> subprocess.Popen:
    """Start the production server on `host:port` (frontend and backend), output appended to
    `log`; `prefix` runs it under another command (`ip netns exec NS`). `rebuild=False` serves
    the frontend already built in REFLEX_WEB_WORKDIR as it is (a restart: bench/serve_built.py)
    instead of compiling and bundling it again."""
    with_env = str(ROOT / "scripts" / "with-env.sh")
    if rebuild:
        cmd = [
            *prefix,
            with_env,
            str(VENV / "bin" / "reflex"),
            "run",
            "--env",
            "prod",
            "--frontend-port",
            str(port),
            "--backend-port",
            str(port),
            "--backend-host",
            host,
        ]
    else:
        served = ROOT / "bench" / "serve_built.py"
        cmd = [*prefix, with_env, str(VENV / "bin" / "python"), str(served), host, str(port)]
    with log.open("ab") as out:
        if banner:
            out.write(f"\n===== {banner} =====\n".encode())
            out.flush()
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, stopped as one
        )


def wait_up(
    proc: subprocess.Popen,
    url: str,
    timeout: float,
    log: Path,
    error: type[Exception] = RuntimeError,
) -> float:
    """Wait until /ping answers; returns the seconds it took.

    Raises:
        error: the server exited, or did not answer within `timeout` (with its log's end).
    """
    t0 = time.monotonic()
    while time.monotonic() < t0 + timeout:
        if proc.poll() is not None:
            raise error(f"server exited ({proc.returncode}):\n{tail(log)}")
        if ping(url):
            return time.monotonic() - t0
        time.sleep(0.3)
    raise error(f"server not up within {timeout:.0f} s:\n{tail(log)}")


def tail(log: Path, n: int = 30) -> str:
    """The end of the server's log."""
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def killpg(proc: subprocess.Popen | None, sig: int = signal.SIGKILL) -> None:
    """Signal the server's whole process group."""
    if proc is not None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)  # start_new_session: the group id is the leader's pid


def stop(proc: subprocess.Popen | None) -> None:
    """SIGTERM the group, wait, then SIGKILL whatever is left (workers outliving the leader)."""
    if proc is None:
        return
    if proc.poll() is None:
        killpg(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            killpg(proc)
            proc.wait(timeout=10)
    killpg(proc)


@dataclass(frozen=True)
class Build:
    """A production frontend built in `web` (REFLEX_WEB_WORKDIR) for `port`: the port is baked
    into the bundle (the socket's address), so a server serving it as it is (`spawn(...,
    rebuild=False)`) listens on that port."""

    web: Path
    port: int


def build(web: Path, port: int, env: dict[str, str], log: Path, timeout: float = 900) -> Build:
    """Build the frontend once the way `reflex run --env prod` does (npm install, compile,
    bundle): the server is started on `port` with `web` as its frontend directory, and stopped
    once it answers."""
    proc = spawn(port, {**env, "REFLEX_WEB_WORKDIR": str(web)}, log, "build")
    try:
        wait_up(proc, f"http://127.0.0.1:{port}", timeout, log)
    finally:
        stop(proc)
    return Build(web, port)
