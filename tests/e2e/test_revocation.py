"""A renewed animateur secret really revokes: a tablet signed in with the old secret is signed
out, and a draw its socket still sends is refused in French with nothing drawn; whether the
secret was renewed from /organisation (the tablet is told at once) or from another process (the
storage CLI, as `make run` does: the tablet finds out at its next action)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect
from sockets import ANIMATEUR, Injector
from sqlmodel import Session, func, select

from loto_app.domain.program import demo_program
from loto_app.live.states.animateur import REVOKED
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ANIMATEUR_SECRET = "revocation-animateur"
ORGANISER_SECRET = "revocation-organiser"


def _drawn(engine, evening_id: int) -> int:
    with Session(engine) as s:
        return s.exec(
            select(func.count()).select_from(m.DrawRow).where(m.DrawRow.evening_id == evening_id)
        ).one()


def _tablet(browser: Browser, url: str, code: str, secret: str) -> tuple[Page, Injector]:
    page = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    inject = Injector(page)
    page.goto(f"{url}/animateur")
    page.get_by_test_id("animateur-code").fill(code)
    page.get_by_test_id("animateur-secret").fill(secret)
    page.get_by_test_id("animateur-login").click()
    expect(page.locator("[data-testid=start-game], [data-testid=draw]").first).to_be_visible()
    return page, inject


def _settled(engine, evening_id: int, expected: int) -> int:
    """The number of draws once the server had time to act on what was sent (it must not)."""
    deadline = time.monotonic() + 3
    n = _drawn(engine, evening_id)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        n = _drawn(engine, evening_id)
        if n != expected:
            break
    return n


@pytest.mark.timeout(300)
def test_renewing_the_animateur_secret_signs_every_old_tablet_out(
    app_url: str, db_url: str, browser: Browser, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Tablette perdue",
        demo_program("REV").with_settings(free_cartons=True),
        animateur_secret=ANIMATEUR_SECRET,
        organiser_secret=ORGANISER_SECRET,
    )
    eid, code = creds.evening_id, creds.join_code
    tablet, inject = _tablet(browser, app_url, code, ANIMATEUR_SECRET)
    tablet.get_by_test_id("start-game").click()
    tablet.get_by_test_id("draw").click()
    expect(tablet.get_by_test_id("last-number")).not_to_have_text("–")
    assert _drawn(engine, eid) == 1

    # the organiser renews it from /organisation: asks once, then shows the new secret once
    org = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    org.goto(f"{app_url}/organisation")
    org.get_by_test_id("tab-signin").click()
    org.get_by_test_id("org-login-code").fill(code)
    org.get_by_test_id("org-login-secret").fill(ORGANISER_SECRET)
    org.get_by_test_id("org-login").click()
    org.get_by_test_id("animateur-renew").click()
    expect(org.get_by_test_id("animateur-renew-confirm")).to_be_visible()
    org.screenshot(path=results_dir / "01-confirmation.png", full_page=True)
    org.get_by_test_id("animateur-renew-confirm").click()
    renewed = org.get_by_test_id("animateur-new-secret")
    expect(renewed).to_be_visible()
    new_secret = renewed.inner_text().strip()
    assert new_secret and new_secret != ANIMATEUR_SECRET
    org.screenshot(path=results_dir / "02-nouveau-secret.png", full_page=True)

    # the old tablet is signed out at once, and told why, in French
    expect(tablet.get_by_test_id("animateur-login")).to_be_visible(timeout=10_000)
    expect(tablet.get_by_test_id("animateur-message")).to_have_text(REVOKED)
    tablet.screenshot(path=results_dir / "03-tablette-deconnectee.png", full_page=True)
    # what its socket still sends is refused: nothing drawn
    inject.send(f"{ANIMATEUR}.draw", {})
    inject.send(f"{ANIMATEUR}.start_game", {})
    assert _settled(engine, eid, 1) == 1, "a revoked tablet drew a number"

    # the new secret signs in and draws
    fresh, _ = _tablet(browser, app_url, code, new_secret)
    fresh.get_by_test_id("draw").click()
    deadline = time.monotonic() + 10
    while _drawn(engine, eid) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _drawn(engine, eid) == 2

    # renewed from another process (the CLI): no poke reaches the tablet, its next draw is
    # refused against the database as it stands now
    AccessStore(engine).reset_animateur_secret(eid)
    fresh.get_by_test_id("draw").click()
    expect(fresh.get_by_test_id("animateur-message")).to_have_text(REVOKED, timeout=10_000)
    expect(fresh.get_by_test_id("animateur-login")).to_be_visible()
    assert _settled(engine, eid, 2) == 2, "a tablet drew with a secret renewed elsewhere"
    fresh.reload()  # the forgotten secret does not sign it in again
    expect(fresh.get_by_test_id("animateur-login")).to_be_visible()
    assert _drawn(engine, eid) == 2
    engine.dispose()
