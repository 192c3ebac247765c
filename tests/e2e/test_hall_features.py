"""At the hall: the phone stays awake, vibrates for my numbers and (if the evening allows it)
hints a possible quine and says what each carton still needs ("Plus qu'un numéro !", the
closest carton first); the phone speaks each number when asked to ("Annonce sur mon
téléphone", "Activer le son" after a reload, "Répéter"), tells a screen reader each number and
names every cell; the hall screen reads the numbers aloud with the traditional phrases (and a
chime before each, when it is on), says "Activer le son" when the browser blocks its sound,
shows the last five numbers and the draw rhythm; remote players get the live stream."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from axe_check import BLOCKING, axe_script, describe, run_axe
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

#: The page's calls to the browser's speech synthesis, recorded before they reach it (headless
#: Chromium has no voice to hear), under a phone browser's rule: no speech before the page has
#: been touched ("not-allowed"; Chromium driven by Playwright counts every page as touched, so
#: the rule is kept here, with `navigator.userActivation` as a phone reports it).
SPEECH_SPY = """
(() => {
  window.__speechCalls = [];
  let touched = false;
  for (const type of ["pointerdown", "keydown"]) {
    window.addEventListener(type, () => { touched = true; }, true);
  }
  Object.defineProperty(Navigator.prototype, "userActivation", {
    configurable: true,
    get: () => ({ hasBeenActive: touched, isActive: touched }),
  });
  const synth = window.speechSynthesis;
  if (!synth) return;
  const speak = synth.speak.bind(synth);
  synth.speak = (u) => {
    window.__speechCalls.push({ text: u.text, lang: u.lang, touched });
    if (!touched) {
      if (u.onerror) setTimeout(() => u.onerror({ error: "not-allowed" }), 0);
      return undefined;
    }
    return speak(u);
  };
})();
"""


def _spoken(page: Page) -> list[dict]:
    return page.evaluate("window.__speechCalls || []")


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
    settings = Settings(
        DrawSource.PHYSICAL,
        claim_hint=True,
        one_to_go=True,
        stream_url=STREAM,
        free_cartons=True,
    )
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes", Program(demo.series, demo.games, settings), animateur_secret=SECRET
    )
    engine.dispose()
    code = creds.join_code

    context = browser.new_context(**phone)
    context.add_init_script(SPEECH_SPY)
    player = context.new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("join-code")).to_have_value(code)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique")
    buy(player, "buy-classique")
    cartons = player.locator("[data-testid=cartons] > [data-testid^=carton-]")
    expect(cartons).to_have_count(2)
    expect(player.get_by_test_id("stream").locator("iframe")).to_have_attribute(
        "src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&mute=1"
    )
    # the line to complete is on the second carton: "Plus qu'un numéro !" moves it up
    carton, other = cartons.last, cartons.first
    no = carton.get_attribute("data-testid").removeprefix("carton-")
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    mine = {int(t) for t in cartons.locator("[data-testid^=cell-]").all_inner_texts()}
    assert len(row) == 5
    away = [n for n in range(1, 91) if n not in mine and n != 22]

    # "Annonce sur mon téléphone": off by default; the touch that turns it on lets it speak
    voice = player.get_by_test_id("phone-voice")
    expect(voice).to_have_text("Annonce sur mon téléphone : non", use_inner_text=True)
    expect(voice).to_have_attribute("aria-pressed", "false")
    voice.click()
    expect(voice).to_have_attribute("aria-pressed", "true")
    expect(voice).to_have_text("Annonce sur mon téléphone : oui", use_inner_text=True)
    player.wait_for_function(
        "window.__speechCalls.some(c => c.text === 'Annonce des numéros activée.')"
    )
    assert all(c["lang"] == "fr-FR" for c in _spoken(player))

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
    # the phone says it, and so does the live region a screen reader reads
    said = f"Le {away[0]}"
    player.wait_for_function(f"window.__speechCalls.some(c => c.text.startsWith('{said}'))")
    expect(player.get_by_test_id("number-live")).to_contain_text(said)
    calls = len(_spoken(player))
    player.get_by_test_id("repeat-number").click()  # "Répéter": the same words again
    player.wait_for_function(f"window.__speechCalls.length > {calls}")
    assert _spoken(player)[-1]["text"].startswith(said)
    expect(player.get_by_test_id("number-live")).to_contain_text(said)
    # the choice is remembered; after a reload the browser holds speech back until a touch:
    # the phone says so with "Activer le son" instead of failing silently
    player.reload()
    expect(voice).to_have_attribute("aria-pressed", "true")
    unlock = player.get_by_test_id("sound-unlock")
    expect(unlock).to_be_visible()
    expect(unlock).to_contain_text("Activer le son")
    player.screenshot(path=results_dir / "00-activer-le-son.png")
    unlock.click()
    expect(unlock).to_be_hidden()
    player.wait_for_function(
        f"window.__speechCalls.some(c => c.touched && c.text.startsWith('{said}'))"
    )
    _ball(tablet, row[0])  # mine: a short vibration
    player.wait_for_function("(window.__lotoVibrations || []).length === 1")
    assert player.evaluate("window.__lotoVibrations") == [120]
    expect(player.get_by_test_id("quine-hint")).to_be_hidden()
    if 22 not in mine:
        _ball(tablet, 22)
        screen.wait_for_function("(window.__lotoSpoken || []).includes('Le 22, les deux cocottes')")
    for n in row[1:3]:
        _ball(tablet, n)
    togo = player.get_by_test_id(f"togo-{no}")
    expect(togo).to_have_text("Reste 2 numéros")
    # the closest carton comes first (by its place on the screen; the page's order is kept)
    player.wait_for_function(
        "([a, b]) => document.querySelector(`[data-testid=carton-${a}]`)"
        ".getBoundingClientRect().top < document.querySelector(`[data-testid=${b}]`)"
        ".getBoundingClientRect().top",
        arg=[no, other.get_attribute("data-testid")],
    )
    _ball(tablet, row[3])
    expect(togo).to_have_text(f"Plus qu'un numéro : le {row[4]} !")
    expect(togo).to_be_visible()
    # every cell and the board have names: drawn, marked
    cell = player.get_by_test_id(f"cell-{no}-{row[0]}")
    expect(cell).to_have_attribute("aria-label", f"{row[0]}, sorti")
    cell.click()
    expect(cell).to_have_attribute("aria-label", f"{row[0]}, sorti, marqué")
    tree = carton.aria_snapshot()
    assert f'button "{row[0]}, sorti, marqué"' in tree, tree
    assert f'button "{row[3]}, sorti"' in tree, tree
    player.get_by_test_id("drawn-board").locator("summary").click()
    board = player.get_by_role("list", name="Les 90 numéros").aria_snapshot()
    assert f"{row[3]}, sorti, le dernier" in board and f"{away[0]}, sorti" in board, board
    recent = player.get_by_test_id("recent-numbers").aria_snapshot()
    assert f'- listitem: "{row[3]}"' in recent or f"- listitem: {row[3]}" in recent, recent
    player.screenshot(path=results_dir / "01a-plus-qu-un-numero.png", full_page=True)
    violations = [v for v in run_axe(player, axe_script()) if v["impact"] in BLOCKING]
    assert not violations, describe(violations)
    _ball(tablet, row[4])
    expect(player.get_by_test_id("last-number")).to_have_text(str(row[-1]))
    expect(player.get_by_test_id("quine-hint")).to_be_visible()
    expect(togo).to_be_hidden()  # complete: the hint of the evening says it
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
