"""The app as an installable PWA: manifest and icons, the service worker's offline app shell,
and its update path (a new build is never hidden behind the cached one).

The service worker is /sw.js?v=<build> (assets/sw.js), registered from the page head
(loto_app.py); <build> is the hash of the production build's /assets/manifest-<build>.js.
"""

from __future__ import annotations

import json
import re
import struct
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from loto_app.domain.program import demo_program
from loto_app.pages import animateur, join, player, screen
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route

OFFLINE_MESSAGE = "Pas de connexion : l'application reviendra dès que le réseau revient."
CACHE_PREFIX = "loto-shell-"
PAGES = {
    "/": join.TITLE,
    "/jouer": player.TITLE,
    "/animateur": animateur.TITLE,
    "/ecran": screen.TITLE,
}


def _poll(read: Callable[[], Any], until: Callable[[Any], bool], timeout: float = 60) -> Any:
    """Read until the value satisfies `until`; the last value (the assert shows it) on timeout."""
    deadline = time.monotonic() + timeout
    value = read()
    while not until(value) and time.monotonic() < deadline:
        time.sleep(0.25)
        value = read()
    return value


def _controlled(page: Page, build: str | None = None) -> str:
    """Wait until an activated service worker (of `build`, if given) controls the page;
    its build (the `?v=` of its URL)."""

    def state() -> dict[str, Any]:
        return page.evaluate(
            """async () => {
                const r = await navigator.serviceWorker.getRegistration();
                const c = navigator.serviceWorker.controller;
                return {url: c ? c.scriptURL : "", state: r && r.active ? r.active.state : ""};
            }"""
        )

    def ready(s: dict[str, Any]) -> bool:
        return s["state"] == "activated" and (
            s["url"].endswith(f"?v={build}") if build else bool(s["url"])
        )

    s = _poll(state, ready)
    assert ready(s), s
    return s["url"].split("?v=", 1)[1]


def _cache_names(page: Page) -> list[str]:
    return page.evaluate("caches.keys()")


def _cached_urls(page: Page, name: str) -> list[str]:
    return page.evaluate(
        "name => caches.open(name).then(c => c.keys()).then(rs => rs.map(r => r.url))", name
    )


def _page_build(page: Page) -> str:
    """The build of the page shown: the hash of the router manifest it runs with."""
    url = page.evaluate("window.__reactRouterManifest.url")
    match = re.fullmatch(r"/assets/manifest-([\w-]+)\.js", url)
    assert match, url
    return match.group(1)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def profile(
    playwright: Playwright, phone: dict[str, Any], tmp_path: Path
) -> Iterator[BrowserContext]:
    """A phone with a real (on-disk) profile: Chromium reports `in-incognito` as an
    installability error in the throwaway profile of `browser.new_context()`."""
    device = {k: v for k, v in phone.items() if k != "default_browser_type"}
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        locale="fr-FR",
        **device,
    )
    yield context
    context.close()


def test_installable_with_manifest_and_icons(
    app_url: str, profile: BrowserContext, results_dir: Path
) -> None:
    page = profile.pages[0] if profile.pages else profile.new_page()
    page.goto(app_url + "/")
    expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible(timeout=30_000)
    _controlled(page)

    cdp = profile.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    app_manifest = cdp.send("Page.getAppManifest")
    assert app_manifest["url"] == app_url + "/manifest.webmanifest"
    assert app_manifest["errors"] == []
    manifest = json.loads(app_manifest["data"])
    assert manifest["name"] == "Loto — soirée loto"
    assert manifest["short_name"] == "Loto"
    assert manifest["lang"] == "fr"
    assert manifest["start_url"] == "/jouer"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#b3001b"
    assert manifest["background_color"] == "#fffdf7"
    purposes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes

    # every icon resolves to a PNG of its declared size; so does the apple-touch-icon
    head = page.locator("head")
    icons = [(i["src"], i["sizes"]) for i in manifest["icons"]]
    apple = head.locator('link[rel="apple-touch-icon"]')
    icons.append((apple.get_attribute("href") or "", apple.get_attribute("sizes") or ""))
    for src, sizes in icons:
        response = profile.request.get(app_url + src)
        assert response.ok, src
        assert response.headers["content-type"] == "image/png", src
        width, height = _png_size(response.body())
        assert f"{width}x{height}" == sizes, src

    assert head.locator('meta[name="theme-color"]').get_attribute("content") == "#b3001b"
    assert page.locator("html").get_attribute("lang") == "fr"
    page.screenshot(path=results_dir / "installable.png")


