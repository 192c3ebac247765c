"""Hypothesis strategies shared by the domain's property tests: games of every type."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES, GameType, TieRule
from loto_app.domain.games.base import MAX_WITHIN, MIN_WITHIN
from loto_app.domain.program import GameSpec, Lot, Settings, Stage

lot_names = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=20)


@st.composite
def game_specs(
    draw: st.DrawFn, types: Sequence[GameType] | None = None, max_repeats: int = 4
) -> GameSpec:
    """A valid game of any type (or of one of `types`): its kind of cartons, a shape of
    stages the type plays, random lots, a tie rule it allows, sometimes improvised."""
    gt = draw(st.sampled_from(list(GAME_TYPES.values()) if types is None else list(types)))
    kind = draw(st.sampled_from(gt.kinds))
    if gt.fixed:
        chosen = list(gt.patterns)
    elif gt.repeats:
        chosen = [draw(st.sampled_from(gt.patterns))] * draw(st.integers(1, max_repeats))
    elif gt.jackpot:
        chosen = [gt.patterns[0]] * draw(st.integers(1, 2))
    else:
        mask = draw(st.lists(st.booleans(), min_size=len(gt.patterns), max_size=len(gt.patterns)))
        chosen = [p for p, keep in zip(gt.patterns, mask, strict=True) if keep]
        chosen = chosen or [gt.patterns[-1]]
    tie = draw(st.sampled_from(gt.ties))
    within = draw(st.integers(MIN_WITHIN, MAX_WITHIN)) if gt.jackpot else 0
    stages = tuple(
        Stage(
            p,
            Lot(draw(lot_names), divisible=tie is TieRule.SHARE or draw(st.booleans())),
            within=within if i == 0 else 0,
        )
        for i, p in enumerate(chosen)
    )
    title = draw(st.sampled_from(["", "La grande partie", "Partie du donateur"]))
    improvised = draw(st.booleans())
    try:
        return GameSpec(kind, stages, title, gt.name, tie, improvised)
    except InvalidProgram:  # a shape the type's own check refuses (a maxiquine plays one lot)
        return GameSpec(kind, stages[-1:], title, gt.name, tie, improvised)


def setting_values(name: str) -> list[Any]:
    """Every value worth trying for a field of `Settings`, derived from its type alone (not
    from the settings catalog): both booleans, every member of an enum, the whole numbers
    from 0 to 100 the domain accepts (ends and a few between), a few strings it accepts.
    None too when the field may be None. A field of another type fails here until this says
    what to try."""
    hint = typing.get_type_hints(Settings)[name]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    kind = args[0] if typing.get_origin(hint) in (typing.Union, types.UnionType) else hint
    if kind is bool:
        candidates: list[Any] = [False, True]
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        candidates = list(kind)
    elif kind is int:
        candidates = list(range(101))
    elif kind is str:
        candidates = ["", "https://video.exemple.fr/loto", "A", "texte"]
    else:
        raise AssertionError(f"Settings.{name}: say in strategies.setting_values what to try")
    if len(args) < len(typing.get_args(hint)):  # (Optional: None is a value too)
        candidates.append(None)
    valid = []
    for v in candidates:
        try:
            Settings(**{**TOGETHER.get(name, {}), name: v})
        except InvalidProgram:
            continue
        valid.append(v)
    if kind is int and len(valid) > 6:
        valid = sorted({valid[0], valid[1], valid[len(valid) // 2], valid[-2], valid[-1]})
    assert len(valid) >= 2, f"Settings.{name}: fewer than two values to try"
    return valid


#: Settings that are valid and read only with others: remote play needs its cap and the
#: warning confirmed (`domain/remote.check_settings`); the cap is read when remote play is on.
TOGETHER: dict[str, dict[str, Any]] = {
    "remote_play": {"remote_cap": 20, "remote_confirmed": True},
    "remote_cap": {"remote_play": True, "remote_confirmed": True},
}


def _consistent(values: dict[str, Any]) -> Settings:
    if values["remote_play"]:
        values = {**values, "remote_confirmed": True, "remote_cap": values["remote_cap"] or 1}
    return Settings(**values)


def settings_values() -> st.SearchStrategy[Settings]:
    """Random settings: every field of `Settings` (`dataclasses.fields`), each one of its
    `setting_values`."""
    return st.fixed_dictionaries(
        {f.name: st.sampled_from(setting_values(f.name)) for f in dataclasses.fields(Settings)}
    ).map(_consistent)
