"""Property tests of the rules core: an independent claim oracle, random evenings that must never
break an invariant, and the draw itself.

The claim oracle below is written from docs/RULES.md ("Claims") by brute force and deliberately does
not import `loto_app.domain.verdicts`' logic: it enumerates every set of lines (rows, diagonals,
cartons) that forms the pattern, keeps the complete ones, and decides

* valid: some complete winning set holds the last number drawn;
* late: complete winning sets exist, none holds the last number (so the pattern held already
  before it);
* false: no complete winning set.

A claim is judged on the stage that was in play when the last number came out, until the next
number (art. 2): once that stage is settled (awarded, share offered, tokens drawn) a valid claim
is "after_award" (recorded, not an entry, never annulled). So a genuine pattern completed by
the last number is never judged false, whatever the timing before the next number.

`audit()` re-derives, from the event log alone, what the rules say must hold (no number drawn
twice, no draw while a valid claim waits for its lot, every lot to a valid claimant, annulment
until démarquage, the last call, share first, tie tokens, consolation cartons and vouchers,
purchase timing, the association's decisions) and compares with the engine's state.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.domain.cartons import Carton, generate_maxi, generate_strip
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.errors import InvalidNumber, LotoError, NoNumberLeft
from loto_app.domain.patterns import RULES
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
from loto_app.domain.serial import ALPHABET, check_code
from loto_app.domain.verdicts import judge

#: Multiplies every example budget below: LOTO_PROPERTY_SCALE=10 for a long hunt.
SCALE = float(os.environ.get("LOTO_PROPERTY_SCALE", "1"))


def budget(n: int) -> int:
    return max(1, round(n * SCALE))


KEY = b"property-tests-secret-key-000000"
SERIES = "B7"
VALID, LATE, FALSE, AFTER = "valid", "late", "false", "after_award"

# --------------------------------------------------------------------------- the oracle


def grid_numbers(carton: Carton) -> frozenset[int]:
    """Every number of a grid, read from the cells (not from `Carton.numbers`)."""
    return frozenset(c for row in carton.grid for c in row if c is not None)


def grid_rows(carton: Carton) -> list[frozenset[int]]:
    return [frozenset(c for c in row if c is not None) for row in carton.grid]


def grid_diagonals(carton: Carton) -> list[frozenset[int]]:
    g = carton.grid
    n = len(g)
    assert n == 5 and all(len(r) == 5 for r in g), "diagonals only on a 5x5 maxiquine"
    main = frozenset(g[i][i] for i in range(n))
    anti = frozenset(g[i][n - 1 - i] for i in range(n))
    assert None not in main and None not in anti
    return [main, anti]  # type: ignore[list-item]


def pattern_lines(pattern: Pattern, unit: Sequence[Carton]) -> tuple[list[frozenset[int]], int]:
    """The lines a pattern is made of, and how many of them it takes."""
    if pattern in (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS):
        assert len(unit) == 3, "vitrine patterns are played on a unit of 3 cartons"
        k = {Pattern.ONE_CARD: 1, Pattern.TWO_CARDS: 2, Pattern.THREE_CARDS: 3}[pattern]
        return [grid_numbers(c) for c in unit], k
    assert len(unit) == 1
    (carton,) = unit
    if pattern is Pattern.ONE_LINE:
        return grid_rows(carton), 1
    if pattern is Pattern.TWO_LINES:
        return grid_rows(carton), 2
    if pattern is Pattern.FULL_CARD:
        return [grid_numbers(carton)], 1
    if pattern is Pattern.DIAGONAL:
        return grid_diagonals(carton), 1
    raise AssertionError(pattern)


def complete_winning_sets(
    pattern: Pattern, unit: Sequence[Carton], drawn: set[int]
) -> set[frozenset[int]]:
    """Every combination of lines forming the pattern whose numbers are all drawn."""
    lines, k = pattern_lines(pattern, unit)
    found: set[frozenset[int]] = set()
    for combo in itertools.combinations(range(len(lines)), k):
        chosen = [lines[i] for i in combo]
        if all(line <= drawn for line in chosen):
            found.add(frozenset().union(*chosen))
    return found


def oracle(pattern: Pattern, unit: Sequence[Carton], drawn: Sequence[int]) -> str:
    """valid / late / false, by brute force (see the module docstring)."""
    if not drawn:
        return FALSE
    sets = complete_winning_sets(pattern, unit, set(drawn))
    if not sets:
        return FALSE
    if any(drawn[-1] in w for w in sets):
        return VALID
    # late: then the pattern was complete before the last number already
    assert complete_winning_sets(pattern, unit, set(drawn[:-1]))
    return LATE


def genuine_winning_set(
    pattern: Pattern, unit: Sequence[Carton], drawn: Sequence[int], winning: frozenset[int]
) -> bool:
    """`winning` is a complete winning set holding the last number."""
    return winning in complete_winning_sets(pattern, unit, set(drawn)) and drawn[-1] in winning


# --------------------------------------------------------------------------- 1. judge == oracle

VITRINE_PATTERNS = (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS)


@st.composite
def claim_cases(draw: st.DrawFn) -> tuple[Pattern, list[Carton], list[int]]:
    """A pattern, a claimed unit of fresh cartons, and a draw prefix often near a completion."""
    # the claimed patterns; the inversée's winners are found by the server (test_patterns.py)
    pattern = draw(st.sampled_from([p for p, r in RULES.items() if r.claimed]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    if pattern in VITRINE_PATTERNS:
        unit = rng.sample(generate_strip(rng), 3)
    elif pattern is Pattern.DIAGONAL or (pattern is Pattern.FULL_CARD and draw(st.booleans())):
        unit = [generate_maxi(rng)]
    else:
        unit = [rng.choice(generate_strip(rng))]
    lines, need = pattern_lines(pattern, unit)
    # usually enough early lines to form the pattern, sometimes fewer
    low = need if draw(st.integers(0, 3)) else 0
    focus = rng.sample(lines, draw(st.integers(low, len(lines))))
    early = sorted(frozenset().union(*focus)) if focus else []
    others = [n for n in range(1, 91) if n not in early]
    rng.shuffle(others)
    noise = draw(st.integers(0, 12))
    head = early + others[:noise]
    rng.shuffle(head)
    order = head + others[noise:]
    if early and draw(st.integers(0, 3)):
        # cut the draw right at the completion of the early lines, or just before or after it
        done = max(order.index(n) for n in early) + 1
        cut = done + draw(st.sampled_from([0, 0, 0, 1, 2, 5, -1, -2]))
    else:
        cut = draw(st.integers(0, 90))
    return pattern, unit, order[: max(0, min(90, cut))]


@settings(max_examples=budget(600), deadline=None)
@given(claim_cases())
def test_judge_agrees_with_the_brute_force_oracle(case: tuple[Pattern, list[Carton], list[int]]):
    pattern, unit, drawn = case
    expected = oracle(pattern, unit, drawn)
    event(f"{pattern.value}: {expected}")
    j = judge(pattern, unit, drawn)
    assert j.verdict.value == expected, (pattern, [c.grid for c in unit], drawn)
    if expected == VALID:
        assert genuine_winning_set(pattern, unit, drawn, j.winning), j.winning
    else:
        assert j.winning == frozenset()


def test_the_oracle_itself_on_a_known_carton() -> None:
    """A sanity check of the oracle (so that agreement with judge() means something)."""
    rows = ((1, 12, 25, 43, 61), (5, 30, 47, 70, 84), (18, 36, 52, 66, 90))
    grid = []
    for row in rows:
        cells: list[int | None] = [None] * 9
        for n in row:
            cells[min(n // 10, 8)] = n
        grid.append(tuple(cells))
    carton = Carton(tuple(grid))
    assert oracle(Pattern.ONE_LINE, [carton], []) == FALSE
    assert oracle(Pattern.ONE_LINE, [carton], [2, *rows[0]]) == VALID
    assert oracle(Pattern.ONE_LINE, [carton], [*rows[0], 2]) == LATE
    assert oracle(Pattern.TWO_LINES, [carton], [*rows[0], 2]) == FALSE
    assert oracle(Pattern.TWO_LINES, [carton], [*rows[0], *rows[2]]) == VALID
    assert oracle(Pattern.TWO_LINES, [carton], [*rows[0], *rows[2], 5]) == LATE
    assert oracle(Pattern.FULL_CARD, [carton], [n for r in rows for n in r]) == VALID


# --------------------------------------------------------------------------- programs

DIVISIBLE = Lot("Bons d'achat", 5000, divisible=True)
SOLID = Lot("Vélo", 20000)


def game(kind: Kind, *patterns: Pattern, divisible: bool = True) -> GameSpec:
    lot = DIVISIBLE if divisible else SOLID
    return GameSpec(kind, tuple(Stage(p, lot) for p in patterns))


CLASSIQUE_3 = game(Kind.CLASSIQUE, Pattern.ONE_LINE, Pattern.TWO_LINES, Pattern.FULL_CARD)
CLASSIQUE_SOLID = game(Kind.CLASSIQUE, Pattern.ONE_LINE, Pattern.FULL_CARD, divisible=False)
SPECIAL = game(Kind.SPECIAL, Pattern.FULL_CARD)
VITRINE = game(Kind.VITRINE, Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS)
MAXI_FULL = game(Kind.MAXIQUINE, Pattern.FULL_CARD, divisible=False)
MAXI_DIAG = game(Kind.MAXIQUINE, Pattern.DIAGONAL)

PROGRAMS: tuple[tuple[GameSpec, ...], ...] = (
    (CLASSIQUE_3, SPECIAL, VITRINE, MAXI_FULL, MAXI_DIAG),
    (MAXI_DIAG, VITRINE, CLASSIQUE_SOLID, MAXI_FULL),
    (VITRINE, CLASSIQUE_3, MAXI_DIAG),
    (SPECIAL, MAXI_FULL, CLASSIQUE_SOLID, SPECIAL),
    (CLASSIQUE_3,),  # one game: a lost tie-break gets a "carton offert" voucher
)


def make_program(
    games: tuple[GameSpec, ...],
    source: DrawSource,
    auto: bool,
    tie: TieMethod,
    last_call: int = 0,
    tokens: TokenSource | None = TokenSource.APP,
) -> Program:
    settings = Settings(
        draw_source=source,
        auto_marking=auto,
        tie_method=tie,
        last_call_seconds=last_call,
        token_source=tokens,
    )
    return Program(SERIES, games, settings)


def roundtrip(events: Sequence[ev.Event]) -> list[ev.Event]:
    """Events through real JSON and back; `to_dict` gives what `dataclasses.asdict` with its
    tuples as lists gives (the shape the log always stored)."""
    for e in events:
        assert e.to_dict() == {"type": e.type, **_as_lists(asdict(e))}, e
    return [ev.event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]


def _as_lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _as_lists(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_as_lists(v) for v in value]
    return value


# --------------------------------------------------------------------------- the audit


@dataclass
class AuditedGame:
    index: int
    spec: GameSpec
    drawn: list[int] = field(default_factory=list)
    stage: int = 0
    status: str = "running"
    annulled: set[int] = field(default_factory=set)
    valid: dict[int, list[str]] = field(default_factory=dict)  # stage -> players, claim order
    valid_number: dict[int, int] = field(default_factory=dict)
    tie_closed: bool = False
    offered: tuple[str, ...] = ()
    answers: dict[str, bool] = field(default_factory=dict)
    broken: ev.TieBroken | None = None
    claimed_numbers: set[int] = field(default_factory=set)
    claim_stage: int = 0  # the stage in play when the last number came out
    last_call: tuple[int, int] | None = None  # (stage, number) of the open last call
    called: set[tuple[int, int]] = field(default_factory=set)
    # stages whose entries, as they stand, had a last call (every in-time winner has one)
    heard: set[int] = field(default_factory=set)
    committed: ev.DrawCommitted | None = None  # the electronic boulier's commitment
    revealed: bytes | None = None
    claims: dict[int, ev.ClaimMade] = field(default_factory=dict)
    overturned: dict[int, tuple[str, bool]] = field(default_factory=dict)  # no -> (verdict, entry)

    def settled(self, stage: int) -> bool:
        return stage < self.stage or (stage == self.stage and self.tie_closed)

    def recount(self, stage: int) -> None:
        """The entries of a stage: players with a valid claim (or one a decision made one)."""
        players: list[str] = []
        for c in self.claims.values():
            if c.stage != stage or c.player_id is None:
                continue
            _, entry = self.overturned.get(c.claim_no, (c.verdict, c.verdict == VALID))
            if entry and c.player_id not in players:
                players.append(c.player_id)
        if players:
            self.valid[stage] = players
        else:
            self.valid.pop(stage, None)


def audit(evening: Evening) -> None:
    """Re-derive the rules' consequences from `evening.history` alone and compare."""
    program = evening.program
    players: set[str] = set()
    cartons: dict[int, tuple[Kind, int, Carton]] = {}
    units: dict[int, list[int]] = {}
    owner: dict[int, str] = {}
    first_game: dict[int, int] = {}
    bought_late: dict[int, int] = {}  # carton -> game running (numbers out) when it was bought
    games: list[AuditedGame] = []
    consolation_due: list[str] = []  # free cartons owed (a lost tie-break, a decision)
    voucher_due: list[tuple[str, str]] = []  # (player, why): "carton offert" vouchers owed
    consolations: dict[str, int] = {}
    losses: dict[str, int] = {}
    next_claim = 1
    next_ticket = 1
    tickets: dict[int, str] = {}  # ticket -> player
    lot_stage: dict[int, tuple[int, int]] = {}  # lot ticket -> (game, stage)
    origin: dict[str, str] = {}
    voided: set[int] = set()
    given: dict[int, int] = {}  # claim no -> lot ticket given by a decision
    consoled: set[int] = set()  # claims given a consolation by a decision
    last_call_due: tuple[int, int, int] | None = None  # a first valid claim: its last call next
    settings = program.settings

    def playing(no: int, g: AuditedGame) -> bool:
        return no in owner and first_game[no] <= g.index and cartons[no][0] is g.spec.kind

    def next_index() -> int:
        cur = games[-1] if games else None
        if cur is None:
            return 0
        fixed = cur.drawn or cur.committed is not None  # a committed game's cartons: at start
        return cur.index if cur.status == "running" and not fixed else cur.index + 1

    def owe_consolation(players: list[str], why: str) -> None:
        """A free carton while a game (not a vitrine: a unit of 3) is left for it to play,
        else a "carton offert" voucher."""
        nonlocal consolation_due
        if any(spec.kind is not Kind.VITRINE for spec in program.games[next_index() :]):
            consolation_due += players
        else:
            voucher_due.extend((p, why) for p in players)
        for p in players:
            losses[p] = losses.get(p, 0) + 1

    paused = False
    partners: list[str] = []
    closed = False
    on_paper: set[int] = set()  # cartons printed on paper in advance
    purchase_player: dict[int, str] = {}
    reveal_due: int | None = None  # a committed game ended: its seed revealed next
    close_due = False  # a seed revealed in play: the evening is closed next
    for e in evening.history:
        assert not closed, f"{e!r} after the evening was closed"
        if close_due:
            assert isinstance(e, ev.EveningClosed), "a seed revealed while its game is in play"
        if reveal_due is not None:
            assert isinstance(e, ev.DrawRevealed) and e.game == reveal_due, "the seed revealed"
            reveal_due = None
        if (consolation_due or voucher_due) and not isinstance(
            e, ev.CartonsPrinted | ev.CartonsSold | ev.VoucherIssued
        ):
            raise AssertionError(f"{consolation_due} {voucher_due}: no consolation given")
        if last_call_due is not None:
            assert isinstance(e, ev.LastCallOpened), "a first valid claim opens the last call"
            assert (e.game, e.stage, e.number) == last_call_due
            assert e.seconds == settings.last_call_seconds
            last_call_due = None
        match e:
            case ev.PlayerJoined():
                assert e.player_id not in players
                players.add(e.player_id)
                origin[e.player_id] = e.origin
            case ev.CartonsPrinted():
                for no, unit, rows in e.cartons:
                    assert no == len(cartons) + 1, "carton numbering"
                    cartons[no] = (Kind(e.kind), unit, Carton.from_rows([list(r) for r in rows]))
                    units.setdefault(unit, []).append(no)
            case ev.PaperPrinted():
                assert e.by.strip() and e.carton_nos
                assert all(cartons[n][0] is Kind(e.kind) and n not in owner for n in e.carton_nos)
                assert not set(e.carton_nos) & on_paper, "printed on paper twice"
                on_paper.update(e.carton_nos)
            case ev.SaleRecorded():  # (the desk's sale of printed cartons)
                assert e.method in ("cash", "card") and e.amount_cents > 0 and e.seller
                assert purchase_player.get(e.purchase_no) == e.player_id, "a sale's cartons"
            case ev.PaperCartonRefused():
                assert e.why in ("unknown", "sold")
                if e.why == "sold":
                    assert e.carton_no in owner, "refused as sold, but nobody holds it"
            case ev.CartonsSold():
                assert e.player_id in players
                cur = games[-1] if games else None
                if cur is None:
                    expected_first = 0
                elif cur.status == "running" and not cur.drawn and cur.committed is None:
                    expected_first = cur.index
                else:
                    expected_first = cur.index + 1
                assert e.first_game == expected_first, "a carton joins at the next game (art. 7)"
                from_paper = {no in on_paper for no in e.carton_nos}
                assert len(from_paper) == 1, "a purchase mixes paper and phone cartons"
                if True in from_paper:
                    assert origin[e.player_id] == "paper", "printed cartons to a phone"
                purchase_player[e.purchase_no] = e.player_id
                for no in e.carton_nos:
                    assert no not in owner, f"carton {no} sold twice"
                    assert cartons[no][0] is Kind(e.kind)
                    owner[no] = e.player_id
                    first_game[no] = e.first_game
                    if cur is not None and (
                        cur.drawn or cur.status != "running" or cur.committed is not None
                    ):
                        bought_late[no] = cur.index
                for u in {cartons[no][1] for no in e.carton_nos}:
                    assert set(units[u]) <= set(e.carton_nos), "a vitrine unit sold whole"
                if e.reason == "consolation":
                    assert e.player_id in consolation_due, "consolation carton for a non-loser"
                    assert len(e.carton_nos) == 1
                    consolation_due.remove(e.player_id)
                    consolations[e.player_id] = consolations.get(e.player_id, 0) + 1
            case ev.GameStarted():
                assert e.game == len(games) < len(program.games)
                assert not games or games[-1].status == "finished"
                games.append(AuditedGame(e.game, program.games[e.game]))
                paused = False  # the games resume
            case ev.DrawCommitted():
                g = games[e.game]
                assert g is games[-1] and not g.drawn and g.committed is None
                assert settings.draw_source is DrawSource.ELECTRONIC, "a physical draw committed"
                assert (e.series, e.scheme) == (program.series, draws.SCHEME)
                assert len(e.commitment) == 64
                g.committed = e
            case ev.DrawRevealed():
                g = games[e.game]
                assert g.committed is not None and g.revealed is None
                if g.status != "finished":  # only when the evening is closed on the game
                    close_due = True
                seed = bytes.fromhex(e.seed)
                c = g.committed
                assert draws.commitment(seed, c.evening, c.series, g.index + 1) == c.commitment
                assert tuple(g.drawn) == draws.draw_order(seed)[: len(g.drawn)], "not the order"
                g.revealed = seed
            case ev.EveningClosed():
                assert e.by.strip() and (e.interrupted is None) == (not games or g_over(games))
                assert e.interrupted is None or e.reason, "a game interrupted without a reason"
                close_due = False
                closed = True
            case ev.NumberDrawn():
                g = games[e.game]
                assert g is games[-1] and g.status == "running"
                assert settings.draw_source is DrawSource.PHYSICAL or g.committed is not None, (
                    "an electronic game drawn without a commitment"
                )
                assert 1 <= e.number <= 90 and e.number not in g.drawn, "a number drawn twice"
                assert e.seq == len(g.drawn) + 1
                assert e.source == program.settings.draw_source.value
                assert g.stage not in g.valid, "a draw while a valid claim waits for its lot"
                assert g.last_call is None
                g.drawn.append(e.number)
                g.claim_stage = g.stage
            case ev.DrawCorrected():
                g = games[e.game]
                assert g is games[-1] and g.status == "running"
                assert program.settings.draw_source is DrawSource.PHYSICAL
                assert e.seq == len(g.drawn) and g.drawn[-1] == e.old
                assert 1 <= e.new <= 90 and e.new not in g.drawn
                assert e.old not in g.claimed_numbers, "corrected a number a claim refers to"
                g.drawn[-1] = e.new
            case ev.CellMarked():
                g = games[e.game]
                assert g is games[-1] and g.status != "finished"
                assert owner.get(e.carton_no) == e.player_id
                assert playing(e.carton_no, g)
                assert e.number in g.drawn and e.number in grid_numbers(cartons[e.carton_no][2])
                assert cartons[e.carton_no][1] not in g.annulled, "a pion on an annulled carton"
            case ev.CellUnmarked():
                assert owner.get(e.carton_no) == e.player_id
            case ev.MarksSaved():
                g = games[e.game]
                assert g is games[-1] and g.status != "finished" and e.marks
                for pid, no, number, on in e.marks:
                    assert owner.get(no) == pid and playing(no, g)
                    if on:
                        assert number in g.drawn and number in grid_numbers(cartons[no][2])
                        assert cartons[no][1] not in g.annulled, "a pion on an annulled carton"
            case ev.ClaimMade():
                g = games[e.game]
                assert e.claim_no == next_claim
                next_claim += 1
                assert g is games[-1] and g.status in ("running", "awaiting") and g.drawn
                # tied to the last number and to the stage in play when it came out
                assert e.stage == g.claim_stage and e.number == g.drawn[-1]
                g.claimed_numbers.add(e.number)
                g.claims[e.claim_no] = e
                if e.verdict == "wrong_series":
                    assert e.via == "desk"
                    continue
                unit_no = cartons[e.carton_no][1]
                assert sorted(e.unit_nos) == sorted(units[unit_no])
                if e.verdict == "not_in_game":
                    assert e.player_id is None or not playing(e.carton_no, g)
                    continue
                assert e.player_id == owner[e.carton_no] and playing(e.carton_no, g)
                if e.verdict == "annulled":
                    assert unit_no in g.annulled
                    continue
                assert unit_no not in g.annulled, "an annulled carton was judged"
                pattern = g.spec.stages[e.stage].pattern
                unit = [cartons[n][2] for n in e.unit_nos]
                truth = oracle(pattern, unit, g.drawn)
                if truth == VALID:
                    assert e.verdict != FALSE, "a genuine pattern on the last number judged false"
                expected = AFTER if truth == VALID and g.settled(e.stage) else truth
                assert e.verdict == expected, (e, g.drawn, g.stage, g.tie_closed)
                if e.verdict in (VALID, AFTER):
                    assert genuine_winning_set(pattern, unit, g.drawn, frozenset(e.winning))
                else:
                    assert e.winning == ()
                if e.verdict == VALID:
                    first = (e.stage, e.number) not in g.called and g.last_call is None
                    if settings.last_call_seconds and first:
                        last_call_due = (e.game, e.stage, e.number)
                    g.recount(e.stage)
                    assert g.valid_number.setdefault(e.stage, e.number) == e.number
                if e.verdict == FALSE:
                    g.annulled.add(unit_no)
            case ev.LastCallOpened():
                g = games[e.game]
                assert g.last_call is None and (e.stage, e.number) not in g.called
                g.last_call = (e.stage, e.number)
                g.called.add(g.last_call)
                g.heard.add(e.stage)
            case ev.LastCallClosed():
                g = games[e.game]
                assert g.last_call == (e.stage, e.number), "closed a last call that is not open"
                g.last_call = None
            case ev.ShareOffered():
                g = games[e.game]
                assert g.last_call is None, "the share offered during the last call"
                assert program.settings.tie_method is TieMethod.SHARE_OR_DRAW
                assert g.spec.stages[g.stage].lot.divisible
                assert e.stage == g.stage and list(e.players) == g.valid.get(g.stage)
                assert len(e.players) == 2 and not g.tie_closed
                g.tie_closed = True
                g.offered = e.players
            case ev.ShareAnswered():
                g = games[e.game]
                assert e.player_id in g.offered and e.player_id not in g.answers
                assert e.by == "" or (e.by == "animateur" and origin[e.player_id] == "paper")
                assert g.broken is None
                g.answers[e.player_id] = e.accepted
            case ev.TieBroken():
                g = games[e.game]
                entries = g.valid.get(g.stage, [])
                assert e.stage == g.stage and len(entries) >= 2 and g.broken is None
                assert g.last_call is None, "a tie settled during the last call"
                if e.method == "draw":
                    assert e.source == settings.token_source.value  # type: ignore[union-attr]
                    lot = g.spec.stages[g.stage].lot
                    if (
                        settings.tie_method is TieMethod.SHARE_OR_DRAW
                        and len(entries) == 2
                        and lot.divisible
                    ):
                        assert False in g.answers.values(), "a draw before the share was refused"
                    assert [p for p, _ in e.tokens] == entries
                    tokens = [t for _, t in e.tokens]
                    assert len(set(tokens)) == len(tokens), "tie tokens must be distinct"
                    assert all(1 <= t <= 90 for t in tokens)
                    best = max(e.tokens, key=lambda pt: pt[1])[0]
                    assert e.winners == (best,), "the highest token wins"
                    owe_consolation([p for p in entries if p != best], "tie")
                else:
                    assert e.method == "share" and e.tokens == ()
                    assert set(e.winners) == set(g.offered)
                    assert all(g.answers.get(p) is True for p in g.offered)
                g.tie_closed = True
                g.broken = e
            case ev.StageAwarded():
                g = games[e.game]
                assert e.stage == g.stage and g.status == "running"
                assert g.last_call is None, "a lot awarded during the last call"
                if settings.last_call_seconds:
                    assert e.stage in g.heard, "an in-time winner had no last call"
                entries = g.valid.get(g.stage, [])
                winners = [p for _, p, _ in e.tickets]
                assert entries, "a lot awarded without a valid claim"
                assert set(winners) <= set(entries), "a lot went to a player without a valid claim"
                if len(entries) == 1:
                    assert winners == entries
                else:
                    assert g.broken is not None and tuple(winners) == g.broken.winners
                share = "1/2" if g.broken is not None and g.broken.method == "share" else "1"
                assert all(s == share for _, _, s in e.tickets)
                for t, p, _ in e.tickets:
                    assert t == next_ticket, "lot tickets numbered in order"
                    next_ticket += 1
                    tickets[t] = p
                    lot_stage[t] = (e.game, e.stage)
                g.stage += 1
                g.tie_closed, g.offered, g.answers, g.broken = False, (), {}, None
                if g.stage == len(g.spec.stages):
                    g.status = "awaiting"
            case ev.UnmarkAllowed():
                g = games[e.game]
                assert g.status == "awaiting" or (
                    g.status == "running" and len(g.drawn) == 90 and g.stage not in g.valid
                ), "démarquage before the last lot (unless all 90 numbers are out, unclaimed)"
                g.status = "finished"
                if g.committed is not None:
                    reveal_due = e.game
            case ev.CartonsCleared():
                assert games[e.game].status == "finished"
            case ev.PauseStarted():
                assert not games or games[-1].status == "finished", "an entracte during a game"
                assert len(games) < len(program.games), "an entracte after the last game"
                assert e.message == " ".join(e.message.split()) and e.returns_at > 0
                paused = True
            case ev.PauseEnded():
                assert paused, "an entracte ended that was not in course"
                paused = False
            case ev.LotPhotoSet():
                lots = {
                    " ".join(s.lot.description.split()).casefold()
                    for g in program.games
                    for s in g.stages
                }
                assert " ".join(e.lot.split()).casefold() in lots
            case ev.PartnerAdded():
                assert e.digest not in partners and len(partners) < 12
                partners.append(e.digest)
            case ev.PartnerRemoved():
                partners.remove(e.digest)
            case ev.VoucherIssued():
                assert voucher_due and voucher_due[0] == (e.player_id, e.why), "a voucher owed?"
                voucher_due.pop(0)
                assert e.ticket_no == next_ticket, "vouchers numbered with the lot tickets"
                next_ticket += 1
                tickets[e.ticket_no] = e.player_id
                consolations[e.player_id] = consolations.get(e.player_id, 0) + 1
            # ---- the association's decisions (art. 8): by whom, why, and what they change
            case (
                ev.CartonReinstated()
                | ev.VerdictOverturned()
                | ev.LotGiven()
                | ev.ConsolationGiven()
                | ev.AwardWithdrawn()
            ):
                assert e.by in ("animateur", "organisateur")
                assert e.reason.strip() == e.reason and 0 < len(e.reason) <= 200
                match e:
                    case ev.CartonReinstated():
                        g = games[e.game]
                        unit_no = cartons[e.carton_no][1]
                        assert g is games[-1] and g.status != "finished"
                        assert unit_no in g.annulled, "reinstated a carton that was not annulled"
                        g.annulled.discard(unit_no)
                    case ev.VerdictOverturned():
                        g = games[e.game]
                        assert g is games[-1]
                        c = g.claims[e.claim_no]
                        old = g.overturned.get(c.claim_no, (c.verdict, False))[0]
                        assert e.old == old != e.verdict and c.player_id is not None
                        assert old in (VALID, FALSE, LATE, AFTER) and e.verdict in (VALID, FALSE)
                        unit_no = cartons[c.carton_no][1]
                        if e.verdict == VALID:
                            in_window = (
                                g.status == "running"
                                and c.stage == g.claim_stage == g.stage
                                and c.number == g.drawn[-1]
                                and not g.tie_closed
                            )
                            assert e.entry == in_window, "an overturned claim's entry"
                            if old == FALSE and g.status != "finished":
                                g.annulled.discard(unit_no)
                            first = (c.stage, c.number) not in g.called and g.last_call is None
                            if e.entry and settings.last_call_seconds and first:
                                last_call_due = (e.game, c.stage, c.number)
                        else:
                            assert not e.entry
                            assert not (
                                g.status == "running" and c.stage == g.stage and g.tie_closed
                            )
                            held = [
                                t
                                for t, p in tickets.items()
                                if p == c.player_id
                                and t not in voided
                                and t in lot_stage
                                and lot_stage[t] == (e.game, c.stage)
                            ]
                            assert not held, (
                                "a winner's claim made false before the lot is withdrawn"
                            )
                            if g.status != "finished":
                                g.annulled.add(unit_no)
                        g.overturned[c.claim_no] = (e.verdict, e.entry)
                        g.recount(c.stage)
                        if c.stage not in g.valid:  # nobody waits for that lot any more
                            g.valid_number.pop(c.stage, None)
                            # the next valid claim on that number opens a last call again
                            g.called.discard((c.stage, c.number))
                            g.heard.discard(c.stage)
                        if g.stage not in g.valid:  # (a last call runs on the stage in play)
                            g.last_call = None
                    case ev.LotGiven():
                        claim = next(g.claims[e.claim_no] for g in games if e.claim_no in g.claims)
                        assert (claim.game, claim.stage, claim.player_id) == (
                            e.game,
                            e.stage,
                            e.player_id,
                        )
                        assert given.get(e.claim_no) in (None, *voided), "a lot given twice"
                        assert e.ticket_no == next_ticket
                        next_ticket += 1
                        tickets[e.ticket_no] = e.player_id
                        lot_stage[e.ticket_no] = (e.game, e.stage)
                        given[e.claim_no] = e.ticket_no
                    case ev.ConsolationGiven():
                        claim = next(g.claims[e.claim_no] for g in games if e.claim_no in g.claims)
                        assert claim.player_id == e.player_id and e.claim_no not in consoled
                        consoled.add(e.claim_no)
                        owe_consolation([e.player_id], "dispute")
                    case ev.AwardWithdrawn():
                        assert tickets.get(e.ticket_no) == e.player_id and e.ticket_no not in voided
                        voided.add(e.ticket_no)
            case _:
                raise AssertionError(f"unexpected event {e!r}")
    assert not consolation_due, f"tied losers {consolation_due} got no consolation carton"
    assert not voucher_due, f"{voucher_due}: no voucher"
    assert last_call_due is None, "a first valid claim opened no last call"
    assert reveal_due is None, "a committed game ended without its seed revealed"
    assert consolations == losses, "one consolation per lost tie-break"

    # ---- compare with the engine's state
    assert set(evening.players) == players
    assert len(evening.games) == len(games)
    status_name = {
        GameStatus.RUNNING: "running",
        GameStatus.AWAITING_UNMARK: "awaiting",
        GameStatus.FINISHED: "finished",
    }
    for g, eg in zip(games, evening.games, strict=True):
        assert eg.drawn == g.drawn
        assert len(set(eg.drawn)) == len(eg.drawn)
        assert eg.stage == g.stage and status_name[eg.status] == g.status
        if g.status == "finished":
            assert not eg.annulled, "annulled cartons come back at démarquage"
        else:
            assert eg.annulled == g.annulled, "a false claim's unit is annulled for the game"
        drawn = set(g.drawn)
        for no, marks in eg.marks.items():
            if marks:
                assert playing(no, g), f"marks on carton {no}, which does not play {g.index}"
                assert marks <= drawn & grid_numbers(cartons[no][2]), "marks outside the draw"
    for no, gi in bought_late.items():
        for g, eg in zip(games, evening.games, strict=True):
            if g.index <= gi:
                assert not evening.plays(no, eg), f"carton {no} bought late plays game {gi}"


