"""Claims and the last call: a claim judged on the last number, the lot awarded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import is_int
from loto_app.domain.evening.state import JUDGED, Game, GameStatus, IssuedCarton, Tie
from loto_app.domain.games import TieRule
from loto_app.domain.serial import verify_check_code
from loto_app.domain.verdicts import Verdict, judge


class ClaimMoves(EveningCore):
    """Claims and the last call: a claim judged on the last number, the lot awarded."""

    def claim(self, player_id: str, carton_no: int) -> list[ev.Event]:
        """A player's "QUINE !" on one of their cartons, judged on the last number drawn and
        the stage in play when it came out (art. 2: in time until the next number).

        A valid claim joins the entries of that stage (the ex aequo) until the animateur
        settles it; the first one opens the last call when the evening has one. Once the stage
        is settled, a valid claim is "valide après l'attribution": recorded, never annulled,
        no entry, a réclamation for the association (art. 8).
        """
        self._need_player(player_id)
        c = self._carton(carton_no)
        if self.owner(carton_no) != player_id:
            raise err.NotYourCarton(f"carton {carton_no} is not {player_id}'s")
        return self._claim(c, player_id, "app")

    def paper_claim(self, series: str, carton_no: int, code: str) -> list[ev.Event]:
        """A paper carton's claim, checked by the animateur with the carton's printed check
        code: same verdicts as in the app, plus the série check (art. 10; docs/RULES.md,
        "Claims")."""
        self._open()
        g = self._claimable()
        if not isinstance(series, str) or not isinstance(code, str):
            raise err.InvalidArgument("series and code must be strings")
        if not is_int(carton_no) or carton_no < 1:
            raise err.InvalidArgument(f"carton number {carton_no!r}", "Numéro de carton invalide.")
        genuine = (
            series.strip().upper() == self.program.series.strip().upper()
            and carton_no in self.cartons
            and verify_check_code(self.key, self.program.series, carton_no, code)
        )
        if not genuine:
            return self._emit(
                self._claim_event(
                    g, None, carton_no, (carton_no,), Verdict.WRONG_SERIES, (), "desk"
                )
            )
        return self._claim(self.cartons[carton_no], self.owner(carton_no), "desk")

    def has_won(self, g: Game, player_id: str | None) -> bool:
        """Has this player a lot of this game already?"""
        return any(p == player_id for a in g.awards for _, p, _ in a.tickets)

    def _claim(self, c: IssuedCarton, player_id: str | None, via: str) -> list[ev.Event]:
        g = self._claimable()
        unit = self.units[c.unit]
        if player_id is None or not self.plays(c.no, g):
            return self._emit(
                self._claim_event(g, player_id, c.no, unit, Verdict.NOT_IN_GAME, (), via)
            )
        if (g.claim_stage, g.last, unit) in g.judged:
            raise err.AlreadyClaimed(f"unit {c.unit} already claimed on {g.last}")
        if c.unit in g.annulled:
            return self._emit(
                self._claim_event(g, player_id, c.no, unit, Verdict.ANNULLED, (), via)
            )
        if g.spec.game_type.one_win_per_player and self.has_won(g, player_id):
            raise err.AlreadyWonThisGame(f"{player_id} already won a lot of game {g.index}")
        stage = g.spec.stages[g.claim_stage]
        j = judge(stage.pattern, [self.cartons[n].carton for n in unit], g.drawn)
        verdict = j.verdict
        if verdict is Verdict.VALID and g.settled(g.claim_stage):
            verdict = Verdict.AFTER_AWARD
        winning = tuple(sorted(j.winning))
        events = self._emit(self._claim_event(g, player_id, c.no, unit, verdict, winning, via))
        if verdict is Verdict.VALID:
            events += self._open_last_call(g)
        return events

    def standing(self, g: Game) -> list[int]:
        """The partie inversée: the units still in play (no number of theirs drawn)."""
        return [u for u in self._playing_units(g) if u not in g.knocked]

    def _playing_units(self, g: Game) -> list[int]:
        return sorted(
            u for u, nos in self.units.items() if self.plays(nos[0], g) and u not in g.annulled
        )

    def _found_winners(self, g: Game) -> list[ev.Event]:
        """After a number of a game whose winners the server finds (the inversée): the last
        unit standing wins; when the number put out every unit still in, those it put out
        are ex aequo. Each winner gets a valid claim made by the server (`via` "server")."""
        stage = g.stage_spec
        if stage is None or g.spec.game_type.claimed or g.entries() or not g.drawn:
            return []
        winners = self.standing(g)
        if len(winners) > 1:
            return []
        if not winners:
            before = set(g.drawn[:-1])
            winners = [
                u
                for u in self._playing_units(g)
                if not any(self.cartons[n].carton.numbers & before for n in self.units[u])
            ]
        events: list[ev.Event] = []
        for u in winners:
            events += self._emit(
                self._claim_event(g, self.owner(u), u, self.units[u], Verdict.VALID, (), "server")
            )
        return events

    def _open_last_call(self, g: Game) -> list[ev.Event]:
        """The last call of a valid claim on the last number: opened by the first one, and
        again by the next one after the association overturned every claim of the last call
        that ran (every in-time winner has a last call: `called` forgets a number once its
        entries are gone, see `apply`)."""
        seconds = self.program.settings.last_call_seconds
        if not seconds or g.last_call is not None or (g.claim_stage, g.last) in g.called:
            return []
        assert g.last is not None
        return self._emit(ev.LastCallOpened(g.index, g.claim_stage, g.last, seconds))

    def _claim_event(
        self,
        g: Game,
        player_id: str | None,
        carton_no: int,
        unit: Sequence[int],
        verdict: Verdict,
        winning: tuple[int, ...],
        via: str,
    ) -> ev.ClaimMade:
        return ev.ClaimMade(
            self._next_claim,
            g.index,
            g.claim_stage,
            player_id,
            carton_no,
            tuple(unit),
            g.last,
            verdict.value,
            winning,
            via,
        )

    def _after_last_call(self, g: Game) -> None:
        if g.last_call is not None:
            raise err.LastCallOpen(
                f"last call on {g.last_call.number} (stage {g.last_call.stage}) still open"
            )

    def close_last_call(self, opened: ev.LastCallOpened | None = None) -> list[ev.Event]:
        """End the last call ("Pas d'autre quine ?"): the lot can be awarded. The runtime
        calls it when the evening's `last_call_seconds` are over; `opened` (the event that
        opened it) makes sure a late timer never closes another one.

        Raises:
            NoLastCall: no last call is open, or not that one.
        """
        self._open()
        g = self.game
        lc = g.last_call if g is not None else None
        if lc is None or (opened is not None and opened != lc):
            raise err.NoLastCall(f"no last call {opened or ''} open")
        return self._emit(ev.LastCallClosed(lc.game, lc.stage, lc.number))

    def award(self) -> list[ev.Event]:
        """Give the stage's lot to its winner(s): one lot ticket each."""
        g = self._running()
        entries = g.entries()
        if not entries:
            raise err.NoValidClaim(f"no valid claim on stage {g.stage} of game {g.index}")
        self._after_last_call(g)
        events: list[ev.Event] = []
        if len(entries) == 1:
            tickets: tuple[tuple[int, str, str], ...] = ((self._next_ticket, entries[0], ev.WHOLE),)
        else:
            if g.tie.broken is None:
                rule = self.tie_rule(g)
                if rule not in (TieRule.EACH, TieRule.SHARE):
                    raise err.TieUnresolved(f"{len(entries)} players tied: {entries}")
                # the game's own rule settles them at once: a lot each, or the lot shared
                events += self._emit(ev.TieBroken(g.index, g.stage, rule.value, (), entries))
            broken = g.tie.broken
            assert broken is not None
            share = ev.share_of(len(broken.winners)) if broken.method == "share" else ev.WHOLE
            tickets = tuple((self._next_ticket + i, p, share) for i, p in enumerate(broken.winners))
        stage = g.stage
        events += self._emit(ev.StageAwarded(g.index, stage, tickets))
        if g.spec.game_type.ends_after(g.spec, stage):
            for later in range(stage + 1, len(g.spec.stages)):
                events += self._emit(ev.StageLapsed(g.index, later, "jackpot_won"))
        return events


