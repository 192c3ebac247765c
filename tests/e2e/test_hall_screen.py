"""The hall screen as a set of states (pairing, before a game, in game, a claim, between
games) at the TV's sizes, the pairing code journey, and the evening's règlement on a phone.

Screenshots go to test-results/<test>/ (1920x1080 and 1280x720 for the TV, 360x740 for the
règlement); each state is checked with axe and must fit the TV without scrolling.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pictures
from axe_check import blocking_violations, describe
from gestures import buy, claim
from live_driver import Driver
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
from loto_app.images import process
from loto_app.storage.db import make_engine
from loto_app.storage.pictures import writer
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "screen-secret"
LAST_CALL = 3
TV_SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
PARTNERS = (
    ("Boulangerie Martin", (214, 140, 30)),
    ("Crédit Agricole du Gard", (0, 120, 90)),
    ("Mairie de Lunel", (30, 60, 160)),
)


def _evening(db_url: str) -> str:
    """The evening of the test, with a lot's photo and three partners' logos (played by another
    registry before the app first loads the evening, as another worker would)."""
    program = Program(
        "ECR",
        (
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon de pays", 2500)),)),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),)),
        ),
        Settings(DrawSource.PHYSICAL, free_cartons=True, last_call_seconds=LAST_CALL),
    )
    engine = make_engine(db_url)
    store = EveningStore(engine)
    creds = store.create_evening("Comité des fêtes de Lunel", program, animateur_secret=SECRET)
    eid = creds.evening_id
    with Driver(store) as other:
        ham = process(pictures.photo("Jambon", (200, 90, 90)))
        other.run(eid, lambda e: e.set_lot_photo("Jambon de pays", ham.digest), writer(eid, ham))
        for name, colour in PARTNERS:
            logo = process(pictures.logo(name, colour), logo=True)
            other.run(eid, lambda e, n=name, d=logo.digest: e.add_partner(n, d), writer(eid, logo))
    engine.dispose()
    return creds.join_code


#: For each part of the screen (header, middle, footer): the top and bottom of everything
#: it draws (its visible descendants included).
SPANS_JS = """() => [...document.querySelectorAll('[role=main] > div:last-child > *')].map(e => {
    const rects = [e, ...e.querySelectorAll('*')].map(c => c.getBoundingClientRect())
        .filter(r => r.width > 0 && r.height > 0);
    return [Math.min(...rects.map(r => r.top)), Math.max(...rects.map(r => r.bottom))];
})"""


#: What a box that hides its overflow cuts off (its content taller or wider than itself).
CUT_JS = """() => [...document.querySelectorAll('[role=main] *')].filter(e => {
    const st = getComputedStyle(e);
    if (e.classList.contains('loto-sr-only')) return false;  // (for a screen reader only)
    return (st.overflow === 'hidden' || st.overflowY === 'hidden')
        && e.getClientRects().length && e.scrollHeight > e.clientHeight + 2;
}).map(e => (e.getAttribute('data-testid') || e.tagName) + ' '
    + e.scrollHeight + '>' + e.clientHeight)"""


def _check(page: Page, results_dir: Path, name: str, *, tv: bool = True) -> None:
    """Screenshot, no serious axe finding, and on a TV nothing beyond the screen."""
    page.wait_for_timeout(300)  # fonts and the last layout pass
    page.screenshot(path=results_dir / f"{name}.png")
    found = blocking_violations(page)
    assert not found, f"{name}:\n{describe(found)}"
    if tv:
        sh, ih, sw, iw = page.evaluate(
            "() => [document.documentElement.scrollHeight, innerHeight,"
            " document.documentElement.scrollWidth, innerWidth]"
        )
        assert sh <= ih and sw <= iw, f"{name}: the page is {sw}x{sh} on a {iw}x{ih} screen"
        # nothing of the middle spills over the header or the footer (or is cut by them)
        parts = page.evaluate(SPANS_JS) if page.get_by_test_id("pairing").count() == 0 else []
        assert len(parts) in (0, 3), parts
        for i, (above, below) in enumerate(itertools.pairwise(parts)):
            assert above[1] <= below[0] + 1, f"{name}: part {i} overlaps the next: {parts}"
        cut = page.evaluate(CUT_JS)
        assert not cut, f"{name}: content cut by its box: {cut}"


def _loaded(page: Page) -> None:
    """Every picture of the page has loaded (a broken one has no natural width)."""
    page.wait_for_function(
        "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    )


def _readback_cells_centred(page: Page, last: int) -> None:
    """Each number of the read-back sits in the middle of its cell, and the circled last number
    is no taller than the other cells of its row."""
    cells = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=readback-grid] [data-n]')].map(c => {
            const r = c.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(c);
            const t = range.getBoundingClientRect();
            return {n: +c.dataset.n, last: c.dataset.last === 'true', top: r.top, h: r.height,
                    dx: (t.left + t.width / 2) - (r.left + r.width / 2),
                    dy: (t.top + t.height / 2) - (r.top + r.height / 2)};
        })"""
    )
    assert cells and any(c["last"] and c["n"] == last for c in cells)
    for c in cells:
        assert abs(c["dx"]) <= 2 and abs(c["dy"]) <= 3, f"cell {c['n']} off centre: {c}"
    circled = next(c for c in cells if c["last"])
    row = [c for c in cells if abs(c["top"] - circled["top"]) < 2 and not c["last"]]
    assert row and all(circled["h"] <= c["h"] + 1 for c in row), (circled, row)


