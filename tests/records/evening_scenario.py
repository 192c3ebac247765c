"""A whole evening played through the engine, for the records tests.

`play_evening(run, get)` drives one evening with a deterministic bot: `run(move)` plays a
move (on a bare `Evening`, or through the registry to commit it: `live_driver`), `get()`
returns the current engine state. The evening has desk sales (cash and card), an order settled
at the caisse, an order cancelled, a sale refunded, a paper player, a false claim, a claim of
another série at the desk, valid claims, an ex aequo settled by tokens, awards, a lot handed
over, paper cartons printed in advance and sold by number (one sold twice and an unknown one
refused) and the till closed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.program import Kind, Program, demo_program
from loto_app.domain.serial import check_code
from loto_app.domain.verdicts import Verdict, judge
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.records.report import EveningReport
from loto_app.storage.repository import EveningStore

Move = Callable[[Evening], list]
Run = Callable[[Move], list]

PLAYERS = (("ana", "Ana", "hall"), ("bob", "Bob", "hall"), ("chloe", "Chloé", "hall"))
PAPER = ("dede", "Dédé", "paper")
#: offers of the demo tariff
ONE_CLASSIQUE, THREE_CLASSIQUE, PLANCHE, ONE_SPECIAL, _, ONE_VITRINE, ONE_MAXI = range(7)


def program() -> Program:
    """The demo program (série "A")."""
    return demo_program("A")


def _valid_claims(e: Evening) -> list[tuple[str, int]]:
    """(player, carton) pairs with a valid claim on the last number, not claimed yet."""
    g = e.game
    assert g is not None and g.stage_spec is not None
    claimed = {(c.carton_no, c.number) for c in g.claims}
    out = []
    seen_units: set[int] = set()
    for pid in e.players:
        for c in e.player_cartons(pid):
            if not e.plays(c.no, g) or c.unit in g.annulled or (c.no, g.last) in claimed:
                continue
            if c.unit in seen_units:
                continue
            if judge(g.stage_spec.pattern, [c.carton], g.drawn).verdict == Verdict.VALID:
                seen_units.add(c.unit)
                out.append((pid, c.no))
    return out


def play_evening(run: Run, get: Callable[[], Evening], seed: int) -> dict[str, int]:
    """Play the scripted evening; returns a few numbers the tests look up (sale numbers...).

    Raises:
        AssertionError: when this seed gives no ex aequo in the first game.
    """
    rng = random.Random(seed)
    out: dict[str, int] = {}
    for pid, name, origin in (*PLAYERS, PAPER):
        run(lambda e, p=pid, n=name, o=origin: e.join(p, n, o))
    # sales at the desk: a planche each (cash and card), a paper player's cartons
    run(lambda e: e.desk_sale("ana", PLANCHE, "cash", "Marie", rng=rng))
    run(lambda e: e.desk_sale("bob", PLANCHE, "card", "Marie", rng=rng))
    run(lambda e: e.desk_sale("chloe", PLANCHE, "cash", "Luc", rng=rng))
    run(lambda e: e.desk_sale("dede", THREE_CLASSIQUE, "cash", "Luc", rng=rng))
    # an order from a phone, settled at the caisse by card
    run(lambda e: e.order("chloe", ONE_VITRINE))
    out["confirmed"] = len(get().sales)
    run(lambda e: e.confirm_payment(out["confirmed"], "card", "Jeanne", rng=rng))
    # an order never paid: cancelled
    run(lambda e: e.order("bob", ONE_MAXI))
    out["cancelled"] = len(get().sales)
    run(lambda e: e.cancel_sale(out["cancelled"], "Jeanne", "Commande en double"))
    # a sale refunded before its cartons played
    run(lambda e: e.desk_sale("ana", ONE_SPECIAL, "cash", "Marie", rng=rng))
    out["refunded"] = len(get().sales)
    run(lambda e: e.cancel_sale(out["refunded"], "Jeanne", "Erreur de type de carton"))

    seed_bytes = rng.randbytes(32)  # the committed order, the same on every replay of the seed
    run(lambda e: e.start_game(seed_bytes))
    run(lambda e: e.draw(rng))
    # a false claim: ana's first carton is not complete after one number
    run(lambda e: e.claim("ana", e.player_cartons("ana")[0].no))
    out["false_claim_carton"] = get().player_cartons("ana")[0].no
    # a claim at the desk of a carton of another série
    run(lambda e: e.paper_claim("Z", 1, "ABCDEF"))
    ties = 0
    while True:
        e = get()
        g = e.game
        assert g is not None
        if g.status is GameStatus.AWAITING_UNMARK:
            break
        claims = _valid_claims(e) if g.drawn else []
        for pid, no in claims:
            if e.origins[pid] == "paper":  # checked at the desk with the printed check code
                code = check_code(e.key, e.program.series, no)
                run(lambda e, n=no, c=code: e.paper_claim(e.program.series, n, c))
            else:
                run(lambda e, p=pid, n=no: e.claim(p, n))
        if get().game.last_call is not None:
            run(lambda e: e.close_last_call())  # (the runtime's timer, after the seconds)
        entries = get().game.entries()
        if len(entries) > 1:
            ties += 1
            if len(entries) == 2 and get().game.stage_spec.lot.divisible:  # the share first
                run(lambda e: e.offer_share())
                p = entries[0]
                by = "animateur" if get().origins[p] == "paper" else ""
                run(lambda e, p=p, by=by: e.answer_share(p, False, by))
            run(lambda e: e.break_tie_by_draw(rng))
        if entries:
            run(lambda e: e.award())
            continue
        run(lambda e: e.draw(rng))
    assert ties, f"seed {seed}: no ex aequo in the first game"
    run(lambda e: e.allow_unmark())
    # a dispute settled after the game (art. 8): ana's false claim was a misread ball
    run(lambda e: e.overturn(1, "valid", "organisateur", "Boule mal lue par l'animateur"))
    run(lambda e: e.hand_over(1, "Paul"))
    # paper cartons printed in advance (a planche), sold at the desk by number and check code;
    # the same carton again (sold twice) and a made-up one are refused and counted
    run(lambda e: e.print_paper("classique", 1, "organisateur", rng))
    e = get()
    printed = sorted(e.paper_stock[Kind.CLASSIQUE])[:3]
    codes = [(n, check_code(e.key, e.program.series, n)) for n in printed]
    run(lambda e: e.sell_printed("emile", "Émile", THREE_CLASSIQUE, codes, "cash", "Luc"))
    out["printed_sale"] = len(get().sales)
    run(lambda e: e.sell_printed("emile", "", ONE_CLASSIQUE, codes[:1], "card", "Luc"))
    run(lambda e: e.sell_printed("emile", "", ONE_CLASSIQUE, [(999, "ZZZZZZ")], "cash", "Luc"))
    run(lambda e: e.close_till("Jeanne"))
    return out


def find_seed(start: int = 0, tries: int = 200) -> int:
    """The first seed from `start` whose evening has an ex aequo (played on a bare engine)."""
    for seed in range(start, start + tries):
        e = Evening(program())
        try:
            play_evening(lambda move, e=e: move(e), lambda e=e: e, seed)
        except AssertionError:
            continue
        return seed
    raise AssertionError("no seed gives an ex aequo")


EVENING_NAME = "Loto du foot « Les Verts »"
EVENING_DATE = "2025-03-01"


@dataclass
class Played:
    """The played evening: its store, id, live evening, the scenario's numbers and report."""

    store: EveningStore
    evening_id: int
    live: LiveEvening
    info: dict[str, int]
    report: EveningReport
