"""The players' gestures in the browser tests, done the way a thumb does them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page


def claim(button: Locator) -> None:
    """Claim with a carton's button (`claim-N`), or end a game with the animateur's "Vous
    pouvez démarquer" (`allow-unmark`): a first tap arms it ("Confirmer : QUINE ?", no server
    event), a second tap on the same spot, once the button is ready for it (a second tap
    within a bounce's time is ignored), acts (assets/loto.js)."""
    expect(button).to_be_enabled()
    button.click()
    expect(button).to_have_attribute("data-armed", "ready")
    button.click()
    # taken: disarmed, or gone (the démarquage button goes once the game is over)
    expect(button.and_(button.page.locator('[data-armed="ready"]'))).to_have_count(0)


def buy(page: Page, offer: str) -> None:
    """Order a pack from the phone: a tap on the tariff line (`buy-<kind>[-<n>]`) asks
    "Commander … ?", "Oui, commander" orders."""
    page.get_by_test_id(offer).click()
    expect(page.get_by_test_id("buy-confirm-box")).to_be_visible()
    page.get_by_test_id("buy-confirm").click()
    expect(page.get_by_test_id("buy-confirm-box")).to_have_count(0)


def join(page: Page, url: str, code: str, name: str, offer: str, cartons: int) -> None:
    """Join by the QR code's link (`/?code=`), then order `offer` and wait for its `cartons`."""
    page.goto(f"{url}/?code={code}")
    expect(page.get_by_test_id("join-code")).to_have_value(code)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    page.wait_for_url("**/jouer")
    buy(page, offer)
    expect(page.locator("[data-testid^=carton-]")).to_have_count(cartons)
