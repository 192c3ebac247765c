"""The app as the benchmarks (and a few e2e tests) serve it: `scripts/with-env.sh
.venv/bin/reflex run --env prod` on one port (of 127.0.0.1 unless told), in its own process
group (the `reflex run` process and its workers are stopped, or SIGKILLed, as one), its output
appended to a log file.

Shared by `load.py`, `phone.py`, `crash.py`, `soak.py` and tests/e2e/test_lan.py and
test_https.py; each prepares its own database and environment, or takes a `FreshApp` (a temp
dir, a fresh database, a free port: `load.py`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv" if (ROOT / ".venv" / "bin" / "reflex").exists() else Path(sys.prefix)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    """Something listens on 127.0.0.1:`port`."""
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_port_free(port: int, timeout: float = 30.0) -> None:
    """Wait (up to `timeout` s) until nothing listens on `port`: a server serving the same
    build before (a stopped or killed one, whose sockets may close a moment after its process
    group is gone) has let it go."""
    end = time.monotonic() + timeout
    while port_open(port) and time.monotonic() < end:
        time.sleep(0.2)


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


def pg_execute(url: str, sql: str) -> None:
    """Run `sql` (CREATE or DROP DATABASE) outside a transaction on the PostgreSQL server of
    `url` (a plain postgresql:// URL is taken with psycopg 3, which the project's venv has)."""
    import sqlalchemy as sa

    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(sa.text(sql))
    finally:
        admin.dispose()


def migrate(env: dict[str, str]) -> None:
    """Bring the database of `env` (LOTO_DB_URL) to the current schema (the app's CLI)."""
    subprocess.run(
        [str(VENV / "bin" / "python"), "-m", "loto_app.storage.cli", "migrate"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        stdout=subprocess.DEVNULL,
    )


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


class FreshApp:
    """A fresh production app, stopped on exit: a temp dir with its own SQLite file, Reflex
    state directory and frontend directory (REFLEX_WEB_WORKDIR: built there, the checkout's
    .web/ is left alone), migrated, then served on a free port of 127.0.0.1. With `pg_url`: a
    fresh PostgreSQL database on that server instead, and Redis (`redis_url`) with `workers`
    workers. `server_env` ("K=V") goes into the server's environment last.

    With `built` (a frontend already built for its port, tests/conftest.py `prod_build`): that
    frontend served as it is on its port (bench/serve_built.py), no build of its own.

    Use: `migrate()`, put the evening in (`env["LOTO_DB_URL"]`), `serve()`; `stop(keep)`."""

    def __init__(
        self,
        prefix: str = "loto-app-",
        *,
        pg_url: str = "",
        redis_url: str = "",
        workers: int = 2,
        server_env: Sequence[str] = (),
        start_timeout: float = 600.0,
        error: type[Exception] = RuntimeError,
        built: Build | None = None,
    ) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix=prefix))
        self.built = built
        self.port = built.port if built is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = self.tmp / "server.log"
        self.start_timeout, self.error = start_timeout, error
        self.env = dict(os.environ)
        self.env.setdefault("VENV", str(VENV))  # for scripts/with-env.sh
        self.env["LOTO_DB_URL"] = f"sqlite:///{self.tmp / 'loto.db'}"
        self.env["REFLEX_STATES_WORKDIR"] = str(self.tmp / "states")  # (reflex run empties it)
        # A private frontend directory: `reflex run` initialises it (npm install from npm's
        # cache, vite build: ~30 s) instead of rewriting the checkout's .web/, which other runs
        # of the app may be installing or building at the same moment (a copy of it can be
        # caught half-written).
        self.web = built.web if built is not None else self.tmp / "web"
        self.env["REFLEX_WEB_WORKDIR"] = str(self.web)
        self.pg_url, self.pg_db = pg_url, ""
        for name in ("REFLEX_REDIS_URL", "LOTO_REDIS_URL"):  # (one process: none)
            self.env.pop(name, None)
        if pg_url:  # a fresh PostgreSQL database, Redis, several workers
            self.pg_db = f"loto_load_{uuid.uuid4().hex[:8]}"
            self.env["LOTO_DB_URL"] = pg_url.rsplit("/", 1)[0] + f"/{self.pg_db}"
            self.env["REFLEX_REDIS_URL"] = redis_url
            self.env["GRANIAN_WORKERS"] = str(workers)
        for kv in server_env:
            k, _, v = kv.partition("=")
            self.env[k] = v

    def _pg(self, sql: str) -> None:
        pg_execute(self.pg_url, sql)

    def migrate(self) -> None:
        """Create the database (PostgreSQL) and bring it to the current schema."""
        if self.pg_db:
            self._pg(f'CREATE DATABASE "{self.pg_db}"')
        migrate(self.env)

    def serve(self) -> None:
        """Start the server; returns once /ping answers (raises `error` otherwise)."""
        if self.built is not None:
            wait_port_free(self.port)
        self.proc = spawn(self.port, self.env, self.log, rebuild=self.built is None)
        wait_up(self.proc, self.url, self.start_timeout, self.log, self.error)

    def tail(self, n: int = 30) -> str:
        """The end of the server's log."""
        return tail(self.log, n)

    def stop(self, keep: bool) -> None:
        """Stop the server's process group; remove the temp dir (and the PostgreSQL database)
        unless `keep`."""
        stop(self.proc)
        if self.pg_db and not keep:
            try:
                self._pg(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')
            except Exception as exc:  # reported; the run's figures still stand
                print(f"could not drop {self.pg_db}: {exc}", file=sys.stderr)
        if keep:
            print(f"kept: {self.tmp}", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)