def test_a_failed_install_is_tried_again(
    app_url: str, browser: Browser, phone: dict[str, Any]
) -> None:
    """The install precaches every page or nothing. When the hall's Wi-Fi (or a busy server)
    fails one of its fetches, the worker asks again; when it fails every time, the install
    fails, and the open page registers the worker again a few seconds later, rather than
    leaving the phone without its offline shell until the next page load."""
    context = browser.new_context(**phone, locale="fr-FR")
    failed: list[str] = []
    fetched: list[str] = []

    def flaky(route: Route) -> None:
        if route.request.service_worker is None:
            route.continue_()
            return
        fetched.append(route.request.url)
        if len(failed) < 3:  # the first install's three tries of this page (assets/sw.js)
            failed.append(route.request.url)
            route.fulfill(status=503, body="occupé")
        else:
            route.continue_()

    try:
        context.route(f"{app_url}/ecran", flaky)
        page = context.new_page()
        page.goto(app_url + "/")
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible(timeout=30_000)
        build = _controlled(page)
        assert len(failed) == 3 and len(fetched) == 4, fetched
        cached = _cached_urls(page, f"{CACHE_PREFIX}1-{build}")
        assert app_url + "/ecran" in cached
    finally:
        context.close()


def test_a_page_left_uncontrolled_is_taken_over(
    app_url: str, browser: Browser, phone: dict[str, Any]
) -> None:
    """A page can open without a controller while the worker is active: its navigation was in
    flight when the worker's activate ran clients.claim() (a phone opened while another tab
    installed the worker: seen in CI), or a hard reload skipped the worker. The page asks the
    worker to take it over, so it keeps its offline shell. A hard reload makes such a page at
    will: Chromium's navigation with the cache bypassed does not go through the worker."""
    context = browser.new_context(**phone, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(app_url + "/")
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible(timeout=30_000)
        build = _controlled(page)

        served_by_worker: list[str] = []
        page.on(
            "response",
            lambda r: (
                served_by_worker.append(r.url)
                if r.request.is_navigation_request() and r.from_service_worker
                else None
            ),
        )
        cdp = context.new_cdp_session(page)
        with page.expect_navigation():
            cdp.send("Page.reload", {"ignoreCache": True})
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible(timeout=30_000)
        assert served_by_worker == []  # the hard reload did go around the worker
        assert _controlled(page, build) == build
    finally:
        context.close()


def _join_as_player(page: Page, app_url: str, db_url: str) -> None:
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Soirée hors ligne", demo_program("PWA").with_settings(free_cartons=True)
    )
    engine.dispose()
    page.goto(f"{app_url}/?code={creds.join_code}")
    expect(page.get_by_test_id("join-code")).to_have_value(creds.join_code, timeout=30_000)
    page.get_by_test_id("join-name").fill("Mamie Jo")
    page.get_by_test_id("join-submit").click()
    page.wait_for_url("**/jouer")


def test_offline_app_shell(
    app_url: str, db_url: str, browser: Browser, phone: dict[str, Any], results_dir: Path
) -> None:
    context = browser.new_context(**phone, locale="fr-FR")
    try:
        page = context.new_page()
        _join_as_player(page, app_url, db_url)
        build = _controlled(page)
        assert build == _page_build(page)

        # the install precached the four pages and what they load
        names = _cache_names(page)
        assert len(names) == 1 and names[0].startswith(CACHE_PREFIX), names
        assert names[0].endswith("-" + build)
        cached = _cached_urls(page, names[0])
        for path in PAGES:
            assert app_url + path in cached
        assert app_url + f"/assets/manifest-{build}.js" in cached
        assert app_url + "/offline.html" in cached
        assert not [u for u in cached if re.search(r"/(_event|_upload|_health|ping)\b", u)]

        context.set_offline(True)
        response = page.reload()
        assert response is not None and response.from_service_worker
        expect(page).to_have_title(player.TITLE)
        expect(page.get_by_test_id("last-number")).to_be_visible()
        # the app runs (hydrated from cached JS) and says the connection is lost
        expect(page.get_by_test_id("connection-banner")).to_be_visible(timeout=30_000)
        page.screenshot(path=results_dir / "01-jouer-hors-ligne.png", full_page=True)

        page.goto(app_url + "/")
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible()
        expect(page.get_by_text("Rejoindre une soirée de loto")).to_be_visible()
        page.screenshot(path=results_dir / "02-accueil-hors-ligne.png", full_page=True)

        for path in ("/animateur", "/ecran", "/jouer?code=ABC123"):
            page.goto(app_url + path)
            expect(page).to_have_title(PAGES[path.split("?")[0]])

        # backend endpoints are never answered from a cache (a tab of its own: the failed
        # navigation ends on Chromium's error page)
        probe = context.new_page()
        with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
            probe.goto(app_url + "/_health")
        probe.close()

        # a page never visited nor precached: the French offline page
        response = page.goto(app_url + "/jamais-vue")
        assert response is not None and response.from_service_worker
        expect(page.get_by_text(OFFLINE_MESSAGE)).to_be_visible()
        assert page.locator("html").get_attribute("lang") == "fr"
        page.screenshot(path=results_dir / "03-page-inconnue-hors-ligne.png", full_page=True)

        # back online, it reloads by itself and the network answers (the server's 404 here)
        context.set_offline(False)
        expect(page.get_by_text(OFFLINE_MESSAGE)).to_have_count(0, timeout=30_000)
        page.wait_for_load_state()
        assert page.url == app_url + "/jamais-vue"
        status = page.evaluate("performance.getEntriesByType('navigation')[0].responseStatus")
        assert status == 404
    finally:
        context.close()


