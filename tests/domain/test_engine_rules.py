"""Example tests: one or more for every rule of docs/RULES.md, played on the engine."""

from __future__ import annotations

import random

import pytest

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
    TieMethod,
    TokenSource,
)
from loto_app.domain.serial import check_code
from loto_app.domain.verdicts import Verdict, judge

KEY = b"k" * 32
CHAINED = GameSpec(
    Kind.CLASSIQUE,
    (
        Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),
        Stage(Pattern.TWO_LINES, Lot("Bons d'achat", 5000, divisible=True)),
        Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),
    ),
)
CP_ONLY = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Télé", 30000)),))
QUINE_DIVISIBLE = GameSpec(
    Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Bon d'achat 40 €", 4000, divisible=True)),)
)


def evening(
    *games: GameSpec,
    source: DrawSource = DrawSource.PHYSICAL,
    auto: bool = False,
    tie: TieMethod = TieMethod.SHARE_OR_DRAW,
    last_call: int = 0,
    tokens: TokenSource = TokenSource.APP,
    code: str = "",
) -> Evening:
    """An evening of these games (default: no last call, tokens drawn by the app; the tests
    of the last call and of the bag's tokens ask for them); `code`, its join code."""
    settings = Settings(source, auto, tie, last_call_seconds=last_call, token_source=tokens)
    return Evening(Program("A", games or (CHAINED, CP_ONLY), settings), KEY, code)


def with_players(e: Evening, *names: str, cartons: int = 1, seed: int = 1) -> None:
    rng = random.Random(seed)
    for name in names:
        e.join(name, name.capitalize())
        e.sell(name, Kind.CLASSIQUE, cartons, rng=rng)


def carton(e: Evening, player: str, i: int = 0):
    return e.player_cartons(player)[i]


def draw_all(e: Evening, numbers) -> None:
    for n in numbers:
        e.enter_ball(n)


def outside(e: Evening, *players: str) -> list[int]:
    """Numbers on none of these players' cartons (safe filler draws)."""
    taken = set().union(*(c.carton.numbers for p in players for c in e.player_cartons(p)))
    return [n for n in range(1, 91) if n not in taken]


def row(e: Evening, player: str, r: int, i: int = 0) -> list[int]:
    return sorted(carton(e, player, i).carton.rows[r])


def last_claim(events: list[ev.Event]) -> ev.ClaimMade:
    claims = [x for x in events if isinstance(x, ev.ClaimMade)]
    assert claims
    return claims[-1]


# ---------------------------------------------------------------- sales and cartons


def test_sales_number_cartons_uniquely_in_planches_of_six():
    e = evening()
    e.join("p", "Paul")
    e.sell("p", Kind.CLASSIQUE, 4, rng=random.Random(3))
    e.sell("p", Kind.CLASSIQUE, 4, rng=random.Random(4))
    nos = [c.no for c in e.player_cartons("p")]
    assert nos == list(range(1, 9))
    first_strip = [e.cartons[n].carton.numbers for n in range(1, 7)]
    assert sorted(x for s in first_strip for x in s) == list(range(1, 91))
    assert e.stock[Kind.CLASSIQUE] == [9, 10, 11, 12]
    e.check_invariants()


def test_planche_sells_six_cartons_holding_every_number_once():
    e = evening()
    e.join("p", "Paul")
    e.sell("p", Kind.CLASSIQUE, planche=True, rng=random.Random(5))
    mine = e.player_cartons("p")
    assert len(mine) == 6
    assert sorted(x for c in mine for x in c.carton.numbers) == list(range(1, 91))


def test_vitrine_unit_is_three_cartons_sold_together():
    vit = GameSpec(Kind.VITRINE, (Stage(Pattern.ONE_CARD, Lot("Robot", 1)),))
    e = evening(CHAINED, vit)
    e.join("p", "Paul")
    e.sell("p", Kind.VITRINE, 1, rng=random.Random(1))
    mine = e.player_cartons("p")
    assert len(mine) == 3 and len({c.unit for c in mine}) == 1
    assert not set.intersection(*(set(c.carton.numbers) for c in mine))


def test_maxiquine_cartons_are_5x5():
    mq = GameSpec(Kind.MAXIQUINE, (Stage(Pattern.FULL_CARD, Lot("Tablette", 1)),))
    e = evening(CHAINED, mq)
    e.join("p", "Paul")
    e.sell("p", Kind.MAXIQUINE, 2, rng=random.Random(1))
    assert [len(c.carton.numbers) for c in e.player_cartons("p")] == [25, 25]


