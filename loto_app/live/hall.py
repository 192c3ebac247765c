"""HallView: the public picture every browser of an evening shows.

Its vars are display slots written by the room broadcast (`broadcast.py`), never by the server's
per-client copy; it has no public handler. Defaults are what a page shows before it joins.
"""

from __future__ import annotations

from typing import Any

import reflex as rx


class HallView(rx.State):
    """Public, read-only state of the evening (see `snapshot.public_snapshot`)."""

    evening_name: str = ""
    join_code: str = ""
    series: str = ""
    status: str = "waiting"
    game_no: int = 0
    games_total: int = 0
    game_label: str = ""
    game_kind: str = ""
    stage_label: str = ""
    lot_label: str = ""
    claim_word: str = "QUINE !"
    drawn: list[int] = []
    last: int = 0
    count: int = 0
    claim_open: bool = False
    can_draw: bool = False
    unmark_allowed: bool = False
    awaiting_unmark: bool = False
    can_start: bool = False
    entries: list[str] = []
    tie: bool = False
    share_possible: bool = False
    share_pending: bool = False
    tie_tokens: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    announcement: str = ""
    announcement_kind: str = "info"
    players: int = 0
    auto_marking: bool = False
    physical: bool = False
    patterns: list[str] = []
    pattern: str = ""
    claim_hint: bool = False
    last_five: list[int] = []
    rhythm: str = ""
    stream_url: str = ""
