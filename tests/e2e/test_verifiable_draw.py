"""The verifiable electronic draw in real browsers: the animateur starts a game, the hall screen
(1920x1080) and a phone show the commitment before the first number; the seed is nowhere in what
the browsers receive (every websocket frame of the TV, the phone and /verifier is read) until the
game ends; then the phone's "Vérifier ce tirage" opens /verifier (360x740), which finds the draw
conforme, and a number changed by hand fails at its position."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gestures import claim, join
from live_driver import Driver
from playwright.sync_api import expect
from sqlmodel import Session, select

from loto_app.domain import commitment as draws
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
from loto_app.live.runtime import registry
from loto_app.storage import models as m
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 20_000
QUINE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))
PHONE_360 = {"width": 360, "height": 740}


def listen(page: Page, frames: list[str]) -> None:
    """Keep every websocket frame the page receives."""
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))


def sealed(db_url: str, evening_id: int) -> str:
    with Session(make_engine(db_url)) as s:
        return s.exec(
            select(m.DrawSeedRow.seed_hex).where(m.DrawSeedRow.evening_id == evening_id)
        ).one()


def test_a_committed_draw_is_shown_kept_secret_revealed_and_checked(
    app_url: str,
    db_url: str,
    browser: Browser,
    phone: dict,
    results_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = EveningStore(make_engine(db_url))
    animateur = f"anim-{uuid.uuid4().hex[:10]}"
    settings = Settings(DrawSource.ELECTRONIC, last_call_seconds=0, free_cartons=True)
    creds = store.create_evening(
        "Loto vérifiable", Program("V", (QUINE, QUINE), settings), animateur_secret=animateur
    )
    code, eid = creds.join_code, creds.evening_id
    frames: list[str] = []

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    listen(tv, frames)
    tv.goto(f"{app_url}/ecran?code={code}")
    player = browser.new_context(**phone).new_page()
    listen(player, frames)
    join(player, app_url, code, "Mamie Jo", "buy-classique", 1)
    anim = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    anim.goto(f"{app_url}/animateur")
    anim.get_by_test_id("animateur-code").fill(code)
    anim.get_by_test_id("animateur-secret").fill(animateur)
    anim.get_by_test_id("animateur-login").click()
    anim.get_by_test_id("start-game").click()

    # before the first number: the commitment, short, on the TV and the phone
    expect(anim.get_by_test_id("draw")).to_be_enabled(timeout=WAIT_MS)
    seed = sealed(db_url, eid)
    short = draws.short(draws.commitment(bytes.fromhex(seed), code, "V", 1))
    expect(tv.get_by_test_id("tv-commitment")).to_contain_text(short, timeout=WAIT_MS)
    expect(tv.get_by_test_id("tv-commitment")).to_contain_text("Tirage engagé · empreinte")
    expect(player.get_by_test_id("commitment-short")).to_have_text(short, timeout=WAIT_MS)
    tv.screenshot(path=results_dir / "commitment-tv-1920x1080.png")
    player.screenshot(path=results_dir / "commitment-phone.png")

    # /verifier while the game is played: the commitment, never the seed
    checker = browser.new_context(**{**phone, "viewport": PHONE_360}).new_page()
    listen(checker, frames)
    checker.goto(f"{app_url}/verifier?code={code}")
    checker.get_by_test_id("verifier-game-1").click(timeout=WAIT_MS)
    expect(checker.get_by_test_id("verifier-secret")).to_contain_text("Secrète")
    expect(checker.get_by_test_id("verifier-short")).to_have_text(short)
    expect(checker.get_by_test_id("verifier-seed")).to_have_count(0)

    # the whole game, nobody claims: every number the next of the order (the first ten and the
    # last from the tablet, the others from another worker's registry: the database, as in
    # test_organisation.py); the seed stays out of every page
    order = draws.draw_order(bytes.fromhex(seed))
    draw = anim.get_by_test_id("draw")
    for i in range(10):
        expect(draw).to_be_enabled(timeout=WAIT_MS)
        draw.click()
        expect(anim.get_by_test_id("last-number")).to_have_text(str(order[i]), timeout=WAIT_MS)
    expect(player.get_by_test_id("last-number")).to_have_text(str(order[9]), timeout=WAIT_MS)
    monkeypatch.setattr(registry.default(), "sole_writer", False)  # (another worker writes)
    with Driver(EveningStore(make_engine(db_url))) as other:
        live = other.on(eid)
        drawn = [live.run(lambda e: e.draw())[0].number for _ in range(79)]
    assert drawn == list(order[10:89])
    expect(draw).to_be_enabled(timeout=WAIT_MS)
    draw.click()
    expect(anim.get_by_test_id("last-number")).to_have_text(str(order[89]), timeout=WAIT_MS)
    expect(player.get_by_test_id("last-number")).to_have_text(str(order[89]), timeout=WAIT_MS)
    expect(tv.get_by_test_id("tv-commitment-small")).to_contain_text(short)  # the footer
    assert not [f for f in frames if seed in f], "the seed reached a browser before the end"
    assert seed not in tv.content() + player.content() + checker.content()
    claim(anim.get_by_test_id("allow-unmark"))

    # revealed: the phone's link opens /verifier, the draw is conforme
    link = player.get_by_test_id("verify-link")
    expect(link).to_be_visible(timeout=WAIT_MS)
    player.set_viewport_size(PHONE_360)
    link.click()
    player.wait_for_url(f"**/verifier?code={code}", timeout=WAIT_MS)
    player.get_by_test_id("verifier-game-1").click(timeout=WAIT_MS)
    seed_box = player.get_by_test_id("verifier-seed")
    expect(seed_box).to_have_value(re.compile(seed[:4].upper()), timeout=WAIT_MS)
    assert seed_box.input_value().replace(" ", "").lower() == seed
    numbers = player.get_by_test_id("verifier-numbers")
    assert numbers.input_value().split() == [str(n) for n in order]
    player.get_by_test_id("verifier-check").click()
    result = player.get_by_test_id("verifier-result")
    expect(result).to_contain_text("Tirage conforme", timeout=WAIT_MS)
    expect(result).to_have_attribute("data-ok", "true")
    player.screenshot(path=results_dir / "verifier-conforme-360x740.png", full_page=True)

    # a number noted differently: the first position that differs
    noted = [str(n) for n in order]
    noted[11] = str(order[12])
    numbers.fill(" ".join(noted))
    player.get_by_test_id("verifier-check").click()
    expect(result).to_contain_text(
        f"au 12e numéro, l'ordre engagé donne le {order[11]}, la liste dit {order[12]}",
        timeout=WAIT_MS,
    )
    expect(result).to_have_attribute("data-ok", "false")
    player.get_by_test_id("verifier-result").scroll_into_view_if_needed()
    player.screenshot(path=results_dir / "verifier-non-conforme-360x740.png")
    wide = player.evaluate("document.documentElement.scrollWidth")
    assert wide <= 361, f"/verifier is {wide} px wide on a 360 px phone"
    # and the TV says where to check
    expect(tv.get_by_test_id("tv-commitment")).to_contain_text("/verifier", timeout=WAIT_MS)
    tv.screenshot(path=results_dir / "revealed-tv-1920x1080.png")
    for page in (tv, player, anim, checker):
        page.context.close()
