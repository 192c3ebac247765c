"""The animateur's tablet laid out for the hall: on a landscape tablet (1180x820, 1024x768) the
controls and the claims on one side, the read-back and the board on the other, the next action
and the board in view without scrolling; on a phone (360x740) one column. "Vous pouvez
démarquer" is offered only when the game can end. Each state is screenshotted at each size
(test-results/<test>/) and checked with axe.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from axe_check import blocking_violations, describe
from gestures import buy, claim
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
    from playwright.sync_api import Browser, Page

SECRET = "layout-secret"
LAST_CALL = 2
LANDSCAPE = {"1180x820": (1180, 820), "1024x768": (1024, 768)}
PHONE = {"360x740": (360, 740)}
BOARD = "[aria-label='Les 90 numéros']"

#: The boxes of the parts a volunteer needs, and whether the page scrolls.
BOXES_JS = """(sel) => {
    const box = (s) => {
        const e = document.querySelector(s);
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
    };
    const out = {};
    for (const [k, s] of Object.entries(sel)) out[k] = box(s);
    const d = document.documentElement;
    out.page = {sh: d.scrollHeight, ih: innerHeight, sw: d.scrollWidth, iw: innerWidth};
    return out;
}"""


def _evening(db_url: str) -> str:
    program = Program(
        "ANI",
        (
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),)),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Téléviseur", 30000)),)),
        ),
        Settings(DrawSource.PHYSICAL, free_cartons=True, last_call_seconds=LAST_CALL),
    )
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Amicale des pompiers", program, animateur_secret=SECRET
    )
    engine.dispose()
    return creds.join_code


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))


def _inside(box: dict[str, float] | None, page: dict[str, float], what: str, where: str) -> None:
    assert box is not None, f"{where}: no {what}"
    assert box["top"] >= 0 and box["bottom"] <= page["ih"] + 1, f"{where}: {what} {box} {page}"
    assert box["left"] >= 0 and box["right"] <= page["iw"] + 1, f"{where}: {what} {box} {page}"


def _check(tablet: Page, results_dir: Path, state: str, action: str, *, claims: bool) -> None:
    """At each size: a screenshot, axe clean, and the layout: on a landscape tablet the next
    action and the board (and the read-back, if any) in view with no scrolling, the claims
    beside the board; on a phone one column, nothing wider than the screen."""
    sel = {
        "action": f"[data-testid={action}]",
        "board": BOARD,
        "claims": "[data-testid=claims]",
        "readback": "[data-testid=readback]",
    }
    for size, (w, h) in {**LANDSCAPE, **PHONE}.items():
        where = f"{state}-{size}"
        tablet.set_viewport_size({"width": w, "height": h})
        tablet.wait_for_timeout(300)  # the layout pass after the resize
        tablet.screenshot(path=results_dir / f"{where}.png")
        found = blocking_violations(tablet)
        assert not found, f"{where}:\n{describe(found)}"
        b: dict[str, Any] = tablet.evaluate(BOXES_JS, sel)
        page = b["page"]
        assert page["sw"] <= page["iw"], f"{where}: the page is wider than the screen {page}"
        if size in LANDSCAPE:
            assert page["sh"] <= page["ih"], f"{where}: the page scrolls {page}"
            _inside(b["action"], page, action, where)
            _inside(b["board"], page, "the board", where)
            if b["readback"] is not None:
                _inside(b["readback"], page, "the read-back", where)
                # the read-back sits with the board, on the board's side
                assert b["readback"]["left"] >= b["board"]["left"] - 1, f"{where}: {b}"
            # the controls and the claims on one side, the board on the other
            assert b["action"]["right"] <= b["board"]["left"], f"{where}: {b}"
            assert b["claims"]["right"] <= b["board"]["left"], f"{where}: {b}"
            if claims:
                assert b["claims"]["top"] < page["ih"] - 40, f"{where}: claims below: {b}"
        else:
            # one column: everything the same width, one under the other
            assert b["board"]["right"] - b["board"]["left"] > 0.9 * page["iw"], f"{where}: {b}"
            for k in ("action", "claims"):
                assert b[k]["left"] >= b["board"]["left"] - 1, f"{where}: {k} {b}"
                assert b[k]["right"] <= b["board"]["right"] + 1, f"{where}: {k} {b}"
            assert b["action"]["bottom"] <= b["board"]["top"], f"{where}: {b}"


def test_tablet_layout_landscape_and_phone_and_the_unmark_action(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    code = _evening(db_url)
    w, h = LANDSCAPE["1180x820"]
    tablet = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR").new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()

    player = browser.new_context(**phone).new_page()
    player.goto(f"{app_url}/?code={code}")
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    buy(player, "buy-classique")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1)
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    mine = {int(t) for t in carton.locator("[data-testid^=cell-]").all_inner_texts()}
    away = [n for n in range(1, 91) if n not in mine]

    # Idle: the first game to start is the next action; nothing to unmark.
    expect(tablet.get_by_test_id("start-game")).to_be_visible()
    expect(tablet.get_by_test_id("allow-unmark")).to_have_count(0)
    _check(tablet, results_dir, "01-idle", "start-game", claims=False)

    # In a game: the ball to announce, the board lit.
    tablet.get_by_test_id("start-game").click()
    for n in [*away[:4], *row[:-1]]:
        _ball(tablet, n)
    expect(tablet.get_by_test_id("allow-unmark")).to_have_count(0)
    _check(tablet, results_dir, "02-in-game", "ball-submit", claims=False)
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR").new_page()
    tv.goto(f"{app_url}/ecran?code={code}")
    expect(tv.get_by_test_id("last-number")).to_have_text(str(row[-2]))
    # balls typed in a burst: no pace on the hall screen ("un numéro par seconde" meant nothing)
    expect(tv.get_by_test_id("rhythm")).to_have_count(0)
    tv.screenshot(path=results_dir / "06-hall-in-game-burst-1920x1080.png")

    # A claim: the carton read back beside the board, the lot to award is the next action.
    _ball(tablet, row[-1])
    claim(player.locator("[data-testid^=carton-] [data-testid^=claim-]").first)
    expect(tablet.get_by_test_id("readback")).to_be_visible()
    expect(tablet.get_by_test_id("last-call")).to_have_count(0, timeout=(LAST_CALL + 20) * 1000)
    expect(tablet.get_by_test_id("award")).to_be_enabled()
    expect(tablet.get_by_test_id("allow-unmark")).to_have_count(0)
    _check(tablet, results_dir, "03-claim-read-back", "award", claims=True)

    # Every lot awarded: now, and only now, "Vous pouvez démarquer" is offered.
    tablet.get_by_test_id("award").click()
    unmark = tablet.get_by_test_id("allow-unmark")
    expect(unmark).to_be_enabled()
    _check(tablet, results_dir, "04-awarded", "allow-unmark", claims=True)
    unmark.click()  # one tap only asks: the game goes on until the second
    expect(unmark).to_have_attribute("data-armed", "ready")
    expect(unmark).to_have_attribute("data-confirm", "Confirmer : fin de partie ?")
    expect(tablet.get_by_test_id("next-game")).to_have_count(0)
    unmark.click()
    expect(tablet.get_by_test_id("next-game")).to_be_visible()
    expect(tablet.get_by_test_id("allow-unmark")).to_have_count(0)
    _check(tablet, results_dir, "05-between-games", "next-game", claims=True)

    # The next game at a hall's pace: the screen tells it in words.
    tablet.get_by_test_id("next-game").click()
    _ball(tablet, away[0])
    tablet.wait_for_timeout(6_000)  # a steady pace is at least 5 s a number
    _ball(tablet, away[1])
    expect(tv.get_by_test_id("rhythm")).to_have_text(
        re.compile(r"^Environ un numéro toutes les [67] secondes$")
    )
    tv.screenshot(path=results_dir / "07-hall-in-game-paced-1920x1080.png")
