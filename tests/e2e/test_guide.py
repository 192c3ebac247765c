"""The volunteers' guide: a short evening played in real browsers takes the pictures
docs/GUIDE.md names (into test-results/guide/, at the sizes the volunteers see them), then
`/aide` is read on a phone and a tablet, without signing in.

The organiser creates the evening (one quine, physical balls) and adds a vendeur; a player
joins on a phone and shows the desk code; the vendeur sells a carton; the animateur types the
balls of its first line, the hall screen shows them, the player claims, the tablet reads the
carton back and awards the lot; the organiser opens the report and asks to close the evening.
Every picture the guide names must be written by this run (`make guide-pictures` copies them
to assets/guide/, where the `/aide` page shows them).
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from axe_check import blocking_violations, describe
from playwright.sync_api import expect

from loto_app.components.help_link import SECTIONS
from loto_app.pages import guide_text

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 20_000
PICTURES = Path(__file__).resolve().parents[2] / "test-results" / "guide"
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1180, "height": 820}
TV = {"width": 1920, "height": 1080}
#: The innermost elements that reach past the right edge of the screen.
WIDE_JS = """(width) => [...document.querySelectorAll('body *')].filter((el) => {
  const out = (e) => e.getBoundingClientRect().right > width + 0.5;
  return el.getBoundingClientRect().width > 0 && out(el) && ![...el.children].some(out);
}).slice(0, 5).map((el) => el.tagName + ' ' + (el.textContent || '').trim().slice(0, 30))"""


def context(browser: Browser, viewport: dict, **more) -> Page:
    return browser.new_context(viewport=viewport, locale="fr-FR", **more).new_page()


def picture(page: Page, name: str, *, full_page: bool = False) -> None:
    """One of the guide's pictures, in CSS pixels (small files, the size a volunteer sees)."""
    page.wait_for_timeout(200)  # fonts and the last layout pass
    page.screenshot(path=PICTURES / name, scale="css", full_page=full_page)


def fill(page: Page, testid: str, value: str) -> None:
    box = page.get_by_test_id(testid)
    box.fill(value)
    box.blur()
    expect(box).to_have_value(value)


def help_link_to(page: Page, section: str) -> None:
    link = page.get_by_test_id("help-link").first
    expect(link).to_be_visible(timeout=WAIT_MS)
    expect(link).to_have_attribute("href", f"/aide#{section}")
    expect(link).to_have_attribute("target", "_blank")


def ball(tablet: Page, n: int) -> None:
    submit = tablet.get_by_test_id("ball-submit")
    expect(submit).to_be_enabled(timeout=WAIT_MS)
    tablet.get_by_test_id("ball-input").fill(str(n))
    submit.click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n), timeout=WAIT_MS)


