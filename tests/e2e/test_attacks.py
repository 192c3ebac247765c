"""The server is the only authority: a player's phone sends the animateur's events, other
players' carton ids, wrong types and out-of-range numbers straight over its own websocket.
Every one is refused and nothing changes in the database."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from gestures import buy
from gestures import join as join_and_buy
from playwright.sync_api import expect
from sockets import ANIMATEUR, HALL, PLAYER, ROOT, SHORT_MARKS_SPACING, Injector
from sqlmodel import Session, func, select

from loto_app.domain.program import demo_program
from loto_app.storage import models as m
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ORGANISER = f"{ROOT}.loto_app___live___states___organisation____organisation_state"
ORGANISER_RECORDS = (
    f"{ORGANISER}.loto_app___live___states___organisation_records____evening_records"
)
SECRET = "attack-test-secret"


def audit_count(engine, evening_id: int) -> int:
    with Session(engine) as s:
        return s.exec(
            select(func.count()).select_from(m.AuditRow).where(m.AuditRow.evening_id == evening_id)
        ).one()


def marks_of(engine, evening_id: int) -> set[tuple[int, int]]:
    with Session(engine) as s:
        rows = s.exec(select(m.MarkRow).where(m.MarkRow.evening_id == evening_id)).all()
    return {(r.carton_no, r.number) for r in rows}


def join(browser: Browser, phone: dict, app_url: str, code: str, name: str) -> Page:
    page = browser.new_context(**phone).new_page()
    page.add_init_script(SHORT_MARKS_SPACING)  # (the victim's pion stored a second after)
    join_and_buy(page, app_url, code, name, "buy-classique", 1)
    return page


def carton_nos(page: Page) -> list[int]:
    ids = page.locator("[data-testid^=carton-]").evaluate_all(
        "els => els.map(e => e.dataset.testid)"
    )
    return [int(i.split("-")[1]) for i in ids]


@pytest.mark.timeout(600)
def test_a_player_phone_cannot_act_for_the_animateur_or_another_player(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    store = EveningStore(engine)
    creds = store.create_evening(
        "Attaque", demo_program("ATK").with_settings(free_cartons=True), animateur_secret=SECRET
    )
    eid = creds.evening_id

    victim = join(browser, phone, app_url, creds.join_code, "Victime")
    attacker_page = browser.new_context(**phone).new_page()
    attacker_page.add_init_script(SHORT_MARKS_SPACING)  # (its legitimate pion, at the end)
    inject = Injector(attacker_page)
    attacker_page.goto(f"{app_url}/?code={creds.join_code}")
    attacker_page.get_by_test_id("join-name").fill("Pirate")
    expect(attacker_page.get_by_test_id("join-code")).to_have_value(creds.join_code)
    attacker_page.get_by_test_id("join-submit").click()
    attacker_page.wait_for_url("**/jouer")
    buy(attacker_page, "buy-classique")
    attacker_page.locator("[data-testid^=carton-]").first.wait_for()

    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(creds.join_code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    tablet.get_by_test_id("start-game").click()
    for i in range(12):
        tablet.get_by_test_id("draw").click()
        # (wait for each number: reading the board right after the last click raced its
        # broadcast, one run in several under load)
        expect(tablet.locator("[data-testid^=board-][data-drawn=true]")).to_have_count(i + 1)
        expect(tablet.get_by_test_id("draw")).to_be_enabled()
    drawn = [
        int(x.get_attribute("data-n"))
        for x in tablet.locator("[data-testid^=board-][data-drawn=true]").all()
    ]
    assert len(drawn) == 12
    last = tablet.get_by_test_id("last-number").inner_text()
    expect(attacker_page.get_by_test_id("last-number")).not_to_have_text("–")

    (victim_carton,) = carton_nos(victim)
    (mine,) = carton_nos(attacker_page)
    victim_numbers = [
        int(t) for t in victim.locator(f"[data-testid^=cell-{victim_carton}-]").all_inner_texts()
    ]
    target = (
        next(n for n in victim_numbers if n in drawn)
        if set(victim_numbers) & set(drawn)
        else victim_numbers[0]
    )
    if target in drawn:
        cell = victim.get_by_test_id(f"cell-{victim_carton}-{target}")
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
        # the pion is the phone's at once; stored once its batch is answered (a second after
        # the touch, then committed with the other batches of the same 5 s)
        expect(victim.locator("html")).to_have_attribute("data-marks-pending", "0", timeout=30_000)
    before_marks = marks_of(engine, eid)
    my_secret = attacker_page.evaluate("localStorage.getItem('loto_player_secret')")
    victim_secret = victim.evaluate("localStorage.getItem('loto_player_secret')")
    assert my_secret and victim_secret and my_secret != victim_secret

    def batch(ops: Any, secret: str = my_secret, code: str = creds.join_code, **more: Any) -> Any:
        """A batch of marks as the player page's hidden form sends it (the light path)."""
        b = {"id": 1, "game": 1, "code": code, "secret": secret, "ops": ops, **more}
        return {"form_data": {"__reflex_form_data__": [["batch", json.dumps(b)]]}}

    before = audit_count(engine, eid)

    attacks: list[tuple[str, Any]] = [
        # the animateur's moves
        (f"{ANIMATEUR}.draw", {}),
        (f"{ANIMATEUR}.start_game", {}),
        (f"{ANIMATEUR}.award", {}),
        (f"{ANIMATEUR}.tie_draw", {}),
        (f"{ANIMATEUR}.tie_share", {}),
        (f"{ANIMATEUR}.allow_unmark", {}),
        (f"{ANIMATEUR}.enter_ball", {"form_data": {"ball": "7"}}),
        (f"{ANIMATEUR}.correct_last", {"form_data": {"ball": "7"}}),
        (f"{ANIMATEUR}.login", {"form_data": {"code": creds.join_code, "secret": "guess"}}),
        # ties and the association's decisions: the tablet's and the organiser's
        (f"{ANIMATEUR}.tie_tokens", {"form_data": {"tie": "0-0-1.2", "token-0": "90"}}),
        (f"{ANIMATEUR}.paper_answer", {"index": 0, "accept": True}),
        (f"{ANIMATEUR}.decide", {"form_data": {"claim": "1", "decision": "lot", "reason": "x"}}),
        (f"{ANIMATEUR}.withdraw_award", {"form_data": {"ticket": "1", "reason": "x"}}),
        (
            f"{ORGANISER_RECORDS}.decide",
            {"form_data": {"claim": "1", "decision": "valid", "reason": "x"}},
        ),
        (f"{ORGANISER_RECORDS}.withdraw_award", {"form_data": {"ticket": "1", "reason": "x"}}),
        # another player's carton
        (f"{PLAYER}.toggle", {"carton_no": victim_carton, "number": target}),
        (f"{PLAYER}.claim", {"carton_no": victim_carton}),
        # wrong types and ranges
        (f"{PLAYER}.toggle", {"carton_no": "1; drop table", "number": 5}),
        (f"{PLAYER}.toggle", {"carton_no": mine, "number": 91}),
        (f"{PLAYER}.toggle", {"carton_no": mine, "number": -3}),
        (f"{PLAYER}.toggle", {"carton_no": mine, "number": 2.5}),
        (f"{PLAYER}.toggle", {"carton_no": mine, "number": None}),
        (f"{PLAYER}.toggle", {"carton_no": [mine], "number": {"n": 1}}),
        (f"{PLAYER}.toggle", {"carton_no": 10**30, "number": 10**30}),
        # batches of marks (live/gate/marks_path.py): another's carton under my identity, a
        # made-up identity, nonsense, too many ops, the victim's pion taken off by a guess
        (f"{PLAYER}.save_marks", batch([[victim_carton, target, 1]])),
        (f"{PLAYER}.save_marks", batch([[victim_carton, target, 0]])),
        (f"{PLAYER}.save_marks", batch([[victim_carton, target, 0]], secret="guess")),
        (f"{PLAYER}.save_marks", batch([[victim_carton, target, 0]], code="ZZZZ")),
        (f"{PLAYER}.save_marks", batch([[mine, 91, 1]])),
        (f"{PLAYER}.save_marks", batch([["1; drop", 5, 1]])),
        (f"{PLAYER}.save_marks", batch([[mine, 5, 1]] * 5000)),
        (f"{PLAYER}.save_marks", batch([[mine, 5, 1]], game=99)),
        (f"{PLAYER}.save_marks", batch({"ops": 1}, id=-1)),
        (f"{PLAYER}.save_marks", {"form_data": {"batch": "not json"}}),
        (f"{PLAYER}.save_marks", {"form_data": "not a form"}),
        (f"{PLAYER}.claim", {"carton_no": True}),
        (f"{PLAYER}.claim", {"carton_no": "x" * 100_000}),
        (f"{PLAYER}.buy", {"kind": "or massif", "quantity": 1}),
        (f"{PLAYER}.buy", {"kind": "classique", "quantity": 1000}),
        (f"{PLAYER}.buy", {"kind": "classique", "quantity": -1}),
        (f"{PLAYER}.answer_share", {"accept": "oui"}),
        (f"{PLAYER}.join_evening", {"form_data": "not a form"}),
        (f"{PLAYER}.join_evening", {"form_data": {"code": creds.join_code, "name": "x" * 5000}}),
        # setters that must not exist, and the public state's slots
        (f"{HALL}.set_drawn", {"value": [1, 2, 3]}),
        (f"{PLAYER}.set_secret", {"value": "stolen"}),
        (f"{PLAYER}.set_cartons", {"value": []}),
        (f"{ROOT}.nope", {}),
    ]
    for handler, payload in attacks:
        inject.send(handler, payload)
    expect(attacker_page.get_by_test_id("player-message")).to_be_visible()  # told, in French
    attacker_page.screenshot(path=results_dir / "01-after-attacks.png", full_page=True)

    # A legitimate move afterwards goes through: the socket is alive, and since a client's
    # events are handled in order, every attack was handled (and refused) before it.
    my_drawn = [
        int(t)
        for t in attacker_page.locator(
            f"[data-testid^=cell-{mine}-][data-drawn=true]"
        ).all_inner_texts()
    ]
    legit = before + 1 if my_drawn else before
    if my_drawn:
        cell = attacker_page.get_by_test_id(f"cell-{mine}-{my_drawn[0]}")
        cell.click()
        expect(cell).to_have_attribute("data-marked", "true")
    deadline = time.monotonic() + 30
    while audit_count(engine, eid) < legit and time.monotonic() < deadline:
        # (a Playwright wait, not a sleep: the injector's route relays the page's socket only
        # while Playwright runs, and the pion's batch goes a second after the touch: the page's
        # SHORT_MARKS_SPACING)
        attacker_page.wait_for_timeout(100)
    assert audit_count(engine, eid) == legit, "an attack changed the evening"
    after_marks = marks_of(engine, eid)
    assert before_marks <= after_marks
    assert after_marks - before_marks <= ({(mine, my_drawn[0])} if my_drawn else set())
    expect(tablet.get_by_test_id("last-number")).to_have_text(last)
    assert sorted(
        int(x.get_attribute("data-n"))
        for x in tablet.locator("[data-testid^=board-][data-drawn=true]").all()
    ) == sorted(drawn)

    # Issue 39: a refusal of the player's page is not the join form's. The phone's Reflex state
    # outlives a reload (its token is the tab's), the browser's identity does not always.
    inject.send(f"{PLAYER}.claim", {"carton_no": victim_carton})
    expect(attacker_page.get_by_test_id("player-message")).to_have_text(
        "Ce carton n'est pas à vous."
    )
    attacker_page.evaluate("localStorage.removeItem('loto_player_secret')")
    attacker_page.reload()
    expect(attacker_page.get_by_test_id("join-submit")).to_be_enabled()
    expect(attacker_page.get_by_test_id("join-message")).to_have_count(0)
    # the form's own refusal goes at the next try, and when the form shows again
    attacker_page.get_by_test_id("join-code").fill("NOPE42")
    attacker_page.get_by_test_id("join-name").fill("Pirate")
    attacker_page.get_by_test_id("join-submit").click()
    expect(attacker_page.get_by_test_id("join-message")).to_contain_text("Aucune soirée")
    attacker_page.get_by_test_id("join-code").fill(creds.join_code)
    attacker_page.get_by_test_id("join-name").fill("")
    attacker_page.get_by_test_id("join-submit").click()
    expect(attacker_page.get_by_test_id("join-message")).to_contain_text("Entrez un pseudo")
    attacker_page.goto(f"{app_url}/?code={creds.join_code}")  # the QR code scanned again
    expect(attacker_page.get_by_test_id("join-code")).to_have_value(creds.join_code)
    expect(attacker_page.get_by_test_id("join-submit")).to_be_enabled()
    expect(attacker_page.get_by_test_id("join-message")).to_have_count(0)
    engine.dispose()
