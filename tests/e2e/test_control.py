"""Paper cartons checked at the table, with a phone's camera, in Chromium with a fake camera.

The camera films a video this test makes from the app's own PDF of a paper player's carton (the
QR code printed on it) and from the phone player's own screen (the QR code of their desk code),
one after the other. A contrôleur's phone at /controle scans the carton: the claim is made and
judged as at the control desk (the animateur's tablet sees it, the lot can be awarded), the
phone shows the verdict and the carton read back; the phone's QR code, filmed too, is not
taken for a carton. A vendeur's phone at /caisse finds the phone player by scanning their QR
code. Typing the number and code stays the way in without a camera. Debian's Chromium has no
BarcodeDetector: jsQR (from the npm registry) reads the frames."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import TYPE_CHECKING

import pypdf
import zxingcpp
from axe_check import blocking_violations, describe
from conftest import CHROMIUM, CHROMIUM_ARGS
from live_driver import Driver
from PIL import Image
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
from loto_app.records.paper import cartons_for, paper_pdf, qr_text
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

SECRET = "controle-animateur"
FRAME = (640, 480)
FPS = 10


def _frame(qr: Image.Image) -> Image.Image:
    """A camera's picture: a table, and on it the paper (or the phone) with its QR code."""
    img = Image.new("RGB", FRAME, (205, 190, 160))
    side = 300
    card = Image.new("RGB", (side + 40, side + 80), "white")
    card.paste(qr.convert("RGB").resize((side, side), Image.Resampling.NEAREST), (20, 20))
    img.paste(card, ((FRAME[0] - card.width) // 2, (FRAME[1] - card.height) // 2))
    return img


def _y4m(path: Path, frames: list[Image.Image]) -> None:
    """A YUV4MPEG2 video (4:2:0), what Chromium's fake camera plays in a loop."""
    w, h = FRAME
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{w} H{h} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for f in frames:
            y, cb, cr = f.convert("YCbCr").split()
            out.write(b"FRAME\n" + y.tobytes())
            out.write(cb.resize((w // 2, h // 2)).tobytes() + cr.resize((w // 2, h // 2)).tobytes())


def _pdf_qr(pdf: bytes) -> Image.Image:
    """The QR code printed on the first carton of the PDF (its embedded picture)."""
    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    image = next(iter(page.images)).image
    assert image is not None
    return image


def test_a_paper_carton_checked_at_the_table_by_camera_and_a_player_found_by_scan(
    app_url: str,
    db_url: str,
    browser: Browser,
    playwright: Playwright,
    phone: dict,
    results_dir: Path,
    tmp_path: Path,
) -> None:
    engine = make_engine(db_url)
    store = EveningStore(engine)
    program = Program(
        "CTL",
        (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),)),),
        Settings(DrawSource.PHYSICAL, last_call_seconds=0),
    )
    creds = store.create_evening("Loto du club de foot", program, animateur_secret=SECRET)
    eid = creds.evening_id
    # A paper player buys a carton at the desk (before the app loads the evening: another
    # worker's registry); the desk prints its PDF.
    with Driver(store) as desk:
        pid, _ = desk.join(eid, "Mme Martin", "paper")
        events = desk.run(eid, lambda e: e.desk_sale(pid, 0, "cash", "Paul", random.Random(5)))
    (no,) = next(x.carton_nos for x in events if hasattr(x, "carton_nos"))
    carton = cartons_for(store, eid, [no])[0]
    pdf = paper_pdf("Loto du club de foot", "CTL", [carton])
    printed = _pdf_qr(pdf)
    assert [r.text for r in zxingcpp.read_barcodes(printed)] == [
        qr_text("CTL", no, carton.check_code)
    ]
    row = sorted(n for n in carton.rows[0] if n)
    access = AccessStore(engine)
    claire = access.add_staff(eid, "Claire", "controleur")
    paul = access.add_staff(eid, "Paul", "vendeur")

    # A phone player: the QR code of their desk code, as their screen shows it.
    player = browser.new_context(**phone).new_page()
    player.goto(f"{app_url}/?code={creds.join_code}")
    player.get_by_test_id("join-name").fill("Jeannot")
    player.get_by_test_id("join-submit").click()
    player.wait_for_url("**/jouer")
    desk_code = player.get_by_test_id("desk-code").inner_text().strip()
    shown = Image.open(
        io.BytesIO(player.get_by_role("img", name="QR code de mon code caisse").screenshot())
    )

    # The camera's video: one second of the carton, one of the player's phone, in a loop.
    video = tmp_path / "camera.y4m"
    _y4m(video, [_frame(printed)] * FPS + [_frame(shown)] * FPS)
    camera = playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            *CHROMIUM_ARGS,
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    try:
        staff = camera.new_context(**phone, permissions=["camera"])
        ctl = staff.new_page()
        ctl.goto(f"{app_url}/controle")
        ctl.get_by_test_id("controle-code").fill(creds.join_code)
        ctl.get_by_test_id("controle-secret").fill(claire)
        ctl.get_by_test_id("controle-login").click()
        expect(ctl.get_by_test_id("controle-check-section")).to_be_visible()
        expect(ctl.get_by_text("Claire (Contrôleur)")).to_be_visible()

        # The animateur draws the first row of the paper carton.
        tablet = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
        tablet.goto(f"{app_url}/animateur")
        tablet.get_by_test_id("animateur-code").fill(creds.join_code)
        tablet.get_by_test_id("animateur-secret").fill(SECRET)
        tablet.get_by_test_id("animateur-login").click()
        tablet.get_by_test_id("start-game").click()
        for n in row:
            expect(tablet.get_by_test_id("ball-submit")).to_be_enabled()
            tablet.get_by_test_id("ball-input").fill(str(n))
            tablet.get_by_test_id("ball-submit").click()
            expect(tablet.get_by_test_id("last-number")).to_have_text(str(n))
        expect(ctl.get_by_test_id("last-number")).to_have_text(str(row[-1]))

        # "Quine !" at a table: the contrôleur scans the carton.
        ctl.get_by_test_id("carton-scanner-start").click()
        verdict = ctl.get_by_test_id("controle-verdict")
        expect(verdict).to_contain_text("Annonce valide", timeout=30_000)
        expect(verdict).to_contain_text(f"carton {no}")
        expect(verdict).to_contain_text("Mme Martin")
        assert ctl.evaluate("window.__lotoScanEngine") == "jsQR"
        assert ctl.evaluate("window.__lotoScanned") == [qr_text("CTL", no, carton.check_code)]
        grid = ctl.get_by_test_id("readback-grid")
        expect(grid.locator("[data-win=true]")).to_have_count(5)
        expect(grid.locator(f"[data-n='{row[-1]}']")).to_have_attribute("data-last", "true")
        expect(ctl.get_by_test_id("readback")).to_contain_text("(carton papier)")
        found = blocking_violations(ctl)
        assert not found, describe(found)
        ctl.screenshot(path=results_dir / "01-controle-verdict.png", full_page=True)
        # recorded as a paper claim: the desk's tablet has it, and may award the lot
        expect(tablet.get_by_test_id("readback")).to_contain_text(f"carton n° {no}")
        expect(tablet.get_by_test_id("award")).to_be_enabled()

        # Typing stays the way in: a wrong check code is a carton of another série.
        ctl.get_by_test_id("controle-next").click()
        expect(verdict).to_have_count(0)
        ctl.get_by_test_id("controle-type-open").click()
        ctl.get_by_test_id("controle-carton").fill(str(no))
        ctl.get_by_test_id("controle-check").fill("ZZZZ")
        ctl.get_by_test_id("controle-submit").click()
        expect(verdict).to_contain_text("Carton d'une autre série")
        expect(ctl.get_by_test_id("readback")).to_have_count(0)
        ctl.screenshot(path=results_dir / "02-controle-typed.png", full_page=True)

        # The desk finds the phone player by scanning the QR code their phone shows (the
        # carton's, filmed too, is not taken for it).
        desk_page = staff.new_page()
        desk_page.goto(f"{app_url}/caisse")
        desk_page.get_by_test_id("caisse-code").fill(creds.join_code)
        desk_page.get_by_test_id("caisse-secret").fill(paul)
        desk_page.get_by_test_id("caisse-login").click()
        desk_page.get_by_test_id("player-scanner-start").click()
        expect(desk_page.get_by_test_id("found")).to_contain_text("Jeannot", timeout=30_000)
        expect(desk_page.get_by_test_id("found")).to_contain_text(desk_code)
        desk_page.screenshot(path=results_dir / "03-caisse-scan.png", full_page=True)
        staff.close()
    finally:
        camera.close()
        engine.dispose()
