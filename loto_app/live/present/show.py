"""What the hall screen shows around the draw, as plain values: the program (welcome), the
winners of the game just played and the next game (between games), the entracte, the end (the
evening's winners and its numbers), the partners' logos and the lot's photo. Pure: no Reflex,
no database; pictures are named by their address (`/media/<digest>.webp`).

The room's message of every draw carries only the game scene's keys (its lot's photo, the
partners); the program, the winners and the numbers are sent with the scenes that show them.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from loto_app.domain.engine import Evening, GameStatus, lot_key
from loto_app.domain.program import KIND_LABELS, GameSpec, Stage
from loto_app.images import media_path
from loto_app.records.numbers import evening_numbers
from loto_app.records.report import REPORT_TZ

#: Game times as LiveEvening keeps them: game index -> (start, end or None), POSIX seconds.
GameTimes = Mapping[int, tuple[float, float | None]]


def clock(seconds: int) -> str:
    """A time of the evening as the hall says it ("21 h 45"), in the hall's time zone."""
    at = datetime.fromtimestamp(seconds, UTC).astimezone(REPORT_TZ)
    return f"{at.hour} h {at.minute:02d}"


def photo(e: Evening, description: str) -> str:
    """The address of a lot's photo ("" when it has none)."""
    digest = e.lot_photos.get(lot_key(description), "")
    return media_path(digest) if digest else ""


def _stage(e: Evening, s: Stage) -> dict[str, Any]:
    return {"label": s.label, "lot": s.lot.description, "photo": photo(e, s.lot.description)}


def _game(e: Evening, index: int, spec: GameSpec) -> dict[str, Any]:
    return {
        "no": index + 1,
        "kind": KIND_LABELS[spec.kind],
        "title": spec.title,  # the organiser's own title, if any ("" for most games)
        "stages": [_stage(e, s) for s in spec.stages],
    }


def _winners(e: Evening, game: int) -> list[dict[str, Any]]:
    """The lots of a game and who won them ("" when nobody did: all 90 out unclaimed)."""
    spec = e.program.games[game]
    names: dict[int, list[str]] = {}
    for t in e.lot_tickets.values():
        if t.game == game and t.kind == "lot" and t.no not in e.withdrawn:
            names.setdefault(t.stage, []).append(e.players.get(t.player_id, "Carton papier"))
    return [
        {
            "game": f"Partie {game + 1}",
            "label": s.label,
            "lot": s.lot.description,
            "photo": photo(e, s.lot.description),
            "names": " et ".join(names.get(i, [])),
        }
        for i, s in enumerate(spec.stages)
    ]


def _numbers(e: Evening, times: GameTimes) -> dict[str, Any]:
    games = []
    for g in e.games:
        start, end = times.get(g.index, (None, None))
        games.append((g.spec.label, g.drawn, start, end))
    nums = evening_numbers(games)
    highest = max(nums.highest, 1)
    return {
        "numbers_summary": nums.summary(),
        "numbers_games": [
            {
                "no": g.no,
                "draws": g.draws,
                "duration": g.duration,
                "numbers": " ".join(map(str, g.numbers)),
            }
            for g in nums.games
        ],
        # each number's bar: its height in % of the highest, and how many times it came out
        "numbers_bars": [
            {"n": n, "times": c, "height": round(100 * c / highest)}
            for n, c in enumerate(nums.frequency, start=1)
        ],
        "numbers_highest": nums.highest,
    }


def show(e: Evening, game_times: GameTimes | None = None) -> dict[str, Any]:
    """The hall screen's show: which scene, and what it needs."""
    g = e.game
    over = e.is_over
    between = g is not None and g.status is GameStatus.FINISHED and not over
    pause = e.pause
    if pause is not None:
        scene = "pause"
    elif over:
        scene = "end"
    elif g is None:
        scene = "welcome"
    elif between:
        scene = "between"
    else:
        scene = "game"
    st = g.stage_spec if g and g.status is not GameStatus.FINISHED else None
    base: dict[str, Any] = {
        "scene": scene,
        "lot_photo": photo(e, st.lot.description) if st else "",
        "partners": [{"name": n, "src": media_path(d)} for n, d in e.partners],
    }
    if scene == "game":
        # the room's message of every draw: only what the game's scene reads (the scenes
        # around it are sent whole whenever the scene changes; the screen never reads their
        # keys during a game, whatever it holds from before)
        return base
    upcoming = len(e.games) if not over else -1
    return {
        **base,
        "pause_message": pause.message if pause else "",
        "pause_until": pause.returns_at if pause else 0,
        "pause_at": clock(pause.returns_at) if pause else "",
        "program": [_game(e, i, spec) for i, spec in enumerate(e.program.games)]
        if scene == "welcome"
        else [],
        "next_game": [_game(e, upcoming, e.program.games[upcoming])]
        if 0 <= upcoming < len(e.program.games)
        else [],
        "game_winners": _winners(e, g.index) if g is not None and (between or over) else [],
        "evening_winners": [w for i in range(len(e.games)) for w in _winners(e, i)] if over else [],
        **(
            _numbers(e, game_times or {})
            if over
            else {
                "numbers_summary": "",
                "numbers_games": [],
                "numbers_bars": [],
                "numbers_highest": 0,
            }
        ),
    }
