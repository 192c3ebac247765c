"""The committed electronic draw on the engine: the commitment at the game's start, every number
the next of the committed order, the cartons fixed at the start, the seed kept out of the log
until the game ends, a replay (a restart) continuing the same order, and the closed evening."""

from __future__ import annotations

import json
import random

import pytest
from test_engine_rules import CHAINED, KEY, evening, with_players

from loto_app.domain import commitment as draws
from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Stage,
)

SEED = bytes(range(32))
QUINE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))


def electronic(*games: GameSpec, code: str = "DEMO42") -> Evening:
    return evening(*(games or (QUINE, CHAINED)), source=DrawSource.ELECTRONIC, code=code)


def log_text(e: Evening) -> str:
    """Every event of the log as it is stored (JSON)."""
    return "\n".join(json.dumps(x.to_dict()) for x in e.history)


def test_an_electronic_game_commits_to_its_order_before_the_first_number():
    e = electronic()
    started, committed = e.start_game(SEED)
    assert started == ev.GameStarted(0)
    assert committed == ev.DrawCommitted(
        0, "DEMO42", "A", draws.commitment(SEED, "DEMO42", "A", 1), "loto-tirage-v1"
    )
    assert e.game.commitment == committed
    order = draws.draw_order(SEED)
    for i in range(30):
        (drawn,) = e.draw(random.Random(i))  # an rng changes nothing: the order is committed
        assert drawn.number == order[i]
    e.check_invariants()


def test_each_game_has_a_fresh_seed_and_a_commitment_of_its_own():
    e = electronic(QUINE, QUINE)
    with_players(e, "a")
    commitments = []
    for _ in range(2):
        _, c = e.start_game()
        commitments.append(c.commitment)
        while e.can_draw():
            e.draw()
        e.allow_unmark()
    assert len(set(commitments)) == 2
    assert e.sealed[0] != e.sealed[1]
    assert [x.game for x in e.history if isinstance(x, ev.DrawCommitted)] == [0, 1]


def test_the_physical_boulier_commits_nothing():
    e = evening(QUINE, source=DrawSource.PHYSICAL)
    assert e.start_game() == [ev.GameStarted(0)]
    assert e.game.commitment is None and not e.sealed


def test_the_seed_stays_out_of_the_log_until_the_game_ends_then_is_revealed():
    e = electronic(QUINE, CHAINED)
    with_players(e, "a")
    e.start_game(SEED)
    while e.can_draw():
        e.draw()
        assert SEED.hex() not in log_text(e)
    assert e.game.status is GameStatus.RUNNING  # nobody claimed: all 90 out
    assert SEED.hex() not in log_text(e)
    unmark, revealed = e.allow_unmark()
    assert unmark == ev.UnmarkAllowed(0)
    assert revealed == ev.DrawRevealed(0, SEED.hex())
    assert e.game.revealed == SEED.hex()
    c = e.game.commitment
    check = draws.verify(SEED, c.evening, c.series, 1, c.commitment, tuple(e.game.drawn))
    assert check.ok
    e.check_invariants()


def test_a_replay_with_the_sealed_seed_continues_the_same_order():
    """What a restart does (storage replays the log and hands the sealed seeds back)."""
    e = electronic()
    with_players(e, "a")
    e.start_game(SEED)
    for _ in range(20):
        e.draw()
    again = Evening.replay(e.program, e.history, KEY, {0: SEED}, "DEMO42")
    for _ in range(20):
        (a,) = e.draw()
        (b,) = again.draw()
        assert a == b
    assert again.game.drawn == list(draws.draw_order(SEED)[:40])
    again.check_invariants()


def test_without_its_seed_a_committed_game_cannot_be_drawn():
    e = electronic()
    e.start_game(SEED)
    e.draw()
    lost = Evening.replay(e.program, e.history, KEY, {}, "DEMO42")
    with pytest.raises(err.DrawSeedMissing) as refused:
        lost.draw()
    assert "serveur" in refused.value.user_message
    wrong = Evening.replay(e.program, e.history, KEY, {0: bytes(32)}, "DEMO42")
    with pytest.raises(err.DrawSeedMissing):
        wrong.draw()  # a seed that is not the committed one is never used


def test_a_committed_games_cartons_are_fixed_when_it_starts():
    """Art. 7 with a committed draw: a carton bought once the game has started (before its
    first number) plays the next game; with the physical boulier, until the first number."""
    e = electronic(QUINE, QUINE)
    with_players(e, "a")
    e.start_game(SEED)
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    late = e.player_cartons("a")[-1]
    assert e.purchase_of[late.no].first_game == 1 and not e.plays(late.no)
    p = evening(QUINE, QUINE, source=DrawSource.PHYSICAL)
    with_players(p, "a")
    p.start_game()
    p.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(3))
    assert p.purchase_of[p.player_cartons("a")[-1].no].first_game == 0


def test_the_evening_code_and_the_serie_are_bound():
    e = electronic(code="XYZ789")
    _, c = e.start_game(SEED)
    assert (c.evening, c.series) == ("XYZ789", "A")
    assert c.commitment != draws.commitment(SEED, "DEMO42", "A", 1)


def test_a_bad_seed_argument_is_refused():
    e = electronic()
    with pytest.raises(err.InvalidArgument):
        e.start_game(b"short")
    assert not e.games


# ---------------------------------------------------------------------- the closed evening


def test_closing_between_games_makes_the_evening_read_only():
    e = electronic(QUINE, QUINE)
    with_players(e, "a")
    e.start_game(SEED)
    while e.can_draw():
        e.draw()
    e.allow_unmark()
    (closed,) = e.close_evening("organisateur")
    assert closed == ev.EveningClosed("organisateur", "", None)
    before = e.fingerprint()
    refusals = [
        lambda: e.start_game(),
        lambda: e.join("b", "B"),
        lambda: e.sell("a", Kind.CLASSIQUE, 1),
        lambda: e.order("a", 0),
        lambda: e.close_till("Marie"),
        lambda: e.close_evening("organisateur"),
    ]
    for move in refusals:
        with pytest.raises((err.EveningIsClosed, err.CloseRefused)) as refused:
            move()
        assert "close" in refused.value.user_message
    assert e.fingerprint() == before
    e.check_invariants()


def test_closing_on_a_game_in_play_needs_a_reason_and_reveals_its_seed():
    e = electronic()
    with_players(e, "a")
    e.start_game(SEED)
    for _ in range(5):
        e.draw()
    with pytest.raises(err.CloseRefused):
        e.close_evening("organisateur", "   ")
    revealed, closed = e.close_evening("organisateur", "La salle ferme à minuit")
    assert revealed == ev.DrawRevealed(0, SEED.hex())
    assert closed == ev.EveningClosed("organisateur", "La salle ferme à minuit", 0)
    with pytest.raises(err.EveningIsClosed):
        e.draw()
    e.check_invariants()