def g_over(games: list[AuditedGame]) -> bool:
    """The last game started is over (démarquage allowed)."""
    return games[-1].status == "finished"


class Recorder:
    """The JSON round-trip of an evening's log, converted once per event (the log only grows)."""

    def __init__(self) -> None:
        self.seen: list[ev.Event] = []
        self.copies: list[ev.Event] = []

    def events(self, history: Sequence[ev.Event]) -> list[ev.Event]:
        assert len(history) >= len(self.seen)
        assert all(a is b for a, b in zip(self.seen, history, strict=False)), (
            "the log was rewritten"
        )
        fresh = list(history[len(self.seen) :])
        self.seen += fresh
        self.copies += roundtrip(fresh)
        return self.copies


def check_everything(evening: Evening, recorder: Recorder | None = None) -> dict[str, Any]:
    """The engine's own invariants, the audit, and replay from the JSON log.

    Returns the evening's fingerprint (a snapshot for the next refused move).
    """
    evening.check_invariants()
    audit(evening)
    events = (recorder or Recorder()).events(evening.history)
    replayed = Evening.replay(evening.program, events, evening.key, evening.sealed, evening.code)
    fingerprint = evening.fingerprint()
    assert replayed.fingerprint() == fingerprint
    # stronger than the fingerprint: every attribute (counters, corrections, indexes) but the log
    # (and the cache of committed orders)
    if hasattr(evening, "__dict__"):
        skip = ("history", "_orders")
        mine = {k: v for k, v in vars(evening).items() if k not in skip}
        theirs = {k: v for k, v in vars(replayed).items() if k not in skip}
        assert mine == theirs, sorted(k for k in mine if mine[k] != theirs.get(k))
    return fingerprint