def test_new_build_is_served_online_and_replaces_the_cache(
    app_url: str, browser: Browser, phone: dict[str, Any], results_dir: Path
) -> None:
    """A new build on the server (simulated by routing the network: new HTML for `/` and a new
    router manifest, hence a new build hash) is what the page shows as soon as it is online,
    while the service worker still holds the old build; the worker then reinstalls under the
    new build, its cache replaces the old one, and offline shows the new build."""
    context = browser.new_context(**phone, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(app_url + "/")
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible(timeout=30_000)
        old = _controlled(page)
        old_cache = _poll(
            lambda: _cache_names(page), lambda n: len(n) == 1 and n[0].endswith("-" + old)
        )[0]
        cached_home = page.evaluate(
            "([url, name]) => caches.match(url, {cacheName: name, ignoreVary: true})"
            ".then(r => r.text())",
            [app_url + "/", old_cache],
        )
        assert 'name="loto-build"' not in cached_home

        # the "new build": its HTML carries a marker and links a new router manifest
        new = "pwatest2"
        html = context.request.get(app_url + "/").text()
        router = context.request.get(f"{app_url}/assets/manifest-{old}.js").text()
        assert f'"version":"{old}"' in router
        new_html = html.replace(f"manifest-{old}.js", f"manifest-{new}.js").replace(
            "<head>", f'<head><meta name="loto-build" content="{new}"/>', 1
        )
        new_router = router.replace(f"manifest-{old}.js", f"manifest-{new}.js").replace(
            f'"version":"{old}"', f'"version":"{new}"'
        )

        def home(route: Route) -> None:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=new_html)

        def manifest(route: Route) -> None:
            route.fulfill(status=200, content_type="text/javascript", body=new_router)

        # context.route also sees the service worker's own requests (Chromium)
        context.route(re.compile(re.escape(app_url) + r"/(\?.*)?$"), home)
        context.route(f"{app_url}/assets/manifest-{new}.js", manifest)

        # online: the old worker (its cache has the old page) serves the new page, network first
        response = page.reload()
        assert response is not None and response.from_service_worker
        expect(page.locator('meta[name="loto-build"]')).to_have_attribute("content", new)
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible()
        assert _page_build(page) == new

        # the page registers /sw.js?v=<new>: installed, activated, the old cache deleted
        _controlled(page, new)
        names = _poll(lambda: _cache_names(page), lambda n: n == [old_cache.replace(old, new)])
        assert names == [old_cache.replace(old, new)]
        page.screenshot(path=results_dir / "01-nouvelle-version.png", full_page=True)

        # offline, the cached app is the new build
        context.set_offline(True)
        page.reload()
        expect(page.locator('meta[name="loto-build"]')).to_have_attribute("content", new)
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible()
        page.goto(app_url + "/jouer")
        expect(page).to_have_title(player.TITLE)
        page.screenshot(path=results_dir / "02-nouvelle-version-hors-ligne.png", full_page=True)

        # the server goes back to the real build: online, that is what shows, and the worker
        # follows it (reinstalled under the real build's hash)
        context.set_offline(False)
        context.unroute_all()
        page.goto(app_url + "/")
        expect(page.get_by_role("heading", name="Loto", level=1)).to_be_visible()
        expect(page.locator('meta[name="loto-build"]')).to_have_count(0)
        assert _page_build(page) == old
        _controlled(page, old)
        names = _poll(lambda: _cache_names(page), lambda n: n == [old_cache])
        assert names == [old_cache]
    finally:
        context.close()
