"""The claim as the hall lives it, on the engine.

The window of a number (a claim is judged on the stage in play when the last number came out,
until the next number, award or not), the last call, the share asked first, tokens from the
bag, "carton offert" vouchers and the association's decisions (art. 8). The three defects of
the issue each have a regression test named after them.
"""

from __future__ import annotations

import random

import pytest
from test_engine_rules import CHAINED, KEY, QUINE_DIVISIBLE, draw_all, evening, last_claim, outside

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
from loto_app.domain.verdicts import Verdict

QUINE_ONLY = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))
QUINE_SOLID = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Vélo", 20000)),))


def shared_row(e: Evening, players: list[str], seed: int = 11) -> tuple[dict[str, int], int]:
    """Each player buys cartons until one holds, in its first row, the same number as the
    others' (the number `x`): returns each player's carton and x (not drawn yet)."""
    rng = random.Random(seed)
    target = None
    mine: dict[str, int] = {}
    for p in players:
        if p not in e.players:
            e.join(p, p.capitalize())
        while p not in mine:
            e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(p)[-1]
            if target is None:
                target = max(c.carton.rows[0])
            if target in c.carton.rows[0]:
                mine[p] = c.no
    assert target is not None
    return mine, target


def complete_rows(e: Evening, mine: dict[str, int], x: int) -> None:
    """Draw the first rows of these cartons, x last."""
    rows = set().union(*(e.cartons[no].carton.rows[0] for no in mine.values()))
    draw_all(e, sorted(rows - {x}))
    e.enter_ball(x)


def tie_on(game: GameSpec, players: int = 2, **kw) -> tuple[Evening, dict[str, int], int]:
    """A started evening where these players' first rows complete on the same last number."""
    e = evening(game, CHAINED, **kw)
    names = [f"p{i}" for i in range(players)]
    mine, x = shared_row(e, names)
    e.start_game()
    complete_rows(e, mine, x)
    return e, mine, x


# ---------------------------------------------------------------- the three defects


def test_defect_1_a_genuine_quine_claimed_after_the_award_is_not_a_fausse_annonce():
    """Chained game; a and b complete a row on the same number; a claims, the lot is
    awarded, then b claims before the next number: judged against the quine (the stage in
    play when the number came out), valid after the award, never a false claim."""
    e = evening(CHAINED)
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    assert last_claim(e.claim("a", mine["a"])).verdict == Verdict.VALID
    e.award()
    assert e.game.stage == 1  # the double quine is in play now
    late = last_claim(e.claim("b", mine["b"]))
    assert late.number == x and late.stage == 0
    assert late.verdict == Verdict.AFTER_AWARD
    assert set(late.winning) == set(e.cartons[mine["b"]].carton.rows[0])
    assert not e.game.annulled  # the carton plays on
    assert e.game.entries() == () and e.can_draw()  # a réclamation, not an entry
    e.check_invariants()


def test_defect_2_the_window_stays_open_after_the_award_of_a_single_stage_game():
    """Single-stage quine game: after the award, 86 is still the last number; b's claim is
    judged (valid after the award) instead of "no game in progress"."""
    e = evening(QUINE_ONLY, CHAINED)
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    e.claim("a", mine["a"])
    e.award()
    assert e.game.status is GameStatus.AWAITING_UNMARK
    assert last_claim(e.claim("b", mine["b"])).verdict == Verdict.AFTER_AWARD
    e.allow_unmark()  # démarquage closes the window
    with pytest.raises(err.NoGameInProgress):
        e.claim("b", mine["b"])
    e.check_invariants()


