"""The games beyond the règlement's four, played on the engine: the cuts of the classique, the
jackpot en N numéros, the partie inversée, the partie enfants, the tie rule of a game (a lot
each, shared, tokens, mort subite) and the partie improvisée. Each ends with the log replayed
to the same state."""

from __future__ import annotations

import random

import pytest
from test_engine_claims import complete_rows, shared_row
from test_engine_rules import KEY, draw_all, evening, last_claim, outside

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.games import TieRule
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
    TokenSource,
)
from loto_app.domain.verdicts import Verdict

LOT = Lot("Jambon", 2500)
BON = Lot("Bon d'achat de 60 €", 6000, divisible=True)


def replays(e: Evening) -> None:
    e.check_invariants()
    again = Evening.replay(e.program, e.history, KEY, sealed=dict(e.sealed))
    assert again.fingerprint() == e.fingerprint()


def of(events: list[ev.Event], kind: type) -> list:
    return [x for x in events if isinstance(x, kind)]


# ---------------------------------------------------------------- the cuts of the classique


def test_a_partie_rapide_ends_with_its_one_quine():
    e = evening(GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), type="rapide"))
    mine, x = shared_row(e, ["a"])
    e.start_game()
    complete_rows(e, mine, x)
    assert last_claim(e.claim("a", mine["a"])).verdict == Verdict.VALID
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    replays(e)


# ---------------------------------------------------------------- the jackpot


def jackpot(within: int = 30, consolation: bool = True) -> GameSpec:
    stages = [Stage(Pattern.FULL_CARD, Lot("Voyage", 90000), within=within)]
    if consolation:
        stages.append(Stage(Pattern.FULL_CARD, Lot("Panier garni", 3000)))
    return GameSpec(Kind.CLASSIQUE, tuple(stages), type="jackpot")


def test_a_carton_plein_within_n_numbers_wins_the_jackpot_and_ends_the_game():
    e = evening(jackpot(within=20))
    e.join("a", "Alice")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(1))
    (c,) = e.player_cartons("a")
    e.start_game()
    filler = outside(e, "a")[:4]
    draw_all(e, filler + sorted(c.carton.numbers))  # 19 numbers: within 20
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
    events = e.award()
    (award,) = of(events, ev.StageAwarded)
    assert award.stage == 0
    assert [(x.stage, x.why) for x in of(events, ev.StageLapsed)] == [(1, "jackpot_won")]
    assert e.game.status is GameStatus.AWAITING_UNMARK
    replays(e)


def test_no_jackpot_within_n_numbers_the_next_number_plays_for_the_consolation():
    e = evening(jackpot(within=20))
    e.join("a", "Alice")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(1))
    (c,) = e.player_cartons("a")
    e.start_game()
    numbers = sorted(c.carton.numbers)
    filler = outside(e, "a")
    draw_all(e, filler[:6] + numbers[:14])  # the 20th number: one number short
    assert e.game.stage == 0
    # the carton completes on the 21st: the jackpot lapses first, the claim plays for the
    # consolation
    events = e.enter_ball(numbers[14])
    assert [(x.stage, x.why) for x in of(events, ev.StageLapsed)] == [(0, "within")]
    assert e.game.stage == 1 and e.game.claim_stage == 1
    claim = last_claim(e.claim("a", c.no))
    assert (claim.verdict, claim.stage) == (Verdict.VALID, 1)
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    assert [t.stage for t in e.tickets().values()] == [1]
    replays(e)


def test_a_jackpot_claim_on_its_nth_number_is_in_time_until_the_next():
    e = evening(jackpot(within=15, consolation=False))
    e.join("a", "Alice")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(2))
    (c,) = e.player_cartons("a")
    e.start_game()
    draw_all(e, sorted(c.carton.numbers))  # the 15th number completes it
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    replays(e)


def test_a_jackpot_without_consolation_not_won_ends_at_the_next_draw():
    e = evening(jackpot(within=15, consolation=False))
    e.join("a", "Alice")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(2))
    e.start_game()
    draw_all(e, outside(e, "a")[:15])
    events = e.enter_ball(outside(e, "a")[15])
    assert of(events, ev.StageLapsed) and not of(events, ev.NumberDrawn)
    assert e.game.status is GameStatus.AWAITING_UNMARK and len(e.game.drawn) == 15
    e.allow_unmark()
    replays(e)


