"""Every game type in the organiser's form (`live/input/program_form.py`, edited by
`live/states/organisation_setup.py`): the rows a game shows follow from its type, any program
reads into the form and back unchanged, and whatever a client sends is refused in French,
logged precisely, and changes nothing. The page: tests/e2e/test_organisation.py."""

from __future__ import annotations

import asyncio
import logging

import pytest
import reflex as rx
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import game_specs

from loto_app.domain.carton_kinds import KINDS, Kind
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES, TieRule
from loto_app.domain.program import Offer, Pattern, Program, Settings, default_offers
from loto_app.live.input.program_form import (
    FormProblem,
    GameDraft,
    OfferDraft,
    StageDraft,
    build_program,
    game_draft,
    new_game,
    offer_draft,
    priced,
    retyped,
    stage_problem,
    step_of,
    tariff_groups,
)
from loto_app.live.runtime import registry
from loto_app.live.states.organisation_setup import EveningSetup


def fill_lots(g: GameDraft, name: str = "Lot") -> GameDraft:
    for n, row in enumerate(g.stages, 1):
        if row.on or row.required:
            row.description = f"{name} {n}"
    return g


def tariff(games: list[GameDraft]) -> list[OfferDraft]:
    return priced(games, [])


def program_of(games: list[GameDraft], offers: list[OfferDraft] | None = None) -> Program:
    return build_program("A", Settings(), games, tariff(games) if offers is None else offers)


# ---------------------------------------------------------------------------- pure: the rows


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_a_new_game_of_every_type_is_a_game_of_that_type_once_its_lots_are_named(
    name: str,
) -> None:
    gt = GAME_TYPES[name]
    g = fill_lots(new_game(name))
    assert g.kind == gt.kinds[0].value and g.tie in gt.ties
    spec = program_of([g]).games[0]
    assert spec.game_type is gt and spec.kind is gt.kinds[0]
    assert [s.within for s in spec.stages][:1] == ([50] if gt.jackpot else [0])
    assert game_draft(spec).stages == g.stages  # (and back)


def test_the_rows_follow_the_types_shape() -> None:
    rows = {name: new_game(name).stages for name in GAME_TYPES}
    # a fixed cut: its stages, none to untick
    assert [(r.label, r.required) for r in rows["rapide"]] == [("Quine", True)]
    assert [r.pattern for r in rows["quine_et_carton"]] == ["one_line", "full_card"]
    assert all(r.required for r in rows["quine_et_carton"] + rows["inversee"])
    # a classique: the three to tick; a maxiquine: one of its two
    assert [(r.on, r.required) for r in rows["classique"]] == [(True, False)] * 3
    assert [r.on for r in rows["maxiquine"]] == [True, False]
    # the jackpot: the jackpot "en N numéros", then the consolation (which may be unticked)
    jackpot, consolation = rows["jackpot"]
    assert (jackpot.jackpot, jackpot.required, jackpot.within) == (True, True, "50")
    assert jackpot.label == "Jackpot (carton plein)"
    assert (consolation.jackpot, consolation.required, consolation.on) == (False, False, True)
    # the partie enfants: one row per winner
    assert [r.label for r in rows["enfants"]] == ["1er gagnant (quine)"]


@settings(max_examples=300, deadline=None)
@given(st.lists(game_specs(max_repeats=12), min_size=1, max_size=6))
def test_any_program_reads_into_the_form_and_back_unchanged(specs: list) -> None:
    """Existing programs of every type load into the form and save unchanged."""
    program = Program("A", tuple(specs))
    games = [game_draft(g) for g in program.games]
    offers = [offer_draft(o) for o in program.offers]
    assert build_program("A", program.settings, games, offers) == program


def test_a_changed_type_keeps_the_lots_its_patterns_still_play() -> None:
    g = fill_lots(new_game("classique"))  # Lot 1 (quine), Lot 2 (double quine), Lot 3 (carton)
    g.kind, g.tie = Kind.VERT.value, TieRule.SHARE.value
    jackpot = retyped(g, "gros_lot")
    assert [(r.pattern, r.description) for r in jackpot.stages] == [("full_card", "Lot 3")]
    assert (jackpot.kind, jackpot.tie) == ("vert", "share")  # both allowed there
    kids = retyped(g, "enfants")
    assert [r.description for r in kids.stages] == ["Lot 1"]
    assert (kids.kind, kids.tie) == ("enfant", "share")  # the enfants play their own cartons
    inv = retyped(retyped(g, "jackpot"), "inversee")
    assert inv.tie == "share" and inv.stages[0].description == ""
    sudden = retyped(g, "jackpot")
    sudden.tie = TieRule.SUDDEN_DEATH.value
    assert retyped(sudden, "inversee").tie == TieRule.EVENING.value  # (no mort subite there)