def test_defect_3_the_share_question_cannot_be_skipped():
    """Two ex aequo on a divisible lot, "share or draw": no token draw (app or bag) before
    the share was offered and refused."""
    e, mine, _ = tie_on(QUINE_DIVISIBLE)
    for p, no in mine.items():
        e.claim(p, no)
    before = e.fingerprint()
    with pytest.raises(err.ShareFirst):
        e.break_tie_by_draw(random.Random(1))
    assert e.fingerprint() == before
    e.offer_share()
    e.answer_share("p0", True)
    with pytest.raises(err.ShareFirst) as refused:
        e.break_tie_by_draw(random.Random(1))  # one yes, the other has not answered
    assert "attendez les réponses" in refused.value.user_message
    e.answer_share("p1", False)
    tie = e.break_tie_by_draw(random.Random(1))[0]
    assert isinstance(tie, ev.TieBroken) and tie.method == "draw"
    # on a bag evening too
    e, mine, _ = tie_on(QUINE_DIVISIBLE, tokens=TokenSource.BAG)
    for p, no in mine.items():
        e.claim(p, no)
    with pytest.raises(err.ShareFirst):
        e.break_tie_with_tokens({"p0": 5, "p1": 9})


def test_no_share_first_when_the_lot_is_not_divisible_or_three_are_tied_or_draw_only():
    for game, players, tie in (
        (QUINE_SOLID, 2, TieMethod.SHARE_OR_DRAW),
        (QUINE_DIVISIBLE, 3, TieMethod.SHARE_OR_DRAW),
        (QUINE_DIVISIBLE, 2, TieMethod.DRAW),
    ):
        e, mine, _ = tie_on(game, players, tie=tie)
        for p, no in mine.items():
            e.claim(p, no)
        assert isinstance(e.break_tie_by_draw(random.Random(2))[0], ev.TieBroken)


# ---------------------------------------------------------------- the window of a number


def test_a_claim_is_judged_on_the_stage_in_play_when_the_last_number_came_out():
    """x completes a's quine and b's double quine (b's other row was out already). a wins
    the quine on x; b's claim before the next number is judged as a quine, the stage in play
    when x came out: valid after the award, not a double quine won on x. After the next
    number, b's double quine refers to that number: tour passé (docs/RULES.md, Claims)."""
    e = evening(CHAINED)
    mine, x = shared_row(e, ["a", "b"])
    b = e.cartons[mine["b"]].carton
    e.start_game()
    draw_all(e, sorted(b.rows[1] - {x}))
    complete_rows(e, mine, x)
    assert last_claim(e.claim("a", mine["a"])).verdict == Verdict.VALID
    e.award()
    late = last_claim(e.claim("b", mine["b"]))
    assert (late.stage, late.verdict) == (0, Verdict.AFTER_AWARD)
    assert e.game.entries() == ()  # nobody holds the double quine on x
    e.enter_ball(next(n for n in range(1, 91) if n not in b.numbers and n not in e.game.drawn))
    assert last_claim(e.claim("b", mine["b"])).verdict == Verdict.LATE
    e.check_invariants()


def test_after_the_tie_is_settled_a_valid_claim_on_its_number_is_no_entry():
    e, mine, x = tie_on(QUINE_SOLID, 3)
    for p in ("p0", "p1"):
        e.claim(p, mine[p])
    e.break_tie_by_draw(random.Random(4))  # tokens drawn: the stage is settled
    c = last_claim(e.claim("p2", mine["p2"]))
    assert c.verdict == Verdict.AFTER_AWARD and c.number == x
    assert e.game.entries() == ("p0", "p1")
    assert e.cartons[mine["p2"]].unit not in e.game.annulled
    e.award()
    e.check_invariants()


def test_a_late_claim_after_the_award_refers_to_the_next_number_tour_passe():
    e = evening(QUINE_ONLY, CHAINED)
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    e.claim("a", mine["a"])
    e.award()
    e.allow_unmark()
    e.start_game()  # game 2: CHAINED
    b = e.cartons[mine["b"]].carton
    draw_all(e, sorted(b.rows[0]))
    e.enter_ball(next(n for n in range(1, 91) if n not in b.numbers))
    assert last_claim(e.claim("b", mine["b"])).verdict == Verdict.LATE


def test_a_paper_claim_after_the_award_is_judged_the_same_way():
    e = evening(CHAINED)
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    e.claim("a", mine["a"])
    e.award()
    made = last_claim(e.paper_claim("A", mine["b"], check_code(KEY, "A", mine["b"])))
    assert made.verdict == Verdict.AFTER_AWARD and made.via == "desk"


