"""Each pattern is one StageRule that carries everything about it."""

from __future__ import annotations

import random

import pytest

from loto_app.domain.cartons import generate_maxi, generate_strip, generate_vitrine
from loto_app.domain.patterns import RULES, Mode, Pattern, progress, rule
from loto_app.domain.verdicts import Verdict, judge


@pytest.mark.parametrize("pattern", list(Pattern))
def test_every_pattern_has_its_rule_and_words(pattern: Pattern) -> None:
    r = rule(pattern)
    assert r.pattern is pattern and RULES[pattern] is r
    assert r.label.strip() and r.meaning.strip()
    assert r.needed >= 1
    if r.mode is Mode.COMPLETE:
        # a pattern a player completes is claimed: it has a shout and a last call
        assert r.claimed and r.shout.isupper() and r.last_call.endswith("\u202f?")
    else:
        assert not r.claimed and not r.last_call


def test_the_lines_of_each_pattern() -> None:
    rng = random.Random(3)
    carton = generate_strip(rng)[0]
    maxi = generate_maxi(rng)
    vitrine = list(generate_vitrine(rng))
    assert rule(Pattern.ONE_LINE).lines([carton]) == carton.rows
    assert rule(Pattern.FULL_CARD).lines([maxi]) == (maxi.numbers,)
    assert rule(Pattern.DIAGONAL).lines([maxi]) == maxi.diagonals
    assert rule(Pattern.THREE_CARDS).lines(vitrine) == tuple(c.numbers for c in vitrine)


def test_progress_counts_what_each_line_still_needs() -> None:
    carton = generate_strip(random.Random(5))[0]
    first, second, _third = (sorted(r) for r in carton.rows)
    drawn = frozenset(first + second[:3])
    p = progress(Pattern.TWO_LINES, [carton], drawn)
    assert p.done == (frozenset(first),) and not p.holds
    assert p.need == 2  # two numbers of the second row
    assert progress(Pattern.ONE_LINE, [carton], drawn).holds
    assert progress(Pattern.FULL_CARD, [carton], drawn).need == 7


def test_the_inversee_counts_untouched_cartons() -> None:
    carton = generate_strip(random.Random(8))[0]
    other = min(set(range(1, 91)) - carton.numbers)
    assert judge(Pattern.LAST_STANDING, [carton], [other]).verdict is Verdict.VALID
    hit = min(carton.numbers)
    assert judge(Pattern.LAST_STANDING, [carton], [other, hit]).verdict is Verdict.FALSE
