"""Fairness of the electronic boulier and of the tie-break tokens, tested statistically on the
engine's real draw path (`Evening.start_game()` then `Evening.draw()`, and
`Evening.break_tie_by_draw()` with no `rng` argument, i.e. `default_rng()`: the operating
system's CSPRNG, as the live layer calls them).

Every electronic game draws the order committed at its start (`domain/commitment.py`: a fresh
seed, Fisher-Yates driven by SHA-256): CI plays 10,000 games through the engine
(`LOTO_FAIRNESS_GAMES=100000` for the long run, see bench/README.md) and checks 100,000
committed orders straight from fresh seeds (`LOTO_COMMITTED_GAMES`).

**Draws.** Over N full games (90 numbers each) the table `counts[position][number]` is a sum of
N random 90x90 permutation matrices. Its entries are not independent multinomial cells: every
row and every column sums to N exactly. For uniform permutations the covariance of one
permutation matrix is `P(x)P / (n - 1)` with `P = I - J/n` (a projection of rank n - 1), so the
Pearson statistic `X2 = sum (O - E)^2 / E` (E = N/n) is asymptotically `n/(n-1)` times a
chi-square with `(n-1)^2` degrees of freedom (mean n(n-1), not (n-1)^2):
`T = X2 * (n-1)/n ~ chi2((n-1)^2)`, here 7,921 degrees of freedom.
`test_table_statistic_is_calibrated` checks this calibration on small tables.

**Tokens.** Three players tied on the same number draw tokens from the bag 1..90: each player's
token must be uniform on 1..90 (chi-square, 89 degrees of freedom, one per player) and the
winner uniform among the three (chi-square, 2 degrees of freedom); Bonferroni over the 4 tests.

**Level.** Each sample is tested at the 1 % level (99 %). The boulier is a true random source,
so a fair one fails a single sample 1 % of the time: a rejection is confirmed on a second,
independent sample before the test fails (false alarm 1 in 10,000 runs). The biased-boulier
tests show that biased sources fail the same statistics by a wide margin.
"""

from __future__ import annotations

import copy
import math
import os
import random
import secrets
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from loto_app.domain import commitment as draws
from loto_app.domain.engine import TOKEN_BAG, Evening
from loto_app.domain.evening import draw as draw_mod
from loto_app.domain.evening import ties as ties_mod
from loto_app.domain.events import TieBroken
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

GAMES = int(os.environ.get("LOTO_FAIRNESS_GAMES", "10000"))
COMMITTED_GAMES = int(os.environ.get("LOTO_COMMITTED_GAMES", "100000"))
ALPHA = 0.01
BALLS = 90
KEY = b"f" * 32
QUINE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))


# ---------------------------------------------------------------------- statistics


def chi2_sf(x: float, dof: int) -> float:
    """P(chi2(dof) >= x): the regularized upper incomplete gamma Q(dof/2, x/2).

    Series for P when x/2 < dof/2 + 1, Lentz's continued fraction for Q otherwise
    (Numerical Recipes, 6.2); accurate to ~1e-12 relative for the dofs used here.
    """
    if dof <= 0:
        raise ValueError(f"dof must be positive, got {dof}")
    if x <= 0:
        return 1.0
    a, z = dof / 2.0, x / 2.0
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1.0:
        term = total = 1.0 / a
        n = a
        for _ in range(100_000):
            n += 1.0
            term *= z / n
            total += term
            if term < total * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


def pearson(counts: Sequence[int], expected: float) -> float:
    """Pearson's X2 of counts against one expected count per cell."""
    return sum((o - expected) ** 2 for o in counts) / expected


def permutation_table_test(table: Sequence[Sequence[int]], games: int) -> tuple[float, int, float]:
    """The position x number table of `games` random permutations of n: (T, dof, p-value),
    with T = X2 (n-1)/n ~ chi2((n-1)^2) under uniformity (see the module docstring)."""
    n = len(table)
    x2 = sum(pearson(row, games / n) for row in table)
    t = x2 * (n - 1) / n
    dof = (n - 1) ** 2
    return t, dof, chi2_sf(t, dof)


# ---------------------------------------------------------------------- the draw


def play_games(games: int) -> list[list[int]]:
    """`counts[position][number - 1]` over full games drawn by the engine's electronic boulier."""
    program = Program("F", (QUINE,), Settings(draw_source=DrawSource.ELECTRONIC))
    counts = [[0] * BALLS for _ in range(BALLS)]
    for _ in range(games):
        e = Evening(program, KEY)
        e.start_game()
        for _ in range(BALLS):
            e.draw()  # no rng: the engine's own default_rng(), as the animateur's tablet does
        g = e.game
        assert g is not None and len(g.drawn) == BALLS and set(g.drawn) == set(range(1, 91))
        for pos, number in enumerate(g.drawn):
            counts[pos][number - 1] += 1
    return counts


def draw_test(games: int) -> tuple[float, int, float]:
    return permutation_table_test(play_games(games), games)


