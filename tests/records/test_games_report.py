"""The new games in the records: a jackpot that nobody won in time, a consolation left
unplayed, a mort subite with its balls, a lot each, as the report and its PDF say them."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from loto_app.domain.engine import Evening
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
from loto_app.records.report import LAPSED_LABELS, TIE_METHOD_LABELS, game_reports

NOW = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def entries(e: Evening) -> list:
    return [(i, NOW, x) for i, x in enumerate(e.history, start=1)]


def evening(*games: GameSpec) -> Evening:
    s = Settings(DrawSource.PHYSICAL, token_source=TokenSource.APP, last_call_seconds=0)
    return Evening(Program("A", games, s), b"k" * 32)


def test_a_jackpot_not_won_in_time_and_its_consolation_are_reported() -> None:
    spec = GameSpec(
        Kind.CLASSIQUE,
        (
            Stage(Pattern.FULL_CARD, Lot("Voyage", 90000), within=15),
            Stage(Pattern.FULL_CARD, Lot("Panier", 3000)),
        ),
        type="jackpot",
    )
    e = evening(spec)
    e.join("a", "Alice")
    e.sell("a", Kind.CLASSIQUE, 1, rng=random.Random(1))
    (c,) = e.player_cartons("a")
    e.start_game()
    for n in [n for n in range(1, 91) if n not in c.carton.numbers][:15]:
        e.enter_ball(n)
    for n in sorted(c.carton.numbers):
        e.enter_ball(n)
    e.claim("a", c.no)
    e.award()
    (g,) = game_reports(entries(e), e.program, {"a": "Alice"})
    assert g.label.startswith("Jackpot : Carton plein en 15 numéros")
    assert [s.lapsed for s in g.stages] == [LAPSED_LABELS["within"], ""]
    assert g.stages[1].awarded_at == NOW and g.stages[0].awarded_at is None
    assert g.status == "awaiting_unmark"


def test_a_mort_subite_reports_its_balls_and_its_winner() -> None:
    jambon = (Stage(Pattern.ONE_LINE, Lot("Jambon")),)
    spec = GameSpec(Kind.CLASSIQUE, jambon, tie=TieRule.SUDDEN_DEATH)
    e = evening(spec)
    rng = random.Random(11)
    e.join("a", "Alice")
    e.join("b", "Bruno")
    e.sell("a", Kind.CLASSIQUE, 1, rng=rng)
    a = e.player_cartons("a")[0]
    while not (
        e.player_cartons("b") and set(e.player_cartons("b")[-1].carton.rows[0]) & a.carton.rows[0]
    ):
        e.sell("b", Kind.CLASSIQUE, 1, rng=rng)
    b = e.player_cartons("b")[-1]
    x = min(a.carton.rows[0] & b.carton.rows[0])
    e.start_game()
    for n in [*sorted((a.carton.rows[0] | b.carton.rows[0]) - {x}), x]:
        e.enter_ball(n)
    e.claim("a", a.no)
    e.claim("b", b.no)
    while e.game.tie.broken is None:
        e.sudden_death_ball(rng=rng)
    e.award()
    (g,) = game_reports(entries(e), e.program, {"a": "Alice", "b": "Bruno"})
    (tie,) = g.ties
    assert tie.method_label == TIE_METHOD_LABELS["sudden"]
    assert list(tie.balls) == [
        b.number for b in e.game.tie_breaks and e.history if hasattr(b, "left")
    ]
    assert tie.winners in (("Alice",), ("Bruno",))
    assert len(tie.consolations) + len(tie.vouchers) == 1  # the other one: a carton offert