@pytest.mark.parametrize("quantity", [0, -1, 37, 1.5, "2", True, None])
def test_sale_quantity_is_checked(quantity):
    e = evening()
    e.join("p", "Paul")
    before = e.fingerprint()
    with pytest.raises(err.InvalidSale):
        e.sell("p", Kind.CLASSIQUE, quantity)
    assert e.fingerprint() == before


def test_no_sale_of_a_kind_not_played_tonight():
    e = evening()
    e.join("p", "Paul")
    with pytest.raises(err.InvalidSale):
        e.sell("p", Kind.VITRINE, 1)
    with pytest.raises(err.InvalidSale):
        e.sell("p", "roulette", 1)


def test_sale_to_unknown_player_is_refused():
    e = evening()
    with pytest.raises(err.UnknownPlayer):
        e.sell("ghost", Kind.CLASSIQUE, 1)


@pytest.mark.parametrize("name", ["", "   ", "x" * 31, "a\x00b", 42, None])
def test_names_are_checked(name):
    e = evening()
    with pytest.raises(err.InvalidName):
        e.join("p", name)


def test_duplicate_player_id_refused():
    e = evening()
    e.join("p", "Paul")
    with pytest.raises(err.DuplicatePlayer):
        e.join("p", "Pierre")


def test_purchase_after_first_number_joins_next_game():
    e = evening()
    with_players(e, "early")
    e.start_game()
    e.join("late", "Late")
    e.sell("late", Kind.CLASSIQUE, 1, rng=random.Random(9))  # started, nothing drawn: plays
    e.enter_ball(outside(e, "early", "late")[0])
    e.sell("late", Kind.CLASSIQUE, 1, rng=random.Random(9))  # after the first number
    first, second = e.player_cartons("late")
    assert e.plays(first.no) and not e.plays(second.no)
    n = next(iter(second.carton.numbers - set(e.game.drawn)))
    with pytest.raises(err.CartonNotInGame):
        e.toggle_mark("late", second.no, n)
    claim = last_claim(e.claim("late", second.no))
    assert claim.verdict == Verdict.NOT_IN_GAME
    assert second.no not in e.game.annulled
    purchase = e.purchase_of[second.no]
    assert purchase.first_game == 1


def test_carton_kinds_play_only_their_games():
    special = GameSpec(Kind.SPECIAL, (Stage(Pattern.FULL_CARD, Lot("Télé", 1)),))
    e = evening(special, CHAINED)
    with_players(e, "a")
    e.start_game()
    e.enter_ball(1)
    c = carton(e, "a")
    assert not e.plays(c.no)
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.NOT_IN_GAME


# ---------------------------------------------------------------- the draw


def test_electronic_draw_is_without_replacement():
    e = evening(source=DrawSource.ELECTRONIC)
    e.start_game()
    rng = random.Random(7)
    for _ in range(90):
        e.draw(rng)
    assert sorted(e.game.drawn) == list(range(1, 91))
    with pytest.raises(err.NoNumberLeft):
        e.draw(rng)


def test_physical_ball_twice_is_refused():
    e = evening()
    e.start_game()
    e.enter_ball(22)
    before = e.fingerprint()
    with pytest.raises(err.AlreadyDrawn):
        e.enter_ball(22)
    assert e.fingerprint() == before


@pytest.mark.parametrize("ball", [0, 91, -5, 22.0, "22", True, None, [22]])
def test_ball_numbers_are_checked(ball):
    e = evening()
    e.start_game()
    with pytest.raises(err.InvalidNumber):
        e.enter_ball(ball)


def test_draw_source_is_the_evenings():
    e = evening()
    e.start_game()
    with pytest.raises(err.WrongDrawSource):
        e.draw(random.Random(1))
    e2 = evening(source=DrawSource.ELECTRONIC)
    e2.start_game()
    with pytest.raises(err.WrongDrawSource):
        e2.enter_ball(5)


def test_no_draw_before_a_game_starts():
    e = evening()
    with pytest.raises(err.NoGameInProgress):
        e.enter_ball(5)


def test_correction_of_a_mistyped_ball_is_logged_and_moves_the_marks():
    e = evening()
    with_players(e, "a")
    e.start_game()
    n = row(e, "a", 0)[0]
    e.enter_ball(n)
    e.toggle_mark("a", carton(e, "a").no, n)
    fix = outside(e, "a")[0]
    events = e.correct_last(fix)
    assert events == [ev.DrawCorrected(0, 1, n, fix)]
    assert e.game.drawn == [fix]
    assert not e.game.marks.get(carton(e, "a").no)


