"""The claim storm (`load.py --claim-storm K`): the bench types the balls so that a few of K
players complete a line on the last number, and the K players claim within one second (the
others on a carton with no complete line); every verdict must be the one the rules give and
the hall must show one tie of exactly the valid claimants."""

from __future__ import annotations

import asyncio
import collections
import math
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from emulator import Bench, PlayerRun, Tab, now, until
from metering import ms, pct


@dataclass
class StormPlan:
    """The balls to type so that the claim storm has a known outcome, and who claims what."""

    last: int  # the number everyone claims on
    before: list[int]  # balls typed before it
    claims: list[tuple[PlayerRun, int, str]]  # player, carton, the verdict the rules give


def plan_storm(pool: list[PlayerRun], drawn: list[int], k: int, w: int) -> StormPlan | None:
    """Choose the last number X, the balls before it and K claimants: W whose carton completes a
    line on X (valid: the line holds X and no line was complete before X) and K - W whose
    claimed carton has no complete line at all (fausse annonce). None when no X fits."""
    rng = random.Random()
    seen = set(drawn)
    playing = {
        id(p): [
            (c["no"], p.tab.lines(c["no"]))
            for c in p.tab.player.get("cartons") or ()
            if c.get("plays") and not c.get("annulled")
        ]
        for p in pool
    }
    candidates = [n for n in range(1, 91) if n not in seen]
    rng.shuffle(candidates)
    for x in candidates:
        options = [
            (len(line - seen - {x}), rng.random(), p, no, line)
            for p in pool
            for no, lines in playing[id(p)]
            if not any(line <= seen for line in lines)
            for line in lines
            if x in line
        ]
        options.sort(key=lambda o: o[:2])
        winners: list[tuple[PlayerRun, int]] = []
        extra: set[int] = set()
        for _, _, p, no, line in options:
            if len(winners) == w:
                break
            if all(q is not p for q, _ in winners):
                winners.append((p, no))
                extra |= line - seen - {x}
        if len(winners) < w:
            continue
        final = seen | extra | {x}
        before = final - {x}
        if not all(
            any(x in line and line <= final for line in lines)
            and not any(line <= before for line in lines)
            for lines in (p.tab.lines(no) for p, no in winners)
        ):
            continue
        falses: list[tuple[PlayerRun, int]] = []
        others = [p for p in pool if all(q is not p for q, _ in winners)]
        rng.shuffle(others)
        for p in others:
            if len(falses) == k - w:
                break
            no = next(
                (no for no, lines in playing[id(p)] if not any(line <= final for line in lines)),
                None,
            )
            if no is not None:
                falses.append((p, no))
        if len(falses) < k - w:
            continue
        claims = [(p, no, "valid") for p, no in winners] + [(p, no, "false") for p, no in falses]
        return StormPlan(x, sorted(extra), claims)
    return None


def verdict(tab: Tab) -> str:
    """The verdict a phone shows: "valid", "false" (fausse annonce) or what else it says."""
    text, kind = tab.player.get("verdict") or "", tab.player.get("verdict_kind") or ""
    if kind == "valid" and text.startswith("Annonce valide"):
        return "valid"
    if kind == "false" and text.startswith("Fausse annonce"):
        return "false"
    return f"{kind}: {text[:40]}" if kind else "none"


async def claim_storm(
    b: Bench,
    anim: Tab,
    pool: list[PlayerRun],
    drawn: list[int],
    draw: Callable[[int | None], Awaitable[tuple[int | None, float]]],
    settle: Callable[[], Awaitable[Any]],
    res: dict[str, Any],
) -> None:
    """K players claim on the same number within `--claim-window` seconds; check the verdicts
    against the rules and the tie shown to the hall against the valid claimants."""
    args = b.args
    k = min(args.claim_storm, len(pool))
    w = min(args.claim_valid, k)
    plan = plan_storm(pool, drawn, k, w)
    if plan is None:
        res["claim_error"] = f"no number gives {w} valid and {k - w} false claims"
        return
    for n in [*plan.before, plan.last]:
        x, _ = await draw(n)
        if x != n:
            res["claim_error"] = f"typed ball {n} not seen by the animateur ({anim.hall})"
            return
        await settle()
    for p, _, _ in plan.claims:
        p.tab.player["verdict_kind"] = ""
    sent: dict[int, float] = {}

    def fire(p: PlayerRun, no: int) -> None:
        sent[id(p)] = now()
        p.tab.emit(f"{b.fe.player}.claim", {"carton_no": no})

    loop = asyncio.get_running_loop()
    for p, no, _ in plan.claims:
        loop.call_later(random.uniform(0, args.claim_window), fire, p, no)
    await until(
        lambda: (
            len(sent) == len(plan.claims)
            and all(p.tab.player.get("verdict_kind") for p, _, _ in plan.claims)
        ),
        args.step_timeout,
        0.01,
    )
    winners = sorted(f"Joueur {p.tab.label}" for p, _, want in plan.claims if want == "valid")
    await anim.until(
        lambda: (
            sorted(anim.hall.get("entries") or ()) == winners
            and anim.hall.get("tie") is (len(winners) > 1)
        ),
        args.step_timeout,
    )
    got = collections.Counter(verdict(p.tab) for p, _, _ in plan.claims)
    wrong = [
        f"{p.tab.label}/{no}: {p.tab.player.get('verdict')!r} instead of {want!r}"
        for p, no, want in plan.claims
        if verdict(p.tab) != want
    ]
    lat = sorted(
        p.tab.verdict_at - sent[id(p)] if p.tab.player.get("verdict_kind") else math.inf
        for p, _, _ in plan.claims
    )
    res.update(
        claim_storm=len(plan.claims),
        claim_number=plan.last,
        claim_balls_typed=len(plan.before) + 1,
        claim_expected_valid=w,
        claim_expected_false=len(plan.claims) - w,
        claim_valid=got["valid"],
        claim_false=got["false"],
        claim_other=sum(v for key, v in got.items() if key not in ("valid", "false")),
        claim_wrong=len(wrong),
        claim_wrong_sample=wrong[:3],
        claim_spread_s=round(max(sent.values()) - min(sent.values()), 2) if sent else None,
        claim_settled_s=round(
            max((p.tab.verdict_at for p, _, _ in plan.claims), default=0.0)
            - min(sent.values(), default=0.0),
            2,
        ),
        claim_verdict_p50_ms=ms(pct(lat, 0.5)),
        claim_verdict_p95_ms=ms(pct(lat, 0.95)),
        claim_verdict_max_ms=ms(lat[-1]) if lat else math.nan,
        claim_tie_entrants=sorted(anim.hall.get("entries") or ()),
        claim_tie_ok=sorted(anim.hall.get("entries") or ()) == winners
        and anim.hall.get("tie") is (len(winners) > 1),
    )
