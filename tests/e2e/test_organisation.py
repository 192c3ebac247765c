"""The set-up: the organiser's page `/organisation` in a real browser.

* An evening is created through the form: settings, a program edited (a game removed, one moved,
  one added with its lots), a cash lot and a price of 20 € refused with the legal reason shown,
  then fixed; remote play switched on shows the legal warning and asks for a confirmation. The
  secrets are shown once; the program read back from the database is what was typed.
* The organiser signs in again with the organiser's secret in a fresh browser (a wrong secret
  is refused), stays signed in across a reload, adds a vendeur and a caissier (their secrets
  work at the desk's access check), withdraws and restores an access, checks the journal and
  looks at the report (the remote players' invitations: test_remote_play.py).
* An evening of the newer game types (a partie rapide, an inversée, a jackpot en 40 numéros
  settled by mort subite, a partie enfants on cartons at a price of their own) is built from
  each game's type, created, and announced by the règlement.
* The page is photographed at phone (390x844), tablet (820x1180) and laptop/TV (1920x1080)
  sizes into `test-results/` (the game types' form at 360x740 and 1180x820).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from axe_check import blocking_violations, describe
from gestures import buy, claim
from hall_pages import shots_at
from live_driver import Driver
from playwright.sync_api import expect
from sqlmodel import Session, select

from loto_app import network
from loto_app.domain.games import TieRule
from loto_app.domain.program import (
    LEGAL_CASH_MESSAGE,
    LEGAL_PRICE_MESSAGE,
    DrawSource,
    Kind,
    Pattern,
    Program,
    TieMethod,
    demo_program,
)
from loto_app.live.runtime import registry
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 20_000
SIZES = {"phone": (390, 844), "tablet": (820, 1180), "laptop": (1920, 1080)}


def open_page(browser: Browser, app_url: str, size: str = "laptop") -> Page:
    w, h = SIZES[size]
    context = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
    page = context.new_page()
    page.goto(app_url + "/organisation")
    expect(page.get_by_test_id("title")).to_be_visible(timeout=60_000)
    return page


def wait_connected(page: Page) -> None:
    """The page's state is hydrated (the on_load handler ran): a new visitor is asked what they
    want to do; the creation form, its first step, shows today's date."""
    expect(page.get_by_test_id("org-choice")).to_be_visible(timeout=WAIT_MS)
    page.get_by_test_id("tab-create").click()
    expect(page.get_by_test_id("org-date")).not_to_have_value("", timeout=WAIT_MS)


def fill(page: Page, testid: str, value: str, shown: str | None = None) -> None:
    box = page.get_by_test_id(testid)
    box.fill(value)
    box.blur()  # the debounced input reports on blur at once
    expect(box).to_have_value(value if shown is None else shown)


def edit_game(page: Page, i: int) -> None:
    """Open game i's lots (the form shows one game's lots at a time)."""
    if page.get_by_test_id(f"game-{i}-type").count() == 0:
        page.get_by_test_id(f"game-{i}-open").click()
    expect(page.get_by_test_id(f"game-{i}-type")).to_be_visible()


def shots(page: Page, results_dir: Path, name: str) -> None:
    """Full-page screenshots at the three sizes (the page keeps its state), then the laptop's
    size again."""
    shots_at(page, results_dir, name, SIZES)
    page.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})


def evening_row(db_url: str, code: str) -> m.EveningRow:
    with Session(make_engine(db_url)) as s:
        row = s.exec(select(m.EveningRow).where(m.EveningRow.join_code == code)).one()
        s.expunge(row)
        return row