# ---------------------------------------------------------------- the partie inversée

INVERSEE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.LAST_STANDING, LOT),), type="inversee")


def inversee(players: int, tie: TieRule = TieRule.EVENING, seed: int = 4) -> Evening:
    spec = GameSpec(Kind.CLASSIQUE, INVERSEE.stages, type="inversee", tie=tie)
    e = evening(spec)
    rng = random.Random(seed)
    for i in range(players):
        e.join(f"p{i}", f"P{i}")
        e.sell(f"p{i}", Kind.CLASSIQUE, 1, rng=rng)
    e.start_game()
    return e


def test_the_inversee_takes_no_claim_and_finds_the_last_carton_standing():
    e = inversee(3)
    cartons = {p: e.player_cartons(p)[0] for p in ("p0", "p1", "p2")}
    with pytest.raises(err.NoClaimInThisGame):
        e.claim("p0", cartons["p0"].no)
    # knock p0 out, then p1: p2 is the last one standing
    e.enter_ball(min(cartons["p0"].carton.numbers - cartons["p2"].carton.numbers))
    assert len(e.standing(e.game)) == 2
    ball = min(cartons["p1"].carton.numbers - cartons["p2"].carton.numbers)
    claims = of(e.enter_ball(ball), ev.ClaimMade)
    assert [(c.player_id, c.via, c.verdict) for c in claims] == [("p2", "server", "valid")]
    assert e.game.entries() == ("p2",)
    with pytest.raises(err.DrawingClosed):
        e.enter_ball(next(n for n in range(1, 91) if n not in e.game.drawn))
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    replays(e)


def test_the_last_cartons_out_on_one_ball_are_ex_aequo_and_the_game_rule_settles_them():
    spec = GameSpec(Kind.CLASSIQUE, INVERSEE.stages, type="inversee", tie=TieRule.EACH)
    e = evening(spec)
    rng = random.Random(4)
    for p in ("p0", "p1"):
        e.join(p, p.upper())
    e.sell("p0", Kind.CLASSIQUE, 1, rng=rng)
    a = e.player_cartons("p0")[0]
    while not (
        e.player_cartons("p1") and e.player_cartons("p1")[-1].carton.numbers & a.carton.numbers
    ):
        e.sell("p1", Kind.CLASSIQUE, 1, rng=rng)
    e.start_game()
    *others, last = e.player_cartons("p1")
    common = sorted(a.carton.numbers & last.carton.numbers)
    # every other carton of p1 goes out first, then the two share their last ball
    for c in others:
        keep = a.carton.numbers | last.carton.numbers | set(e.game.drawn)
        e.enter_ball(min(c.carton.numbers - keep))
    assert len(e.standing(e.game)) == 2
    claims = of(e.enter_ball(common[0]), ev.ClaimMade)
    assert sorted(c.player_id for c in claims) == ["p0", "p1"]
    events = e.award()
    assert of(events, ev.TieBroken)[0].method == "each"
    (award,) = of(events, ev.StageAwarded)
    assert sorted((p, share) for _, p, share in award.tickets) == [("p0", "1"), ("p1", "1")]
    replays(e)


def test_the_inversee_on_the_paper_desk_is_refused_too():
    e = inversee(2)
    with pytest.raises(err.NoClaimInThisGame):
        e.paper_claim("A", 1, "XXXX")


# ---------------------------------------------------------------- the partie enfants


