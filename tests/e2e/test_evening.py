"""A whole evening in real browsers, on the embedded default (SQLite, one process).

One animateur tablet, one hall screen (1920x1080) and three phones play the three games of a
program drawn from a physical boulier (the test types the balls, so it chooses every number):

* game 1, quine → double quine → carton plein on one draw: a false claim (carton annulled), a
  purchase after the first number (joins game 2), an ex aequo on the quine broken by tokens (the
  loser gets a free carton), a late claim on the double quine ("Tour passé"), a phone reloaded
  mid-game, démarquage locked then allowed;
* game 2, quine (divisible lot) + carton plein: an ex aequo shared by agreement (two half lot
  tickets); the carton annulled in game 1 plays again and wins the carton plein;
* game 3, carton plein, won with the free carton.

After every ball, every phone and the screen must show it without reload; the time from the
click on "Annoncer la boule" to each page showing the number is measured inside the pages (a
MutationObserver installed before the app's scripts) and written to `latency.txt`.
"""

from __future__ import annotations

import re
import statistics
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gestures import buy, claim
from playwright.sync_api import TimeoutError as PlaywrightTimeout
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
    TieMethod,
    TokenSource,
)
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

WAIT_MS = 20_000  # every explicit wait
SOFT_MS = 3_000  # checks that do not stop the evening, reported at the end (`Findings`)
VERDICT_CODES = re.compile(r"^(valid|false|late|wrong_series|not_in_game|annulled)$")

QUINE_1 = Lot("Panier garni", 3000)
DOUBLE_QUINE_1 = Lot("Bon d'achat de 50 €", 5000, divisible=True)
CARTON_1 = Lot("Téléviseur", 30000)
QUINE_2 = Lot("Bons d'achat de 40 €", 4000, divisible=True)
CARTON_2 = Lot("Vélo", 20000)
CARTON_3 = Lot("Séjour à la montagne", 60000)

# Installed in every page before the app's scripts: records each change of the
# `last-number` text with a high-resolution wall-clock time (performance.timeOrigin +
# performance.now(), comparable across the pages of one browser) and Date.now(); records the
# moment the animateur clicks "Annoncer la boule" the same way.
OBSERVER_JS = """
(() => {
  if (window.__lotoLast) return;
  window.__lotoLast = [];
  window.__submitAt = null;
  let prev = null;
  const now = () => performance.timeOrigin + performance.now();
  const check = () => {
    const el = document.querySelector('[data-testid="last-number"]');
    const text = el ? el.textContent.trim() : null;
    if (text !== prev) {
      prev = text;
      window.__lotoLast.push({text, perf: performance.now(), epoch: now(), date: Date.now()});
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, characterData: true,
  });
  document.addEventListener('click', (e) => {
    const t = e.target;
    if (t && t.closest && t.closest('[data-testid="ball-submit"]')) window.__submitAt = now();
  }, true);
})();
"""

# The rows of every carton shown on a player page, read from the DOM: the grid's children are
# 27 cells (9 a row), numbered cells carry `cell-<carton>-<number>`.
READ_CARTONS_JS = """
() => Array.from(document.querySelectorAll('[data-testid^="carton-"]')).map((card) => {
  const no = parseInt(card.getAttribute('data-testid').slice('carton-'.length), 10);
  const first = card.querySelector(`[data-testid^="cell-${no}-"]`);
  const rows = [[], [], []];
  if (first) {
    Array.from(first.parentElement.children).forEach((el, i) => {
      const t = el.getAttribute('data-testid') || '';
      if (t.startsWith(`cell-${no}-`)) rows[Math.floor(i / 9)].push(parseInt(t.split('-')[2], 10));
    });
  }
  return {no, rows, cells: first ? first.parentElement.children.length : 0};
})
"""

FIRST_SEEN_JS = """
([text, t0]) => {
  const e = (window.__lotoLast || []).find((r) => r.text === text && r.epoch >= t0);
  return e ? e.epoch : null;
}
"""