def test_correction_refused_once_a_claim_refers_to_the_number():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    e.claim("a", carton(e, "a").no)
    with pytest.raises(err.CorrectionRefused):
        e.correct_last(outside(e, "a")[0])


def test_correction_refused_for_electronic_draws():
    e = evening(source=DrawSource.ELECTRONIC)
    e.start_game()
    e.draw(random.Random(2))
    with pytest.raises(err.CorrectionRefused):
        e.correct_last(5 if e.game.drawn != [5] else 6)


# ---------------------------------------------------------------- marking


def test_only_drawn_numbers_on_my_carton_can_be_marked_and_a_touch_unmarks():
    e = evening()
    with_players(e, "a", "b")
    e.start_game()
    c = carton(e, "a")
    n, m = row(e, "a", 0)[:2]
    e.enter_ball(n)
    with pytest.raises(err.NumberNotDrawn):
        e.toggle_mark("a", c.no, m)
    with pytest.raises(err.NumberNotOnCarton):
        e.toggle_mark("a", c.no, outside(e, "a")[0])
    with pytest.raises(err.NotYourCarton):
        e.toggle_mark("b", c.no, n)
    with pytest.raises(err.UnknownCarton):
        e.toggle_mark("a", 999, n)
    assert e.toggle_mark("a", c.no, n) == [ev.CellMarked(0, "a", c.no, n)]
    assert e.toggle_mark("a", c.no, n) == [ev.CellUnmarked(0, "a", c.no, n)]
    assert not e.game.marks[c.no]


def test_a_batch_of_marks_applies_what_toggle_mark_would_and_skips_the_rest():
    e = evening()
    with_players(e, "a", "b")
    e.start_game()
    c, other = carton(e, "a"), carton(e, "b")
    n, m = row(e, "a", 0)[:2]
    theirs = row(e, "b", 0)[0]
    e.enter_ball(n)
    ops = [(c.no, n, True), (c.no, m, True), (other.no, theirs, True), (999, n, True)]
    events, out = e.save_marks([("a", 1, ops)])
    assert events == [ev.MarksSaved(0, (("a", c.no, n, 1),))]
    assert out == [(True, [(c.no, m), (other.no, theirs), (999, n)])]  # not drawn, not mine
    assert e.game.marks[c.no] == {n}
    # sent again (a lost ack): nothing new; then the pion taken off, twice
    assert e.save_marks([("a", 1, [(c.no, n, True)])]) == ([], [(True, [])])
    events, _ = e.save_marks([("a", 1, [(c.no, n, False)]), ("a", 1, [(c.no, n, False)])])
    assert events == [ev.MarksSaved(0, (("a", c.no, n, 0),))]
    assert not e.game.marks[c.no]
    # someone else's carton is skipped even when the op "already holds"
    assert e.save_marks([("a", 1, [(other.no, n, False)])]) == ([], [(True, [(other.no, n)])])


def test_a_batch_of_marks_of_another_game_a_finished_one_or_nobody_is_refused_whole():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    n = row(e, "a", 0)[0]
    e.enter_ball(n)
    batches = [("a", 2, [(c.no, n, True)]), ("zz", 1, [(c.no, n, True)])]
    assert e.save_marks(batches) == ([], [(False, []), (False, [])])
    assert not e.game.marks.get(c.no)


def test_marks_saved_replays_to_the_same_marks():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    n, m = row(e, "a", 0)[:2]
    e.enter_ball(n)
    e.enter_ball(m)
    e.save_marks([("a", 1, [(c.no, n, True), (c.no, m, True)]), ("a", 1, [(c.no, n, False)])])
    fresh = Evening.replay(e.program, [ev.event_from_dict(x.to_dict()) for x in e.history])
    assert fresh.game.marks == e.game.marks == {c.no: {m}}


def test_auto_marking_marks_every_playing_carton():
    e = evening(auto=True)
    with_players(e, "a", "b")
    e.start_game()
    n = row(e, "a", 0)[0]
    e.enter_ball(n)
    assert e.game.marks[carton(e, "a").no] == {n}
    assert carton(e, "b").no not in e.game.marks


def test_marks_persist_across_stages_of_a_chained_game():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    line = row(e, "a", 0)
    for n in line:
        e.enter_ball(n)
        e.toggle_mark("a", c.no, n)
    e.claim("a", c.no)
    e.award()
    assert e.game.stage == 1
    assert e.game.marks[c.no] == set(line)


# ---------------------------------------------------------------- claims