def test_a_jackpots_number_of_numbers_is_checked_as_typed_and_when_saved() -> None:
    g = fill_lots(new_game("jackpot"))
    row = g.stages[0]
    for typed, said in [
        ("abc", "Écrivez le nombre de numéros du jackpot, de 15 à 89."),
        ("", "Écrivez le nombre de numéros du jackpot, de 15 à 89."),
        ("٤٠", "Écrivez le nombre de numéros du jackpot, de 15 à 89."),
        ("10", "Le jackpot se joue en 15 à 89 numéros."),
        ("90", "Le jackpot se joue en 15 à 89 numéros."),
    ]:
        row.within = typed
        assert stage_problem(row) == said
        with pytest.raises((InvalidProgram, FormProblem)) as exc:
            program_of([g])
        assert exc.value.user_message.startswith("Partie 1")
        assert step_of(exc.value.user_message) == 2
    row.within = "40"
    assert stage_problem(row) == ""
    spec = program_of([g]).games[0]
    assert spec.stages[0].label == "Carton plein en 40 numéros"
    g.stages[1].on = False  # no consolation
    assert len(program_of([g]).games[0].stages) == 1


def test_hostile_rows_are_refused_in_french_and_say_where() -> None:
    """What no handler stores (the state is the server's own), read again all the same."""
    good = fill_lots(new_game("rapide"))
    cases = [
        (GameDraft(type="poker", stages=good.stages), "Partie 2\u00a0: type de partie inconnu."),
        (
            GameDraft(type="rapide", kind="or", stages=good.stages),
            "Partie 2\u00a0: carton inconnu.",
        ),
        (
            GameDraft(type="rapide", tie="duel", stages=good.stages),
            "Partie 2\u00a0: règle des ex aequo inconnue.",
        ),
        (
            GameDraft(type="rapide", stages=[StageDraft(pattern="x", label="X", description="a")]),
            "Partie 2, X\u00a0: Figure inconnue.",
        ),
        (
            GameDraft(type="enfants", kind="classique", stages=good.stages),
            "Partie 2\u00a0: Partie enfants\u00a0: elle se joue avec des cartons enfants.",
        ),
        (
            GameDraft(type="inversee", tie="sudden_death", stages=new_game("inversee").stages),
            "Partie 2\u00a0: Partie inversée\u00a0: les ex aequo ne se départagent pas",
        ),
    ]
    for bad, said in cases:
        with pytest.raises((InvalidProgram, FormProblem)) as exc:
            program_of([good, fill_lots(bad)], offers=tariff([good]))
        assert exc.value.user_message.startswith(said), exc.value.user_message
        assert str(exc.value).startswith("game 2")  # (the log says where, in English)


def test_the_inversee_refuses_the_mort_subite_with_the_types_words() -> None:
    g = fill_lots(new_game("inversee"))
    g.tie = TieRule.SUDDEN_DEATH.value
    with pytest.raises(InvalidProgram) as exc:
        program_of([g])
    assert exc.value.user_message == (
        "Partie 1\u00a0: Partie inversée\u00a0: les ex aequo ne se départagent pas par "
        "«\u00a0Mort subite (boules supplémentaires entre les ex aequo)\u00a0»."
    )


# ---------------------------------------------------------------------------- pure: the tariff


def test_every_kind_played_gets_its_usual_prices_and_must_keep_one() -> None:
    games = [fill_lots(new_game("classique")), fill_lots(new_game("enfants"))]
    games[0].kind = Kind.VERT.value
    offers = priced(games, [offer_draft(Offer(Kind.ENFANT, 1, 150))])
    assert [(o.kind, o.price) for o in offers] == [
        ("enfant", "1,50"),  # (the price typed is kept)
        ("vert", "2"),
        ("vert", "5"),
    ]
    groups = tariff_groups(games, offers)
    assert [(g["kind"], g["games"], g["planche"]) for g in groups] == [
        ("enfant", "Partie 2", ""),
        ("vert", "Partie 1", "yes"),
    ]
    program = program_of(games, offers)
    assert {o.kind for o in program.offers} == {Kind.ENFANT, Kind.VERT}
    with pytest.raises(FormProblem) as exc:
        program_of(games, offers[1:])
    assert exc.value.user_message == (
        "Tarif\u00a0: aucun prix pour les cartons enfants (partie 2)\u00a0: ajoutez-en un."
    )
    assert step_of(exc.value.user_message) == 3


def test_a_planche_only_where_the_kind_sells_as_one() -> None:
    for kind in Kind:
        game = fill_lots(new_game(next(n for n, t in GAME_TYPES.items() if kind in t.kinds)))
        game.kind = kind.value
        rows = [OfferDraft(kind=kind.value, quantity="6", price="5", planche=True)]
        if KINDS[kind].planche:
            assert program_of([game], rows).offers[0].planche
        else:
            with pytest.raises(InvalidProgram, match="planche"):
                program_of([game], rows)


# ---------------------------------------------------------------------------- the state


@pytest.fixture
def state() -> EveningSetup:
    root = rx.State(_reflex_internal_init=True)
    setup = root.get_substate(EveningSetup.get_full_name().split(".")[1:])
    setup._page_loaded()
    return setup


def h(name: str):
    return EveningSetup.event_handlers[name].fn


