"""Random evenings mixing every game type, played to the end on the engine.

Whatever the program (types, kinds of cartons, tie rules, improvised games added between
games), the claims (genuine ones when the server's judge says so, and random ones), the ties
(settled by each game's own rule) and the draw: the invariants hold after every game, every lot
goes to one winner unless its ex aequo were settled by a rule that gives several, no claim is
judged on a number not drawn, and the log replays to the same state.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import game_specs
from test_engine_properties import budget

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.errors import LotoError
from loto_app.domain.games import TieRule
from loto_app.domain.patterns import RULES
from loto_app.domain.program import DrawSource, Program, Settings, TieMethod, TokenSource
from loto_app.domain.verdicts import Verdict, judge

KEY = b"games-property-secret-key-000000"
PLAYERS = ("p1", "p2", "p3")


@st.composite
def evenings(draw: st.DrawFn) -> tuple[Program, int, list]:
    games = draw(st.lists(game_specs(max_repeats=3), min_size=1, max_size=4))
    s = Settings(
        DrawSource.PHYSICAL,
        auto_marking=draw(st.booleans()),
        tie_method=draw(st.sampled_from(list(TieMethod))),
        last_call_seconds=draw(st.sampled_from([0, 5])),
        token_source=draw(st.sampled_from(list(TokenSource))),
    )
    extra = draw(st.lists(game_specs(max_repeats=2), max_size=1))  # an improvised game
    return Program("B7", tuple(games), s), draw(st.integers(0, 2**32 - 1)), extra


def settle(e: Evening, rng: random.Random) -> None:
    """Settle the ex aequo of the stage in play the way its game's rule says."""
    g = e.game
    assert g is not None
    if g.last_call is not None:
        e.close_last_call()
    entries = g.entries()
    if len(entries) > 1 and g.tie.broken is None:
        rule = e.tie_rule(g)
        bag = e.program.settings.token_source is TokenSource.BAG
        if rule is TieRule.SUDDEN_DEATH:
            while g.tie.broken is None and e.sudden_balls_left(g):
                ball = rng.choice(e.sudden_balls_left(g)) if bag else None
                e.sudden_death_ball(ball, rng=rng)
        if rule is TieRule.EVENING and len(entries) == 2 and g.stage_spec.lot.divisible:
            e.offer_share()
            for p in entries:
                e.answer_share(p, rng.random() < 0.5)
                if g.tie.share_refused:
                    break
        if g.tie.broken is None and rule not in (TieRule.EACH, TieRule.SHARE):
            if bag:
                tokens = rng.sample(range(1, 91), len(entries))
                e.break_tie_with_tokens(dict(zip(entries, tokens, strict=True)), rng)
            else:
                e.break_tie_by_draw(rng)
    e.award()


def _numbers(e: Evening, unit: int) -> frozenset[int]:
    return frozenset().union(*(e.cartons[n].carton.numbers for n in e.units[unit]))


def tied_order(e: Evening, rng: random.Random) -> list[int] | None:
    """A draw order that makes two players' units win the first stage on the same ball (ties
    are rare in a random draw, and they are where the game rules differ); None when the two
    have no number in common."""
    g = e.game
    assert g is not None
    owners: dict[str, list[int]] = {}
    for u, nos in e.units.items():
        owner = e.owner(nos[0])
        if owner is not None and e.plays(nos[0], g):
            owners.setdefault(owner, []).append(u)
    if len(owners) < 2:
        return None
    a, b = (rng.choice(owners[p]) for p in rng.sample(sorted(owners), 2))
    numbers = [
        frozenset().union(*(e.cartons[n].carton.numbers for n in e.units[u])) for u in (a, b)
    ]
    rule = RULES[g.spec.stages[0].pattern]
    if rule.claimed:
        lines = [
            frozenset().union(*rule.lines([e.cartons[n].carton for n in e.units[u]])[: rule.needed])
            for u in (a, b)
        ]
        common = sorted(lines[0] & lines[1])
        if not common:
            return None
        x = rng.choice(common)
        head = sorted((lines[0] | lines[1]) - {x})
    else:  # the inversée: every other carton out first, then one ball puts both out
        common = sorted(numbers[0] & numbers[1])
        if not common:
            return None
        x = rng.choice(common)
        head = [n for n in range(1, 91) if n not in numbers[0] | numbers[1]]
    rng.shuffle(head)
    rest = [n for n in range(1, 91) if n not in head and n != x]
    rng.shuffle(rest)
    return [*head, x, *rest]


def play_game(e: Evening, rng: random.Random) -> None:
    e.start_game()
    g = e.game
    assert g is not None
    order = (tied_order(e, rng) if rng.random() < 0.6 else None) or rng.sample(range(1, 91), 90)
    for ball in order:
        if g.status is not GameStatus.RUNNING:
            break
        if ball in g.drawn:
            continue
        e.enter_ball(ball)
        if g.status is not GameStatus.RUNNING:
            break
        if g.spec.game_type.claimed:
            stage = g.spec.stages[g.claim_stage]
            for p in PLAYERS:
                for c in e.player_cartons(p):
                    if c.no != c.unit or not e.plays(c.no, g):
                        continue
                    unit = [e.cartons[n].carton for n in e.units[c.unit]]
                    genuine = judge(stage.pattern, unit, g.drawn).verdict is Verdict.VALID
                    if genuine or rng.random() < 0.01:
                        # (refused: claimed already, or a second win in a one-win game)
                        with contextlib.suppress(LotoError):
                            e.claim(p, c.no)
        if g.entries():
            settle(e, rng)
    if g.status is GameStatus.RUNNING and g.entries():
        settle(e, rng)
    e.allow_unmark()


@settings(
    max_examples=budget(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(evenings())
def test_random_evenings_of_every_game_type_hold_the_rules(case) -> None:
    program, seed, extra = case
    rng = random.Random(seed)
    e = Evening(program, KEY)
    kinds = {g.kind for g in (*program.games, *extra)}
    for p in PLAYERS:
        e.join(p, p.upper())
    for p in PLAYERS:
        for kind in sorted(program.kinds()):
            e.sell(p, kind, rng.randint(2, 6), rng=rng)
    while not e.is_over:
        play_game(e, rng)
        e.check_invariants()
        if extra and len(e.games) == 1:
            e.add_game(extra.pop())
            for p in PLAYERS:
                for kind in sorted(kinds - program.kinds()):
                    e.sell(p, kind, 1, rng=rng)
    e.check_invariants()
    for g in e.games:
        broken = {t.stage: t for t in g.tie_breaks}
        for a in g.awards:
            several = a.stage in broken and broken[a.stage].method in ("each", "share")
            assert len(a.tickets) == 1 or several, "one winner a lot unless tied"
        for c in g.claims:
            assert c.number in g.drawn, "a claim judged on a number not drawn"
        assert len(g.awards) + len(g.lapsed) <= len(g.spec.stages)
        if g.spec.game_type.one_win_per_player:
            won = [p for a in g.awards for _, p, _ in a.tickets]
            assert len(won) == len(set(won))
        if not g.spec.game_type.claimed:
            assert all(c.via == "server" for c in g.claims)
    for g in e.games:
        event(f"{g.spec.type}: {len(g.awards)} awarded, {len(g.lapsed)} lapsed")
        event(f"tie {e.tie_rule(g).value or 'evening'}: {len(g.tie_breaks)} broken")
    again = Evening.replay(e.program, e.history, KEY)
    assert again.fingerprint() == e.fingerprint()
    assert all(isinstance(x, ev.Event) for x in e.history)