def test_valid_quine_needs_the_last_number_on_the_line():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    claim = last_claim(e.claim("a", carton(e, "a").no))
    assert claim.verdict == Verdict.VALID
    assert set(claim.winning) == set(row(e, "a", 0))
    assert claim.number == row(e, "a", 0)[-1]


def test_marks_are_not_evidence_a_forgotten_tap_still_wins():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 1))
    assert not e.game.marks
    assert last_claim(e.claim("a", carton(e, "a").no)).verdict == Verdict.VALID


def test_late_claim_is_tour_passe_and_keeps_the_carton():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    e.enter_ball(outside(e, "a")[0])  # the next number came out before the claim
    claim = last_claim(e.claim("a", carton(e, "a").no))
    assert claim.verdict == Verdict.LATE
    assert not e.game.annulled
    assert e.can_draw()


def test_false_claim_annuls_the_carton_for_every_stage_of_the_game_then_it_returns():
    e = evening()
    with_players(e, "a", "b")
    e.start_game()
    c = carton(e, "a")
    e.enter_ball(row(e, "a", 0)[0])
    claim = last_claim(e.claim("a", c.no))
    assert claim.verdict == Verdict.FALSE
    assert c.unit in e.game.annulled
    assert e.can_draw()  # the game goes on
    with pytest.raises(err.CartonAnnulled):
        e.toggle_mark("a", c.no, row(e, "a", 0)[0])
    # even a real quine later on that carton does not count in this game
    draw_all(e, row(e, "a", 0)[1:])
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.ANNULLED
    # b wins the three stages, démarquage brings the carton back
    rest = [n for n in sorted(carton(e, "b").carton.numbers) if n not in e.game.drawn]
    for n in rest:
        e.enter_ball(n)
        if e.game.stage_spec and last_claim_ok(e, "b"):
            e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    e.allow_unmark()
    e.start_game()
    e.enter_ball(row(e, "a", 2)[0])
    assert c.unit not in e.game.annulled
    e.toggle_mark("a", c.no, row(e, "a", 2)[0])


def last_claim_ok(e: Evening, player: str) -> bool:
    """The player claims when (and only when) their carton wins the stage in play."""
    c = carton(e, player)
    g = e.game
    if judge(g.stage_spec.pattern, [c.carton], g.drawn).verdict != Verdict.VALID:
        return False
    if any(x.carton_no == c.no and x.number == g.last for x in g.stage_claims()):
        return False
    return last_claim(e.claim(player, c.no)).verdict == Verdict.VALID


def test_claim_on_someone_elses_carton_is_refused():
    e = evening()
    with_players(e, "a", "b")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    before = e.fingerprint()
    with pytest.raises(err.NotYourCarton):
        e.claim("b", carton(e, "a").no)
    assert e.fingerprint() == before


def test_claim_twice_on_the_same_number_is_refused():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    e.claim("a", carton(e, "a").no)
    with pytest.raises(err.AlreadyClaimed):
        e.claim("a", carton(e, "a").no)


def test_no_claim_before_the_first_number():
    e = evening()
    with_players(e, "a")
    with pytest.raises(err.NoGameInProgress):
        e.claim("a", carton(e, "a").no)
    e.start_game()
    with pytest.raises(err.NoStageInPlay):
        e.claim("a", carton(e, "a").no)


def test_double_quine_and_carton_plein_stages():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    draw_all(e, row(e, "a", 0))
    e.claim("a", c.no)
    e.award()
    draw_all(e, row(e, "a", 1)[:-1])
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.FALSE  # one line and a half


def test_chained_stages_and_awards_with_lot_tickets():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    for r in range(3):
        draw_all(e, row(e, "a", r))
        assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
        awarded = e.award()
        assert awarded == [ev.StageAwarded(0, r, ((r + 1, "a", "1"),))]
    assert e.game.status is GameStatus.AWAITING_UNMARK
    with pytest.raises(err.NoGameInProgress):
        e.enter_ball(outside(e, "a")[0])


def test_no_draw_while_a_valid_claim_is_open():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    e.claim("a", carton(e, "a").no)
    before = e.fingerprint()
    with pytest.raises(err.DrawingClosed):
        e.enter_ball(outside(e, "a")[0])
    assert e.fingerprint() == before
    assert not e.can_draw()
    e.award()
    assert e.can_draw()


def test_award_needs_a_valid_claim():
    e = evening()
    with_players(e, "a")
    e.start_game()
    e.enter_ball(1)
    with pytest.raises(err.NoValidClaim):
        e.award()


