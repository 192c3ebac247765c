"""Marks are the phone's: a touch shows its pion at once, also with no connection at all; the
pions put (and taken off) while offline reach the server once the connection is back, and are
there after a reload and on the player's other device. The phone sends them in batches, one
every three minutes in slots of its own (the first at a random moment of the first three minutes
after the page's first touch, so that a thousand phones do not send in the same second), and at
once when the page is hidden or the connection comes back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from gestures import claim, join
from playwright.sync_api import expect
from sockets import FIRST_MARKS_AT_ONCE, marks

from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
    demo_program,
)
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "marks-offline-secret"


def _shown(page: Page) -> set[tuple[int, int]]:
    """The pions a page shows: (carton, number)."""
    ids = page.locator("[data-testid^=cell-][data-marked=true]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-cell'))"
    )
    return {(int(k.split("-")[0]), int(k.split("-")[1])) for k in ids}


def _stored(engine, evening_id: int, want: set[tuple[int, int]], timeout: float = 30.0) -> set:
    deadline = time.monotonic() + timeout
    got = marks(engine, evening_id)
    while got != want and time.monotonic() < deadline:
        time.sleep(0.1)
        got = marks(engine, evening_id)
    return got


def _evening(engine, name: str, prefix: str) -> tuple[int, str]:
    """A new evening (free cartons): its id and join code."""
    creds = EveningStore(engine).create_evening(
        name, demo_program(prefix).with_settings(free_cartons=True), animateur_secret=SECRET
    )
    return creds.evening_id, creds.join_code


def _tablet(browser: Browser, app_url: str, code: str) -> Page:
    """The animateur's tablet, signed in, the first game started."""
    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click()
    return tablet


def _draw_until(tablet: Page, player: Page, cells: int) -> None:
    """Draw until the player's cartons hold `cells` drawn numbers."""
    drawn_cells = player.locator("[data-testid^=cell-][data-drawn=true]")
    board = tablet.locator("[data-testid^=board-][data-drawn=true]")
    for _ in range(60):
        if drawn_cells.count() >= cells:
            return
        count = board.count()
        expect(tablet.get_by_test_id("draw")).to_be_enabled()
        tablet.get_by_test_id("draw").click()
        expect(board).to_have_count(count + 1)
        expect(player.get_by_test_id("last-number")).to_have_text(
            tablet.get_by_test_id("last-number").inner_text()
        )