# --------------------------------------------------------------------------- whole games


def attempt(
    evening: Evening,
    move: Callable[[], list[ev.Event]],
    snapshot: tuple[int, dict[str, Any]] | None = None,
) -> list[ev.Event] | None:
    """Make a move; a refusal (LotoError) must leave the state exactly as it was.

    `snapshot` is (log length, fingerprint) taken earlier, used when the log has not grown since.
    """
    size = len(evening.history)
    fresh = snapshot is not None and snapshot[0] == size
    before = snapshot[1] if fresh else evening.fingerprint()  # type: ignore[index]
    try:
        events = move()
    except LotoError:
        assert len(evening.history) == size
        assert evening.fingerprint() == before
        return None
    assert evening.history[size:] == events
    return events


def playing_cartons(evening: Evening) -> list[int]:
    g = evening.game
    return [n for n in sorted(evening.cartons) if g is not None and evening.plays(n, g)]


def current_verdict(evening: Evening, carton_no: int) -> str:
    """The oracle's verdict of a claim now: on the last number, for the stage that was in play
    when it came out (`Game.claim_stage`, a plain number kept by the engine)."""
    g = evening.game
    assert g is not None and g.drawn
    c = evening.cartons[carton_no]
    unit = [evening.cartons[n].carton for n in evening.units[c.unit]]
    return oracle(g.spec.stages[g.claim_stage].pattern, unit, g.drawn)


