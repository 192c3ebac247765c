"""Each game type and each kind of carton is one value that carries all of it: these tests fail
when one lacks a word, plays a shape it should refuse, or does not round-trip."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from strategies import game_specs

from loto_app.components.palette import CARTON_BANDS
from loto_app.domain.carton_kinds import KINDS, Kind
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import DEFAULT_TYPES, GAME_TYPES, TIE_LABELS, TIE_MEANINGS, TieRule
from loto_app.domain.patterns import Pattern
from loto_app.domain.program import GameSpec, Lot, Program, Stage, demo_program
from loto_app.domain.reglement import game_line

LOT = Lot("Jambon", 2500)
BON = Lot("Bon d'achat de 50 €", 5000, divisible=True)


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_of_carton_has_all_its_words(kind: Kind) -> None:
    d = KINDS[kind]
    assert d.kind is kind
    for f in dataclasses.fields(d):
        assert getattr(d, f.name) not in ("", (), None), f.name
    assert d.reglement.split()[0].strip("\xa0:") in ("Carton", "Vitrine", "Grille")
    assert kind in DEFAULT_TYPES
    assert d.band == (kind.value in CARTON_BANDS)


@pytest.mark.parametrize("name", list(GAME_TYPES))
def test_every_game_type_has_its_words_and_plays_its_own_kinds(name: str) -> None:
    gt = GAME_TYPES[name]
    assert gt.name == name and gt.label and gt.summary and gt.kinds and gt.patterns
    assert set(gt.ties) <= set(TieRule) and TieRule.EVENING in gt.ties
    spec = (
        GameSpec(
            gt.kinds[0],
            tuple(Stage(p, LOT) for p in (gt.patterns if gt.fixed else gt.patterns[:1])),
            type=name,
        )
        if not gt.jackpot
        else GameSpec(gt.kinds[0], (Stage(Pattern.FULL_CARD, LOT, within=50),), type=name)
    )
    assert spec.game_type is gt
    assert spec.label.startswith(gt.label)
    others = [k for k in Kind if k not in gt.kinds]
    with pytest.raises(InvalidProgram) as exc:
        dataclasses.replace(spec, kind=others[0])
    assert gt.label in exc.value.user_message


def test_every_tie_rule_has_a_label_and_a_meaning() -> None:
    assert set(TIE_LABELS) == set(TieRule) == set(TIE_MEANINGS)
    assert all(TIE_MEANINGS[t] for t in TieRule if t is not TieRule.EVENING)


@settings(max_examples=300, deadline=None)
@given(game_specs())
def test_any_game_round_trips_and_says_its_type(spec: GameSpec) -> None:
    assert GameSpec.from_dict(spec.to_dict()) == spec
    p = Program("A", (spec,))
    assert Program.from_dict(p.to_dict()) == p
    line = game_line(1, spec)
    assert all(s.lot.description in line for s in spec.stages)


def test_a_program_stored_before_types_reads_the_same() -> None:
    """Old programs carry no type, tie or within: their dicts load and write back unchanged."""
    p = demo_program()
    d = p.to_dict()
    assert all(set(g) == {"kind", "title", "stages"} for g in d["games"])
    assert [g.type for g in p.games] == [
        "classique",
        "classique",
        "speciale",
        "vitrine",
        "maxiquine",
        "maxiquine",
    ]
    assert Program.from_dict(d).to_dict() == d


def test_the_fixed_cuts_play_exactly_their_stages() -> None:
    GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), type="rapide")
    with pytest.raises(InvalidProgram, match="rapide"):
        GameSpec(
            Kind.CLASSIQUE,
            (Stage(Pattern.ONE_LINE, LOT), Stage(Pattern.FULL_CARD, LOT)),
            type="rapide",
        )
    GameSpec(
        Kind.VERT,
        (Stage(Pattern.ONE_LINE, LOT), Stage(Pattern.FULL_CARD, LOT)),
        type="quine_et_carton",
    )
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.TWO_LINES, LOT),), type="quine_et_carton")
    assert exc.value.user_message.startswith("« Double quine » ne se joue pas")


def test_the_partie_enfants_repeats_one_pattern_on_enfants_cartons() -> None:
    spec = GameSpec(Kind.ENFANT, (Stage(Pattern.ONE_LINE, LOT),) * 12, type="enfants")
    assert spec.game_type.one_win_per_player
    with pytest.raises(InvalidProgram, match="12"):
        GameSpec(Kind.ENFANT, (Stage(Pattern.ONE_LINE, LOT),) * 13, type="enfants")
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(
            Kind.ENFANT,
            (Stage(Pattern.ONE_LINE, LOT), Stage(Pattern.FULL_CARD, LOT)),
            type="enfants",
        )
    assert "même figure" in exc.value.user_message
    with pytest.raises(InvalidProgram):
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), type="enfants")


@pytest.mark.parametrize("within", [0, 14, 90])
def test_the_jackpot_needs_a_number_of_numbers_from_15_to_89(within: int) -> None:
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, LOT, within=within),), type="jackpot")
    assert "15" in exc.value.user_message and "89" in exc.value.user_message


def test_the_jackpot_and_its_consolation() -> None:
    spec = GameSpec(
        Kind.CLASSIQUE,
        (Stage(Pattern.FULL_CARD, LOT, within=48), Stage(Pattern.FULL_CARD, BON)),
        type="jackpot",
    )
    assert spec.stages[0].label == "Carton plein en 48 numéros"
    assert spec.game_type.ends_after(spec, 0) and spec.game_type.ends_after(spec, 1)
    with pytest.raises(InvalidProgram, match="within"):
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, LOT, within=40),))
    with pytest.raises(InvalidProgram):
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, LOT, within=40),) * 3, type="jackpot")


def test_the_inversee_is_found_by_the_server_and_has_no_mort_subite() -> None:
    gt = GAME_TYPES["inversee"]
    assert not gt.claimed and TieRule.SUDDEN_DEATH not in gt.ties
    assert all(t.claimed for t in GAME_TYPES.values() if t is not gt)
    with pytest.raises(InvalidProgram):
        GameSpec(
            Kind.CLASSIQUE,
            (Stage(Pattern.LAST_STANDING, LOT),),
            type="inversee",
            tie=TieRule.SUDDEN_DEATH,
        )


def test_a_shared_tie_needs_divisible_lots() -> None:
    GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, BON),), tie=TieRule.SHARE)
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), tie=TieRule.SHARE)
    assert "Jambon" in exc.value.user_message


def test_unknown_types_and_tie_rules_are_refused_in_french() -> None:
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), type="poker")
    assert exc.value.user_message == "Type de partie inconnu."
    with pytest.raises(InvalidProgram) as exc:
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), tie="pile ou face")  # type: ignore[arg-type]
    assert exc.value.user_message == "Règle des ex aequo inconnue."


def test_a_coloured_serie_plays_only_the_games_that_name_it() -> None:
    p = Program(
        "A",
        (
            GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),)),
            GameSpec(Kind.VERT, (Stage(Pattern.FULL_CARD, LOT),), type="gros_lot"),
        ),
    )
    assert p.kinds() == {Kind.CLASSIQUE, Kind.VERT}
    assert {o.kind for o in p.offers} == {Kind.CLASSIQUE, Kind.VERT}
    assert "cartons verts" in game_line(2, p.games[1])
