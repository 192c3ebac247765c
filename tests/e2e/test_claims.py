"""In real browsers: the claim as the hall lives it.

A physical-boulier evening (the tablet types the balls), three phones, the hall screen
(1920x1080) and the organiser's page:

* a stray tap on a claim button only arms it ("Confirmer : QUINE ?") and claims nothing;
* Chloé's false claim annuls a carton; the animateur's "Réclamation / litige" reinstates it
  (a decision with its reason, on the report afterwards);
* one number completes a row of Alice's, Bruno's and Chloé's: Alice claims, the last call
  "Pas d'autre quine ?" shows on the TV, the tablet and the phones, and the read-back grid of
  her carton on the TV and the tablet; Bruno claims during the last call (ex aequo);
* the quine's lot is divisible: the share is asked before any draw (the tokens cannot be typed
  before a refusal), Bruno refuses, the animateur types the tokens drawn from the bag;
* after the award, Chloé claims on the same number: judged on the quine, "valide après
  l'attribution", her carton still plays: a réclamation on the tablet (defects 1 and 2);
* the organiser's report lists the decision and the réclamation.

Screenshots in `test-results/test_claims_as_the_hall_lives_them/`.
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from axe_check import BLOCKING, axe_script, describe, run_axe
from gestures import buy, claim
from hall_pages import SMALL_PHONE, HallPages
from playwright.sync_api import expect
from test_evening import READ_CARTONS_JS, Shots

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
)
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

WAIT_MS = 20_000
LAST_CALL = 15  # seconds: room for the screenshots on a loaded machine
QUINE = Lot("Bons d'achat de 40 €", 4000, divisible=True)

Rows = tuple[frozenset[int], ...]


def program(series: str) -> Program:
    return Program(
        series=series,
        games=(
            GameSpec(
                Kind.CLASSIQUE,
                (Stage(Pattern.ONE_LINE, QUINE), Stage(Pattern.TWO_LINES, Lot("Jambon", 2500))),
            ),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),)),
        ),
        # tokens from the bag: the default with a physical boulier
        settings=Settings(
            DrawSource.PHYSICAL,
            tie_method=TieMethod.SHARE_OR_DRAW,
            free_cartons=True,
            last_call_seconds=LAST_CALL,
        ),
    )


def no_serious_axe_violation(page: Page, name: str) -> None:
    """axe-core finds nothing serious or critical (colour contrast included)."""
    blocking = [v for v in run_axe(page, axe_script()) if v["impact"] in BLOCKING]
    assert not blocking, f"{name}:\n{describe(blocking)}"


def cartons(page: Page) -> dict[int, Rows]:
    return {c["no"]: tuple(frozenset(r) for r in c["rows"]) for c in page.evaluate(READ_CARTONS_JS)}


def common_row(
    alice: dict[int, Rows], bruno: dict[int, Rows], chloe: dict[int, Rows]
) -> tuple[int, int, int, int, list[int]] | None:
    """A number x on a row of a carton of each: (x, Alice's, Bruno's, Chloé's carton, the
    balls to type, x last), the shortest draw."""
    best = None
    for a, ar in alice.items():
        for b, br in bruno.items():
            for c, cr in chloe.items():
                for ra in ar:
                    for rb in br:
                        for rc in cr:
                            for x in ra & rb & rc:
                                balls = [*sorted((ra | rb | rc) - {x}), x]
                                if best is None or len(balls) < len(best[4]):
                                    best = (x, a, b, c, balls)
    return best


def test_claims_as_the_hall_lives_them(
    db_url: str, app_url: str, browser: Browser, playwright: Playwright, results_dir: Path
) -> None:
    shot = Shots(results_dir)
    store = EveningStore(make_engine(db_url))
    tag = uuid.uuid4().hex[:6].upper()
    secret = f"secret-{uuid.uuid4().hex}"
    creds = store.create_evening(
        f"Soirée réclamations {tag}", program(f"R{tag}"), animateur_secret=secret
    )
    code = creds.join_code
    pages = HallPages(browser, playwright, app_url, code, WAIT_MS)

    try:
        anim = pages.tablet(secret)
        screen = pages.screen()

        phones: dict[str, Page] = {}
        for name in ("Alice", "Bruno", "Chloé"):
            # Chloé's is the smallest phone of the hall
            page = pages.player(name, SMALL_PHONE if name == "Chloé" else None)
            expect(page.get_by_text(f"Bonjour {name} !")).to_be_visible()
            phones[name] = page
        alice, bruno, chloe = phones.values()

        # cartons until one number lies on a row of a carton of each of the three
        plan = None
        for _ in range(8):
            for page in phones.values():
                n = len(cartons(page))
                buy(page, "buy-classique")
                expect(page.locator('[data-testid^="carton-"]')).to_have_count(n + 1)
            plan = common_row(cartons(alice), cartons(bruno), cartons(chloe))
            if plan is not None and len(cartons(chloe)) >= 2:
                break
        assert plan is not None, "no number on a row of a carton of each player"
        x, a_no, b_no, c_no, balls = plan
        c_other = next(n for n in cartons(chloe) if n != c_no)  # for a false claim

        def ball(n: int) -> None:
            anim.get_by_test_id("ball-input").fill(str(n))
            anim.get_by_test_id("ball-submit").click()
            for page in (anim, screen, *phones.values()):
                expect(page.get_by_test_id("last-number")).to_have_text(str(n))

        anim.get_by_test_id("start-game").click()
        expect(screen.get_by_test_id("announcement")).to_contain_text("Partie 1 :")
        # the physical boulier's note before the first number, not while the balls come out
        note = chloe.get_by_test_id("draw-commitment")
        expect(note).to_contain_text("rien n'est engagé")
        # the TV says no jargon about the lot ("divisible")
        expect(screen.get_by_test_id("stage")).to_contain_text("Bons d'achat de 40 €")
        expect(screen.locator("body")).not_to_contain_text("divisible")

        # ---- a mistyped ball: the correction is a deliberate action of its own, asked twice
        wrong = next(n for n in range(90, 0, -1) if n not in balls)
        ball(wrong)
        panel = anim.get_by_test_id("correct-panel")
        expect(panel).to_have_count(0)  # nothing beside the ball entry until asked for
        expect(anim.get_by_test_id("next-action").get_by_test_id("correct-input")).to_have_count(0)
        anim.get_by_test_id("correct-open").click()
        anim.get_by_test_id("correct-input").fill(str(balls[0]))
        anim.get_by_test_id("correct-submit").click()
        question = anim.get_by_test_id("correct-question")
        expect(question).to_contain_text(f"Remplacer le {wrong} par le {balls[0]}")
        shot(anim, "correction-demandee")
        anim.get_by_test_id("correct-cancel").click()  # "Non": nothing changes
        expect(panel).to_have_count(0)
        expect(screen.get_by_test_id("last-number")).to_have_text(str(wrong))
        anim.get_by_test_id("correct-open").click()
        anim.get_by_test_id("correct-input").fill(str(balls[0]))
        anim.get_by_test_id("correct-submit").click()
        anim.get_by_test_id("correct-confirm").click()
        for page in (anim, screen, *phones.values()):
            expect(page.get_by_test_id("last-number")).to_have_text(str(balls[0]))
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"Correction : le {wrong} est remplacé par le {balls[0]}."
        )
        expect(note).to_have_count(0)
        expect(panel).to_have_count(0)

        # ---- a stray tap never claims: it arms the button, which calms down by itself
        stray = chloe.get_by_test_id(f"claim-{c_no}")
        expect(stray).to_be_enabled()
        stray.tap()
        expect(stray).to_have_attribute("data-armed", re.compile("true|ready"))
        expect(stray).to_have_attribute("data-confirm", "Confirmer : QUINE ?")
        shot(chloe, "tap-arme-le-bouton")
        expect(stray).not_to_have_attribute("data-armed", re.compile(".*"), timeout=8_000)
        expect(chloe.get_by_test_id("verdict")).to_have_count(0)
        expect(anim.get_by_test_id("claims")).to_contain_text("Aucune annonce")
        shot(chloe, "tap-sans-annonce")

        # ---- a false claim, then a dispute reinstating the carton
        claim(chloe.get_by_test_id(f"claim-{c_other}"))
        expect(chloe.get_by_test_id("verdict")).to_contain_text("Fausse annonce")
        expect(chloe.get_by_test_id(f"carton-{c_other}")).to_have_attribute("data-annulled", "true")
        row = anim.locator('[data-testid^="claim-row-"]').first
        expect(row).to_have_attribute("data-verdict", "false")
        claim_no = int(row.get_attribute("data-testid").rsplit("-", 1)[1])
        expect(screen.get_by_test_id("readback")).to_have_attribute("data-kind", "false")
        shot(screen, "relecture-fausse-annonce-ecran", full_page=False)
        anim.get_by_test_id(f"dispute-{claim_no}").click()
        form = anim.get_by_test_id(f"dispute-form-{claim_no}")
        expect(form).to_be_visible()
        form.get_by_test_id("decision-reinstate").check()
        form.get_by_test_id("decision-confirm").click()  # no reason yet: refused, nothing done
        expect(form).to_contain_text("Écrivez le motif de la décision.")
        reason = "Le numéro avait été mal annoncé au micro"
        form.get_by_test_id("decision-reason").fill(reason)
        shot(anim, "litige-formulaire")
        form.get_by_test_id("decision-confirm").click()
        expect(form).to_have_count(0)
        expect(chloe.get_by_test_id(f"carton-{c_other}")).to_have_attribute(
            "data-annulled", "false"
        )
        expect(chloe.get_by_test_id("decisions")).to_contain_text(
            f"votre carton {c_other} joue de nouveau"
        )
        expect(chloe.get_by_test_id("decisions")).to_contain_text(reason)
        expect(anim.get_by_test_id("disputes")).to_contain_text(reason)
        shot(chloe, "litige-carton-retabli")

        # ---- x completes a row of each: Alice claims, the last call opens
        for n in balls[1:]:
            ball(n)
        claim(alice.get_by_test_id(f"claim-{a_no}"))
        expect(alice.get_by_test_id("verdict")).to_contain_text(f"Annonce valide sur le {x}")
        for page in (screen, anim, *phones.values()):
            expect(page.get_by_test_id("last-call")).to_contain_text("Pas d'autre quine ?")
        # only the players who could still claim are invited; Alice, whose claim is in, is
        # invited for her other cartons only: the one that claimed says so, the others may
        # still claim on x (issue 39: every carton of hers said "Annonce enregistrée")
        expect(alice.get_by_test_id("last-call-note")).to_have_text(
            "Votre annonce est valide. Un autre de vos cartons l'a aussi ? Annoncez-le maintenant !"
        )
        for name in ("Bruno", "Chloé"):
            expect(phones[name].get_by_test_id("last-call-note")).to_contain_text(
                "annoncez-le maintenant"
            )
        expect(alice.get_by_test_id(f"claim-{a_no}")).to_be_disabled()
        expect(alice.get_by_test_id(f"claim-{a_no}")).to_have_text("Annonce enregistrée")
        others = [n for n in cartons(alice) if n != a_no]
        assert others, "Alice has one carton only"
        for n in others:
            expect(alice.get_by_test_id(f"claim-{n}")).to_be_enabled()
            expect(alice.get_by_test_id(f"claim-{n}")).to_have_text("QUINE !")
        expect(anim.get_by_test_id("award")).to_be_disabled()  # "Dernier appel en cours…"
        expect(anim.get_by_test_id("award")).to_have_text("Dernier appel en cours…")
        # the read-back of Alice's carton: her row green, x circled
        for page in (screen, anim):
            rb = page.get_by_test_id("readback")
            expect(rb).to_contain_text(f"Contrôle — carton n° {a_no}")
            expect(rb).to_contain_text(f"Alice — Quine sur le {x} : Annonce valide")
            expect(rb.locator('[data-win="true"]')).to_have_count(5)
            expect(rb.locator('[data-last="true"]')).to_have_text(str(x))
        # Bruno, during the last call: he joins the ex aequo
        expect(bruno.get_by_test_id("last-call")).to_be_visible()
        claim(bruno.get_by_test_id(f"claim-{b_no}"))
        expect(bruno.get_by_test_id("verdict")).to_contain_text(f"Annonce valide sur le {x}")
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            f"QUINE ! Ex aequo : 2 gagnants sur le {x}."
        )
        expect(screen.get_by_test_id("last-call")).to_be_visible()  # still on
        # the tablet's next step, during the last call: wait (no share, no token yet)
        expect(anim.get_by_test_id("tie-wait")).to_be_disabled()
        expect(anim.get_by_test_id("tie-wait")).to_be_in_viewport()
        expect(anim.get_by_test_id("tie-share")).to_have_count(0)
        expect(anim.get_by_test_id("tokens-submit")).to_have_count(0)
        # the tie told in full: with whom, on each phone; both cartons read back
        expect(alice.get_by_test_id("verdict")).to_contain_text("ex aequo avec Bruno")
        expect(bruno.get_by_test_id("verdict")).to_contain_text("ex aequo avec Alice")
        for page in (screen, anim):
            rb = page.get_by_test_id("readback")
            expect(rb).to_contain_text("ex aequo : 2 cartons gagnants")
            expect(rb.get_by_test_id("readback-grid")).to_have_count(2)
            expect(rb.get_by_test_id("readback-label").first).to_contain_text(
                f"Alice — carton n° {a_no}"
            )
            expect(rb.get_by_test_id("readback-label").last).to_contain_text(
                f"Bruno — carton n° {b_no}"
            )
            expect(rb.locator('[data-win="true"]')).to_have_count(10)
        shot(screen, "dernier-appel-ecran", full_page=False)
        shot(anim, "dernier-appel-tablette", full_page=False)
        shot(chloe, "dernier-appel-telephone", full_page=False)
        shot(anim, "relecture-tablette")
        anim.set_viewport_size({"width": 1024, "height": 768})
        shot(anim, "relecture-tablette-1024")
        anim.set_viewport_size({"width": 1180, "height": 820})
        shot(screen, "relecture-ecran", full_page=False)
        for name, page in (("écran", screen), ("tablette", anim), ("téléphone", chloe)):
            no_serious_axe_violation(page, name)  # the last call, the read-back: 4.5:1

        # ---- the last call ends: the share is asked first, no token before a refusal
        started = time.monotonic()
        expect(screen.get_by_test_id("last-call")).to_have_count(0, timeout=(LAST_CALL + 20) * 1000)
        print(f"last call gone {time.monotonic() - started:.1f} s after the screenshots")
        expect(anim.get_by_test_id("share-first")).to_be_visible()
        expect(anim.get_by_test_id("tokens-submit")).to_have_count(0)  # after a refusal only
        share = anim.get_by_test_id("tie-share")
        expect(share).to_be_enabled()
        expect(share).to_be_in_viewport()  # the one next action, never below the fold
        shot(anim, "partage-d-abord")
        share.click()
        expect(alice.get_by_test_id("share-accept")).to_be_visible()
        # the question names the other player, the lot, and half each; nothing says otherwise
        expect(alice.get_by_test_id("share-question")).to_contain_text(
            "Partager le lot « Bons d'achat de 40 € » : moitié chacun ?"
        )
        expect(alice.get_by_text("Ex aequo avec Bruno !")).to_be_visible()
        expect(bruno.get_by_text("Ex aequo avec Alice !")).to_be_visible()
        for page in (alice, bruno):
            expect(page.get_by_test_id("verdict")).not_to_contain_text("attribuer le lot")
            expect(page.get_by_test_id("verdict")).to_contain_text("Répondez ci-dessous")
        shot(alice, "partage-question-telephone")
        alice.get_by_test_id("share-accept").click()
        expect(anim.get_by_test_id("share-pending")).to_be_visible()  # one yes is not enough
        expect(anim.get_by_test_id("tokens-submit")).to_have_count(0)
        bruno.get_by_test_id("share-refuse").click()
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            "Bruno refuse le partage : tirage au sort."
        )
        # the tokens drawn from the bag, typed in the order of the ex aequo
        tied = anim.get_by_test_id("bag-tokens")
        expect(tied).to_contain_text("Alice")
        expect(tied).to_contain_text("Bruno")
        expect(anim.get_by_test_id("token-0")).to_be_enabled()
        anim.get_by_test_id("token-0").fill("12")
        anim.get_by_test_id("token-1").fill("12")
        anim.get_by_test_id("tokens-submit").click()  # twice the same token: refused
        expect(anim.get_by_test_id("animateur-message")).to_contain_text("même numéro")
        anim.get_by_test_id("token-0").fill("12")
        anim.get_by_test_id("token-1").fill("47")
        shot(anim, "jetons-du-sac")
        anim.get_by_test_id("tokens-submit").click()
        expect(screen.get_by_test_id("announcement")).to_contain_text(
            "Jetons tirés du sac — Alice : 12, Bruno : 47. Bruno gagne !"
        )
        # the tablet's list of claims: Alice lost the tie, and got a free carton for game 2
        # (issue 39: it said "VALIDE … Annonce valide")
        lost = anim.locator('[data-testid^="claim-row-"][data-tie-lost="true"]')
        expect(lost).to_have_count(1)
        expect(lost).to_contain_text(f"Alice — carton {a_no} — Quine sur le {x}")
        expect(lost.locator(".rt-Badge").first).to_have_text("EX AEQUO PERDU")
        expect(lost).to_contain_text(
            "Ex aequo perdu au tirage des jetons : carton offert pour la partie 2"
        )
        won = anim.locator(
            '[data-testid^="claim-row-"][data-verdict="valid"][data-tie-lost="false"]'
        )
        expect(won).to_have_count(1)
        expect(won).to_contain_text(f"Bruno — carton {b_no}")
        expect(won.locator(".rt-Badge").first).to_have_text("VALIDE")
        shot(screen, "jetons-ecran", full_page=False)
        anim.get_by_test_id("award").click()
        expect(bruno.get_by_test_id("tickets")).to_contain_text("Bons d'achat de 40 €")
        expect(alice.get_by_test_id("verdict")).to_contain_text("un carton vous est offert")

        # ---- after the award, before the next number: the buttons say the next stage at once,
        # the two who claimed this number have nothing more to claim on it: the carton that
        # claimed says so, their others wait for the next number
        late = chloe.get_by_test_id(f"claim-{c_no}")
        expect(late).to_have_text("DOUBLE QUINE !")
        for page, no in ((alice, a_no), (bruno, b_no)):
            expect(page.get_by_test_id(f"claim-{no}")).to_have_text("Annonce enregistrée")
            playing = page.locator('[data-testid^="carton-"][data-plays="true"]')
            for button in playing.locator('[data-testid^="claim-"]').all():
                if button.get_attribute("data-testid") != f"claim-{no}":
                    expect(button).to_have_text("Attendez le numéro suivant")
                expect(button).to_be_disabled()
        # the free carton of the one who lost the tokens plays the next game only
        gift = alice.locator('[data-testid^="carton-"][data-plays="false"]')
        expect(gift.locator('[data-testid^="claim-"]')).to_have_text("Ne joue pas cette partie")
        expect(gift.locator('[data-drawn="true"]')).to_have_count(0)
        shot(chloe, "apres-attribution-double-quine")
        # Chloé's genuine quine, claimed now, is still judged on the quine: a réclamation
        claim(late)
        expect(chloe.get_by_test_id("verdict")).to_contain_text(
            f"était bon pour la quine sur le {x}"
        )
        expect(chloe.get_by_test_id("verdict")).to_contain_text("réclamation")
        expect(chloe.get_by_test_id(f"carton-{c_no}")).to_have_attribute("data-annulled", "false")
        reclamation = anim.locator('[data-testid^="claim-row-"][data-verdict="after_award"]')
        expect(reclamation).to_have_count(1)
        expect(reclamation).to_contain_text("RÉCLAMATION")
        expect(anim.get_by_test_id("reclamation-note")).to_be_visible()
        expect(screen.get_by_test_id("announcement")).to_contain_text("après l'attribution")
        shot(chloe, "reclamation-telephone")
        shot(anim, "reclamation-tablette")

        # ---- the organiser's report: the decision and the réclamation to settle
        org = pages.new_page(viewport={"width": 1280, "height": 900})
        org.goto(f"{app_url}/organisation")
        org.get_by_test_id("tab-signin").click()
        org.get_by_test_id("org-login-code").fill(code)
        org.get_by_test_id("org-login-secret").fill(creds.organiser_secret)
        org.get_by_test_id("org-login").click()
        org.get_by_test_id("report-show").click()
        decisions = org.get_by_test_id("report-decisions")
        expect(decisions).to_contain_text(f"Carton {c_other} rétabli dans la partie")
        expect(decisions).to_contain_text(reason)
        expect(decisions).to_contain_text("Réclamation à régler")
        decisions.scroll_into_view_if_needed()
        shot(org, "rapport-litiges")
        assert store.verify_audit(creds.evening_id) == []
    finally:
        pages.close()