@settings(max_examples=budget(12), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), physical=st.booleans(), eager=st.floats(0.5, 1.0))
def test_engine_claim_verdicts_match_the_oracle_over_whole_evenings(
    seed: int, physical: bool, eager: float
) -> None:
    rng = random.Random(seed)
    source = DrawSource.PHYSICAL if physical else DrawSource.ELECTRONIC
    last_call = rng.choice([0, 5])
    program = make_program(PROGRAMS[0], source, rng.random() < 0.5, TieMethod.DRAW, last_call)
    evening = Evening(program, KEY)
    for p in ("p0", "p1", "p2"):
        evening.join(p, p.upper())
        evening.sell(p, Kind.CLASSIQUE, rng.randint(1, 4), rng=rng)
        evening.sell(p, Kind.SPECIAL, planche=True, rng=rng)
        evening.sell(p, Kind.VITRINE, rng.randint(1, 2), rng=rng)
        evening.sell(p, Kind.MAXIQUINE, rng.randint(1, 3), rng=rng)
    claims_checked = 0
    for _ in program.games:
        evening.start_game(rng.randbytes(32))
        need_draw = True
        while evening.game.status is GameStatus.RUNNING:  # type: ignore[union-attr]
            g = evening.game
            assert g is not None
            if need_draw:
                if not evening.can_draw():
                    break  # 90 numbers out and nobody claimed in time: nothing more to play
                if physical:
                    evening.enter_ball(rng.choice([n for n in range(1, 91) if n not in g.drawn]))
                else:
                    evening.draw(rng)
            for no in playing_cartons(evening):
                if no != evening.cartons[no].unit:
                    continue  # a vitrine is claimed once, on its first carton
                expected = current_verdict(evening, no)
                if expected == VALID and g.settled(g.claim_stage):
                    expected = AFTER  # its stage was awarded on this very number
                if rng.random() < (eager if expected in (VALID, AFTER) else 0.02):
                    annulled = evening.cartons[no].unit in g.annulled
                    if rng.random() < 0.3:  # the paper carton checked at the desk
                        code = check_code(KEY, SERIES, no)
                        move = lambda no=no, code=code: evening.paper_claim(SERIES, no, code)  # noqa: E731
                    else:
                        move = lambda no=no: evening.claim(evening.owner(no), no)  # noqa: E731
                    events = attempt(evening, move)
                    if events is None:
                        continue
                    made, *_ = events
                    assert isinstance(made, ev.ClaimMade)
                    assert made.verdict == ("annulled" if annulled else expected)
                    assert made.verdict != FALSE or expected == FALSE
                    claims_checked += 1
            # after an award, claims on the same number are still judged on the awarded stage
            # ("valide après l'attribution"), never on the next one
            need_draw = not g.entries()
            if g.entries():
                if g.last_call is not None:
                    assert attempt(evening, evening.award) is None  # not during the last call
                    evening.close_last_call()
                if len(g.entries()) > 1:
                    evening.break_tie_by_draw(rng)
                evening.award()
        if evening.game.status is GameStatus.RUNNING:  # type: ignore[union-attr]
            break
        evening.allow_unmark()
    check_everything(evening)
    assert claims_checked > 0


