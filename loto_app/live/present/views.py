"""A player's private view of the evening, as plain values (no Reflex, no database)."""

from __future__ import annotations

import dataclasses

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, Game, GameStatus
from loto_app.domain.program import KIND_LABELS, Kind
from loto_app.domain.serial import check_code
from loto_app.domain.till import SaleStatus
from loto_app.domain.verdicts import VERDICT_LABELS, Verdict
from loto_app.present import HALF_LOT, TicketView, euros, share_note, ticket_view


@dataclasses.dataclass
class CellView:
    """One cell: `n` is 0 for an empty cell; `key` is "<carton>-<number>"."""

    n: int = 0
    key: str = ""
    row: int = 0


@dataclasses.dataclass
class CartonView:
    """One of my cartons."""

    no: int = 0
    kind: str = ""
    kind_label: str = ""
    unit: int = 0
    check: str = ""
    plays: bool = False
    annulled: bool = False
    free: bool = False
    rows: list[list[CellView]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class OfferView:
    """A line of the tariff, as a phone shows it."""

    index: int = 0
    kind: str = ""
    quantity: int = 0
    label: str = ""
    price: str = ""
    testid: str = ""


@dataclasses.dataclass
class OrderView:
    """One of my orders still "à régler"."""

    no: int = 0
    label: str = ""
    price: str = ""


def offer_views(e: Evening) -> list[OfferView]:
    """The evening's tariff for the buy buttons (test ids `buy-<kind>[-<quantity>]`)."""
    free = e.program.settings.free_cartons
    out = []
    for i, o in enumerate(e.program.offers):
        plain = o.kind in (Kind.CLASSIQUE, Kind.VITRINE)
        label = o.label if plain else o.name
        out.append(
            OfferView(
                index=i,
                kind=o.kind.value,
                quantity=o.quantity,
                label=label,
                price="offert" if free else euros(o.price_cents),
                testid=f"buy-{o.kind.value}" + (f"-{o.quantity}" if o.quantity > 1 else ""),
            )
        )
    return out


def order_views(e: Evening, player_id: str) -> list[OrderView]:
    """My orders waiting for the caissier."""
    return [
        OrderView(
            no=s.no,
            label=e.program.offers[s.offer].name,
            price=euros(s.amount_cents),
        )
        for s in e.sales.values()
        if s.player_id == player_id and s.status is SaleStatus.PENDING
    ]


@dataclasses.dataclass
class PrivateView:
    """Everything one player sees of their own."""

    name: str
    cartons: list[CartonView]
    marks: list[str]
    tickets: list[TicketView]
    consolations: int
    verdict: str
    verdict_kind: str
    share_offer: bool
    share_answered: bool
    decisions: list[str] = dataclasses.field(default_factory=list)


VERDICT_KIND = {
    Verdict.VALID: "valid",
    Verdict.FALSE: "false",
    Verdict.LATE: "late",
    Verdict.WRONG_SERIES: "false",
    Verdict.NOT_IN_GAME: "late",
    Verdict.ANNULLED: "false",
    Verdict.AFTER_AWARD: "late",
}


def verdict_text(verdict: str, carton_no: int, number: int | None) -> str:
    """What the player reads after a claim."""
    v = Verdict(verdict)
    if v is Verdict.VALID:
        return (
            f"Annonce valide sur le {number} (carton {carton_no}) : "
            "l'animateur va attribuer le lot."
        )
    if v is Verdict.AFTER_AWARD:
        return (
            f"Votre carton {carton_no} était bon sur le {number}, mais le lot était déjà "
            "attribué : votre réclamation est transmise à l'association, qui décide. "
            "Votre carton reste en jeu."
        )
    return f"{VERDICT_LABELS[v]} (carton {carton_no})."


def decision_for(e: Evening, d: ev.Event, player_id: str) -> str:
    """A decision of the association (art. 8) as the player concerned reads it ("" when it
    does not concern them)."""
    who = "l'animateur" if getattr(d, "by", "") == "animateur" else "l'organisateur"
    why = f" Motif : {getattr(d, 'reason', '')}"
    match d:
        case ev.CartonReinstated() if d.player_id == player_id:
            return f"Décision de {who} : votre carton {d.carton_no} joue de nouveau.{why}"
        case ev.VerdictOverturned():
            claim = e.games[d.game].claim(d.claim_no)
            if claim is None or claim.player_id != player_id:
                return ""
            if d.verdict == Verdict.VALID:
                what = "jugée valide" + (" : elle compte pour le lot" if d.entry else "")
            else:
                what = "jugée fausse : le carton est annulé pour cette partie"
            return f"Décision de {who} : votre annonce (carton {claim.carton_no}) est {what}.{why}"
        case ev.LotGiven() if d.player_id == player_id:
            return f"Décision de {who} : un lot vous est donné (ticket n° {d.ticket_no}).{why}"
        case ev.ConsolationGiven() if d.player_id == player_id:
            return f"Décision de {who} : une consolation vous est donnée.{why}"
        case ev.AwardWithdrawn() if d.player_id == player_id:
            return f"Décision de {who} : le ticket n° {d.ticket_no} est annulé.{why}"
    return ""


def _outcome(e: Evening, g: Game, stage: int, player_id: str) -> tuple[str, str]:
    """After a valid claim: what became of it (lot won, shared, or lost at the token draw),
    and the verdict's colour ("valid": won; "late": lost the draw), or ("", "")."""
    award = next((a for a in g.awards if a.stage == stage), None)
    tie = next((t for t in g.tie_breaks if t.stage == stage), None)
    lot = g.spec.stages[stage].lot.description
    if award is not None:
        mine = [t for t in ev.issued_tickets(award) if t.player_id == player_id]
        if mine:
            t = mine[0]
            half = f" (la {HALF_LOT})" if share_note(t.share) else ""
            return f"Gagné ! {lot}{half} : ticket n° {t.no}, à retirer au comptoir.", "valid"
    if tie is not None and tie.method == "draw" and player_id not in tie.winners:
        voucher = any(
            t.kind == "voucher" and (t.game, t.stage, t.player_id) == (g.index, stage, player_id)
            for t in e.lot_tickets.values()
        )
        if voucher:
            lost = "Ex aequo perdu au tirage des jetons : un bon « carton offert » vous est remis."
            return lost, "late"
        return "Ex aequo perdu au tirage des jetons : un carton vous est offert.", "late"
    return "", ""


def private_view(e: Evening, player_id: str) -> PrivateView:
    """Build a player's view from the engine."""
    g = e.game
    mine = e.player_cartons(player_id)
    cartons = []
    for c in mine:
        rows = [
            [CellView(n or 0, f"{c.no}-{n}" if n else "", i) for n in r]
            for i, r in enumerate(c.carton.grid)
        ]
        cartons.append(
            CartonView(
                no=c.no,
                kind=c.kind.value,
                kind_label=KIND_LABELS[c.kind] if c.kind is not Kind.SPECIAL else "Spécial",
                unit=c.unit,
                check=check_code(e.key, e.program.series, c.no),
                plays=e.plays(c.no),
                annulled=bool(g and c.unit in g.annulled),
                free=e.purchase_of[c.no].reason == "consolation",
                rows=rows,
            )
        )
    marks = []
    if g is not None:
        for c in mine:
            marks += [f"{c.no}-{n}" for n in sorted(g.marks.get(c.no, ()))]
    tickets = [
        ticket_view(e, t) for _, t in sorted(e.lot_tickets.items()) if t.player_id == player_id
    ]
    verdict, kind = "", ""
    if g is not None and g.status is not GameStatus.FINISHED:
        mine_claims = [c for c in g.claims if c.player_id == player_id]
        if mine_claims:
            last = mine_claims[-1]
            now = g.verdict_of(last)
            verdict = verdict_text(now, last.carton_no, last.number)
            kind = VERDICT_KIND[Verdict(now)]
            if now == Verdict.FALSE and e.cartons[last.carton_no].unit not in g.annulled:
                # a decision gave the carton back (art. 8): it plays again
                verdict = (
                    f"Votre carton {last.carton_no} joue de nouveau (décision de l'association)."
                )
                kind = "late"
            if now == Verdict.VALID:
                outcome, outcome_kind = _outcome(e, g, last.stage, player_id)
                if outcome:
                    verdict, kind = outcome, outcome_kind
    offer = bool(g and player_id in g.tie.share_offered_to and g.tie.broken is None)
    return PrivateView(
        name=e.players.get(player_id, ""),
        cartons=cartons,
        marks=marks,
        tickets=tickets,
        consolations=sum(
            1 for p in e.purchases if p.player_id == player_id and p.reason == "consolation"
        ),
        verdict=verdict,
        verdict_kind=kind,
        share_offer=offer,
        share_answered=bool(offer and g and player_id in g.tie.answers),
        decisions=[t for d in reversed(e.decisions) if (t := decision_for(e, d, player_id))],
    )
