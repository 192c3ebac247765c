"""Smoke tests in a real browser: the production build serves the French landing page, from
the worker's own backend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_landing_page_on_a_phone(
    app_url: str, browser: Browser, phone: dict[str, Any], results_dir: Path
) -> None:
    context = browser.new_context(**phone, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(app_url + "/")

        heading = page.get_by_role("heading", name="Loto", level=1)
        heading.wait_for(state="visible", timeout=30_000)
        assert page.locator("html").get_attribute("lang") == "fr"
        assert page.title() == "Loto"
        assert page.get_by_text("Rejoindre une soirée de loto").is_visible()
        join_code = page.get_by_test_id("join-code")
        assert join_code.is_visible()
        join_code.fill("ABC123")
        assert join_code.input_value() == "ABC123"

        page.screenshot(path=results_dir / "landing.png", full_page=True)
    finally:
        context.close()


def test_the_page_talks_to_its_own_worker_s_backend(
    app_harness: Any, app_url: str, browser: Browser
) -> None:
    """The run's one frontend build (tests/inprocess_app.py) sends each worker's pages to that
    worker's backend: the page's address, with the run's backend port."""
    host, port = app_harness.host, app_harness.backend_port
    assert urlsplit(app_url).hostname == host
    context = browser.new_context(locale="fr-FR")
    try:
        page = context.new_page()
        with page.expect_websocket(timeout=30_000) as opened:
            page.goto(app_url + "/")
        socket_url = urlsplit(opened.value.url)
        assert (socket_url.hostname, socket_url.port) == (host, port)
        # and that backend answers on it (engine.io's open packet, at least)
        opened.value.wait_for_event("framereceived", timeout=30_000)
    finally:
        context.close()


@pytest.mark.parametrize("run", [1, 2])
def test_a_plain_expect_waits_longer_than_playwrights_five_seconds(
    browser: Browser, run: int
) -> None:
    """conftest sets every browser test's `expect` default (EXPECT_MS) before each test: an
    answer that comes 6 s late (a busy machine) is still waited for. Each run ends by setting
    a short bound, as a module that set its own once would: the second run passes only if its
    setup undid the first's (the option is global to the worker)."""
    from conftest import EXPECT_MS
    from playwright.sync_api import expect

    assert EXPECT_MS > 6_000
    page = browser.new_page()
    try:
        page.set_content(
            "<script>setTimeout(() => document.body.insertAdjacentHTML("
            "'beforeend', '<p id=late>là</p>'), 6000)</script>"
        )
        expect(page.locator("#late")).to_have_text("là")
    finally:
        page.close()
        expect.set_options(timeout=1_000)
