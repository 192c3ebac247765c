"""The check before the doors open (`/verification`): with the hall screen closed its line is
red with what to do; the TV opened, it turns green; the sound test finds the TV's sound blocked
until someone touches "Activer le son" on it, then played; the animateur's tablet, the phones'
address (opened from the page's own browser) and the paper cartons' PDF are checked. Screenshots
at 1180×820 (the organiser's tablet), 360×740 (a phone signed in as animateur) and 1920×1080
(the TV during the sound test); axe-clean."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from axe_check import blocking_violations, describe
from playwright.sync_api import expect

from loto_app.domain.program import demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "check-secret"
ORGANISER = "check-organiser"

#: The TV's speech, recorded and made to end at once (headless Chromium has no voice), under a
#: TV browser's rule: no speech before someone touched the page ("not-allowed").
SPEECH = """
(() => {
  window.__speechCalls = [];
  let touched = false;
  for (const type of ["pointerdown", "keydown"]) {
    window.addEventListener(type, () => { touched = true; }, true);
  }
  const synth = window.speechSynthesis;
  if (!synth) return;
  synth.speak = (u) => {
    window.__speechCalls.push({ text: u.text, touched });
    setTimeout(() => {
      if (!touched) { if (u.onerror) u.onerror({ error: "not-allowed" }); return; }
      if (u.onstart) u.onstart({});
      if (u.onend) u.onend({});
    }, 10);
  };
})();
"""


def _status(page: Page, key: str, status: str, timeout: int = 10_000) -> None:
    expect(page.get_by_test_id(f"check-{key}")).to_have_attribute(
        "data-status", status, timeout=timeout
    )


def _axe(page: Page, where: str) -> None:
    violations = blocking_violations(page)
    assert not violations, f"{where}: {describe(violations)}"


def test_the_check_before_the_doors_open(
    app_url: str, db_url: str, browser: Browser, results_dir: Path, monkeypatch
) -> None:
    # the phones' address first one this browser cannot reach (TEST-NET-1, never routed)
    monkeypatch.setenv("LOTO_PUBLIC_URL", "http://192.0.2.1:9")
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes",
        demo_program("CHK"),
        animateur_secret=SECRET,
        organiser_secret=ORGANISER,
    )
    engine.dispose()
    code = creds.join_code

    # the organiser signs in on /organisation, and follows the link to the check
    org = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    org.goto(f"{app_url}/organisation")
    org.get_by_test_id("tab-signin").click()
    org.get_by_test_id("org-login-code").fill(code)
    org.get_by_test_id("org-login-secret").fill(ORGANISER)
    org.get_by_test_id("org-login").click()
    org.get_by_test_id("link-verification").click()
    org.wait_for_url("**/verification")
    expect(org.get_by_role("heading", name="Vérification avant l'ouverture")).to_be_visible()

    # no TV: the hall screen's line is red, and says how to connect one
    _status(org, "screen", "bad")
    screen_line = org.get_by_test_id("check-screen")
    expect(screen_line).to_contain_text("Aucun écran de la salle")
    expect(screen_line.get_by_test_id("check-todo")).to_contain_text("/ecran")
    expect(screen_line.get_by_test_id("check-todo")).to_contain_text("Relier l'écran de la salle")
    _status(org, "sound", "bad")
    _status(org, "tablet", "bad")
    _status(org, "desk", "bad")
    _status(org, "phones", "bad")
    # the server made the paper cartons' PDF
    _status(org, "pdf", "ok")
    # the phones' address does not open from this browser: red, with what to do
    _status(org, "address", "bad", timeout=15_000)
    expect(org.get_by_test_id("check-address")).to_contain_text("192.0.2.1:9/?code=")
    expect(org.get_by_test_id("check-address")).to_contain_text("même Wi-Fi")
    expect(org.get_by_test_id("check-summary")).to_contain_text("points à régler")
    org.screenshot(path=results_dir / "00-verification-adresse-1180x820.png", full_page=True)
    # the test server's own address, checked again: a loopback address only this machine
    # reaches (the test machine has no other), red with what to do
    monkeypatch.setenv("LOTO_PUBLIC_URL", app_url)
    org.get_by_test_id("check-again").click()
    expect(org.get_by_test_id("check-address")).to_contain_text(
        "elle ne marche que sur l'ordinateur du loto", timeout=15_000
    )
    _status(org, "address", "bad")
    org.screenshot(path=results_dir / "01-verification-sans-ecran-1180x820.png", full_page=True)
    _axe(org, "/verification (tablet)")
    # the PDF of the check opens as a file
    with org.expect_download() as got:
        org.get_by_test_id("open-pdf").click()
    assert got.value.suggested_filename == "cartons-essai.pdf"
    assert Path(got.value.path()).read_bytes().startswith(b"%PDF")

    # the TV opens the evening: the line turns green
    tv_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    tv_context.add_init_script(SPEECH)
    tv = tv_context.new_page()
    tv.goto(f"{app_url}/ecran?code={code}")
    expect(tv.get_by_role("heading", name="Salle des fêtes")).to_be_visible()
    _status(org, "screen", "ok")
    expect(org.get_by_test_id("check-screen")).to_contain_text("1 écran connecté")

    # the sound test: nobody touched the TV, its browser blocks the sound
    org.get_by_test_id("test-sound").click()
    _status(org, "sound", "bad")
    expect(org.get_by_test_id("check-sound")).to_contain_text("bloque le son")
    unlock = tv.get_by_test_id("sound-unlock")
    expect(unlock).to_be_visible()
    assert tv.evaluate("window.__lotoSoundTests") == ["blocked"]
    tv.screenshot(path=results_dir / "02-ecran-essai-son-bloque-1920x1080.png")
    # a tap on "Activer le son": the TV plays the test again, and says so
    unlock.click()
    expect(unlock).to_be_hidden()
    _status(org, "sound", "ok")
    expect(org.get_by_test_id("check-sound")).to_contain_text("carillon")
    assert tv.evaluate("window.__lotoSoundTests") == ["blocked", "played"]
    assert tv.evaluate("window.__lotoChimes") == ["running"]
    said = tv.evaluate("window.__speechCalls")
    assert said[-1]["touched"] and said[-1]["text"].startswith("Essai du son"), said
    tv.screenshot(path=results_dir / "03-ecran-apres-essai-1920x1080.png")

    # the animateur's tablet signs in: green; it has the link to the check too
    tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.get_by_test_id("link-verification")).to_be_visible()
    _status(org, "tablet", "ok")
    org.screenshot(path=results_dir / "04-verification-ecran-tablette-1180x820.png", full_page=True)

    # closed again, the TV's line goes red
    tv.close()
    _status(org, "screen", "bad", timeout=15_000)

    # a phone signed in as animateur opens the check from its dashboard
    small = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()
    small.goto(f"{app_url}/animateur")
    small.get_by_test_id("animateur-code").fill(code)
    small.get_by_test_id("animateur-secret").fill(SECRET)
    small.get_by_test_id("animateur-login").click()
    small.get_by_test_id("link-verification").click()
    small.wait_for_url("**/verification")
    _status(small, "tablet", "ok")
    expect(small.get_by_test_id("check-tablet")).to_contain_text("Cette tablette")
    expect(small.get_by_test_id("check-back")).to_have_attribute("href", "/animateur")
    small.screenshot(path=results_dir / "05-verification-telephone-360x740.png", full_page=True)
    _axe(small, "/verification (phone)")
    scroll = small.evaluate("document.documentElement.scrollWidth")
    assert scroll <= 360, f"the page is {scroll}px wide on a 360px phone"
