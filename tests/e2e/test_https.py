"""On a server, over HTTPS: the recipe of deploy/ end to end.

The app runs as deploy/loto.service runs it (its ExecStartPre and ExecStart command lines, with
/opt/loto replaced by this checkout and port 3000 by a free port; the settings of
deploy/loto.env.example: several workers, PostgreSQL, Redis, a create key). Caddy, from
Debian, serves it under the test host name loto.test with its own local CA, through
deploy/loto.caddy (the very file the production Caddyfile imports). Chromium trusts that CA
through an NSS database under a private HOME, and maps loto.test to Caddy's port
(`--host-resolver-rules`).

Checked on https://loto.test: a secure context, the PWA installable
(`Page.getInstallabilityErrors` empty) and its service worker in control; the hall screen's QR
code (decoded from its pixels) says https://loto.test/?code=...; a whole (one-stage) game
played through the proxy's websocket; hashed build files served `immutable` and compressed,
pages revalidated; sign-in attempts counted per client address (the address Caddy forwards)
across both workers.

LOTO_PUBLIC_URL, which the recipe sets, is left out here on purpose: the links must then come
from the scheme and host the proxy forwards, the path a misconfigured server would rely on.
Skipped, with the reason, where caddy or certutil is missing (`make test` installs both),
or PostgreSQL or Redis is not running.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gestures
import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS
from gestures import buy
from local_servers import REDIS_MISSING, REDIS_URL, redis_up
from outside import read_qr, serving
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
)
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, Playwright

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
HOST = "loto.test"
ORIGIN = f"https://{HOST}"
SECRET = "serveur-https-secret"


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def unit_commands(port: int) -> tuple[list[str], list[str]]:
    """ExecStartPre and ExecStart of deploy/loto.service, for this checkout and `port`."""
    text = (DEPLOY / "loto.service").read_text()

    def command(key: str) -> list[str]:
        m = re.search(rf"^{key}=(.+)$", text, re.M)
        assert m, f"deploy/loto.service has no {key}"
        line = m.group(1).replace("/opt/loto", str(REPO)).replace("3000", str(port))
        return shlex.split(line)

    return command("ExecStartPre"), command("ExecStart")


def env_example() -> dict[str, str]:
    """The settings of deploy/loto.env.example."""
    out = {}
    for line in (DEPLOY / "loto.env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


@dataclass(frozen=True)
class Served:
    code: str
    https_port: int
    root_crt: Path
    log: Path


@pytest.fixture(scope="module")
def served(
    pg_database: str, prod_web: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """The app per deploy/loto.service behind Caddy per deploy/loto.caddy."""
    for tool in ("caddy", "certutil"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (`make test` installs caddy and libnss3-tools)")
    if not redis_up():
        pytest.skip(REDIS_MISSING)
    tmp = tmp_path_factory.mktemp("https")
    settings = env_example()
    assert settings["LOTO_CREATE_KEY"] and int(settings["GRANIAN_WORKERS"]) >= 2
    settings.pop("LOTO_PUBLIC_URL")  # (see the module docstring)
    settings.update(
        LOTO_DB_URL=pg_database,
        REFLEX_REDIS_URL=REDIS_URL,
        LOTO_CREATE_KEY="test-" + uuid.uuid4().hex,
    )
    env = {
        **os.environ,
        **settings,
        "VENV": str(Path(sys.executable).parent.parent),
        "REFLEX_WEB_WORKDIR": str(prod_web),
    }
    env.pop("LOTO_PUBLIC_URL", None)
    app_port, http_port, https_port = serving.free_port(), serving.free_port(), serving.free_port()
    pre, start = unit_commands(app_port)
    subprocess.run(pre, cwd=REPO, env=env, check=True, timeout=120, capture_output=True)
    one = Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000))
    program = Program(
        "WEB",
        (GameSpec(Kind.CLASSIQUE, (one,)),),
        Settings(DrawSource.PHYSICAL, free_cartons=True),
    )
    engine = make_engine(pg_database)
    creds = EveningStore(engine).create_evening("Loto en ligne", program, animateur_secret=SECRET)
    engine.dispose()

    log = tmp / "server.log"
    caddy_log = tmp / "caddy.log"
    app = caddy = None
    try:
        with log.open("wb") as out:
            app = subprocess.Popen(
                start,
                cwd=REPO,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        serving.wait_up(app, f"http://127.0.0.1:{app_port}", 600, log)
        caddyfile = tmp / "Caddyfile"
        caddyfile.write_text(
            "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n"
            f"\tstorage file_system {tmp / 'caddy'}\n"
            f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n\n"
            f"{HOST} {{\n\ttls internal\n\timport {DEPLOY / 'loto.caddy'}\n}}\n"
        )
        with caddy_log.open("wb") as out:
            caddy = subprocess.Popen(
                ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                cwd=tmp,
                env={**os.environ, "HOME": str(tmp), "LOTO_UPSTREAM": f"127.0.0.1:{app_port}"},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        root = tmp / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + 60
        while not (root.exists() and _listening(https_port)):
            if caddy.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"caddy did not start: {caddy_log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield Served(creds.join_code, https_port, root, log)
    finally:
        for proc in (caddy, app):
            if proc is not None:
                serving.stop(proc)
        _forget_sign_in_failures()


def _forget_sign_in_failures() -> None:
    """The Redis counters of this test's sign-in failures (Caddy forwards for 127.0.0.1)."""
    import redis

    with redis.Redis.from_url(REDIS_URL) as r:
        r.delete("loto:signin:127.0.0.1")