def test_create_an_evening_through_the_form(
    app_url: str, db_url: str, browser: Browser, results_dir: Path
) -> None:
    page = open_page(browser, app_url)
    try:
        expect(page.get_by_test_id("org-choice")).to_be_visible(timeout=WAIT_MS)
        shots(page, results_dir, "choice")
        wait_connected(page)
        shots(page, results_dir, "create-form")
        page.get_by_test_id("step-2").click()
        expect(page.get_by_test_id("game-5")).to_be_visible()  # the typical program, prefilled
        page.get_by_test_id("step-1").click()

        name = f"Loto du comité des fêtes {uuid.uuid4().hex[:6]}"
        fill(page, "org-name", name)
        fill(page, "org-date", "2031-03-15")
        fill(page, "org-series", "b7", shown="B7")
        page.get_by_test_id("step-next").click()  # (the form's steps keep what was typed)
        page.get_by_test_id("step-4").click()
        page.get_by_test_id("draw_source-physical").click()
        page.get_by_test_id("tie_method-draw").click()
        page.get_by_test_id("org-auto-marking").click()
        fill(page, "org-stream", "https://video.example.org/loto")

        # the program: drop the spéciale game, move the vitrine up, add a spéciale at the end
        page.get_by_test_id("step-2").click()
        expect(page.get_by_test_id("game-2-summary")).to_contain_text("Partie spéciale")  # folded
        expect(page.get_by_test_id("stage-2-0-desc")).to_have_count(0)
        edit_game(page, 2)
        expect(page.get_by_test_id("game-2-type")).to_have_value("speciale")
        expect(page.get_by_test_id("game-2-kind")).to_have_value("special")
        expect(page.get_by_test_id("game-0-type")).to_have_count(0)  # one game open at a time
        page.get_by_test_id("game-2-remove").click()
        expect(page.get_by_test_id("game-5")).to_have_count(0)
        expect(page.get_by_test_id("game-2-summary")).to_contain_text("Partie vitrine")
        page.get_by_test_id("game-2-up").click()
        expect(page.get_by_test_id("game-1-summary")).to_contain_text("Partie vitrine")
        expect(page.get_by_test_id("game-2-summary")).to_contain_text("Partie classique")
        page.get_by_test_id("add-game").click()
        expect(page.get_by_test_id("game-5-type")).to_have_value("classique")  # opened
        page.get_by_test_id("game-5-type").select_option("speciale")
        expect(page.get_by_test_id("game-5-kind")).to_have_value("special")
        fill(page, "stage-5-0-desc", "Bon d'achat de 100 €")
        fill(page, "stage-5-0-value", "100")
        page.get_by_test_id("stage-5-0-divisible").click()
        # the second classique game: quine, double quine (added) and carton plein
        edit_game(page, 2)
        page.get_by_test_id("stage-2-1-on").click()
        fill(page, "stage-2-1-desc", "Lot de bouteilles")
        fill(page, "stage-2-1-value", "35,50")
        edit_game(page, 0)
        fill(page, "stage-0-0-desc", "Jambon sec")
        fill(page, "stage-0-0-value", "45")
        page.get_by_test_id("game-0-title").fill("Partie d'ouverture")
        page.get_by_test_id("game-0-title").blur()

        # a cash lot: refused with the reason, at once and when creating
        page.get_by_test_id("stage-0-2-cash").click()
        expect(page.get_by_test_id("stage-0-2-problem")).to_have_text(LEGAL_CASH_MESSAGE)
        page.get_by_test_id("org-create").click()
        error = page.get_by_test_id("org-form-error")
        expect(error).to_contain_text("Partie 1, Carton plein")
        expect(error).to_contain_text(LEGAL_CASH_MESSAGE)
        expect(page.get_by_test_id("step-2")).to_have_attribute("aria-current", "step")
        shots(page, results_dir, "refused-cash-lot")
        page.get_by_test_id("stage-0-2-cash").click()
        expect(page.get_by_test_id("stage-0-2-problem")).to_have_count(0)

        # a price of 20 euros: refused with the legal reason (the form shows the tariff's step)
        page.get_by_test_id("step-3").click()
        fill(page, "offer-0-price", "20")
        expect(page.get_by_test_id("offer-0-problem")).to_have_text(LEGAL_PRICE_MESSAGE)
        page.get_by_test_id("org-create").click()
        expect(error).to_contain_text("Tarif 1")
        expect(error).to_contain_text(LEGAL_PRICE_MESSAGE)
        fill(page, "offer-0-price", "2,50")
        expect(page.get_by_test_id("offer-0-problem")).to_have_count(0)

        # remote play: the legal warning, and a confirmation before creating
        page.get_by_test_id("step-4").click()
        expect(page.get_by_test_id("org-remote-warning")).to_have_count(0)
        page.get_by_test_id("org-remote").click()
        expect(page.get_by_test_id("org-remote-warning")).to_contain_text("cercle restreint")
        expect(page.get_by_test_id("org-remote-warning")).to_contain_text("L322-4")
        page.get_by_test_id("org-create").click()
        expect(error).to_contain_text("Jeu à distance")
        page.get_by_test_id("org-remote-ack").click()
        fill(page, "org-remote-cap", "25")

        page.get_by_test_id("org-create").click()
        creds = page.get_by_test_id("credentials")
        expect(creds).to_be_visible(timeout=WAIT_MS)
        code = page.get_by_test_id("new-code").inner_text().strip()
        animateur = page.get_by_test_id("new-animateur").inner_text().strip()
        organiser = page.get_by_test_id("new-organiser").inner_text().strip()
        assert re.fullmatch(r"[A-Z2-9]{6}", code), code
        expect(creds).to_contain_text("ne seront plus affichées")
        # the links phones can open: on 127.0.0.1 (this test's browser), the LAN address instead
        reach = network.public_origin({"origin": app_url, "host": app_url.split("//")[1]}, "")
        expect(page.get_by_test_id("link-players")).to_have_text(f"{reach}/?code={code}")
        expect(page.get_by_test_id("link-screen")).to_have_text(f"{reach}/ecran?code={code}")
        shots(page, results_dir, "created")

        # the program in the database is what was typed
        row = evening_row(db_url, code)
        assert (row.name, row.date) == (name, "2031-03-15")
        program = Program.from_dict(row.program)
        st = program.settings
        assert program.series == "B7"
        assert st.draw_source is DrawSource.PHYSICAL
        assert st.tie_method is TieMethod.DRAW
        assert (st.auto_marking, st.claim_hint, st.remote_play) == (True, False, True)
        assert (st.remote_cap, st.remote_confirmed) == (25, True)
        assert st.stream_url == "https://video.example.org/loto"
        assert [g.kind for g in program.games] == [
            Kind.CLASSIQUE,
            Kind.VITRINE,
            Kind.CLASSIQUE,
            Kind.MAXIQUINE,
            Kind.MAXIQUINE,
            Kind.SPECIAL,
        ]
        demo = demo_program().games
        g0 = program.games[0]
        assert g0.title == "Partie d'ouverture"
        assert [(s.pattern, s.lot.description, s.lot.value_cents) for s in g0.stages] == [
            (Pattern.ONE_LINE, "Jambon sec", 4500),
            (Pattern.TWO_LINES, "Bon d'achat de 50 €", 5000),
            (Pattern.FULL_CARD, "Téléviseur", 30000),
        ]
        assert not any(s.lot.cash for g in program.games for s in g.stages)
        assert program.games[1] == demo[3]
        assert [
            (s.pattern, s.lot.description, s.lot.value_cents) for s in program.games[2].stages
        ] == [
            (Pattern.ONE_LINE, "Jambon", 2500),
            (Pattern.TWO_LINES, "Lot de bouteilles", 3550),
            (Pattern.FULL_CARD, "Vélo", 20000),
        ]
        assert program.games[3:5] == demo[4:6]
        special = program.games[5].stages
        assert [
            (s.pattern, s.lot.description, s.lot.value_cents, s.lot.divisible) for s in special
        ] == [(Pattern.FULL_CARD, "Bon d'achat de 100 €", 10000, True)]
        prices = [(o.kind, o.quantity, o.price_cents, o.planche) for o in program.offers]
        expected = [(o.kind, o.quantity, o.price_cents, o.planche) for o in demo_program().offers]
        expected[0] = (Kind.CLASSIQUE, 1, 250, False)
        assert prices == expected

        # the secrets shown work
        store = EveningStore(make_engine(db_url))
        access = AccessStore(store.engine)
        assert access.check_animateur(row.id, animateur)
        assert access.check_organiser(row.id, organiser)

        # shown once: gone when noted, and not back after a reload (still signed in)
        page.get_by_test_id("credentials-done").click()
        expect(creds).to_have_count(0)
        page.reload()
        expect(page.get_by_test_id("org-evening")).to_have_text(name, timeout=WAIT_MS)
        expect(creds).to_have_count(0)
        expect(page.get_by_test_id("remote-count")).to_contain_text("0 sur 25")
    finally:
        page.context.close()


