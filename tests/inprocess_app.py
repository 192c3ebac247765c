"""The browser tests' in-process app, serving the run's one production build.

Reflex's `AppHarnessProd` compiles the app and builds its frontend for the port its backend
happened to get, so every pytest-xdist worker built one (npm + vite: ~30 s of both cores, the
other workers' tests slowed meanwhile), beside the run's `reflex run --env prod` build
(tests/conftest.py `prod_build`). That build is made for `localhost` and its port: Reflex's
frontend replaces `localhost` with the address its page was loaded from (`getBackendURL` and
`SAME_DOMAIN_HOSTNAMES` in its state.js). So `BuiltFrontendHarness` serves a copy of that
bundle and puts its backend on that same port, each worker on a loopback address of its own
(`worker_host`: 127.0.0.2 for the first, 127.0.0.3 for the second...; 127.0.0.1 is left to the
servers that serve the build as it is, tests/work_units.py's heavy unit): a page loaded from
127.0.0.3 talks to the backend at 127.0.0.3. Its backend starts without compiling the app, as
a production server's workers do once the build is made (REFLEX_SKIP_COMPILE).

Reflex offers no public way to choose the harness's addresses or to skip its build: the four
methods below are `reflex.testing.AppHarnessProd`'s own (Reflex 0.10, pinned in
requirements-test.lock), written after its code with the address, the port and no export;
they use its private `_poll_for_servers`, `_get_backend_shutdown_handler` and
`reflex.utils.exec._frontend_prod_app`. Every browser test runs on them (and
tests/e2e/test_smoke.py checks the addresses), so a Reflex upgrade that changes them fails the
suite at once.
"""

from __future__ import annotations

import contextvars
import random
import shutil
import socket
import threading
from pathlib import Path

import reflex.utils.exec
import reflex.utils.processes
import uvicorn
from reflex.testing import AppHarnessProd, chdir
from reflex.utils import prerequisites
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment

#: Where the build's port is picked: below Linux's ephemeral range (32768-60999), so that no
#: `serving.free_port()` of a test is ever given it while the run lasts.
PORT_RANGE = (20_000, 32_000)
#: The address of the servers that serve the build as it is (bench/serving.py).
SERVERS_HOST = "127.0.0.1"


def worker_host(worker: str) -> str:
    """The loopback address of a pytest-xdist worker's app ("gw1" -> 127.0.0.3; none: .2)."""
    index = int(worker.removeprefix("gw")) if worker.startswith("gw") else 0
    if not 0 <= index < 250:
        raise ValueError(f"no loopback address for worker {worker!r}")
    return f"127.0.0.{index + 2}"


def run_hosts(workers: int) -> list[str]:
    """Every address the run's build is served on: its servers' and each worker's app's."""
    return [SERVERS_HOST, *(worker_host(f"gw{i}") for i in range(max(workers, 1)))]


def _free_on(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def pick_port(hosts: list[str], tries: int = 200) -> int:
    """A port free on every one of `hosts` right now (in `PORT_RANGE`)."""
    for _ in range(tries):
        port = random.randrange(*PORT_RANGE)
        if all(_free_on(h, port) for h in hosts):
            return port
    raise RuntimeError(f"no port of {PORT_RANGE} free on all of {hosts}")


class BuiltFrontendHarness(AppHarnessProd):
    """`AppHarnessProd` on `host`, serving a copy of the bundle built in `built_web` for
    `localhost:port`, its backend on `host:port`."""

    host: str = ""
    backend_port: int = 0
    built_web: Path = Path()

    @classmethod
    def on(
        cls, root: Path, app_name: str, host: str, port: int, built_web: Path
    ) -> BuiltFrontendHarness:
        """The harness of `app_name` in `root`, served on `host`, its backend on `port`."""
        harness = cls.create(root=root, app_name=app_name)
        harness.host, harness.backend_port, harness.built_web = host, port, built_web
        return harness

    def _initialize_app(self) -> None:
        environment.REFLEX_SKIP_COMPILE.set(True)  # (reset once the backend listens)
        super()._initialize_app()

    def _start_backend(self, port: int = 0) -> None:
        if self.app_asgi is None:
            raise RuntimeError("App was not initialized.")
        environment.REFLEX_SKIP_COMPILE.set(True)
        self.backend = uvicorn.Server(
            uvicorn.Config(
                app=self.app_asgi,
                host=self.host,
                port=self.backend_port,
                workers=reflex.utils.processes.get_num_workers(),
            )
        )
        self.backend.shutdown = self._get_backend_shutdown_handler()

        def run(context: contextvars.Context) -> None:
            if self.backend is not None:
                context.run(self.backend.run)

        self.backend_thread = threading.Thread(target=run, args=(contextvars.copy_context(),))
        self.backend_thread.start()

    def _start_frontend(self) -> None:
        with chdir(self.app_path):
            listening = self._poll_for_servers(timeout=30).getsockname()
            if tuple(listening[:2]) != (self.host, self.backend_port):
                raise RuntimeError(f"backend on {listening}, not {self.host}:{self.backend_port}")
            config = get_config()
            config.api_url = f"http://localhost:{self.backend_port}"  # (the bundle's)
            # the bundle, copied once the app has started (its start rewrites the directory)
            served = prerequisites.get_web_dir() / constants.Dirs.BUILD_DIR
            shutil.rmtree(served, ignore_errors=True)
            shutil.copytree(self.built_web / constants.Dirs.BUILD_DIR, served, symlinks=True)
            environment.REFLEX_ENV_MODE.set(constants.Env.PROD)  # (as a build leaves it)
        self.frontend_thread = threading.Thread(target=self._run_frontend)
        self.frontend_thread.start()

    def _run_frontend(self) -> None:
        with chdir(self.app_path):
            frontend_app = reflex.utils.exec._frontend_prod_app()
        self.frontend_server = uvicorn.Server(
            uvicorn.Config(app=frontend_app, host=self.host, port=0)
        )
        self.frontend_server.run()
