"""A claim on a carton in no list, judged on the lines the contrôleur types
(domain/typed_lines.py, `Evening.typed_claim`; docs/RULES.md, "Claims")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_rules import CHAINED, KEY, draw_all, evening, last_claim

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import Grid
from loto_app.domain.cartons import CLASSIC_COLUMN_RANGES, generate_strip
from loto_app.domain.engine import Evening
from loto_app.domain.evening.typed import TYPED
from loto_app.domain.patterns import Pattern
from loto_app.domain.program import GameSpec, Kind, Lot, Stage
from loto_app.domain.typed_lines import check_lines, judge_typed, lines_needed
from loto_app.domain.verdicts import Verdict, judge

LINE = [5, 12, 23, 47, 81]
OTHER = [8, 16, 38, 55, 70]
QUINE_ONLY = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))


def filler(*taken: list[int]) -> list[int]:
    used = {n for line in taken for n in line}
    return [n for n in range(1, 91) if n not in used]


# ---------------------------------------------------------------- what is typed


def test_each_pattern_is_typed_as_its_lines():
    assert lines_needed(Pattern.ONE_LINE, Grid.CLASSIC) == 1
    assert lines_needed(Pattern.TWO_LINES, Grid.CLASSIC) == 2
    assert lines_needed(Pattern.FULL_CARD, Grid.CLASSIC) == 3
    assert lines_needed(Pattern.FULL_CARD, Grid.MAXI) == 5
    assert lines_needed(Pattern.THREE_CARDS, Grid.CLASSIC) == 9
    assert lines_needed(Pattern.DIAGONAL, Grid.MAXI) == 1
    assert lines_needed(Pattern.LAST_STANDING, Grid.CLASSIC) == 0  # the app finds the winner


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([LINE, OTHER], "une ligne de 5 numéros"),
        ([[5, 12, 23, 47]], "4 numéro(s) tapé(s), il en faut 5"),
        ([[5, 12, 23, 47, 91]], "le 91 n'est pas de 1 à 90"),
        ([[5, 12, 23, 47, 0]], "le 0 n'est pas de 1 à 90"),
        ([[5, 12, 23, 47, 47]], "le 47 est tapé deux fois"),
        ([[5, 12, 23, 47, 49]], "le 47 et le 49 sont dans la même colonne (40 à 49)"),
        ([[80, 12, 23, 47, 90]], "le 80 et le 90 sont dans la même colonne (80 à 90)"),
        ([[1, 9, 23, 47, 81]], "le 1 et le 9 sont dans la même colonne (1 à 9)"),
    ],
)
def test_a_typing_slip_is_refused_with_what_is_wrong(lines, said):
    with pytest.raises(err.InvalidTypedLines) as caught:
        check_lines(Pattern.ONE_LINE, Grid.CLASSIC, lines)
    assert said in caught.value.user_message


def test_a_number_typed_on_two_lines_names_the_first_one():
    with pytest.raises(err.InvalidTypedLines) as caught:
        check_lines(Pattern.TWO_LINES, Grid.CLASSIC, [LINE, [5, 16, 38, 55, 70]])
    assert caught.value.user_message == "Ligne 2\u00a0: le 5 est tapé deux fois (ligne 1)."


def test_the_maxiquine_columns_are_its_fifths():
    assert check_lines(Pattern.DIAGONAL, Grid.MAXI, [[18, 19, 54, 55, 90]])
    with pytest.raises(err.InvalidTypedLines, match="line 1"):
        check_lines(Pattern.DIAGONAL, Grid.MAXI, [[1, 18, 54, 55, 90]])


def test_the_checked_lines_come_back_sorted():
    assert check_lines(Pattern.ONE_LINE, Grid.CLASSIC, [[81, 5, 47, 12, 23]]) == (tuple(LINE),)


def test_judged_on_the_draw_and_the_last_number():
    assert judge_typed([LINE], [*LINE]) == judge_typed([LINE], [81, 5, 12, 23, 47])
    valid = judge_typed([LINE], [1, 5, 12, 23, 47, 81])
    assert valid.verdict is Verdict.VALID and valid.winning == tuple(LINE)
    late = judge_typed([LINE], [5, 12, 23, 47, 81, 2])
    assert late.verdict is Verdict.LATE and late.winning == ()
    false = judge_typed([LINE], [5, 12, 47, 2])
    assert false.verdict is Verdict.FALSE and false.missing == (23, 81)


@st.composite
def plausible_line(draw: st.DrawFn) -> list[int]:
    cols = draw(st.lists(st.integers(0, 8), min_size=5, max_size=5, unique=True))
    return [draw(st.integers(*CLASSIC_COLUMN_RANGES[c])) for c in cols]


@settings(max_examples=300, deadline=None)
@given(plausible_line(), st.permutations(list(range(1, 91))), st.integers(1, 90))
def test_property_valid_only_when_every_number_is_drawn_and_the_last_is_on_the_line(line, order, k):
    drawn = order[:k]
    (checked,) = check_lines(Pattern.ONE_LINE, Grid.CLASSIC, [line])
    j = judge_typed([checked], drawn)
    not_drawn = tuple(sorted(set(line) - set(drawn)))
    assert j.missing == not_drawn
    if not_drawn:
        assert j.verdict is Verdict.FALSE
    elif drawn[-1] in line:
        assert j.verdict is Verdict.VALID and j.winning == tuple(sorted(line))
    else:
        assert j.verdict is Verdict.LATE


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.permutations(list(range(1, 91))), st.integers(1, 90))
def test_property_a_real_cartons_lines_are_judged_as_the_carton_itself(seed, order, k):
    """Typed, a genuine carton's three rows get the app's own carton-plein verdict; its rows
    are never refused as implausible; a typed row judged valid is a valid quine of it."""
    carton = generate_strip(random.Random(seed))[seed % 6]
    rows = [sorted(r) for r in carton.rows]
    drawn = order[:k]
    typed = judge_typed(check_lines(Pattern.FULL_CARD, Grid.CLASSIC, rows), drawn)
    assert typed.verdict is judge(Pattern.FULL_CARD, [carton], drawn).verdict
    for r in rows:
        one = judge_typed(check_lines(Pattern.ONE_LINE, Grid.CLASSIC, [r]), drawn)
        if one.verdict is Verdict.VALID:
            assert judge(Pattern.ONE_LINE, [carton], drawn).verdict is Verdict.VALID


# ---------------------------------------------------------------- the move


def started(*games: GameSpec) -> Evening:
    e = evening(*(games or (QUINE_ONLY,)))
    e.join("a", "Anne")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(1))
    e.start_game()
    return e


def test_a_valid_typed_line_is_a_paper_players_claim_and_wins_the_lot():
    e = started()
    draw_all(e, [*filler(LINE)[:3], *LINE])
    events = e.typed_claim([[81, 47, 23, 12, 5]], "h1", "Claire", "Marcel")
    record = next(x for x in events if isinstance(x, ev.LinesTyped))
    claim = last_claim(events)
    assert record.lines == (tuple(LINE),) and record.by == "Claire" and record.missing == ()
    assert claim.verdict == Verdict.VALID and claim.via == TYPED and claim.player_id == "h1"
    assert claim.carton_no == 0 and claim.unit_nos == () and claim.winning == tuple(LINE)
    assert e.players["h1"] == "Marcel" and e.origins["h1"] == "paper"
    assert e.game.entries() == ("h1",) and not e.can_draw()
    award = e.award()
    assert any(isinstance(x, ev.StageAwarded) and x.tickets[0][1] == "h1" for x in award)


def test_a_typed_number_not_drawn_is_a_fausse_annonce_naming_it():
    e = started()
    draw_all(e, [5, 12, 47])
    n = len(e.history)
    events = e.typed_claim([LINE], "h1", "Claire")
    claim = last_claim(events)
    assert claim.verdict == Verdict.FALSE and claim.player_id is None
    assert next(x for x in events if isinstance(x, ev.LinesTyped)).missing == (23, 81)
    assert "h1" not in e.players and not e.game.annulled and len(e.history) == n + 2
    assert e.can_draw()


def test_lines_complete_before_the_last_number_are_tour_passe():
    e = started()
    draw_all(e, [*LINE, 2])
    claim = last_claim(e.typed_claim([LINE], "h1", "Claire"))
    assert claim.verdict == Verdict.LATE and claim.number == 2 and "h1" not in e.players


def test_a_slip_records_nothing():
    e = started()
    draw_all(e, LINE)
    n = len(e.history)
    with pytest.raises(err.InvalidTypedLines):
        e.typed_claim([[5, 12, 23, 47, 49]], "h1", "Claire")
    with pytest.raises(err.InvalidArgument):
        e.typed_claim([LINE], "h1", "")
    assert len(e.history) == n and "h1" not in e.players


def test_the_same_lines_twice_on_one_number_are_refused():
    e = started()
    draw_all(e, [5, 12, 23])
    e.typed_claim([LINE], "h1", "Claire")
    with pytest.raises(err.AlreadyClaimed):
        e.typed_claim([list(reversed(LINE))], "h2", "Claire")
    e.enter_ball(47)
    e.typed_claim([LINE], "h2", "Claire")  # a new number: a new claim


def test_the_double_quine_is_typed_as_two_lines_on_the_stage_in_play():
    e = started(CHAINED)
    draw_all(e, [*LINE])
    e.typed_claim([LINE], "h1", "Claire")
    e.award()
    draw_all(e, OTHER)  # (until this next number, claims are judged on the quine: art. 2)
    with pytest.raises(err.InvalidTypedLines, match="2 needed"):
        e.typed_claim([OTHER], "h2", "Claire")
    claim = last_claim(e.typed_claim([OTHER, LINE], "h2", "Claire", "Lucie"))
    assert claim.verdict == Verdict.VALID and claim.stage == 1
    assert claim.winning == tuple(sorted(LINE + OTHER))


def test_a_valid_typed_line_after_the_award_is_a_reclamation():
    e = started()
    draw_all(e, [8, 16, 38, 55, *LINE])
    e.typed_claim([LINE], "h1", "Claire")
    e.award()
    claim = last_claim(e.typed_claim([[1, 10, 20, 30, 81]], "h2", "Claire"))
    assert claim.verdict == Verdict.FALSE  # 1, 10, 20, 30 not drawn
    late = last_claim(e.typed_claim([[8, 16, 38, 55, 81]], "h3", "Claire"))
    assert late.verdict == Verdict.AFTER_AWARD and "h3" in e.players


def test_two_typed_winners_on_one_number_are_ex_aequo():
    e = started()
    draw_all(e, [5, 12, 23, 47, 8, 16, 38, 55])
    e.enter_ball(81)
    e.typed_claim([LINE], "h1", "Claire")
    e.typed_claim([[8, 16, 38, 55, 81]], "h2", "Claire")
    assert e.game.entries() == ("h1", "h2")


def test_typed_claims_replay_and_keep_the_invariants():
    e = started()
    draw_all(e, [5, 12, 23])
    e.typed_claim([LINE], "h0", "Claire")
    draw_all(e, [47, 81])
    e.typed_claim([LINE], "h1", "Claire")
    e.award()
    again = Evening.replay(e.program, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
    assert again.fingerprint() == e.fingerprint()
    assert again.typed == e.typed and len(again.typed) == 2
    again.check_invariants()
    e.check_invariants()