def test_a_short_evening_takes_the_guides_pictures_and_aide_reads_without_sign_in(
    app_url: str,
    browser: Browser,
    phone: dict,
    results_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LOTO_CREATE_KEY", raising=False)
    PICTURES.mkdir(parents=True, exist_ok=True)
    started = time.time() - 1
    # the pictures the app was built with (`make guide-pictures` put them in assets/guide/)
    shown = [n for n in guide_text.load().pictures() if (guide_text.PICTURES / n).is_file()]

    # ------------------------------------------------------------------ avant la soirée
    org = context(browser, TABLET)
    org.goto(f"{app_url}/organisation")
    help_link_to(org, SECTIONS["organisation"])
    org.get_by_test_id("tab-create").click(timeout=60_000)
    expect(org.get_by_test_id("org-date")).not_to_have_value("", timeout=60_000)
    fill(org, "org-name", f"Loto du comité des fêtes {uuid.uuid4().hex[:4]}")
    picture(org, "organisation-creer.png")
    org.get_by_test_id("step-4").click()
    org.get_by_test_id("draw_source-physical").click()
    org.get_by_test_id("step-2").click()
    for i in range(5, 0, -1):  # the typical program's first game, a quine only
        org.get_by_test_id(f"game-{i}-remove").click()
        expect(org.get_by_test_id(f"game-{i}")).to_have_count(0)
    org.get_by_test_id("stage-0-1-on").click()
    org.get_by_test_id("stage-0-2-on").click()
    org.get_by_test_id("step-3").click()
    org.get_by_test_id("usual-offers").click()  # the usual prices of the kinds left
    org.get_by_test_id("step-1").click()
    org.get_by_test_id("org-create").click()
    expect(org.get_by_test_id("credentials")).to_be_visible(timeout=WAIT_MS)
    code = org.get_by_test_id("new-code").inner_text().strip()
    animateur_secret = org.get_by_test_id("new-animateur").inner_text().strip()
    org.get_by_test_id("credentials-done").click()
    fill(org, "staff-name", "Marie")
    org.get_by_test_id("staff-role").select_option("vendeur")
    org.get_by_test_id("staff-add").click()
    expect(org.get_by_test_id("staff-secret")).to_be_visible(timeout=WAIT_MS)
    vendeur_secret = re.sub(r"\s", "", org.get_by_test_id("staff-secret").inner_text())
    org.get_by_test_id("staff-secret-done").click()

    # ------------------------------------------------------------------ à l'entrée
    player = browser.new_context(**{**phone, "viewport": PHONE}).new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("join-code")).to_have_value(code, timeout=WAIT_MS)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    picture(player, "joueur-rejoindre.png")
    player.get_by_test_id("join-submit").click()
    desk_code = player.get_by_test_id("desk-code")
    expect(desk_code).to_have_text(re.compile(r"^[0-9A-F]{8}$"), timeout=WAIT_MS)
    desk_code.scroll_into_view_if_needed()
    picture(player, "joueur-code-caisse.png")

    desk = context(browser, TABLET)
    desk.goto(f"{app_url}/caisse")
    help_link_to(desk, SECTIONS["caisse"])
    desk.get_by_test_id("caisse-code").fill(code)
    desk.get_by_test_id("caisse-secret").fill(vendeur_secret)
    desk.get_by_test_id("caisse-login").click()
    expect(desk.get_by_test_id("caisse-who")).to_contain_text("vendeur", timeout=WAIT_MS)
    desk.get_by_test_id("lookup-code").fill(desk_code.inner_text())
    desk.get_by_test_id("lookup-code").press("Enter")
    expect(desk.get_by_test_id("found")).to_contain_text("Mamie Jo", timeout=WAIT_MS)
    desk.get_by_test_id("sell-offer").select_option("0")  # 1 carton
    desk.get_by_test_id("sell-submit").click()
    expect(desk.get_by_test_id("caisse-message")).to_contain_text("1 carton pour Mamie Jo")
    picture(desk, "caisse-vente.png")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1, timeout=WAIT_MS)

    # ------------------------------------------------------------------ les parties
    tv = context(browser, TV)
    tv.goto(f"{app_url}/ecran?code={code}")
    expect(tv.locator("[data-scene=welcome]")).to_be_visible(timeout=WAIT_MS)
    tablet = context(browser, TABLET)
    tablet.goto(f"{app_url}/animateur")
    help_link_to(tablet, SECTIONS["animateur"])
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(animateur_secret)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click(timeout=WAIT_MS)
    cells = carton.locator("[data-row='0']")
    row = [int(t) for t in cells.all_inner_texts() if t.strip().isdigit()]
    assert len(row) == 5, row
    away = [n for n in range(1, 91) if n not in row][:2]
    for n in [*away, *row[:-1]]:
        ball(tablet, n)
    expect(tv.get_by_test_id("last-number")).to_have_text(str(row[-2]), timeout=WAIT_MS)
    help_link_to(tablet, SECTIONS["animateur"])  # also on the signed-in dashboard
    picture(tablet, "animateur-tirage.png")
    picture(tv, "ecran-tirage.png")
    ball(tablet, row[-1])
    for n in row:  # the player's pions, a thumb's tap each
        carton.locator(f"[data-n='{n}']").click()
    button = carton.locator("[data-testid^=claim-]").first
    expect(button).to_be_enabled(timeout=WAIT_MS)
    button.click()
    expect(button).to_have_attribute("data-armed", "ready")
    picture(player, "joueur-quine.png")
    button.click()
    expect(tablet.get_by_test_id("readback")).to_be_visible(timeout=WAIT_MS)
    expect(tablet.get_by_test_id("claims")).to_contain_text("VALIDE", timeout=WAIT_MS)
    picture(tablet, "animateur-annonce.png")
    award = tablet.get_by_test_id("award")
    expect(award).to_be_enabled(timeout=WAIT_MS)  # once the last call is over
    award.click()
    unmark = tablet.get_by_test_id("allow-unmark")
    expect(unmark).to_be_enabled(timeout=WAIT_MS)
    unmark.click()
    expect(unmark).to_have_attribute("data-armed", "ready")
    unmark.click()
    expect(tablet.get_by_text("Toutes les parties ont été jouées")).to_be_visible(timeout=WAIT_MS)

    # ------------------------------------------------------------------ après
    org.get_by_test_id("report-show").click()
    expect(org.get_by_test_id("report-summary")).to_contain_text("Mamie Jo", timeout=WAIT_MS)
    org.get_by_test_id("report-summary").scroll_into_view_if_needed()
    picture(org, "organisation-rapport.png")
    org.get_by_test_id("close-ask-button").click()
    expect(org.get_by_test_id("close-ask")).to_contain_text("Clore la soirée ?", timeout=WAIT_MS)
    org.get_by_test_id("close-ask").scroll_into_view_if_needed()
    picture(org, "organisation-clore.png")

    named = guide_text.load().pictures()
    taken = {p.name for p in PICTURES.glob("*.png") if p.stat().st_mtime >= started}
    assert set(named) <= taken, f"named by docs/GUIDE.md, not taken: {set(named) - taken}"
    assert taken <= set(named), f"taken, named by no line of docs/GUIDE.md: {taken - set(named)}"

    # ------------------------------------------------------------------ /aide, no sign-in
    guide = guide_text.load()
    for name, viewport in (("phone-360x740", PHONE), ("tablet-1180x820", TABLET)):
        page = context(browser, viewport)
        page.goto(f"{app_url}/aide")
        expect(page.get_by_test_id("title")).to_have_text(guide.title, timeout=WAIT_MS)
        for s in guide.sections:
            expect(page.get_by_test_id(f"section-{s.anchor}")).to_contain_text(s.title)
        # (every feature's section written: no placeholder left)
        expect(page.get_by_text("À compléter")).to_have_count(0)
        expect(page.get_by_test_id("section-avant")).to_contain_text("Vérification avant")
        for n in shown:  # each picture there, with its caption, loaded when asked for
            expect(page.get_by_test_id(f"picture-{n.removesuffix('.png')}")).to_have_count(1)
        page.evaluate("() => document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
        page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
        )
        page.screenshot(path=results_dir / f"aide-{name}.png")
        page.screenshot(path=results_dir / f"aide-{name}-full.png", full_page=True)
        wide = page.evaluate(WIDE_JS, viewport["width"])
        assert not wide, f"/aide is wider than the screen: {wide}"
        found = blocking_violations(page)
        assert not found, f"/aide ({name}): {describe(found)}"
        page.get_by_test_id("toc-caisse").click()
        expect(page).to_have_url(re.compile(r"/aide/?#caisse$"))
        expect(page.get_by_test_id("section-caisse")).to_be_in_viewport()
        page.context.close()
