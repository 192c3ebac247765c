"""Disputes (art. 8): the association's decisions on claims, cartons and lots."""

from __future__ import annotations

import random
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_decision, is_int
from loto_app.domain.evening.state import OVERTURNABLE, Game, GameStatus
from loto_app.domain.verdicts import Verdict


class DisputeMoves(EveningCore):
    """Disputes (art. 8): the association's decisions on claims, cartons and lots."""

    def reinstate_carton(self, carton_no: int, by: str, reason: str) -> list[ev.Event]:
        """An annulled carton plays again in the current game (the association decided the
        annulment was wrong). `by`: "animateur" or "organisateur"; `reason`: written."""
        self._open()
        by, reason = check_decision(by, reason)
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.DisputeRefused(
                "no game in progress", "Aucune partie en cours : les cartons annulés sont revenus."
            )
        c = self._carton(carton_no)
        if c.unit not in g.annulled:
            raise err.DisputeRefused(
                f"carton {carton_no} is not annulled in game {g.index}",
                "Ce carton n'est pas annulé dans cette partie.",
            )
        unit = self.units[c.unit]
        return self._emit(ev.CartonReinstated(g.index, c.no, unit, self.owner(c.no), by, reason))

    def overturn(self, claim_no: int, verdict: str, by: str, reason: str) -> list[ev.Event]:
        """Change the verdict of a claim of the current game to "valid" or "false".

        To "valid": a carton annulled by that (false) claim plays again; the claim joins the
        entries of its stage only if it is on the current number of a stage not settled yet
        (otherwise the association gives a lot or a consolation with `give_lot` or
        `give_consolation`). To "false": the claim leaves the entries and its carton is
        annulled for the rest of the game (as after any fausse annonce); refused while the
        player holds a lot ticket of that stage (withdraw it first) or while the stage's tie
        is being settled.
        """
        self._open()
        by, reason = check_decision(by, reason)
        g = self.game
        if g is None:
            raise err.DisputeRefused("no game started", "Aucune partie commencée.")
        claim = g.claim(claim_no) if is_int(claim_no) else None
        if claim is None or claim.player_id is None:
            raise err.DisputeRefused(
                f"no claim {claim_no!r:.20} of a player in game {g.index}",
                "Cette annonce n'est pas celle d'un joueur de la partie en cours.",
            )
        old = g.verdict_of(claim)
        if verdict not in (Verdict.VALID, Verdict.FALSE) or old not in OVERTURNABLE:
            raise err.DisputeRefused(
                f"overturn {old!r} to {verdict!r:.20}",
                "Seule une annonce jugée (valide, fausse, tour passé, après l'attribution) "
                "peut devenir valide ou fausse.",
            )
        if old == verdict:
            raise err.DisputeRefused(
                f"claim {claim_no} is already {old}", "L'annonce a déjà ce verdict."
            )
        running = g.status is GameStatus.RUNNING
        entry = False
        if verdict == Verdict.FALSE:
            held = [
                t.no
                for t in self.lot_tickets.values()
                if (t.game, t.stage, t.player_id) == (g.index, claim.stage, claim.player_id)
                and t.kind == "lot"
                and t.no not in self.withdrawn
            ]
            if held:
                raise err.DisputeRefused(
                    f"{claim.player_id} holds lot ticket(s) {held} of that stage",
                    "Ce joueur a reçu le lot : retirez d'abord le lot attribué.",
                )
            if running and claim.stage == g.stage and g.tie.closed:
                raise err.DisputeRefused(
                    f"the tie of stage {g.stage} is being settled",
                    "Le départage de ce lot est en cours : attribuez-le d'abord.",
                )
        else:
            entry = (
                running
                and claim.stage == g.claim_stage == g.stage
                and claim.number == g.last
                and not g.tie.closed
            )
        events = self._emit(
            ev.VerdictOverturned(g.index, claim.claim_no, old, verdict, entry, by, reason)
        )
        if entry:  # an in-time winner again: its last call, unless one runs or ran for it
            events += self._open_last_call(g)
        return events

    def give_lot(self, claim_no: int, by: str, reason: str) -> list[ev.Event]:
        """Give the lot of a claim's stage to its claimant (e.g. a réclamation after the
        award): a lot ticket of its own, checked and handed over at the desk like any."""
        self._open()
        by, reason = check_decision(by, reason)
        g, claim = self._claim_of(claim_no)
        assert claim.player_id is not None
        given = [
            d
            for d in self.decisions
            if isinstance(d, ev.LotGiven)
            and d.claim_no == claim.claim_no
            and d.ticket_no not in self.withdrawn
        ]
        if given:
            raise err.DisputeRefused(
                f"claim {claim_no} already got lot ticket {given[0].ticket_no}",
                "Un lot a déjà été donné pour cette annonce.",
            )
        return self._emit(
            ev.LotGiven(
                self._next_ticket, g.index, claim.stage, claim.claim_no, claim.player_id, by, reason
            )
        )

    def give_consolation(
        self, claim_no: int, by: str, reason: str, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Give a consolation to a claimant: a free carton for a game still to play, or a
        "carton offert" voucher when none is left."""
        self._open()
        by, reason = check_decision(by, reason)
        g, claim = self._claim_of(claim_no)
        assert claim.player_id is not None
        if any(
            isinstance(d, ev.ConsolationGiven) and d.claim_no == claim.claim_no
            for d in self.decisions
        ):
            raise err.DisputeRefused(
                f"claim {claim_no} already got a consolation",
                "Une consolation a déjà été donnée pour cette annonce.",
            )
        events = self._emit(
            ev.ConsolationGiven(g.index, claim.stage, claim.claim_no, claim.player_id, by, reason)
        )
        return events + self._console(g.index, claim.stage, claim.player_id, "dispute", rng)

    def withdraw_award(self, ticket_no: int, by: str, reason: str) -> list[ev.Event]:
        """Void a lot ticket (or a voucher): the desk can no longer hand it over. The stage
        stays awarded; the association may give the lot to someone else (`give_lot`)."""
        self._open()
        by, reason = check_decision(by, reason)
        if not is_int(ticket_no) or ticket_no not in self.lot_tickets:
            raise err.UnknownTicket(f"no lot ticket {ticket_no!r:.20}")
        if ticket_no in self.withdrawn:
            raise err.DisputeRefused(
                f"ticket {ticket_no} already voided", "Ce ticket est déjà annulé."
            )
        t = self.lot_tickets[ticket_no]
        return self._emit(ev.AwardWithdrawn(ticket_no, t.player_id, by, reason))

    def _claim_of(self, claim_no: int) -> tuple[Game, ev.ClaimMade]:
        """A claim of a player, in any game of the evening."""
        for g in self.games:
            c = g.claim(claim_no) if is_int(claim_no) else None
            if c is not None and c.player_id is not None:
                return g, c
        raise err.DisputeRefused(
            f"no claim {claim_no!r:.20} of a player", "Annonce introuvable (ou d'aucun joueur)."
        )


@applies(ev.CartonReinstated)
def _carton_reinstated(self: Any, e: ev.CartonReinstated) -> None:
    self.games[e.game].annulled.discard(self.cartons[e.carton_no].unit)
    self.decisions.append(e)


@applies(ev.VerdictOverturned)
def _verdict_overturned(self: Any, e: ev.VerdictOverturned) -> None:
    g = self.games[e.game]
    g.overturned[e.claim_no] = e
    claim = g.claim(e.claim_no)
    assert claim is not None
    unit = self.cartons[claim.carton_no].unit if claim.carton_no in self.cartons else None
    if g.status is not GameStatus.FINISHED and unit is not None:
        if e.verdict == Verdict.FALSE:
            g.annulled.add(unit)
        elif e.old == Verdict.FALSE:
            g.annulled.discard(unit)
    g.recount(claim.stage)
    if claim.stage not in g.valid:  # nobody waits for that lot any more: the
        # next valid claim on that number is a first one, with a last call of its own
        g.called.discard((claim.stage, claim.number))
    if not g.entries():
        g.last_call = None  # its only entry is gone
    self.decisions.append(e)


@applies(ev.LotGiven)
def _lot_given(self: Any, e: ev.LotGiven) -> None:
    self._issue(e)
    self.decisions.append(e)


@applies(ev.ConsolationGiven)
def _consolation_given(self: Any, e: ev.ConsolationGiven) -> None:
    self.decisions.append(e)


@applies(ev.AwardWithdrawn)
def _award_withdrawn(self: Any, e: ev.AwardWithdrawn) -> None:
    self.withdrawn[e.ticket_no] = e
    self.decisions.append(e)