# ---------------------------------------------------------------- the last call


def test_the_first_valid_claim_opens_the_last_call_and_every_valid_claim_meanwhile_is_tied():
    e, mine, x = tie_on(QUINE_SOLID, 3, last_call=5)
    first = e.claim("p0", mine["p0"])
    assert first[1] == ev.LastCallOpened(0, 0, x, 5)
    assert e.game.last_call == first[1]
    assert len(e.claim("p1", mine["p1"])) == 1  # joins the ex aequo, no second last call
    for move in (e.award, e.offer_share, lambda: e.break_tie_by_draw(random.Random(1))):
        before = e.fingerprint()
        with pytest.raises(err.LastCallOpen) as refused:
            move()
        assert "Dernier appel" in refused.value.user_message
        assert e.fingerprint() == before
    with pytest.raises(err.DrawingClosed):
        e.enter_ball(next(n for n in range(1, 91) if n not in e.game.drawn))
    assert e.close_last_call(first[1]) == [ev.LastCallClosed(0, 0, x)]
    with pytest.raises(err.NoLastCall):
        e.close_last_call(first[1])  # a second timer: refused, nothing changes
    assert len(e.claim("p2", mine["p2"])) == 1  # still in time, still tied: no new last call
    assert e.game.entries() == ("p0", "p1", "p2")
    e.break_tie_by_draw(random.Random(1))
    e.award()
    e.check_invariants()


def test_no_last_call_with_zero_seconds_the_award_opens_at_once():
    e, mine, _ = tie_on(QUINE_SOLID, 1, last_call=0)
    assert [type(x) for x in e.claim("p0", mine["p0"])] == [ev.ClaimMade]
    assert e.game.last_call is None
    e.award()


def test_a_last_call_is_closed_only_by_its_own_timer():
    e, mine, _ = tie_on(QUINE_SOLID, 1, last_call=5)
    opened = e.claim("p0", mine["p0"])[1]
    other = ev.LastCallOpened(0, 0, opened.number + 1, 5)
    with pytest.raises(err.NoLastCall):
        e.close_last_call(other)
    e.close_last_call()


def test_the_last_call_setting_is_checked_and_old_programs_load_with_five_seconds():
    for bad in (-1, 31, 2.5, True, "5"):
        with pytest.raises(err.InvalidProgram):
            Settings(last_call_seconds=bad)
    p = Program("A", (QUINE_ONLY,), Settings(DrawSource.PHYSICAL, last_call_seconds=12))
    assert Program.from_dict(p.to_dict()) == p
    old = p.to_dict()
    del old["settings"]["last_call_seconds"], old["settings"]["token_source"]
    loaded = Program.from_dict(old)
    assert loaded.settings.last_call_seconds == 5
    assert loaded.settings.token_source is TokenSource.BAG  # physical boulier: the bag
    old["settings"]["draw_source"] = "electronic"
    assert Program.from_dict(old).settings.token_source is TokenSource.APP


def test_an_old_log_without_last_call_events_replays_and_awards():
    """Evenings logged before the last call existed: their claims open none on replay."""
    e, mine, _ = tie_on(QUINE_SOLID, 1, last_call=0)
    e.claim("p0", mine["p0"])
    e.award()
    later = Program(e.program.series, e.program.games, Settings(DrawSource.PHYSICAL))
    again = Evening.replay(later, e.history, KEY)
    assert again.game.last_call is None and again.game.awards == e.game.awards


# ---------------------------------------------------------------- tokens from the bag