def test_the_form_offers_every_registered_type_and_adds_one(state: EveningSetup) -> None:
    n = len(state.games)
    h("add_game")(state, "enfants")
    assert state.games[n].type == "enfants" and state.open_game == n
    assert state.games[n].kind == "enfant"
    # the enfants' cartons are priced at once, and the form says so
    assert [o.kind for o in state.offers].count("enfant") == len(KINDS[Kind.ENFANT].offers)
    assert "cartons enfants" in state.tariff_note
    h("go_step")(state, 3)
    assert state.tariff_note == ""
    assert state.offer_groups[-1] == "" or "enfant" in state.offer_groups


def test_a_game_edited_through_its_type(state: EveningSetup) -> None:
    h("add_game")(state, "classique")
    i = len(state.games) - 1
    h("set_game_type")(state, i, "jackpot")
    h("set_game_kind")(state, i, "bleu")
    h("set_game_tie")(state, i, "sudden_death")
    h("set_stage_field")(state, i, 0, "within", "40")
    h("set_stage_field")(state, i, 0, "description", "Voyage")
    h("set_stage_field")(state, i, 1, "description", "Panier")
    h("add_game")(state, "enfants")
    h("set_game_winners")(state, i + 1, "3", "full_card")
    for j, lot in enumerate(["Peluche", "Ballon", "Livre"]):
        h("set_stage_field")(state, i + 1, j, "description", lot)
    h("set_game_winners")(state, i + 1, 2)  # (the first two lots kept)
    h("set_field")(state, "tie_method", "draw")
    program = state._program("test", "A")
    assert state.form_error == "" and program is not None
    jackpot, kids = program.games[-2:]
    assert (jackpot.type, jackpot.kind, jackpot.tie) == ("jackpot", Kind.BLEU, TieRule.SUDDEN_DEATH)
    assert [(s.label, s.lot.description) for s in jackpot.stages] == [
        ("Carton plein en 40 numéros", "Voyage"),
        ("Carton plein", "Panier"),
    ]
    assert [(s.pattern, s.lot.description) for s in kids.stages] == [
        (Pattern.FULL_CARD, "Peluche"),
        (Pattern.FULL_CARD, "Ballon"),
    ]
    assert {Kind.BLEU, Kind.ENFANT} <= {o.kind for o in program.offers}


@pytest.mark.parametrize(
    ("handler", "args"),
    [
        ("set_game_kind", (0, "enfant")),  # a classique plays no enfants' cartons
        ("set_game_kind", (4, "classique")),  # a maxiquine plays its grids
        ("set_game_tie", (0, "tirage")),
        ("set_game_type", (0, "poker")),
        ("set_game_winners", (0, 3)),  # a classique has no successive winners
        ("set_stage_field", (0, 0, "within", "40")),  # nor a jackpot
        ("add_offer", ("enfant",)),  # no enfants' game in the program
        ("set_offer_field", (5, "planche", True)),  # no planche of vitrines
    ],
)
def test_what_the_type_does_not_allow_is_refused_logged_and_changes_nothing(
    state: EveningSetup, handler: str, args: tuple, caplog: pytest.LogCaptureFixture
) -> None:
    before = ([g.__dict__.copy() for g in state.games], [o.__dict__.copy() for o in state.offers])
    with caplog.at_level(logging.WARNING, logger="loto_app.live"):
        h(handler)(state, *args)
    assert ([g.__dict__ for g in state.games], [o.__dict__ for o in state.offers]) == before
    assert state.form_error.startswith("Valeur refusée")
    assert f"refused {handler}" in caplog.text


def test_a_stage_the_type_plays_whatever_cannot_be_unticked(state: EveningSetup) -> None:
    h("add_game")(state, "rapide")
    i = len(state.games) - 1
    h("set_stage_field")(state, i, 0, "on", False)
    assert state.games[i].stages[0].on and state.form_error.startswith("Valeur refusée")


def test_an_invalid_program_stores_nothing(
    state: EveningSetup, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Creating an evening from a program the domain refuses: the French reason on the step
    where it is fixed, the precise reason in the log, and the store never asked."""
    asked = []
    monkeypatch.setattr(registry, "store", lambda: asked.append(1))
    h("add_game")(state, "inversee")
    i = len(state.games) - 1
    h("set_stage_field")(state, i, 0, "description", "Jambon")
    h("set_game_tie")(state, i, "share")  # a shared tie needs a divisible lot
    state.step = 4

    async def create() -> None:
        async for _ in h("create_evening")(state):
            pass

    with caplog.at_level(logging.WARNING, logger="loto_app.live"):
        asyncio.run(create())
    assert asked == []
    assert state.form_error.startswith(f"Partie {i + 1}\u00a0: Partage des ex aequo")
    assert (state.step, state.open_game) == (2, i)
    assert "refused create_evening" in caplog.text and f"game {i + 1}: shared tie" in caplog.text


def test_the_usual_tariff_covers_the_kinds_played(state: EveningSetup) -> None:
    h("add_game")(state, "classique")
    h("set_game_kind")(state, len(state.games) - 1, "rose")
    h("usual_offers")(state)
    kinds = {Kind(g.kind) for g in state.games}
    assert [Kind(o.kind) for o in state.offers] == [o.kind for o in default_offers(kinds)]
