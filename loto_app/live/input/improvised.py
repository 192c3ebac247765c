"""The tablet's "Ajouter une partie" (a partie improvisée: a donor arrived with a lot) as plain
data: the few types a single lot plays, and how the form becomes a `GameSpec`. Pure: the
domain validates the game; the organiser edits it fully from /organisation until it starts."""

from __future__ import annotations

from typing import Any

from loto_app.domain.games import GAME_TYPES
from loto_app.domain.program import MAX_LOT_DESCRIPTION, GameSpec, Lot, Stage
from loto_app.live.input.guards import BadInput, as_text, choice

#: the types of one lot on classique cartons, offered on the tablet (name, French label)
IMPROVISED_TYPES: tuple[tuple[str, str], ...] = tuple(
    (name, GAME_TYPES[name].label) for name in ("rapide", "double_quine", "gros_lot", "inversee")
)


def read_improvised(data: dict[str, Any]) -> GameSpec:
    """The game the tablet's form describes.

    Raises:
        BadInput: a type not offered, or no lot (French `user_message`).
    """
    name = choice(data.get("type"), {n for n, _ in IMPROVISED_TYPES}, "improvised type")
    lot = as_text(data.get("lot", ""), "improvised lot", MAX_LOT_DESCRIPTION)
    if not lot:
        raise BadInput("improvised game without a lot", "Décrivez le lot de la partie.")
    gt = GAME_TYPES[name]
    return GameSpec(gt.kinds[0], tuple(Stage(p, Lot(lot)) for p in gt.patterns), type=name)