def _ball(tablet: Page, n: int) -> None:
    expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
    tablet.get_by_test_id("ball-input").fill(str(n))
    tablet.get_by_test_id("ball-submit").click()
    expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))


def test_pairing_code_and_the_screen_states_at_tv_sizes(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    code = _evening(db_url)
    tvs = {
        size: browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR").new_page()
        for size, (w, h) in TV_SIZES.items()
    }
    tv = tvs["1920x1080"]

    # The home page's "Écran de la salle" link: a pairing code, no error.
    tv.goto(app_url + "/")
    tv.get_by_role("link", name="Écran de la salle").click()
    tv.wait_for_url("**/ecran")
    shown = tv.get_by_test_id("pair-code")
    expect(shown).to_have_text(re.compile(r"^[34679ACDEFGHJKMNPQRTUVWXY]{6}$"))
    pair = shown.inner_text()
    _check(tv, results_dir, "01-pairing-1920x1080")

    # The animateur types it on the tablet (a wrong code first).
    tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(SECRET)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.get_by_test_id("pair-screen")).to_be_visible()
    wrong = "AAAAAA" if pair != "AAAAAA" else "CCCCCC"
    tablet.get_by_test_id("pair-code").fill(wrong)
    tablet.get_by_test_id("pair-submit").click()
    expect(tablet.get_by_test_id("pair-message")).to_contain_text("inconnu ou expiré")
    expect(tv.get_by_test_id("pair-code")).to_have_text(pair)  # nothing attached
    tablet.get_by_test_id("pair-code").fill(pair.lower())  # typed in lower case: fine
    tablet.get_by_test_id("pair-submit").click()
    expect(tablet.get_by_test_id("pair-message")).to_contain_text("Écran relié")
    tablet.get_by_test_id("pair-screen").screenshot(path=results_dir / "01-tablet-pairing.png")

    # The TV opens the evening on its own, and keeps it through a reload (a reconnect).
    tv.wait_for_url(f"**/ecran?code={code}", timeout=15_000)
    expect(tv.get_by_test_id("join-qr")).to_contain_text(code)
    tv.reload()
    expect(tv.get_by_test_id("join-qr")).to_contain_text(code)
    # the code was used once: a second try is refused
    tablet.get_by_test_id("pair-code").fill(pair)
    tablet.get_by_test_id("pair-submit").click()
    expect(tablet.get_by_test_id("pair-message")).to_contain_text("inconnu ou expiré")

    # Welcome (both sizes): the program with its lots and photo, the way in, the partners;
    # one message, said once.
    tvs["1280x720"].goto(f"{app_url}/ecran?code={code}")
    for size, page in tvs.items():
        expect(page.locator("[data-scene=welcome]")).to_be_visible()
        expect(page.get_by_test_id("join-qr")).to_contain_text(code)
        expect(page.get_by_test_id("program-game")).to_have_count(2)
        expect(page.get_by_test_id("program")).to_contain_text("Quine : Jambon de pays")
        expect(
            page.get_by_test_id("program").get_by_role("img", name="Jambon de pays")
        ).to_be_visible()
        expect(page.get_by_test_id("partner")).to_have_count(len(PARTNERS))
        _loaded(page)
        text = page.locator("[role=main]").inner_text()
        assert text.count("va bientôt commencer") == 1 and "Bientôt la première" not in text
        expect(page.get_by_test_id("last-number")).to_have_count(0)  # no empty slot
        expect(page.get_by_test_id("announcement")).to_have_count(0)
        _check(page, results_dir, f"02-welcome-{size}")

    # A player with one carton (a free loto: handed at once).
    player = browser.new_context(**phone).new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("reglement-link")).to_have_attribute(
        "href", f"/reglement?code={code}"
    )
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    expect(player.get_by_test_id("reglement-accept")).to_be_visible()
    buy(player, "buy-classique")
    carton = player.locator("[data-testid^=carton-]")
    expect(carton).to_have_count(1)
    expect(player.get_by_test_id("reglement-accept")).to_have_count(0)  # the first purchase only
    row = sorted(
        int(t) for t in carton.locator("[data-row='0']").all_inner_texts() if t.strip().isdigit()
    )
    mine = sorted(int(t) for t in carton.locator("[data-testid^=cell-]").all_inner_texts())
    away = [n for n in range(1, 91) if n not in mine]

    # The game starts: the way in where the ball will be, said once.
    tablet.get_by_test_id("start-game").click()
    for size, page in tvs.items():
        expect(page.locator("[data-scene=game]")).to_be_visible()
        expect(page.get_by_test_id("scene-title")).to_have_text("La partie va commencer")
        expect(page.get_by_test_id("announcement")).to_contain_text("Partie 1 :")
        expect(page.get_by_test_id("lot-photo")).to_be_visible()
        _check(page, results_dir, f"03-game-starts-{size}")

    # In game: the ball, the five before, the board, the lot's photo; the phone shows it too.
    for n in [*away[:3], *row[:-1]]:
        _ball(tablet, n)
    for size, page in tvs.items():
        expect(page.get_by_test_id("last-number")).to_have_text(str(row[-2]))
        expect(page.get_by_test_id("last-five").locator("p")).to_have_count(6)
        expect(page.get_by_test_id("join-qr")).to_contain_text(code)  # small, in the footer
        expect(page.get_by_test_id("stage")).to_contain_text("Quine — Jambon de pays")
        expect(page.get_by_test_id("partner")).to_have_count(len(PARTNERS))  # small
        _loaded(page)
        _check(page, results_dir, f"04-in-game-{size}")
    expect(player.get_by_test_id("lot-photo")).to_be_visible()
    _loaded(player)

    # A claim: the last call, then the carton read back in place of the board, its cells
    # centred and the circled last number no taller than its row.
    _ball(tablet, row[-1])
    claim(player.locator("[data-testid^=carton-] [data-testid^=claim-]").first)
    for size, page in tvs.items():
        expect(page.get_by_test_id("last-call")).to_be_visible()
        expect(page.get_by_test_id("readback")).to_be_visible()
        _readback_cells_centred(page, row[-1])
        _check(page, results_dir, f"05-last-call-{size}")
    for page in tvs.values():
        expect(page.get_by_test_id("last-call")).to_have_count(0, timeout=(LAST_CALL + 20) * 1000)
    tablet.get_by_test_id("award").click()
    claim(tablet.get_by_test_id("allow-unmark"))

    # Between games: the winners of the game just played, the next game with its lot.
    for size, page in tvs.items():
        expect(page.locator("[data-scene=between]")).to_be_visible()
        expect(page.get_by_test_id("scene-title")).to_have_text(
            "Partie 1 terminée : vous pouvez démarquer"
        )
        expect(page.get_by_test_id("game-winners")).to_contain_text("Mamie Jo")
        expect(page.get_by_test_id("game-winners")).to_contain_text("Jambon de pays")
        expect(page.get_by_test_id("next-game")).to_contain_text("Carton plein : Vélo")
        expect(page.get_by_test_id("announcement")).to_have_count(0)
        _check(page, results_dir, f"06-between-games-{size}")

    # The entracte, from the tablet: its message, the time the games resume, a countdown.
    tablet.get_by_test_id("pause-open").click()
    tablet.get_by_test_id("pause-message-input").fill("Tombola au fond de la salle : 2 € le ticket")
    tablet.get_by_test_id("pause-minutes").select_option("20")
    found = blocking_violations(tablet)
    assert not found, f"tablet, the entracte's form:\n{describe(found)}"
    tablet.screenshot(path=results_dir / "07-tablet-entracte-form.png")
    tablet.get_by_test_id("pause-start").click()
    expect(tablet.get_by_test_id("pause-running")).to_contain_text("reprise à")
    tablet.screenshot(path=results_dir / "07-tablet-entracte-running.png")
    for size, page in tvs.items():
        expect(page.locator("[data-scene=pause]")).to_be_visible()
        expect(page.get_by_test_id("pause-message")).to_have_text(
            "Tombola au fond de la salle : 2 € le ticket"
        )
        expect(page.get_by_test_id("pause-at")).to_have_text(
            re.compile(r"^Reprise à \d{1,2} h \d\d$")
        )
        countdown = page.get_by_test_id("pause-countdown")
        expect(countdown).to_have_attribute("data-left", re.compile(r"^dans 1[89] min \d\d s$"))
        _loaded(page)
        _check(page, results_dir, f"07-entracte-{size}")
    # the phones read it too
    expect(player.get_by_test_id("announcement")).to_contain_text(
        "Tombola au fond de la salle : 2 € le ticket — reprise à"
    )
    left = tvs["1920x1080"].get_by_test_id("pause-countdown").get_attribute("data-left")
    tvs["1920x1080"].wait_for_function(
        "(before) => document.querySelector('[data-testid=pause-countdown]')"
        ".getAttribute('data-left') !== before",
        arg=left,
    )  # it counts down
    tablet.get_by_test_id("pause-end").click()
    for page in tvs.values():
        expect(page.locator("[data-scene=between]")).to_be_visible()

    # The last game, played to the end: a carton plein.
    tablet.get_by_test_id("next-game").click()
    for n in mine:
        _ball(tablet, n)
    claim(player.locator("[data-testid^=carton-] [data-testid^=claim-]").first)
    expect(tablet.get_by_test_id("award")).to_be_enabled(timeout=(LAST_CALL + 20) * 1000)
    tablet.get_by_test_id("award").click()
    claim(tablet.get_by_test_id("allow-unmark"))

    # The end: thanks, the association, the evening's winners and its numbers, the partners.
    for size, page in tvs.items():
        expect(page.locator("[data-scene=end]")).to_be_visible()
        expect(page.get_by_test_id("scene-title")).to_have_text(
            "La soirée est terminée. Merci à tous et à bientôt !"
        )
        winners = page.get_by_test_id("evening-winners").get_by_test_id("winner")
        expect(winners).to_have_count(2)
        expect(winners.nth(1)).to_contain_text("Partie 2 · Carton plein : Vélo")
        expect(page.get_by_test_id("numbers-summary")).to_contain_text(
            f"{len(away[:3]) + len(row) + len(mine)} numéros tirés en 2 parties."
        )
        expect(page.get_by_test_id("numbers-games")).to_contain_text(
            f"Partie 2 : {len(mine)} numéros"
        )
        expect(page.get_by_test_id("partner")).to_have_count(len(PARTNERS))
        _loaded(page)
        _check(page, results_dir, f"08-end-{size}")
    # a number of the first row came out in both games: its bar is the highest
    bars = tvs["1920x1080"].get_by_test_id("numbers-chart").locator("[title]")
    expect(bars).to_have_count(90)
    expect(bars.nth(row[0] - 1)).to_have_attribute("title", f"{row[0]} : 2 fois")

    # The règlement, from the player's page, on a small phone.
    small = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    ).new_page()
    small.goto(f"{app_url}/reglement?code={code}")
    expect(small.get_by_test_id("reglement-title")).to_have_text(
        "Règlement de la soirée — Comité des fêtes de Lunel"
    )
    articles = small.get_by_test_id("reglement-article")
    expect(articles.first).to_contain_text("Carton classique")
    text = small.locator("[role=main]").inner_text()
    for said in ("Partie 1", "Jambon de pays", "Partie 2", "Vélo", f"pendant {LAST_CALL} secondes"):
        assert said in text, said
    assert "« ECR »" in text and "boulier de la salle" in text and "offerts" in text
    _check(small, results_dir, "06-reglement-360x740", tv=False)
    small.screenshot(path=results_dir / "06-reglement-360x740-full.png", full_page=True)
    small.goto(f"{app_url}/reglement?code=NOPE99")
    expect(small.get_by_test_id("reglement-message")).to_contain_text("Aucune soirée")
