"""End to end: an evening from its creation to its closing report, in real browsers.

The organiser creates the evening at `/organisation` (one game, a quine, physical balls) and
adds a vendeur and a caissier. A phone player shows their desk code and the vendeur, typing it,
finds them and sells them a pack; the player orders one more carton on the phone ("à régler"):
the caissier types the player's code, finds the order, and a new sale is refused (no double
charge) until the order is settled (card) from there. A second order stays pending while the
vendeur sells a carton "en plus" (asked once); that sale is refunded (asked once, the sum
shown) and the order cancelled with its reason. A player without a phone buys at the desk:
their cartons come as a PDF (read back: one planche per page, numbers, check code, QR code).
The animateur draws the balls of the paper carton's first line and checks the paper claim at
the control desk (valid), awards the lot and ends the game; the desk hands the lot over against
its ticket; the caissier closes the till (totals checked against the database). The organiser
verifies the journal and exports the report as CSV and PDF, both read back.
"""

from __future__ import annotations

import csv
import io
import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from axe_check import blocking_violations, describe
from gestures import buy, claim
from playwright.sync_api import expect
from pypdf import PdfReader
from sqlmodel import Session, select

from loto_app.storage import models as m
from loto_app.storage.db import make_engine
from loto_app.wording import euros

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 20_000
# The innermost elements that reach past the right edge of a screen `width` px wide.
WIDE_JS = """
(width) => Array.from(document.querySelectorAll('body *')).filter((el) => {
  const out = (e) => e.getBoundingClientRect().right > width + 0.5;
  return el.getBoundingClientRect().width > 0 && out(el) && !Array.from(el.children).some(out);
}).slice(0, 5).map((el) => `${el.tagName.toLowerCase()} "${(el.textContent || '').trim()
  .slice(0, 30)}" right=${el.getBoundingClientRect().right}`)
"""
TABLET = {"viewport": {"width": 820, "height": 1180}, "locale": "fr-FR"}
LAPTOP = {"viewport": {"width": 1366, "height": 900}, "locale": "fr-FR"}


def fill(page: Page, testid: str, value: str) -> None:
    box = page.get_by_test_id(testid)
    box.fill(value)
    box.blur()
    expect(box).to_have_value(value)


def download(page: Page, testid: str) -> bytes:
    with page.expect_download(timeout=WAIT_MS) as info:
        page.get_by_test_id(testid).click()
    return Path(info.value.path()).read_bytes()


def find_player(desk: Page, player_code: str) -> None:
    """Type the player's desk code (as a scanner does: the code, then Enter)."""
    desk.get_by_test_id("lookup-code").fill(player_code)
    desk.get_by_test_id("lookup-code").press("Enter")
    expect(desk.get_by_test_id("found")).to_contain_text(player_code, timeout=WAIT_MS)


def caisse_login(browser: Browser, app_url: str, code: str, secret: str, role: str) -> Page:
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{app_url}/caisse")
    page.get_by_test_id("caisse-code").fill(code)
    page.get_by_test_id("caisse-secret").fill(secret)
    page.get_by_test_id("caisse-login").click()
    expect(page.get_by_test_id("caisse-who")).to_contain_text(role, timeout=WAIT_MS)
    return page


def rows(db_url: str, model, evening_id: int) -> list:
    with Session(make_engine(db_url)) as s:
        out = list(s.exec(select(model).where(model.evening_id == evening_id)))
        for r in out:
            s.expunge(r)
        return out


