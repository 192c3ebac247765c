"""The organiser's pictures: a photo for each lot of the program (shown on the hall screen and
the phones while the lot is in play, and in the program), and the partners' logos (the hall
screen's welcome, entracte and end, small during games). A substate of `OrganisationState`:
every action needs the organiser's sign-in, checked in the database (`_signed_in_now`).

An upload goes through Reflex's upload endpoint (its size capped before the body is read,
loto_app/media_http.py), then here: its size again, then Pillow (loto_app/images.py: an image
by its own bytes, no decompression bomb, upright, small, WebP, no metadata), then the engine's
move (`set_lot_photo`, `add_partner`), whose commit writes the picture in the same transaction
(storage/pictures.py): a refusal, at any step, stores nothing and says why in French.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import reflex as rx

from loto_app.domain.engine import Evening, lot_key
from loto_app.domain.errors import LotoError
from loto_app.images import ImageRefused, Picture, check_size, media_path, process
from loto_app.limits import MAX_IMAGE_BYTES, MAX_PARTNER_NAME
from loto_app.live.input.guards import BadInput, as_text, refuse
from loto_app.live.present.show import photo
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.storage.pictures import writer

log = logging.getLogger("loto_app.live")

#: The dropzone's reasons (react-dropzone's codes), as the organiser reads them.
DROP_REASONS = {
    "file-invalid-type": (
        "Ce fichier n'est pas une image : envoyez une photo JPEG, PNG, WebP ou GIF."
    ),
    "file-too-large": "Fichier trop lourd : 8 Mo au plus. Envoyez une photo plus légère.",
    "file-too-small": "Le fichier est vide : choisissez une photo.",
    "too-many-files": "Une image à la fois.",
}


class EveningMedia(OrganisationState):
    """The lots' photos and the partners' logos of the signed-in evening."""

    lots: list[dict[str, str]] = []  # each lot of the program once: {lot, photo}
    partners: list[dict[str, str]] = []  # {name, src, digest}
    lot_choice: str = ""  # the lot the next photo is for
    partner_name: str = ""  # the partner the next logo is for
    media_message: str = ""
    media_ok: bool = False

    # ------------------------------------------------------------------ the form's choices

    @rx.event
    def choose_lot(self, lot: Any):
        """The lot the next photo is for (one of the program's)."""
        try:
            chosen = as_text(lot, "lot", 200)
        except BadInput as exc:
            refuse(self._who(), "choose_lot", exc)
            return
        if chosen == "" or any(x["lot"] == chosen for x in self.lots):
            self.lot_choice = chosen

    @rx.event
    def name_partner(self, name: Any):
        """The partner the next logo is for (its name, shown under its logo)."""
        try:
            self.partner_name = as_text(name, "partner name", 4 * MAX_PARTNER_NAME)
        except BadInput as exc:
            refuse(self._who(), "name_partner", exc)

    # ------------------------------------------------------------------ uploads

    @rx.event
    async def upload_lot_photo(self, files: list[rx.UploadFile]):
        """A photo for the chosen lot (it replaces the lot's photo, if any)."""
        if not await self._signed_in_now("upload_lot_photo"):
            return
        lot = self.lot_choice
        if not lot:
            return self._say("Choisissez d'abord le lot de la photo.", ok=False)
        picture = await self._picture("upload_lot_photo", files, logo=False)
        if picture is not None and await self._play(
            "upload_lot_photo",
            lambda e: e.set_lot_photo(lot, picture.digest),
            picture,
        ):
            self._say(f"Photo enregistrée pour « {lot} ».", ok=True)

    @rx.event
    async def upload_logo(self, files: list[rx.UploadFile]):
        """A partner's logo, with the name typed beside it."""
        if not await self._signed_in_now("upload_logo"):
            return
        name = " ".join(self.partner_name.split())
        if not name:
            return self._say("Écrivez d'abord le nom du partenaire.", ok=False)
        picture = await self._picture("upload_logo", files, logo=True)
        if picture is not None and await self._play(
            "upload_logo", lambda e: e.add_partner(name, picture.digest), picture
        ):
            self.partner_name = ""
            self._say(f"Logo de « {name} » enregistré.", ok=True)

    @rx.event
    def upload_refused(self, rejected: Any):
        """The page's dropzone refused a file before sending it (not an image, too heavy):
        its reasons' codes, [[code, ...], ...] (react-dropzone's)."""
        codes = [
            c[:40]
            for reasons in (rejected[:5] if isinstance(rejected, list) else [])
            if isinstance(reasons, list)
            for c in reasons[:5]
            if isinstance(c, str)
        ]
        log.info("%s: the page refused an upload: %s", self._who(), codes or repr(rejected)[:80])
        reason = next((DROP_REASONS[c] for c in codes if c in DROP_REASONS), None)
        self._say(reason or "Ce fichier ne peut pas être envoyé.", ok=False)

    # ------------------------------------------------------------------ removals

    @rx.event
    async def remove_lot_photo(self, lot: Any):
        """Take a lot's photo away."""
        try:
            chosen = as_text(lot, "lot", 200)
        except BadInput as exc:
            return self._refused("remove_lot_photo", exc)
        if not await self._signed_in_now("remove_lot_photo"):
            return
        if await self._play("remove_lot_photo", lambda e: e.set_lot_photo(chosen, ""), None):
            self._say(f"Photo retirée de « {chosen} ».", ok=True)

    @rx.event
    async def remove_partner(self, digest: Any):
        """Take a partner's logo off the hall screen."""
        try:
            chosen = as_text(digest, "digest", 64)
        except BadInput as exc:
            return self._refused("remove_partner", exc)
        if not await self._signed_in_now("remove_partner"):
            return
        name = next((p["name"] for p in self.partners if p["digest"] == chosen), "")
        if await self._play("remove_partner", lambda e: e.remove_partner(chosen), None):
            self._say(f"Logo de « {name} » retiré.", ok=True)

    # ------------------------------------------------------------------ helpers

    async def _picture(self, handler: str, files: list[Any], *, logo: bool) -> Picture | None:
        """The one uploaded file, checked and made small (None: refused, and said; nothing
        at all for a drop whose files the page refused: `upload_refused` says why)."""
        if files == []:
            return None
        if not isinstance(files, list) or len(files) != 1:
            refuse(self._who(), handler, f"{len(files) if isinstance(files, list) else files!r}")
            self._say("Une image à la fois.", ok=False)
            return None
        upload = files[0]
        try:
            check_size(getattr(upload, "size", None))
            data = await upload.read(MAX_IMAGE_BYTES + 1)
            return await asyncio.to_thread(process, data, logo=logo)
        except ImageRefused as exc:
            refuse(self._who(), handler, f"{getattr(upload, 'filename', '?')!r:.60}: {exc}")
            self._say(exc.user_message, ok=False)
            return None

    async def _play(self, handler: str, move: Any, picture: Picture | None) -> bool:
        """The engine's move, the picture written with its commit; the lists again."""
        eid = self._evening_id
        try:
            await registry.play(eid, move, writer(eid, picture) if picture else None)
        except LotoError as exc:
            refuse(self._who(), handler, exc)
            self._say(exc.user_message, ok=False)
            return False
        self._show((await registry.live(eid, fresh=False)).evening)
        return True

    def _show(self, e: Evening) -> None:
        seen: dict[str, str] = {}
        for g in e.program.games:
            for s in g.stages:
                seen.setdefault(lot_key(s.lot.description), s.lot.description)
        self.lots = [{"lot": lot, "photo": photo(e, lot)} for lot in seen.values()]
        if self.lot_choice not in seen.values():
            self.lot_choice = ""
        self.partners = [{"name": n, "src": media_path(d), "digest": d} for n, d in e.partners]

    def _say(self, text: str, *, ok: bool) -> None:
        self.media_message, self.media_ok = text, ok

    def _tell(self, text: str) -> None:
        self._say(text, ok=False)

    async def _evening_loaded(self) -> None:
        self.media_message, self.media_ok = "", False
        self.lot_choice = self.partner_name = ""
        self._show((await registry.live(self._evening_id)).evening)

    def _signed_out(self) -> None:
        self.lots, self.partners = [], []
        self.lot_choice = self.partner_name = self.media_message = ""
