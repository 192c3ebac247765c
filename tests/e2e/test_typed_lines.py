"""A carton in no list (a player's own) checked at /controle by typing the claimed line: judged
valid when every number was drawn and the last one is on it, refused with the reason when a
number was not drawn (fausse annonce) or the last number is not on it (tour passé); a typing
slip is told and records nothing. The animateur's tablet reads the typed line back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from axe_check import blocking_violations, describe
from live_driver import Driver, quine_program
from playwright.sync_api import expect

from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "typed-animateur"
EARLY = [8, 16, 38, 55, 70]  # complete before the last number: tour passé
LINE = [5, 12, 23, 47, 81]  # 81 drawn last: valid


def _type(ctl: Page, text: str) -> None:
    ctl.get_by_test_id("controle-line1").fill(text)
    ctl.get_by_test_id("controle-typed-submit").click()


def test_a_line_typed_for_a_carton_in_no_list_is_judged_at_the_table(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    store = EveningStore(engine)
    creds = store.create_evening("Loto des aînés", quine_program("HL"), animateur_secret=SECRET)
    eid = creds.evening_id
    with Driver(store) as desk:  # (before the app loads the evening)
        desk.run(eid, lambda e: e.start_game())
        for n in [*EARLY, *LINE]:
            desk.run(eid, lambda e, n=n: e.enter_ball(n))
    claire = AccessStore(engine).add_staff(eid, "Claire", "controleur")
    try:
        ctl = browser.new_context(**{**phone, "viewport": {"width": 360, "height": 740}}).new_page()
        ctl.goto(f"{app_url}/controle")
        ctl.get_by_test_id("controle-code").fill(creds.join_code)
        ctl.get_by_test_id("controle-secret").fill(claire)
        ctl.get_by_test_id("controle-login").click()
        expect(ctl.get_by_test_id("last-number")).to_have_text("81")
        ctl.get_by_test_id("controle-typed-open").click()
        expect(ctl.get_by_test_id("controle-typed-hint")).to_contain_text("Quine")
        expect(ctl.get_by_test_id("controle-line2")).to_have_count(0)
        ctl.screenshot(path=results_dir / "typed-01-form-phone.png", full_page=True)

        verdict = ctl.get_by_test_id("controle-verdict")
        message = ctl.get_by_test_id("controle-message")
        # a slip: told, nothing judged
        _type(ctl, "5 12 23 47 49")
        expect(message).to_contain_text("le 47 et le 49 sont dans la même colonne")
        expect(verdict).to_have_count(0)
        # numbers not drawn: a fausse annonce that names them
        _type(ctl, "1, 12, 23, 47, 90")
        expect(verdict).to_contain_text("Fausse annonce")
        expect(verdict).to_contain_text("le 1 et le 90 ne sont pas sortis")
        # complete before the last number: tour passé
        _type(ctl, " ".join(map(str, EARLY)))
        expect(verdict).to_contain_text("Tour passé")
        expect(verdict).to_contain_text("le dernier numéro (81) n'est pas sur la ligne")
        # the claimed line, last number on it: valid, read back
        ctl.get_by_test_id("controle-line1").fill("81 5 12 23 47")
        ctl.get_by_test_id("controle-typed-name").fill("M. Roux")
        ctl.get_by_test_id("controle-typed-submit").click()
        expect(verdict).to_contain_text("Annonce valide sur le 81")
        expect(verdict).to_contain_text("M. Roux")
        grid = ctl.get_by_test_id("readback-grid")
        expect(grid.locator("[data-win=true]")).to_have_count(5)
        expect(grid.locator("[data-n='81']")).to_have_attribute("data-last", "true")
        expect(ctl.get_by_test_id("readback")).to_contain_text("carton hors liste")
        found = blocking_violations(ctl)
        assert not found, describe(found)
        ctl.screenshot(path=results_dir / "typed-02-valid-phone.png", full_page=True)
        # "Carton suivant": the next player's lines are typed in empty fields
        ctl.get_by_test_id("controle-next").click()
        expect(verdict).to_have_count(0)
        ctl.get_by_test_id("controle-typed-open").click()
        expect(ctl.get_by_test_id("controle-line1")).to_have_value("")
        expect(ctl.get_by_test_id("controle-typed-name")).to_have_value("")

        # the animateur's tablet reads the typed line back, and may award the lot
        tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
        tablet.goto(f"{app_url}/animateur")
        tablet.get_by_test_id("animateur-code").fill(creds.join_code)
        tablet.get_by_test_id("animateur-secret").fill(SECRET)
        tablet.get_by_test_id("animateur-login").click()
        expect(tablet.get_by_test_id("readback")).to_contain_text("carton hors liste")
        expect(tablet.get_by_test_id("award")).to_be_enabled()
        # the tablet's paper panel takes typed lines too: the same line again is refused
        tablet.get_by_test_id("paper-open").click()
        tablet.get_by_test_id("typed-open").click()
        tablet.get_by_test_id("typed-line1").fill("5 12 23 47 81")
        tablet.get_by_test_id("typed-submit").click()
        expect(tablet.get_by_test_id("typed-verdict")).to_contain_text("déjà été contrôlées")
        tablet.screenshot(path=results_dir / "typed-03-tablet.png", full_page=True)
        # the hall screen reads the typed line back as for a carton
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(f"{app_url}/ecran?code={creds.join_code}")
        expect(tv.get_by_test_id("readback")).to_contain_text("carton hors liste")
        expect(tv.get_by_test_id("readback-grid").locator("[data-win=true]")).to_have_count(5)
        tv.screenshot(path=results_dir / "typed-04-ecran.png")
    finally:
        engine.dispose()