def test_the_partie_enfants_gives_one_lot_a_player():
    spec = GameSpec(Kind.ENFANT, (Stage(Pattern.ONE_LINE, LOT),) * 3, type="enfants")
    e = evening(spec)
    rng = random.Random(8)
    e.join("a", "Ana")
    e.sell("a", Kind.ENFANT, 2, rng=rng)
    e.join("b", "Bob")
    e.sell("b", Kind.ENFANT, 1, rng=rng)
    a1, a2 = e.player_cartons("a")
    (b1,) = e.player_cartons("b")
    e.start_game()
    draw_all(e, sorted(a1.carton.rows[0]))
    assert last_claim(e.claim("a", a1.no)).verdict == Verdict.VALID
    e.award()
    todo = [n for n in sorted(a2.carton.rows[0]) if n not in e.game.drawn]
    if todo:
        draw_all(e, todo)
    if not set(a2.carton.rows[0]) & {e.game.last}:
        pass
    with pytest.raises(err.AlreadyWonThisGame):
        e.claim("a", a2.no)
    draw_all(e, [n for n in sorted(b1.carton.rows[0]) if n not in e.game.drawn])
    if e.game.last in b1.carton.rows[0]:
        assert last_claim(e.claim("b", b1.no)).verdict == Verdict.VALID
        e.award()
        assert e.game.stage == 2
    replays(e)


def test_enfants_cartons_are_sold_apart_and_play_only_their_games():
    spec = GameSpec(Kind.ENFANT, (Stage(Pattern.ONE_LINE, LOT),) * 2, type="enfants")
    classic = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),))
    e = evening(classic, spec)
    e.join("a", "Ana")
    e.sell("a", Kind.ENFANT, 1, rng=random.Random(3))
    (c,) = e.player_cartons("a")
    e.start_game()
    assert not e.plays(c.no)
    with pytest.raises(err.InvalidSale):
        e.sell("a", Kind.ENFANT, 1, planche=True, rng=random.Random(3))


# ---------------------------------------------------------------- a game's tie rule


def tie(
    rule: TieRule, lot: Lot = BON, players: int = 3, tokens: TokenSource = TokenSource.APP
) -> tuple[Evening, dict[str, int]]:
    spec = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, lot),), tie=rule)
    e = evening(spec, tokens=tokens)
    names = [f"p{i}" for i in range(players)]
    mine, x = shared_row(e, names)
    e.start_game()
    complete_rows(e, mine, x)
    for p in names:
        assert last_claim(e.claim(p, mine[p])).verdict == Verdict.VALID
    return e, mine


def test_each_tied_winner_gets_a_lot_of_the_same_kind():
    e, _ = tie(TieRule.EACH, LOT)
    with pytest.raises(err.NotSuddenDeath):
        e.break_tie_by_draw(random.Random(1))
    with pytest.raises(err.NotSuddenDeath):
        e.offer_share()
    (award,) = of(e.award(), ev.StageAwarded)
    assert sorted(share for _, _, share in award.tickets) == ["1", "1", "1"]
    replays(e)


def test_a_shared_tie_splits_the_lot_in_as_many_parts_as_winners():
    e, _ = tie(TieRule.SHARE)
    events = e.award()
    assert of(events, ev.TieBroken)[0].method == "share"
    (award,) = of(events, ev.StageAwarded)
    assert {share for _, _, share in award.tickets} == {"1/3"}
    replays(e)


def test_a_game_that_draws_tokens_offers_no_share_even_on_a_share_evening():
    e, _ = tie(TieRule.DRAW, players=2)
    with pytest.raises(err.NotSuddenDeath):
        e.offer_share()
    broken = of(e.break_tie_by_draw(random.Random(5)), ev.TieBroken)[0]
    assert broken.method == "draw" and len(broken.winners) == 1
    (award,) = of(e.award(), ev.StageAwarded)
    assert [p for _, p, _ in award.tickets] == list(broken.winners)
    replays(e)


def test_the_mort_subite_draws_extra_balls_among_the_tied_cartons_only():
    e, mine = tie(TieRule.SUDDEN_DEATH, LOT)
    with pytest.raises(err.NotSuddenDeath):
        e.break_tie_by_draw(random.Random(1))
    g = e.game
    drawn_before = list(g.drawn)
    rng = random.Random(9)
    balls = []
    while g.tie.broken is None:
        events = e.sudden_death_ball(rng=rng)
        balls += of(events, ev.SuddenDeathBall)
    assert g.drawn == drawn_before  # the extra balls go back in the boulier
    numbers = {p: e.cartons[n].carton.numbers for p, n in mine.items()}
    still = set(mine)
    for b in balls:  # each ball keeps those whose winning carton holds it, if anyone's does
        holders = {p for p in still if b.number in numbers[p]}
        still = holders or still
        assert set(b.left) == still
        assert b.number not in drawn_before
    assert len({b.number for b in balls}) == len(balls)
    (winner,) = g.tie.broken.winners
    assert g.tie.broken.method == "sudden" and still == {winner}
    (award,) = of(e.award(), ev.StageAwarded)
    assert [p for _, p, _ in award.tickets] == [winner]
    replays(e)