def test_on_a_bag_evening_the_animateur_types_distinct_tokens_and_the_highest_wins():
    e, mine, _ = tie_on(QUINE_SOLID, 3, tokens=TokenSource.BAG)
    for p, no in mine.items():
        e.claim(p, no)
    with pytest.raises(err.WrongTokenSource):
        e.break_tie_by_draw(random.Random(1))
    for bad in (
        {"p0": 4, "p1": 8},  # one missing
        {"p0": 4, "p1": 8, "p2": 8},  # not distinct
        {"p0": 4, "p1": 8, "p2": 91},  # not in the bag
        {"p0": 4, "p1": 8, "p2": "9"},
        {"p0": 4, "p1": 8, "p2": True},
        {"p0": 4, "p1": 8, "p2": 9, "ghost": 1},
        [4, 8, 9],
    ):
        before = e.fingerprint()
        with pytest.raises(err.InvalidTokens):
            e.break_tie_with_tokens(bad)  # type: ignore[arg-type]
        assert e.fingerprint() == before
    events = e.break_tie_with_tokens({"p2": 9, "p0": 72, "p1": 8}, random.Random(3))
    tie = events[0]
    assert tie == ev.TieBroken(0, 0, "draw", (("p0", 72), ("p1", 8), ("p2", 9)), ("p0",), "bag")
    gifts = [x for x in events if isinstance(x, ev.CartonsSold)]
    assert sorted(g.player_id for g in gifts) == ["p1", "p2"]
    assert e.award()[0].tickets == ((1, "p0", "1"),)
    e.check_invariants()


def test_the_apps_draw_refuses_typed_tokens_and_the_default_follows_the_boulier():
    e, mine, _ = tie_on(QUINE_SOLID, 2, tokens=TokenSource.APP)
    for p, no in mine.items():
        e.claim(p, no)
    with pytest.raises(err.WrongTokenSource):
        e.break_tie_with_tokens({"p0": 1, "p1": 2})
    assert Settings(DrawSource.PHYSICAL).token_source is TokenSource.BAG
    assert Settings(DrawSource.ELECTRONIC).token_source is TokenSource.APP
    assert Settings(DrawSource.PHYSICAL, token_source=TokenSource.APP).token_source == "app"
    p = Program("A", (QUINE_ONLY,), Settings(DrawSource.ELECTRONIC))
    assert p.with_settings(draw_source=DrawSource.PHYSICAL).settings.token_source == "bag"


# ---------------------------------------------------------------- a paper player's share answer


def paper_tie() -> tuple[Evening, dict[str, int]]:
    e = evening(QUINE_DIVISIBLE, CHAINED)
    e.join("paper", "Mme Paul", "paper")
    mine, x = shared_row(e, ["phone", "paper"])
    e.start_game()
    complete_rows(e, mine, x)
    for p, no in mine.items():
        e.claim(p, no)
    e.offer_share()
    return e, mine


def test_the_animateur_records_a_paper_players_answer_but_not_a_phone_players():
    e, _ = paper_tie()
    with pytest.raises(err.InvalidArgument) as refused:
        e.answer_share("phone", True, by="animateur")
    assert "téléphone" in refused.value.user_message
    with pytest.raises(err.InvalidArgument):
        e.answer_share("paper", True, by="caissier")
    assert e.answer_share("paper", True, by="animateur") == [
        ev.ShareAnswered(0, 0, "paper", True, "animateur")
    ]
    events = e.answer_share("phone", True)
    assert events[-1] == ev.TieBroken(0, 0, "share", (), ("phone", "paper"))


# ---------------------------------------------------------------- vouchers


def test_a_consolation_with_no_game_left_for_it_is_a_carton_offert_voucher():
    e = Evening(
        Program("A", (QUINE_SOLID,), Settings(DrawSource.PHYSICAL, last_call_seconds=0)), KEY
    )
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    for p, no in mine.items():
        e.claim(p, no)
    tie, voucher = e.break_tie_with_tokens({"a": 3, "b": 40})
    assert tie.winners == ("b",)
    assert voucher == ev.VoucherIssued(1, "a", 0, 0, "tie")
    (award,) = e.award()
    assert award.tickets == ((2, "b", "1"),)
    assert {n: (t.kind, t.player_id) for n, t in e.tickets().items()} == {
        1: ("voucher", "a"),
        2: ("lot", "b"),
    }
    e.hand_over(1, "Marie")
    e.check_invariants()


