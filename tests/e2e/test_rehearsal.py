"""A rehearsal (répétition) in Chromium: the organiser makes it from /organisation, the
volunteers open its hall screen, a test phone and the tablet (each says RÉPÉTITION), the desk
and the contrôle sign in to it with their own secrets, a few balls are drawn and a quine
claimed; the organiser deletes it after one confirmation. The real evening's rows, its log
above all, are the same byte for byte before and after."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from gestures import buy, claim
from live_driver import Driver, quine_program
from playwright.sync_api import expect
from sqlmodel import SQLModel

from loto_app.domain.program import Kind
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1180, "height": 820}
TV = {"width": 1920, "height": 1080}
SECRET = "rehearsal-organiser"
#: Each wait for the server's answer (20 s, as the other browser tests: two suites at once on
#: two cores took longer than 5 s to bring a claim to the tablet).
WAIT_MS = 20_000


def rows_of(engine: sa.Engine, evening_id: int) -> str:
    """Every row of an evening (its own, its log, its projections), serialized."""
    out: dict[str, list] = {}
    evening = m.EveningRow.__table__
    with engine.connect() as c:
        out["evening"] = [
            dict(r._mapping)
            for r in c.execute(sa.select(evening).where(evening.c.id == evening_id))
        ]
        for t in SQLModel.metadata.sorted_tables:
            if "evening_id" in t.c:
                q = sa.select(t).where(t.c.evening_id == evening_id)
                out[t.name] = [dict(r._mapping) for r in c.execute(q.order_by(*t.primary_key))]
    return json.dumps(out, default=repr, sort_keys=True)


def _banner(page: Page) -> None:
    banner = page.get_by_test_id("rehearsal-banner")
    expect(banner).to_be_visible(timeout=WAIT_MS)
    expect(banner).to_contain_text("RÉPÉTITION", timeout=WAIT_MS)


def test_a_rehearsal_is_played_apart_and_deleted_leaving_the_real_log_unchanged(
    app_url: str, db_url: str, browser: Browser, phone: dict, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    store = EveningStore(engine)
    program = quine_program("REP", free_cartons=True)
    creds = store.create_evening("Loto des pompiers", program, organiser_secret=SECRET)
    eid = creds.evening_id
    access = AccessStore(engine)
    paul = access.add_staff(eid, "Paul", "vendeur")
    claire = access.add_staff(eid, "Claire", "controleur")
    with Driver(store) as d:  # the real evening under way: a player and their carton
        pid, _ = d.join(eid, "Mme Martin")
        d.run(eid, lambda e: e.sell(pid, Kind.CLASSIQUE, rng=random.Random(2)))
    before = rows_of(engine, eid)

    org = browser.new_context(viewport=TABLET).new_page()
    org.goto(f"{app_url}/organisation")
    org.get_by_test_id("tab-signin").click()
    org.get_by_test_id("org-login-code").fill(creds.join_code)
    org.get_by_test_id("org-login-secret").fill(SECRET)
    org.get_by_test_id("org-login").click()
    org.get_by_test_id("rehearsal-create").click()
    code = org.get_by_test_id("rehearsal-code").inner_text().strip()
    assert code and code != creds.join_code
    secret = org.get_by_test_id("rehearsal-animateur-secret").inner_text().strip()
    expect(org.get_by_test_id("rehearsal-name")).to_have_text(
        "Répétition — Loto des pompiers", timeout=WAIT_MS
    )
    expect(org.get_by_test_id("rehearsal-link-players")).to_contain_text(
        f"/?code={code}", timeout=WAIT_MS
    )
    org.get_by_test_id("org-rehearsal").scroll_into_view_if_needed()
    org.screenshot(path=results_dir / "01-organisation-1180.png")
    org.get_by_test_id("rehearsal-secret-done").click()

    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{app_url}/ecran?code={code}")
    _banner(tv)
    expect(tv.get_by_test_id("rehearsal-banner")).to_contain_text(
        "rien ne compte pour la vraie", timeout=WAIT_MS
    )

    player = browser.new_context(**{**phone, "viewport": PHONE}).new_page()
    player.goto(f"{app_url}/?code={code}")
    _banner(player)
    player.screenshot(path=results_dir / "02-join-360.png")
    player.get_by_test_id("join-name").fill("Testeur")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    _banner(player)
    banner = player.get_by_test_id("rehearsal-banner").bounding_box()
    assert banner is not None and banner["height"] < 80, banner  # (the carton's room)
    buy(player, "buy-classique")
    carton = player.locator('[data-testid^="carton-"]').first
    no = carton.get_attribute("data-testid").removeprefix("carton-")

    tablet = browser.new_context(viewport=TABLET).new_page()
    tablet.goto(f"{app_url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(secret)
    tablet.get_by_test_id("animateur-login").click()
    _banner(tablet)
    tablet.get_by_test_id("start-game").click()
    rid = store.evening_id_for_code(code)
    assert rid is not None and rid != eid
    row = [n for n in store_grid(engine, rid, int(no))[0] if n]  # the carton's first line
    for n in row:
        expect(tablet.get_by_test_id("ball-submit")).to_be_enabled(timeout=WAIT_MS)
        tablet.get_by_test_id("ball-input").fill(str(n))
        tablet.get_by_test_id("ball-submit").click()
        expect(tablet.get_by_test_id("last-number")).to_have_text(str(n), timeout=WAIT_MS)
    expect(player.get_by_test_id("last-number")).to_have_text(str(row[-1]), timeout=WAIT_MS)
    claim(player.get_by_test_id(f"claim-{no}"))
    expect(tablet.get_by_test_id("readback")).to_contain_text(f"carton n° {no}", timeout=WAIT_MS)
    expect(tv.get_by_test_id("readback")).to_contain_text("Testeur", timeout=WAIT_MS)
    player.screenshot(path=results_dir / "03-jouer-360.png")
    tablet.screenshot(path=results_dir / "04-animateur-1180.png")
    tv.screenshot(path=results_dir / "05-ecran-1920.png")

    # the desk and the contrôle: the real evening's secrets, with the rehearsal's code
    for route, who, testid in (("caisse", paul, "caisse"), ("controle", claire, "controle")):
        page = browser.new_context(**{**phone, "viewport": PHONE}).new_page()
        page.goto(f"{app_url}/{route}")
        page.get_by_test_id(f"{testid}-code").fill(code)
        page.get_by_test_id(f"{testid}-secret").fill(who)
        page.get_by_test_id(f"{testid}-login").click()
        _banner(page)
        page.screenshot(path=results_dir / f"06-{route}-360.png")
        page.context.close()
    reglement = browser.new_context(viewport=PHONE).new_page()
    reglement.goto(f"{app_url}/reglement?code={code}")
    _banner(reglement)
    reglement.context.close()
    assert rows_of(engine, eid) == before

    # deleted with one confirmed tap; every page of it goes back to its start
    org.get_by_test_id("rehearsal-delete").click()
    expect(org.get_by_test_id("rehearsal-delete-ask")).to_contain_text(
        "Supprimer la répétition\u202f?", timeout=WAIT_MS
    )
    org.screenshot(path=results_dir / "07-delete-ask-1180.png")
    org.get_by_test_id("rehearsal-delete-confirm").click()
    expect(org.get_by_test_id("rehearsal-done")).to_contain_text(
        "La vraie soirée n'a pas changé", timeout=WAIT_MS
    )
    expect(org.get_by_test_id("rehearsal-create")).to_be_visible(timeout=WAIT_MS)
    expect(tv.get_by_test_id("screen-message")).to_contain_text("Aucune soirée", timeout=WAIT_MS)
    expect(tv.get_by_test_id("rehearsal-banner")).to_have_count(0, timeout=WAIT_MS)
    with engine.connect() as c:
        for t in SQLModel.metadata.sorted_tables:
            if "evening_id" in t.c:
                n = c.execute(
                    sa.select(sa.func.count()).select_from(t).where(t.c.evening_id == rid)
                )
                assert n.scalar_one() == 0, t.name
    # (a fresh store: this one remembers the code, as another worker would: ORGANISERS.md)
    assert EveningStore(engine).evening_id_for_code(code) is None
    assert rows_of(engine, eid) == before
    assert store.verify_audit(eid) == []
    for page in (org, tv, player, tablet):
        page.context.close()
    engine.dispose()


def store_grid(engine: sa.Engine, evening_id: int, no: int) -> list[list[int]]:
    """A carton's grid (rows of the 3x9 card, 0 for a blank), from the database."""
    with engine.connect() as c:
        grid = c.execute(
            sa.select(m.CartonRow.grid).where(
                m.CartonRow.evening_id == evening_id, m.CartonRow.no == no
            )
        ).scalar_one()
    return [list(r) for r in grid]
