"""A weak mobile network: the player's phone loses the connection mid-game, sees it, and on
reconnect gets the whole current state (numbers drawn meanwhile) with its marks intact; and a
phone that reconnects before the server noticed the drop, and so gets a new client token and an
empty Reflex state, finds its cartons and marks back without noticing, as the same player."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gestures import buy
from playwright.sync_api import expect
from sockets import new_token_round_trip

from loto_app.domain.program import demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "reconnect-secret"


def _drawn(page: Page) -> set[int]:
    return {
        int(t.get_attribute("data-n"))
        for t in page.locator("[data-testid^=board-][data-drawn=true]").all()
    }


def test_connection_lost_and_back_mid_game(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Réseau faible",
        demo_program("NET").with_settings(free_cartons=True),
        animateur_secret=SECRET,
    )
    engine.dispose()
    code = creds.join_code

    context = browser.new_context(**phone)
    player = context.new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("join-code")).to_have_value(code)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique-3")
    expect(player.locator("[data-testid^=carton-]")).to_have_count(3)

    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click()

    def draw(n: int) -> None:
        for _ in range(n):
            count = len(_drawn(tablet))
            expect(tablet.get_by_test_id("draw")).to_be_enabled()
            tablet.get_by_test_id("draw").click()
            expect(tablet.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(
                count + 1
            )

    # draw until one of the player's numbers is out, and mark it
    cells = player.locator("[data-testid^=cell-][data-drawn=true]")
    for _ in range(30):
        draw(1)
        expect(player.get_by_test_id("last-number")).to_have_text(
            tablet.get_by_test_id("last-number").inner_text()
        )
        if cells.count():
            break
    marked = cells.first
    marked_id = marked.get_attribute("data-testid")
    marked.click()
    expect(player.get_by_test_id(marked_id)).to_have_attribute("data-marked", "true")
    expect(player.get_by_test_id("connection-banner")).to_have_count(0)

    context.set_offline(True)
    expect(player.get_by_test_id("connection-banner")).to_be_visible(timeout=30_000)
    player.screenshot(path=results_dir / "01-hors-ligne.png", full_page=True)
    draw(3)
    last = tablet.get_by_test_id("last-number").inner_text()
    assert player.get_by_test_id("last-number").inner_text() != last  # still offline

    context.set_offline(False)
    expect(player.get_by_test_id("connection-banner")).to_have_count(0, timeout=30_000)
    expect(player.get_by_test_id("last-number")).to_have_text(last, timeout=30_000)
    drawn = _drawn(tablet)
    on_cartons = {
        int(t)
        for t in player.locator("[data-testid^=cell-]").all_inner_texts()
        if t.strip().isdigit()
    }
    expect(player.locator("[data-testid^=cell-][data-drawn=true]")).to_have_count(
        len(drawn & on_cartons)
    )
    expect(player.get_by_test_id(marked_id)).to_have_attribute("data-marked", "true")
    player.screenshot(path=results_dir / "02-reconnecte.png", full_page=True)


def test_a_reconnect_that_gets_a_new_token_is_not_noticed(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Jeton neuf",
        demo_program("TOK").with_settings(free_cartons=True),
        animateur_secret=SECRET,
    )
    new_token_round_trip(
        app_url, engine, creds.evening_id, creds.join_code, SECRET, browser, phone, results_dir
    )
    engine.dispose()