def test_an_evening_from_creation_to_closing_report(
    app_url: str,
    db_url: str,
    browser: Browser,
    phone: dict,
    results_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shots = results_dir / "organisers"
    shots.mkdir(exist_ok=True)

    # ------------------------------------------------------------------ set-up
    # A server open to the internet asks for the association's key to create an evening (the
    # app runs in this process: the variable is read when the page loads and on creation).
    monkeypatch.setenv("LOTO_CREATE_KEY", "cle-du-comite")
    org = browser.new_context(**LAPTOP).new_page()
    org.goto(f"{app_url}/organisation")
    org.get_by_test_id("tab-create").click(timeout=60_000)  # a new visitor chooses
    expect(org.get_by_test_id("org-date")).not_to_have_value("", timeout=60_000)
    name = f"Loto de l'école {uuid.uuid4().hex[:5]}"
    fill(org, "org-name", name)
    org.get_by_test_id("step-4").click()
    org.get_by_test_id("draw_source-physical").click()
    org.get_by_test_id("step-2").click()
    for i in range(5, 0, -1):  # keep the first game of the typical program only
        org.get_by_test_id(f"game-{i}-remove").click()
        expect(org.get_by_test_id(f"game-{i}")).to_have_count(0)
    org.get_by_test_id("stage-0-1-on").click()  # no double quine,
    org.get_by_test_id("stage-0-2-on").click()  # no carton plein: a quine only
    org.get_by_test_id("step-3").click()
    org.get_by_test_id("usual-offers").click()  # the usual prices for the kinds left
    found = blocking_violations(org)  # the create form, as the organiser first sees it
    assert not found, f"/organisation: {describe(found)}"
    org.get_by_test_id("step-1").click()
    fill(org, "org-create-key", "pas-la-bonne")
    org.get_by_test_id("org-create").click()
    expect(org.get_by_test_id("org-form-error")).to_contain_text("Clé de l'association")
    fill(org, "org-create-key", "cle-du-comite")
    org.get_by_test_id("org-create").click()
    expect(org.get_by_test_id("credentials")).to_be_visible(timeout=WAIT_MS)
    code = org.get_by_test_id("new-code").inner_text().strip()
    animateur_secret = org.get_by_test_id("new-animateur").inner_text().strip()
    org.get_by_test_id("credentials-done").click()
    expect(org.get_by_test_id("org-evening")).to_have_text(name, timeout=WAIT_MS)
    with Session(make_engine(db_url)) as s:
        evening_id = s.exec(select(m.EveningRow.id).where(m.EveningRow.join_code == code)).one()

    staff: dict[str, str] = {}
    for person, role in (("Marie", "vendeur"), ("Jeanne", "caissier")):
        fill(org, "staff-name", person)
        org.get_by_test_id("staff-role").select_option(role)
        org.get_by_test_id("staff-add").click()
        shown = org.get_by_test_id("staff-secret")
        expect(shown).to_be_visible(timeout=WAIT_MS)
        staff[person] = re.sub(r"\s", "", shown.inner_text())
        org.get_by_test_id("staff-secret-done").click()

    # ------------------------------------------------------------------ the desk sells
    player = browser.new_context(**phone).new_page()
    player.goto(f"{app_url}/?code={code}")
    expect(player.get_by_test_id("join-code")).to_have_value(code, timeout=WAIT_MS)
    player.get_by_test_id("join-name").fill("Mamie Jo")
    player.get_by_test_id("join-submit").click()
    desk_code = player.get_by_test_id("desk-code")
    expect(desk_code).to_have_text(re.compile(r"^[0-9A-F]{8}$"), timeout=WAIT_MS)
    cards = player.locator('[data-testid^="carton-"]')
    expect(cards).to_have_count(0)

    vendeur = caisse_login(browser, app_url, code, staff["Marie"], "vendeur")
    player_code = desk_code.inner_text()
    find_player(vendeur, player_code)
    expect(vendeur.get_by_test_id("found")).to_contain_text("Mamie Jo")
    expect(vendeur.get_by_test_id("caisse-message")).to_contain_text("aucune commande à régler")
    vendeur.get_by_test_id("sell-offer").select_option("1")  # 3 cartons
    vendeur.get_by_test_id("sell-submit").click()
    expect(vendeur.get_by_test_id("caisse-message")).to_contain_text(
        "3 cartons pour Mamie Jo — 8 €"
    )
    expect(cards).to_have_count(3, timeout=WAIT_MS)
    expect(vendeur.get_by_test_id("found")).to_contain_text("a déjà 3 cartons")
    vendeur.get_by_test_id("found-done").click()
    expect(vendeur.get_by_test_id("found")).to_have_count(0)
    vendeur.get_by_test_id("lookup-code").fill("FFFFFFFF")
    vendeur.get_by_test_id("lookup-submit").click()
    expect(vendeur.get_by_test_id("caisse-message")).to_contain_text("Aucun joueur")
    expect(vendeur.get_by_test_id("found")).to_have_count(0)

    # a phone order waits "à régler": the desk finds it by the player's code and settles it,
    # and a second sale over it is refused (the same money twice) unless chosen "en plus"
    buy(player, "buy-classique")
    expect(player.get_by_test_id("orders")).to_contain_text("3 €", timeout=WAIT_MS)
    expect(cards).to_have_count(3)
    player.screenshot(path=shots / "player-order-a-regler-phone.png", full_page=True)
    caissier = caisse_login(browser, app_url, code, staff["Jeanne"], "caissier")
    order = caissier.locator('[data-testid^="order-"]')
    expect(order).to_have_count(1, timeout=WAIT_MS)
    expect(order).to_contain_text(player_code)  # the code the phone tells the player to show
    sale_no = int(order.get_attribute("data-testid").split("-")[1])
    find_player(caissier, player_code)
    found_order = caissier.get_by_test_id(f"found-order-{sale_no}")
    expect(found_order).to_contain_text("3 €")
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text("1 commande à régler")
    caissier.get_by_test_id("sell-offer").select_option("0")  # the same carton, sold again?
    caissier.get_by_test_id("sell-submit").click()
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text("commande à régler")
    expect(caissier.get_by_test_id("sell-extra-box")).to_contain_text("en plus (3 €)")
    found = blocking_violations(caissier)  # the player found by code, the question asked
    assert not found, f"/caisse (found, vendre en plus ?): {describe(found)}"
    caissier.get_by_test_id("sell-extra-drop").click()
    expect(caissier.get_by_test_id("sell-extra-box")).to_have_count(0)
    assert len(rows(db_url, m.SaleRow, evening_id)) == 2  # no second sale
    expect(cards).to_have_count(3)
    caissier.get_by_test_id(f"found-{sale_no}-card").click()
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text(
        f"Commande n° {sale_no} réglée (carte) : 1 carton pour Mamie Jo"
    )
    expect(cards).to_have_count(4, timeout=WAIT_MS)
    expect(player.get_by_test_id("orders")).to_have_count(0)
    expect(found_order).to_have_count(0)
    expect(order).to_have_count(0)
    assert [s.status for s in rows(db_url, m.SaleRow, evening_id)] == ["paid", "paid"]
    expect(caissier.get_by_test_id("total-received")).to_have_text("11 €")  # 8 € + the order
    expect(caissier.get_by_test_id("total-cartons")).to_have_text("4")
    expect(caissier.get_by_test_id("total-pending")).to_have_text("0 €")
    caissier.get_by_test_id("found-done").click()

    buy(player, "buy-classique-3")
    expect(order).to_have_count(1, timeout=WAIT_MS)  # the desk is told at once
    cancelled = int(order.get_attribute("data-testid").split("-")[1])
    find_player(vendeur, player_code)  # the vendeur sees the order too
    expect(vendeur.get_by_test_id(f"found-order-{cancelled}")).to_be_visible()
    vendeur.get_by_test_id("sell-offer").select_option("0")
    vendeur.get_by_test_id("sell-submit").click()
    vendeur.get_by_test_id("sell-extra").click()  # chosen: a carton in addition to the order
    expect(vendeur.get_by_test_id("caisse-message")).to_contain_text(
        "Vendu en plus : 1 carton pour Mamie Jo — 3 €"
    )
    expect(cards).to_have_count(5, timeout=WAIT_MS)
    expect(player.get_by_test_id("orders")).to_have_count(1)  # the order still à régler
    extra = max(s.no for s in rows(db_url, m.SaleRow, evening_id))
    # a refund asks once, with the sum to give back; "no" keeps the sale
    caissier.get_by_test_id("cancel-sale").fill(str(extra))
    caissier.get_by_test_id("cancel-reason").fill("Erreur de vente")
    caissier.get_by_test_id("cancel-submit").click()
    expect(caissier.get_by_test_id("cancel-confirm-box")).to_contain_text("rendre 3 €")
    caissier.get_by_test_id("cancel-drop").click()
    expect(caissier.get_by_test_id("cancel-confirm-box")).to_have_count(0)
    expect(cards).to_have_count(5)
    caissier.get_by_test_id("cancel-sale").fill(str(extra))
    caissier.get_by_test_id("cancel-reason").fill("Erreur de vente")
    caissier.get_by_test_id("cancel-submit").click()
    caissier.get_by_test_id("cancel-confirm").click()
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text(
        f"Vente n° {extra} annulée : rendre 3 €"
    )
    expect(vendeur.get_by_test_id("found")).to_contain_text("a déjà 4 cartons")  # withdrawn
    expect(caissier.get_by_test_id("total-refunded")).to_have_text("3 €")
    caissier.get_by_test_id("cancel-sale").fill(str(cancelled))
    caissier.get_by_test_id("cancel-reason").fill("Commande en double")
    caissier.get_by_test_id("cancel-submit").click()
    expect(caissier.get_by_test_id("cancel-confirm-box")).to_contain_text("Rien à rendre")
    caissier.get_by_test_id("cancel-confirm").click()
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text("annulée")
    expect(player.get_by_test_id("orders")).to_have_count(0, timeout=WAIT_MS)
    expect(vendeur.get_by_test_id(f"found-order-{cancelled}")).to_have_count(0)
    vendeur.get_by_test_id("found-done").click()

    # a player without a phone: cartons printed as a PDF
    vendeur.get_by_test_id("paper-name").fill("Mme Martin")
    vendeur.get_by_test_id("paper-offer").select_option("0")  # 1 carton
    vendeur.get_by_test_id("paper-card").click()
    pdf = download(vendeur, "paper-submit")
    players = {p.player_id: p for p in rows(db_url, m.PlayerRow, evening_id)}
    (paper_id,) = [p for p, r in players.items() if r.origin == "paper"]
    (purchase,) = [p for p in rows(db_url, m.PurchaseRow, evening_id) if p.player_id == paper_id]
    (paper_no,) = purchase.carton_nos
    carton = next(c for c in rows(db_url, m.CartonRow, evening_id) if c.no == paper_no)
    reader = PdfReader(io.BytesIO(pdf))
    # one page of cartons, then the evening's règlement ("à présenter à chaque carton vendu")
    assert len(reader.pages) >= 2
    assert reader.pages[1].extract_text().startswith("Règlement de la soirée")
    assert all(not p.images for p in reader.pages[1:])
    text = reader.pages[0].extract_text()
    assert str(paper_no) in text and carton.check_code in text
    for n in (x for r in carton.grid for x in r if x):
        assert str(n) in text
    assert len(reader.pages[0].images) >= 1, "the carton's QR code"
    vendeur.screenshot(path=shots / "caisse-vendeur-tablet.png", full_page=True)
    caissier.set_viewport_size({"width": 390, "height": 844})
    caissier.screenshot(path=shots / "caisse-caissier-phone.png", full_page=True)
    wide = caissier.evaluate(WIDE_JS, 390)
    assert not wide, f"the desk is wider than a phone: {wide}"
    caissier.set_viewport_size(TABLET["viewport"])

    # paper cartons printed in advance: the organiser prints a sheet of 6, the desk sells one
    # by its number and code; scanned again (its QR code's text), it is refused and counted,
    # and so is a wrong code
    org.get_by_test_id("paper-sheets").fill("1")
    sheet = PdfReader(io.BytesIO(download(org, "paper-print")))
    expect(org.get_by_test_id("books-message")).to_contain_text("6 cartons papier imprimés")
    audit = rows(db_url, m.AuditRow, evening_id)
    (printed,) = [r.payload["carton_nos"] for r in audit if r.type == "paper_printed"]
    codes = {c.no: c.check_code for c in rows(db_url, m.CartonRow, evening_id)}
    first = printed[0]
    assert codes[first] in sheet.pages[0].extract_text()
    vendeur.get_by_test_id("printed-cartons").fill(f"{first} {codes[first].lower()}")
    vendeur.get_by_test_id("printed-offer").select_option("0")  # 1 carton, 3 €
    vendeur.get_by_test_id("printed-submit").click()
    said = vendeur.get_by_test_id("printed-message")
    expect(said).to_contain_text(f"Vendu : 1 carton pour Carton papier n° {first}", timeout=WAIT_MS)
    series = rows(db_url, m.SeriesRow, evening_id)[0].code
    vendeur.get_by_test_id("printed-cartons").fill(f"LOTO:{series}:{first}:{codes[first]}")
    vendeur.get_by_test_id("printed-offer").select_option("0")
    vendeur.get_by_test_id("printed-submit").click()
    expect(said).to_contain_text(f"carton n° {first} déjà vendu", timeout=WAIT_MS)
    vendeur.get_by_test_id("printed-cartons").fill(f"{printed[1]} ZZZZZZ")
    vendeur.get_by_test_id("printed-offer").select_option("0")
    vendeur.get_by_test_id("printed-submit").click()
    expect(said).to_contain_text(f"carton n° {printed[1]} inconnu", timeout=WAIT_MS)
    vendeur.screenshot(path=shots / "caisse-printed-refused-tablet.png", full_page=True)
    for page in (vendeur, caissier, org):
        found = blocking_violations(page)
        assert not found, f"{page.url}: {describe(found)}"

    # ------------------------------------------------------------------ the game
    anim = browser.new_context(**TABLET).new_page()
    anim.goto(f"{app_url}/animateur")
    anim.get_by_test_id("animateur-code").fill(code)
    anim.get_by_test_id("animateur-secret").fill(animateur_secret)
    anim.get_by_test_id("animateur-login").click()
    anim.get_by_test_id("start-game").click()
    line = [x for x in carton.grid[0] if x]
    for n in line:
        submit = anim.get_by_test_id("ball-submit")
        expect(submit).to_be_enabled(timeout=WAIT_MS)
        anim.get_by_test_id("ball-input").fill(str(n))
        submit.click()
        expect(anim.get_by_test_id("last-number")).to_have_text(str(n), timeout=WAIT_MS)
    expect(anim.get_by_test_id("paper-carton")).to_have_count(0)  # opened when needed
    anim.get_by_test_id("paper-open").click()
    anim.get_by_test_id("paper-carton").fill(str(paper_no))
    anim.get_by_test_id("paper-check").fill("ZZZZZZ")
    anim.get_by_test_id("paper-submit").click()
    expect(anim.get_by_test_id("paper-verdict")).to_contain_text("série", timeout=WAIT_MS)
    anim.get_by_test_id("paper-carton").fill(str(paper_no))
    anim.get_by_test_id("paper-check").fill(carton.check_code)
    anim.get_by_test_id("paper-submit").click()
    expect(anim.get_by_test_id("paper-verdict")).to_contain_text("valide", timeout=WAIT_MS)
    expect(anim.get_by_test_id("paper-verdict")).to_contain_text("Mme Martin")
    anim.get_by_test_id("award").click()
    claim(anim.get_by_test_id("allow-unmark"))
    expect(anim.get_by_text("Toutes les parties ont été jouées")).to_be_visible(timeout=WAIT_MS)

    # ------------------------------------------------------------------ lots and the till
    (award,) = rows(db_url, m.AwardRow, evening_id)
    assert award.player_id == paper_id
    ticket = vendeur.get_by_test_id(f"ticket-{award.ticket_no}")
    expect(ticket).to_contain_text(award.code, timeout=WAIT_MS)
    expect(ticket).to_contain_text("Mme Martin")
    vendeur.get_by_test_id(f"hand-over-{award.ticket_no}").click()
    expect(ticket).to_contain_text("Remis par Marie", timeout=WAIT_MS)

    # closing is for good: asked once, with the totals; "no" leaves the till open
    caissier.get_by_test_id("close-till").click()
    sales = rows(db_url, m.SaleRow, evening_id)
    paid = sum(s.amount_cents for s in sales if s.status == "paid")
    expect(caissier.get_by_test_id("close-confirm-box")).to_contain_text(
        f"Encaissé : {euros(paid)}"
    )
    expect(caissier.get_by_test_id("close-confirm-box")).to_contain_text("remboursé : 3 €")
    found = blocking_violations(caissier)
    assert not found, f"/caisse (close confirmation): {describe(found)}"
    caissier.get_by_test_id("close-drop").click()
    expect(caissier.get_by_test_id("close-confirm-box")).to_have_count(0)
    expect(caissier.get_by_test_id("sell-phone")).to_be_visible()
    caissier.get_by_test_id("close-till").click()
    caissier.get_by_test_id("close-confirm").click()
    expect(caissier.get_by_test_id("till-closed")).to_contain_text("Jeanne", timeout=WAIT_MS)
    assert paid == 800 + 300 + 300 + 300  # the pack, the order, the paper and printed cartons
    assert {s.status for s in sales} == {"paid", "cancelled"}
    expect(caissier.get_by_test_id("total-received")).to_have_text(euros(paid))
    expect(caissier.get_by_test_id("by-method")).to_contain_text("Carte : 6 €")  # order + paper
    expect(caissier.get_by_test_id("by-method")).to_contain_text("Espèces : 11 €")
    # one name per staff member: Jeanne settled the order, she is not "Caisse (Jeanne)"
    expect(caissier.get_by_test_id("by-seller")).to_have_text("Par vendeurJeanne : 3 €Marie : 14 €")
    expect(caissier.get_by_test_id("sell-phone")).to_have_count(0)  # no sale after closing
    (handed,) = rows(db_url, m.AwardRow, evening_id)
    assert handed.handed_over and handed.handed_by == "Marie"

    # ------------------------------------------------------------------ the record
    org.reload()
    expect(org.get_by_test_id("org-evening")).to_have_text(name, timeout=WAIT_MS)
    org.get_by_test_id("audit-verify").click()
    expect(org.get_by_test_id("audit-message")).to_contain_text("intègre", timeout=WAIT_MS)
    org.get_by_test_id("report-show").click()
    expect(org.get_by_test_id("report-summary")).to_contain_text("Mme Martin", timeout=WAIT_MS)
    org.screenshot(path=shots / "organisation-report-laptop.png", full_page=True)

    draws = [d.number for d in sorted(rows(db_url, m.DrawRow, evening_id), key=lambda d: d.seq)]
    assert draws == line
    table = download(org, "report-csv").decode("utf-8-sig")
    cells = [r for r in csv.reader(io.StringIO(table), delimiter=";") if r]
    flat = [c for r in cells for c in r]
    assert name in flat
    assert "Mme Martin" in flat and "Mamie Jo" in flat
    for n in draws:
        assert str(n) in flat
    assert "Commande en double" in flat
    assert ["totaux", "Par vendeur", "Jeanne", "3,00"] in cells  # one name per staff member
    assert not [c for c in flat if c.startswith("Caisse (")]
    report = PdfReader(io.BytesIO(download(org, "report-pdf")))
    text = "\n".join(p.extract_text() for p in report.pages)
    assert name in text and "Mme Martin" in text
    assert euros(paid) in text
    for n in draws:
        assert str(n) in text

    # ------------------------------------------------------------------ the books closed
    # the paper cartons reconciled: Mme Martin's printed at her sale, and the sheet of 6
    org.get_by_test_id("paper-reconcile").click()
    lines = org.get_by_test_id("paper-lines")
    expect(lines).to_contain_text("Classique", timeout=WAIT_MS)
    cells = [c.strip() for c in lines.locator("td").all_inner_texts()]
    assert cells == ["Classique", "7", "6", "2", "0", "0", "5"], cells
    refusals = org.get_by_test_id("paper-refusals")
    expect(refusals).to_contain_text("vendu deux fois")
    expect(refusals).to_contain_text("inconnu de la série")
    expect(refusals).to_contain_text("autre série")  # the ZZZZZZ claim at the control desk
    verbal = PdfReader(io.BytesIO(download(org, "pv-evening")))
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in verbal.pages))
    assert "Procès-verbal de la soirée" in text and "Boulier physique" in text
    assert "Cartons papier de la série" in text and "Signatures" in text
    org.get_by_test_id("pv-game-no").fill("1")
    game = PdfReader(io.BytesIO(download(org, "pv-game")))
    assert "Procès-verbal de la partie 1" in re.sub(r"\s+", " ", game.pages[0].extract_text())

    # closing the evening: asked once, with what is still open; then nothing is accepted
    org.get_by_test_id("close-ask-button").click()
    expect(org.get_by_test_id("close-ask")).to_contain_text("Clore la soirée ?", timeout=WAIT_MS)
    found = blocking_violations(org)
    assert not found, f"/organisation (closing): {describe(found)}"
    org.get_by_test_id("close-confirm").click()
    expect(org.get_by_test_id("closed-text")).to_contain_text("Soirée close le", timeout=WAIT_MS)
    org.screenshot(path=shots / "organisation-closed-laptop.png", full_page=True)
    last = max(s.no for s in rows(db_url, m.SaleRow, evening_id))  # the printed carton's sale
    caissier.get_by_test_id("cancel-sale").fill(str(last))
    caissier.get_by_test_id("cancel-reason").fill("Erreur")
    caissier.get_by_test_id("cancel-submit").click()
    caissier.get_by_test_id("cancel-confirm").click()
    expect(caissier.get_by_test_id("caisse-message")).to_contain_text(
        "La soirée est close", timeout=WAIT_MS
    )
    assert {s.status for s in rows(db_url, m.SaleRow, evening_id) if s.no == last} == {"paid"}
    fill(org, "staff-name", "Paul")
    org.get_by_test_id("staff-role").select_option("vendeur")
    org.get_by_test_id("staff-add").click()
    expect(org.get_by_test_id("staff-message")).to_contain_text("La soirée est close")
    expect(player.get_by_test_id("announcement")).to_contain_text("close", timeout=WAIT_MS)
