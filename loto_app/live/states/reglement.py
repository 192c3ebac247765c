"""ReglementState: `/reglement?code=…` shows an evening's règlement (public: anyone holding the
join code may read it, as anyone in the hall may read the printed one)."""

from __future__ import annotations

import asyncio
from typing import Any

import reflex as rx

from loto_app.domain.reglement import TITLE, reglement
from loto_app.limits import MAX_CODE
from loto_app.live.input.guards import BadInput, as_text, refuse
from loto_app.live.runtime import registry

NO_EVENING = "Aucune soirée ne porte ce code : vérifiez le code affiché dans la salle."


class ReglementState(rx.State):
    """The règlement of the evening named by ?code=, written from its program."""

    title: str = TITLE
    code: str = ""
    articles: list[dict[str, Any]] = []
    message: str = ""
    rehearsal: bool = False  # a rehearsal's copy (its banner)

    @rx.event
    async def load(self):
        """On load of /reglement?code=XXXX: the evening's règlement, or a French message."""
        raw = self.router.url.query_parameters.get("code", "")
        try:
            code = as_text(raw, "code", MAX_CODE).upper()
        except BadInput as exc:
            refuse("reglement", "load", exc)
            code = ""
        self.articles = []
        self.rehearsal = False
        self.title = TITLE
        self.code = code
        evening_id = (
            await asyncio.to_thread(registry.store().evening_id_for_code, code) if code else None
        )
        if evening_id is None:
            self.message = (
                NO_EVENING if code else "Ajoutez le code de la soirée : /reglement?code=XXXXXX"
            )
            return
        lv = await registry.live(evening_id)
        r = reglement(lv.evening.program, lv.name)
        self.rehearsal = lv.rehearsal
        self.title = r.title
        self.articles = r.as_dicts()
        self.message = ""