# ---------------------------------------------------------------- disputes (art. 8)


def false_claim(e: Evening, player: str) -> ev.ClaimMade:
    """A fausse annonce on the player's first carton."""
    c = e.player_cartons(player)[0]
    made = last_claim(e.claim(player, c.no))
    assert made.verdict == Verdict.FALSE
    return made


def test_a_decision_names_who_decided_and_why():
    e = evening(CHAINED)
    e.join("a", "A")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    e.start_game()
    e.enter_ball(min(e.player_cartons("a")[0].carton.numbers))
    made = false_claim(e, "a")
    for by, reason in (
        ("joueur", "motif"),
        ("", "motif"),
        (None, "motif"),
        ("animateur", ""),
        ("animateur", "   "),
        ("animateur", "x" * 201),
        ("animateur", 5),
    ):
        before = e.fingerprint()
        with pytest.raises(err.InvalidArgument):
            e.reinstate_carton(made.carton_no, by, reason)  # type: ignore[arg-type]
        assert e.fingerprint() == before
    (done,) = e.reinstate_carton(made.carton_no, "organisateur", "  Boule   mal lue ")
    assert done == ev.CartonReinstated(
        0, made.carton_no, made.unit_nos, "a", "organisateur", "Boule mal lue"
    )
    assert e.decisions == [done]


def test_a_reinstated_carton_plays_again_in_the_current_game_and_can_win():
    e = evening(CHAINED)
    e.join("a", "A")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    c = e.player_cartons("a")[0]
    line = sorted(c.carton.rows[0])
    e.start_game()
    e.enter_ball(line[0])
    made = false_claim(e, "a")
    assert c.unit in e.game.annulled
    with pytest.raises(err.CartonAnnulled):
        e.toggle_mark("a", c.no, line[0])
    e.reinstate_carton(c.no, "animateur", "L'animateur a annoncé le mauvais lot")
    assert c.unit not in e.game.annulled
    e.toggle_mark("a", c.no, line[0])
    with pytest.raises(err.DisputeRefused):
        e.reinstate_carton(c.no, "animateur", "encore")  # not annulled any more
    draw_all(e, line[1:])
    assert last_claim(e.claim("a", c.no)).verdict == Verdict.VALID
    assert made.claim_no in {x.claim_no for x in e.game.claims}
    e.check_invariants()


def test_a_false_claim_overturned_to_valid_in_its_window_becomes_an_entry():
    """The association finds a claim judged false was genuine (say, the carton was misread
    at the desk): on the same number, the stage not settled, the carton is back and the claim
    joins the entries."""
    e, mine, _ = tie_on(QUINE_SOLID, 1)
    e.join("c", "C")
    e.sell("c", Kind.CLASSIQUE, 1, rng=random.Random(21))  # bought after the first number
    assert last_claim(e.claim("p0", mine["p0"])).verdict == Verdict.VALID
    e2 = evening(QUINE_SOLID, CHAINED)
    e2.join("c", "C")
    e2.sell("c", Kind.CLASSIQUE, 1, rng=random.Random(21))
    c = e2.player_cartons("c")[0]
    mine2, x = shared_row(e2, ["p0"])
    e2.start_game()
    complete_rows(e2, mine2, x)
    e2.claim("p0", mine2["p0"])
    made = last_claim(e2.claim("c", c.no))
    assert made.verdict == Verdict.FALSE and c.unit in e2.game.annulled
    (done,) = e2.overturn(made.claim_no, "valid", "organisateur", "Carton vérifié à la table")
    assert done.entry and done.old == "false" and done.verdict == "valid"
    assert c.unit not in e2.game.annulled
    assert e2.game.entries() == ("p0", "c")
    e2.break_tie_by_draw(random.Random(2))
    e2.award()
    e2.check_invariants()