def program(series: str) -> Program:
    """The evening: physical boulier, ex aequo shared or drawn."""
    return Program(
        series=series,
        games=(
            GameSpec(
                Kind.CLASSIQUE,
                (
                    Stage(Pattern.ONE_LINE, QUINE_1),
                    Stage(Pattern.TWO_LINES, DOUBLE_QUINE_1),
                    Stage(Pattern.FULL_CARD, CARTON_1),
                ),
            ),
            GameSpec(
                Kind.CLASSIQUE,
                (Stage(Pattern.ONE_LINE, QUINE_2), Stage(Pattern.FULL_CARD, CARTON_2)),
            ),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, CARTON_3),)),
        ),
        settings=Settings(
            draw_source=DrawSource.PHYSICAL,
            tie_method=TieMethod.SHARE_OR_DRAW,
            free_cartons=True,
            # (the last call and bag tokens are played in test_claims.py)
            last_call_seconds=0,
            token_source=TokenSource.APP,
        ),
    )


# ---------------------------------------------------------------------- helpers


Rows = tuple[frozenset[int], ...]


@dataclass
class Findings:
    """App bugs that do not stop the evening: the test goes on and fails at the end."""

    items: list[str] = field(default_factory=list)

    def note(self, message: str) -> None:
        if message not in self.items:
            self.items.append(message)

    def check(self, what: str, assertion: Any) -> None:
        """An assertion reported at the end instead of stopping the evening."""
        try:
            assertion()
        except AssertionError as exc:
            self.note(f"{what}: {str(exc).splitlines()[0]}")


# Cartons whose grid is wider than the card (cells pushed out of the carton / the screen).
OVERFLOW_JS = """
() => {
  const out = Array.from(document.querySelectorAll('[data-testid^="carton-"]')).flatMap((card) => {
    const box = card.getBoundingClientRect();
    const cells = Array.from(card.querySelectorAll('[data-testid^="cell-"]'));
    const right = Math.max(...cells.map((c) => c.getBoundingClientRect().right));
    const id = card.getAttribute('data-testid');
    return right > box.right + 0.5
      ? [`${id}: cells reach x=${right.toFixed(0)}, the card ends at x=${box.right.toFixed(0)}`]
      : [];
  });
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth) out.push(`page ${page} px wide on a ${window.innerWidth} px phone`);
  return out;
}
"""


@dataclass
class Phone:
    """One player's phone: the page, the cartons read from it, the pions the test put."""

    name: str
    page: Page
    findings: Findings
    cartons: dict[int, Rows] = field(default_factory=dict)
    marked: set[tuple[int, int]] = field(default_factory=set)
    tap_failed: bool = False

    def read_cartons(self) -> dict[int, Rows]:
        """Read every carton's rows from the DOM (and check its shape)."""
        out: dict[int, Rows] = {}
        for c in self.page.evaluate(READ_CARTONS_JS):
            rows = tuple(frozenset(r) for r in c["rows"])
            assert c["cells"] == 27, f"{self.name}: carton {c['no']} has {c['cells']} cells"
            assert [len(r) for r in rows] == [5, 5, 5], f"{self.name}: carton {c['no']} {rows}"
            out[c["no"]] = rows
        self.cartons = out
        return out

    def cell(self, carton: int, n: int):
        return self.page.get_by_test_id(f"cell-{carton}-{n}")

    def mark(self, carton: int, numbers: Iterable[int]) -> None:
        """Touch the cells of drawn numbers (each waits for the server's pion)."""
        for n in numbers:
            if (carton, n) in self.marked:
                continue
            cell = self.cell(carton, n)
            try:  # Playwright's own check that a finger on the cell reaches the cell
                cell.click(trial=True, timeout=300 if self.tap_failed else 1500)
            except PlaywrightTimeout as exc:
                self.tap_failed = True
                blocker = next(
                    (ln.strip() for ln in str(exc).splitlines() if "intercepts" in ln), "?"
                )
                self.findings.note(
                    f"{self.name}: a tap on cell {carton}-{n} does not reach it ({blocker}); "
                    "the test dispatches the click to the cell to go on"
                )
                cell.dispatch_event("click")
            else:
                cell.click()
            expect(cell).to_have_attribute("data-marked", "true")
            self.marked.add((carton, n))

    def check_layout(self, when: str) -> None:
        for problem in self.page.evaluate(OVERFLOW_JS):
            self.findings.note(f"{self.name} ({when}): carton grid wider than its card: {problem}")

    def expect_marks(self) -> None:
        """Every pion the test put is still shown."""
        for carton, n in sorted(self.marked):
            expect(self.cell(carton, n)).to_have_attribute("data-marked", "true")
        expect(self.page.locator('[data-testid^="cell-"][data-marked="true"]')).to_have_count(
            len(self.marked)
        )

    def expect_no_marks(self) -> None:
        self.marked.clear()
        expect(self.page.locator('[data-testid^="cell-"][data-marked="true"]')).to_have_count(0)

    def buy_one(self) -> int:
        """Buy one classique carton; returns its number."""
        before = set(self.read_cartons())
        buy(self.page, "buy-classique")
        expect(self.page.locator('[data-testid^="carton-"]')).to_have_count(len(before) + 1)
        (new,) = set(self.read_cartons()) - before
        return new

    def claim(self, carton: int, word: str) -> None:
        button = self.page.get_by_test_id(f"claim-{carton}")
        expect(button).to_have_text(word)
        claim(button)  # the deliberate gesture: tap, then tap « Confirmer »

    def verdict(self):
        return self.page.get_by_test_id("verdict")

    def badge(self, carton: int, text: str) -> None:
        expect(self.page.get_by_test_id(f"carton-{carton}")).to_contain_text(text)


