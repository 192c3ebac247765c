"""In the hall, on a laptop: the app served on a real network address, not loopback.

A network namespace stands for the laptop (`ip netns add`, a veth pair with private addresses:
the laptop's end 10.x.y.2, the hall's 10.x.y.1). The app runs inside it as `make run` serves
it once its build is done: the run's production build (`prod_build`, made by `reflex run --env
prod`) served on 0.0.0.0 at the port it was built for (the namespace's ports are its own), by
bench/serve_built.py, what `reflex run` does after building; Chromium, outside, is the hall:
the TV, a phone, the animateur's tablet, all over plain HTTP to 10.x.y.2. Checked: the address
`make run` prints inside the namespace, the hall screen's QR code (decoded from its pixels)
opens on a phone, a whole quine is played (marks, vibration, claim, award), a phone that loses
the network comes back with its pions, the HTTP mode says nothing about installing the app, and
sign-in attempts are limited per client address (new sockets do not help a guesser).

The namespace, its veth pair and every process in it are removed at the end, even on failure.
Skipped only where `ip netns` cannot be used (not root, no iproute2).
"""

from __future__ import annotations

import ipaddress
import os
import random
import shutil
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
from gestures import buy
from outside import read_qr, serving
from playwright.sync_api import expect

from loto_app.domain.program import DrawSource, Program, Settings, demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[2]
SECRET = "salle-des-fetes-secret"


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


@dataclass(frozen=True)
class Netns:
    name: str
    host_ip: str  # the hall's end (where Chromium's requests come from)
    ns_ip: str  # the laptop's address


def _free_subnet() -> ipaddress.IPv4Network:
    used = ip("-4", "-o", "addr", "show").stdout
    rng = random.SystemRandom()
    for _ in range(50):
        net = ipaddress.ip_network(f"10.{rng.randrange(200, 250)}.{rng.randrange(256)}.0/30")
        if f" {net[1]}/" not in used and f" {net[2]}/" not in used:
            return net
    raise RuntimeError("no free 10.x.y.0/30")


@pytest.fixture(scope="module")
def netns() -> Iterator[Netns]:
    """A namespace with a veth pair to this one; removed with everything in it."""
    if os.geteuid() != 0:
        pytest.skip("ip netns needs root (the test's stand-in for the hall's laptop)")
    if shutil.which("ip") is None:
        pytest.skip("iproute2 (`ip`) is not installed")
    tag = uuid.uuid4().hex[:6]
    name, host_if, ns_if = f"loto-{tag}", f"lt{tag}h", f"lt{tag}n"
    made = ip("netns", "add", name, check=False)
    if made.returncode != 0:
        pytest.skip(f"ip netns add is not allowed here: {made.stderr.strip()}")
    try:
        net = _free_subnet()
        host_ip, ns_ip = str(net[1]), str(net[2])
        ip("link", "add", host_if, "type", "veth", "peer", "name", ns_if)
        ip("link", "set", ns_if, "netns", name)
        ip("addr", "add", f"{host_ip}/30", "dev", host_if)
        ip("link", "set", host_if, "up")
        ip("netns", "exec", name, "ip", "addr", "add", f"{ns_ip}/30", "dev", ns_if)
        ip("netns", "exec", name, "ip", "link", "set", ns_if, "up")
        ip("netns", "exec", name, "ip", "link", "set", "lo", "up")
        yield Netns(name, host_ip, ns_ip)
    finally:
        for sig in ("-TERM", "-KILL"):
            pids = ip("netns", "pids", name, check=False).stdout.split()
            if pids:
                subprocess.run(["kill", sig, *pids], capture_output=True, check=False)
                time.sleep(2)
        ip("link", "del", host_if, check=False)  # (takes its peer with it)
        ip("netns", "del", name, check=False)


@dataclass(frozen=True)
class LanApp:
    url: str
    code: str
    port: int
    env: dict[str, str]


@pytest.fixture(scope="module")
def lan_app(
    netns: Netns, prod_build: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LanApp]:
    """The app inside the namespace, as `make run` serves it, on port P of 0.0.0.0: the
    production build served as it is (no second build: P is the port it was built for).

    Its own directory, only read, as test_crash serves it: not `prod_web`, which test_https's
    `reflex run` builds again for its port and its address (served here after it, the page's
    socket went to test_https's port: "Connexion perdue")."""
    tmp = tmp_path_factory.mktemp("lan")
    db = f"sqlite:///{tmp / 'loto.db'}"
    upgrade(db)
    demo = demo_program("SALLE")
    settings = Settings(DrawSource.PHYSICAL, free_cartons=True)
    engine = make_engine(db)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes", Program(demo.series, demo.games, settings), animateur_secret=SECRET
    )
    engine.dispose()
    port = prod_build.port  # (the namespace's ports are all free)
    env = {
        **os.environ,
        "VENV": str(Path(sys.executable).parent.parent),
        "LOTO_DB_URL": db,
        "REFLEX_WEB_WORKDIR": str(prod_build.web),
    }
    env.pop("LOTO_PUBLIC_URL", None)
    log = tmp / "server.log"
    proc = serving.spawn(
        port, env, log, host="0.0.0.0", prefix=("ip", "netns", "exec", netns.name), rebuild=False
    )
    url = f"http://{netns.ns_ip}:{port}"
    try:
        serving.wait_up(proc, url, 600, log)
        yield LanApp(url, creds.join_code, port, env)
    finally:
        serving.stop(proc)


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))


def _sign_in(page: Page, url: str, code: str, secret: str) -> None:
    page.goto(f"{url}/animateur")
    page.get_by_test_id("animateur-code").fill(code)
    page.get_by_test_id("animateur-secret").fill(secret)
    page.get_by_test_id("animateur-login").click()


