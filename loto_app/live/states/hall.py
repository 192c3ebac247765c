"""HallView: the public picture every browser of an evening shows.

Its vars are display slots written by the room broadcast (`broadcast.py`), never by the server's
per-client copy; it has no public handler. Defaults are what a page shows before it joins.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.live.states.readback import ReadBack


class HallView(ReadBack, rx.State):
    """Public, read-only state of the evening (see `snapshot.public_snapshot`); its read-back
    (ReadBack) is that of the latest claim checked on the last number."""

    evening_name: str = ""
    rehearsal: bool = False  # a rehearsal's copy: every screen says "RÉPÉTITION"
    join_code: str = ""
    series: str = ""
    status: str = "waiting"
    game_no: int = 0
    games_total: int = 0
    game_label: str = ""
    game_kind: str = ""
    stage_label: str = ""
    lot_label: str = ""
    claim_word: str = "QUINE !"
    claim_confirm: str = "Confirmer : QUINE ?"
    drawn: list[int] = []
    last: int = 0
    count: int = 0
    claim_open: bool = False
    can_draw: bool = False
    can_correct: bool = False  # the last (physical) ball may be corrected: no claim on it
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
    # the animateur's tablets only (live/runtime/presence.py): players' pages with a live
    # socket now, and the warning of a mass drop
    phones: int = 0
    phones_warning: str = ""
    auto_marking: bool = False
    physical: bool = False
    patterns: list[str] = []
    pattern: str = ""
    claim_hint: bool = False
    one_to_go: bool = False
    free_cartons: bool = False
    # the games a carton of each kind bought now plays ("Joue les parties 2 et 3.")
    kind_games: dict[str, str] = {}
    recent: list[int] = []  # the last ten numbers, newest first
    last_five: list[int] = []
    rhythm: str = ""
    stream_url: str = ""
    # the last call ("Pas d'autre quine ?")
    last_call: bool = False
    last_call_text: str = ""
    last_call_seconds: int = 5
    last_call_key: str = ""
    # ties: where tokens come from, the tied players (entry order), what may be done now
    token_source: str = "app"
    tied: list[dict[str, Any]] = []
    tie_key: str = ""
    draw_allowed: bool = False
    share_first: bool = False
    award_allowed: bool = False
    # a game's own tie rule (its label; "" for the evening's), the mort subite's balls
    tie_rule: str = ""
    tie_rule_label: str = ""
    sudden_allowed: bool = False
    sudden_balls: list[int] = []
    sudden_left: list[str] = []
    # the game's type; the inversée's cartons still in play; the jackpot's numbers left
    game_type: str = ""
    inversee: bool = False
    standing: int = 0
    jackpot_within: int = 0
    jackpot_left: int = 0
    paper_share: list[dict[str, Any]] = []
    # claims after the award, and the association's decisions (art. 8)
    reclamations: int = 0
    decisions: list[str] = []
    claim_stage_label: str = ""
    # the hall screen's scenes around the draw (live/present/show.py): "welcome", "game",
    # "between", "pause" or "end", and what each shows
    scene: str = "welcome"
    pause_message: str = ""
    pause_until: int = 0  # POSIX seconds: the entracte's end
    pause_at: str = ""  # the same, as the hall says it ("21 h 45")
    lot_photo: str = ""  # the lot in play's photo ("/media/<digest>.webp" or "")
    partners: list[dict[str, str]] = []
    program: list[dict[str, Any]] = []
    next_game: list[dict[str, Any]] = []
    game_winners: list[dict[str, str]] = []
    evening_winners: list[dict[str, str]] = []
    numbers_summary: str = ""
    numbers_games: list[dict[str, Any]] = []
    numbers_bars: list[dict[str, int]] = []
    numbers_highest: int = 0
    # the electronic draw's commitment (never its seed in play), and a closed evening
    commitment: str = ""
    commitment_short: str = ""
    draw_revealed: bool = False
    draw_note: str = ""
    closed: bool = False