# --------------------------------------------------------------------------- 2. random evenings

PLAYERS = ("p0", "p1", "p2")
GARBAGE: tuple[Any, ...] = (0, 91, -1, 1000, True, False, 5.0, "5", None, [5])
SEED = st.integers(0, 2**16)


def seed_bytes(n: int) -> bytes:
    """A committed game's seed that hypothesis can replay (a fresh one would not be)."""
    return hashlib.sha256(f"seed {n}".encode()).digest()


def running(machine: EveningMachine) -> bool:
    g = machine.evening.game
    return g is not None and g.status is GameStatus.RUNNING


class EveningMachine(RuleBasedStateMachine):
    """Random moves by the animateur, the players and the control desk.

    "Noise" rules make any move with any argument at any time (mostly illegal: they must be
    refused without a trace); "play" rules are guarded by preconditions so that evenings get
    somewhere: cartons sold, numbers drawn, wins claimed, ties settled, lots awarded, games ended.
    """

    evening: Evening

    @initialize(
        games=st.sampled_from(PROGRAMS),
        source=st.sampled_from(list(DrawSource)),
        auto=st.booleans(),
        tie=st.sampled_from(list(TieMethod)),
        seed=SEED,
        stock=st.integers(0, 6),
        last_call=st.sampled_from([0, 5]),
        tokens=st.sampled_from([None, *TokenSource]),
        paper=st.booleans(),
    )
    def setup(
        self,
        games: tuple[GameSpec, ...],
        source: DrawSource,
        auto: bool,
        tie: TieMethod,
        seed: int,
        stock: int,
        last_call: int,
        tokens: TokenSource | None,
        paper: bool,
    ) -> None:
        program = make_program(games, source, auto, tie, last_call, tokens)
        self.evening = Evening(program, KEY)
        self.recorder = Recorder()
        self.snapshot: tuple[int, dict[str, Any]] | None = None
        rng = random.Random(seed)
        for p in PLAYERS[:2]:
            # p1 may be a paper player (no phone): the animateur answers a share for them
            self.evening.join(p, p.upper(), "paper" if paper and p == "p1" else "hall")
            for kind in sorted(self.evening.program.kinds()):
                if stock:
                    self.evening.sell(p, kind, rng.randint(1, stock), rng=rng)

    # ---- helpers

    @property
    def game(self) -> Any:
        return self.evening.game

    def act(self, move: Callable[[], list[ev.Event]]) -> list[ev.Event] | None:
        snapshot, self.snapshot = self.snapshot, None
        return attempt(self.evening, move, snapshot)

    def sold(self) -> list[int]:
        return sorted(self.evening.purchase_of)

    def any_carton(self, data: st.DataObject) -> Any:
        nos = self.sold()
        choices: st.SearchStrategy[Any] = st.integers(-1, len(self.evening.cartons) + 2)
        if nos:
            choices = st.one_of(st.sampled_from(nos), choices)
        return data.draw(st.one_of(choices, st.sampled_from(["1", None, True])))

    def any_player(self, data: st.DataObject) -> Any:
        return data.draw(st.sampled_from([*PLAYERS, "ghost", 7, None]))

    def winners(self, verdict: str = VALID) -> list[int]:
        """The units (by first carton) whose claim would get `verdict` from the oracle on the
        last number, for the stage in play when it came out (valid: they win it)."""
        g = self.game
        if g is None or g.status is GameStatus.FINISHED or not g.drawn:
            return []
        return [
            no
            for no in playing_cartons(self.evening)
            if no == self.evening.cartons[no].unit
            and no not in g.annulled
            and current_verdict(self.evening, no) == verdict
        ]

    def unclaimed(self, units: list[int]) -> list[int]:
        """Those of these units not claimed yet on the last number."""
        g = self.game
        claimed = {u for c in g.claims if c.number == g.last for u in c.unit_nos}
        return [no for no in units if no not in claimed]

    def claim(self, move: Callable[[], list[ev.Event]]) -> None:
        """A claim: whatever its verdict, audit() checks it; a false one locks the pions."""
        events = self.act(move)
        if not events:
            return
        made, *more = events
        assert isinstance(made, ev.ClaimMade)
        assert all(isinstance(x, ev.LastCallOpened) for x in more) and len(more) <= 1
        if made.verdict != FALSE:
            return
        g = self.game
        c = self.evening.cartons[made.carton_no]
        for no in self.evening.units[c.unit]:
            todo = [n for n in sorted(self.evening.cartons[no].carton.numbers) if n in g.drawn]
            todo = [n for n in todo if n not in g.marks.get(no, ())]
            if todo:
                refused = self.act(
                    lambda no=no, n=todo[0]: self.evening.toggle_mark(made.player_id, no, n)
                )
                assert refused is None, "a pion was put on an annulled carton"

    # ---- noise: anyone, anything, any time

    @rule(data=st.data())
    def join(self, data: st.DataObject) -> None:
        pid = data.draw(st.sampled_from([*PLAYERS, "", "x" * 65, 3]))
        name = data.draw(
            st.sampled_from(["Alice", "  Bob   Le  Bon ", "   ", "é" * 31, "a\x07", 5])
        )
        self.act(lambda: self.evening.join(pid, name))

    @rule(
        data=st.data(),
        kind=st.sampled_from([*Kind, "bogus", None]),
        quantity=st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 37, True, 2.0, "2"])),
        planche=st.booleans(),
        reason=st.sampled_from(["sale", "gift"]),
        seed=SEED,
    )
    def sell_anything(
        self, data: st.DataObject, kind: Any, quantity: Any, planche: bool, reason: str, seed: int
    ) -> None:
        pid = self.any_player(data)
        self.act(
            lambda: self.evening.sell(
                pid, kind, quantity, planche=planche, rng=random.Random(seed), reason=reason
            )
        )

    @rule(
        move=st.sampled_from(
            [
                "start_game",
                "draw",
                "award",
                "allow_unmark",
                "offer_share",
                "break_tie",
                "close_last_call",
            ]
        ),
        seed=SEED,
    )
    def animateur_anything(self, move: str, seed: int) -> None:
        e = self.evening
        moves: dict[str, Callable[[], list[ev.Event]]] = {
            "start_game": lambda: e.start_game(seed_bytes(seed)),
            "draw": lambda: e.draw(random.Random(seed)),
            "award": e.award,
            "allow_unmark": e.allow_unmark,
            "offer_share": e.offer_share,
            "break_tie": lambda: e.break_tie_by_draw(random.Random(seed)),
            "close_last_call": e.close_last_call,
        }
        self.act(moves[move])

    @rule(
        move=st.sampled_from(["start", "end"]),
        message=st.sampled_from(["Entracte", "  Buvette   ouverte ", "", "   ", "x" * 121, 7]),
        returns_at=st.one_of(st.integers(-1, 2_000_000_000), st.sampled_from(GARBAGE)),
    )
    def pause_anything(self, move: str, message: Any, returns_at: Any) -> None:
        """An entracte asked at any time with anything: only between games (or before the
        first), never after the last; a game that starts ends it."""
        e = self.evening
        before = e.game.status if e.game is not None else None
        if move == "end":
            events = self.act(e.end_pause)
            assert events is None or e.pause is None
            return
        events = self.act(lambda: e.start_pause(message, returns_at))
        if events is not None:
            assert before in (None, GameStatus.FINISHED) and not e.is_over
            assert e.pause == events[0] and e.pause.message == " ".join(message.split())

    @rule(
        move=st.sampled_from(["lot", "partner", "remove"]),
        lot=st.sampled_from(["Vélo", "  vélo ", "Bons d'achat", "Voiture", "", 7]),
        digest=st.sampled_from(["a" * 64, "b" * 64, "", "A" * 64, "a" * 63, None]),
        name=st.sampled_from(["Boulangerie", "", "x" * 41, 3]),
    )
    def pictures_anything(self, move: str, lot: Any, digest: Any, name: Any) -> None:
        """Lot photos and partners' logos, right or wrong, at any time of the evening."""
        e = self.evening
        moves: dict[str, Callable[[], list[ev.Event]]] = {
            "lot": lambda: e.set_lot_photo(lot, digest),
            "partner": lambda: e.add_partner(name, digest),
            "remove": lambda: e.remove_partner(digest),
        }
        if self.act(moves[move]) is not None:
            assert len(e.partners) <= 12
            assert len({d for _, d in e.partners}) == len(e.partners)

    @rule(
        data=st.data(),
        token=st.one_of(st.integers(-2, 92), st.sampled_from(GARBAGE)),
        shape=st.sampled_from(["entries", "one short", "one more", "same", "not a dict"]),
        seed=SEED,
    )
    def tokens_anything(self, data: st.DataObject, token: Any, shape: str, seed: int) -> None:
        """Typed tokens, right or wrong (a bag evening takes distinct 1..90, one per entry)."""
        g = self.game
        entries = list(g.entries()) if g is not None else []
        tokens: Any = {p: (token if i == 0 else 90 - i) for i, p in enumerate(entries)}
        if shape == "one short" and entries:
            tokens.pop(entries[-1])
        elif shape == "one more":
            tokens["ghost"] = 3
        elif shape == "same" and len(entries) > 1:
            tokens[entries[1]] = tokens[entries[0]]
        elif shape == "not a dict":
            tokens = list(tokens.values())
        self.act(lambda: self.evening.break_tie_with_tokens(tokens, random.Random(seed)))

    @rule(
        data=st.data(),
        move=st.sampled_from(["reinstate", "overturn", "give_lot", "console", "withdraw"]),
        number=st.one_of(st.integers(-1, 40), st.sampled_from(GARBAGE)),
        verdict=st.sampled_from([VALID, FALSE, LATE, AFTER, "annulled", 3]),
        by=st.sampled_from(["animateur", "organisateur", "joueur", "", None]),
        reason=st.sampled_from(["Boule mal lue", "  motif   écrit ", "", "   ", "x" * 201, 7]),
        seed=SEED,
    )
    def decide_anything(
        self,
        data: st.DataObject,
        move: str,
        number: Any,
        verdict: Any,
        by: Any,
        reason: Any,
        seed: int,
    ) -> None:
        """Any decision of the association, with any arguments (most are refused)."""
        e = self.evening
        moves: dict[str, Callable[[], list[ev.Event]]] = {
            "reinstate": lambda: e.reinstate_carton(number, by, reason),
            "overturn": lambda: e.overturn(number, verdict, by, reason),
            "give_lot": lambda: e.give_lot(number, by, reason),
            "console": lambda: e.give_consolation(number, by, reason, random.Random(seed)),
            "withdraw": lambda: e.withdraw_award(number, by, reason),
        }
        self.act(moves[move])

    @rule(number=st.one_of(st.integers(1, 90), st.integers(-5, 95), st.sampled_from(GARBAGE)))
    def enter_ball(self, number: Any) -> None:
        self.act(lambda: self.evening.enter_ball(number))

    @rule(number=st.one_of(st.integers(1, 90), st.sampled_from(GARBAGE)))
    def correct_last(self, number: Any) -> None:
        self.act(lambda: self.evening.correct_last(number))

    @rule(data=st.data(), number=st.one_of(st.integers(1, 90), st.sampled_from(GARBAGE)))
    def toggle_mark_anyone(self, data: st.DataObject, number: Any) -> None:
        pid = self.any_player(data)
        no = self.any_carton(data)
        self.act(lambda: self.evening.toggle_mark(pid, no, number))

    @rule(data=st.data())
    def save_marks_anyone(self, data: st.DataObject) -> None:
        """Phones' batches of marks: any player, any carton, any number, any game."""
        g = self.game
        current = g.index + 1 if g is not None else 0
        batches = []
        for _ in range(data.draw(st.integers(1, 3))):
            pid = self.any_player(data)
            game = data.draw(st.sampled_from([current, current, current + 1, 0]))
            ops = [
                (self.any_carton(data), data.draw(st.integers(1, 90)), data.draw(st.booleans()))
                for _ in range(data.draw(st.integers(0, 4)))
            ]
            batches.append((pid, game, ops))
        self.act(lambda: self.evening.save_marks(batches)[0])

    @rule(data=st.data())
    def claim_anyone(self, data: st.DataObject) -> None:
        pid = self.any_player(data)
        no = self.any_carton(data)
        self.claim(lambda: self.evening.claim(pid, no))

    @rule(
        data=st.data(),
        series=st.sampled_from([SERIES, SERIES.lower(), f"  {SERIES} ", "ZZ", "", 7]),
        code_kind=st.sampled_from(["right", "right", "wrong", "other", "garbage"]),
    )
    def paper_claim(self, data: st.DataObject, series: Any, code_kind: str) -> None:
        no = self.any_carton(data)
        is_no = isinstance(no, int) and not isinstance(no, bool) and no >= 1
        if code_kind == "right" and is_no:
            code: Any = check_code(self.evening.key, SERIES, no)
        elif code_kind == "wrong" and is_no:
            right = check_code(self.evening.key, SERIES, no)
            code = right[:-1] + ALPHABET[(ALPHABET.index(right[-1]) + 1) % len(ALPHABET)]
        elif code_kind == "other":
            code = check_code(self.evening.key, SERIES, no + 1 if is_no else 1)
        else:
            code = data.draw(st.sampled_from(["", "XXXX", None]))
        self.claim(lambda: self.evening.paper_claim(series, no, code))

    @rule(
        data=st.data(),
        accept=st.sampled_from([True, True, False, "oui", None]),
        by=st.sampled_from(["", "", "animateur", "caissier"]),
    )
    def answer_share(self, data: st.DataObject, accept: Any, by: str) -> None:
        g = self.game
        offered = list(g.tie.share_offered_to) if g is not None else []
        if offered and data.draw(st.booleans()):
            pid = data.draw(st.sampled_from(offered))
        else:
            pid = self.any_player(data)
        self.act(lambda: self.evening.answer_share(pid, accept, by))

    @rule(data=st.data())
    def unmark_all(self, data: st.DataObject) -> None:
        pid = self.any_player(data)
        self.act(lambda: self.evening.unmark_all(pid))

    # ---- play: guarded moves that make the evening go on

    @precondition(lambda self: not self.evening.is_over)
    @rule(
        data=st.data(),
        quantity=st.integers(1, 3),
        planche=st.integers(0, 4),
        seed=SEED,
    )
    def sell(self, data: st.DataObject, quantity: int, planche: int, seed: int) -> None:
        pid = data.draw(st.sampled_from(sorted(self.evening.players)))
        kind = data.draw(st.sampled_from(sorted(self.evening.program.kinds())))
        events = self.act(
            lambda: self.evening.sell(
                pid, kind, quantity, planche=planche == 0, rng=random.Random(seed)
            )
        )
        first = self.evening.next_game_index()
        plays = any(spec.kind == kind for spec in self.evening.program.games[first:])
        if plays and (kind in (Kind.CLASSIQUE, Kind.SPECIAL) or planche != 0):
            assert events, "a legal sale was refused"
        if not plays:
            assert not events, "sold a carton that no game left will play"

    @precondition(lambda self: self.game is None or self.game.status is not GameStatus.RUNNING)
    @rule()
    def next_game(self) -> None:
        g = self.game
        if g is not None and g.status is GameStatus.AWAITING_UNMARK:
            assert self.act(self.evening.allow_unmark)
        over = len(self.evening.games) == len(self.evening.program.games)
        seed = seed_bytes(len(self.evening.history))
        assert (self.act(lambda: self.evening.start_game(seed)) is None) == over

    @precondition(lambda self: self.evening.can_draw())
    @rule(n=st.integers(1, 90), seed=SEED, attentive=st.sampled_from([True, True, False]))
    def draw_burst(self, n: int, seed: int, attentive: bool) -> None:
        """Several numbers in a row; attentive players stop the draw at the first win."""
        rng = random.Random(seed)
        physical = self.evening.program.settings.draw_source is DrawSource.PHYSICAL
        for _ in range(n):
            g = self.game
            if not self.evening.can_draw():
                # the refusal is checked like any other move; legal draws skip the snapshot
                self.act(lambda: self.evening.draw(rng))
                self.act(lambda: self.evening.enter_ball(rng.randint(1, 90)))
                return
            if physical:
                left = [x for x in range(1, 91) if x not in g.drawn]
                self.evening.enter_ball(rng.choice(left))
            else:
                self.evening.draw(rng)
            if attentive and self.winners():
                return

    @precondition(
        lambda self: (
            self.evening.can_draw()
            and self.evening.program.settings.draw_source is DrawSource.PHYSICAL
        )
    )
    @rule(data=st.data())
    def rigged_draw(self, data: st.DataObject) -> None:
        """Physical balls picked so that two players' cartons win on the same number (a tie)."""
        e = self.evening
        g = self.game
        pattern = g.stage_spec.pattern
        heads = [
            no for no in playing_cartons(e) if no == e.cartons[no].unit and no not in g.annulled
        ]
        pairs = [(a, b) for a in heads for b in heads if a < b and e.owner(a) != e.owner(b)]
        if not pairs:
            return
        a, b = data.draw(st.sampled_from(pairs))
        rng = random.Random(data.draw(SEED))
        need: set[int] = set()
        common: set[int] | None = None
        for head in (a, b):
            lines, k = pattern_lines(pattern, [e.cartons[n].carton for n in e.units[head]])
            mine = set().union(*lines)
            common = mine if common is None else common & mine
        targets = sorted((common or set()) - set(g.drawn))
        if not targets:
            return
        x = rng.choice(targets)
        for head in (a, b):
            lines, k = pattern_lines(pattern, [e.cartons[n].carton for n in e.units[head]])
            with_x = [ln for ln in lines if x in ln]
            others = [ln for ln in lines if x not in ln]
            chosen = with_x[:1] + rng.sample(others, min(k - 1, len(others)))
            need |= set().union(*chosen)
        order = sorted(need - set(g.drawn) - {x})
        rng.shuffle(order)
        for n in [*order, x]:
            if not e.can_draw():
                return
            e.enter_ball(n)
            if self.winners():
                return

    @precondition(lambda self: running(self) and bool(self.game.drawn))
    @rule(everyone=st.booleans())
    def claim_winners(self, everyone: bool) -> None:
        """The cartons that win right now are claimed by their owners (ties come from here)."""
        for no in self.unclaimed(self.winners())[: None if everyone else 1]:
            owner = self.evening.owner(no)
            self.claim(lambda no=no, owner=owner: self.evening.claim(owner, no))

    @precondition(
        lambda self: (
            self.game is not None
            and self.game.status is not GameStatus.FINISHED
            and bool(self.game.drawn)
            and self.game.settled(self.game.claim_stage)
        )
    )
    @rule()
    def claim_after_the_award(self) -> None:
        """Honest players who also completed the stage on this number claim once it is
        settled (awarded, share offered or tokens drawn), before the next number: the
        verdict is "valide après l'attribution", never a false claim."""
        for no in self.unclaimed(self.winners()):
            owner = self.evening.owner(no)
            events = self.act(lambda no=no, owner=owner: self.evening.claim(owner, no))
            assert events is not None and events[0].verdict == AFTER, events

    @precondition(lambda self: running(self) and bool(self.game.drawn))
    @rule()
    def claim_late(self) -> None:
        """Honest players whose pattern was complete before the last number claim now: tour
        passé, never a false claim, and the carton plays on."""
        for no in self.unclaimed(self.winners(LATE))[:2]:
            owner = self.evening.owner(no)
            events = self.act(lambda no=no, owner=owner: self.evening.claim(owner, no))
            assert events is not None and events[0].verdict == LATE, events
            assert self.evening.cartons[no].unit not in self.game.annulled

    @precondition(lambda self: bool(self.evening.purchase_of))
    @rule(data=st.data(), desk=st.booleans())
    def claim_owner(self, data: st.DataObject, desk: bool) -> None:
        no = data.draw(st.sampled_from(self.sold()))
        owner = self.evening.owner(no)
        if desk:
            code = check_code(self.evening.key, SERIES, no)
            self.claim(lambda: self.evening.paper_claim(SERIES, no, code))
        else:
            self.claim(lambda: self.evening.claim(owner, no))

    @precondition(lambda self: bool(self.evening.purchase_of))
    @rule(data=st.data())
    def toggle_mark_owner(self, data: st.DataObject) -> None:
        no = data.draw(st.sampled_from(self.sold()))
        c = self.evening.cartons[no]
        g = self.game
        drawn = [n for n in sorted(c.carton.numbers) if g is not None and n in g.drawn]
        number = data.draw(st.sampled_from(drawn or sorted(c.carton.numbers)))
        owner = self.evening.owner(no)
        annulled = g is not None and c.unit in g.annulled
        was_marked = g is not None and number in g.marks.get(no, ())
        res = self.act(lambda: self.evening.toggle_mark(owner, no, number))
        if annulled and not was_marked:
            assert res is None, "a pion was put on an annulled carton"

    @precondition(lambda self: running(self) and self.game.last_call is not None)
    @rule()
    def last_call_ends(self) -> None:
        """The last call's seconds are over (the runtime's timer closes it)."""
        lc = self.game.last_call
        assert self.act(lambda: self.evening.close_last_call(lc)) == [
            ev.LastCallClosed(lc.game, lc.stage, lc.number)
        ]
        assert self.act(lambda: self.evening.close_last_call(lc)) is None  # (a second timer)

    def share_first(self) -> bool:
        """Two ex aequo on a divisible lot, an evening that shares: the share is asked first."""
        g = self.game
        return (
            self.evening.program.settings.tie_method is TieMethod.SHARE_OR_DRAW
            and len(g.entries()) == 2
            and g.stage_spec.lot.divisible
        )

    def answer(self, pid: str, accept: bool) -> list[ev.Event] | None:
        paper = self.evening.origins.get(pid) == "paper"
        by = "animateur" if paper else ""  # a paper player's answer, recorded by the animateur
        return self.act(lambda: self.evening.answer_share(pid, accept, by))

    @precondition(
        lambda self: (
            running(self)
            and len(self.game.entries()) >= 2
            and self.game.tie.broken is None
            and self.game.last_call is None
        )
    )
    @rule(data=st.data(), seed=SEED)
    def settle_tie(self, data: st.DataObject, seed: int) -> None:
        g = self.game
        e = self.evening
        rng = random.Random(seed)
        if self.share_first() and not g.tie.share_refused:
            # no token draw before the share was offered and refused
            assert self.act(lambda: e.break_tie_by_draw(rng)) is None
            assert self.act(lambda: e.break_tie_with_tokens({}, rng)) is None
        if (self.share_first() or data.draw(st.booleans())) and not g.tie.share_offered_to:
            self.act(e.offer_share)
        for p in g.tie.share_offered_to:
            if p not in g.tie.answers:
                self.answer(p, data.draw(st.booleans()))
        if g.tie.broken is not None:
            return
        if e.program.settings.token_source is TokenSource.BAG:
            assert self.act(lambda: e.break_tie_by_draw(rng)) is None  # the bag, not the app
            tokens = dict(zip(g.entries(), rng.sample(range(1, 91), len(g.entries())), strict=True))
            assert self.act(lambda: e.break_tie_with_tokens(tokens, rng))
        else:
            assert self.act(lambda: e.break_tie_with_tokens({}, rng)) is None
            assert self.act(lambda: e.break_tie_by_draw(rng))

    @precondition(lambda self: running(self) and bool(self.game.entries()))
    @rule()
    def award_lot(self) -> None:
        g = self.game
        tied = len(g.entries()) > 1 and g.tie.broken is None
        calling = g.last_call is not None
        assert (self.act(self.evening.award) is None) == (tied or calling)

    # ---- the association's decisions (art. 8), on real claims and tickets

    @precondition(lambda self: running(self) and bool(self.game.annulled))
    @rule(data=st.data(), by=st.sampled_from(["animateur", "organisateur"]))
    def reinstate(self, data: st.DataObject, by: str) -> None:
        unit = data.draw(st.sampled_from(sorted(self.game.annulled)))
        assert self.act(lambda: self.evening.reinstate_carton(unit, by, "Boule mal lue"))
        assert unit not in self.game.annulled

    @precondition(lambda self: self.game is not None and bool(self.game.claims))
    @rule(data=st.data(), to=st.sampled_from([VALID, FALSE]))
    def overturn(self, data: st.DataObject, to: str) -> None:
        claim = data.draw(st.sampled_from(self.game.claims))
        self.act(lambda: self.evening.overturn(claim.claim_no, to, "organisateur", "Vérifié"))

    @precondition(lambda self: any(g.claims for g in self.evening.games))
    @rule(data=st.data(), lot=st.booleans(), seed=SEED)
    def give(self, data: st.DataObject, lot: bool, seed: int) -> None:
        claims = [c for g in self.evening.games for c in g.claims]
        claim = data.draw(st.sampled_from(claims))
        e = self.evening
        if lot:
            self.act(lambda: e.give_lot(claim.claim_no, "animateur", "Réclamation acceptée"))
        else:
            rng = random.Random(seed)
            self.act(lambda: e.give_consolation(claim.claim_no, "animateur", "Geste", rng))

    @precondition(lambda self: bool(self.evening.lot_tickets))
    @rule(data=st.data())
    def withdraw(self, data: st.DataObject) -> None:
        no = data.draw(st.sampled_from(sorted(self.evening.lot_tickets)))
        self.act(lambda: self.evening.withdraw_award(no, "organisateur", "Erreur de contrôle"))

    @precondition(lambda self: self.game is not None and self.game.status is GameStatus.FINISHED)
    @rule(data=st.data())
    def clear_my_cartons(self, data: st.DataObject) -> None:
        pid = data.draw(st.sampled_from(sorted(self.evening.players)))
        self.act(lambda: self.evening.unmark_all(pid))
        g = self.game
        assert not any(g.marks.get(c.no) for c in self.evening.player_cartons(pid))

    @rule(data=st.data(), seed=SEED)
    def advance(self, data: st.DataObject, seed: int) -> None:
        """Whatever makes the evening go on from here, as a hall would do it."""
        e = self.evening
        g = self.game
        rng = random.Random(seed)
        if e.is_over:
            return
        if g is None or g.status is not GameStatus.RUNNING:
            self.next_game()
            g = self.game
            if g is None or g.status is not GameStatus.RUNNING:
                return
        if not g.drawn and not playing_cartons(e) and g.commitment is None:
            # (a committed game's cartons were fixed at its start: it is played as it is)
            for p in sorted(e.players)[:2]:
                assert self.act(lambda p=p: e.sell(p, g.spec.kind, 2, rng=rng))
            return
        if g.entries():
            if g.last_call is not None:
                self.last_call_ends()
            elif len(g.entries()) > 1 and g.tie.broken is None:
                self.settle_tie(data, seed)
            else:
                self.award_lot()
            return
        # honest winners claim: in time (they join the ex aequo) or, once the stage is settled,
        # after the award (valid after the award, never a false claim)
        fresh = self.unclaimed(self.winners())
        if fresh:
            for no in fresh[: data.draw(st.integers(1, len(fresh)))]:
                owner = e.owner(no)
                self.claim(lambda no=no, owner=owner: e.claim(owner, no))
            return
        if e.can_draw():
            if e.program.settings.draw_source is DrawSource.PHYSICAL and data.draw(st.booleans()):
                self.rigged_draw(data)
            else:
                self.draw_burst(90, seed, attentive=True)

    @rule(
        data=st.data(),
        sheets=st.one_of(st.integers(0, 2), st.sampled_from(GARBAGE)),
        seed=SEED,
    )
    def print_paper(self, data: st.DataObject, sheets: Any, seed: int) -> None:
        kind = data.draw(st.sampled_from([*Kind, "x", None]))
        by = data.draw(st.sampled_from(["organisateur", "", None]))
        e = self.evening
        self.act(lambda: e.print_paper(kind, sheets, by, random.Random(seed)))  # type: ignore[arg-type]

    @rule(data=st.data(), honest=st.booleans(), twice=st.booleans())
    def sell_printed(self, data: st.DataObject, honest: bool, twice: bool) -> None:
        """The desk sells cartons printed in advance by number and code: honest (the right
        quantity, right codes) or not (a wrong code, a sold carton, garbage)."""
        e = self.evening
        offer = data.draw(st.integers(-1, len(e.program.offers)))
        o = e.program.offers[offer] if 0 <= offer < len(e.program.offers) else None
        kind, want = (o.kind, o.quantity) if o else (Kind.CLASSIQUE, 1)
        picked = list(e.paper_stock[kind][:want])
        cartons: list[tuple[Any, Any]] = [(u, check_code(KEY, SERIES, u)) for u in picked]
        if not honest:
            sold = sorted(e.purchase_of)
            bad = data.draw(
                st.sampled_from(
                    [
                        (picked[0] if picked else 1, "AAAAAA"),
                        (sold[0] if sold else 2, check_code(KEY, SERIES, sold[0] if sold else 2)),
                        ("7", None),
                        (10**6, "ZZZZZZ"),
                    ]
                )
            )
            cartons = [*cartons[:-1], bad] if cartons else [bad]
        pid = data.draw(st.sampled_from(["paperp", "p0", "p1"]))
        name = data.draw(st.sampled_from(["Papier", "", None]))
        events = self.act(lambda: e.sell_printed(pid, name, offer, cartons, "cash", "Luc"))  # type: ignore[arg-type]
        if events and twice and isinstance(events[-1], ev.SaleRecorded):
            again = self.act(lambda: e.sell_printed(pid, name, offer, cartons, "card", "Luc"))  # type: ignore[arg-type]
            assert again and all(isinstance(x, ev.PaperCartonRefused) for x in again)
            assert {x.why for x in again} == {"sold"}, "a carton sold twice is refused as sold"

    @rule(data=st.data(), reason=st.sampled_from(["", "Coupure de courant", "  "]))
    def close_a_copy(self, data: st.DataObject, reason: str) -> None:
        """The organiser closes the evening here (on a copy, so that the evening goes on): a
        game in play needs a reason and has its seed revealed; then every move is refused."""
        e = copy.deepcopy(self.evening)
        g = e.game
        in_play = g is not None and g.status is not GameStatus.FINISHED
        done = attempt(e, lambda: e.close_evening("organisateur", reason))
        if in_play and not reason.strip():
            assert done is None, "closed on a game in play without a reason"
            return
        assert done is not None and isinstance(done[-1], ev.EveningClosed)
        if in_play and g.commitment is not None:
            assert done[0] == ev.DrawRevealed(g.index, e.sealed[g.index].hex())
        audit(e)
        pid = data.draw(st.sampled_from(PLAYERS[:2]))
        rng = random.Random(1)
        moves = [
            lambda: e.join("late", "Late"),
            lambda: e.sell(pid, next(iter(e.program.kinds())), 1, rng=rng),
            lambda: e.order(pid, 0),
            e.start_game,
            lambda: e.draw(rng),
            lambda: e.enter_ball(data.draw(st.integers(1, 90))),
            e.award,
            e.allow_unmark,
            e.close_last_call,
            lambda: e.claim(pid, data.draw(st.sampled_from([*self.sold(), 1]))),
            lambda: e.unmark_all(pid),
            lambda: e.close_till("Marie"),
            lambda: e.close_evening("organisateur", "encore"),
        ]
        for move in moves:
            size = len(e.history)
            assert attempt(e, move) in (None, []), "a move accepted after the closing"
            assert len(e.history) == size
        taken, _ = e.save_marks([(pid, len(e.games), [(1, 1, True)])])
        assert taken == []

    # ---- bookkeeping

    def teardown(self) -> None:
        if not hasattr(self, "evening"):
            return
        kinds = {type(e).__name__ for e in self.evening.history}
        verdicts = {e.verdict for e in self.evening.history if isinstance(e, ev.ClaimMade)}
        for name in sorted(kinds | {f"verdict {v}" for v in verdicts}):
            event(name)
        event(f"games started: {len(self.evening.games)}")
        event(f"steps: {getattr(self, 'steps', 0) // 20 * 20}")

    @invariant()
    def everything_holds(self) -> None:
        self.steps = getattr(self, "steps", 0) + 1
        fingerprint = check_everything(self.evening, self.recorder)
        self.snapshot = (len(self.evening.history), fingerprint)