@applies(ev.ClaimMade)
def _claim_made(self: Any, e: ev.ClaimMade) -> None:
    g = self.games[e.game]
    g.claims.append(e)
    self._next_claim = e.claim_no + 1
    if e.verdict in JUDGED:
        g.judged.add((e.stage, e.number, e.unit_nos))
    if e.verdict == Verdict.VALID and e.player_id is not None:
        g.valid.setdefault(e.stage, {}).setdefault(e.player_id, None)
    if e.verdict == Verdict.FALSE and e.carton_no in self.cartons:  # (a carton in no list:
        # the contrôleur takes it out of the game in the hall)
        g.annulled.add(self.cartons[e.carton_no].unit)


@applies(ev.LastCallOpened)
def _last_call_opened(self: Any, e: ev.LastCallOpened) -> None:
    g = self.games[e.game]
    g.last_call = e
    g.called.add((e.stage, e.number))


@applies(ev.LastCallClosed)
def _last_call_closed(self: Any, e: ev.LastCallClosed) -> None:
    self.games[e.game].last_call = None


@applies(ev.StageLapsed)
def _stage_lapsed(self: Any, e: ev.StageLapsed) -> None:
    g = self.games[e.game]
    g.lapsed.append(e)
    g.stage += 1
    g.tie = Tie()
    g.last_call = None
    if g.stage == len(g.spec.stages):
        g.status = GameStatus.AWAITING_UNMARK


@applies(ev.StageAwarded)
def _stage_awarded(self: Any, e: ev.StageAwarded) -> None:
    g = self.games[e.game]
    g.awards.append(e)
    g.stage += 1
    g.tie = Tie()
    g.last_call = None
    self._issue(e)
    if g.stage == len(g.spec.stages):
        g.status = GameStatus.AWAITING_UNMARK
