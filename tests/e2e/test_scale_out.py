"""Several backend workers with Redis: the room broadcast reaches phones on every worker.

The app runs as in production with `REFLEX_REDIS_URL` (the rooms, the phones' count and the
sign-in limits in Redis; each worker keeps its pages' states in memory) and two workers of the
lean server (gunicorn, `lean_server.LeanWorker`, as one process runs), on a fresh PostgreSQL
database, serving the run's production build (`prod_build`) as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psutil
import pytest
from gestures import buy, claim
from local_servers import REDIS_MISSING, REDIS_URL, redis_up
from outside import serving
from playwright.sync_api import expect
from sockets import new_token_round_trip

from loto_app.domain.program import DrawSource, Program, Settings, demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "scale-out-secret"
PLAYERS = 6


@pytest.fixture(scope="module")
def scaled_app(pg_database: str, prod_build: Any) -> Iterator[dict]:
    """The production server with Redis and 2 workers; yields url, code and server pid.

    It serves the run's production build (tests/conftest.py `prod_build`) on that build's port,
    as `reflex run --env prod` serves once its build is done (bench/serve_built.py): this module
    is in the heavy unit (tests/work_units.py), whose servers take that port one after the
    other."""
    if not redis_up():
        pytest.skip(REDIS_MISSING)
    app = serving.FreshApp("loto-scale-out-", built=prod_build)
    app.env.update(
        {"LOTO_DB_URL": pg_database, "REFLEX_REDIS_URL": REDIS_URL, "GRANIAN_WORKERS": "2"}
    )
    app.migrate()
    program = demo_program("RED")
    program = Program(
        program.series, program.games, Settings(DrawSource.ELECTRONIC, free_cartons=True)
    )
    engine = make_engine(pg_database)
    creds = EveningStore(engine).create_evening("Redis", program, animateur_secret=SECRET)
    engine.dispose()
    try:
        try:
            app.serve()
        except RuntimeError as exc:
            pytest.fail(f"the server did not start: {exc}")
        assert app.proc is not None
        yield {
            "url": app.url,
            "code": creds.join_code,
            "db_url": pg_database,
            "pid": app.proc.pid,
            "port": app.port,
            "log": app.log,
        }
    finally:
        app.stop(keep=False)


def _sockets_per_process(pid: int, port: int) -> list[int]:
    procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    counts = []
    for p in procs:
        try:
            conns = p.net_connections("tcp")
        except psutil.Error:
            continue
        n = sum(1 for c in conns if c.status == "ESTABLISHED" and c.laddr and c.laddr.port == port)
        if n:
            counts.append(n)
    return counts


def _lean_workers(pid: int) -> int:
    """gunicorn's worker processes running the lean worker class, under the server `pid`."""
    n = 0
    for p in psutil.Process(pid).children(recursive=True):
        try:
            cmd = p.cmdline()
            parent = p.parent()
        except psutil.Error:
            continue
        if "loto_app.lean_server.LeanWorker" in cmd and parent and "gunicorn" in parent.cmdline():
            n += 1
    return n


def test_draws_reach_phones_on_both_workers(
    scaled_app: dict, browser: Browser, phone: dict, results_dir: Path
) -> None:
    url, code = scaled_app["url"], scaled_app["code"]
    tablet = browser.new_context().new_page()
    tablet.goto(f"{url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.get_by_test_id("start-game")).to_be_visible(timeout=30_000)

    phones: list[Page] = []
    for i in range(PLAYERS):
        page = browser.new_context(**phone).new_page()
        page.goto(f"{url}/?code={code}")
        expect(page.get_by_test_id("join-code")).to_have_value(code)
        page.get_by_test_id("join-name").fill(f"Joueur {i + 1}")
        page.get_by_test_id("join-submit").click()
        page.wait_for_url("**/jouer")
        buy(page, "buy-classique")
        page.locator("[data-testid^=carton-]").first.wait_for()
        phones.append(page)
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{url}/ecran?code={code}")

    spread = _sockets_per_process(scaled_app["pid"], scaled_app["port"])
    assert len(spread) >= 2, f"all sockets on one worker: {spread}"
    assert _lean_workers(scaled_app["pid"]) == 2, "two lean workers serve (not Granian)"

    tablet.get_by_test_id("start-game").click()
    for draw in range(1, 6):
        expect(tablet.get_by_test_id("draw")).to_be_enabled()
        tablet.get_by_test_id("draw").click()
        expect(tablet.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(draw)
        last = tablet.get_by_test_id("last-number").inner_text()
        for page in [*phones, screen]:
            expect(page.get_by_test_id("last-number")).to_have_text(last)
        expect(screen.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(draw)

    claimer = phones[-1]
    claim(claimer.locator("[data-testid^=claim-]").first)  # too early: a false claim
    expect(claimer.get_by_test_id("verdict")).to_contain_text("Fausse annonce")
    for page in [tablet, screen]:
        expect(page.get_by_test_id("announcement")).to_contain_text("Fausse annonce")

    phones[0].reload()
    expect(phones[0].get_by_test_id("last-number")).to_have_text(last)
    expect(phones[0].locator("[data-testid^=carton-]")).to_have_count(1)
    screen.screenshot(path=results_dir / "screen.png")
    claimer.screenshot(path=results_dir / "claimer.png", full_page=True)


def test_a_reconnect_while_the_old_socket_is_held_is_not_noticed_on_two_workers(
    scaled_app: dict, browser: Browser, phone: dict, results_dir: Path
) -> None:
    """A phone that reconnects before the server noticed the drop gets a new token from the
    worker that still holds the old socket (another worker takes the token as it is, and
    rebuilds the page's state from its stored identity), and must not notice it either."""
    engine = make_engine(scaled_app["db_url"])
    # an evening of its own: the other test's game is running, and cartons bought now would
    # only play the next one
    program = demo_program("TOK")
    program = Program(
        program.series, program.games, Settings(DrawSource.ELECTRONIC, free_cartons=True)
    )
    creds = EveningStore(engine).create_evening("Jeton neuf", program, animateur_secret=SECRET)
    new_token_round_trip(
        scaled_app["url"],
        engine,
        creds.evening_id,
        creds.join_code,
        SECRET,
        browser,
        phone,
        results_dir,
        must_renew=False,
    )
    engine.dispose()