@pytest.fixture
def evening(db_url: str) -> tuple[int, str, str]:
    """An evening with remote play, created in the database: (id, join code, organiser secret)."""
    program = demo_program("C")
    program = Program.from_dict(
        {
            **program.to_dict(),
            "settings": {
                **program.to_dict()["settings"],
                "remote_play": True,
                "remote_cap": 10,
                "remote_confirmed": True,
            },
        }
    )
    secret = f"org-{uuid.uuid4().hex[:12]}"
    creds = EveningStore(make_engine(db_url)).create_evening(
        "Loto de printemps", program, date="2031-04-20", organiser_secret=secret
    )
    return creds.evening_id, creds.join_code, secret


def sign_in(page: Page, code: str, secret: str) -> None:
    page.get_by_test_id("tab-signin").click()
    fill(page, "org-login-code", code)
    fill(page, "org-login-secret", secret)
    page.get_by_test_id("org-login").click()


def test_sign_in_and_manage_the_desk(
    app_url: str,
    db_url: str,
    browser: Browser,
    results_dir: Path,
    evening: tuple[int, str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evening_id, code, secret = evening
    access = AccessStore(make_engine(db_url))
    page = open_page(browser, app_url, "tablet")
    try:
        wait_connected(page)
        # a wrong secret (and a right secret with another code) is refused
        sign_in(page, code, secret + "x")
        expect(page.get_by_test_id("org-login-error")).to_contain_text("incorrect")
        sign_in(page, "ZZZZZZ", secret)
        expect(page.get_by_test_id("org-login-error")).to_contain_text("incorrect")
        expect(page.get_by_test_id("org-evening")).to_have_count(0)
        shots(page, results_dir, "sign-in-refused")

        sign_in(page, code.lower(), secret)
        expect(page.get_by_test_id("org-evening")).to_have_text("Loto de printemps")
        page.reload()  # still signed in: the browser remembers, the server checks again
        expect(page.get_by_test_id("org-evening")).to_have_text("Loto de printemps")

        # the desk's staff: a vendeur and a caissier, each with a secret shown once
        secrets_ = {}
        for name, role in (("Alice", "vendeur"), ("Bruno", "caissier")):
            fill(page, "staff-name", name)
            page.get_by_test_id("staff-role").select_option(role)
            page.get_by_test_id("staff-add").click()
            shown = page.get_by_test_id("staff-secret")
            expect(shown).to_be_visible()
            expect(page.get_by_test_id(f"staff-{name}")).to_contain_text(role.capitalize())
            secrets_[name] = shown.inner_text().strip()
            member = access.staff_for_secret(evening_id, secrets_[name])
            assert member is not None and (member.name, member.role) == (name, role)
            if name == "Alice":
                page.get_by_test_id("staff-secret-done").click()
                expect(shown).to_have_count(0)
        fill(page, "staff-name", "Alice")
        page.get_by_test_id("staff-add").click()
        expect(page.get_by_test_id("staff-message")).to_contain_text("existe déjà")

        page.get_by_test_id("staff-withdraw-Alice").click()
        expect(page.get_by_test_id("staff-Alice")).to_contain_text("Accès retiré")
        assert access.staff_for_secret(evening_id, secrets_["Alice"]) is None
        page.get_by_test_id("staff-restore-Alice").click()
        expect(page.get_by_test_id("staff-Alice")).to_contain_text("Accès actif")
        assert access.staff_for_secret(evening_id, secrets_["Alice"]) is not None

        # records: the journal, the report, no paper carton yet
        page.get_by_test_id("audit-verify").click()
        expect(page.get_by_test_id("audit-message")).to_have_text(
            re.compile(r"^Journal intègre \(\d+ entrées?\)\.$")
        )
        page.get_by_test_id("report-show").click()
        expect(page.get_by_test_id("report-summary")).to_contain_text("Parties jouées")
        expect(page.get_by_test_id("report-summary")).to_contain_text("0 sur 6")
        page.get_by_test_id("paper-pdf").click()
        expect(page.get_by_test_id("records-message")).to_contain_text("Aucun carton papier")
        # a paper player buys a planche at the desk: its 6 cartons print as a PDF
        # The desk in another worker: the app's registry is no longer the database's only writer
        # (in production, several workers run with REFLEX_REDIS_URL; registry.py)
        monkeypatch.setattr(registry.default(), "sole_writer", False)
        with Driver(EveningStore(make_engine(db_url))) as desk:  # another process's registry
            live = desk.on(evening_id)
            pid, _ = live.join("Mme Papier", "paper")
            planche = next(i for i, o in enumerate(live.evening.program.offers) if o.planche)
            live.run(lambda e: e.desk_sale(pid, planche, "cash", "Alice"))
        with page.expect_download() as dl:
            page.get_by_test_id("paper-pdf").click()
        assert dl.value.suggested_filename == f"cartons-papier-{code}.pdf"
        assert Path(dl.value.path()).read_bytes().startswith(b"%PDF")
        expect(page.get_by_test_id("records-message")).to_have_text("6 cartons papier.")
        with page.expect_download() as dl:
            page.get_by_test_id("report-csv").click()
        assert dl.value.suggested_filename == f"rapport-{code}.csv"
        assert "Mme Papier" in Path(dl.value.path()).read_text(encoding="utf-8-sig")
        with page.expect_download() as dl:
            page.get_by_test_id("report-pdf").click()
        assert Path(dl.value.path()).read_bytes().startswith(b"%PDF")
        page.get_by_test_id("report-show").click()
        expect(page.get_by_test_id("report-summary")).to_contain_text("Cartons papier")
        expect(page.get_by_test_id("report-summary")).to_contain_text("15 €")
        shots(page, results_dir, "signed-in")

        # a reset organiser secret stops the signed-in page at its next action
        access.reset_organiser_secret(evening_id)
        page.get_by_test_id("audit-verify").click()
        expect(page.get_by_test_id("org-login-error")).to_contain_text("n'est plus valable")
        expect(page.get_by_test_id("org-evening")).to_have_count(0)
    finally:
        page.context.close()


def test_a_program_is_edited_before_its_game(
    app_url: str,
    db_url: str,
    browser: Browser,
    results_dir: Path,
    phone: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The organiser changes a lot and a stage of game 2 while game 1 is in play;
    an edit of game 1 that reached the server after game 1 started is refused in French; the
    règlement, the animateur and the phone follow the new program."""
    store = EveningStore(make_engine(db_url))
    secret, animateur = f"org-{uuid.uuid4().hex[:12]}", f"anim-{uuid.uuid4().hex[:12]}"
    program = demo_program("M").with_settings(free_cartons=True, last_call_seconds=0)
    creds = store.create_evening(
        "Loto modifié", program, organiser_secret=secret, animateur_secret=animateur
    )
    code, eid = creds.join_code, creds.evening_id
    page = open_page(browser, app_url, "tablet")
    page.set_viewport_size({"width": 1180, "height": 820})
    try:
        expect(page.get_by_test_id("org-choice")).to_be_visible(timeout=WAIT_MS)
        sign_in(page, code, secret)
        expect(page.get_by_test_id("org-evening")).to_have_text("Loto modifié", timeout=WAIT_MS)

        # the organiser attaches the hall TV by the code it shows (the animateur's path)
        tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        tv.goto(f"{app_url}/ecran")
        shown = tv.get_by_test_id("pair-code")
        expect(shown).to_have_text(re.compile(r"^[0-9A-Z]{6}$"), timeout=WAIT_MS)
        page.get_by_test_id("pair-code").fill(shown.inner_text().lower())
        page.get_by_test_id("pair-submit").click()
        expect(page.get_by_test_id("pair-message")).to_contain_text("Écran relié")
        tv.wait_for_url(f"**/ecran?code={code}", timeout=WAIT_MS)

        # the organiser opens the program before any game and changes game 1's first lot...
        page.get_by_test_id("org-edit-open").click()
        expect(page.get_by_test_id("org-edit-note")).to_contain_text("Aucune partie")
        fill(page, "stage-0-0-desc", "Jambon sec")
        # ... meanwhile the animateur starts game 1 (another worker's registry: the database)
        monkeypatch.setattr(registry.default(), "sole_writer", False)  # (another worker, as above)
        with Driver(EveningStore(make_engine(db_url))) as other:
            live = other.on(eid)
            live.run(lambda e: e.start_game())
            for _ in range(89):  # (no carton sold yet: nobody can win game 1)
                live.run(lambda e: e.draw())
        page.get_by_test_id("org-edit-save").click()
        error = page.get_by_test_id("org-form-error")
        expect(error).to_have_text(
            "La partie 1 a commencé : elle ne peut plus être modifiée.", timeout=WAIT_MS
        )
        assert store.current_program(eid) == program  # nothing changed
        expect(page.get_by_test_id("game-0")).to_have_attribute("data-locked", "true")
        shots(page, results_dir, "amend-refused")

        # back to the program as it is now: game 1 locked; game 2 edited and saved
        page.get_by_test_id("org-reset").click()
        expect(page.get_by_test_id("game-0")).to_have_attribute("data-locked", "true")
        expect(page.get_by_test_id("game-0")).to_contain_text("En cours")
        expect(page.get_by_test_id("stage-0-0-desc")).to_have_count(0)
        expect(page.get_by_test_id("org-edit-note")).to_contain_text("La partie 1 a commencé")
        fill(page, "stage-1-0-desc", "Cafetière")
        fill(page, "stage-1-0-value", "45")
        page.get_by_test_id("stage-1-1-on").click()  # a double quine added
        fill(page, "stage-1-1-desc", "Bouteilles de cidre")
        page.get_by_test_id("step-3").click()
        expect(page.get_by_test_id("org-tariff-note")).to_contain_text("gardent le prix payé")
        page.get_by_test_id("org-edit-save").click()
        expect(page.get_by_test_id("org-edit-saved")).to_contain_text(
            "Programme enregistré", timeout=WAIT_MS
        )
        expect(error).to_have_count(0)
        now = store.current_program(eid)
        assert now.games[0] == program.games[0]
        assert [(s.pattern, s.lot.description, s.lot.value_cents) for s in now.games[1].stages] == [
            (Pattern.ONE_LINE, "Cafetière", 4500),
            (Pattern.TWO_LINES, "Bouteilles de cidre", 0),
            (Pattern.FULL_CARD, "Vélo", 20000),
        ]
        assert now.games[2:] == program.games[2:]
        found = blocking_violations(page)
        assert not found, f"/organisation (editing): {describe(found)}"
        shots(page, results_dir, "amend-saved")

        # the règlement, on a phone, reads the new program
        player = browser.new_context(**phone).new_page()
        player.goto(f"{app_url}/reglement?code={code}")
        expect(player.get_by_text("Cafetière", exact=False).first).to_be_visible(timeout=WAIT_MS)
        expect(player.get_by_text("Bouteilles de cidre", exact=False).first).to_be_visible()

        # a player buys a carton (it plays from game 2), the animateur ends game 1 and starts 2
        player.goto(f"{app_url}/?code={code}")
        player.get_by_test_id("join-name").fill("Mamie Jo")
        player.get_by_test_id("join-submit").click()
        player.wait_for_url("**/jouer")
        buy(player, "buy-classique")
        expect(player.locator("[data-testid^=carton-]")).to_have_count(1, timeout=WAIT_MS)
        anim = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
        anim.goto(f"{app_url}/animateur")
        anim.get_by_test_id("animateur-code").fill(code)
        anim.get_by_test_id("animateur-secret").fill(animateur)
        anim.get_by_test_id("animateur-login").click()
        anim.get_by_test_id("draw").click()  # the 90th number: game 1 is over, nobody won
        expect(anim.get_by_test_id("allow-unmark")).to_be_enabled(timeout=WAIT_MS)
        claim(anim.get_by_test_id("allow-unmark"))
        anim.get_by_test_id("next-game").click()
        expect(anim.get_by_text("Quine — Cafetière")).to_be_visible(timeout=WAIT_MS)
        expect(player.get_by_test_id("stage")).to_have_text("Quine : Cafetière", timeout=WAIT_MS)
        anim.screenshot(path=results_dir / "amend-animateur.png")
        player.screenshot(path=results_dir / "amend-phone.png")
        # game 2 has started: it is locked in the organiser's editor too
        page.get_by_test_id("org-edit-cancel").click()
        page.get_by_test_id("org-edit-open").click()
        expect(page.get_by_test_id("game-1")).to_have_attribute("data-locked", "true")
    finally:
        page.context.close()


#: the sizes the game types' form is looked at: a small phone, the organiser's tablet
FORM_SIZES = {"360x740": (360, 740), "1180x820": (1180, 820)}


def test_an_evening_of_new_game_types(
    app_url: str, db_url: str, browser: Browser, results_dir: Path
) -> None:
    """The organiser builds an evening of a partie rapide, an inversée, a jackpot en 40
    numéros settled by mort subite and a partie enfants of 3 winners on its own cartons at a
    price of their own; every choice comes from the game's type. The evening is created and
    the règlement announces each game."""
    page = open_page(browser, app_url, "phone")
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        wait_connected(page)
        page.get_by_test_id("step-2").click()
        for i in range(5, 0, -1):  # the typical program's first game only
            page.get_by_test_id(f"game-{i}-remove").click()
            expect(page.get_by_test_id(f"game-{i}")).to_have_count(0)

        # game 1: the classique becomes a partie rapide (its quine's lot kept, nothing to untick)
        edit_game(page, 0)
        types = page.get_by_test_id("game-0-type").locator("option").all_inner_texts()
        assert types == [
            "Partie classique",
            "Partie rapide",
            "Double quine seule",
            "Gros lot",
            "Quine et carton",
            "Double quine et carton",
            "Partie spéciale",
            "Partie vitrine",
            "Partie maxiquine",
            "Partie inversée",
            "Partie enfants",
            "Jackpot",
        ]
        page.get_by_test_id("game-0-type").select_option("rapide")
        expect(page.get_by_test_id("stage-0-0-name")).to_have_text("Quine")
        expect(page.get_by_test_id("stage-0-0-on")).to_have_count(0)
        expect(page.get_by_test_id("stage-0-0-desc")).to_have_value("Panier garni")
        expect(page.get_by_test_id("stage-1-0-desc")).to_have_count(0)
        kinds = page.get_by_test_id("game-0-kind").locator("option").all_inner_texts()
        assert kinds == [
            "Cartons classiques",
            "Cartons verts",
            "Cartons jaunes",
            "Cartons bleus",
            "Cartons roses",
        ]

        # game 2: an inversée (its tie rules: no mort subite)
        page.get_by_test_id("add-game").click()
        page.get_by_test_id("game-1-type").select_option("inversee")
        expect(page.get_by_test_id("game-1-summary-text")).to_contain_text("éliminé")
        ties = page.get_by_test_id("game-1-tie").locator("option").all_inner_texts()
        assert "Mort subite (boules supplémentaires entre les ex aequo)" not in ties
        assert ties[0] == "Règle de la soirée"
        fill(page, "stage-1-0-desc", "Panier du terroir")

        # game 3: a jackpot en 40 numéros, mort subite, and its consolation
        page.get_by_test_id("add-game").click()
        page.get_by_test_id("game-2-type").select_option("jackpot")
        page.get_by_test_id("game-2-tie").select_option("sudden_death")
        expect(page.get_by_test_id("stage-2-0-within")).to_have_value("50")
        fill(page, "stage-2-0-within", "10")
        expect(page.get_by_test_id("stage-2-0-problem")).to_have_text(
            "Le jackpot se joue en 15 à 89 numéros."
        )
        fill(page, "stage-2-0-desc", "Week-end à la mer")
        fill(page, "stage-2-0-value", "400")
        fill(page, "stage-2-1-desc", "Bon d'achat de 30 €")
        shots_at(page, results_dir, "types-jackpot", FORM_SIZES)

        # game 4: a partie enfants, 3 winners, on the enfants' cartons
        page.get_by_test_id("add-game").click()
        page.get_by_test_id("game-3-type").select_option("enfants")
        expect(page.get_by_test_id("game-3-kind-only")).to_have_text("Cartons enfants")
        expect(page.get_by_test_id("org-tariff-added")).to_contain_text("cartons enfants")
        page.get_by_test_id("game-3-winners").select_option("3")
        for j, lot in enumerate(["Peluche", "Ballon", "Livre de contes"]):
            expect(page.get_by_test_id(f"stage-3-{j}-name")).to_contain_text("gagnant (quine)")
            fill(page, f"stage-3-{j}-desc", lot)
        shots_at(page, results_dir, "types-program", FORM_SIZES)

        # the jackpot's 10 numbers are refused on creation, on its game
        page.get_by_test_id("org-create").click()
        error = page.get_by_test_id("org-form-error")
        expect(error).to_have_text(
            "Partie 3\u00a0: Jackpot\u00a0: le nombre de numéros va de 15 à 89."
        )
        expect(page.get_by_test_id("game-2-type")).to_be_visible()  # (opened there)
        fill(page, "stage-2-0-within", "40")
        expect(page.get_by_test_id("stage-2-0-problem")).to_have_count(0)

        # the tariff: a group per kind of cartons played; the enfants' at a price of their own
        page.get_by_test_id("step-3").click()
        expect(page.get_by_test_id("offers-classique")).to_contain_text("Parties 1, 2 et 3")
        expect(page.get_by_test_id("offers-enfant")).to_contain_text("Partie 4")
        expect(page.get_by_test_id("offers-none")).to_contain_text("Aucune partie")
        expect(page.get_by_test_id("offers-enfant").get_by_text("Planche de 6")).to_have_count(0)
        shots_at(page, results_dir, "types-tariff-before", FORM_SIZES)
        page.get_by_test_id("usual-offers").click()
        expect(page.get_by_test_id("offers-none")).to_have_count(0)
        price = page.get_by_test_id("offers-enfant").locator("[data-testid$='-price']")
        expect(price).to_have_count(1)
        price.fill("1,50")
        price.blur()
        expect(price).to_have_value("1,50")
        shots_at(page, results_dir, "types-tariff", FORM_SIZES)

        page.get_by_test_id("org-create").click()
        expect(page.get_by_test_id("credentials")).to_be_visible(timeout=WAIT_MS)
        code = page.get_by_test_id("new-code").inner_text().strip()
        program = Program.from_dict(evening_row(db_url, code).program)
        assert [g.type for g in program.games] == ["rapide", "inversee", "jackpot", "enfants"]
        rapide, inversee, jackpot, kids = program.games
        assert [(s.pattern, s.lot.description) for s in rapide.stages] == [
            (Pattern.ONE_LINE, "Panier garni")
        ]
        assert inversee.stages[0].pattern is Pattern.LAST_STANDING
        assert jackpot.tie is TieRule.SUDDEN_DEATH
        assert [(s.within, s.lot.description, s.lot.value_cents) for s in jackpot.stages] == [
            (40, "Week-end à la mer", 40000),
            (0, "Bon d'achat de 30 €", 0),
        ]
        assert kids.kind is Kind.ENFANT
        assert [s.lot.description for s in kids.stages] == ["Peluche", "Ballon", "Livre de contes"]
        enfants = [(o.quantity, o.price_cents) for o in program.offers if o.kind is Kind.ENFANT]
        assert enfants == [(1, 150)]

        # the règlement announces each game, its rule and the enfants' price
        page.goto(f"{app_url}/reglement?code={code}")
        articles = page.get_by_test_id("reglement-article")
        expect(articles.first).to_be_visible(timeout=WAIT_MS)
        text = page.locator("body").inner_text()
        for said in (
            "Partie 1 (partie rapide, cartons classiques",
            "Partie 2 (partie inversée",
            "Partie 3 (jackpot",
            "Carton plein en 40 numéros",
            "Ex aequo\u00a0: mort subite",
            "Partie 4 (partie enfants, cartons enfants",
            "Peluche",
            "Livre de contes",
            "1,50 €",
        ):
            assert said in text, f"the règlement does not say {said!r}"
        shots_at(page, results_dir, "types-reglement", FORM_SIZES)
    finally:
        page.context.close()
