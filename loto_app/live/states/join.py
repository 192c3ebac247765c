"""JoinPrefill: what a join link or the hall's QR code puts in the join form (pages/join.py)."""

from __future__ import annotations

from typing import Any, ClassVar

import reflex as rx

from loto_app.limits import MAX_CODE, MAX_SECRET


class JoinPrefill(rx.State):
    """The code from a join link or QR code (?code=...), to prefill the form."""

    ROUTE: ClassVar[str] = "/"  # (filled in before the page's first snapshot: WarmHydrate)

    code: str = ""
    invitation: str = ""

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Before the join page's snapshot (live/gate/rehydrate.py): ?code= (and a remote
        player's ?invitation=) from the address, so that the form shows them with the page
        (display only: the join handler checks both)."""
        params = self.router.url.query_parameters
        raw = params.get("code", "")
        self.code = raw.strip().upper()[:MAX_CODE] if isinstance(raw, str) else ""
        inv = params.get("invitation", "")
        self.invitation = inv.strip()[:MAX_SECRET] if isinstance(inv, str) else ""
        return True