def _cli_in(namespace: str, env: dict[str, str], *args: str) -> str:
    """`python -m loto_app.storage.cli ARGS` inside a namespace; its output."""
    return subprocess.run(
        ["ip", "netns", "exec", namespace, sys.executable, "-m", "loto_app.storage.cli", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout


def test_the_address_make_run_prints_is_the_laptop_s(netns: Netns, lan_app: LanApp) -> None:
    out = _cli_in(
        netns.name, lan_app.env, "address", "--port", str(lan_app.port), "--code", lan_app.code
    )
    assert f"Adresse pour les téléphones (même Wi-Fi) : {lan_app.url}" in out
    assert f"Lien pour rejoindre : {lan_app.url}/?code={lan_app.code}" in out
    assert "▀" in out or "█" in out  # the QR code, in the terminal
    # and with nothing but loopback, the links stay on the machine (and it says so)
    lonely = f"loto-lo-{uuid.uuid4().hex[:6]}"
    ip("netns", "add", lonely)
    try:
        ip("netns", "exec", lonely, "ip", "link", "set", "lo", "up")
        out = _cli_in(lonely, lan_app.env, "address", "--port", "3000")
        assert "Aucun réseau : seul cet ordinateur ouvre http://localhost:3000" in out
    finally:
        ip("netns", "del", lonely, check=False)


def test_a_quine_over_the_hall_s_lan_address(
    netns: Netns, lan_app: LanApp, browser: Browser, phone: dict, results_dir: Path
) -> None:
    url, code = lan_app.url, lan_app.code

    # The hall TV: its QR code (read from the pixels) opens the laptop's address
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{url}/ecran?code={code}")
    qr = tv.get_by_role("img", name="QR code pour rejoindre")
    expect(qr).to_be_visible(timeout=30_000)
    expect(tv.get_by_test_id("join-address")).to_have_text(
        f"ou ouvrez : {netns.ns_ip}:{lan_app.port}"
    )
    link = read_qr(qr)
    assert link == [f"{url}/?code={code}"]
    tv.screenshot(path=results_dir / "01-ecran.png")

    # A phone opens it: plain HTTP, no secure context, hence no service worker, no wake lock
    context = browser.new_context(**phone)
    player = context.new_page()
    player.goto(link[0])
    expect(player.get_by_test_id("join-code")).to_have_value(code)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1)
    no = int((carton.get_attribute("data-testid") or "").removeprefix("carton-"))
    assert player.evaluate("window.isSecureContext") is False
    assert player.evaluate("'serviceWorker' in navigator") is False
    text = player.locator("body").inner_text().lower()
    assert "install" not in text, "the HTTP mode must not talk about installing the app"
    player.screenshot(path=results_dir / "02-telephone.png", full_page=True)

    # The animateur's tablet, over the same LAN
    tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    _sign_in(tablet, url, code, SECRET)
    tablet.get_by_test_id("start-game").click()
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    mine = {int(t) for t in carton.locator("[data-testid^=cell-]").all_inner_texts()}
    away = next(n for n in range(1, 91) if n not in mine)
    _ball(tablet, away)
    expect(player.get_by_test_id("last-number")).to_have_text(str(away))
    for n in row[:3]:
        _ball(tablet, n)
        cell = player.get_by_test_id(f"cell-{no}-{n}")
        expect(cell).to_have_attribute("data-drawn", "true")
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
    assert player.evaluate("window.__lotoVibrations") == [120, 120, 120]  # my numbers only
    assert player.evaluate("window.__lotoWakeLock") == "unsupported"

    # The phone loses the Wi-Fi, numbers go on, it comes back with its pions
    context.set_offline(True)
    expect(player.get_by_test_id("connection-banner")).to_be_visible(timeout=30_000)
    _ball(tablet, row[3])
    context.set_offline(False)
    expect(player.get_by_test_id("connection-banner")).to_have_count(0, timeout=30_000)
    expect(player.get_by_test_id("last-number")).to_have_text(str(row[3]), timeout=30_000)
    for n in row[:3]:
        expect(player.get_by_test_id(f"cell-{no}-{n}")).to_have_attribute("data-marked", "true")
    _ball(tablet, row[4])

    # Quine on the last number: valid, on the TV and the tablet; the animateur awards it
    claim = player.get_by_test_id(f"claim-{no}")
    expect(claim).to_have_text("QUINE !")
    gestures.claim(claim)
    expect(player.get_by_test_id("verdict")).to_contain_text("Annonce valide")
    expect(tablet.get_by_test_id("claims")).to_contain_text("Mamie Jo")
    expect(tv.locator("body")).to_contain_text("Mamie Jo")
    tablet.get_by_test_id("award").click()
    expect(player.get_by_test_id("tickets")).to_contain_text("Ticket n° 1")
    player.screenshot(path=results_dir / "03-quine.png", full_page=True)
    tv.screenshot(path=results_dir / "04-ecran-quine.png")

    # A guesser at the laptop's address: ten wrong secrets, each from a new browser (a new
    # socket, a new client token), then even the right one is refused for a while; the
    # signed-in tablet is not affected
    for i in range(10):
        guesser = browser.new_context().new_page()
        _sign_in(guesser, url, code, f"guess-{i}")
        expect(guesser.get_by_role("main")).to_contain_text("secret de l'animateur incorrect")
        guesser.context.close()
    late = browser.new_context().new_page()
    _sign_in(late, url, code, SECRET)
    expect(late.get_by_role("main")).to_contain_text(
        "Trop d'essais de connexion depuis ce réseau : réessayez dans 15 minutes."
    )
    expect(late.get_by_test_id("start-game")).to_have_count(0)
    late.screenshot(path=results_dir / "05-trop-d-essais.png")
    expect(tablet.get_by_test_id("ball-submit")).to_be_visible()