def test_overturn_to_valid_after_the_next_number_gives_the_carton_back_but_no_entry():
    e = evening(CHAINED)
    e.join("a", "A")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    c = e.player_cartons("a")[0]
    e.start_game()
    e.enter_ball(min(c.carton.numbers))
    made = false_claim(e, "a")
    e.enter_ball(outside(e, "a")[0])
    (done,) = e.overturn(made.claim_no, "valid", "animateur", "Réclamation acceptée")
    assert not done.entry and e.game.entries() == () and e.can_draw()
    assert c.unit not in e.game.annulled
    assert e.game.verdict_of(made) == "valid"
    with pytest.raises(err.DisputeRefused):
        e.overturn(made.claim_no, "valid", "animateur", "encore")  # already valid


def test_a_valid_claim_overturned_to_false_leaves_the_entries_and_annuls_the_carton():
    e, mine, _ = tie_on(QUINE_SOLID, 2, last_call=5)
    a = e.claim("p0", mine["p0"])[0]
    e.claim("p1", mine["p1"])
    (done,) = e.overturn(a.claim_no, "false", "organisateur", "Carton d'une autre soirée")
    assert not done.entry
    assert e.game.entries() == ("p1",) and e.game.last_call is not None
    assert e.cartons[mine["p0"]].unit in e.game.annulled
    e.close_last_call()
    assert e.award()[0].tickets == ((1, "p1", "1"),)
    e.check_invariants()


def test_the_only_entry_overturned_to_false_ends_the_last_call_and_the_draw_goes_on():
    e, mine, _ = tie_on(QUINE_SOLID, 1, last_call=5)
    a = e.claim("p0", mine["p0"])[0]
    e.overturn(a.claim_no, "false", "animateur", "Annonce faite après la boule suivante")
    assert e.game.last_call is None and e.can_draw()
    e.check_invariants()


def test_an_overturned_opener_gives_the_next_valid_claim_a_last_call_of_its_own():
    """The claim that opened the last call is overturned (false) while it runs: the next valid
    claim on that number opens a last call again, and a third in-time winner joins the ex
    aequo instead of becoming a réclamation after an award made at once (RULES.md, Claims)."""
    e, mine, x = tie_on(QUINE_SOLID, 3, last_call=5)
    a, opened = e.claim("p0", mine["p0"])
    assert opened == ev.LastCallOpened(0, 0, x, 5)
    e.overturn(a.claim_no, "false", "organisateur", "Carton d'une autre soirée")
    assert e.game.last_call is None and e.game.entries() == ()
    b = e.claim("p1", mine["p1"])
    assert [type(x) for x in b] == [ev.ClaimMade, ev.LastCallOpened]
    assert b[1] == ev.LastCallOpened(0, 0, x, 5)
    with pytest.raises(err.LastCallOpen):
        e.award()  # not at once: the hall is asked "Pas d'autre quine ?" first
    c = last_claim(e.claim("p2", mine["p2"]))
    assert c.verdict == Verdict.VALID  # in time, tied: not "valide après l'attribution"
    assert e.game.entries() == ("p1", "p2")
    e.close_last_call()
    e.break_tie_by_draw(random.Random(3))
    (award,) = e.award()[:1]
    assert {p for _, p, _ in award.tickets} <= {"p1", "p2"}
    e.check_invariants()


def test_an_opener_overturned_after_its_last_call_closed_still_gives_the_next_one_a_call():
    e, mine, x = tie_on(QUINE_SOLID, 2, last_call=5)
    a, _ = e.claim("p0", mine["p0"])
    e.close_last_call()
    e.overturn(a.claim_no, "false", "animateur", "Le carton n'était pas payé")
    assert e.claim("p1", mine["p1"])[1:] == [ev.LastCallOpened(0, 0, x, 5)]
    e.check_invariants()


def test_a_claim_overturned_back_to_valid_in_time_gets_a_last_call_again():
    e, mine, x = tie_on(QUINE_SOLID, 1, last_call=5)
    a, _ = e.claim("p0", mine["p0"])
    e.overturn(a.claim_no, "false", "animateur", "Erreur de lecture")
    done = e.overturn(a.claim_no, "valid", "organisateur", "Le carton était bon")
    assert done[0].entry and done[1:] == [ev.LastCallOpened(0, 0, x, 5)]
    with pytest.raises(err.LastCallOpen):
        e.award()
    e.close_last_call()
    assert e.award()[0].tickets == ((1, "p0", "1"),)
    e.check_invariants()


