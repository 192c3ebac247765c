"""The organiser's pictures at /organisation, in the browser: a lot's photo and a partner's
logo uploaded, shown in the lists and on the hall screen; what is not a sound picture refused
in French with nothing stored (a renamed executable, a decompression bomb, a file too heavy,
a text file), an oversized upload refused by the server before its body is read, and the
upload's own checks (`POST /media/upload`, which any worker may answer, so it trusts nothing
from the page): a wrong secret, a text file, an unknown lot."""

from __future__ import annotations

import http.client
import json
import struct
import urllib.parse
import urllib.request
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import pictures
from axe_check import blocking_violations, describe
from playwright.sync_api import expect
from test_organisation import open_page, sign_in, wait_connected

from loto_app.domain.program import GameSpec, Kind, Lot, Pattern, Program, Stage
from loto_app.limits import MAX_IMAGE_BYTES
from loto_app.storage import pictures as stored
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore
from loto_app.uploads import PATH

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SECRET = "pictures-organiser"
LOTS = ("Jambon de pays", "Vélo électrique", "Panier garni")


def _bomb() -> bytes:
    """A 300-byte PNG whose header announces 50,000 x 50,000 pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        return struct.pack(">I", len(body)) + kind + body + crc

    head = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 100_000, 9))
        + chunk(b"IEND", b"")
    )


def _choose(page: Page, upload_id: str, name: str, mime: str, data: bytes) -> None:
    page.get_by_test_id(upload_id).locator("input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}]
    )


def _post(netloc: str, fields: dict[str, str], file: bytes) -> tuple[int, dict]:
    """`POST /media/upload` as a client other than the page would: its status and JSON answer."""
    boundary = "loto-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\n'
        "Content-Type: image/jpeg\r\n\r\n".encode()
        + file
        + f"\r\n--{boundary}--\r\n".encode()
    )
    body = b"".join(parts)
    conn = http.client.HTTPConnection(netloc, timeout=30)
    conn.request(
        "POST",
        PATH,
        body=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    response = conn.getresponse()
    answer = json.loads(response.read())
    conn.close()
    return response.status, answer


def _said(page: Page, text: str) -> None:
    expect(page.get_by_test_id("media-message")).to_contain_text(text, timeout=20_000)


def test_lot_photos_and_partners_logos_and_what_is_refused(
    app_url: str, db_url: str, browser: Browser, results_dir: Path
) -> None:
    engine = make_engine(db_url)
    program = Program(
        "PIC",
        (
            GameSpec(Kind.CLASSIQUE, tuple(Stage(Pattern.ONE_LINE, Lot(x)) for x in LOTS[:1])),
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot(LOTS[1])),)),
            GameSpec(
                Kind.CLASSIQUE,
                (
                    Stage(Pattern.ONE_LINE, Lot(LOTS[2])),
                    Stage(Pattern.FULL_CARD, Lot(LOTS[0])),  # the ham again: the same photo
                ),
            ),
        ),
    )
    creds = EveningStore(engine).create_evening("Loto des écoles", program, organiser_secret=SECRET)
    eid = creds.evening_id
    page = open_page(browser, app_url, "laptop")
    wait_connected(page)
    sign_in(page, creds.join_code, SECRET)
    section = page.get_by_test_id("org-media")
    expect(section).to_be_visible(timeout=20_000)
    rows = section.get_by_test_id("lot-row")
    expect(rows).to_have_count(len(LOTS))  # each lot once, the ham of two games included

    # A phone's photo of the ham: sent at once, checked, made small, shown in the list.
    expect(page.get_by_test_id("lot-photo-button")).to_be_disabled()  # the lot first
    page.get_by_test_id("lot-choice").select_option(LOTS[0])
    expect(page.get_by_test_id("lot-photo-button")).to_be_enabled()
    _choose(
        page, "lot-photo", "IMG_2031.JPG", "image/jpeg", pictures.photo("Jambon", (200, 90, 90))
    )
    _said(page, f"Photo enregistrée pour « {LOTS[0]} »")
    ham = section.locator(f"[data-lot='{LOTS[0]}']").get_by_role("img", name=LOTS[0])
    expect(ham).to_be_visible()
    assert stored.count(engine, eid) == 1

    # Refused, in French, and nothing stored.
    refusals = [
        # an executable renamed as a photo (the browser believes its name; the server reads it)
        (
            "vacances.jpg",
            "image/jpeg",
            b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 5000,
            "pas une image",
        ),
        # a decompression bomb: a small file that would fill the memory once decoded
        ("bombe.png", "image/png", _bomb(), "trop grande en pixels"),
        # too heavy (refused by the page before it is sent)
        (
            "grosse.jpg",
            "image/jpeg",
            b"\xff\xd8\xff" + b"\x00" * (MAX_IMAGE_BYTES + 10),
            "trop lourd",
        ),
        # not an image at all (refused by the page's file chooser)
        ("notes.txt", "text/plain", b"Liste des lots\n", "pas une image"),
    ]
    page.get_by_test_id("lot-choice").select_option(LOTS[1])
    for name, mime, data, said in refusals:
        _choose(page, "lot-photo", name, mime, data)
        _said(page, said)
        expect(page.get_by_test_id("media-message")).to_have_attribute("role", "alert")
        assert stored.count(engine, eid) == 1, name
    expect(section.locator(f"[data-lot='{LOTS[1]}']").get_by_role("img")).to_have_count(0)
    page.screenshot(path=results_dir / "01-refused.png", full_page=True)

    # The picture is served by its digest, for ever, as an image that is never sniffed.
    src = ham.get_attribute("src") or ""
    with urllib.request.urlopen(src, timeout=30) as served:
        assert served.headers["Content-Type"] == "image/webp"
        assert "immutable" in served.headers["Cache-Control"]
        assert served.headers["X-Content-Type-Options"] == "nosniff"
        assert served.read(12)[8:12] == b"WEBP"

    # The server refuses an upload bigger than a picture before reading its body (a client
    # that skips the page's check): the headers alone get a 413; nothing stored.
    backend = urllib.parse.urlsplit(src)
    for path, length, status in (
        (PATH, MAX_IMAGE_BYTES + 512 * 1024, 413),
        (PATH, None, 411),
        ("/_upload", MAX_IMAGE_BYTES + 512 * 1024, 413),  # (Reflex's own, unused by the app)
    ):
        conn = http.client.HTTPConnection(backend.netloc, timeout=30)
        conn.putrequest("POST", path)
        conn.putheader("Content-Type", "multipart/form-data; boundary=x")
        conn.putheader("Reflex-Client-Token", "t")
        conn.putheader("Reflex-Event-Handler", "x")
        if length is not None:
            conn.putheader("Content-Length", str(length))
        else:
            conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()  # (and no body)
        assert conn.getresponse().status == status
        conn.close()
    assert stored.count(engine, eid) == 1

    # The upload is checked by itself, not by the page (any worker may answer it): a wrong
    # secret, a text file, a lot of no game are refused in French, and nothing is stored.
    photo = pictures.photo("Cafetière", (90, 90, 200))
    form = {"code": creds.join_code, "secret": SECRET, "kind": "lot", "target": LOTS[1]}
    for fields, file, status, said in (
        ({**form, "secret": "pas-le-bon"}, photo, 403, "secret de l'organisateur incorrect"),
        (form, b"Liste des lots\n", 400, "pas une image"),
        ({**form, "target": "Un lot inconnu"}, photo, 400, ""),
        ({**form, "kind": "autre"}, photo, 400, "réessayez"),
    ):
        got_status, answer = _post(backend.netloc, fields, file)
        assert (got_status, answer["ok"]) == (status, False), (fields, answer)
        assert said in answer["message"] and answer["message"], answer
    assert stored.count(engine, eid) == 1

    # A partner's logo: its name, then the picture; listed, then taken away.
    expect(page.get_by_test_id("partner-logo-button")).to_be_disabled()
    page.get_by_test_id("partner-name").fill("Boulangerie Martin")
    expect(page.get_by_test_id("partner-logo-button")).to_be_enabled()
    _choose(
        page, "partner-logo", "logo.png", "image/png", pictures.logo("Boulangerie", (214, 140, 30))
    )
    _said(page, "Logo de « Boulangerie Martin » enregistré")
    expect(section.get_by_test_id("partner-row")).to_have_count(1)
    expect(page.get_by_test_id("partner-name")).to_have_value("")
    page.get_by_test_id("partner-name").fill("Mairie")
    expect(page.get_by_test_id("partner-logo-button")).to_be_enabled()
    _choose(page, "partner-logo", "mairie.gif", "image/gif", pictures.logo("Mairie", (30, 60, 160)))
    _said(page, "Logo de « Mairie » enregistré")
    expect(section.get_by_test_id("partner-row")).to_have_count(2)
    assert stored.count(engine, eid) == 3
    found = blocking_violations(page)
    assert not found, describe(found)
    section.screenshot(path=results_dir / "02-pictures.png")

    # The hall screen shows them: the ham in the program (twice: two games play it), the logos.
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{app_url}/ecran?code={creds.join_code}")
    expect(tv.get_by_test_id("program").get_by_role("img", name=LOTS[0])).to_have_count(2)
    expect(tv.get_by_test_id("partner")).to_have_count(2)
    tv.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    tv.screenshot(path=results_dir / "03-ecran.png")

    section.get_by_test_id("partner-remove").first.click()
    _said(page, "Logo de « Boulangerie Martin » retiré")
    expect(section.get_by_test_id("partner-row")).to_have_count(1)
    expect(tv.get_by_test_id("partner")).to_have_count(1)  # the screen follows at once
    section.locator(f"[data-lot='{LOTS[0]}']").get_by_test_id("lot-photo-remove").click()
    _said(page, f"Photo retirée de « {LOTS[0]} »")
    expect(tv.get_by_test_id("program").get_by_role("img")).to_have_count(0)
    tv.context.close()
    page.context.close()
    engine.dispose()
