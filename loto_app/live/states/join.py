"""JoinPrefill: what a join link or the hall's QR code puts in the join form (pages/join.py)."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import reflex as rx

from loto_app.limits import MAX_CODE, MAX_SECRET
from loto_app.live.runtime import registry


class JoinPrefill(rx.State):
    """The code from a join link or QR code (?code=...), to prefill the form."""

    ROUTE: ClassVar[str] = "/"  # (filled in before the page's first snapshot: WarmHydrate)

    code: str = ""
    invitation: str = ""
    rehearsal: bool = False  # the code is a rehearsal's (its banner over the form)

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Before the join page's snapshot (live/gate/rehydrate.py): ?code= (and a remote
        player's ?invitation=) from the address, so that the form shows them with the page
        (display only: the join handler checks both)."""
        params = self.router.url.query_parameters
        raw = params.get("code", "")
        self.code = raw.strip().upper()[:MAX_CODE] if isinstance(raw, str) else ""
        inv = params.get("invitation", "")
        self.invitation = inv.strip()[:MAX_SECRET] if isinstance(inv, str) else ""
        self.rehearsal = await _is_rehearsal(self.code)
        return True


async def _is_rehearsal(code: str) -> bool:
    """Is this code a rehearsal's? Both answers are kept in memory once read (the store's),
    so that a join storm reads the database once per code."""
    if not code or not code.isalnum():
        return False
    store = registry.store()
    evening_id = store.known_code(code)
    if evening_id is None:
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
    if evening_id is None:
        return False
    try:
        return await asyncio.to_thread(store.rehearsal_of, evening_id) is not None
    except KeyError:  # (deleted meanwhile)
        return False
