"""No client can fill the server's disk: a real phone's socket sends 1,000 oversized events and
events naming no handler (the frames a hostile or broken client could send). Each kind is
refused with a short line in the log, repeats are counted rather than logged one by one, so the
whole flood grows the server's log by less than 100 KB (one such frame alone used to add 911 KB:
Reflex printed the whole value), and everyone else keeps being served throughout."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gestures import join
from playwright.sync_api import expect
from sockets import MARK_COMMITTED_S, PLAYER, ROOT, SHORT_MARKS_SPACING, Injector
from sqlmodel import Session, select

from loto_app.domain.program import demo_program
from loto_app.live.gate.frame_guard import MAX_EVENT_BYTES, MAX_FRAME_BYTES
from loto_app.storage import models as m
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "flood-secret"
FLOOD = 1000
LOG_BUDGET = 100_000  # bytes of server log for the whole flood


class LogSize(logging.Handler):
    """Counts the bytes the server would write to its log: every record of every logger, as
    formatted by a plain `LEVEL name: message` formatter, tracebacks included."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self.bytes = 0
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        self.bytes += len(text.encode()) + 1
        self.lines.append(text[:300])


def _join(browser: Browser, phone: dict, url: str, code: str, name: str) -> tuple[Page, Injector]:
    page = browser.new_context(**phone).new_page()
    # each pion's batch a second after the touch (not one every three minutes: see
    # test_marks_offline.py)
    page.add_init_script(SHORT_MARKS_SPACING)
    inject = Injector(page)
    join(page, url, code, name, "buy-classique", 1)
    return page, inject


def _marks(engine, evening_id: int) -> set[tuple[int, int]]:
    with Session(engine) as s:
        rows = s.exec(select(m.MarkRow).where(m.MarkRow.evening_id == evening_id)).all()
    return {(r.carton_no, r.number) for r in rows}


def _mark_one(page: Page, engine, evening_id: int) -> None:
    """Touch a drawn, unmarked cell and see the pion committed."""
    cell = page.locator("[data-testid^=cell-][data-drawn=true][data-marked=false]").first
    key = cell.get_attribute("data-testid")
    assert key is not None
    no, n = (int(x) for x in key.removeprefix("cell-").split("-"))
    cell.click()
    expect(page.get_by_test_id(key)).to_have_attribute("data-marked", "true")
    deadline = time.monotonic() + MARK_COMMITTED_S
    while (no, n) not in _marks(engine, evening_id) and time.monotonic() < deadline:
        # the page's batch of pions goes a second after the touch; a page whose socket the
        # test relays (`inject`) only talks while a Playwright call runs: wait in the page
        page.wait_for_timeout(100)
    assert (no, n) in _marks(engine, evening_id), f"the mark {key} was not committed"


@pytest.mark.timeout(600)
def test_a_flood_of_oversized_and_unknown_events_cannot_fill_the_log(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Déluge", demo_program("FLD").with_settings(free_cartons=True), animateur_secret=SECRET
    )
    eid, code = creds.evening_id, creds.join_code
    attacker, inject = _join(browser, phone, app_url, code, "Pirate")
    other, _ = _join(browser, phone, app_url, code, "Mamie Jo")

    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click()
    drawn = "[data-testid^=cell-][data-drawn=true]"
    for _ in range(60):  # until a few numbers of each phone's carton are out
        tablet.get_by_test_id("draw").click()
        expect(tablet.get_by_test_id("draw")).to_be_enabled()
        if other.locator(drawn).count() >= 6 and attacker.locator(drawn).count() >= 1:
            break
    (mine,) = (
        int(t.removeprefix("carton-"))
        for t in attacker.locator("[data-testid^=carton-]").evaluate_all(
            "els => els.map(e => e.dataset.testid)"
        )
    )

    size = LogSize()
    root = logging.getLogger()
    root.addHandler(size)
    level = root.level
    root.setLevel(logging.INFO)
    try:
        big = "9" * (MAX_EVENT_BYTES * 2)  # over the event limit, under the socket's frame limit
        assert len(big) < MAX_FRAME_BYTES
        flood = [
            (f"{PLAYER}.claim", {"carton_no": big}),
            (f"{PLAYER}.toggle", {"carton_no": mine, "number": big}),
            (f"{PLAYER}.join_evening", {"form_data": {"code": code, "name": big}}),
            (f"{PLAYER}.claim_everything", {"carton_no": mine}),  # no such handler
            (f"{ROOT}.nope_{'x' * 500}", {}),
            (f"{PLAYER}.toggle", {"carton_no": mine, "number": ["1"] * 20_000}),
        ]
        t0 = time.monotonic()
        for i in range(FLOOD):
            handler, payload = flood[i % len(flood)]
            inject.send(handler, payload)
            if i % 250 == 0:  # everyone else is served during the flood
                _mark_one(other, engine, eid)
        _mark_one(other, engine, eid)
        # the attacker's own socket is still alive and served, in order, after the flood
        _mark_one(attacker, engine, eid)
        elapsed = time.monotonic() - t0
    finally:
        root.removeHandler(size)
        root.setLevel(level)
    attacker.screenshot(path=results_dir / "01-apres-le-deluge.png", full_page=True)

    print(f"flood of {FLOOD} events in {elapsed:.1f} s: {size.bytes} bytes of log")
    assert size.bytes < LOG_BUDGET, f"{size.bytes} bytes of log:\n" + "\n".join(size.lines[:20])
    refusals = [line for line in size.lines if "refused event" in line]
    # each kind of refusal is in the log, with its handler's name (not silent)
    for short in ("claim: payload", "toggle: payload", "join_evening: payload", "no handler"):
        assert any(short in line for line in refusals), f"nothing logged for {short!r}"
    assert not any("Traceback" in line or "Error transforming" in line for line in size.lines)
    expect(tablet.get_by_test_id("draw")).to_be_enabled()  # the animateur is served too
    engine.dispose()


@pytest.mark.timeout(300)
def test_a_frame_over_the_socket_limit_closes_only_that_socket(
    app_url: str, db_url: str, browser: Browser, phone: dict
) -> None:
    """A frame over the socket's limit is not read at all: engine.io closes that connection (the
    page reconnects by itself, with its cartons), and nobody else notices."""
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Trop gros", demo_program("BIG").with_settings(free_cartons=True), animateur_secret=SECRET
    )
    attacker, inject = _join(browser, phone, app_url, creds.join_code, "Pirate")
    other, _ = _join(browser, phone, app_url, creds.join_code, "Voisin")
    sockets = inject.sockets
    inject.send(f"{PLAYER}.claim", {"carton_no": "9" * (MAX_FRAME_BYTES + 1000)})
    deadline = time.monotonic() + 30
    while inject.sockets == sockets and time.monotonic() < deadline:
        attacker.wait_for_timeout(100)
    assert inject.sockets > sockets, "the oversized frame did not close the socket"
    expect(attacker.locator("[data-testid^=carton-]")).to_have_count(1, timeout=15_000)
    expect(attacker.get_by_test_id("connection-banner")).to_have_count(0, timeout=15_000)
    expect(other.get_by_test_id("connection-banner")).to_have_count(0)
    expect(other.locator("[data-testid^=carton-]")).to_have_count(1)
    engine.dispose()