def committed_orders(games: int) -> list[list[int]]:
    """`counts[position][number - 1]` over the orders of `games` fresh seeds (the committed
    orders the engine draws, without the engine around them)."""
    counts = [[0] * BALLS for _ in range(BALLS)]
    for _ in range(games):
        for row, number in zip(counts, draws.draw_order(draws.new_seed()), strict=True):
            row[number - 1] += 1
    return counts


class BiasedBelow:
    """The committed order's uniform pick, biased towards small indices (the first balls
    left): with probability `bias` it is taken twice and the smaller kept."""

    def __init__(self, bias: float) -> None:
        self.bias = bias
        self.fair = draws._below
        self.coin = random.Random(7)

    def __call__(self, stream: object, n: int) -> int:
        k = self.fair(stream, n)  # type: ignore[arg-type]
        if self.coin.random() < self.bias:
            k = min(k, self.fair(stream, n))  # type: ignore[arg-type]
        return k


# ---------------------------------------------------------------------- the tie-break tokens


def tied_evening(players: int = 3) -> Evening:
    """An evening where `players` players hold a valid quine on the same last number.

    Each player buys a planche (every number once); the other numbers of each player's row
    holding 45 are drawn, then 45, and every player claims on that row's carton. The program
    has one game: no consolation carton follows the tie-break (a "carton offert" voucher does).
    Tokens from the app, no last call.
    """
    settings = Settings(
        DrawSource.PHYSICAL,
        False,
        TieMethod.DRAW,
        last_call_seconds=0,
        token_source=TokenSource.APP,
    )
    program = Program("F", (QUINE,), settings)
    names = [f"p{i}" for i in range(players)]
    for seed in range(100):
        e = Evening(program, KEY)
        rng = random.Random(seed)
        for p in names:
            e.join(p, p.upper())
            e.sell(p, Kind.CLASSIQUE, planche=True, rng=rng)  # every number once per player
        shared = 45
        mine = [
            next((c.no, set(r)) for c in e.player_cartons(p) for r in c.carton.rows if shared in r)
            for p in names
        ]
        e.start_game()
        for n in sorted(set().union(*(r for _, r in mine)) - {shared}):
            e.enter_ball(n)
        e.enter_ball(shared)
        for p, (no, _) in zip(names, mine, strict=True):
            e.claim(p, no)
        if sorted(e.game.entries()) == names:  # (no tour passé on another row)
            return e
    raise AssertionError("no seed gives a clean tie")  # pragma: no cover


def break_ties(trials: int, players: int = 3) -> tuple[list[Counter[int]], Counter[str], list]:
    """Break the same tie `trials` times through the engine: tokens per player, wins."""
    base = tied_evening(players)
    names = sorted(base.game.entries())
    tokens: list[Counter[int]] = [Counter() for _ in names]
    wins: Counter[str] = Counter()
    for _ in range(trials):
        e = copy.deepcopy(base)
        broken, *vouchers = e.break_tie_by_draw()  # no rng: default_rng(); no free carton
        assert isinstance(broken, TieBroken) and len(vouchers) == players - 1
        got = dict(broken.tokens)
        assert sorted(got) == names and len(set(got.values())) == players
        assert broken.winners == (max(got, key=got.__getitem__),)
        for i, p in enumerate(names):
            tokens[i][got[p]] += 1
        wins[broken.winners[0]] += 1
    return tokens, wins, names


def token_tests(trials: int, players: int = 3) -> dict[str, tuple[float, int, float]]:
    """(X2, dof, p) for each player's token and for the winner."""
    tokens, wins, names = break_ties(trials, players)
    out = {}
    for p, c in zip(names, tokens, strict=True):
        x2 = pearson([c[t] for t in range(1, TOKEN_BAG + 1)], trials / TOKEN_BAG)
        out[f"token {p}"] = (x2, TOKEN_BAG - 1, chi2_sf(x2, TOKEN_BAG - 1))
    x2 = pearson([wins[p] for p in names], trials / players)
    out["winner"] = (x2, players - 1, chi2_sf(x2, players - 1))
    return out


def tokens_p(results: dict[str, tuple[float, int, float]]) -> float:
    """Bonferroni: the smallest p-value times the number of tests."""
    return min(1.0, len(results) * min(p for _, _, p in results.values()))


# ---------------------------------------------------------------------- helpers


def confirmed(sample: Callable[[], float], label: str) -> None:
    """Reject at ALPHA only if a second independent sample rejects too."""
    p = sample()
    print(f"{label}: p = {p:.4g}")
    if p >= ALPHA:
        return
    p2 = sample()
    print(f"{label}: p = {p:.4g} < {ALPHA}, confirmation sample: p = {p2:.4g}")
    assert p2 >= ALPHA, f"{label}: uniformity rejected twice (p = {p:.3g}, then {p2:.3g})"


class BiasedBoulier(random.SystemRandom):
    """A boulier that favours the first balls left (small numbers): with probability `bias`
    an index is drawn twice and the smaller one kept."""

    def __init__(self, bias: float) -> None:
        super().__init__()
        self.bias = bias

    def _randbelow(self, n: int) -> int:  # what choice() and sample() use
        k = super()._randbelow(n)
        if super().random() < self.bias:
            k = min(k, super()._randbelow(n))
        return k


