"""The association's own cartons, in real Chromium: one evening, few page loads.

The organiser imports a CSV file of cartons the app did not print: a file with two bad lines is
refused whole (the page says which lines and why, nothing enters the log), the corrected file
is accepted in the série ROUGE. A vendeur's phone at /caisse sells carton ROUGE 347 by its
number; the animateur enters the balls of its first line; a contrôleur's phone at /controle
judges the claim by the série and number alone: valid, read back the same on the phone, the
tablet and the hall's TV, recorded as a paper claim. The tablet checks a number the série does
not hold. Screenshots at 360×740 (phones), 1180×820 (tablet, organiser) and 1920×1080 (TV).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

from axe_check import blocking_violations, describe
from hall_pages import HallPages
from live_driver import quine_program
from playwright.sync_api import expect

from loto_app.domain import events as ev
from loto_app.domain.cartons import generate_strip
from loto_app.domain.own_cartons import OWN_BASE, numbers_of
from loto_app.live.input.own_cartons import to_csv
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.eventlog import EventLog
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, Route

WAIT_MS = 20_000
SECRET = "own-cartons-animateur"
ORGANISER = "own-cartons-organiser"
# (each page in French: `HallPages.new_page`)
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True}
TABLET = {"viewport": {"width": 1180, "height": 820}}
TV = {"viewport": {"width": 1920, "height": 1080}}


def _look(page: Page, shots: Path, name: str, scope: str = "body") -> None:
    """axe-clean, nothing of `scope` (the new section) past the right edge of a phone, and the
    screenshot to look at."""
    found = blocking_violations(page)
    assert not found, f"{name}: {describe(found)}"
    width = page.viewport_size["width"] if page.viewport_size else 0
    if width > 400:  # (the phone's width is where a new section may overflow)
        page.screenshot(path=shots / f"{name}.png", full_page=True)
        return
    wide = page.evaluate(
        "([w, s]) => Array.from(document.querySelectorAll(s + ' *')).filter((el) => "
        "el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > w + 0.5 "
        "&& !Array.from(el.children).some((c) => c.getBoundingClientRect().right > w + 0.5))"
        ".slice(0, 3).map((el) => el.tagName + ' ' + (el.textContent || '').slice(0, 30))",
        [width, scope],
    )
    assert not wide, f"{name}: past the right edge: {wide}"
    page.screenshot(path=shots / f"{name}.png", full_page=True)


def _staff_login(page: Page, url: str, code: str, secret: str) -> None:
    where = url.rsplit("/", 1)[1]
    page.goto(url)
    page.get_by_test_id(f"{where}-code").fill(code)
    page.get_by_test_id(f"{where}-secret").fill(secret)
    page.get_by_test_id(f"{where}-login").click()


def test_own_cartons_imported_sold_by_number_and_judged_at_the_control(
    app_url: str, db_url: str, browser: Browser, playwright: Playwright, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    store = EveningStore(engine)
    program = quine_program("APP")
    creds = store.create_evening(
        "Loto du comité des fêtes", program, animateur_secret=SECRET, organiser_secret=ORGANISER
    )
    eid, code = creds.evening_id, creds.join_code
    access = AccessStore(engine)
    paul = access.add_staff(eid, "Paul", "vendeur")
    claire = access.add_staff(eid, "Claire", "controleur")
    box = [(345 + i, numbers_of(c)) for i, c in enumerate(generate_strip(random.Random(39))[:4])]
    good = to_csv(box)  # a header, then 345..348
    lines = good.splitlines()
    bad_numbers = lines[2].split(";")
    bad_numbers[3] = "91"  # line 3: a number out of 1-90
    lines[2] = ";".join(bad_numbers)
    lines[3] = ";".join([str(box[0][0]), *lines[3].split(";")[1:]])  # line 4: 345 twice
    bad = "\n".join(lines) + "\n"
    pages = HallPages(browser, playwright, app_url, code, WAIT_MS)
    try:
        # ---- the organiser (tablet size): a file with bad lines, refused whole
        # (no service worker: its fetches would pass by the page's route below)
        org = pages.new_page(**TABLET, service_workers="block")
        # The page's file reader (assets/own_csv.js) held back until the file is chosen: a
        # quick hand on a slow phone, whose file must still be read once the script runs.
        held: list[Route] = []
        org.route("**/own_csv.js", lambda route: held.append(route))
        org.goto(f"{app_url}/organisation")
        org.get_by_test_id("tab-signin").click()
        org.get_by_test_id("org-login-code").fill(code)
        org.get_by_test_id("org-login-secret").fill(ORGANISER)
        org.get_by_test_id("org-login").click()
        section = org.get_by_test_id("org-own")
        expect(section).to_be_visible(timeout=WAIT_MS)
        org.get_by_test_id("own-series").fill("rouge")
        org.get_by_test_id("own-file").set_input_files(
            files=[{"name": "cartons.csv", "mimeType": "text/csv", "buffer": bad.encode()}]
        )
        for _ in range(WAIT_MS // 100):  # (the route's handler runs while the page waits)
            if held:
                break
            org.wait_for_timeout(100)
        assert held, "the page did not ask for /own_csv.js"
        held[0].continue_()
        org.unroute("**/own_csv.js")
        expect(org.get_by_test_id("own-file-status")).to_contain_text(
            "« cartons.csv » lu (5 lignes)", timeout=WAIT_MS
        )
        org.get_by_test_id("own-import").click()
        message = org.get_by_test_id("own-message")
        expect(message).to_contain_text("Rien n'est enregistré : 2 erreurs", timeout=WAIT_MS)
        problems = org.get_by_test_id("own-problems")
        expect(problems).to_contain_text(
            "Ligne 3 : carton n° 346 : le numéro 91 n'est pas entre 1 et 90."
        )
        expect(problems).to_contain_text("Ligne 4 : le carton n° 345 est déjà à la ligne 2.")
        assert not any(
            isinstance(e, ev.OwnCartonsRegistered)
            for _, e, _ in EventLog(engine).events_after(eid, 0)
        )
        section.scroll_into_view_if_needed()
        _look(org, results_dir, "01-organisation-refused-1180")

        # ---- the corrected file: accepted
        org.get_by_test_id("own-file").set_input_files(
            files=[{"name": "cartons.csv", "mimeType": "text/csv", "buffer": good.encode()}]
        )
        expect(org.get_by_test_id("own-csv")).to_have_value(good)
        org.get_by_test_id("own-import").click()
        expect(message).to_contain_text(
            "4 cartons enregistrés dans la série ROUGE (n° 345 à 348).", timeout=WAIT_MS
        )
        expect(org.get_by_test_id("own-problems")).to_have_count(0)
        expect(org.get_by_test_id("own-registered")).to_contain_text(
            "Série ROUGE (classique) : 4 cartons, n° 345 à 348 — 0 vendu"
        )
        _look(org, results_dir, "02-organisation-accepted-1180")
        org.set_viewport_size({"width": 360, "height": 740})
        section.scroll_into_view_if_needed()
        _look(org, results_dir, "03-organisation-accepted-360", "[data-testid=org-own]")

        # ---- the desk (a vendeur's phone): "who has carton 347 tonight"
        desk = pages.new_page(**PHONE)
        _staff_login(desk, f"{app_url}/caisse", code, paul)
        sale = desk.get_by_test_id("sell-own")
        expect(sale).to_be_visible(timeout=WAIT_MS)
        desk.get_by_test_id("own-sale-cartons").fill("347")
        desk.get_by_test_id("own-sale-name").fill("Mme Martin")
        desk.get_by_test_id("own-sale-submit").click()
        said = desk.get_by_test_id("own-sale-message")
        expect(said).to_contain_text("Vendu : 1 carton pour Mme Martin", timeout=WAIT_MS)
        expect(said).to_contain_text("ROUGE 347")
        desk.get_by_test_id("own-sale-cartons").fill("347")
        desk.get_by_test_id("own-sale-submit").click()
        expect(said).to_contain_text("carton ROUGE n° 347 déjà vendu")
        sale.scroll_into_view_if_needed()
        _look(desk, results_dir, "04-caisse-own-360", "[data-testid=sell-own]")

        # ---- the animateur enters carton 347's first line; the TV follows
        tablet = pages.new_page(**TABLET)
        _staff_login(tablet, f"{app_url}/animateur", code, SECRET)
        tv = pages.new_page(**TV)
        tv.goto(f"{app_url}/ecran?code={code}")
        tablet.get_by_test_id("start-game").click()
        row = sorted(box[2][1][:5])
        for n in row:
            expect(tablet.get_by_test_id("ball-submit")).to_be_enabled(timeout=WAIT_MS)
            tablet.get_by_test_id("ball-input").fill(str(n))
            tablet.get_by_test_id("ball-submit").click()
            expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))

        # ---- "Quine !" at a table: the contrôleur checks carton ROUGE 347 by its number
        ctl = pages.new_page(**PHONE)
        _staff_login(ctl, f"{app_url}/controle", code, claire)
        own = ctl.get_by_test_id("controle-own-section")
        expect(own).to_be_visible(timeout=WAIT_MS)
        expect(ctl.get_by_test_id("last-number")).to_have_text(str(row[-1]))
        ctl.get_by_test_id("controle-own-carton").fill("347")
        ctl.get_by_test_id("controle-own-submit").click()
        verdict = ctl.get_by_test_id("controle-verdict")
        expect(verdict).to_contain_text("Mme Martin — Annonce valide", timeout=WAIT_MS)
        expect(verdict).to_contain_text("(carton ROUGE n°\u00a0347)")
        title = "Contrôle — carton ROUGE n°\u00a0347 (carton papier)"
        expect(ctl.get_by_test_id("readback")).to_contain_text(title)
        grid = ctl.get_by_test_id("readback-grid")
        expect(grid.locator("[data-win=true]")).to_have_count(5)
        expect(grid.locator(f"[data-n='{row[-1]}']")).to_have_attribute("data-last", "true")
        _look(ctl, results_dir, "05-controle-own-360", "[data-testid=controle-own-section]")
        # the same read-back on the tablet and the TV, and the lot may be awarded
        expect(tablet.get_by_test_id("readback")).to_contain_text(title, timeout=WAIT_MS)
        expect(tablet.get_by_test_id("award")).to_be_enabled()
        expect(tv.get_by_test_id("readback")).to_contain_text(title, timeout=WAIT_MS)
        expect(tv.get_by_test_id("readback-grid").locator("[data-win=true]")).to_have_count(5)
        _look(tablet, results_dir, "06-animateur-own-1180")
        _look(tv, results_dir, "07-ecran-own-1920")
        claims = [
            e for _, e, _ in EventLog(engine).events_after(eid, 0) if isinstance(e, ev.ClaimMade)
        ]
        assert [(c.carton_no, c.via, c.verdict) for c in claims] == [
            (OWN_BASE + 347, "desk", "valid")
        ]

        # ---- the tablet's own form: a number the série does not hold
        tablet.get_by_test_id("paper-open").click()
        tablet.get_by_test_id("own-claim-carton").fill("999")
        tablet.get_by_test_id("own-claim-submit").click()
        expect(tablet.get_by_test_id("paper-verdict")).to_contain_text(
            "(carton ROUGE n°\u00a0999)", timeout=WAIT_MS
        )
        tablet.get_by_test_id("paper-desk").scroll_into_view_if_needed()
        _look(tablet, results_dir, "08-animateur-own-form-1180")
    finally:
        pages.close()
        engine.dispose()
