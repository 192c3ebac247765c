"""The "Réglages" step of the organiser's form draws every setting of the settings catalog
(domain/settings_catalog.py): each entry's control is on the page, with its label, and the
step is screenshotted at the phone, tablet and TV sizes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hall_pages import shots_at
from playwright.sync_api import expect

from loto_app.domain.settings_catalog import SETTINGS, Check, Choice, Number, Text

if TYPE_CHECKING:
    from playwright.sync_api import Browser

WAIT_MS = 20_000
SIZES = {"phone": (360, 740), "tablet": (1180, 820), "tv": (1920, 1080)}


def test_every_setting_of_the_catalog_is_on_the_settings_step(
    app_url: str, browser: Browser, results_dir: Path
) -> None:
    context = browser.new_context(viewport={"width": 1180, "height": 820}, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(app_url + "/organisation")
        expect(page.get_by_test_id("org-choice")).to_be_visible(timeout=60_000)
        page.get_by_test_id("tab-create").click()
        expect(page.get_by_test_id("org-date")).not_to_have_value("", timeout=WAIT_MS)
        page.get_by_test_id("step-4").click()
        page.get_by_test_id("org-remote").click()  # (its checkbox shows once it is on)
        for spec in SETTINGS:
            c = spec.control
            if isinstance(c, Choice):
                for o in c.options:
                    expect(page.get_by_test_id(f"{spec.form_name}-{o.form}")).to_be_visible()
                    expect(page.get_by_text(o.title, exact=True)).to_be_visible()
            elif isinstance(c, (Check, Number, Text)) and spec.section == "how":
                expect(page.get_by_test_id(spec.test_id)).to_be_visible()
            expect(page.get_by_text(spec.label, exact=True).first).to_be_visible()
        expect(page.get_by_test_id("org-remote-ack")).to_be_visible()
        shots_at(page, results_dir, "settings", SIZES)
    finally:
        context.close()
