"""At the hall: the phone stays awake, vibrates for my numbers and (if the evening allows it)
hints a possible quine; the hall screen reads the numbers aloud with the traditional phrases
(and a chime before each, when it is on), says "Activer le son" when the browser blocks its
sound, shows the last five numbers and the draw rhythm; remote players get the live stream."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from gestures import buy
from playwright.sync_api import expect
from test_hall_screen import CUT_JS

from loto_app.domain.program import DrawSource, Program, Settings, demo_program
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "hall-secret"
STREAM = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


#: When each ball was typed (seen on the tablet), as the server's pace counts the draws.
TYPED: list[float] = []


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))
    TYPED.append(time.monotonic())


def _typed_gap() -> float:
    """The average gap between the last 6 balls typed (the pace's window, snapshot.rhythm)."""
    recent = TYPED[-6:]
    return (recent[-1] - recent[0]) / (len(recent) - 1)


def test_vibrations_hint_voice_rhythm_and_stream(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    TYPED.clear()
    demo = demo_program("HALL")
    settings = Settings(DrawSource.PHYSICAL, claim_hint=True, stream_url=STREAM, free_cartons=True)
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes", Program(demo.series, demo.games, settings), animateur_secret=SECRET
    )
    engine.dispose()
    code = creds.join_code

    player = browser.new_context(**phone).new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("join-code")).to_have_value(code)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1)
    expect(player.get_by_test_id("stream").locator("iframe")).to_have_attribute(
        "src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&mute=1"
    )
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    mine = {int(t) for t in carton.locator("[data-testid^=cell-]").all_inner_texts()}
    assert len(row) == 5
    away = [n for n in range(1, 91) if n not in mine and n != 22]

    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    errors: list[str] = []
    screen.on("pageerror", lambda exc: errors.append(str(exc)))
    screen.goto(f"{app_url}/ecran?code={code}")
    unlock = screen.get_by_test_id("sound-unlock")
    expect(screen.locator("html[data-loto-sound=ok]")).to_have_count(1)
    expect(unlock).to_be_hidden()  # no sound wanted: nothing to unlock
    voice = screen.get_by_test_id("voice-toggle")
    # the label shown (both are in the button, its state shows one) and the state read aloud
    expect(voice).to_have_text("Voix : coupée", use_inner_text=True)
    expect(voice).to_have_attribute("aria-pressed", "false")
    voice.click()
    expect(voice).to_have_text("Voix : activée", use_inner_text=True)
    expect(voice).to_have_attribute("aria-pressed", "true")
    expect(screen.get_by_role("button", name="Voix : activée")).to_be_visible()
    # the TV remembers it: after a reload the voice is on at once, and React hydrates the page
    # without a mismatch (one renders the whole page again, and a touch in progress is lost)
    screen.reload()
    expect(voice).to_have_text("Voix : activée", use_inner_text=True)
    expect(screen.get_by_test_id("phrases-toggle")).to_have_text(
        "Expressions : activées", use_inner_text=True
    )
    screen.wait_for_timeout(1000)  # hydration is over well within a second
    assert errors == [], errors
    # ... but the browser plays no sound on a page nobody has touched since it loaded: the TV
    # says so, large, instead of staying silent; one tap unlocks it
    # (Playwright's own queries count as a user's activation: the page saw none when it
    # loaded, which is what a TV that reloads sees; the button stays until a tap)
    expect(unlock).to_be_visible()
    expect(unlock).to_contain_text("Activer le son")
    assert screen.evaluate("window.__lotoSoundWhy") == "no-activation"
    screen.screenshot(path=results_dir / "00-activer-le-son.png")
    screen.get_by_role("button", name=re.compile("Activer le son")).click()
    expect(unlock).to_be_hidden()
    # the welcome of a long program (six games, eleven lots) fits both TV sizes
    expect(screen.get_by_test_id("program-game")).to_have_count(len(demo.games))
    for w, h in ((1920, 1080), (1280, 720)):
        screen.set_viewport_size({"width": w, "height": h})
        screen.wait_for_timeout(300)
        screen.screenshot(path=results_dir / f"00-welcome-6-games-{w}x{h}.png")
        assert screen.evaluate(CUT_JS) == [], f"{w}x{h}: the program is cut"
    screen.set_viewport_size({"width": 1920, "height": 1080})
    assert screen.evaluate("window.__lotoSoundUnlocked") == 1
    # the chime before each number (off by default), kept by the browser like the voice
    chime = screen.get_by_test_id("chime-toggle")
    expect(chime).to_have_text("Carillon : coupé", use_inner_text=True)
    chime.click()
    expect(chime).to_have_attribute("aria-pressed", "true")
    expect(chime).to_have_text("Carillon : activé", use_inner_text=True)

    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click()

    _ball(tablet, away[0])  # not mine: no vibration
    expect(player.get_by_test_id("last-number")).to_have_text(str(away[0]))
    assert player.evaluate("window.__lotoVibrations || []") == []
    _ball(tablet, row[0])  # mine: a short vibration
    player.wait_for_function("(window.__lotoVibrations || []).length === 1")
    assert player.evaluate("window.__lotoVibrations") == [120]
    expect(player.get_by_test_id("quine-hint")).to_be_hidden()
    if 22 not in mine:
        _ball(tablet, 22)
        screen.wait_for_function("(window.__lotoSpoken || []).includes('Le 22, les deux cocottes')")
    for n in row[1:]:
        _ball(tablet, n)
    expect(player.get_by_test_id("last-number")).to_have_text(str(row[-1]))
    expect(player.get_by_test_id("quine-hint")).to_be_visible()
    assert player.evaluate("window.__lotoVibrations")[-1] == [300, 100, 300]
    assert player.evaluate("window.__lotoWakeLock") is not None  # asked for (held or refused)
    player.screenshot(path=results_dir / "01-quine-possible.png", full_page=True)

    expect(screen.get_by_test_id("last-number")).to_have_text(str(row[-1]))
    expect(screen.get_by_test_id("last-five").locator("p")).to_have_count(6)  # label + 5
    # balls typed in a burst: no pace worth telling the hall (tests/live/test_snapshot.py).
    # A loaded machine types slower than a hall's burst: then the pace is told, in words.
    gap = _typed_gap()
    if gap < 3.5:
        expect(screen.get_by_test_id("rhythm")).to_have_count(0)
    elif gap > 5.5:
        expect(screen.get_by_test_id("rhythm")).to_have_text(
            re.compile(r"^Environ un numéro (toutes les \d+ (secondes|minutes)|par minute)$")
        )
    spoken = screen.evaluate("window.__lotoSpoken")
    assert spoken[-1].startswith(f"Le {row[-1]}")
    # a chime for each number said since it was switched on, with the audio running
    chimes = screen.evaluate("window.__lotoChimes")
    assert len(chimes) == len(spoken) and set(chimes) == {"running"}, (chimes, spoken)
    expect(unlock).to_be_hidden()
    screen.screenshot(path=results_dir / "02-ecran.png")