def test_a_claim_overturned_to_valid_while_the_last_call_runs_opens_no_second_one():
    e, mine, _ = tie_on(QUINE_SOLID, 2, last_call=5)
    e.claim("p0", mine["p0"])
    b = last_claim(e.claim("p1", mine["p1"]))
    e.overturn(b.claim_no, "false", "animateur", "Vérification")
    done = e.overturn(b.claim_no, "valid", "animateur", "Vérification refaite")
    assert done[0].entry and len(done) == 1  # the last call still running covers it
    assert e.game.entries() == ("p0", "p1")
    e.check_invariants()


def test_a_winners_claim_cannot_be_made_false_before_the_award_is_withdrawn():
    e, mine, _ = tie_on(QUINE_SOLID, 1)
    a = e.claim("p0", mine["p0"])[0]
    (award,) = e.award()
    with pytest.raises(err.DisputeRefused):
        e.overturn(a.claim_no, "false", "organisateur", "Vérification")
    (ticket, _, _) = award.tickets[0]
    (withdrawn,) = e.withdraw_award(ticket, "organisateur", "Carton d'une autre série")
    assert withdrawn == ev.AwardWithdrawn(ticket, "p0", "organisateur", "Carton d'une autre série")
    with pytest.raises(err.UnknownTicket) as refused:
        e.hand_over(ticket, "Marie")  # the desk cannot hand a voided ticket over
    assert "annulé" in refused.value.user_message
    with pytest.raises(err.DisputeRefused):
        e.withdraw_award(ticket, "organisateur", "encore")
    e.overturn(a.claim_no, "false", "organisateur", "Carton d'une autre série")
    assert e.game.status is GameStatus.AWAITING_UNMARK  # the stage stays awarded
    e.check_invariants()


def test_no_overturn_while_the_tie_is_being_settled():
    e, mine, _ = tie_on(QUINE_DIVISIBLE, 2)
    a = e.claim("p0", mine["p0"])[0]
    e.claim("p1", mine["p1"])
    e.offer_share()
    with pytest.raises(err.DisputeRefused):
        e.overturn(a.claim_no, "false", "animateur", "motif")


def test_a_reclamation_after_the_award_can_get_a_lot_or_a_consolation():
    e = evening(CHAINED, CHAINED)  # a game left: the consolation is a free carton for it
    mine, x = shared_row(e, ["a", "b"])
    e.start_game()
    complete_rows(e, mine, x)
    e.claim("a", mine["a"])
    e.award()  # ticket 1 to a
    late = last_claim(e.claim("b", mine["b"]))
    assert late.verdict == Verdict.AFTER_AWARD
    (lot,) = e.give_lot(late.claim_no, "organisateur", "Annoncé à voix haute à temps")
    assert lot == ev.LotGiven(
        2, 0, 0, late.claim_no, "b", "organisateur", "Annoncé à voix haute à temps"
    )
    assert e.tickets()[2].kind == "lot" and e.tickets()[2].origin == "decision"
    with pytest.raises(err.DisputeRefused):
        e.give_lot(late.claim_no, "organisateur", "encore")
    events = e.give_consolation(late.claim_no, "animateur", "Geste de l'association")
    assert isinstance(events[0], ev.ConsolationGiven)
    sold = [x for x in events if isinstance(x, ev.CartonsSold)]
    assert [(s.player_id, s.reason) for s in sold] == [("b", "consolation")]
    with pytest.raises(err.DisputeRefused):
        e.give_consolation(late.claim_no, "animateur", "encore")
    with pytest.raises(err.DisputeRefused):
        e.give_lot(999, "animateur", "motif")
    e.hand_over(2, "Marie")
    e.check_invariants()
    again = Evening.replay(e.program, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
    assert again.fingerprint() == e.fingerprint()