class Shots:
    """Screenshots numbered in order: 01-join.png, 02-..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.n = 0
        for old in [*folder.glob("*.png"), folder / "findings.txt", folder / "latency.txt"]:
            old.unlink(missing_ok=True)

    def __call__(self, page: Page, label: str, *, full_page: bool = True) -> None:
        self.n += 1
        page.evaluate("window.scrollTo(0, 0)")  # the sticky header then sits at the top
        page.screenshot(path=self.folder / f"{self.n:02d}-{label}.png", full_page=full_page)


@dataclass
class Hall:
    """The animateur's draw, watched on every phone and the screen."""

    animateur: Page
    screen: Page
    phones: list[Phone]
    drawn: list[int] = field(default_factory=list)  # this game's numbers
    latencies: dict[str, list[float]] = field(default_factory=dict)  # page -> ms per draw
    log: list[str] = field(default_factory=list)

    def new_game(self) -> None:
        self.drawn = []

    def ball(self, n: int) -> None:
        """Type a ball, announce it, wait until every page shows it, record the delays."""
        a = self.animateur
        submit = a.get_by_test_id("ball-submit")
        expect(submit).to_be_enabled()
        a.evaluate("window.__submitAt = null")
        a.get_by_test_id("ball-input").fill(str(n))
        submit.click()
        a.wait_for_function("window.__submitAt !== null", timeout=WAIT_MS)
        t0 = a.evaluate("window.__submitAt")
        watchers = [(p.name, p.page) for p in self.phones] + [("écran", self.screen)]
        for _, page in [*watchers, ("animateur", a)]:
            expect(page.get_by_test_id("last-number")).to_have_text(str(n))
        expect(self.screen.get_by_test_id(f"board-{n}")).to_have_attribute("data-drawn", "true")
        self.drawn.append(n)
        row = [f"{len(self.drawn):2d}. {n:2d}"]
        for name, page in watchers:
            seen = page.evaluate(FIRST_SEEN_JS, [str(n), t0])
            assert seen is not None, f"{name}: no record of {n} after the click"
            ms = seen - t0
            self.latencies.setdefault(name, []).append(ms)
            row.append(f"{name} {ms:6.1f}")
        self.log.append("  ".join(row))

    def balls(self, numbers: Iterable[int], after: Any = None) -> None:
        for n in numbers:
            self.ball(n)
            if after is not None:
                after(n)


@dataclass(frozen=True)
class Plan:
    """The numbers to type, chosen from the cartons read on the phones."""

    a_no: int  # Alice's carton: quine (tie), double quine, carton plein
    b_no: int  # Bruno's carton: quine (tie), late double quine
    x: int  # the number completing a row of each of them
    quine: tuple[int, ...]  # ends with x
    b_second: tuple[int, ...]  # completes Bruno's second row
    late: int  # not on Bruno's carton: his double quine claim comes one number late
    a_second: tuple[int, ...]  # completes Alice's second row
    a_third: tuple[int, ...]  # completes Alice's carton

    @property
    def game1(self) -> tuple[int, ...]:
        return self.quine + self.b_second + (self.late,) + self.a_second + self.a_third


def numbers(rows: Rows) -> frozenset[int]:
    return frozenset().union(*rows)


