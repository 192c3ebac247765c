"""`POST /media/upload`: the organiser's lot photos and partners' logos, over HTTP.

A page's Reflex state lives in the memory of the worker that holds its socket (rxconfig.py),
but an upload is an HTTP request, which any worker of several may receive: Reflex's own upload
endpoint would run its handler there on a new, empty state, and answer with that state's
snapshot, resetting the organiser's page. So the upload carries what it needs itself: the
evening's code and the organiser's secret (those the browser stores to sign in again, as the
page's `resume` uses them), what the picture is for (`kind`: "lot" or "logo"; `target`: the
lot, or the partner's name) and the file. Here: the caller's address against the sign-in limit
(a wrong secret counts, as at the page's sign-in), the code and secret in the database, the
file's size, Pillow (loto_app/images.py: an image by its own bytes, no bomb, small, no
metadata), then the engine's move, whose commit writes the picture (storage/pictures.py). A
refusal, at any step, stores nothing. The answer is JSON, `ok` and the French sentence the
page shows (`EveningMedia.uploaded`, which also shows the lists again); the body's size was
capped before it was read (loto_app/media_http.py). The address and the sentences the page and
its state share are in loto_app/uploads.py; the move is played as every page's
(`registry.attempt`: the refusal logged and said the one way).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from loto_app.domain.errors import LotoError
from loto_app.images import ImageRefused, Picture, check_size, process
from loto_app.limits import MAX_CODE, MAX_IMAGE_BYTES, MAX_PARTNER_NAME, MAX_SECRET
from loto_app.live.runtime import registry, signin_limit
from loto_app.live.runtime.identity import access
from loto_app.storage.pictures import writer
from loto_app.uploads import BROKEN, DROP_REASONS

#: The partner's name as typed (the engine keeps it to MAX_PARTNER_NAME once spaces are folded).
MAX_TYPED_NAME = 4 * MAX_PARTNER_NAME

log = logging.getLogger("loto_app.live")

KINDS = ("lot", "logo")
MAX_TARGET = 200  # a lot's description (the program's limit is lower)

WRONG = (
    "Code de soirée ou secret de l'organisateur incorrect : rechargez la page et reconnectez-vous."
)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the page is told: the HTTP status, whether the picture was stored, the sentence."""

    status: int
    ok: bool
    message: str

    def body(self) -> bytes:
        return json.dumps({"ok": self.ok, "message": self.message}, ensure_ascii=False).encode()


def _text(form: Any, name: str, limit: int) -> str | None:
    """A text field of the form (None: missing, a file, or too long)."""
    value = form.get(name)
    if not isinstance(value, str) or len(value) > limit:
        return None
    return value


async def upload(form: Any, address: str) -> Answer:
    """Check and store one picture from the parsed form of `POST /media/upload`, sent from
    `address` (the sign-in limit's key: "" is not counted, this machine itself)."""
    code, secret = _text(form, "code", MAX_CODE), _text(form, "secret", MAX_SECRET)
    kind = _text(form, "kind", 8)
    target = _text(form, "target", MAX_TARGET if kind == "lot" else MAX_TYPED_NAME)
    files = form.getlist("file")
    if code is None or secret is None or kind not in KINDS or target is None:
        log.warning("upload from %s refused: a malformed form", address or "this machine")
        return Answer(400, False, BROKEN)
    if len(files) != 1 or isinstance(files[0], str):
        log.warning("upload from %s refused: %d files", address or "this machine", len(files))
        return Answer(400, False, DROP_REASONS["too-many-files"])
    try:
        await signin_limit.limiter().check(address)
    except signin_limit.TooManyAttempts as exc:
        log.warning("upload from %s refused: %s", address, exc)
        return Answer(429, False, exc.user_message)
    store = registry.store()
    evening_id = await asyncio.to_thread(store.evening_id_for_code, code.strip().upper())
    member = None
    if evening_id is not None and secret:
        member = await asyncio.to_thread(access().signs_in, "organiser", evening_id, secret)
    if evening_id is None or member is None:
        log.warning("upload from %s refused: wrong code %r or organiser secret", address, code)
        await signin_limit.limiter().failed(address, "organiser")
        return Answer(403, False, WRONG)
    who = f"organiser of evening {evening_id} ({address or 'this machine'})"

    if kind == "lot":
        if not target:
            return Answer(400, False, "Choisissez d'abord le lot de la photo.")
        done = f"Photo enregistrée pour « {target} »."
    else:
        target = " ".join(target.split())
        if not target:
            return Answer(400, False, "Écrivez d'abord le nom du partenaire.")
        done = f"Logo de « {target} » enregistré."

    file = files[0]
    try:
        check_size(getattr(file, "size", None))
        data = await file.read(MAX_IMAGE_BYTES + 1)
        picture: Picture = await asyncio.to_thread(process, data, logo=kind == "logo")
    except ImageRefused as exc:
        log.warning("%s: picture %r refused: %s", who, f"{file.filename!r:.60}", exc)
        return Answer(400, False, exc.user_message)

    def move(e: Any) -> Any:
        if kind == "lot":
            return e.set_lot_photo(target, picture.digest)
        return e.add_partner(target, picture.digest)

    refusal: list[LotoError] = []
    played = await registry.attempt(
        evening_id,
        move,
        who=who,
        handler=f"upload of the {kind} {target!r}",
        refused=refusal.append,
        extra=writer(evening_id, picture),
    )
    if played is None:
        return Answer(400, False, refusal[0].user_message)
    log.info("%s: %s %r stored (%s)", who, kind, target, picture.digest[:12])
    return Answer(200, True, done)