@pytest.fixture
def phone_profile(
    playwright: Playwright, phone: dict[str, Any], served: Served, tmp_path: Path
) -> Iterator[BrowserContext]:
    """A phone (Pixel 7) with a real profile whose HOME holds an NSS database trusting Caddy's
    root, loto.test mapped to Caddy."""
    home = tmp_path / "home"
    nss = home / ".pki" / "nssdb"
    nss.mkdir(parents=True)
    certutil = ["certutil", "-d", f"sql:{nss}"]
    subprocess.run([*certutil, "-N", "--empty-password"], check=True, capture_output=True)
    subprocess.run(
        [*certutil, "-A", "-t", "C,,", "-n", "caddy-local", "-i", str(served.root_crt)],
        check=True,
        capture_output=True,
    )
    device = {k: v for k, v in phone.items() if k != "default_browser_type"}
    port = served.https_port
    context = playwright.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST}:443 127.0.0.1:{port}"],
        env={**os.environ, "HOME": str(home)},
        locale="fr-FR",
        **device,
    )
    yield context
    context.close()


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))


def _sign_in(page: Page, code: str, secret: str) -> None:
    page.goto(f"{ORIGIN}/animateur")
    page.get_by_test_id("animateur-code").fill(code)
    page.get_by_test_id("animateur-secret").fill(secret)
    page.get_by_test_id("animateur-login").click()


