"""The evening's settings on the organiser's form, read from the settings catalog: every
setting has its field and its state var, any settings read into the form and back unchanged,
and `set_field` takes each setting's values and refuses anything else."""

from __future__ import annotations

import dataclasses

import pytest
import reflex as rx
from hypothesis import given, settings
from strategies import settings_values

from loto_app.domain.program import Settings
from loto_app.domain.settings_catalog import SETTINGS, Check, Choice, Number, Text
from loto_app.live.input.program_form import (
    BOOL_FIELDS,
    CHOICE_FIELDS,
    NUMBER_FIELDS,
    TEXT_FIELDS,
    settings_form,
    settings_of,
)
from loto_app.live.states.organisation_setup import SETTING_DEFAULTS, EveningSetup


@pytest.fixture
def state() -> EveningSetup:
    root = rx.State(_reflex_internal_init=True)
    setup = root.get_substate(EveningSetup.get_full_name().split(".")[1:])
    setup._page_loaded()
    return setup


def test_every_setting_has_its_form_field_and_state_var() -> None:
    kinds = {Check: BOOL_FIELDS, Choice: CHOICE_FIELDS, Number: NUMBER_FIELDS, Text: TEXT_FIELDS}
    for spec in SETTINGS:
        assert spec.form_name in kinds[type(spec.control)], spec.name
        assert spec.form_name in EveningSetup.vars, spec.name
        assert SETTING_DEFAULTS[spec.form_name] == spec.write(spec.default)
    # a new evening's form describes the default settings
    assert settings_of(SETTING_DEFAULTS) == Settings()


@settings(max_examples=80, deadline=None)
@given(settings_values())
def test_any_settings_read_into_the_form_and_back_unchanged(st: Settings) -> None:
    assert settings_of(settings_form(st)) == st


def test_the_state_builds_the_settings_it_shows(state: EveningSetup) -> None:
    h = EveningSetup.event_handlers["set_field"].fn
    h(state, "draw_source", "physical")
    h(state, "last_call", "0")
    h(state, "token_source", "app")
    h(state, "one_to_go", True)
    h(state, "stream_url", " https://video.exemple.fr/loto ")
    assert state.form_error == ""
    program = state._program("test", "A")
    assert program is not None
    st = program.settings
    assert (st.draw_source.value, st.last_call_seconds, st.token_source.value) == (
        "physical",
        0,
        "app",
    )
    assert st.one_to_go and st.stream_url == "https://video.exemple.fr/loto"
    assert dataclasses.replace(st) == settings_of(settings_form(st))


@pytest.mark.parametrize(
    ("field", "value"),
    [("draw_source", "lottery"), ("last_call", "12"), ("one_to_go", "yes"), ("stream_url", 3)],
)
def test_set_field_refuses_what_a_setting_does_not_offer(
    state: EveningSetup, field: str, value: object
) -> None:
    before = {s.form_name: getattr(state, s.form_name) for s in SETTINGS}
    EveningSetup.event_handlers["set_field"].fn(state, field, value)
    assert state.form_error.startswith("Valeur refusée")
    assert {s.form_name: getattr(state, s.form_name) for s in SETTINGS} == before
