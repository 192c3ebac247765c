"""Consistency: the state's fingerprint and its invariants (for tests and audits)."""

from __future__ import annotations

from typing import Any

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS, Grid
from loto_app.domain.cartons import (
    validate_classic,
    validate_maxi,
)
from loto_app.domain.evening.base import EveningCore
from loto_app.domain.evening.state import BALLS, GameStatus
from loto_app.domain.own_cartons import is_own
from loto_app.domain.till import (
    SaleStatus,
)
from loto_app.domain.verdicts import Verdict


class Invariants(EveningCore):
    """Consistency: the state's fingerprint and its invariants (for tests and audits)."""

    def _annulled_by_history(self, game: int) -> set[int]:
        """The units annulled in a game, walked through the log (for `check_invariants`)."""
        claims: dict[int, ev.ClaimMade] = {}
        out: set[int] = set()
        for x in self.history:
            if getattr(x, "game", None) != game:
                continue
            match x:
                case ev.ClaimMade():
                    claims[x.claim_no] = x
                    if x.verdict == Verdict.FALSE and x.carton_no in self.cartons:
                        out.add(self.cartons[x.carton_no].unit)
                case ev.CartonReinstated():
                    out.discard(self.cartons[x.carton_no].unit)
                case ev.VerdictOverturned() if claims[x.claim_no].carton_no in self.cartons:
                    unit = self.cartons[claims[x.claim_no].carton_no].unit
                    if x.verdict == Verdict.FALSE:
                        out.add(unit)
                    elif x.old == Verdict.FALSE:
                        out.discard(unit)
                case ev.UnmarkAllowed():
                    out.clear()
        return out

    def fingerprint(self) -> dict[str, Any]:
        """A canonical, comparable picture of the whole state (for tests and audits)."""
        return {
            "program": self.program.to_dict(),
            "players": dict(sorted(self.players.items())),
            "origins": dict(sorted(self.origins.items())),
            "invitations": [(i.no, i.name, i.player_id) for i in self.invitations.values()],
            "sales": [
                (
                    s.no,
                    s.player_id,
                    s.offer,
                    s.amount_cents,
                    s.method,
                    s.seller,
                    s.purchase_no,
                    s.status.value,
                    s.cashier,
                    s.cancelled_by,
                    s.cancel_reason,
                    s.refunded_cents,
                )
                for s in self.sales.values()
            ],
            "till_closed_by": self.till_closed_by,
            "pause": self.pause.to_dict() if self.pause else None,
            "lot_photos": dict(sorted(self.lot_photos.items())),
            "partners": list(self.partners),
            "handed_over": dict(sorted(self.handed_over.items())),
            "lot_tickets": sorted(self.lot_tickets.values(), key=lambda t: t.no),
            "withdrawn": {n: w.to_dict() for n, w in sorted(self.withdrawn.items())},
            "decisions": [d.to_dict() for d in self.decisions],
            "voided": sorted(self.voided),
            "cartons": {
                n: (c.kind.value, c.unit, c.carton.to_rows())
                for n, c in sorted(self.cartons.items())
            },
            "purchases": [
                (p.no, p.player_id, p.kind.value, p.carton_nos, p.first_game, p.reason)
                for p in self.purchases
            ],
            "stock": {k.value: list(v) for k, v in self.stock.items()},
            "paper_stock": {k.value: list(v) for k, v in self.paper_stock.items()},
            "closed": self.closed.to_dict() if self.closed else None,
            "games": [
                {
                    "index": g.index,
                    "status": g.status.value,
                    "stage": g.stage,
                    "drawn": list(g.drawn),
                    "marks": {n: sorted(m) for n, m in sorted(g.marks.items()) if m},
                    "annulled": sorted(g.annulled),
                    "claims": [c.to_dict() for c in g.claims],
                    "awards": [a.to_dict() for a in g.awards],
                    "tie_breaks": [t.to_dict() for t in g.tie_breaks],
                    "tie": (
                        g.tie.share_offered_to,
                        dict(g.tie.answers),
                        g.tie.broken.to_dict() if g.tie.broken else None,
                    ),
                    "claim_stage": g.claim_stage,
                    "last_call": g.last_call.to_dict() if g.last_call else None,
                    "called": sorted(g.called),
                    "overturned": {n: o.to_dict() for n, o in sorted(g.overturned.items())},
                    "entries": {s: list(p) for s, p in sorted(g.valid.items())},
                    "commitment": g.commitment.to_dict() if g.commitment else None,
                    "lapsed": [x.to_dict() for x in g.lapsed],
                    "knocked": sorted(g.knocked),
                    "sudden": [b.to_dict() for b in g.tie.sudden],
                    "revealed": g.revealed,
                }
                for g in self.games
            ],
        }

    def check_invariants(self) -> None:
        """Raise AssertionError if the state breaks a rule (used by the tests)."""
        app = sorted(n for n in self.cartons if n not in self.own_cartons)
        assert app == list(range(1, len(app) + 1)), "carton numbering"
        assert all(is_own(n) for n in self.own_cartons), "own cartons apart"
        for c in self.cartons.values():
            (validate_maxi if KINDS[c.kind].grid is Grid.MAXI else validate_classic)(c.carton)
            assert c.no in self.units[c.unit]
        for u, nos in self.units.items():
            kinds = {self.cartons[n].kind for n in nos}
            assert len(kinds) == 1
            assert len(nos) == KINDS[next(iter(kinds))].unit, f"unit {u} size"
            sold = [n in self.purchase_of for n in nos]
            assert all(sold) or not any(sold), f"unit {u} partly sold"
            kind = self.cartons[u].kind
            in_stock, on_paper = u in self.stock[kind], u in self.paper_stock[kind]
            assert not (in_stock and on_paper), f"unit {u} in both stocks"
            assert (in_stock or on_paper) != all(sold), f"unit {u}: stock/sold mismatch"
        for sale in self.sales.values():
            if sale.status is SaleStatus.PENDING:
                assert sale.purchase_no == 0, "a pending order holds no cartons"
            elif sale.purchase_no:
                p = self.purchases[sale.purchase_no - 1]
                assert p.player_id == sale.player_id and p.reason in ("sale", "planche")
        assert set(self.handed_over) <= set(self.lot_tickets), "a lot handed without a ticket"
        assert set(self.withdrawn) <= set(self.lot_tickets), "a voided ticket that never was"
        assert sorted(self.lot_tickets) == list(range(1, len(self.lot_tickets) + 1)), "tickets"
        seen: set[int] = set()
        for p in self.purchases:
            assert p.player_id in self.players
            assert not (seen & set(p.carton_nos)), "carton sold twice"
            seen |= set(p.carton_nos)
            assert all(self.cartons[n].kind is p.kind for n in p.carton_nos)
        for i, g in enumerate(self.games):
            assert g.index == i
            assert i == len(self.games) - 1 or g.status is GameStatus.FINISHED
            assert len(set(g.drawn)) == len(g.drawn) and all(n in BALLS for n in g.drawn)
            assert len(g.awards) + len(g.lapsed) == g.stage <= len(g.spec.stages)
            done = sorted([a.stage for a in g.awards] + [x.stage for x in g.lapsed])
            assert done == list(range(g.stage)), "each stage awarded or lapsed once, in order"
            for x in g.lapsed:
                spec = g.spec.stages[x.stage]
                if x.why == "within":
                    assert spec.within and not any(a.stage == x.stage for a in g.awards)
                else:
                    assert g.awards and g.spec.game_type.ends_after(g.spec, g.awards[-1].stage)
            if g.spec.game_type.one_win_per_player:
                won = [p for a in g.awards for _, p, _ in a.tickets]
                assert len(won) == len(set(won)), "two lots to one player in a one-win game"
            if g.stage == len(g.spec.stages):
                assert g.status is not GameStatus.RUNNING
            else:
                assert g.status is GameStatus.RUNNING or len(g.drawn) == len(BALLS)
            for n, marks in g.marks.items():
                assert self.plays(n, g), f"marks on carton {n} which does not play game {i}"
                assert marks <= set(g.drawn) & self.cartons[n].carton.numbers, f"marks {n}"
            if g.status is GameStatus.FINISHED:
                assert not g.annulled
            else:
                assert g.annulled == self._annulled_by_history(i), "annulled units"
            drawn_at: dict[int, int] = {}
            for c in g.claims:
                assert c.number is not None
                if c.via == "server":  # the inversée: untouched until its number
                    assert not g.spec.game_type.claimed and c.verdict == Verdict.VALID
                    before = set(g.drawn[: g.drawn.index(c.number)])
                    assert not any(self.cartons[n].carton.numbers & before for n in c.unit_nos)
                elif c.verdict in (Verdict.VALID, Verdict.AFTER_AWARD):
                    assert c.number in c.winning
                if c.verdict == Verdict.VALID and c.claim_no not in g.overturned:
                    drawn_at.setdefault(c.stage, c.number)
                    assert drawn_at[c.stage] == c.number, "valid claims of a stage on one number"
            ever_entry = {
                (c.stage, c.player_id)
                for c in g.claims
                if c.verdict == Verdict.VALID
                or (c.claim_no in g.overturned and g.overturned[c.claim_no].entry)
            }
            for a in g.awards:
                assert all((a.stage, p) in ever_entry for _, p, _ in a.tickets), (
                    "a lot to a non-winner"
                )
            for p in g.entries():
                numbers = {
                    c.number
                    for c in g.stage_claims()
                    if c.player_id == p and (c.stage, p) in ever_entry
                }
                assert g.last in numbers, "draw after a valid claim"
            if g.last_call is not None:
                assert g.entries() and g.last_call.number == g.last, "a last call without entry"
                assert (g.last_call.stage, g.last_call.number) in g.called
            c = g.commitment
            if c is not None:
                assert all(d.source == "electronic" for d in self._draws(i)), "committed draws"
                seed = bytes.fromhex(g.revealed) if g.revealed else self.sealed.get(i)
                if seed is not None:
                    assert draws.commitment(seed, c.evening, c.series, i + 1) == c.commitment
                    assert tuple(g.drawn) == draws.draw_order(seed)[: len(g.drawn)], "order"
            if g.revealed:
                assert c is not None, "a reveal without a commitment"
                assert g.status is GameStatus.FINISHED or self.closed, "revealed in play"

    def _draws(self, game: int) -> list[ev.NumberDrawn]:
        return [x for x in self.history if isinstance(x, ev.NumberDrawn) and x.game == game]