def plan_game1(alice: dict[int, Rows], bruno: dict[int, Rows]) -> Plan | None:
    """The shortest game 1 with: a row of Alice and a row of Bruno completed by the same
    number x; then a second row of Bruno, a number off his carton (late claim), Alice's
    second row then her third (each needing at least one new number)."""
    best: Plan | None = None
    for a_no, a_rows in alice.items():
        for b_no, b_rows in bruno.items():
            b_all = numbers(b_rows)
            for ia, ib in ((i, j) for i in range(3) for j in range(3)):
                for x in sorted(a_rows[ia] & b_rows[ib]):
                    quine = (*sorted((a_rows[ia] | b_rows[ib]) - {x}), x)
                    for ib2 in (j for j in range(3) if j != ib):
                        drawn = set(quine)
                        b_second = tuple(sorted(b_rows[ib2] - drawn))
                        if not b_second:
                            continue
                        drawn |= set(b_second)
                        for ia2, ia3 in permutations([i for i in range(3) if i != ia]):
                            lates = sorted(a_rows[ia2] - drawn - b_all) or sorted(
                                set(range(1, 91)) - drawn - b_all - a_rows[ia3]
                            )
                            for late in lates:
                                d = drawn | {late}
                                a_second = tuple(sorted(a_rows[ia2] - d))
                                a_third = tuple(sorted(a_rows[ia3] - d - set(a_second)))
                                if not a_second or not a_third:
                                    continue
                                p = Plan(a_no, b_no, x, quine, b_second, late, a_second, a_third)
                                if best is None or len(p.game1) < len(best.game1):
                                    best = p
                                break
    return best


def winner_of(text: str) -> str:
    m = re.search(r"\. (.+) gagne !", text)
    assert m, f"no token-draw winner in {text!r}"
    return m.group(1)


def summary(values: list[float]) -> str:
    return (
        f"n={len(values)} median={statistics.median(values):.1f} ms "
        f"p90={sorted(values)[int(0.9 * (len(values) - 1))]:.1f} ms worst={max(values):.1f} ms"
    )


# ---------------------------------------------------------------------- the evening