def test_marks_made_offline_are_kept_sent_and_seen_elsewhere(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    eid, code = _evening(engine, "Hors ligne", "OFF")

    context = browser.new_context(**phone)
    # the page's first batch a second after its first touch (not at a random moment of the first
    # three minutes: test_the_first_batch_goes_at_a_moment_of_its_own below)
    context.add_init_script(FIRST_MARKS_AT_ONCE)
    player = context.new_page()
    join(player, app_url, code, "Mamie Jo", "buy-classique-3", 3)
    tablet = _tablet(browser, app_url, code)
    _draw_until(tablet, player, 3)  # three of the player's numbers out
    drawn_cells = player.locator("[data-testid^=cell-][data-drawn=true]")
    cells = [c.get_attribute("data-cell") for c in drawn_cells.all()[:3]]
    first, second, third = (player.locator(f"[data-cell='{k}']") for k in cells)
    key = {k: (int(k.split("-")[0]), int(k.split("-")[1])) for k in cells}

    # online: a pion, stored a moment later
    first.click()
    expect(first).to_have_attribute("data-marked", "true")
    assert _stored(engine, eid, {key[cells[0]]}) == {key[cells[0]]}
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "0")

    # offline: two pions put and the first taken off, each shown at once
    context.set_offline(True)
    expect(player.get_by_test_id("connection-banner")).to_be_visible(timeout=30_000)
    second.click()
    expect(second).to_have_attribute("data-marked", "true", timeout=1_000)
    third.click()
    expect(third).to_have_attribute("data-marked", "true", timeout=1_000)
    first.click()
    expect(first).to_have_attribute("data-marked", "false", timeout=1_000)
    assert first.get_attribute("aria-pressed") == "false"
    assert third.get_attribute("aria-label").endswith(", marqué")
    player.screenshot(path=results_dir / "01-hors-ligne.png", full_page=True)
    # the page's French banner says it, and nothing in English covers the cartons
    expect(player.get_by_test_id("connection-banner")).to_contain_text("vos pions sur ce téléphone")
    expect(player.get_by_text("Cannot connect to server")).to_have_count(0)
    expect(player.locator("[data-sonner-toast]")).to_have_count(0)
    player.wait_for_timeout(2_500)  # longer than a batch waits: nothing could go out
    assert marks(engine, eid) == {key[cells[0]]}
    want = {key[cells[1]], key[cells[2]]}

    # back online: the phone still shows them, and the server gets them
    context.set_offline(False)
    expect(player.get_by_test_id("connection-banner")).to_have_count(0, timeout=30_000)
    assert _shown(player) == want
    assert _stored(engine, eid, want) == want
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "0")

    # a reload shows them (from the server: the phone has nothing left to send)
    player.reload()
    expect(player.locator("[data-testid^=carton-]")).to_have_count(3)
    expect(second).to_have_attribute("data-marked", "true")
    expect(third).to_have_attribute("data-marked", "true")
    expect(first).to_have_attribute("data-marked", "false")
    assert _shown(player) == want

    # the player's other device (the same identity in its storage) shows them too
    other = browser.new_context(**phone, storage_state=context.storage_state()).new_page()
    other.goto(f"{app_url}/jouer")
    expect(other.locator("[data-testid^=carton-]")).to_have_count(3)
    for k in cells[1:]:
        expect(other.locator(f"[data-cell='{k}']")).to_have_attribute("data-marked", "true")
    expect(other.locator(f"[data-cell='{cells[0]}']")).to_have_attribute("data-marked", "false")
    assert _shown(other) == want
    other.screenshot(path=results_dir / "02-autre-appareil.png", full_page=True)

    # the reloaded page's first batch goes a second after the touch...
    first.click()
    expect(first).to_have_attribute("data-marked", "true")
    assert _stored(engine, eid, want | {key[cells[0]]}) == want | {key[cells[0]]}
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "0")
    # ... the next one waits for the next slot, three minutes later (a batch spans the draws of
    # that time), but goes at once when the phone is put away (the page hidden)
    first.click()
    expect(first).to_have_attribute("data-marked", "false")
    player.wait_for_timeout(3_000)  # longer than a first batch waits
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "1")
    assert marks(engine, eid) == want | {key[cells[0]]}
    player.evaluate(
        """() => {
            const hidden = {value: "hidden", configurable: true};
            Object.defineProperty(document, "visibilityState", hidden);
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    assert _stored(engine, eid, want) == want
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "0")
    player.evaluate("() => { delete document.visibilityState; }")

    # a touch on a number not drawn yet: said on the phone, no pion, nothing sent
    undrawn = player.locator("[data-cell][data-drawn=false]").first
    undrawn.click()
    expect(player.get_by_test_id("mark-message")).to_contain_text("pas encore sorti")
    expect(undrawn).to_have_attribute("data-marked", "false")
    assert _stored(engine, eid, want, timeout=2.0) == want
    engine.dispose()


def test_the_first_batch_goes_at_a_moment_of_its_own(
    app_url: str, db_url: str, browser: Browser, phone: dict
) -> None:
    """Each page draws its first slot at random within the spacing after its first touch (here
    20 s instead of three minutes): two phones that begin on the same number send at different
    moments, none before its slot, each within it."""
    spacing = 20_000
    engine = make_engine(db_url)
    eid, code = _evening(engine, "Créneaux", "SLT")
    context = browser.new_context(**phone)
    context.add_init_script(f"window.__lotoMarksSpacingMs = {spacing};")
    first = context.new_page()
    join(first, app_url, code, "Tante Odette", "buy-classique-3", 3)
    second = context.new_page()  # the same player's second tab: a page of its own
    second.goto(f"{app_url}/jouer")
    expect(second.locator("[data-testid^=carton-]")).to_have_count(3)
    tablet = _tablet(browser, app_url, code)
    _draw_until(tablet, first, 2)
    expect(second.get_by_test_id("last-number")).to_have_text(
        tablet.get_by_test_id("last-number").inner_text()
    )
    keys = [
        c.get_attribute("data-cell")
        for c in first.locator("[data-testid^=cell-][data-drawn=true]").all()[:2]
    ]
    want = {(int(k.split("-")[0]), int(k.split("-")[1])) for k in keys}

    touched = time.monotonic()
    for page, key in zip((first, second), keys, strict=True):
        cell = page.locator(f"[data-cell='{key}']")
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
    delays = [int(p.locator("html").get_attribute("data-marks-first-ms")) for p in (first, second)]
    assert all(1_000 <= d <= spacing for d in delays), delays
    assert delays[0] != delays[1], "two pages drew the same first slot"
    # none goes before its slot: nothing stored a second before the earlier one
    wait = min(delays) / 1000 - 1.0 - (time.monotonic() - touched)
    if wait > 0:
        time.sleep(wait)
        assert marks(engine, eid) == set()
        for page in (first, second):
            expect(page.locator("html")).to_have_attribute("data-marks-pending", "1")
    # each goes in its slot
    assert _stored(engine, eid, want, timeout=max(delays) / 1000 + 15) == want
    for page in (first, second):
        expect(page.locator("html")).to_have_attribute("data-marks-pending", "0")
    engine.dispose()


def test_pions_put_as_the_game_ends_stay_until_demarquage(
    app_url: str, db_url: str, browser: Browser, phone: dict
) -> None:
    """The pions of a quick claim whose batch reaches the server once the game is over (the
    lot awarded and "Vous pouvez démarquer" said before the phone's batch went, as on a busy
    server): the server refuses the batch (it keeps no pion of a finished game), and the phone
    still shows every pion until the player's "Démarquer", then none (the full evening failed
    so on a busy machine: the refused batch took the last pion off)."""
    engine = make_engine(db_url)
    quick = Program(
        series="FIN",
        games=(
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),)),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),)),
        ),
        settings=Settings(DrawSource.PHYSICAL, free_cartons=True),
    )
    creds = EveningStore(engine).create_evening("Fin de partie", quick, animateur_secret=SECRET)
    context = browser.new_context(**phone)
    context.add_init_script("window.__lotoMarksFirstMs = 600000;")  # no batch goes by itself
    player = context.new_page()
    join(player, app_url, creds.join_code, "Papi Jean", "buy-classique", 1)
    row = [c.get_attribute("data-cell") for c in player.locator("[data-cell][data-row='0']").all()]
    assert len(row) == 5, row
    no = int(row[0].split("-")[0])

    tablet = _tablet(browser, app_url, creds.join_code)
    cells = [player.locator(f"[data-cell='{k}']") for k in row]
    for key, cell in zip(row, cells, strict=True):
        number = key.split("-")[1]
        tablet.get_by_test_id("ball-input").fill(number)
        tablet.get_by_test_id("ball-submit").click()
        expect(player.get_by_test_id("last-number")).to_have_text(number)
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "5")

    # the quine, awarded, and "Vous pouvez démarquer": the game (one stage) is over before the
    # phone's batch goes
    claim(player.get_by_test_id(f"claim-{no}"))
    expect(player.get_by_test_id("verdict")).to_contain_text("Annonce valide")
    award = tablet.get_by_test_id("award")
    expect(award).to_be_enabled(timeout=30_000)  # after the last call
    award.click()
    claim(tablet.get_by_test_id("allow-unmark"))
    unmark = player.get_by_test_id("unmark-all")
    expect(unmark).to_be_enabled()
    player.evaluate(
        """() => {
            const hidden = {value: "hidden", configurable: true};
            Object.defineProperty(document, "visibilityState", hidden);
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    player.wait_for_function("() => (window.__lotoMarkAcks || 0) >= 1")
    player.evaluate("() => { delete document.visibilityState; }")
    expect(player.locator("html")).to_have_attribute("data-marks-pending", "0")
    assert marks(engine, creds.evening_id) == set()  # refused: the game was over
    for cell in cells:
        expect(cell).to_have_attribute("data-marked", "true")
    player.wait_for_timeout(1_500)  # and nothing takes them off by itself
    assert _shown(player) == {(no, int(k.split("-")[1])) for k in row}

    # the player's "Démarquer mes cartons": no pion left
    unmark.click()
    expect(player.locator("[data-cell][data-marked=true]")).to_have_count(0)
    engine.dispose()