# ---------------------------------------------------------------------- the tests


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (6.634896601021214, 1, 0.01),
        (9.21034037197618, 2, 0.01),
        (124.34211340400407, 100, 0.05),
        (135.80672317102676, 100, 0.01),
        (0.0, 5, 1.0),
    ],
)
def test_chi2_sf_matches_tabulated_quantiles(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, rel=1e-6)


@pytest.mark.parametrize("dof", [2, 4, 88, 178, 7_920])
@pytest.mark.parametrize("ratio", [0.8, 0.97, 1.0, 1.03, 1.1, 1.5])
def test_chi2_sf_matches_the_closed_form_for_even_dof(dof: int, ratio: float) -> None:
    # even dof: Q(k, z) = exp(-z) sum_{i<k} z^i / i!, summed in logs
    x = ratio * dof
    z, k = x / 2, dof // 2
    logs = [-z + i * math.log(z) - math.lgamma(i + 1) for i in range(k)]
    top = max(logs)
    exact = math.exp(top) * math.fsum(math.exp(v - top) for v in logs)
    assert chi2_sf(x, dof) == pytest.approx(exact, rel=1e-8, abs=1e-300)


def test_table_statistic_is_calibrated() -> None:
    """Under uniform permutations the p-values of `permutation_table_test` are uniform: the
    n/(n-1) correction and the (n-1)^2 degrees of freedom are right (the uncorrected X2 with
    (n-1)^2 dof would reject far too often; seeded, so deterministic)."""
    rng = random.Random(20240601)
    n, games, replicates = 6, 400, 1000
    pvalues, naive = [], []
    for _ in range(replicates):
        table = [[0] * n for _ in range(n)]
        perm = list(range(n))
        for _ in range(games):
            rng.shuffle(perm)
            for pos, x in enumerate(perm):
                table[pos][x] += 1
        pvalues.append(permutation_table_test(table, games)[2])
        x2 = sum(pearson(r, games / n) for r in table)
        naive.append(chi2_sf(x2, (n - 1) ** 2))
    for level in (0.01, 0.05, 0.1, 0.5):
        share = sum(p < level for p in pvalues) / replicates
        sd = math.sqrt(level * (1 - level) / replicates)
        assert abs(share - level) < 4 * sd + 0.005, (level, share)
    assert sum(p < 0.05 for p in naive) / replicates > 0.09  # why the correction is needed


def test_electronic_boulier_is_uniform_over_number_and_position() -> None:
    """N full games through `Evening.draw()`: every number equally likely at every position."""

    def sample() -> float:
        t, dof, p = draw_test(GAMES)
        print(f"draws: games={GAMES} T={t:.1f} dof={dof} p={p:.4f}")
        return p

    confirmed(sample, "draw")


def test_tie_break_tokens_and_winner_are_uniform() -> None:
    """N tie-breaks of three ex aequo through `Evening.break_tie_by_draw()`."""

    def sample() -> float:
        res = token_tests(GAMES)
        for label, (x2, dof, p) in res.items():
            print(f"tie-break {label}: trials={GAMES} X2={x2:.1f} dof={dof} p={p:.4f}")
        return tokens_p(res)

    confirmed(sample, "tie-break (Bonferroni over 4)")


def test_committed_orders_are_uniform_over_number_and_position() -> None:
    """100,000 committed orders from fresh seeds: every number equally likely at every
    position (the table test above; a rejection is confirmed on a second sample)."""

    def sample() -> float:
        t, dof, p = permutation_table_test(committed_orders(COMMITTED_GAMES), COMMITTED_GAMES)
        print(f"committed orders: games={COMMITTED_GAMES} T={t:.1f} dof={dof} p={p:.4f}")
        return p

    confirmed(sample, "committed orders")


def test_the_draw_test_flags_a_biased_boulier(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same test through the same engine path, with the committed order's uniform pick
    swapped for one that favours the first balls left (one pick in four keeps the smaller of
    two indices): rejected beyond doubt on 2,000 games."""
    monkeypatch.setattr(draws, "_below", BiasedBelow(0.25))
    t, dof, p = draw_test(2000)
    print(f"biased draws: games=2000 T={t:.1f} dof={dof} p={p:.3g}")
    assert p < 1e-6


def test_the_token_test_flags_a_biased_bag(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens from a bag that favours small tokens (every other pick keeps the smaller of two)
    are rejected."""
    monkeypatch.setattr(ties_mod, "default_rng", lambda: BiasedBoulier(0.5))
    res = token_tests(3000)
    print({k: f"X2={x:.1f} p={p:.3g}" for k, (x, _, p) in res.items()})
    assert tokens_p(res) < 1e-6


def test_a_fair_source_is_really_the_system_csprng() -> None:
    """What the engine draws with when the caller hands it nothing."""
    assert isinstance(ties_mod.default_rng(), secrets.SystemRandom)
    assert isinstance(draw_mod.default_rng(), secrets.SystemRandom)