EveningMachine.TestCase.settings = settings(
    max_examples=budget(120),
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEveningMachine = EveningMachine.TestCase


# --------------------------------------------------------------------------- 3. the draw


def running_evening(source: DrawSource) -> Evening:
    """One player, no carton: nobody can claim, so a game can run through all 90 numbers."""
    evening = Evening(make_program((SPECIAL,), source, False, TieMethod.DRAW), KEY)
    evening.join("p0", "Solo")
    evening.start_game()
    return evening


@settings(max_examples=budget(30), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 95))
def test_electronic_draw_is_a_permutation_prefix_of_1_to_90(seed: int, n: int) -> None:
    evening = running_evening(DrawSource.ELECTRONIC)
    rng = random.Random(seed)
    for _ in range(min(n, 90)):
        (drawn,) = evening.draw(rng)
        assert isinstance(drawn, ev.NumberDrawn)
    out = evening.game.drawn  # type: ignore[union-attr]
    assert len(out) == min(n, 90) == len(set(out))
    assert set(out) <= set(range(1, 91))
    assert all(isinstance(x, int) and not isinstance(x, bool) for x in out)
    if n >= 90:
        assert sorted(out) == list(range(1, 91))
        before = evening.fingerprint()
        with pytest.raises(NoNumberLeft):
            evening.draw(rng)
        assert evening.fingerprint() == before
    check_everything(evening)


