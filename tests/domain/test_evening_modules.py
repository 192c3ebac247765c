"""The engine put together from one module a concern: each event has one applier, in the
module of its concern, and the moves the rest of the app calls are all on `Evening`."""

from __future__ import annotations

import inspect
import random

import pytest

from loto_app.domain import events as ev
from loto_app.domain.engine import APPLIERS, Evening, GameStatus
from loto_app.domain.evening import base
from loto_app.domain.evening.base import applies
from loto_app.domain.program import demo_program
from loto_app.domain.verdicts import Verdict, judge

#: where the events of each concern are applied
CONCERNS = {
    "sales": {"PlayerJoined", "SaleRecorded", "PaymentConfirmed", "SaleCancelled", "TillClosed"},
    "paper": {"PaperPrinted", "PaperCartonRefused"},
    "typed": {"LinesTyped"},
    "draw": {"GameStarted", "NumberDrawn", "DrawCorrected", "UnmarkAllowed", "EveningClosed"},
    "claims": {"ClaimMade", "LastCallOpened", "LastCallClosed", "StageAwarded"},
    "ties": {"ShareOffered", "ShareAnswered", "TieBroken"},
    "disputes": {"CartonReinstated", "VerdictOverturned", "LotGiven", "AwardWithdrawn"},
    "marks": {"CellMarked", "CellUnmarked", "MarksSaved", "CartonsCleared"},
    "program": {"ProgramAmended", "LotPhotoSet", "PartnerAdded"},
}


def test_every_event_type_has_exactly_one_applier() -> None:
    assert set(APPLIERS) == set(ev.EVENT_TYPES.values())


@pytest.mark.parametrize("concern", sorted(CONCERNS))
def test_an_event_is_applied_in_the_module_of_its_concern(concern: str) -> None:
    for name in CONCERNS[concern]:
        fn = APPLIERS[getattr(ev, name)]
        assert fn.__module__ == f"loto_app.domain.evening.{concern}", name


def test_a_second_applier_for_an_event_is_refused() -> None:
    with pytest.raises(TypeError, match="two appliers"):
        applies(ev.PlayerJoined)(lambda self, e: None)
    assert APPLIERS[ev.PlayerJoined].__module__.endswith(".sales")


def test_an_unknown_event_is_refused_by_apply() -> None:
    e = Evening(demo_program())

    class Stranger(ev.PlayerJoined):
        pass

    with pytest.raises(TypeError, match="unknown event"):
        e.apply(Stranger("p1", "Zoé", "hall"))


def test_each_move_is_defined_once_in_one_concern() -> None:
    """No move is written twice (a concern overriding another's would hide a rule)."""
    seen: dict[str, str] = {}
    for cls in Evening.__mro__[1:]:
        if cls is object:
            continue
        for name, member in vars(cls).items():
            if inspect.isfunction(member) and not name.startswith("__"):
                assert name not in seen, f"{name} in {seen.get(name)} and {cls.__name__}"
                seen[name] = cls.__name__
    assert not [n for n in vars(Evening) if inspect.isfunction(vars(Evening)[n])]
    assert seen["apply"] == base.EveningCore.__name__


def test_a_played_evening_replays_to_the_same_state() -> None:
    """The appliers, module by module, rebuild what the moves built: every game of the demo
    evening played to its end, claims made when the server's judge says valid, ties settled."""
    rng = random.Random(3)
    e = Evening(demo_program())
    for p in ("p1", "p2", "p3"):
        e.join(p, p.upper())
        for kind in e.program.kinds():
            e.sell(p, kind, 2, rng=rng)
    while not e.is_over:
        e.start_game(seed=rng.randbytes(32))
        g = e.game
        assert g is not None
        while g.status is GameStatus.RUNNING:
            e.draw()
            stage = g.spec.stages[g.claim_stage]
            for p in ("p1", "p2", "p3"):
                for c in e.player_cartons(p):
                    unit = [e.cartons[n].carton for n in e.units[c.unit]]
                    if (
                        c.no == c.unit
                        and e.plays(c.no)
                        and judge(stage.pattern, unit, g.drawn).verdict is Verdict.VALID
                    ):
                        e.claim(p, c.no)
            if g.entries():
                if g.last_call is not None:
                    e.close_last_call()
                if len(g.entries()) > 1:
                    if _may_share(e):
                        e.offer_share()
                    for p in g.tie.share_offered_to:
                        e.answer_share(p, False)
                    e.break_tie_by_draw(rng)
                e.award()
        e.allow_unmark()
    assert sum(len(g.awards) for g in e.games) == sum(len(s.stages) for s in e.program.games)
    e.check_invariants()
    again = Evening.replay(e.program, e.history, sealed=dict(e.sealed))
    assert again.fingerprint() == e.fingerprint()


def _may_share(e: Evening) -> bool:
    g = e.game
    assert g is not None and g.stage_spec is not None
    return len(g.entries()) == 2 and g.stage_spec.lot.divisible
