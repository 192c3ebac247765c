"""Example-based tests of the controller's check (`verdicts.judge`), pattern by pattern.

Every carton here is built by hand from explicit rows that obey the format of docs/RULES.md
("Cartons"), so each expected verdict can be read off the test itself.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Sequence

import pytest

from loto_app.domain import events as ev
from loto_app.domain.cartons import Carton, validate_classic, validate_maxi
from loto_app.domain.engine import Evening
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
)
from loto_app.domain.verdicts import Judgement, Verdict, judge

CLASSIC_RANGES = (
    (1, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 59), (60, 69), (70, 79), (80, 90),
)  # fmt: skip
MAXI_RANGES = ((1, 18), (19, 36), (37, 54), (55, 72), (73, 90))


def classic_column(n: int) -> int:
    """The column (0-8) of a number on a classique carton."""
    return next(i for i, (lo, hi) in enumerate(CLASSIC_RANGES) if lo <= n <= hi)


def classic(*rows: Sequence[int]) -> Carton:
    """A classique carton from 3 rows of 5 numbers, each number placed in its column.

    Asserts the format of docs/RULES.md so that a typo in a test cannot build an impossible carton.
    """
    assert len(rows) == 3
    grid: list[list[int | None]] = []
    for row in rows:
        assert len(row) == 5
        cells: list[int | None] = [None] * 9
        for n in row:
            col = classic_column(n)
            assert cells[col] is None, f"two numbers of row {row} in column {col}"
            cells[col] = n
        grid.append(cells)
    numbers = [n for row in rows for n in row]
    assert len(set(numbers)) == 15
    for col in range(9):
        column = [grid[r][col] for r in range(3) if grid[r][col] is not None]
        assert column, f"column {col} is empty"
        assert column == sorted(column), f"column {col} does not rise"
    return Carton(tuple(tuple(r) for r in grid))


def maxi(columns: Sequence[Sequence[int]]) -> Carton:
    """A maxiquine carton from its 5 columns of 5 numbers (top to bottom)."""
    assert len(columns) == 5
    for (lo, hi), col in zip(MAXI_RANGES, columns, strict=True):
        assert len(col) == 5 and list(col) == sorted(col) and all(lo <= n <= hi for n in col)
    return Carton(tuple(tuple(columns[c][r] for c in range(5)) for r in range(5)))


# Three disjoint classique cartons (they also form the vitrine unit of the tests below).
A_ROWS = ((1, 12, 25, 43, 61), (5, 30, 47, 70, 84), (18, 36, 52, 66, 90))
B_ROWS = ((2, 13, 26, 44, 62), (6, 31, 48, 71, 85), (19, 37, 53, 67, 89))
C_ROWS = ((3, 14, 27, 45, 63), (7, 32, 49, 72, 86), (17, 38, 54, 68, 88))
A = classic(*A_ROWS)
B = classic(*B_ROWS)
C = classic(*C_ROWS)
VITRINE = (A, B, C)
A_ALL = [n for r in A_ROWS for n in r]
B_ALL = [n for r in B_ROWS for n in r]
C_ALL = [n for r in C_ROWS for n in r]
OFF = (4, 9, 10, 11)  # numbers on none of A, B, C

# Maxiquine: column k holds 5 consecutive numbers from the start of its fifth.
M = maxi([range(1, 6), range(19, 24), range(37, 42), range(55, 60), range(73, 78)])
M_MAIN = (1, 20, 39, 58, 77)  # top-left to bottom-right
M_ANTI = (73, 56, 39, 22, 5)  # top-right to bottom-left
M_CENTRE = 39
M_ALL = sorted(M.numbers)


def j(pattern: Pattern, unit: Sequence[Carton], drawn: Sequence[int]) -> Judgement:
    return judge(pattern, list(unit), list(drawn))


def valid(judgement: Judgement, winning: Sequence[int]) -> None:
    assert judgement.verdict is Verdict.VALID
    assert judgement.winning == frozenset(winning)


def late(judgement: Judgement) -> None:
    assert judgement.verdict is Verdict.LATE
    assert judgement.winning == frozenset()


def false(judgement: Judgement) -> None:
    assert judgement.verdict is Verdict.FALSE
    assert judgement.winning == frozenset()


def test_helpers_build_the_intended_grids() -> None:
    for carton in (A, B, C):
        validate_classic(carton)
    validate_maxi(M)
    assert A.rows == tuple(frozenset(r) for r in A_ROWS)
    assert A.grid[0] == (1, 12, 25, None, 43, None, 61, None, None)
    assert A.grid[2][8] == 90
    assert M.grid[0] == (1, 19, 37, 55, 73)
    assert set(M.diagonals) == {frozenset(M_MAIN), frozenset(M_ANTI)}
    assert not (A.numbers & B.numbers) and not (A.numbers & C.numbers)
    assert not (B.numbers & C.numbers)
    assert not (set(OFF) & (A.numbers | B.numbers | C.numbers))


# --------------------------------------------------------------------------- empty draw


@pytest.mark.parametrize(
    ("pattern", "unit"),
    [
        (Pattern.ONE_LINE, (A,)),
        (Pattern.TWO_LINES, (A,)),
        (Pattern.FULL_CARD, (A,)),
        (Pattern.ONE_CARD, VITRINE),
        (Pattern.TWO_CARDS, VITRINE),
        (Pattern.THREE_CARDS, VITRINE),
        (Pattern.FULL_CARD, (M,)),
        (Pattern.DIAGONAL, (M,)),
    ],
)
def test_empty_draw_is_false(pattern: Pattern, unit: tuple[Carton, ...]) -> None:
    false(j(pattern, unit, []))


# --------------------------------------------------------------------------- quine


@pytest.mark.parametrize("row", [0, 1, 2])
def test_quine_valid_when_last_number_completes_a_row(row: int) -> None:
    numbers = A_ROWS[row]
    valid(j(Pattern.ONE_LINE, [A], [*OFF, *numbers]), numbers)


def test_quine_valid_whatever_the_order_of_the_row_numbers() -> None:
    drawn = [61, 4, 43, 1, 9, 25, 12]  # 12 completes row 0
    valid(j(Pattern.ONE_LINE, [A], drawn), A_ROWS[0])


def test_quine_single_number_draw_is_false() -> None:
    false(j(Pattern.ONE_LINE, [A], [1]))


def test_quine_four_of_five_is_false() -> None:
    false(j(Pattern.ONE_LINE, [A], [1, 12, 25, 43]))


def test_quine_five_numbers_spread_over_rows_is_false() -> None:
    false(j(Pattern.ONE_LINE, [A], [1, 12, 25, 43, 5]))


def test_quine_numbers_of_another_carton_is_false() -> None:
    false(j(Pattern.ONE_LINE, [A], B_ROWS[0]))


def test_quine_late_when_next_number_is_off_the_carton() -> None:
    late(j(Pattern.ONE_LINE, [A], [*A_ROWS[0], 4]))


def test_quine_late_when_next_number_is_on_another_row() -> None:
    # Row 0 held before 5 came out; 5 is on the carton but not on a complete row.
    late(j(Pattern.ONE_LINE, [A], [*A_ROWS[0], 5]))


def test_quine_late_several_numbers_later() -> None:
    late(j(Pattern.ONE_LINE, [A], [*A_ROWS[0], 4, 9, 30, 2]))


def test_quine_valid_when_last_completes_a_second_row() -> None:
    # Row 0 is an old (passed) quine, but 90 completes row 2 right now: that one wins.
    drawn = [*A_ROWS[0], *A_ROWS[2][:-1], 4, A_ROWS[2][-1]]
    valid(j(Pattern.ONE_LINE, [A], drawn), A_ROWS[2])


# --------------------------------------------------------------------------- double quine


def test_double_quine_one_row_is_false() -> None:
    false(j(Pattern.TWO_LINES, [A], A_ROWS[0]))


def test_double_quine_one_row_and_four_numbers_is_false() -> None:
    false(j(Pattern.TWO_LINES, [A], [*A_ROWS[0], *A_ROWS[1][:4]]))


@pytest.mark.parametrize(("first", "second"), [(0, 1), (0, 2), (1, 0), (2, 1), (1, 2), (2, 0)])
def test_double_quine_valid_when_last_completes_the_second_row(first: int, second: int) -> None:
    drawn = [*A_ROWS[first], *OFF, *A_ROWS[second]]
    valid(j(Pattern.TWO_LINES, [A], drawn), A_ROWS[first] + A_ROWS[second])


def test_double_quine_late_when_both_rows_were_complete_before() -> None:
    late(j(Pattern.TWO_LINES, [A], [*A_ROWS[0], *A_ROWS[1], 4]))


def test_double_quine_late_when_last_number_is_on_the_third_incomplete_row() -> None:
    late(j(Pattern.TWO_LINES, [A], [*A_ROWS[0], *A_ROWS[1], 90]))


def test_double_quine_valid_when_last_completes_a_third_row() -> None:
    # Rows 0 and 1 held before (a passed double quine); 90 completes row 2 now: two lines, one
    # of them holding the last number, so the claim is valid.
    drawn = [*A_ROWS[0], *A_ROWS[1], *A_ROWS[2]]
    judgement = j(Pattern.TWO_LINES, [A], drawn)
    assert judgement.verdict is Verdict.VALID
    assert judgement.winning in (
        frozenset(A_ROWS[2] + A_ROWS[0]),
        frozenset(A_ROWS[2] + A_ROWS[1]),
    )


def test_double_quine_rows_of_two_cartons_do_not_add_up() -> None:
    false(j(Pattern.TWO_LINES, [A], [*A_ROWS[0], *B_ROWS[0]]))
    false(j(Pattern.TWO_LINES, [B], [*A_ROWS[0], *B_ROWS[0]]))


# --------------------------------------------------------------------------- carton plein


def test_full_card_valid_whatever_number_completes_it() -> None:
    for last in A_ALL:
        drawn = [*OFF, *(n for n in A_ALL if n != last), last]
        valid(j(Pattern.FULL_CARD, [A], drawn), A_ALL)


def test_full_card_late() -> None:
    late(j(Pattern.FULL_CARD, [A], [*A_ALL, 4]))
    late(j(Pattern.FULL_CARD, [A], [*A_ALL, *B_ALL]))


def test_full_card_fourteen_of_fifteen_is_false() -> None:
    false(j(Pattern.FULL_CARD, [A], A_ALL[:-1]))
    false(j(Pattern.FULL_CARD, [A], [*A_ALL[1:], *B_ALL]))


def test_full_card_three_rows_of_other_cartons_is_false() -> None:
    false(j(Pattern.FULL_CARD, [A], [*B_ROWS[0], *C_ROWS[1], *B_ROWS[2]]))


# --------------------------------------------------------------------------- vitrine


def test_vitrine_no_complete_carton_is_false() -> None:
    # 14 of each carton: 42 numbers, not one card complete.
    drawn = [*A_ALL[:-1], *B_ALL[:-1], *C_ALL[:-1]]
    for pattern in (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS):
        false(j(pattern, VITRINE, drawn))


def test_vitrine_rows_are_not_cards() -> None:
    drawn = [*A_ROWS[0], *B_ROWS[0], *C_ROWS[0], *A_ROWS[1]]
    false(j(Pattern.ONE_CARD, VITRINE, drawn))


@pytest.mark.parametrize("which", [0, 1, 2])
def test_vitrine_one_card_valid_on_any_of_the_three(which: int) -> None:
    numbers = (A_ALL, B_ALL, C_ALL)[which]
    valid(j(Pattern.ONE_CARD, VITRINE, [*OFF, *numbers]), numbers)


def test_vitrine_one_card_late() -> None:
    late(j(Pattern.ONE_CARD, VITRINE, [*B_ALL, 4]))
    # the last number is on carton A, which is not complete
    late(j(Pattern.ONE_CARD, VITRINE, [*B_ALL, A_ALL[0]]))


def test_vitrine_one_card_valid_on_the_just_completed_card_when_another_was_complete() -> None:
    valid(j(Pattern.ONE_CARD, VITRINE, [*A_ALL, *C_ALL]), C_ALL)


def test_vitrine_two_cards_one_complete_is_false() -> None:
    false(j(Pattern.TWO_CARDS, VITRINE, [*A_ALL, *B_ALL[:-1]]))


@pytest.mark.parametrize(("first", "second"), [(0, 1), (1, 0), (0, 2), (2, 1)])
def test_vitrine_two_cards_valid_when_last_completes_the_second(first: int, second: int) -> None:
    cards = (A_ALL, B_ALL, C_ALL)
    drawn = [*cards[first], *OFF, *cards[second]]
    valid(j(Pattern.TWO_CARDS, VITRINE, drawn), cards[first] + cards[second])


def test_vitrine_two_cards_late() -> None:
    late(j(Pattern.TWO_CARDS, VITRINE, [*A_ALL, *C_ALL, 4]))
    late(j(Pattern.TWO_CARDS, VITRINE, [*A_ALL, *C_ALL, B_ALL[0]]))


def test_vitrine_two_cards_valid_when_the_third_card_completes() -> None:
    judgement = j(Pattern.TWO_CARDS, VITRINE, [*A_ALL, *B_ALL, *C_ALL])
    assert judgement.verdict is Verdict.VALID
    assert judgement.winning in (frozenset(C_ALL + A_ALL), frozenset(C_ALL + B_ALL))


@pytest.mark.parametrize("last_card", [0, 1, 2])
def test_vitrine_three_cards_valid(last_card: int) -> None:
    cards = [A_ALL, B_ALL, C_ALL]
    order = [c for i, c in enumerate(cards) if i != last_card] + [cards[last_card]]
    drawn = [n for card in order for n in card]
    valid(j(Pattern.THREE_CARDS, VITRINE, drawn), A_ALL + B_ALL + C_ALL)


def test_vitrine_three_cards_two_complete_is_false() -> None:
    false(j(Pattern.THREE_CARDS, VITRINE, [*A_ALL, *B_ALL, *C_ALL[:-1]]))


def test_vitrine_three_cards_late() -> None:
    late(j(Pattern.THREE_CARDS, VITRINE, [*A_ALL, *B_ALL, *C_ALL, 4]))


def test_vitrine_order_of_the_unit_does_not_matter() -> None:
    drawn = [*C_ALL, *OFF, *A_ALL]
    valid(j(Pattern.TWO_CARDS, (C, A, B), drawn), A_ALL + C_ALL)
    valid(j(Pattern.TWO_CARDS, (B, C, A), drawn), A_ALL + C_ALL)


# --------------------------------------------------------------------------- maxiquine


def test_maxi_full_card_valid() -> None:
    for last in (1, M_CENTRE, 77, 73, 5):
        drawn = [*(n for n in M_ALL if n != last), last]
        valid(j(Pattern.FULL_CARD, [M], drawn), M_ALL)


def test_maxi_full_card_late_and_false() -> None:
    late(j(Pattern.FULL_CARD, [M], [*M_ALL, 90]))
    false(j(Pattern.FULL_CARD, [M], M_ALL[:-1]))
    false(j(Pattern.FULL_CARD, [M], [*M_ALL[1:], 90]))


@pytest.mark.parametrize("diagonal", [M_MAIN, M_ANTI])
def test_maxi_diagonal_valid_either_way(diagonal: tuple[int, ...]) -> None:
    for last in diagonal:
        drawn = [90, *(n for n in diagonal if n != last), last]
        valid(j(Pattern.DIAGONAL, [M], drawn), diagonal)


def test_maxi_diagonal_centre_completes_both() -> None:
    drawn = [*(n for n in M_MAIN + M_ANTI if n != M_CENTRE), M_CENTRE]
    judgement = j(Pattern.DIAGONAL, [M], drawn)
    assert judgement.verdict is Verdict.VALID
    assert judgement.winning in (frozenset(M_MAIN), frozenset(M_ANTI))


def test_maxi_diagonal_late() -> None:
    late(j(Pattern.DIAGONAL, [M], [*M_MAIN, 90]))
    # 73 is on the other diagonal, which is incomplete
    late(j(Pattern.DIAGONAL, [M], [*M_MAIN, 73]))


def test_maxi_diagonal_valid_on_the_second_diagonal_after_a_passed_first() -> None:
    drawn = [*M_MAIN, 73, 56, 22, 5]  # 5 completes the anti-diagonal (39 was drawn already)
    valid(j(Pattern.DIAGONAL, [M], drawn), M_ANTI)


def test_maxi_diagonal_false() -> None:
    false(j(Pattern.DIAGONAL, [M], M_MAIN[:-1]))
    # a full row and a full column are not diagonals
    false(j(Pattern.DIAGONAL, [M], [1, 19, 37, 55, 73]))
    false(j(Pattern.DIAGONAL, [M], [1, 2, 3, 4, 5]))
    # four of each diagonal, centre included
    false(j(Pattern.DIAGONAL, [M], [1, 20, 39, 58, 73, 56, 22]))


# --------------------------------------------------------------------------- marks


def test_marks_are_irrelevant_judge_reads_only_the_draw() -> None:
    # judge() takes no marks at all: the verdict is a function of the cartons and the draw.
    assert list(inspect.signature(judge).parameters) == ["pattern", "unit", "drawn"]


def test_verdict_does_not_depend_on_the_draw_container() -> None:
    drawn = [*OFF, *A_ROWS[1]]
    valid(judge(Pattern.ONE_LINE, (A,), tuple(drawn)), A_ROWS[1])
    valid(judge(Pattern.ONE_LINE, [A], drawn), A_ROWS[1])


def one_carton_evening(auto_marking: bool) -> tuple[Evening, int]:
    """A physical-boulier evening, one player holding one classique carton, game started."""
    program = Program(
        "A",
        (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon")),)),),
        Settings(draw_source=DrawSource.PHYSICAL, auto_marking=auto_marking, last_call_seconds=0),
    )
    evening = Evening(program, b"verdict-tests-key")
    evening.join("p1", "Paul")
    evening.sell("p1", Kind.CLASSIQUE, 1, rng=random.Random(7))
    (carton,) = evening.player_cartons("p1")
    evening.start_game()
    return evening, carton.no


def claim_verdict(events: list[ev.Event]) -> str:
    (made,) = events
    assert isinstance(made, ev.ClaimMade)
    return made.verdict


def test_engine_claim_without_any_mark_is_valid() -> None:
    evening, no = one_carton_evening(auto_marking=False)
    row = sorted(evening.cartons[no].carton.rows[0])
    for n in row:
        evening.enter_ball(n)
    assert not any(evening.game.marks.values())  # type: ignore[union-attr]
    assert claim_verdict(evening.claim("p1", no)) == Verdict.VALID


def test_engine_claim_stays_valid_after_a_pion_taken_off_by_mistake() -> None:
    evening, no = one_carton_evening(auto_marking=True)
    row = sorted(evening.cartons[no].carton.rows[1])
    for n in row:
        evening.enter_ball(n)
    assert evening.game.marks[no] == set(row)  # type: ignore[union-attr]
    evening.toggle_mark("p1", no, row[0])  # a slip: the pion comes off
    assert claim_verdict(evening.claim("p1", no)) == Verdict.VALID


def test_engine_claim_is_false_even_with_every_drawn_number_marked() -> None:
    evening, no = one_carton_evening(auto_marking=False)
    rows = [sorted(r) for r in evening.cartons[no].carton.rows]
    # four numbers of each row: 12 pions, no complete line
    for n in [x for r in rows for x in r[:4]]:
        evening.enter_ball(n)
        evening.toggle_mark("p1", no, n)
    assert len(evening.game.marks[no]) == 12  # type: ignore[union-attr]
    assert claim_verdict(evening.claim("p1", no)) == Verdict.FALSE
