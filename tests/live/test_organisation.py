"""The organiser's program form (`loto_app.live.input.program_form`, edited by
`loto_app.live.states.organisation_setup`): form rows -> `Program`, amounts typed in euros,
and the form handlers' argument checks (no server, no database). The page
itself is exercised in a real browser in tests/e2e/test_organisation.py."""

from __future__ import annotations

import itertools

import pytest
import reflex as rx

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES
from loto_app.domain.program import (
    LEGAL_CASH_MESSAGE,
    LEGAL_PRICE_MESSAGE,
    Kind,
    Settings,
    demo_program,
)
from loto_app.live.input.program_form import (
    MAX_GAMES,
    FormProblem,
    build_program,
    parse_cents,
)
from loto_app.live.input.program_form import default_game_drafts as _default_games
from loto_app.live.input.program_form import default_offer_drafts as _default_offers
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.organisation_setup import EveningSetup


def test_the_prefilled_form_is_the_typical_program() -> None:
    assert build_program("A", Settings(), _default_games(), _default_offers()) == demo_program()


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("3", 300), ("2,50", 250), ("2.5", 250), ("19,99 €", 1999), (" 1 000 ", 100000)],
)
def test_amounts_in_euros(typed: str, cents: int) -> None:
    assert parse_cents(typed, "Prix") == cents


@pytest.mark.parametrize("typed", ["", "-3", "3,555", "trois", "1e3", "3,5,0"])
def test_not_an_amount(typed: str) -> None:
    with pytest.raises(FormProblem, match="amount"):
        parse_cents(typed, "Prix")


def test_a_cash_lot_is_refused_with_the_legal_reason_and_where() -> None:
    games = _default_games()
    games[1].stages[2].cash = True
    with pytest.raises(InvalidProgram) as exc:
        build_program("A", Settings(), games, _default_offers())
    assert exc.value.user_message == f"Partie 2, Carton plein : {LEGAL_CASH_MESSAGE}"


def test_a_price_of_20_euros_is_refused_with_the_legal_reason() -> None:
    offers = _default_offers()
    offers[2].price = "20"
    with pytest.raises(InvalidProgram) as exc:
        build_program("A", Settings(), _default_games(), offers)
    assert exc.value.user_message.startswith("Tarif 3 (6 × classique) : ")
    assert exc.value.user_message.endswith(LEGAL_PRICE_MESSAGE)
    offers[2].price = "19,99"
    program = build_program("A", Settings(), _default_games(), offers)
    assert program.offers[2].price_cents == 1999


def test_unticked_stages_are_not_played_and_a_maxiquine_plays_one() -> None:
    games = _default_games()
    games[0].stages[1].on = False
    program = build_program("A", Settings(), games, _default_offers())
    assert [s.label for s in program.games[0].stages] == ["Quine", "Carton plein"]
    games[4].stages[1].on = True  # both maxiquine stages
    games[4].stages[1].description = "Cafetière"
    with pytest.raises(InvalidProgram, match="maxiquine") as exc:
        build_program("A", Settings(), games, _default_offers())
    assert exc.value.user_message.startswith("Partie 5 : ")


def test_a_tariff_for_a_kind_not_played_is_refused() -> None:
    games = [g for g in _default_games() if g.kind != Kind.SPECIAL.value]
    with pytest.raises(InvalidProgram) as exc:
        build_program("A", Settings(), games, _default_offers())
    assert "spéciale" in exc.value.user_message


@pytest.fixture
def state() -> EveningSetup:
    root = rx.State(_reflex_internal_init=True)
    setup = root.get_substate(EveningSetup.get_full_name().split(".")[1:])
    setup._page_loaded()  # what opening /organisation does
    return setup


def test_the_form_is_filled_when_the_page_loads_not_for_every_client() -> None:
    """Every client (each phone) has an EveningSetup: it holds no program until the
    organisation page loads; then the typical one, and a reload keeps what was typed."""
    root = rx.State(_reflex_internal_init=True)
    setup = root.get_substate(EveningSetup.get_full_name().split(".")[1:])
    assert setup.games == [] and setup.offers == []
    setup._page_loaded()
    assert setup.games == _default_games() and setup.offers == _default_offers()
    handlers()["remove_game"].fn(setup, 0)
    setup._page_loaded()
    assert len(setup.games) == len(_default_games()) - 1


def handlers() -> dict:
    """The form's handlers (the setup task's, and the page's tab switch)."""
    return {**OrganisationState.event_handlers, **EveningSetup.event_handlers}


JUNK = [None, 1, True, -1, 99, 1.5, "x" * 10_000, "name", [1], {"a": 1}]


@pytest.mark.parametrize(
    "handler",
    [
        "set_field",
        "add_game",
        "remove_game",
        "move_game",
        "set_game_type",
        "set_game_kind",
        "set_game_tie",
        "set_game_winners",
        "set_game_title",
        "set_stage_field",
        "add_offer",
        "remove_offer",
        "set_offer_field",
        "show_tab",
    ],
)
def test_form_handlers_take_any_junk_without_failing(state: EveningSetup, handler: str) -> None:
    fn = handlers()[handler].fn
    arity = fn.__code__.co_argcount - 1
    for args in itertools.islice(itertools.product(JUNK, repeat=arity), 3000):
        fn(state, *args)
    assert 1 <= len(state.games) <= MAX_GAMES
    for g in state.games:
        gt = GAME_TYPES[g.type]
        assert g.kind in gt.kinds and g.tie in gt.ties
        assert all(len(s.description) <= 120 for s in g.stages)
        assert all(s.on for s in g.stages if s.required)


def test_form_handlers_edit_the_program(state: EveningSetup) -> None:
    h = handlers()
    h["set_field"].fn(state, "series", "b7")
    h["add_game"].fn(state, "speciale")
    h["move_game"].fn(state, 6, -1)
    h["set_game_type"].fn(state, 0, "vitrine")
    h["set_stage_field"].fn(state, 0, 0, "cash", True)
    assert state.series == "B7"
    assert [g.kind for g in state.games][:1] + [g.kind for g in state.games][5:] == [
        "vitrine",
        "special",
        "maxiquine",
    ]
    assert state.games[0].stages[0].problem == LEGAL_CASH_MESSAGE


def test_the_form_buttons_without_arguments(state: EveningSetup) -> None:
    """ "+ Ajouter un tarif", "Tarif habituel" and "Revenir au programme type"."""
    h = handlers()
    h["remove_game"].fn(state, 0)
    h["add_offer"].fn(state)
    assert len(state.games) == len(_default_games()) - 1
    assert len(state.offers) == len(_default_offers()) + 1
    h["usual_offers"].fn(state)
    kinds = {Kind(g.kind) for g in state.games}
    assert {Kind(o.kind) for o in state.offers} <= kinds
    h["reset_form"].fn(state)
    assert state.games == _default_games() and state.offers == _default_offers()
    assert state.form_error == ""
