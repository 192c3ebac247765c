"""Faults of several workers mid-game: Redis restarted, a worker killed. The phones come back,
with their cartons and pions, and follow the draw; nothing is duplicated.

One server start for both tests: test_scale_out.py's harness (`reflex run --env prod`, two
workers, PostgreSQL), pointed at a Redis server of this module's own (started here on a free
port, restarted by the first test, stopped at the end), so that restarting it disturbs no one
else's Redis. Redis first: the server outlives that fault whatever runs it. A worker killed
needs a server that starts it again, or serves on without it: gunicorn's master does; Granian,
as Reflex starts it, stops every worker when one dies.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest
import test_scale_out
from gestures import buy
from outside import serving
from playwright.sync_api import expect
from sockets import FIRST_MARKS_AT_ONCE, marks
from sqlalchemy import text

from loto_app.domain.program import DrawSource, Program, Settings, demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.eventlog import EventLog
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.faults

SECRET = test_scale_out.SECRET
PLAYERS = 6
#: The harness's server start (module-scoped here: this module's own server).
scaled_app = test_scale_out.scaled_app


class RedisServer:
    """A redis-server of the tests' own, without persistence (a restart loses everything, as
    the hall's Redis restarted without its disk would)."""

    def __init__(self, exe: str, port: int, workdir: Path) -> None:
        self.exe, self.port, self.workdir = exe, port, workdir
        self.url = f"redis://127.0.0.1:{port}"
        self.proc: subprocess.Popen | None = None

    def up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *(self.exe, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.workdir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while not self.up():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """`SHUTDOWN NOSAVE`, as an operator stops it (killed if it does not go)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "shutdown", "nosave"],
                capture_output=True,
                timeout=10,
                check=False,
            )
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    exe = shutil.which("redis-server")
    if exe is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(exe, serving.free_port(), tmp_path_factory.mktemp("redis"))
    server.start()
    patch = pytest.MonkeyPatch()
    patch.setattr(test_scale_out, "REDIS_URL", server.url)  # (read by the harness's start)
    try:
        yield server
    finally:
        patch.undo()
        server.stop()


@pytest.fixture(scope="module")
def app(own_redis: RedisServer, scaled_app: dict) -> dict:
    """The two-worker app, on this module's Redis (`own_redis` first: the start reads it)."""
    return {**scaled_app, "redis": own_redis}


def _evening(db_url: str, name: str, prefix: str) -> tuple[int, str]:
    program = demo_program(prefix)
    program = Program(
        program.series, program.games, Settings(DrawSource.ELECTRONIC, free_cartons=True)
    )
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(name, program, animateur_secret=SECRET)
    engine.dispose()
    return creds.evening_id, creds.join_code


def _tablet(browser: Browser, url: str, code: str) -> Page:
    tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    tablet.goto(f"{url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.get_by_test_id("start-game")).to_be_visible(timeout=30_000)
    return tablet


def _phones(browser: Browser, phone: dict, url: str, code: str) -> list[Page]:
    """PLAYERS phones joined, a carton each (their batches of pions go a second after a touch)."""
    pages = []
    for i in range(PLAYERS):
        page = browser.new_context(**phone).new_page()
        page.add_init_script(FIRST_MARKS_AT_ONCE)
        page.goto(f"{url}/?code={code}")
        expect(page.get_by_test_id("join-code")).to_have_value(code)
        page.get_by_test_id("join-name").fill(f"Joueur {i + 1}")
        page.get_by_test_id("join-submit").click()
        pages.append(page)
    for page in pages:
        page.wait_for_url("**/jouer")
        buy(page, "buy-classique")
        expect(page.locator("[data-testid^=carton-]")).to_have_count(1)
    return pages


def _draw(tablet: Page, phones: list[Page], times: int) -> str:
    """The tablet draws `times` numbers; every phone shows each. Returns the last."""
    last = ""
    for _ in range(times):
        count = tablet.locator("[data-testid^=board-][data-drawn=true]").count()
        expect(tablet.get_by_test_id("draw")).to_be_enabled(timeout=30_000)
        tablet.get_by_test_id("draw").click()
        expect(tablet.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(
            count + 1, timeout=30_000
        )
        last = tablet.get_by_test_id("last-number").inner_text()
        for page in phones:
            expect(page.get_by_test_id("last-number")).to_have_text(last, timeout=30_000)
    return last


def _mark_drawn(phones: list[Page]) -> set[tuple[int, int]]:
    """Every phone puts a pion on each drawn number of its carton; returns them all."""
    out: set[tuple[int, int]] = set()
    for page in phones:
        for cell in page.locator("[data-testid^=cell-][data-drawn=true]").all():
            cell.click()
            expect(cell).to_have_attribute("data-marked", "true")
            carton, number = cell.get_attribute("data-cell").split("-")
            out.add((int(carton), int(number)))
    return out


def _shown(page: Page) -> set[tuple[int, int]]:
    ids = page.locator("[data-testid^=cell-][data-marked=true]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-cell'))"
    )
    return {(int(k.split("-")[0]), int(k.split("-")[1])) for k in ids}


def _workers(pid: int, port: int) -> dict[int, int]:
    """The server's processes holding connections on the port: pid -> connections."""
    out = {}
    for p in [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]:
        try:
            conns = p.net_connections("tcp")
        except psutil.Error:
            continue
        n = sum(1 for c in conns if c.status == "ESTABLISHED" and c.laddr and c.laddr.port == port)
        if n:
            out[p.pid] = n
    return out


def _serving(pid: int) -> bool:
    """Is any process of the server still running (not a zombie)?"""
    try:
        server = psutil.Process(pid)
        procs = [server, *server.children(recursive=True)]
    except psutil.Error:
        return False
    for p in procs:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                return True
        except psutil.Error:
            continue
    return False


def _reconnected(app: dict, victim: int, sockets: int, timeout: float = 60.0) -> None:
    """Wait until the server holds `sockets` connections again, none on the killed worker."""
    deadline = time.monotonic() + timeout
    while True:
        now = _workers(app["pid"], app["port"])
        if victim not in now and sum(now.values()) >= sockets:
            return
        assert _serving(app["pid"]), "the whole server stopped when one worker died"
        assert time.monotonic() < deadline, f"not reconnected: {now}"
        time.sleep(0.25)


def _count(tablet: Page, n: int) -> None:
    """The tablet says `n` phones are connected."""
    expect(tablet.get_by_test_id("phones-count")).to_have_attribute(
        "data-phones", str(n), timeout=30_000
    )


def _stored_marks(engine, evening_id: int, want: set, timeout: float = 60.0) -> set:
    deadline = time.monotonic() + timeout
    got = marks(engine, evening_id)
    while got != want and time.monotonic() < deadline:
        time.sleep(0.25)
        got = marks(engine, evening_id)
    return got


def _nothing_twice(engine, evening_id: int, players: int) -> None:
    """The database holds each move once: one player per phone, each carton sold once, each
    number drawn once, the journal's sequence without a gap or a repeat, its chain intact."""
    with engine.connect() as c:
        q = {"e": evening_id}
        assert c.execute(text("select count(*) from player where evening_id=:e"), q).scalar() == (
            players
        )
        nos = [
            no
            for (nos,) in c.execute(text("select carton_nos from purchase where evening_id=:e"), q)
            for no in nos
        ]
        assert len(nos) == len(set(nos)) == players, nos
        numbers = [n for (n,) in c.execute(text("select number from draw where evening_id=:e"), q)]
        assert len(numbers) == len(set(numbers)), numbers
        seqs = [
            s
            for (s,) in c.execute(
                text("select seq from audit_log where evening_id=:e order by seq"), q
            )
        ]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
    assert EventLog(engine).verify_audit(evening_id) == []


def _phone_shows_once(page: Page, drawn: int) -> None:
    """The phone shows its one carton and the whole draw."""
    expect(page.locator("[data-testid^=carton-]")).to_have_count(1)
    expect(page.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(drawn)


def test_redis_restarted_mid_game_the_phones_follow_the_next_number(
    app: dict, browser: Browser, phone: dict, results_dir: Path
) -> None:
    url, redis = app["url"], app["redis"]
    eid, code = _evening(app["db_url"], "Panne de Redis", "RDS")
    engine = make_engine(app["db_url"])
    tablet = _tablet(browser, url, code)
    phones = _phones(browser, phone, url, code)
    tablet.get_by_test_id("start-game").click()
    _draw(tablet, phones, 3)
    pions = _mark_drawn(phones)
    _count(tablet, PLAYERS)
    pages = [tablet, *phones]
    for page in pages:
        page.evaluate("window.__beforeRestart = true")
    try:
        redis.stop()  # everything in it lost: the rooms' channel, the phones' count, the tokens
        time.sleep(3)
    finally:
        redis.start()
    assert redis.up()

    # the pages' states live in the workers (rxconfig.py), not in Redis: no page loads again,
    # the tablet draws on at once and every phone follows the next numbers
    expect(tablet.get_by_test_id("draw")).to_be_visible(timeout=30_000)
    last = _draw(tablet, phones, 2)
    for page in phones:
        expect(page.get_by_test_id("connection-banner")).to_have_count(0, timeout=45_000)
        expect(page.get_by_test_id("last-number")).to_have_text(last)
        _phone_shows_once(page, 5)
    assert set().union(*(_shown(p) for p in phones)) == pions
    assert _stored_marks(engine, eid, pions) == pions
    for page in pages:  # (nothing was reloaded)
        assert page.evaluate("window.__beforeRestart === true")
    _nothing_twice(engine, eid, PLAYERS)
    _count(tablet, PLAYERS)  # (the count in Redis written again by every worker)
    expect(tablet.get_by_test_id("phones-warning")).to_have_count(0, timeout=30_000)
    phones[-1].screenshot(path=results_dir / "phone-after-redis.png", full_page=True)
    engine.dispose()


def test_a_worker_killed_mid_game_its_phones_go_on_on_the_other(
    app: dict, browser: Browser, phone: dict, results_dir: Path
) -> None:
    url = app["url"]
    eid, code = _evening(app["db_url"], "Panne d'un worker", "KIL")
    engine = make_engine(app["db_url"])
    tablet = _tablet(browser, url, code)
    phones = _phones(browser, phone, url, code)
    tablet.get_by_test_id("start-game").click()
    _draw(tablet, phones, 8)
    spread = _workers(app["pid"], app["port"])
    assert len(spread) >= 2, f"all sockets on one worker: {spread}"
    # the tablet counts every phone, whichever worker holds it (summed through Redis)
    _count(tablet, PLAYERS)
    pions = _mark_drawn(phones)
    assert pions, "no drawn number on any carton (8 numbers, 6 cartons)"

    # the worker with the most connections dies at once (batches of pions may be in flight)
    victim = max(spread, key=spread.__getitem__)
    psutil.Process(victim).send_signal(signal.SIGKILL)
    _reconnected(app, victim, PLAYERS + 1)
    for page in phones:
        expect(page.get_by_test_id("connection-banner")).to_have_count(0, timeout=45_000)
    _count(tablet, PLAYERS)
    expect(tablet.get_by_test_id("phones-warning")).to_have_count(0)

    # every phone has its carton and its pions; the server has every pion, once
    for page in phones:
        expect(page.locator("[data-testid^=carton-]")).to_have_count(1)
    assert set().union(*(_shown(p) for p in phones)) == pions
    assert _stored_marks(engine, eid, pions) == pions

    # the draw goes on, on every phone
    last = _draw(tablet, phones, 2)
    for page in phones:
        _phone_shows_once(page, 10)
        expect(page.get_by_test_id("last-number")).to_have_text(last)
    # a phone reloaded: the same player, the same carton and pions, from the server
    phones[0].reload()
    expect(phones[0].get_by_test_id("last-number")).to_have_text(last, timeout=30_000)
    _phone_shows_once(phones[0], 10)
    mine = {(c, n) for c, n in pions if phones[0].locator(f"[data-testid=carton-{c}]").count()}
    expect(phones[0].locator("[data-testid^=cell-][data-marked=true]")).to_have_count(len(mine))
    _nothing_twice(engine, eid, PLAYERS)
    tablet.screenshot(path=results_dir / "tablet-after-kill.png")
    phones[0].screenshot(path=results_dir / "phone-after-kill.png", full_page=True)
    engine.dispose()
