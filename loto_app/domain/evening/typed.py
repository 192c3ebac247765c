"""A claim on a carton in no list, judged on the lines the contrôleur typed
(`domain/typed_lines.py`; docs/RULES.md, "Claims")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_staff_name, clean_name
from loto_app.domain.typed_lines import check_lines, judge_typed
from loto_app.domain.verdicts import Verdict

#: `ClaimMade.via` of a claim judged on typed lines; its `carton_no` (no carton of the série)
TYPED = "typed"
NO_CARTON = 0
#: the name a claimant of a carton in no list is recorded under when none is given
DEFAULT_NAME = "Hors liste {no}"


class TypedMoves(EveningCore):
    """A claim on a carton in no list: the lines typed, judged on the last number."""

    def typed_claim(
        self, lines: Sequence[Sequence[int]], player_id: str, by: str, name: str = ""
    ) -> list[ev.Event]:
        """The contrôleur typed the numbers of the claimed line(s) of a carton the app does not
        know (a player's own). Judged on the stage in play when the last number came out, as
        any claim (art. 2, 3): valid only when every number was drawn and the last number is
        on one of the lines; a typed number not drawn is a fausse annonce, lines complete
        without the last number a tour passé.

        A valid claim (or one valid after the award) is a paper player's: `player_id` is
        registered under `name` (default "Hors liste <claim no>") and the claim joins the
        stage's entries as a paper carton's would. Recorded as `LinesTyped` (the lines) then
        `ClaimMade` (`via` "typed", carton 0).

        Raises:
            InvalidTypedLines: the lines are not what the stage needs (nothing recorded).
            AlreadyClaimed: the same lines already claimed on this number.
        """
        g = self._claimable()
        by = check_staff_name(by)
        stage = g.spec.stages[g.claim_stage]
        checked = check_lines(stage.pattern, KINDS[g.spec.kind].grid, lines)
        numbers = frozenset(n for line in checked for n in line)
        for c in g.claims:
            if (
                c.via == TYPED
                and c.stage == g.claim_stage
                and c.number == g.last
                and (frozenset(c.winning) == numbers or self._typed_numbers(c) == numbers)
            ):
                raise err.AlreadyClaimed(
                    f"typed lines {sorted(numbers)} already claimed on {g.last}",
                    "Ces lignes ont déjà été contrôlées sur ce numéro.",
                )
        j = judge_typed(checked, g.drawn)
        verdict = j.verdict
        if verdict is Verdict.VALID and g.settled(g.claim_stage):
            verdict = Verdict.AFTER_AWARD
        claim_no = self._next_claim
        pid: str | None = None
        events: list[ev.Event] = []
        if verdict in (Verdict.VALID, Verdict.AFTER_AWARD):
            if not isinstance(player_id, str) or not 1 <= len(player_id) <= 64:
                raise err.InvalidArgument(f"player id {player_id!r:.20}")
            if player_id in self.players:
                raise err.DuplicatePlayer(f"player {player_id} exists")
            who = clean_name(name) if isinstance(name, str) and name.strip() else ""
            pid = player_id
            events += self._emit(
                ev.PlayerJoined(pid, who or DEFAULT_NAME.format(no=claim_no), "paper")
            )
        events += self._emit(
            ev.LinesTyped(claim_no, g.index, g.claim_stage, checked, j.missing, by)
        )
        events += self._emit(
            ev.ClaimMade(
                claim_no,
                g.index,
                g.claim_stage,
                pid,
                NO_CARTON,
                (),
                g.last,
                verdict.value,
                j.winning,
                TYPED,
            )
        )
        if verdict is Verdict.VALID:
            events += self._open_last_call(g)  # type: ignore[attr-defined]
        return events

    def typed_lines_of(self, claim: ev.ClaimMade) -> ev.LinesTyped | None:
        """The lines typed for a claim on a carton in no list (None for any other claim)."""
        return self.typed.get(claim.claim_no) if claim.via == TYPED else None

    def _typed_numbers(self, claim: ev.ClaimMade) -> frozenset[int]:
        t = self.typed_lines_of(claim)
        return frozenset(n for line in t.lines for n in line) if t else frozenset()


@applies(ev.LinesTyped)
def _lines_typed(self: Any, e: ev.LinesTyped) -> None:
    self.typed[e.claim_no] = e