NOT_A_BALL = st.one_of(
    st.integers().filter(lambda x: not 1 <= x <= 90),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.none(),
    st.sampled_from([5.0, 45.0, "45", b"45", [45], (45,), 45 + 0j]),
)


@settings(max_examples=budget(150), deadline=None)
@given(bad=NOT_A_BALL, drawn_before=st.integers(0, 5), started=st.booleans())
def test_enter_ball_refuses_everything_but_an_int_from_1_to_90(
    bad: Any, drawn_before: int, started: bool
) -> None:
    evening = Evening(make_program((SPECIAL,), DrawSource.PHYSICAL, False, TieMethod.DRAW), KEY)
    if started:
        evening.start_game()
        for n in range(1, drawn_before + 1):
            evening.enter_ball(n)
    before = evening.fingerprint()
    size = len(evening.history)
    with pytest.raises(InvalidNumber):
        evening.enter_ball(bad)
    with pytest.raises(InvalidNumber):
        evening.correct_last(bad)
    assert evening.fingerprint() == before
    assert len(evening.history) == size


@settings(max_examples=budget(30), deadline=None)
@given(number=st.integers(1, 90), seed=st.integers(0, 2**32 - 1))
def test_enter_ball_accepts_each_number_once(number: int, seed: int) -> None:
    evening = running_evening(DrawSource.PHYSICAL)
    rng = random.Random(seed)
    others = rng.sample([n for n in range(1, 91) if n != number], rng.randint(0, 20))
    for n in others:
        evening.enter_ball(n)
    (e,) = evening.enter_ball(number)
    assert isinstance(e, ev.NumberDrawn) and e.number == number and e.seq == len(others) + 1
    assert attempt(evening, lambda: evening.enter_ball(number)) is None
    assert attempt(evening, lambda: evening.draw(rng)) is None  # wrong source, no change
    check_everything(evening)


