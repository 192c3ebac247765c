"""The settings catalog (domain/settings_catalog.py): every field of `Settings` has one entry,
and each entry's form control, règlement and report agree with the field it describes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from strategies import TOGETHER, setting_values, settings_values

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.program import Settings, demo_program
from loto_app.domain.settings_catalog import (
    BY_NAME,
    DISPUTES,
    NOT_ANNOUNCED,
    SETTINGS,
    Check,
    Choice,
    Number,
    SettingSpec,
    Text,
)
from loto_app.records.report import settings_lines

FIELDS = [f.name for f in dataclasses.fields(Settings)]


def test_every_field_of_settings_has_exactly_one_entry():
    names = [s.name for s in SETTINGS]
    assert sorted(names) == sorted(FIELDS), "a field of Settings without its catalog entry"
    assert len(set(names)) == len(names)
    assert set(BY_NAME) == set(FIELDS)
    forms = [s.form_name for s in SETTINGS]
    tids = [s.test_id for s in SETTINGS]
    assert len(set(forms)) == len(forms) and len(set(tids)) == len(tids)


@pytest.mark.parametrize("name", FIELDS)
def test_an_entry_s_control_fits_its_field(name: str):
    spec = BY_NAME[name]
    c = spec.control
    assert spec.label and spec.section in ("how", "remote")
    if isinstance(c, Check):
        assert setting_values(name) == [False, True]
    elif isinstance(c, Choice):
        assert c.options and all(o.title and o.detail for o in c.options)
        assert len({o.form for o in c.options}) == len(c.options)
        for o in c.options:
            Settings(**{name: o.value})  # (a value the domain takes)
            assert spec.read(spec.write(o.value)) == o.value
    elif isinstance(c, Number):
        Settings(**{name: c.low})
        Settings(**{name: c.high})
    else:
        assert isinstance(c, Text) and c.max_length > 0
    # the form's value for the default reads back as the default
    assert spec.read(spec.write(spec.default)) == spec.default


@pytest.mark.parametrize("name", FIELDS)
def test_an_entry_speaks_in_the_reglement_articles_and_the_report(name: str):
    spec = BY_NAME[name]
    if name in NOT_ANNOUNCED:
        assert not spec.reglement, f"{name} is said not to be announced"
    else:
        assert spec.reglement and all(1 <= s.article <= DISPUTES for s in spec.reglement)
    if spec.report is not None:
        assert spec.report.label
        for v in setting_values(name):
            settings = Settings(**{**TOGETHER.get(name, {}), name: v})
            assert spec.report.say(getattr(settings, name))


@settings(max_examples=60, deadline=None)
@given(settings_values())
def test_the_report_lists_the_settings_it_reports_in_the_order_of_the_fields(st: Settings):
    lines = settings_lines(dataclasses.replace(demo_program(), settings=st))
    reported = [BY_NAME[n].report for n in FIELDS if BY_NAME[n].report is not None]
    assert [label for label, _ in lines[: len(reported)]] == [r.label for r in reported]
    for (_, said), n in zip(lines, [n for n in FIELDS if BY_NAME[n].report], strict=False):
        assert said == BY_NAME[n].report.say(getattr(st, n))  # type: ignore[union-attr]
    assert [label for label, _ in lines[len(reported) :]] == ["Parties au programme", "Tarifs"]


def test_a_number_and_a_text_control_read_and_write():
    n = SettingSpec("last_call_seconds", "Secondes", Number(0, 30), (), None)
    assert n.read("12") == 12 and n.write(12) == "12"
    t = SettingSpec("stream_url", "Lien", Text(300), (), None)
    assert t.read("  https://x.fr  ") == "https://x.fr" and t.write("") == ""
    with pytest.raises(InvalidProgram):
        Settings(last_call_seconds=n.read("31"))


def test_a_choice_refuses_what_it_does_not_offer_unless_it_parses_it():
    assert BY_NAME["last_call_seconds"].read("12") == 12  # (a stored evening's 12 s kept)
    assert BY_NAME["last_call_seconds"].write(12) == "12"
    with pytest.raises(ValueError, match="not an option"):
        BY_NAME["draw_source"].read("lottery")
