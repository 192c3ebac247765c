"""The organiser's pictures: a photo for each lot of the program (shown on the hall screen and
the phones while the lot is in play, and in the program), and the partners' logos (the hall
screen's welcome, entracte and end, small during games). A substate of `OrganisationState`:
every action needs the organiser's sign-in, checked in the database (`_signed_in_now`).

A picture is sent by the page over HTTP (assets/upload.js, `POST /media/upload`), which any
worker may answer: loto_app/media_upload.py checks the organiser's stored code and secret, the
size, then Pillow (loto_app/images.py: an image by its own bytes, no decompression bomb, upright,
small, WebP, no metadata), then plays the engine's move (`set_lot_photo`, `add_partner`), whose
commit writes the picture in the same transaction (storage/pictures.py): a refusal, at any step,
stores nothing and says why in French. The answer comes back here (`uploaded`).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import reflex as rx

from loto_app.domain.engine import Evening, lot_key
from loto_app.images import media_path
from loto_app.limits import MAX_PARTNER_NAME
from loto_app.live.input.guards import BadInput, as_text, refuse
from loto_app.live.present.show import photo
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.uploads import BROKEN, DROP_REASONS

if TYPE_CHECKING:
    from loto_app.domain import events as ev

log = logging.getLogger("loto_app.live")


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
    async def uploaded(self, form_data: Any):
        """What became of a picture the page sent (assets/upload.js: `POST /media/upload`,
        loto_app/media_upload.py, which any worker may have answered): the server's answer,
        `{"ok", "message"}`, or why the page did not send the file (`{"reason"}`, react-dropzone's
        codes), or `{"sending"}` while it goes; the lists again once a picture is stored."""
        try:
            raw = as_text(
                form_data.get("answer") if isinstance(form_data, dict) else None, "answer", 1000
            )
            answer = json.loads(raw)
            if not isinstance(answer, dict):
                raise BadInput(f"answer {raw!r:.80}")
        except (BadInput, ValueError) as exc:
            refuse(self._who(), "uploaded", exc)
            return
        if answer.get("sending") is True:
            return self._say("Envoi de l'image…", ok=True)
        reason = answer.get("reason")
        if isinstance(reason, str):
            log.info("%s: the page did not send a picture: %s", self._who(), reason[:40])
            return self._say(
                DROP_REASONS.get(reason, "Ce fichier ne peut pas être envoyé."), ok=False
            )
        ok, message = answer.get("ok"), answer.get("message")
        if not isinstance(ok, bool) or not isinstance(message, str) or not message:
            return self._say(BROKEN, ok=False)
        self._say(message[:300], ok=ok)
        if ok and await self._signed_in_now("uploaded"):
            # (the upload may have been committed by another worker: catch up)
            self._show((await registry.live(self._evening_id)).evening)
            self.partner_name = ""

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
        removed = await self._play(
            "remove_lot_photo", lambda e: e.set_lot_photo(chosen, ""), checked=True
        )
        if removed is not None:
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
        removed = await self._play(
            "remove_partner", lambda e: e.remove_partner(chosen), checked=True
        )
        if removed is not None:
            self._say(f"Logo de « {name} » retiré.", ok=True)

    # ------------------------------------------------------------------ helpers

    async def _played(self, events: list[ev.Event]) -> None:
        """A removal committed: the lists again."""
        self._show((await registry.live(self._evening_id, fresh=False)).evening)

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
