"""The player's phone (/jouer): buying asked once and an unpaid order cancelled, the desk code at
the top while an order waits, the game a pre-bought carton plays, one message area (a verdict
cleared at the next number, the hall's announcement not repeating it), démarquage only when it
means something, and nothing to buy or démarquer once the evening is over."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import TYPE_CHECKING

from gestures import buy, claim
from outside import read_qr
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
from loto_app.pages import player
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser, Page, Route

SECRET = "phone-secret"
FIRST = GameSpec(
    Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),), title="Partie du maire"
)
SECOND = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),))


def _evening(db_url: str, series: str, settings: Settings, games=(FIRST, SECOND)):
    engine = make_engine(db_url)
    creds = EveningStore(engine).create_evening(
        "Salle des fêtes", Program(series, games, settings), animateur_secret=SECRET
    )
    engine.dispose()
    return creds


def _join(browser: Browser, phone: dict, app_url: str, code: str, name: str) -> Page:
    page = browser.new_context(**phone).new_page()
    page.goto(f"{app_url}/?code={code}")
    expect(page.get_by_test_id("join-code")).to_have_value(code)
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-submit").click()
    page.wait_for_url("**/jouer")
    expect(page.get_by_text(f"Bonjour {name} !")).to_be_visible()
    expect(page).to_have_title(player.TITLE)  # (the join form's page: pages/player.py)
    return page


def _tablet(browser: Browser, app_url: str, code: str) -> Page:
    tablet = browser.new_context().new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    return tablet


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))


def _top(page: Page, testid: str) -> float:
    box = page.get_by_test_id(testid).bounding_box()
    assert box is not None
    return box["y"]


def test_an_order_is_asked_once_waits_at_the_top_and_can_be_cancelled(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    creds = _evening(db_url, "PHA", Settings(DrawSource.PHYSICAL))
    p = _join(browser, phone, app_url, creds.join_code, "Mamie Jo")
    expect(p.get_by_test_id("no-carton")).to_be_visible()
    expect(p.get_by_test_id("unmark-all")).to_have_count(0)  # no carton: nothing to démarquer
    expect(p.get_by_test_id("offers-classique")).to_contain_text("Joue les parties 1 et 2.")

    # a tap asks first; "Non" orders nothing
    p.get_by_test_id("buy-classique-3").click()
    box = p.get_by_test_id("buy-confirm-box")
    expect(box).to_contain_text("Commander 3 cartons classiques pour 8 €")
    expect(box).to_be_in_viewport()
    p.screenshot(path=results_dir / "01-confirm.png")
    p.get_by_test_id("buy-cancel").click()
    expect(box).to_have_count(0)
    expect(p.get_by_test_id("orders")).to_have_count(0)

    # "Oui, commander": the order and the desk code (with its QR) at the top of the page
    buy(p, "buy-classique-3")
    orders = p.get_by_test_id("orders")
    expect(orders).to_contain_text("3 cartons classiques")
    expect(orders.get_by_test_id("desk-code")).to_be_visible()
    desk_qr = orders.get_by_role("img", name="QR code de mon code caisse")
    expect(desk_qr).to_be_visible()
    # drawn by the phone: the desk's scanner reads the code shown beside it
    shown = orders.get_by_test_id("desk-code").inner_text()
    assert read_qr(desk_qr) == [f"LOTO-JOUEUR:{shown}"]
    expect(p.get_by_test_id("desk-code")).to_have_count(1)  # not twice on the page
    assert _top(p, "orders") < _top(p, "large-text")  # above the greeting and the cartons
    expect(orders).to_be_in_viewport()
    expect(p.get_by_test_id("player-message")).to_have_count(0)  # the box says it, once
    expect(p.get_by_test_id("no-carton")).to_have_count(0)
    p.screenshot(path=results_dir / "02-order-waiting.png")

    # the player takes it back: the order is cancelled, the desk code back with the tariff
    (order,) = p.locator('[data-testid^="order-"]').all()
    sale_no = order.get_attribute("data-testid").removeprefix("order-")
    p.get_by_test_id(f"cancel-order-{sale_no}").click()
    expect(p.get_by_test_id("orders")).to_have_count(0)
    expect(p.get_by_test_id("desk-code")).to_have_count(1)
    assert _top(p, "desk-code") > _top(p, "offers-classique")  # at the bottom again
    expect(p.locator('[data-testid^="carton-"]')).to_have_count(0)
    p.screenshot(path=results_dir / "03-cancelled.png", full_page=True)

    # the QR code scanned again: my page straight away, under its own address and title
    p.goto(f"{app_url}/?code={creds.join_code}")
    expect(p.get_by_text("Bonjour Mamie Jo !")).to_be_visible()
    expect(p).to_have_title(player.TITLE)
    p.wait_for_url("**/jouer")


def test_pre_bought_cartons_name_their_game_and_a_verdict_goes_at_the_next_number(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    creds = _evening(db_url, "PHB", Settings(DrawSource.PHYSICAL, free_cartons=True))
    p = _join(browser, phone, app_url, creds.join_code, "Mamie Jo")
    other = _join(browser, phone, app_url, creds.join_code, "Bernard")
    # a free loto: cartons are taken, not bought nor ordered
    expect(p.get_by_test_id("buy-heading")).to_have_text("Prendre des cartons")
    p.get_by_test_id("buy-classique").click()
    expect(p.get_by_test_id("buy-confirm-box")).to_contain_text("Prendre 1 carton classique")
    expect(p.get_by_test_id("buy-confirm")).to_have_text("Oui, les prendre")
    p.get_by_test_id("buy-cancel").click()
    body = p.locator("body")
    for word in ("Acheter", "Commander", "achetez à la caisse"):
        expect(body).not_to_contain_text(word)
    buy(p, "buy-classique")
    buy(other, "buy-classique")
    expect(other.get_by_test_id("games-classique")).to_have_text("Joue les parties 1 et 2.")
    (carton,) = p.locator('[data-testid^="carton-"]').all()
    no = carton.get_attribute("data-testid").removeprefix("carton-")
    expect(p.get_by_test_id(f"when-{no}")).to_have_text("Joue à la partie 1 : Partie du maire")
    expect(p.get_by_test_id("unmark-all")).to_have_count(0)  # no game yet: nothing to clear
    p.screenshot(path=results_dir / "01-before-the-first-game.png")

    tablet = _tablet(browser, app_url, creds.join_code)
    tablet.get_by_test_id("start-game").click()
    mine = {int(t) for t in carton.locator("[data-testid^=cell-]").all_inner_texts()}
    away = [n for n in range(1, 91) if n not in mine]
    _ball(tablet, away[0])
    expect(p.get_by_test_id("last-number")).to_have_text(str(away[0]))
    expect(p.get_by_test_id(f"when-{no}")).to_have_count(0)
    expect(carton).to_contain_text("en jeu")
    expect(p.get_by_test_id("unmark-all")).to_be_disabled()
    # the first number: what a carton taken now plays changes on every phone at once
    expect(other.get_by_test_id("games-classique")).to_contain_text("Joue la partie 2 :")

    # a carton taken now plays the next game: none of its numbers shows as drawn
    n_before = other.locator('[data-testid^="carton-"]').count()
    buy(other, "buy-classique")
    expect(other.locator('[data-testid^="carton-"]')).to_have_count(n_before + 1)
    nxt = other.locator('[data-testid^="carton-"][data-plays="false"]')
    expect(nxt).to_have_count(1)
    next_numbers = {int(t) for t in nxt.locator("[data-testid^=cell-]").all_inner_texts()}
    shared = sorted(next_numbers - mine - {away[0]})
    _ball(tablet, shared[0])  # on the next game's carton (not on Mamie Jo's)
    expect(other.get_by_test_id("last-number")).to_have_text(str(shared[0]))
    expect(nxt.locator('[data-drawn="true"]')).to_have_count(0)
    expect(nxt.get_by_test_id(re.compile(r"^claim-"))).to_have_text("Ne joue pas cette partie")
    away.remove(shared[0])

    # a late joiner sees at once the numbers out, the stage and its lot
    late = _join(browser, phone, app_url, creds.join_code, "Lucie")
    expect(late.get_by_test_id("stage")).to_have_text("Quine : Panier garni")
    expect(late.get_by_test_id("recent-numbers").locator("li")).to_have_text(
        [str(shared[0]), str(away[0])]
    )
    late.get_by_test_id("drawn-board").locator("summary").click()
    expect(late.locator('[data-testid^="board-"][data-drawn="true"]')).to_have_count(2)
    late.screenshot(path=results_dir / "01b-late-joiner.png", full_page=True)
    late.context.close()

    # a false claim: my verdict in the one message area, the hall's words not repeated
    claim(p.get_by_test_id(f"claim-{no}"))
    expect(p.get_by_test_id("verdict")).to_contain_text("Fausse annonce")
    expect(p.get_by_test_id("announcement")).to_have_count(0)
    expect(other.get_by_test_id("announcement")).to_contain_text("Fausse annonce de Mamie Jo")
    p.screenshot(path=results_dir / "02-fausse-annonce.png")

    # the next number: the verdict goes (the carton still says it is annulled)
    _ball(tablet, away[1])
    expect(p.get_by_test_id("last-number")).to_have_text(str(away[1]))
    expect(p.get_by_test_id("verdict")).to_have_count(0)
    expect(p.get_by_test_id("announcement")).to_contain_text("Quine en jeu")
    # annulled: in words, large, on a dark bar (readable in greyscale and by colour-blind eyes)
    bar = p.get_by_test_id(f"annulled-{no}")
    expect(bar).to_contain_text("CARTON ANNULÉ")
    assert float(bar.locator("p").first.evaluate("e => getComputedStyle(e).fontSize")[:-2]) >= 20
    expect(p.get_by_test_id(f"claim-{no}")).to_have_text("Carton annulé")
    p.add_style_tag(content="html { filter: grayscale(1); }")
    p.screenshot(path=results_dir / "02b-annule-en-gris.png")
    # and after a reload too (the view is rebuilt from the server)
    p.reload()
    expect(p.get_by_test_id("last-number")).to_have_text(str(away[1]))
    expect(p.get_by_test_id("announcement")).to_contain_text("Quine en jeu")
    expect(p.get_by_test_id("verdict")).to_have_count(0)
    p.screenshot(path=results_dir / "03-next-number.png")


def test_once_the_evening_is_over_the_phone_offers_no_buying_nor_demarquage(
    app_url: str,
    db_url: str,
    browser: Browser,
    phone: dict,
    drivers: Callable,
) -> None:
    settings = Settings(DrawSource.PHYSICAL, auto_marking=True, last_call_seconds=0)
    creds = _evening(db_url, "PHC", settings, games=(FIRST,))
    engine = make_engine(db_url)
    d = drivers(EveningStore(engine))
    eid = creds.evening_id
    pid, _secret = d.join(eid, "Ana")
    d.run(eid, lambda e: e.sell(pid, Kind.CLASSIQUE, 1, rng=random.Random(4)))
    d.run(eid, lambda e: e.start_game())
    (c,) = d.live(eid).evening.player_cartons(pid)
    for n in (n for n in c.carton.grid[0] if n):
        d.run(eid, lambda e, n=n: e.enter_ball(n))
    d.run(eid, lambda e: e.claim(pid, c.no))
    d.run(eid, lambda e: e.award())
    d.run(eid, lambda e: e.allow_unmark())
    assert d.live(eid).evening.is_over

    p = _join(browser, phone, app_url, creds.join_code, "Mamie Jo")
    expect(p.get_by_test_id("announcement")).to_contain_text("La soirée est terminée")
    expect(p.locator('[data-testid^="buy-"]')).to_have_count(0)
    expect(p.get_by_test_id("unmark-all")).to_have_count(0)
    expect(p.get_by_test_id("no-carton")).to_have_count(0)
    engine.dispose()


def test_a_slow_phone_joins_with_its_links_code_even_before_the_form_shows_it(
    app_url: str, db_url: str, browser: Browser, phone: dict
) -> None:
    """On a slow phone a player types their pseudo and taps "Rejoindre" as soon as the page
    shows. The button waits for the page to be connected ("Connexion…"): a tap before the
    page's script ran was the browser's own form submission, which reloaded `/` without the
    link's code (found by CI on a busy machine). The join takes the code from the link when
    the field is still empty (it said "Entrez le code de la soirée" with the code in the
    address bar: found by CI on a busy machine)."""
    creds = _evening(db_url, "LENT", Settings(free_cartons=True))
    context = browser.new_context(**phone)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 8})
    held: list[Route] | None = []  # the page's scripts, held back: a slow network, a busy phone

    def scripts(route: Route) -> None:
        if held is not None:
            held.append(route)
        else:
            route.continue_()

    page.route("**/*.js", scripts)
    page.goto(f"{app_url}/?code={creds.join_code}", wait_until="commit")
    page.get_by_test_id("join-name").fill("Mamie Jo")  # (the page's HTML, no script yet)
    page.get_by_test_id("join-submit").click(force=True)  # the early tap: nothing happens
    waiting, held = held, None
    for route in waiting:
        route.continue_()
    # (no wait for the code to show; the tap waits for the button)
    page.get_by_test_id("join-submit").click(timeout=60_000)
    page.wait_for_url("**/jouer", timeout=60_000)
    expect(page.get_by_text("Bonjour Mamie Jo !")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Entrez le code de la soirée")).to_have_count(0)
    context.close()


TWO_STAGES = GameSpec(
    Kind.CLASSIQUE,
    (
        Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),
        Stage(Pattern.TWO_LINES, Lot("Jambon", 2500)),
    ),
)


def test_two_cartons_of_one_player_win_on_one_number_and_each_claims_for_itself(
    app_url: str,
    db_url: str,
    browser: Browser,
    phone: dict,
    drivers: Callable,
    results_dir: Path,
) -> None:
    """Issue 39: after one valid claim every carton of the player read "Annonce enregistrée"
    until the next number, those that never claimed too, and a second carton completed on the
    same number could not be claimed. The evening is played up to that number through the
    production move path before any page opens it; the phone takes the player's identity."""
    settings = Settings(DrawSource.PHYSICAL, free_cartons=True, last_call_seconds=0)
    creds = _evening(db_url, "PHD", settings, games=(TWO_STAGES, SECOND))
    engine = make_engine(db_url)
    d = drivers(EveningStore(engine))
    eid = creds.evening_id
    pid, secret = d.join(eid, "Ana")
    # a planche of 6, and a carton of the next (the cartons of one planche share no number)
    d.run(eid, lambda e: e.sell(pid, Kind.CLASSIQUE, 7, rng=random.Random(8)))
    e = d.live(eid).evening
    nos = [c.no for c in e.player_cartons(pid)]
    second, second_row = nos[6], e.cartons[nos[6]].carton.rows[0]
    first, row = next(
        (no, r) for no in nos[:6] for r in e.cartons[no].carton.rows if r & second_row
    )
    other = next(n for n in nos[:6] if n != first)  # shares no number with the first
    x = max(row & second_row)
    balls = [*sorted((row | second_row) - {x}), x]  # x completes a row of each
    d.run(eid, lambda e: e.start_game())
    for n in balls:
        d.run(eid, lambda e, n=n: e.enter_ball(n))

    context = browser.new_context(**phone)
    context.add_init_script(
        f"localStorage.setItem('loto_player_code', {json.dumps(creds.join_code)});"
        f"localStorage.setItem('loto_player_secret', {json.dumps(secret)});"
    )
    p = context.new_page()
    p.goto(f"{app_url}/jouer")
    expect(p.get_by_text("Bonjour Ana\u202f!")).to_be_visible()
    expect(p.get_by_test_id("last-number")).to_have_text(str(x))

    def button(no: int):
        return p.get_by_test_id(f"claim-{no}")

    claim(button(first))
    expect(p.get_by_test_id("verdict")).to_contain_text(
        f"Annonce valide sur le {x} (carton {first})"
    )
    expect(button(first)).to_have_text("Annonce enregistrée")
    expect(button(first)).to_be_disabled()
    for no in (second, other):  # the cartons that did not claim may still claim
        expect(button(no)).to_have_text("QUINE\u202f!")
        expect(button(no)).to_be_enabled()
    p.screenshot(path=results_dir / "01-un-carton-annonce.png", full_page=True)
    claim(button(second))  # its claim is taken, and valid
    expect(p.get_by_test_id("verdict")).to_contain_text(
        f"Annonce valide sur le {x} (carton {second})"
    )
    expect(button(second)).to_have_text("Annonce enregistrée")
    expect(button(other)).to_be_enabled()

    tablet = _tablet(browser, app_url, creds.join_code)
    valid = tablet.locator('[data-testid^="claim-row-"][data-verdict="valid"]')
    expect(valid).to_have_count(2)
    expect(valid.filter(has_text=f"Ana — carton {first} —")).to_have_count(1)
    expect(valid.filter(has_text=f"Ana — carton {second} —")).to_have_count(1)
    # her two winning cartons read back: no ex aequo of hers with herself
    expect(tablet.get_by_test_id("readback")).to_contain_text("Contrôle — 2 cartons gagnants")
    expect(tablet.get_by_test_id("readback")).not_to_contain_text("ex aequo")
    tablet.get_by_test_id("award").click()
    expect(p.get_by_test_id("tickets")).to_contain_text("Panier garni")
    # she has just won on x: nothing of hers invites her on it (each carton says why)
    expect(button(other)).to_have_text("Attendez le numéro suivant")
    for no in (first, second, other):
        expect(button(no)).to_be_disabled()
    expect(button(first)).to_have_text("Annonce enregistrée")
    p.screenshot(path=results_dir / "02-apres-attribution.png", full_page=True)
    # the next number: every carton may claim the double quine
    _ball(tablet, next(n for n in range(1, 91) if n not in balls))
    for no in (first, second, other):
        expect(button(no)).to_have_text("DOUBLE QUINE\u202f!")
        expect(button(no)).to_be_enabled()
    context.close()
    tablet.context.close()
    engine.dispose()