def test_the_mort_subite_with_physical_balls_takes_the_typed_ball():
    e, mine = tie(TieRule.SUDDEN_DEATH, LOT, players=2, tokens=TokenSource.BAG)
    with pytest.raises(err.InvalidNumber):
        e.sudden_death_ball()
    with pytest.raises(err.AlreadyDrawn):
        e.sudden_death_ball(e.game.last)
    a, b = (e.cartons[mine[p]].carton.numbers for p in ("p0", "p1"))
    only_a = min(n for n in a - b if n not in e.game.drawn)
    events = e.sudden_death_ball(only_a)
    assert of(events, ev.TieBroken)[0].winners == ("p0",)
    assert of(events, ev.SuddenDeathBall)[0].source == "bag"
    replays(e)


# ---------------------------------------------------------------- the partie improvisée


def test_a_game_added_during_the_evening_enters_the_program_and_plays():
    first = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),))
    e = evening(first)
    e.join("a", "Ana")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    e.start_game()
    added = GameSpec(
        Kind.VERT, (Stage(Pattern.FULL_CARD, Lot("Lot du donateur")),), type="gros_lot"
    )
    with pytest.raises(err.AmendmentRefused):
        e.add_game(added, at=0)  # never before a game that started
    (amended,) = e.add_game(added)
    assert isinstance(amended, ev.ProgramAmended)
    assert e.program.games[1].improvised and e.program.games[1].type == "gros_lot"
    assert any(o.kind is Kind.VERT for o in e.program.offers)  # its cartons can be sold
    # still editable until it starts
    edited = GameSpec(
        Kind.VERT,
        (Stage(Pattern.FULL_CARD, Lot("Lot du donateur, 2")),),
        "",
        "gros_lot",
        improvised=True,
    )
    e.amend_program(Program("A", (first, edited), e.program.settings, e.program.offers))
    assert e.program.games[1].stages[0].lot.description == "Lot du donateur, 2"
    replays(e)


def test_a_game_can_be_added_once_every_announced_game_is_played():
    first = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),))
    e = evening(first)
    mine, x = shared_row(e, ["a"])
    e.start_game()
    complete_rows(e, mine, x)
    e.claim("a", mine["a"])
    e.award()
    e.allow_unmark()
    assert e.is_over
    with pytest.raises(err.AmendmentRefused):
        e.amend_program(e.program)
    e.add_game(GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),), type="rapide"))
    assert not e.is_over
    e.start_game()
    replays(e)


def test_an_added_game_is_checked_like_any_other():
    e = Evening(
        Program(
            "A",
            (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, LOT),)),),
            Settings(DrawSource.PHYSICAL),
        ),
        KEY,
    )
    with pytest.raises(err.InvalidArgument):
        e.add_game({"kind": "classique"})  # type: ignore[arg-type]


def test_the_double_quine_et_carton_plays_no_quine():
    """The recipe of docs/ARCHITECTURE.md tried: a type added as one module and its line."""
    spec = GameSpec(
        Kind.CLASSIQUE,
        (Stage(Pattern.TWO_LINES, LOT), Stage(Pattern.FULL_CARD, BON)),
        type="double_quine_et_carton",
    )
    e = evening(spec)
    e.join("a", "Ana")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(6))
    (c,) = e.player_cartons("a")
    e.start_game()
    draw_all(e, sorted(c.carton.rows[0]))
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.FALSE  # one line: no lot here
    e.reinstate_carton(c.no, "animateur", "Annonce d'essai")
    draw_all(e, sorted(c.carton.rows[1]))
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
    e.award()
    draw_all(e, sorted(c.carton.rows[2]))
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    replays(e)
