"""Every setting of the evening is stored with its program and said in its règlement: for each
field of `Settings`, every other value than its default survives `Program.to_dict` and
`from_dict`, and some other value changes the règlement's text (domain/reglement.py). A new
setting fails here until both are written (docs/ARCHITECTURE.md, "Where to add": a setting)."""

from __future__ import annotations

import dataclasses
import enum
import typing

import pytest

from loto_app.domain import program as program_module
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.program import DrawSource, Program, Settings, demo_program
from loto_app.domain.reglement import reglement

#: Settings that are no rule of the game, with the reason (nothing for the règlement to say).
NOT_RULES = {"stream_url": "a link shown above the remote players' cartons, no rule"}
HINTS = typing.get_type_hints(Settings, vars(program_module))


def others(field: dataclasses.Field) -> list[object]:
    """Values of the field's type other than its default, a few of each kind."""
    default = field.default
    kind = HINTS[field.name]
    args = typing.get_args(kind) or (kind,)
    out: list[object] = []
    for t in args:
        if t is type(None):
            out.append(None)
        elif t is bool:
            out.append(not default)
        elif isinstance(t, type) and issubclass(t, enum.Enum):
            out += list(t)
        elif t is int:
            out += [0, 1, 10, 30]
        elif t is str:
            out.append("https://example.org/direct")
    return [v for v in out if v != default]


@pytest.mark.parametrize(
    "field",
    [f for f in dataclasses.fields(Settings) if f.name not in NOT_RULES],
    ids=lambda f: f.name,
)
def test_every_setting_changes_the_reglement(field: dataclasses.Field) -> None:
    base = demo_program()
    for draw in DrawSource:  # a setting may show with one boulier only (the tokens' bag)
        start = base.with_settings(draw_source=draw)
        before = reglement(start).text()
        values = others(field)
        assert values, f"no other value of {field.name} to try: teach `others` its type"
        for value in values:
            try:
                changed = start.with_settings(**{field.name: value})
            except InvalidProgram:
                continue  # (a value the settings refuse)
            if reglement(changed).text() != before:
                return
    pytest.fail(f"no value of the setting {field.name!r} changes the règlement")


@pytest.mark.parametrize("field", dataclasses.fields(Settings), ids=lambda f: f.name)
def test_every_setting_is_stored_with_its_program(field: dataclasses.Field) -> None:
    base = demo_program()
    for value in others(field):
        try:
            p = base.with_settings(**{field.name: value})
        except InvalidProgram:
            continue
        assert getattr(Program.from_dict(p.to_dict()).settings, field.name) == value, value


def test_what_is_no_rule_is_still_a_setting() -> None:
    assert set(NOT_RULES) <= {f.name for f in dataclasses.fields(Settings)}