# --------------------------------------------------------------------------- the new games
# Independent models of the games the engine finds or times by itself, from their definitions
# alone (docs/RULES.md, "The games"), against the engine on random cartons and draws.


def inversee_oracle(units: dict[int, frozenset[int]], drawn: Sequence[int]) -> list[int] | None:
    """The winners of a partie inversée after these numbers, by its definition: the first
    number after which at most one unit has none of its numbers drawn; then the one left, or
    (none left) the units that had none before that number. None: nobody yet."""
    for i in range(1, len(drawn) + 1):
        out = set(drawn[:i])
        left = [u for u, nums in units.items() if not nums & out]
        if len(left) <= 1:
            if left:
                return left
            before = set(drawn[: i - 1])
            return [u for u, nums in units.items() if not nums & before]
    return None


@settings(max_examples=budget(150), deadline=None)
@given(st.integers(2, 9), st.integers(0, 2**32 - 1))
def test_the_inversee_finds_the_winners_its_definition_gives(cartons: int, seed: int) -> None:
    rng = random.Random(seed)
    inv = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.LAST_STANDING, Lot("Lot")),), type="inversee")
    e = Evening(make_program((inv,), DrawSource.PHYSICAL, False, TieMethod.DRAW), KEY)
    for i in range(cartons):
        e.join(f"p{i}", f"P{i}")
        e.sell(f"p{i}", Kind.CLASSIQUE, 1, rng=rng)
    units = {c.unit: c.carton.numbers for p in e.players for c in e.player_cartons(p)}
    e.start_game()
    order = rng.sample(range(1, 91), 90)
    for k, n in enumerate(order, start=1):
        e.enter_ball(n)
        g = e.game
        found = sorted(c.unit_nos[0] for c in g.claims)
        expected = inversee_oracle(units, order[:k])
        if expected is None:
            assert not found, (order[:k], found)
        else:
            assert found == sorted(expected), (order[:k], found, expected)
            assert all(c.via == "server" for c in g.claims)
            break
    e.check_invariants()


@settings(max_examples=budget(150), deadline=None)
@given(st.integers(15, 60), st.integers(0, 45), st.integers(0, 2**32 - 1))
def test_the_jackpot_goes_by_the_count_of_numbers_at_its_completion(
    within: int, noise: int, seed: int
):
    """Whoever completes first: the jackpot if the carton was full within `within` numbers,
    else the consolation; a claim on the `within`-th number still wins the jackpot."""
    rng = random.Random(seed)
    spec = GameSpec(
        Kind.CLASSIQUE,
        (
            Stage(Pattern.FULL_CARD, Lot("Jackpot"), within=within),
            Stage(Pattern.FULL_CARD, Lot("C")),
        ),
        type="jackpot",
    )
    e = Evening(make_program((spec,), DrawSource.PHYSICAL, False, TieMethod.DRAW), KEY)
    e.join("p", "P")
    e.sell("p", Kind.CLASSIQUE, 1, rng=rng)
    (c,) = e.player_cartons("p")
    e.start_game()
    others = [n for n in rng.sample(range(1, 91), 90) if n not in c.carton.numbers]
    head = [*c.carton.numbers, *others[:noise]]  # the carton among the first numbers
    rng.shuffle(head)
    order = head + others[noise:]
    done = max(order.index(n) for n in c.carton.numbers) + 1  # its completion's count
    for n in order[:done]:
        e.enter_ball(n)
    e.claim("p", c.no)
    e.award()
    (ticket,) = e.tickets().values()
    assert ticket.stage == (0 if done <= within else 1), (done, within)
    assert e.game.status is GameStatus.AWAITING_UNMARK
    e.check_invariants()
