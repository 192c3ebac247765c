"""Crash and restart (short version of `bench/crash.py`): the server is SIGKILLed at random
points of a game and started again; nothing committed is lost, duplicated or reordered, the
tablet and the phones find their evening again, and the game goes on.

The seed is printed (`-s` shows it; it is also in the failure message): set `LOTO_CRASH_SEED`
to replay the same choices. No duration is asserted.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from gestures import buy
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[2]


def _crash_module() -> Any:
    import crash  # (bench/crash.py)

    return crash


def _seed() -> int:
    # CI replays one known seed (the long runs of bench/crash.py explore); a bare run explores
    default = 7 if os.environ.get("CI") else random.SystemRandom().randrange(10**6)
    seed = int(os.environ.get("LOTO_CRASH_SEED") or default)
    print(f"crash seed {seed} (replay: LOTO_CRASH_SEED={seed})", flush=True)
    return seed


def _cartons(page: Page) -> list[str]:
    return sorted(
        page.locator("[data-testid^=carton-]").evaluate_all(
            "els => els.map(e => e.getAttribute('data-testid'))"
        )
    )


#: Watches the page for what a player would see: the moments when, connected (no banner), it
#: showed no carton at all. A reload would lose the watch, and is noticed too.
WATCH = """() => {
  window.__lotoEmpty = [];
  const check = () => {
    const banner = document.querySelector('[data-testid=connection-banner]');
    const cartons = document.querySelectorAll('[data-testid^=carton-]').length;
    if (!banner && cartons === 0) window.__lotoEmpty.push(Date.now());
  };
  new MutationObserver(check).observe(document.body, {childList: true, subtree: true});
}"""


def test_server_killed_three_times_with_a_real_phone(
    browser: Browser, phone: dict, results_dir: Path, prod_build: Any
) -> None:
    crash = _crash_module()
    seed = _seed()
    c = crash.Crash(seed=seed, players=3, built=prod_build)
    try:
        c.start()
        # a real phone joins before the first game and takes 3 cartons
        page = browser.new_context(**phone).new_page()
        page.goto(f"{c.srv.url}/?code={c.code}")
        expect(page.get_by_test_id("join-code")).to_have_value(c.code)
        page.get_by_test_id("join-name").fill("Mamie Jo")
        page.get_by_test_id("join-submit").click()
        page.wait_for_url("**/jouer")
        buy(page, "buy-classique-3")
        expect(page.locator("[data-testid^=carton-]")).to_have_count(3)
        cartons = _cartons(page)
        page.evaluate(WATCH)
        marked: str | None = None
        marked_in: tuple = ()  # (game, status) when the pion was put
        for i in range(3):
            c.cycle("server")
            tablet = c.hall.anim.hall
            # the phone was not reloaded: it reconnects by itself to its cartons and the board,
            # within a few seconds of the connection coming back, and never shows them gone
            expect(page.get_by_test_id("connection-banner")).to_have_count(0, timeout=60_000)
            expect(page.locator("[data-testid^=carton-]")).to_have_count(3, timeout=10_000)
            assert _cartons(page) == cartons, f"seed {seed}: the phone's cartons changed"
            empty = page.evaluate("() => window.__lotoEmpty")
            assert empty is not None, f"seed {seed}: the page reloaded after the restart"
            assert not empty, f"seed {seed}: connected, the page showed no carton ({empty})"
            hall = c.hall.anim.hall
            if marked and (hall.get("game_no"), hall.get("status")) != marked_in:
                marked = None  # that game ended meanwhile: démarquage cleared the pion
            if marked:
                expect(page.get_by_test_id(marked)).to_have_attribute("data-marked", "true")
            c.play(2)  # the game goes on: the phone sees the next numbers
            last = str(c.hall.anim.hall.get("last") or "")
            if tablet.get("count") and last != "0":
                expect(page.get_by_test_id("last-number")).to_have_text(last, timeout=30_000)
            page.screenshot(path=results_dir / f"{i + 1:02d}-apres-redemarrage.png")
            cells = page.locator("[data-testid^=cell-][data-drawn=true][data-marked=false]")
            if marked is None and cells.count():
                marked = cells.first.get_attribute("data-testid")
                page.get_by_test_id(marked).click()
                expect(page.get_by_test_id(marked)).to_have_attribute("data-marked", "true")
                marked_in = (c.hall.anim.hall.get("game_no"), c.hall.anim.hall.get("status"))
        c.check()
        c.ok = True
    except AssertionError as exc:
        raise AssertionError(f"seed {seed}: {exc}\n{c.srv.tail(20)}") from exc
    finally:
        c.close()


def _redis_server() -> bool:
    return shutil.which("redis-server") is not None or Path("/usr/bin/redis-server").exists()


def _pg_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=2):
            return True
    except OSError:
        return False


def test_scale_out_server_and_redis_killed(prod_build: Any) -> None:
    """PostgreSQL, Redis and 2 workers: the app is SIGKILLed once, then Redis (a private
    instance: SIGKILLed and started again, every key gone) while the app keeps running."""
    if not _pg_up():
        pytest.skip("PostgreSQL not reachable at 127.0.0.1:5432")
    if not _redis_server():
        pytest.skip("no redis-server binary to run a private Redis")
    crash = _crash_module()
    seed = _seed()
    c = crash.Crash(seed=seed, players=3, scale_out=True, built=prod_build)
    try:
        c.start()
        c.cycle("server")
        c.cycle("redis")
        c.play(3)
        c.check()
        c.ok = True
    except AssertionError as exc:
        raise AssertionError(f"seed {seed}: {exc}\n{c.srv.tail(20)}") from exc
    finally:
        c.close()
