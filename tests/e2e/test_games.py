"""The games beyond the règlement's four, played through a real browser on a tablet
(1180x820), the hall screen (1920x1080) and two phones (a 360x740 one and a Pixel 7): a partie
inversée (nobody claims: the last carton standing wins, the TV counts the cartons in), a
jackpot en 15 numéros that nobody wins in time (the TV counts down, the consolation is
played), a partie enfants on its own cartons (one lot a player), and a partie improvisée added
from the tablet. Screenshots of each step go to test-results/<test>/."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from gestures import buy, claim
from hall_pages import SMALL_PHONE, HallPages
from playwright.sync_api import expect
from test_claims import WAIT_MS, Rows, cartons
from test_evening import Shots

from loto_app.domain.games import TieRule
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
    TokenSource,
)
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright


def program(series: str) -> Program:
    games = (
        GameSpec(
            Kind.CLASSIQUE,
            (Stage(Pattern.LAST_STANDING, Lot("Panier garni", 3000)),),
            type="inversee",
            tie=TieRule.EACH,
        ),
        GameSpec(
            Kind.CLASSIQUE,
            (
                Stage(Pattern.FULL_CARD, Lot("Voyage à Rome", 90000), within=15),
                Stage(Pattern.FULL_CARD, Lot("Bouteille de champagne", 3000)),
            ),
            type="jackpot",
        ),
        GameSpec(
            Kind.ENFANT,
            (Stage(Pattern.ONE_LINE, Lot("Peluche")), Stage(Pattern.ONE_LINE, Lot("Ballon"))),
            type="enfants",
        ),
    )
    s = Settings(
        DrawSource.PHYSICAL, free_cartons=True, last_call_seconds=0, token_source=TokenSource.APP
    )
    return Program(series, games, s)


def test_the_new_games_on_every_screen(
    db_url: str, app_url: str, browser: Browser, playwright: Playwright, results_dir: Path
) -> None:
    shot = Shots(results_dir)
    store = EveningStore(make_engine(db_url))
    tag = uuid.uuid4().hex[:6].upper()
    secret = f"secret-{uuid.uuid4().hex}"
    creds = store.create_evening(f"Jeux {tag}", program(f"J{tag}"), animateur_secret=secret)
    code = creds.join_code
    pages = HallPages(browser, playwright, app_url, code, WAIT_MS)

    try:
        anim = pages.tablet(secret)
        screen = pages.screen()

        phones: dict[str, Page] = {}
        for name, viewport in (("Alice", None), ("Bruno", SMALL_PHONE)):
            page = pages.player(name, viewport)
            buy(page, "buy-classique")
            expect(page.locator('[data-testid^="carton-"]')).to_have_count(1)
            buy(page, "buy-enfant")
            expect(page.locator('[data-testid^="carton-"]')).to_have_count(2)
            phones[name] = page
        alice, bruno = phones.values()
        mine = {n: cartons(p) for n, p in phones.items()}
        (a_classic, a_child), (b_classic, b_child) = (sorted(mine[n]) for n in ("Alice", "Bruno"))
        numbers = {no: frozenset().union(*rows) for m in mine.values() for no, rows in m.items()}
        everyone = [alice, bruno, anim, screen]

        def ball(n: int) -> None:
            expect(anim.get_by_test_id("ball-submit")).to_be_enabled()
            anim.get_by_test_id("ball-input").fill(str(n))
            anim.get_by_test_id("ball-submit").click()
            for page in everyone:
                expect(page.get_by_test_id("last-number")).to_have_text(str(n))

        def end_game() -> None:
            anim.get_by_test_id("award").click()
            claim(anim.get_by_test_id("allow-unmark"))

        # ---- 1. the partie inversée: nobody claims, the TV counts the cartons still in
        anim.get_by_test_id("start-game").click()
        expect(screen.get_by_test_id("standing")).to_contain_text("2")
        expect(alice.get_by_test_id(f"claim-{a_classic}")).to_have_text("Toujours en jeu")
        expect(alice.get_by_test_id(f"claim-{a_classic}")).to_be_disabled()
        knock = min(numbers[b_classic] - numbers[a_classic])
        ball(knock)  # Bruno's carton is out: Alice's is the last one standing
        expect(bruno.get_by_test_id(f"claim-{b_classic}")).to_have_text("Éliminé")
        expect(screen.get_by_test_id("standing")).to_contain_text("1")
        expect(screen.get_by_test_id("announcement")).to_contain_text("Dernier carton en jeu")
        expect(screen.get_by_test_id("announcement")).to_contain_text("Alice")
        expect(anim.get_by_test_id("award")).to_be_enabled()
        shot(bruno, "inversee-phone-360")
        shot(alice, "inversee-phone-pixel")
        shot(anim, "inversee-tablet", full_page=False)
        shot(screen, "inversee-tv", full_page=False)
        end_game()

        # ---- 2. the jackpot en 15 numéros: not won in time, the consolation is played
        anim.get_by_test_id("next-game").click()
        expect(screen.get_by_test_id("jackpot-left")).to_contain_text("15")
        ours = numbers[a_classic] | numbers[b_classic]
        away = [n for n in range(1, 91) if n not in ours]
        for n in away[:14]:
            ball(n)
        expect(screen.get_by_test_id("jackpot-left")).to_contain_text("encore 1 numéro")
        shot(screen, "jackpot-tv", full_page=False)
        ball(away[14])
        expect(screen.get_by_test_id("jackpot-left")).to_contain_text("encore 0 numéro")
        todo = sorted(numbers[a_classic])
        ball(todo[0])  # the 16th: the jackpot is gone, the carton plein plays for the champagne
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            "Jackpot non gagné en 15 numéros"
        )
        expect(screen.get_by_test_id("jackpot-left")).to_have_count(0)
        expect(screen.get_by_test_id("stage")).to_contain_text("Bouteille de champagne")
        for n in todo[1:]:
            ball(n)
        claim(alice.get_by_test_id(f"claim-{a_classic}"))
        expect(alice.get_by_test_id("verdict")).to_contain_text("valide")
        shot(anim, "jackpot-tablet", full_page=False)
        end_game()
        expect(alice.get_by_test_id("tickets")).to_contain_text("Bouteille de champagne")

        # ---- a partie improvisée, added from the tablet during the evening
        anim.get_by_test_id("improvise-open").click()
        anim.get_by_test_id("improvise-type").select_option("rapide")
        anim.get_by_test_id("improvise-lot").fill("Panier du boulanger")
        shot(anim, "improvise-tablet", full_page=False)
        anim.get_by_test_id("improvise-submit").click()
        expect(anim.get_by_test_id("improvise-lot")).to_have_count(0)

        # ---- 3. the partie enfants: its own cartons, one lot a player
        anim.get_by_test_id("next-game").click()
        expect(screen.get_by_text(re.compile(r"Partie 3 / 4"))).to_be_visible()
        expect(alice.get_by_test_id(f"claim-{a_classic}")).to_have_text("Ne joue pas cette partie")
        rows = mine["Alice"][a_child]
        for n in sorted(rows[0]):
            ball(n)
        claim(alice.get_by_test_id(f"claim-{a_child}"))
        expect(alice.get_by_test_id("verdict")).to_contain_text("valide")
        anim.get_by_test_id("award").click()
        for n in sorted(rows[1]):  # Alice's second row: a second quine for her
            ball(n)
        claim(alice.get_by_test_id(f"claim-{a_child}"))
        expect(alice.get_by_test_id("player-message")).to_contain_text("déjà gagné un lot")
        b_rows = mine["Bruno"][b_child]
        for n in sorted(b_rows[0]):
            ball(n)
        claim(bruno.get_by_test_id(f"claim-{b_child}"))
        expect(bruno.get_by_test_id("verdict")).to_contain_text("valide")
        expect(bruno.get_by_test_id(f"band-{b_child}")).to_have_text("Enfant")
        shot(bruno, "enfants-phone-360")
        shot(screen, "enfants-tv", full_page=False)
        end_game()

        # ---- 4. the improvised game plays
        anim.get_by_test_id("next-game").click()
        expect(screen.get_by_text(re.compile(r"Partie 4 / 4"))).to_be_visible()
        expect(screen.get_by_test_id("stage")).to_contain_text("Panier du boulanger")
        shot(screen, "improvised-tv", full_page=False)
    finally:
        pages.close()


def tie_program(series: str) -> Program:
    """A partie rapide whose ex aequo play a mort subite, then a quine et carton whose ex aequo
    each win a lot; tokens (here: the mort subite's balls) from the bag, as a physical boulier
    plays them."""
    games = (
        GameSpec(
            Kind.CLASSIQUE,
            (Stage(Pattern.ONE_LINE, Lot("Jambon de pays", 2500)),),
            type="rapide",
            tie=TieRule.SUDDEN_DEATH,
        ),
        GameSpec(
            Kind.CLASSIQUE,
            (
                Stage(Pattern.ONE_LINE, Lot("Bouteille de vin", 1200)),
                Stage(Pattern.FULL_CARD, Lot("Panier garni", 5000)),
            ),
            type="quine_et_carton",
            tie=TieRule.EACH,
        ),
    )
    s = Settings(
        DrawSource.PHYSICAL, free_cartons=True, last_call_seconds=0, token_source=TokenSource.BAG
    )
    return Program(series, games, s)


def tie_on_one_number(
    first: dict[int, Rows], second: dict[int, Rows]
) -> tuple[int, int, list[int]] | None:
    """A row of a carton of each completed by one same number x: (the first's carton, the
    second's, the balls to type, x last), the shortest draw; None when no row of theirs
    shares a number."""
    best = None
    for a, a_rows in first.items():
        for b, b_rows in second.items():
            for ra in a_rows:
                for rb in b_rows:
                    for x in sorted(ra & rb):
                        balls = [*sorted((ra | rb) - {x}), x]
                        if best is None or len(balls) < len(best[2]):
                            best = (a, b, balls)
    return best


def test_a_games_own_tie_rule_on_every_screen(
    db_url: str, app_url: str, browser: Browser, playwright: Playwright, results_dir: Path
) -> None:
    """Two games with a tie rule of their own, ex aequo made on purpose: each player's carton
    has a row that one same number completes. (1) a partie rapide settled by mort subite: the
    tablet says the rule and offers the extra ball; a ball on no winning carton changes
    nothing, one on Bruno's only makes him the winner; the hall screen and both phones say it.
    (2) a quine et carton whose ex aequo each win a lot, between two players who arrived
    between the games: the tablet says the rule and awards at once, a ticket each."""
    shots = Shots(results_dir)

    def shot(page: Page, label: str, *, full_page: bool = True) -> None:
        """A screenshot, and no server error on that page (a handler that raised shows
        Reflex's toast "An error occurred.", and the page stays as it was)."""
        shots(page, label, full_page=full_page)
        expect(page.get_by_text("An error occurred.")).to_have_count(0)

    store = EveningStore(make_engine(db_url))
    tag = uuid.uuid4().hex[:6].upper()
    secret = f"secret-{uuid.uuid4().hex}"
    creds = store.create_evening(f"Ex aequo {tag}", tie_program(f"T{tag}"), animateur_secret=secret)
    code = creds.join_code
    pages = HallPages(browser, playwright, app_url, code, WAIT_MS)

    def player(name: str) -> Page:
        return pages.player(name, SMALL_PHONE)

    def tied_pair(first: Page, second: Page) -> tuple[int, int, list[int]]:
        """The first buys one carton, the second a fresh planche (6 cartons holding every
        number once): each number of the first's rows is on a row of the second's, so one
        number can complete a row of each (a single carton of the second's could come from
        the first's planche, whose cartons share no number)."""
        before = first.locator('[data-testid^="carton-"]').count()
        buy(first, "buy-classique")
        expect(first.locator('[data-testid^="carton-"]')).to_have_count(before + 1)
        buy(second, "buy-classique-6")
        expect(second.locator('[data-testid^="carton-"]')).to_have_count(6)
        plan = tie_on_one_number(cartons(first), cartons(second))
        assert plan is not None, "a planche holds every number"
        return plan

    try:
        anim = pages.tablet(secret)
        screen = pages.screen()
        alice, bruno = player("Alice"), player("Bruno")
        a_no, b_no, balls = tied_pair(alice, bruno)
        watching = [alice, bruno, anim, screen]

        def ball(n: int) -> None:
            expect(anim.get_by_test_id("ball-submit")).to_be_enabled()
            anim.get_by_test_id("ball-input").fill(str(n))
            anim.get_by_test_id("ball-submit").click()
            for page in watching:
                expect(page.get_by_test_id("last-number")).to_have_text(str(n))

        # ---- 1. the partie rapide, settled by mort subite
        anim.get_by_test_id("start-game").click()
        expect(screen.get_by_test_id("stage")).to_contain_text("Jambon de pays")
        for n in balls:
            ball(n)
        x = balls[-1]
        claim(alice.get_by_test_id(f"claim-{a_no}"))
        expect(alice.get_by_test_id("verdict")).to_contain_text(f"Annonce valide sur le {x}")
        claim(bruno.get_by_test_id(f"claim-{b_no}"))
        expect(bruno.get_by_test_id("verdict")).to_contain_text("ex aequo avec Alice")
        expect(alice.get_by_test_id("verdict")).to_contain_text("ex aequo avec Bruno")
        ties = anim.get_by_test_id("tie-controls")
        expect(ties).to_contain_text("Alice, Bruno")
        expect(anim.get_by_test_id("tie-rule")).to_contain_text("Mort subite")
        expect(anim.get_by_test_id("sudden-rule")).to_be_visible()
        expect(anim.get_by_test_id("award")).to_have_count(0)  # not before a winner
        expect(anim.get_by_test_id("tie-draw")).to_have_count(0)  # nor tokens
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Ex aequo : 2 gagnants sur le {x}. Départage par mort subite"
        )
        for page in (alice, bruno):  # the phones say the game's rule, not the tokens
            expect(page.get_by_test_id("verdict")).to_contain_text("Mort subite")
            expect(page.get_by_test_id("verdict")).not_to_contain_text("jetons")
        shot(anim, "mort-subite-tablet", full_page=False)
        shot(screen, "mort-subite-tv", full_page=False)
        shot(alice, "mort-subite-phone-alice")

        a_numbers = {no: frozenset().union(*rows) for no, rows in cartons(alice).items()}
        b_numbers = {no: frozenset().union(*rows) for no, rows in cartons(bruno).items()}
        on_a, on_b = a_numbers[a_no], b_numbers[b_no]
        out = set(balls)

        def extra(n: int) -> None:
            expect(anim.get_by_test_id("sudden-submit")).to_be_enabled()
            anim.get_by_test_id("sudden-input").fill(str(n))
            anim.get_by_test_id("sudden-submit").click()

        # a ball on neither winning carton: both still in
        neither = min(set(range(1, 91)) - out - on_a - on_b)
        extra(neither)
        expect(anim.get_by_test_id("sudden-balls")).to_contain_text(str(neither))
        expect(anim.get_by_test_id("sudden-balls")).to_contain_text("Alice, Bruno")
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Mort subite, boule en plus : le {neither}. Encore en lice : Alice, Bruno."
        )
        expect(alice.get_by_test_id("verdict")).to_contain_text(
            f"Boules en plus : {neither} — vous restez en lice avec Bruno."
        )
        shot(anim, "mort-subite-boule-tablet", full_page=False)
        shot(screen, "mort-subite-boule-tv", full_page=False)
        # a ball on Bruno's winning carton only: Bruno wins
        decisive = min(on_b - on_a - out)
        extra(decisive)
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Mort subite : Bruno gagne avec le {decisive} ! "
            f"Boules en plus : {neither}, {decisive}."
        )
        expect(anim.get_by_test_id("tie-controls")).to_have_count(0)
        expect(anim.get_by_test_id("award")).to_contain_text("Jambon de pays")
        expect(bruno.get_by_test_id("verdict")).to_contain_text("Mort subite gagnée")
        expect(alice.get_by_test_id("verdict")).to_contain_text("perdu à la mort subite")
        shot(bruno, "mort-subite-phone-bruno-avant-lot")
        shot(anim, "mort-subite-gagnant-tablet", full_page=False)
        shot(screen, "mort-subite-gagnant-tv", full_page=False)
        anim.get_by_test_id("award").click()
        expect(bruno.get_by_test_id("tickets")).to_contain_text("Jambon de pays")
        expect(bruno.get_by_test_id("verdict")).to_contain_text("Gagné")
        expect(alice.get_by_test_id("verdict")).to_contain_text("perdu à la mort subite")
        expect(screen.get_by_test_id("announcement")).to_contain_text("Jambon de pays pour Bruno")
        # Alice's consolation: a free carton, for the next game
        expect(alice.locator('[data-testid^="carton-"]')).to_have_count(2)
        shot(bruno, "mort-subite-phone-bruno-gagne")
        shot(alice, "mort-subite-phone-alice-perd")
        claim(anim.get_by_test_id("allow-unmark"))

        # ---- 2. between the games, two players arrive; the quine et carton: a lot each
        chloe, denis = player("Chloé"), player("Denis")
        c_no, d_no, balls = tied_pair(chloe, denis)
        watching = [chloe, denis, anim, screen]
        anim.get_by_test_id("next-game").click()
        expect(screen.get_by_test_id("stage")).to_contain_text("Bouteille de vin")
        for n in balls:
            ball(n)
        x = balls[-1]
        claim(chloe.get_by_test_id(f"claim-{c_no}"))
        expect(chloe.get_by_test_id("verdict")).to_contain_text(f"Annonce valide sur le {x}")
        claim(denis.get_by_test_id(f"claim-{d_no}"))
        expect(denis.get_by_test_id("verdict")).to_contain_text("ex aequo avec Chloé")
        expect(denis.get_by_test_id("verdict")).to_contain_text(
            "Chacun de vous gagne un lot identique"
        )
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Ex aequo : 2 gagnants sur le {x}. Chacun gagne un lot identique."
        )
        expect(anim.get_by_test_id("tie-controls")).to_contain_text("Chloé, Denis")
        expect(anim.get_by_test_id("tie-rule")).to_contain_text("Chacun gagne un lot identique")
        award = anim.get_by_test_id("award")
        expect(award).to_have_text("Attribuer un lot à chacun (2 lots) : Bouteille de vin")
        expect(award).to_be_enabled()
        expect(anim.get_by_test_id("sudden-rule")).to_have_count(0)
        shot(anim, "chacun-gagne-tablet", full_page=False)
        shot(denis, "chacun-gagne-phone-avant")
        award.click()
        for page in (chloe, denis):
            expect(page.get_by_test_id("tickets")).to_contain_text("Bouteille de vin")
            expect(page.get_by_test_id("verdict")).to_contain_text("Gagné")
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            "Quine : Bouteille de vin pour Chloé et Denis, un lot chacun !"
        )
        expect(screen.get_by_test_id("stage")).to_contain_text("Panier garni")
        expect(anim.get_by_test_id("claims")).to_contain_text("Chloé")
        shot(anim, "chacun-gagne-attribue-tablet", full_page=False)
        shot(screen, "chacun-gagne-tv", full_page=False)
        shot(chloe, "chacun-gagne-phone-chloe")
        shot(denis, "chacun-gagne-phone-denis")
    finally:
        pages.close()
