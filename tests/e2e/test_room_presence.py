"""The animateur sees the room: how many players' phones are connected now, live, and a warning
when many drop at once (the hall's Wi-Fi), which clears when they come back. One process (the
in-process app); tests/e2e/test_scale_out_faults.py counts across two workers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect

from loto_app.domain.program import demo_program
from loto_app.live.present.room import WARNING
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "room-secret"
PHONES = 6
GONE = 5  # of 6: a third or more, at least five
#: Outside the repository: a person looks at them.
SCREENS = Path(os.environ.get("LOTO_SCREENS_DIR", "/work/notes/screens/34"))


def _count(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("phones-count")).to_have_attribute(
        "data-phones", str(n), timeout=10_000
    )


def test_the_tablet_counts_the_phones_and_warns_of_a_mass_drop(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes", demo_program("ROO"), animateur_secret=SECRET
    )
    engine.dispose()
    code = creds.join_code

    tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.get_by_test_id("start-game")).to_be_visible()
    _count(tablet, 0)

    # (the phones load and join side by side: each step on every phone, then the next)
    contexts = [browser.new_context(**phone) for _ in range(PHONES)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.goto(f"{app_url}/?code={code}", wait_until="commit")
    for i, page in enumerate(pages):
        expect(page.get_by_test_id("join-code")).to_have_value(code)
        page.get_by_test_id("join-name").fill(f"Joueur {i + 1}")
        page.get_by_test_id("join-submit").click()
    for page in pages:
        page.wait_for_url("**/jouer")
    _count(tablet, PHONES)
    expect(tablet.get_by_test_id("phones-count")).to_have_text(
        f"{PHONES} téléphones connectés en ce moment"
    )
    expect(tablet.get_by_test_id("phones-warning")).to_have_count(0)
    # the count is the staff's: no phone is sent it
    assert "connecté" not in pages[0].inner_text("body")

    # a player's second tab is the same phone: counted once, and its first page closed, the
    # player is still there (a page cannot make the count grow, nor fake a drop)
    second = contexts[0].new_page()
    second.goto(f"{app_url}/jouer")
    expect(second.get_by_test_id("buy-classique")).to_be_visible()
    tablet.wait_for_timeout(2_500)  # (the count is read every second)
    _count(tablet, PHONES)
    pages[0].close()
    pages[0] = second
    # the Wi-Fi of most of the hall fails: five phones gone at once (the player of two tabs
    # is still there: had the count dropped with the first tab, it would say 0 here)
    for page in pages[-GONE:]:
        page.close()
    _count(tablet, PHONES - GONE)
    warning = tablet.get_by_test_id("phones-warning")
    expect(warning).to_have_text(WARNING)
    SCREENS.mkdir(parents=True, exist_ok=True)
    tablet.screenshot(path=SCREENS / "tablet-phones-warning-1180x820.png")
    tablet.screenshot(path=results_dir / "tablet-phones-warning.png")
    tablet.set_viewport_size({"width": 360, "height": 740})  # (a phone as the tablet)
    expect(warning).to_be_in_viewport()
    tablet.screenshot(path=SCREENS / "tablet-phones-warning-360x740.png")
    tablet.set_viewport_size({"width": 1180, "height": 820})

    # they come back (same phones, same players): the warning clears
    for context in contexts[PHONES - GONE :]:
        context.new_page().goto(f"{app_url}/jouer", wait_until="commit")
    _count(tablet, PHONES)
    expect(warning).to_have_count(0)
    tablet.screenshot(path=SCREENS / "tablet-phones-back-1180x820.png")
    for context in contexts:
        context.close()
    _count(tablet, 0)
