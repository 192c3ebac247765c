"""`POST /media/upload` (loto_app/media_upload.py): the organiser's picture, checked by itself
(any worker may receive it, without the page's state): the code and secret in the database, the
sign-in limit of the sender's address, one file, Pillow, the engine's move. A real SQLite file
and the app's registry; the form as Starlette parses it."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image
from starlette.datastructures import FormData, Headers, UploadFile
from test_session import live_app  # noqa: F401  (a fixture)

from loto_app import media_upload
from loto_app.domain.program import demo_program
from loto_app.live.runtime import registry, signin_limit
from loto_app.storage import pictures as stored
from loto_app.storage.repository import EveningStore

SECRET = "upload-organiser-secret"
ADDRESS = "203.0.113.7"


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (320, 200), colour).save(out, "PNG")
    return out.getvalue()


def _form(code: str, secret: str, kind: str, target: str, *files: bytes) -> FormData:
    uploads = [
        (
            "file",
            UploadFile(
                io.BytesIO(data),
                size=len(data),
                filename=f"p{i}.png",
                headers=Headers({"content-type": "image/png"}),
            ),
        )
        for i, data in enumerate(files)
    ]
    return FormData(
        [("code", code), ("secret", secret), ("kind", kind), ("target", target), *uploads]
    )


@pytest.fixture
def evening(live_app: EveningStore, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    monkeypatch.setattr(signin_limit, "_limiter", None)  # (a limiter of this test's own)
    program = demo_program("UPL")
    creds = live_app.create_evening("Loto", program, organiser_secret=SECRET)
    lot = program.games[0].stages[0].lot.description
    return live_app, creds, lot


def test_a_photo_and_a_logo_stored_from_the_code_and_secret_alone(evening) -> None:
    store, creds, lot = evening

    async def scenario() -> None:
        got = await media_upload.upload(
            _form(creds.join_code.lower(), SECRET, "lot", lot, _png((200, 30, 30))), ADDRESS
        )
        assert got == media_upload.Answer(200, True, f"Photo enregistrée pour « {lot} ».")
        got = await media_upload.upload(
            _form(creds.join_code, SECRET, "logo", "  Boulangerie   Martin ", _png((0, 90, 0))),
            ADDRESS,
        )
        assert got == media_upload.Answer(200, True, "Logo de « Boulangerie Martin » enregistré.")
        e = (await registry.live(creds.evening_id)).evening
        assert [name for name, _ in e.partners] == ["Boulangerie Martin"]

    asyncio.run(scenario())
    assert stored.count(store.engine, creds.evening_id) == 2


def test_refused_uploads_store_nothing_and_wrong_secrets_count(evening) -> None:
    store, creds, lot = evening
    png = _png((30, 30, 200))

    async def scenario() -> None:
        code = creds.join_code
        for form, status, said in (
            (_form(code, SECRET, "lot", lot, png, png), 400, "Une image à la fois."),
            (_form(code, SECRET, "lot", lot), 400, "Une image à la fois."),
            (_form(code, SECRET, "lot", lot, b"not a picture"), 400, "pas une image"),
            (_form(code, SECRET, "lot", "", png), 400, "Choisissez d'abord le lot"),
            (_form(code, SECRET, "logo", "   ", png), 400, "nom du partenaire"),
            (_form(code, SECRET, "poster", lot, png), 400, "réessayez"),
            (_form("NOPE", SECRET, "lot", lot, png), 403, "incorrect"),
        ):
            got = await media_upload.upload(form, ADDRESS)
            assert (got.status, got.ok) == (status, False), (got, said)
            assert said in got.message
        # wrong secrets from one address: after the limit, even the right one is refused
        for _ in range(signin_limit.MAX_FAILURES - 1):
            got = await media_upload.upload(_form(code, "guess", "lot", lot, png), ADDRESS)
            assert got.status == 403
        got = await media_upload.upload(_form(code, SECRET, "lot", lot, png), ADDRESS)
        assert (got.status, got.ok) == (429, False)
        assert "Trop d'essais" in got.message
        # another address is not locked out
        got = await media_upload.upload(_form(code, SECRET, "lot", lot, png), "198.51.100.9")
        assert got.ok

    asyncio.run(scenario())
    assert stored.count(store.engine, creds.evening_id) == 1
