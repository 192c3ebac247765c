"""Remote play within the law, in a real browser (domain/remote.py).

The organiser of an evening without remote play turns it on from `/organisation` (1180x820):
the warning citing QE 17-2417 and art. L322-4 shows, and the program is refused until the
warning is confirmed and a cap is written; then a member list of three names makes three
personal links. On phones (360x740): the first link lets one phone in; a second phone with it
is refused in French, while the first phone opens it again and is back on its cartons; with a
cap of 2, the third invited player is refused. Screenshots into results_dir.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from axe_check import blocking_violations, describe
from playwright.sync_api import expect

from loto_app.domain.program import demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 20_000
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1180, "height": 820}


@pytest.fixture
def evening(db_url: str) -> tuple[int, str, str]:
    """An evening without remote play: (id, join code, organiser secret)."""
    secret = f"org-{uuid.uuid4().hex[:12]}"
    creds = EveningStore(make_engine(db_url)).create_evening(
        "Loto des adhérents", demo_program("R"), date="2031-05-02", organiser_secret=secret
    )
    return creds.evening_id, creds.join_code, secret


def shot(page: Page, results_dir: Path, name: str) -> None:
    """A full-page screenshot, and no sideways scrolling."""
    page.wait_for_timeout(300)
    page.screenshot(path=results_dir / f"remote-{name}.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"{name}: the page is {width} px wide"


def fill(page: Page, testid: str, value: str) -> None:
    box = page.get_by_test_id(testid)
    box.fill(value)
    box.blur()  # (the debounced input reports on blur at once)
    expect(box).to_have_value(value)


def phone_join(browser: Browser, link: str, name: str) -> Page:
    """A new phone opens an invitation link and sends the join form."""
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    page.goto(link)
    expect(page.get_by_test_id("join-remote-note")).to_contain_text(
        "ne sert que sur ce téléphone", timeout=60_000
    )
    expect(page.get_by_test_id("join-submit")).to_be_enabled(timeout=WAIT_MS)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    return page


def test_remote_play_warning_cap_and_invitations_used_once(
    app_url: str,
    db_url: str,
    browser: Browser,
    results_dir: Path,
    evening: tuple[int, str, str],
) -> None:
    evening_id, code, secret = evening
    store = EveningStore(make_engine(db_url))
    org = browser.new_context(viewport=TABLET, locale="fr-FR").new_page()
    phones: list[Page] = []
    try:
        org.goto(app_url + "/organisation")
        expect(org.get_by_test_id("org-choice")).to_be_visible(timeout=60_000)
        org.get_by_test_id("tab-signin").click()
        fill(org, "org-login-code", code)
        fill(org, "org-login-secret", secret)
        org.get_by_test_id("org-login").click()
        expect(org.get_by_test_id("org-evening")).to_have_text("Loto des adhérents")
        expect(org.get_by_test_id("org-invitation")).to_have_count(0)  # (remote play off)

        # turning remote play on: the warning, then the confirmation and the cap required
        org.get_by_test_id("org-edit-open").click()
        org.get_by_test_id("step-4").click()
        expect(org.get_by_test_id("org-remote-warning")).to_have_count(0)
        org.get_by_test_id("org-remote").click()
        warning = org.get_by_test_id("org-remote-warning")
        for words in ("17-2417", "20 janvier 2026", "cercle restreint", "internet", "L322-4"):
            expect(warning).to_contain_text(words)
        error = org.get_by_test_id("org-form-error")
        org.get_by_test_id("org-edit-save").click()
        expect(error).to_contain_text("cochez la case de confirmation", timeout=WAIT_MS)
        org.get_by_test_id("org-remote-ack").click()
        org.get_by_test_id("org-edit-save").click()
        expect(error).to_contain_text("nombre maximum de joueurs à distance", timeout=WAIT_MS)
        assert not store.current_program(evening_id).settings.remote_play  # nothing saved
        fill(org, "org-remote-cap", "2")
        shot(org, results_dir, "organiser-warning-1180x820")
        org.get_by_test_id("org-edit-save").click()
        expect(org.get_by_test_id("org-edit-saved")).to_contain_text(
            "Programme enregistré", timeout=WAIT_MS
        )
        st = store.current_program(evening_id).settings
        assert (st.remote_play, st.remote_cap, st.remote_confirmed) == (True, 2, True)

        # the member list: one personal link a name
        section = org.get_by_test_id("org-invitation")
        expect(section).to_be_visible(timeout=WAIT_MS)
        org.get_by_test_id("invite-names").fill("Marie Dupont\nPaul\n\nJeanne")
        org.get_by_test_id("invite-create").click()
        expect(org.get_by_test_id("invite-message")).to_contain_text("3 invitations créées")
        links = [
            org.get_by_test_id(f"invitation-link-{no}").inner_text().strip() for no in (1, 2, 3)
        ]
        assert len(set(links)) == 3 and all(f"/?code={code}&invitation=" in x for x in links)
        expect(org.get_by_test_id("remote-count")).to_contain_text("0 sur 2")
        # (the links name the address phones use; this test's browser reaches the app here)
        links = [app_url + x[x.index("/?code=") :] for x in links]

        # the first link lets one phone in ...
        marie = phone_join(browser, links[0], "Marie")
        phones.append(marie)
        expect(marie.get_by_text("Bonjour Marie !")).to_be_visible(timeout=WAIT_MS)
        # ... and no second phone
        intruder = phone_join(browser, links[0], "Intrus")
        phones.append(intruder)
        refused = intruder.get_by_test_id("join-message")
        expect(refused).to_contain_text("déjà servi sur un autre téléphone", timeout=WAIT_MS)
        shot(intruder, results_dir, "phone-invitation-used-360x740")
        found = blocking_violations(intruder)
        assert not found, describe(found)
        # the invited player's own phone comes back with it
        marie.goto(links[0])
        expect(marie.get_by_text("Bonjour Marie !")).to_be_visible(timeout=WAIT_MS)
        shot(marie, results_dir, "phone-joined-360x740")

        # the cap: 2 remote players, the third invited one is refused
        paul = phone_join(browser, links[1], "Paul")
        phones.append(paul)
        expect(paul.get_by_text("Bonjour Paul !")).to_be_visible(timeout=WAIT_MS)
        jeanne = phone_join(browser, links[2], "Jeanne")
        phones.append(jeanne)
        expect(jeanne.get_by_test_id("join-message")).to_contain_text(
            "nombre maximum de joueurs à distance est atteint", timeout=WAIT_MS
        )
        shot(jeanne, results_dir, "phone-cap-reached-360x740")

        org.get_by_test_id("invite-refresh").click()
        expect(org.get_by_test_id("remote-count")).to_contain_text("2 sur 2")
        expect(org.get_by_test_id("invitation-1")).to_contain_text("A rejoint")
        expect(org.get_by_test_id("invitation-3")).to_contain_text("Pas encore utilisé")
        section.scroll_into_view_if_needed()
        shot(org, results_dir, "organiser-invitations-1180x820")
        found = blocking_violations(org)
        assert not found, describe(found)
        evening_now, _, _ = store.load(evening_id)
        assert sorted(o for o in evening_now.origins.values()) == ["remote", "remote"]
    finally:
        for p in phones:
            p.context.close()
        org.context.close()