_SW_STATE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  if (!r) return "no registration";
  const s = (w) => (w ? w.state : "-");
  return `installing ${s(r.installing)}, waiting ${s(r.waiting)}, active ${s(r.active)}`;
}"""


def _controlled(page: Page) -> str:
    """Wait until an activated service worker controls the page; its script URL. (A loaded
    machine can fail the first install: a fetch that hangs is given up after 20 s and tried
    twice more, then the page registers the worker again; see assets/sw.js.)"""
    try:
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    except PlaywrightError as e:
        raise AssertionError(f"no service worker in control: {page.evaluate(_SW_STATE)}") from e
    return page.evaluate("navigator.serviceWorker.controller.scriptURL")


def test_the_server_recipe_over_https(
    served: Served, phone_profile: BrowserContext, results_dir: Path
) -> None:
    code = served.code
    context = phone_profile

    # The hall screen (or a remote player's link): the QR code says https://loto.test
    tv = context.new_page()
    tv.goto(f"{ORIGIN}/ecran?code={code}")
    qr = tv.get_by_role("img", name="QR code pour rejoindre")
    expect(qr).to_be_visible(timeout=30_000)
    link = read_qr(qr)
    assert link == [f"{ORIGIN}/?code={code}"]
    expect(tv.get_by_test_id("join-address")).to_have_text(f"ou ouvrez : {ORIGIN}")

    # A phone opens it: a secure context, an installable PWA, its service worker in control
    player = context.pages[0] if context.pages else context.new_page()
    player.goto(link[0])
    expect(player.get_by_test_id("join-code")).to_have_value(code)
    assert player.evaluate("window.isSecureContext") is True
    assert _controlled(player).startswith(f"{ORIGIN}/sw.js?v=")
    cdp = context.new_cdp_session(player)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{ORIGIN}/manifest.webmanifest" and manifest["errors"] == []
    player.get_by_test_id("join-name").fill("Paulette")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1)
    no = int((carton.get_attribute("data-testid") or "").removeprefix("carton-"))
    player.screenshot(path=results_dir / "01-telephone-https.png", full_page=True)

    # The whole game through the proxy: start, the balls of a row, a quine, the award, the end
    tablet = context.new_page()
    _sign_in(tablet, code, SECRET)
    tablet.get_by_test_id("start-game").click()
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    for n in row:
        _ball(tablet, n)
        cell = player.get_by_test_id(f"cell-{no}-{n}")
        expect(cell).to_have_attribute("data-drawn", "true")
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
    expect(tv.get_by_test_id("last-number")).to_have_text(str(row[-1]))
    gestures.claim(player.get_by_test_id(f"claim-{no}"))
    expect(player.get_by_test_id("verdict")).to_contain_text("Annonce valide")
    tablet.get_by_test_id("award").click()
    expect(player.get_by_test_id("tickets")).to_contain_text("Ticket n° 1")
    gestures.claim(tablet.get_by_test_id("allow-unmark"))
    expect(tv.locator("body")).to_contain_text("La soirée est terminée")
    player.screenshot(path=results_dir / "02-fin-de-soiree.png", full_page=True)

    # Caddy's caching and compression: hashed build files for a year, pages revalidated
    asset = player.evaluate("window.__reactRouterManifest.url")
    assert asset.startswith("/assets/")
    for path, cache in ((asset, "immutable"), ("/jouer", "no-cache"), ("/sw.js", "no-cache")):
        got = player.evaluate(
            """async (p) => {
                const r = await fetch(p, {cache: "no-store"});
                return {ok: r.ok, cache: r.headers.get("cache-control") || "",
                        encoding: r.headers.get("content-encoding") || ""};
            }""",
            path,
        )
        assert got["ok"] and cache in got["cache"], (path, got)
        if path == asset:
            assert "max-age=31536000" in got["cache"]
            assert got["encoding"] in ("br", "zstd", "gzip"), got

    # Sign-in attempts from one client address (the one Caddy forwards), whatever the socket
    # and whichever of the two workers takes it: ten wrong, then the right one is refused too.
    # (This profile's pages share local storage: forget the tablet's sign-in, or every new
    # /animateur page would sign in again with it.)
    tablet.evaluate("localStorage.removeItem('loto_animateur_secret')")
    for i in range(10):
        guesser = context.new_page()
        _sign_in(guesser, code, f"devine-{i}")
        expect(guesser.get_by_role("main")).to_contain_text("secret de l'animateur incorrect")
        guesser.close()
    late = context.new_page()
    _sign_in(late, code, SECRET)
    expect(late.get_by_role("main")).to_contain_text("Trop d'essais de connexion")
    assert "LOTO_CREATE_KEY is not set" not in served.log.read_text(errors="replace")