# ---------------------------------------------------------------- ex aequo


def tied_evening(
    n_players: int = 2, game: GameSpec = QUINE_DIVISIBLE, winning_cartons: int = 1, **kw
) -> tuple[Evening, int]:
    """Players whose quine completes on the same number: each buys cartons until
    `winning_cartons` of them hold the shared number in their first row (seeded strips); the
    draw then completes those first rows, the shared number last."""
    e = evening(game, CHAINED, **kw)
    names = [f"p{i}" for i in range(n_players)]
    rng = random.Random(11)
    target = None
    winners = []
    for name in names:
        e.join(name, name)
        found = 0
        while found < winning_cartons:
            e.sell(name, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(name)[-1]
            if target is None:
                target = row(e, name, 0, -1)[-1]
            if target in c.carton.rows[0]:
                found += 1
                winners.append(c)
    e.start_game()
    needed = set().union(*(c.carton.rows[0] for c in winners)) - {target}
    draw_all(e, sorted(needed))
    e.enter_ball(target)
    return e, target


def winning(e: Evening, player: str, target: int) -> list[int]:
    return [c.no for c in e.player_cartons(player) if target in c.carton.rows[0]]


def test_ex_aequo_on_the_same_number_needs_a_tie_break():
    e, _ = tied_evening(3)
    for p in ("p0", "p1", "p2"):
        c = e.player_cartons(p)[-1]
        assert last_claim(e.claim(p, c.no)).verdict == Verdict.VALID
    assert e.game.entries() == ("p0", "p1", "p2")
    with pytest.raises(err.TieUnresolved):
        e.award()


def test_token_draw_highest_wins_and_the_others_get_a_free_carton_at_once():
    e, _ = tied_evening(3)
    for p in ("p0", "p1", "p2"):
        e.claim(p, e.player_cartons(p)[-1].no)
    before = {p: len(e.player_cartons(p)) for p in ("p0", "p1", "p2")}
    events = e.break_tie_by_draw(random.Random(5))
    tie = events[0]
    assert isinstance(tie, ev.TieBroken) and tie.method == "draw"
    tokens = dict(tie.tokens)
    assert len(set(tokens.values())) == 3
    winner = max(tokens, key=tokens.get)
    assert tie.winners == (winner,)
    gifts = [x for x in events if isinstance(x, ev.CartonsSold)]
    assert sorted(g.player_id for g in gifts) == sorted(set(tokens) - {winner})
    assert all(g.reason == "consolation" and len(g.carton_nos) == 1 for g in gifts)
    for p in tokens:
        assert len(e.player_cartons(p)) == before[p] + (p != winner)
    with pytest.raises(err.AlreadyClaimed):  # (a claim on another carton: after the award)
        e.claim("p0", e.player_cartons("p0")[-1].no)
    awarded = e.award()
    assert awarded[0].tickets == ((1, winner, "1"),)


def test_one_entry_per_player_with_several_winning_cartons():
    e, target = tied_evening(2, winning_cartons=2)
    p0 = winning(e, "p0", target)
    assert len(p0) == 2
    for no in p0:
        assert last_claim(e.claim("p0", no)).verdict == Verdict.VALID
    assert e.game.entries() == ("p0",)
    e.claim("p1", winning(e, "p1", target)[0])
    assert e.game.entries() == ("p0", "p1")
    e.offer_share()  # two entries: a share between two players is possible
    e.answer_share("p0", True)
    e.answer_share("p1", True)
    assert [p for _, p, _ in e.award()[0].tickets] == ["p0", "p1"]


def test_share_by_agreement_between_two_on_a_divisible_lot():
    e, _ = tied_evening(2)
    e.claim("p0", e.player_cartons("p0")[-1].no)
    e.claim("p1", e.player_cartons("p1")[-1].no)
    e.offer_share()
    e.join("x", "X")
    with pytest.raises(err.NotInTie):
        e.answer_share("x", True)
    e.answer_share("p0", True)
    with pytest.raises(err.TieUnresolved):
        e.award()
    events = e.answer_share("p1", True)
    assert events[-1] == ev.TieBroken(0, 0, "share", (), ("p0", "p1"))
    assert e.award()[0].tickets == ((1, "p0", "1/2"), (2, "p1", "1/2"))


def test_share_refused_means_the_draw_decides():
    e, _ = tied_evening(2)
    e.claim("p0", e.player_cartons("p0")[-1].no)
    e.claim("p1", e.player_cartons("p1")[-1].no)
    e.offer_share()
    e.answer_share("p0", False)
    with pytest.raises(err.ShareNotAllowed):
        e.offer_share()
    with pytest.raises(err.TieUnresolved):
        e.award()
    e.break_tie_by_draw(random.Random(1))
    assert len(e.award()[0].tickets) == 1


def test_share_only_for_two_players_a_divisible_lot_and_if_announced():
    e, _ = tied_evening(3)
    for p in ("p0", "p1", "p2"):
        e.claim(p, e.player_cartons(p)[-1].no)
    with pytest.raises(err.ShareNotAllowed):
        e.offer_share()
    not_divisible = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Vélo", 1)),))
    e, _ = tied_evening(2, not_divisible)
    e.claim("p0", e.player_cartons("p0")[-1].no)
    e.claim("p1", e.player_cartons("p1")[-1].no)
    with pytest.raises(err.ShareNotAllowed):
        e.offer_share()
    e, _ = tied_evening(2, tie=TieMethod.DRAW)
    e.claim("p0", e.player_cartons("p0")[-1].no)
    e.claim("p1", e.player_cartons("p1")[-1].no)
    with pytest.raises(err.ShareNotAllowed):
        e.offer_share()


def test_no_tie_break_without_a_tie():
    e = evening()
    with_players(e, "a")
    e.start_game()
    draw_all(e, row(e, "a", 0))
    e.claim("a", carton(e, "a").no)
    with pytest.raises(err.NoTie):
        e.break_tie_by_draw(random.Random(1))


# ---------------------------------------------------------------- ending a game


def play_out(e: Evening, player: str) -> None:
    """Draw the player's carton to the end, claiming and awarding each stage."""
    for r in range(3):
        for n in row(e, player, r):
            if n not in e.game.drawn:
                e.enter_ball(n)
        while e.game.stage_spec and last_claim_ok(e, player):
            e.award()


def test_demarquage_locked_until_the_animateur_allows_it():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    n = row(e, "a", 0)[0]
    e.enter_ball(n)
    e.toggle_mark("a", c.no, n)
    with pytest.raises(err.DemarquageLocked):
        e.unmark_all("a")
    with pytest.raises(err.DemarquageTooEarly):
        e.allow_unmark()
    play_out(e, "a")
    assert e.game.status is GameStatus.AWAITING_UNMARK
    with pytest.raises(err.DemarquageLocked):
        e.unmark_all("a")
    with pytest.raises(err.GameNotFinished):
        e.start_game()
    e.allow_unmark()
    assert e.unmark_all("a") == [ev.CartonsCleared(0, "a")]
    assert not e.game.marks.get(c.no)


def test_evening_ends_when_every_game_is_played():
    e = evening(CP_ONLY)
    with_players(e, "a")
    e.start_game()
    play_out(e, "a")
    e.allow_unmark()
    assert e.is_over
    with pytest.raises(err.EveningOver):
        e.start_game()
    with pytest.raises(err.InvalidSale):
        e.sell("a", Kind.CLASSIQUE, 1)


# ---------------------------------------------------------------- the control desk


def test_paper_claim_checks_the_serie_and_the_check_code():
    e = evening()
    with_players(e, "a")
    e.start_game()
    c = carton(e, "a")
    draw_all(e, row(e, "a", 0))
    code = check_code(KEY, "A", c.no)
    assert last_claim(e.paper_claim("B", c.no, code)).verdict == Verdict.WRONG_SERIES
    assert last_claim(e.paper_claim("A", c.no, "XXXXXX")).verdict == Verdict.WRONG_SERIES
    assert last_claim(e.paper_claim("A", 500, code)).verdict == Verdict.WRONG_SERIES
    valid = last_claim(e.paper_claim("a", c.no, code.lower()))
    assert valid.verdict == Verdict.VALID and valid.player_id == "a" and valid.via == "desk"


def test_paper_claim_of_an_unsold_carton_is_not_in_game():
    e = evening()
    with_players(e, "a")
    e.start_game()
    e.enter_ball(1)
    unsold = e.stock[Kind.CLASSIQUE][0]
    claim = last_claim(e.paper_claim("A", unsold, check_code(KEY, "A", unsold)))
    assert claim.verdict == Verdict.NOT_IN_GAME


# ---------------------------------------------------------------- replay


def test_replay_of_the_serialised_events_gives_the_same_state():
    e, _ = tied_evening(3)
    for p in ("p0", "p1", "p2"):
        e.claim(p, e.player_cartons(p)[-1].no)
    e.break_tie_by_draw(random.Random(3))
    e.award()
    again = Evening.replay(e.program, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
    assert again.fingerprint() == e.fingerprint()
    again.check_invariants()


def test_a_game_nobody_won_ends_once_all_90_numbers_are_out():
    special = GameSpec(Kind.SPECIAL, (Stage(Pattern.FULL_CARD, Lot("Vélo", 1)),))
    e = evening(special, CP_ONLY, source=DrawSource.ELECTRONIC)
    with_players(e, "a")  # classique cartons only: nobody can win the spécial game
    e.start_game()
    rng = random.Random(4)
    for _ in range(89):
        e.draw(rng)
    with pytest.raises(err.DemarquageTooEarly):
        e.allow_unmark()
    e.draw(rng)
    e.allow_unmark()  # the lot stays unwon, the evening goes on
    assert e.game.status is GameStatus.FINISHED and not e.game.awards
    e.start_game()
    e.check_invariants()


def test_no_sale_of_cartons_that_no_game_left_would_play():
    vit = GameSpec(Kind.VITRINE, (Stage(Pattern.ONE_CARD, Lot("Robot", 1)),))
    e = evening(vit, CP_ONLY)
    e.join("p", "Paul")
    e.sell("p", Kind.VITRINE, 1, rng=random.Random(1))  # the vitrine game is still to come
    e.start_game()
    e.enter_ball(1)  # the vitrine game has begun: a vitrine bought now would never play
    with pytest.raises(err.InvalidSale):
        e.sell("p", Kind.VITRINE, 1)
    e.sell("p", Kind.CLASSIQUE, 1, rng=random.Random(2))  # the classique game is next
    assert e.purchase_of[e.player_cartons("p")[-1].no].first_game == 1


def test_no_consolation_carton_when_only_a_vitrine_game_is_left_but_a_carton_offert_voucher():
    vit = GameSpec(Kind.VITRINE, (Stage(Pattern.ONE_CARD, Lot("Robot", 1)),))
    settings = Settings(
        DrawSource.PHYSICAL,
        False,
        TieMethod.DRAW,
        last_call_seconds=0,
        token_source=TokenSource.APP,
    )
    e = Evening(Program("A", (QUINE_DIVISIBLE, vit), settings), KEY)
    for p in ("p0", "p1"):
        e.join(p, p)
    rng = random.Random(11)
    target = None
    for p in ("p0", "p1"):
        while True:
            e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(p)[-1]
            target = target or sorted(c.carton.rows[0])[-1]
            if target in c.carton.rows[0]:
                break
    e.start_game()
    rows = [e.player_cartons(p)[-1].carton.rows[0] for p in ("p0", "p1")]
    draw_all(e, sorted(set().union(*rows) - {target}))
    e.enter_ball(target)
    for p in ("p0", "p1"):
        e.claim(p, e.player_cartons(p)[-1].no)
    events = e.break_tie_by_draw(random.Random(3))
    # nothing left for a free carton to play: a "carton offert" voucher, numbered as a ticket
    assert [type(x) for x in events] == [ev.TieBroken, ev.VoucherIssued]
    tie, voucher = events
    (loser,) = {"p0", "p1"} - set(tie.winners)
    assert voucher == ev.VoucherIssued(1, loser, 0, 0, "tie")
    assert e.tickets()[1].kind == "voucher" and e.tickets()[1].player_id == loser
    (award,) = e.award()
    assert award.tickets == ((2, tie.winners[0], "1"),)
    e.hand_over(1, "Paul")  # the desk hands the voucher over like a lot
    e.check_invariants()


def test_the_last_ball_can_be_corrected_only_while_no_claim_refers_to_it():
    e = Evening(
        Program(
            "A",
            (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon")),)),),
            Settings(DrawSource.PHYSICAL),
        ),
        b"k",
    )
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 1, rng=random.Random(1))
    assert not e.can_correct()  # no game
    e.start_game()
    assert not e.can_correct()  # no ball
    e.enter_ball(5)
    assert e.can_correct()
    e.claim("ana", e.player_cartons("ana")[0].no)  # a (false) claim on the 5
    assert not e.can_correct()
    with pytest.raises(err.CorrectionRefused):
        e.correct_last(6)
    e.enter_ball(6)
    assert e.can_correct()
    electronic = Evening(Program("B", e.program.games), b"k")
    electronic.start_game()
    electronic.draw(random.Random(2))
    assert not electronic.can_correct()


# --------------------------------------------------------------------------- the entracte


def test_an_entracte_is_only_between_games_and_the_next_game_ends_it() -> None:
    e = evening(CHAINED, CP_ONLY)
    with_players(e, "alice")
    (started,) = e.start_pause("  Buvette   ouverte ", 1_900_000_000)  # before the first game
    assert started == ev.PauseStarted("Buvette ouverte", 1_900_000_000)
    assert e.pause == started
    e.start_pause("Tombola au fond de la salle", 1_900_000_600)  # a new one replaces it
    assert e.pause is not None and e.pause.returns_at == 1_900_000_600
    e.start_game()
    assert e.pause is None  # the games resume
    with pytest.raises(err.PauseRefused) as refused:
        e.start_pause("Entracte", 1_900_000_900)
    assert "Terminez la partie" in refused.value.user_message
    with pytest.raises(err.PauseRefused):
        e.end_pause()
    # the game ends (all 90 numbers out, nobody claimed): an entracte may start, then end
    for n in range(1, 91):
        e.enter_ball(n)
    e.allow_unmark()
    e.start_pause("Entracte", 1_900_001_000)
    assert e.end_pause() == [ev.PauseEnded()] and e.pause is None
    # replaying the log gives the same evening, the entracte included
    e.start_pause("Entracte", 1_900_001_000)
    again = Evening.replay(e.program, e.history, KEY)
    assert again.fingerprint() == e.fingerprint()


@pytest.mark.parametrize(
    ("message", "returns_at"),
    [("", 1), ("   ", 1), ("x" * 121, 1), ("a\x07", 1), (7, 1), ("ok", 0), ("ok", True)],
)
def test_an_entracte_needs_a_message_and_a_return_time(message: object, returns_at: object):
    e = evening()
    with pytest.raises(err.InvalidArgument):
        e.start_pause(message, returns_at)  # type: ignore[arg-type]
    assert e.pause is None and e.history == []


def test_no_entracte_once_the_evening_is_over() -> None:
    e = evening(CP_ONLY)
    e.start_game()
    for n in range(1, 91):
        e.enter_ball(n)
    e.allow_unmark()
    assert e.is_over
    with pytest.raises(err.PauseRefused) as refused:
        e.start_pause("Entracte", 1_900_000_000)
    assert "terminée" in refused.value.user_message


# --------------------------------------------------------------------------- pictures

PHOTO = "a" * 64
LOGO = "b" * 64


def test_a_lot_photo_follows_the_lot_in_every_game_and_partners_are_kept_in_order() -> None:
    e = evening(CHAINED, CP_ONLY)
    assert e.set_lot_photo("  jambon ", PHOTO) == [ev.LotPhotoSet("jambon", PHOTO)]
    assert e.lot_photos == {"jambon": PHOTO}
    with pytest.raises(err.PictureRefused) as refused:
        e.set_lot_photo("Voiture", PHOTO)
    assert refused.value.user_message == "Ce lot n'est pas au programme."
    e.set_lot_photo("Jambon", "")
    assert e.lot_photos == {}
    with pytest.raises(err.PictureRefused):
        e.set_lot_photo("Jambon", "")
    for bad in ("A" * 64, "a" * 63, "g" * 64, 7, None):
        with pytest.raises(err.InvalidArgument):
            e.set_lot_photo("Vélo", bad)  # type: ignore[arg-type]
    e.add_partner("  Boulangerie   Martin ", LOGO)
    e.add_partner("Crédit Mutuel", PHOTO)
    assert e.partners == [("Boulangerie Martin", LOGO), ("Crédit Mutuel", PHOTO)]
    with pytest.raises(err.PictureRefused):
        e.add_partner("Encore", LOGO)  # the same logo twice
    e.remove_partner(LOGO)
    assert e.partners == [("Crédit Mutuel", PHOTO)]
    with pytest.raises(err.PictureRefused):
        e.remove_partner(LOGO)
    again = Evening.replay(e.program, e.history, KEY)
    assert again.fingerprint() == e.fingerprint()


def test_an_evening_shows_at_most_twelve_partners_with_a_sensible_name() -> None:
    e = evening()
    for i in range(12):
        e.add_partner(f"Partenaire {i}", f"{i:064x}")
    with pytest.raises(err.PictureRefused) as refused:
        e.add_partner("Un de trop", "f" * 64)
    assert "12 partenaires au plus" in refused.value.user_message
    for name in ("", "   ", "x" * 41, "a\x00b", 3):
        with pytest.raises(err.InvalidArgument):
            e.add_partner(name, "e" * 64)  # type: ignore[arg-type]
    assert len(e.partners) == 12
