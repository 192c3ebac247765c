"""The hall's pages in the browser tests: each person in a browser context of their own (its
own storage, as on their own device), the tablet signed in, the hall screen open, a phone that
joined; closed together at the end of the test. `shots_at`: a page's screenshots at several
sizes, none of which scrolls sideways."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

TABLET = {"width": 1180, "height": 820}  # an iPad held in landscape
TV = {"width": 1920, "height": 1080}
SMALL_PHONE = {"width": 360, "height": 740}


def shots_at(page: Page, results_dir: Path, name: str, sizes: dict[str, tuple[int, int]]) -> None:
    """Full-page screenshots at each of `sizes` (the page keeps its state), and no sideways
    scrolling at any of them."""
    for size, (w, h) in sizes.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        page.screenshot(path=results_dir / f"{name}-{size}.png", full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w + 1, f"{name} at {size}: the page is {width} px wide"


class HallPages:
    """The pages of one test's evening (`code`) on `url`; use as a context manager."""

    def __init__(
        self, browser: Browser, playwright: Playwright, url: str, code: str, wait_ms: int
    ) -> None:
        self.browser, self.playwright = browser, playwright
        self.url, self.code, self.wait_ms = url, code, wait_ms
        self.contexts: list[BrowserContext] = []

    def __enter__(self) -> HallPages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()

    def new_page(self, **options: Any) -> Page:
        """A page in a new context (French locale, the test's wait)."""
        ctx = self.browser.new_context(**options, locale="fr-FR")
        ctx.set_default_timeout(self.wait_ms)
        self.contexts.append(ctx)
        return ctx.new_page()

    def tablet(self, secret: str) -> Page:
        """The animateur's tablet (landscape), signed in with the evening's secret."""
        anim = self.new_page(**self.playwright.devices["iPad (gen 7)"])
        anim.set_viewport_size(TABLET)
        anim.goto(f"{self.url}/animateur")
        anim.get_by_test_id("animateur-code").fill(self.code)
        anim.get_by_test_id("animateur-secret").fill(secret)
        anim.get_by_test_id("animateur-login").click()
        expect(anim.get_by_test_id("start-game")).to_be_visible()
        return anim

    def screen(self) -> Page:
        """The hall screen (a 1080p TV), showing the evening's join QR code."""
        screen = self.new_page(viewport=TV)
        screen.goto(f"{self.url}/ecran?code={self.code}")
        expect(screen.get_by_test_id("join-qr")).to_contain_text(self.code)
        return screen

    def player(self, name: str, viewport: dict[str, int] | None = None) -> Page:
        """A Pixel 7 (or a phone of `viewport`) that joined by the QR code's link as `name`."""
        device = dict(self.playwright.devices["Pixel 7"])
        if viewport:
            device["viewport"] = viewport
        page = self.new_page(**device)
        page.goto(f"{self.url}/?code={self.code}")
        expect(page.get_by_test_id("join-code")).to_have_value(self.code)  # the link's code
        page.get_by_test_id("join-name").fill(name)
        page.get_by_test_id("join-submit").click()
        page.wait_for_url(re.compile(r"/jouer$"))
        return page