def test_full_evening(
    db_url: str,
    app_url: str,
    browser: Browser,
    playwright: Playwright,
    results_dir: Path,
) -> None:
    started = time.monotonic()
    shot = Shots(results_dir)
    store = EveningStore(make_engine(db_url))
    tag = uuid.uuid4().hex[:6].upper()
    secret = f"secret-{uuid.uuid4().hex}"
    creds = store.create_evening(f"Soirée e2e {tag}", program(f"E{tag}"), animateur_secret=secret)
    code = creds.join_code

    contexts: list[BrowserContext] = []
    hall: Hall | None = None
    findings = Findings()

    def new_page(**options: Any) -> Page:
        ctx = browser.new_context(**options, locale="fr-FR")
        ctx.set_default_timeout(WAIT_MS)
        ctx.add_init_script(OBSERVER_JS)
        contexts.append(ctx)
        return ctx.new_page()

    try:
        # ------------------------------------------------------------ everyone arrives
        anim = new_page(**playwright.devices["iPad (gen 7)"])
        anim.goto(f"{app_url}/animateur")
        anim.get_by_test_id("animateur-code").fill(code)
        anim.get_by_test_id("animateur-secret").fill(secret)
        anim.get_by_test_id("animateur-login").click()
        expect(anim.get_by_test_id("start-game")).to_be_visible()
        expect(anim.get_by_test_id("allow-unmark")).to_have_count(0)  # offered when possible

        screen = new_page(viewport={"width": 1920, "height": 1080})
        screen.goto(f"{app_url}/ecran?code={code}")
        expect(screen.get_by_test_id("join-qr")).to_contain_text(code)

        phones: list[Phone] = []
        for i, name in enumerate(("Alice", "Bruno", "Chloé")):
            page = new_page(**playwright.devices["Pixel 7"])
            page.goto(f"{app_url}/?code={code}")
            expect(page.get_by_test_id("join-code")).to_have_value(code)
            page.get_by_test_id("join-name").fill(name)
            if i == 0:
                shot(page, "join")
            page.get_by_test_id("join-submit").click()
            page.wait_for_url(re.compile(r"/jouer$"))
            expect(page.get_by_text(f"Bonjour {name} !")).to_be_visible()
            phones.append(Phone(name, page, findings))
        alice, bruno, chloe = phones
        by_name = {p.name: p for p in phones}

        # The tablet signed in before the players came: it follows the count.
        findings.check(
            "animateur's player count after 3 joins",
            lambda: expect(anim.get_by_text(re.compile(r" — 3 joueurs$"))).to_be_visible(
                timeout=SOFT_MS
            ),
        )

        # Cartons bought before the first game; more until Alice and Bruno each have a row
        # completed by one same number (cartons of one planche share no number).
        for p in phones:
            p.buy_one()
        plan = plan_game1(alice.read_cartons(), bruno.read_cartons())
        for buyer in [alice, bruno] * 6:
            if plan is not None:
                break
            buyer.buy_one()
            plan = plan_game1(alice.read_cartons(), bruno.read_cartons())
        assert plan is not None, "no ex aequo pair after 12 more cartons"
        c1 = min(chloe.read_cartons())
        shot(alice.page, "cartons-achetes")
        for p in phones:
            p.check_layout("no pion")
        shot(anim, "animateur-connecte")
        shot(screen, "ecran-accueil", full_page=False)

        hall = Hall(anim, screen, phones)

        def marks_on(phone: Phone, carton: int):
            rows = phone.cartons[carton]

            def put(n: int) -> None:
                if n in numbers(rows):
                    phone.mark(carton, [n])

            return put

        def alice_and_bruno_mark(n: int) -> None:
            marks_on(alice, plan.a_no)(n)
            marks_on(bruno, plan.b_no)(n)

        def expect_locked() -> None:
            for p in phones:
                button = p.page.get_by_test_id("unmark-all")
                expect(button).to_be_disabled()
                expect(button).to_have_text("Démarquer (attendez l'animateur)")

        # ============================================================ game 1
        anim.get_by_test_id("start-game").click()
        hall.new_game()
        expect(screen.get_by_test_id("announcement")).to_contain_text("Partie 1 :")
        for p in phones:
            expect(p.page.get_by_test_id("stage")).to_have_text("Quine : Panier garni")
            for no in p.cartons:
                p.badge(no, "en jeu")
        expect_locked()
        expect(anim.get_by_test_id("allow-unmark")).to_have_count(0)  # offered when possible

        # First ball; Chloé claims at once: a false claim.
        hall.ball(plan.quine[0])
        alice_and_bruno_mark(plan.quine[0])
        shot(chloe.page, "premier-numero")
        chloe.claim(c1, "QUINE !")
        expect(chloe.verdict()).to_contain_text("Fausse annonce")
        expect(chloe.verdict()).to_contain_text(f"carton {c1}")
        chloe.badge(c1, "CARTON ANNULÉ")
        expect(chloe.page.get_by_test_id(f"claim-{c1}")).to_be_disabled()
        expect(chloe.page.get_by_test_id(f"claim-{c1}")).to_have_text("Carton annulé")
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Fausse annonce de Chloé : le carton {c1} est annulé"
        )
        expect(anim.get_by_test_id("claims")).to_contain_text("Chloé")
        expect(anim.get_by_test_id("claims")).to_contain_text("Fausse annonce")
        shot(chloe.page, "fausse-annonce-telephone")
        shot(screen, "fausse-annonce-ecran", full_page=False)

        # A purchase after the first number joins the next game.
        late_buy = chloe.buy_one()
        chloe.badge(late_buy, "Joue à la partie 2")
        chloe.badge(c1, "CARTON ANNULÉ")
        shot(chloe.page, "achat-en-cours-de-partie")

        # The quine: one number completes a row of Alice's and a row of Bruno's.
        hall.balls(plan.quine[1:], alice_and_bruno_mark)
        expect_locked()
        alice.claim(plan.a_no, "QUINE !")
        expect(alice.verdict()).to_contain_text(f"Annonce valide sur le {plan.x}")
        # a valid claim is open: the tablet's one next action is the lot, no ball to type
        expect(anim.get_by_test_id("ball-submit")).to_have_count(0)
        expect(anim.get_by_test_id("award")).to_be_visible()
        bruno.claim(plan.b_no, "QUINE !")
        expect(bruno.verdict()).to_contain_text(f"Annonce valide sur le {plan.x}")
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"QUINE ! Ex aequo : 2 gagnants sur le {plan.x}."
        )
        claims = anim.get_by_test_id("claims")
        expect(claims).to_contain_text(f"Alice — carton {plan.a_no} — Quine sur le {plan.x}")
        expect(claims).to_contain_text(f"Bruno — carton {plan.b_no} — Quine sur le {plan.x}")
        expect(anim.get_by_test_id("tie-draw")).to_be_enabled()
        expect(anim.get_by_test_id("tie-share")).to_have_count(0)  # the quine lot is not divisible
        for badge in claims.locator(".rt-Badge").all():  # the app speaks French
            findings.check(
                "verdict badge of the animateur's claims list",
                lambda b=badge: expect(b).not_to_have_text(VERDICT_CODES, timeout=SOFT_MS),
            )
        shot(anim, "ex-aequo-animateur")
        shot(screen, "ex-aequo-ecran", full_page=False)

        cartons_before = {p.name: set(p.read_cartons()) for p in (alice, bruno)}
        anim.get_by_test_id("tie-draw").click()
        announcement = screen.get_by_test_id("announcement")
        expect(announcement).to_contain_text("gagne !")
        winner = by_name[winner_of(announcement.inner_text())]
        loser = bruno if winner is alice else alice
        for p in (alice, bruno):  # the tokens are shown to all: hall screen and phones
            token = re.compile(rf"^{p.name} : \d+$")
            expect(screen.get_by_text(token)).to_be_visible()
            for q in phones:
                expect(q.page.get_by_test_id("tie-tokens").get_by_text(token)).to_be_visible()
        shot(screen, "jetons-ecran", full_page=False)
        expect(loser.page.locator('[data-testid^="carton-"]')).to_have_count(
            len(cartons_before[loser.name]) + 1
        )
        (gift,) = set(loser.read_cartons()) - cartons_before[loser.name]
        loser.badge(gift, "offert")
        loser.badge(gift, "Joue à la partie ")
        expect(loser.page.get_by_test_id("consolations")).to_have_text(
            "Cartons offerts (ex aequo) : 1"
        )
        assert set(winner.read_cartons()) == cartons_before[winner.name]
        shot(loser.page, "carton-offert")

        anim.get_by_test_id("award").click()
        expect(winner.page.get_by_test_id("tickets")).to_contain_text("Panier garni")
        # The lot is given: each verdict now tells its outcome.
        expect(winner.verdict()).to_contain_text(
            re.compile(r"Gagné ! Panier garni : ticket n° \d+")
        )
        expect(loser.verdict()).to_have_text(
            "Ex aequo perdu au tirage des jetons : un carton vous est offert."
        )
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Quine : Panier garni pour {winner.name} !"
        )
        # Same draw, next stage: the pions stay, and the claim buttons say it at once (those
        # who claimed this number have nothing more to claim until the next one).
        for p in phones:
            expect(p.page.get_by_test_id("stage")).to_contain_text("Double quine")
        for p, no in ((alice, plan.a_no), (bruno, plan.b_no)):
            expect(p.page.get_by_test_id(f"claim-{no}")).to_have_text("Annonce enregistrée")
        expect(chloe.page.get_by_test_id(f"claim-{c1}")).to_have_text("Carton annulé")
        alice.expect_marks()
        bruno.expect_marks()
        shot(alice.page, "double-quine-pions-gardes")

        # Bruno's second row comes out, then one more number, then he claims: tour passé.
        hall.balls(plan.b_second, alice_and_bruno_mark)
        hall.ball(plan.late)
        alice_and_bruno_mark(plan.late)
        bruno.claim(plan.b_no, "DOUBLE QUINE !")
        expect(bruno.verdict()).to_contain_text("Tour passé")
        bruno.badge(plan.b_no, "en jeu")  # a late claim does not annul the carton
        expect(screen.get_by_test_id("announcement")).to_contain_text("Tour passé")
        expect(anim.get_by_test_id("claims")).to_contain_text("Tour passé")
        shot(bruno.page, "tour-passe")

        # Alice's double quine, then her phone reloads before the lot is awarded.
        hall.balls(plan.a_second, alice_and_bruno_mark)
        expect(bruno.page.get_by_test_id(f"claim-{plan.b_no}")).to_have_text("DOUBLE QUINE !")
        alice.claim(plan.a_no, "DOUBLE QUINE !")
        valid = f"Annonce valide sur le {plan.a_second[-1]} (carton {plan.a_no})"
        expect(alice.verdict()).to_contain_text(valid)
        expect(screen.get_by_test_id("announcement")).to_have_text(
            f"DOUBLE QUINE ! Alice (carton {plan.a_no}) : annonce valide."
        )
        cartons_shown = set(alice.cartons)
        alice.page.reload()
        expect(alice.page.get_by_text("Bonjour Alice !")).to_be_visible()
        expect(alice.page.get_by_test_id("last-number")).to_have_text(str(plan.a_second[-1]))
        expect(alice.verdict()).to_contain_text(valid)
        assert set(alice.read_cartons()) == cartons_shown
        alice.expect_marks()
        if winner is alice:
            expect(alice.page.get_by_test_id("tickets")).to_contain_text("Panier garni")
        shot(alice.page, "apres-rechargement")
        alice.check_layout("13 pions on one carton")
        anim.get_by_test_id("award").click()
        expect(alice.page.get_by_test_id("tickets")).to_contain_text("Bon d'achat de 50 €")
        bruno_button = bruno.page.get_by_test_id(f"claim-{plan.b_no}")
        expect(bruno_button).to_have_text("CARTON PLEIN !")  # at once after the award

        # Alice's carton plein closes game 1.
        hall.balls(plan.a_third, alice_and_bruno_mark)
        expect_locked()
        alice.claim(plan.a_no, "CARTON PLEIN !")
        expect(alice.verdict()).to_contain_text("Annonce valide")
        anim.get_by_test_id("award").click()
        expect(alice.page.get_by_test_id("tickets")).to_contain_text("Téléviseur")
        expect(screen.get_by_test_id("announcement")).to_contain_text("Partie terminée.")
        # every lot is awarded: nothing left to claim on any phone
        expect(bruno_button).to_have_text("Partie terminée")
        expect(bruno_button).to_be_disabled()
        expect_locked()  # every lot is awarded, the animateur has not said it yet
        expect(anim.get_by_test_id("allow-unmark")).to_be_enabled()
        expect(anim.get_by_test_id("ball-submit")).to_have_count(0)
        shot(alice.page, "demarquage-verrouille")

        # a player who scrolled down to her cartons is brought to the démarquer action
        for p in phones:
            p.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        claim(anim.get_by_test_id("allow-unmark"))
        # between games the screen shows the winners and the next game, and says it once
        expect(screen.get_by_test_id("scene-title")).to_have_text(
            "Partie 1 terminée : vous pouvez démarquer"
        )
        expect(screen.get_by_test_id("game-winners")).to_contain_text("Téléviseur")
        for p in phones:
            button = p.page.get_by_test_id("unmark-all")
            expect(button).to_be_enabled()
            expect(button).to_have_text("Démarquer mes cartons")
            expect(button).to_be_in_viewport()  # at the top, not under the cartons
            expect(p.page.get_by_test_id("announcement")).to_have_text("Vous pouvez démarquer !")
            # the game is over: no carton says "en jeu" any more
            expect(p.page.get_by_test_id("cartons")).not_to_contain_text("en jeu")
        shot(screen, "demarquez-ecran", full_page=False)
        alice.expect_marks()
        alice.page.get_by_test_id("unmark-all").click()
        alice.expect_no_marks()
        shot(alice.page, "demarque")

        # ============================================================ game 2
        anim.get_by_test_id("next-game").click()
        hall.new_game()
        expect(screen.get_by_test_id("announcement")).to_contain_text("Partie 2 :")
        expect(screen.locator('[data-testid^="board-"][data-drawn="true"]')).to_have_count(0)
        expect(chloe.page.get_by_test_id(f"carton-{c1}")).not_to_contain_text("ANNULÉ")
        chloe.badge(c1, "en jeu")  # the annulled carton comes back
        chloe.badge(late_buy, "en jeu")  # bought during game 1
        loser.badge(gift, "en jeu")
        bruno.expect_no_marks()  # a new game starts on clear cartons
        for p in phones:
            expect(p.verdict()).to_have_count(0)
            expect(p.page.get_by_test_id("stage")).to_contain_text("Quine : Bons d'achat de 40 €")
        expect_locked()
        shot(chloe.page, "partie-2-cartons-en-jeu")

        # The same two rows tie again, on a divisible lot: they share.
        hall.balls(plan.quine)
        alice.claim(plan.a_no, "QUINE !")
        expect(alice.verdict()).to_contain_text("Annonce valide")
        bruno.claim(plan.b_no, "QUINE !")
        expect(bruno.verdict()).to_contain_text("Annonce valide")
        expect(screen.get_by_test_id("announcement")).to_contain_text("Ex aequo : 2 gagnants")
        share = anim.get_by_test_id("tie-share")
        expect(share).to_be_enabled()
        share.click()
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            "Ex aequo : partage proposé à Alice et Bruno."
        )
        expect(anim.get_by_test_id("share-pending")).to_be_visible()
        for p in (alice, bruno):
            expect(p.page.get_by_test_id("share-accept")).to_be_visible()
        shot(bruno.page, "partage-propose")
        alice.page.get_by_test_id("share-accept").click()
        expect(
            alice.page.get_by_text("Réponse envoyée. En attente de l'autre joueur.")
        ).to_be_visible()
        bruno.page.get_by_test_id("share-accept").click()
        expect(screen.get_by_test_id("announcement")).to_have_text(
            "Lot partagé : Bons d'achat de 40 € — moitié pour Alice, moitié pour Bruno."
        )
        anim.get_by_test_id("award").click()
        for p in (alice, bruno):
            half = (
                p.page.get_by_test_id("tickets")
                .locator('[data-testid^="ticket-"]')
                .filter(has_text="Bons d'achat de 40 €")
            )
            expect(half).to_have_count(1)
            expect(half).to_contain_text("(moitié du lot)")
            expect(p.verdict()).to_contain_text("Gagné ! Bons d'achat de 40 € (la moitié du lot)")
            expect(p.page.get_by_test_id("share-accept")).to_have_count(0)
        shot(alice.page, "lot-partage")

        # Chloé's carton, annulled in game 1, wins the carton plein.
        c1_rest = sorted(numbers(chloe.cartons[c1]) - set(hall.drawn))
        hall.balls(c1_rest, marks_on(chloe, c1))
        chloe.claim(c1, "CARTON PLEIN !")
        expect(chloe.verdict()).to_contain_text(f"Annonce valide sur le {c1_rest[-1]}")
        anim.get_by_test_id("award").click()
        expect(chloe.page.get_by_test_id("tickets")).to_contain_text("Vélo")
        shot(screen, "partie-2-ecran", full_page=False)
        claim(anim.get_by_test_id("allow-unmark"))
        expect(screen.get_by_test_id("scene-title")).to_contain_text("vous pouvez démarquer")

        # ============================================================ game 3
        anim.get_by_test_id("next-game").click()
        hall.new_game()
        expect(screen.get_by_test_id("announcement")).to_contain_text("Partie 3 :")
        chloe.expect_no_marks()
        hall.balls(sorted(numbers(loser.cartons[gift])))
        loser.claim(gift, "CARTON PLEIN !")
        expect(loser.verdict()).to_contain_text("Annonce valide")
        anim.get_by_test_id("award").click()
        expect(loser.page.get_by_test_id("tickets")).to_contain_text("Séjour à la montagne")
        claim(anim.get_by_test_id("allow-unmark"))
        expect(anim.get_by_text("Toutes les parties ont été jouées. Merci !")).to_be_visible()
        expect(anim.get_by_test_id("next-game")).to_have_count(0)
        shot(anim, "fin-animateur")
        shot(screen, "fin-ecran", full_page=False)
        shot(loser.page, "fin-telephone")

        assert store.verify_audit(creds.evening_id) == []
    finally:
        for ctx in contexts:
            ctx.close()
        if hall is not None:  # the latencies, even of a partial evening
            report(results_dir, hall, time.monotonic() - started)
    if findings.items:
        (results_dir / "findings.txt").write_text("\n".join(findings.items) + "\n", "utf-8")
    assert not findings.items, "app bugs seen during the evening:\n" + "\n".join(findings.items)


def report(folder: Path, hall: Hall, took: float) -> None:
    """Write and print the draw-to-page latencies (median and worst)."""
    phones_ms = [ms for name, values in hall.latencies.items() if name != "écran" for ms in values]
    if not phones_ms:
        return
    lines = [
        "Draw-to-display latency: click on ball-submit (animateur tablet) -> the page's",
        "last-number shows the ball (MutationObserver, performance.timeOrigin + now()).",
        "",
        f"phones (all):  {summary(phones_ms)}",
    ]
    for name, values in hall.latencies.items():
        lines.append(f"{name:13s}  {summary(values)}")
    lines += ["", f"whole test: {took:.1f} s", "", "per draw (ms):", *hall.log]
    text = "\n".join(lines) + "\n"
    (folder / "latency.txt").write_text(text, encoding="utf-8")
    print("\n" + text)
