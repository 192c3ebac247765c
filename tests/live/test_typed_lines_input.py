"""The lines a contrôleur types for a carton in no list, read from untrusted text
(live/input/typed_lines.py), and how screens show the claim (live/present/typed_claims.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.patterns import Pattern
from loto_app.domain.program import DrawSource, GameSpec, Kind, Lot, Program, Settings, Stage
from loto_app.live.input.typed_lines import BadLines, read_lines
from loto_app.live.present.snapshot import claim_readback, public_snapshot
from loto_app.live.present.typed_claims import lines_to_type, typed_verdict

LINE = [5, 12, 23, 47, 81]


@pytest.mark.parametrize(
    "text", ["5 12 23 47 81", "5,12,23,47,81", " 5, 12 ; 23.47 - 81 ", "5\t12\n23 47 81"]
)
def test_numbers_are_read_whatever_separates_them(text):
    assert read_lines([text], 1) == [LINE]


@pytest.mark.parametrize(
    ("fields", "needed", "said"),
    [
        ([""], 1, "La ligne\u00a0: tapez ses 5 numéros."),
        (["5 12 x 47 81"], 1, "La ligne\u00a0: « x » n'est pas un numéro de 1 à 90."),
        (["5 12 123 47 81"], 1, "« 123 » n'est pas un numéro"),
        (["5 12 ²3 47 81"], 1, "« ²3 » n'est pas un numéro"),
        (["5 12 23 47 81", ""], 2, "Ligne 2\u00a0: tapez ses 5 numéros."),
        (["1" * 61], 1, "trop de texte"),
        ([5], 1, "trop de texte"),
        (["5 12 23 47 81"], 2, "Tapez les 2 lignes de 5 numéros."),
    ],
)
def test_bad_text_is_told_in_french(fields, needed, said):
    with pytest.raises(BadLines) as caught:
        read_lines(fields, needed)
    assert said in caught.value.user_message


@given(st.lists(st.text(max_size=70), min_size=1, max_size=9), st.integers(1, 9))
def test_property_any_text_is_read_or_refused_cleanly(fields, needed):
    said = ""
    try:
        lines = read_lines(fields, needed)
    except BadLines as exc:
        said = exc.user_message
        lines = []
    assert said or len(lines) == needed
    assert all(0 <= n <= 99 for line in lines for n in line)


def _evening(*numbers: int) -> Evening:
    game = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))
    e = Evening(Program("A", (game,), Settings(DrawSource.PHYSICAL)), b"k" * 32)
    e.join("a", "Anne")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(1))
    e.start_game()
    for n in numbers:
        e.enter_ball(n)
    return e


def test_the_stage_in_play_says_how_many_lines_to_type():
    assert lines_to_type(_evening())[0] == 0
    assert lines_to_type(_evening(5)) == (
        1,
        "Quine\u00a0: tapez la ligne annoncée, 5 numéros par ligne.",
    )


def test_a_typed_line_is_read_back_in_its_columns_on_every_screen():
    e = _evening(*LINE)
    claim = next(
        x for x in e.typed_claim([LINE], "h1", "Claire", "M. Roux") if isinstance(x, ev.ClaimMade)
    )
    g = e.game
    rb = claim_readback(e, g, claim)
    assert rb["readback_title"] == "Contrôle — carton hors liste, lignes tapées"
    (cells,) = rb["readback_cartons"]
    assert [c["n"] for c in cells] == [5, 12, 23, 0, 47, 0, 0, 0, 81]
    assert [c["n"] for c in cells if c["win"]] == LINE
    assert [c["n"] for c in cells if c["last"]] == [81]
    hall = public_snapshot(e, "Loto", "ABCD")
    assert hall["readback_title"] == rb["readback_title"]
    assert "carton hors liste" in hall["announcement"]
    assert typed_verdict(e, claim).startswith("Annonce valide sur le 81 (carton hors liste")


def test_the_verdict_says_which_numbers_were_not_drawn_or_that_the_last_is_not_on_it():
    e = _evening(5, 12, 47)
    false = e.typed_claim([LINE], "h1", "Claire")[-1]
    assert typed_verdict(e, false) == (
        "Fausse annonce\u00a0: le 23 et le 81 ne sont pas sortis. Carton hors liste\u00a0: "
        "retirez-le du jeu pour cette partie."
    )
    e = _evening(*LINE, 2)
    late = e.typed_claim([LINE], "h1", "Claire")[-1]
    assert typed_verdict(e, late).startswith(
        "Tour passé\u00a0: le dernier numéro (2) n'est pas sur la ligne."
    )


def test_the_tablets_list_of_claims_says_hors_liste():
    e = _evening(*LINE)
    e.typed_claim([LINE], "h1", "Claire", "M. Roux")
    row = public_snapshot(e, "Loto", "ABCD")["claims"][0]
    assert row["carton"] == "hors liste" and row["name"] == "M. Roux"
