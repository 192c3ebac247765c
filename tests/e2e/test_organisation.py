"""Issue 5 (set-up): the organiser's page `/organisation` in a real browser.

* An evening is created through the form: settings, a program edited (a game removed, one moved,
  one added with its lots), a cash lot and a price of 20 € refused with the legal reason shown,
  then fixed; remote play switched on shows the legal warning and asks for a confirmation. The
  secrets are shown once; the program read back from the database is what was typed.
* The organiser signs in again with the organiser's secret in a fresh browser (a wrong secret
  is refused), stays signed in across a reload, adds a vendeur and a caissier (their secrets
  work at the desk's access check), withdraws and restores an access, renews the invitation
  link, checks the journal and looks at the report.
* The page is photographed at phone (390x844), tablet (820x1180) and laptop/TV (1920x1080)
  sizes into `test-results/`.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from live_driver import Driver
from playwright.sync_api import expect
from sqlmodel import Session, select

from loto_app import network
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
    """The page's state is hydrated (the on_load handler ran): the form shows today's date."""
    expect(page.get_by_test_id("org-date")).not_to_have_value("", timeout=WAIT_MS)


def fill(page: Page, testid: str, value: str, shown: str | None = None) -> None:
    box = page.get_by_test_id(testid)
    box.fill(value)
    box.blur()  # the debounced input reports on blur at once
    expect(box).to_have_value(value if shown is None else shown)


def shots(page: Page, results_dir: Path, name: str) -> None:
    """Full-page screenshots at the three sizes (the page keeps its state)."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        page.screenshot(path=results_dir / f"{name}-{size}.png", full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w + 1, f"{name} at {size}: the page is {width} px wide"
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
        wait_connected(page)
        expect(page.get_by_test_id("game-5")).to_be_visible()  # the typical program, prefilled
        shots(page, results_dir, "create-form")

        name = f"Loto du comité des fêtes {uuid.uuid4().hex[:6]}"
        fill(page, "org-name", name)
        fill(page, "org-date", "2031-03-15")
        fill(page, "org-series", "b7", shown="B7")
        page.get_by_test_id("draw_source-physical").click()
        page.get_by_test_id("tie_method-draw").click()
        page.get_by_test_id("org-auto-marking").click()
        fill(page, "org-stream", "https://video.example.org/loto")

        # the program: drop the spéciale game, move the vitrine up, add a spéciale at the end
        expect(page.get_by_test_id("game-2-kind")).to_have_value("special")
        page.get_by_test_id("game-2-remove").click()
        expect(page.get_by_test_id("game-5")).to_have_count(0)
        expect(page.get_by_test_id("game-2-kind")).to_have_value("vitrine")
        page.get_by_test_id("game-2-up").click()
        expect(page.get_by_test_id("game-1-kind")).to_have_value("vitrine")
        expect(page.get_by_test_id("game-2-kind")).to_have_value("classique")
        page.get_by_test_id("add-game-special").click()
        expect(page.get_by_test_id("game-5-kind")).to_have_value("special")
        fill(page, "stage-5-0-desc", "Bon d'achat de 100 €")
        fill(page, "stage-5-0-value", "100")
        page.get_by_test_id("stage-5-0-divisible").click()
        # the second classique game: quine, double quine (added) and carton plein
        page.get_by_test_id("stage-2-1-on").click()
        fill(page, "stage-2-1-desc", "Lot de bouteilles")
        fill(page, "stage-2-1-value", "35,50")
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
        shots(page, results_dir, "refused-cash-lot")
        page.get_by_test_id("stage-0-2-cash").click()
        expect(page.get_by_test_id("stage-0-2-problem")).to_have_count(0)

        # a price of 20 euros: refused with the legal reason
        fill(page, "offer-0-price", "20")
        expect(page.get_by_test_id("offer-0-problem")).to_have_text(LEGAL_PRICE_MESSAGE)
        page.get_by_test_id("org-create").click()
        expect(error).to_contain_text("Tarif 1")
        expect(error).to_contain_text(LEGAL_PRICE_MESSAGE)
        fill(page, "offer-0-price", "2,50")
        expect(page.get_by_test_id("offer-0-problem")).to_have_count(0)

        # remote play: the legal warning, and a confirmation before creating
        expect(page.get_by_test_id("org-remote-warning")).to_have_count(0)
        page.get_by_test_id("org-remote").click()
        expect(page.get_by_test_id("org-remote-warning")).to_contain_text("cercle restreint")
        expect(page.get_by_test_id("org-remote-warning")).to_contain_text("L322-4")
        page.get_by_test_id("org-create").click()
        expect(error).to_contain_text("Jeu à distance")
        page.get_by_test_id("org-remote-ack").click()

        page.get_by_test_id("org-create").click()
        creds = page.get_by_test_id("credentials")
        expect(creds).to_be_visible(timeout=WAIT_MS)
        code = page.get_by_test_id("new-code").inner_text().strip()
        animateur = page.get_by_test_id("new-animateur").inner_text().strip()
        organiser = page.get_by_test_id("new-organiser").inner_text().strip()
        invitation = page.get_by_test_id("new-invitation").inner_text().strip()
        assert re.fullmatch(r"[A-Z2-9]{6}", code), code
        assert f"/?code={code}&invitation=" in invitation
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
        token = invitation.rsplit("invitation=", 1)[1]
        assert access.check_invitation(row.id, token)

        # shown once: gone when noted, and not back after a reload (still signed in)
        page.get_by_test_id("credentials-done").click()
        expect(creds).to_have_count(0)
        page.reload()
        expect(page.get_by_test_id("org-evening")).to_have_text(name, timeout=WAIT_MS)
        expect(creds).to_have_count(0)
        expect(page.get_by_test_id("invitation-link")).to_have_text(invitation)
    finally:
        page.context.close()


@pytest.fixture
def evening(db_url: str) -> tuple[int, str, str]:
    """An evening with remote play, created in the database: (id, join code, organiser secret)."""
    program = demo_program("C")
    program = Program.from_dict(
        {**program.to_dict(), "settings": {**program.to_dict()["settings"], "remote_play": True}}
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
    app_url: str, db_url: str, browser: Browser, results_dir: Path, evening: tuple[int, str, str]
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

        # the invitation link, renewed: the old one stops working
        link = page.get_by_test_id("invitation-link")
        old = link.inner_text().rsplit("invitation=", 1)[1]
        assert access.check_invitation(evening_id, old)
        page.get_by_test_id("invitation-renew").click()
        expect(link).not_to_have_text(re.compile(re.escape(old)))
        new = link.inner_text().rsplit("invitation=", 1)[1]
        assert access.check_invitation(evening_id, new)
        assert not access.check_invitation(evening_id, old)

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
