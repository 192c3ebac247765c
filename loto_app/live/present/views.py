"""A player's private view of the evening, as plain values (no Reflex, no database)."""

from __future__ import annotations

import dataclasses
import json

from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.engine import Evening, Game, GameStatus, IssuedCarton
from loto_app.domain.games import TieRule
from loto_app.domain.patterns import targets
from loto_app.domain.program import Kind, carton_kind_label
from loto_app.domain.serial import check_code
from loto_app.domain.till import SaleStatus
from loto_app.domain.verdicts import VERDICT_LABELS, Verdict
from loto_app.live.present.outcome import tie_lost, tie_lost_head
from loto_app.wording import TicketView, euros, plural, share_note, ticket_view


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
    when: str = ""  # when it does not play now: the game it will play ("Joue à la partie 1 …")
    # the grid's numbers, row by row, 0 for an empty cell (plain ints: each phone's server state
    # holds its cartons, and a cell object with its "<carton>-<number>" key was ~110 bytes of it;
    # the page makes the key, components/carton.py)
    rows: list[list[int]] = dataclasses.field(default_factory=list)
    # the target lines of its unit for each stage of the game it plays now, by pattern (JSON,
    # `patterns.targets`): the phone's hint and "plus qu'un numéro" (assets/targets.js)
    targets: str = ""
    # the partie inversée: a number of its unit is out, the carton is "éliminé"
    knocked: bool = False
    # why its claim button waits for the next number ("": it may claim): its own claim of the
    # last number is in (`CLAIM_IN`), or its player won on that number (`JUST_WON`)
    hold: str = ""


@dataclasses.dataclass
class OfferView:
    """A line of the tariff, as a phone shows it."""

    index: int = 0
    kind: str = ""
    quantity: int = 0
    label: str = ""
    price: str = ""
    testid: str = ""
    what: str = ""  # the pack in a sentence, for the confirmation ("3 cartons classiques")


@dataclasses.dataclass
class OfferGroup:
    """The tariff's lines of one kind, with what that kind plays, in plain French."""

    kind: str = ""
    title: str = ""
    look: str = ""  # what one carton of the kind is (the games it plays: `kind_games`)
    offers: list[OfferView] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class OrderView:
    """One of my orders still "à régler"."""

    no: int = 0
    label: str = ""
    price: str = ""


#: a kind of carton, as a player reads it: (group title, what one looks like)
KIND_WORDS: dict[Kind, tuple[str, str]] = {k: (d.title, d.looks) for k, d in KINDS.items()}
#: a kind's cartons in the plural, after a count ("3 cartons classiques")
_KIND_PLURAL: dict[Kind, tuple[str, str]] = {k: (d.one, d.many) for k, d in KINDS.items()}


def _game_what(e: Evening, index: int) -> str:
    """What a game plays for: its title when the program gives one, else its lots."""
    spec = e.program.games[index]
    return spec.title or ", ".join(s.lot.description for s in spec.stages)


def _games_left(e: Evening, kind: Kind) -> list[int]:
    """The games a carton of this kind bought now would play."""
    first = e.next_game_index()
    return [i for i, g in enumerate(e.program.games) if i >= first and g.kind is kind]


def _pack(kind: Kind, quantity: int, planche: bool) -> tuple[str, str]:
    """(button label, the pack in a sentence)."""
    one, many = _KIND_PLURAL[kind]
    if planche:
        return "Planche de 6 cartons", f"une planche de 6 {many} (chaque numéro une fois)"
    label = plural(quantity, "vitrine") if kind is Kind.VITRINE else plural(quantity, "carton")
    return label, plural(quantity, one, many)


def games_text(e: Evening, kind: Kind) -> str:
    """The games a carton of this kind bought now plays, in a sentence ("" for none)."""
    left = _games_left(e, kind)
    if not left:
        return ""
    if len(left) == 1:
        return f"Joue la partie {left[0] + 1} : {_game_what(e, left[0])}."
    return "Joue les parties " + ", ".join(str(i + 1) for i in left[:-1]) + f" et {left[-1] + 1}."


def kind_games(e: Evening) -> dict[str, str]:
    """`games_text` for each kind of the tariff: public (the same for every phone, and it
    changes for all at once when a game's first number is drawn), so the room's picture
    carries it rather than each phone's private view."""
    return {k.value: games_text(e, k) for k in dict.fromkeys(o.kind for o in e.program.offers)}


def offer_groups(e: Evening) -> list[OfferGroup]:
    """The tariff grouped by kind (a kind with no game left is not offered: the engine would
    refuse it; the page also hides a kind whose games run out meanwhile, `kind_games`)."""
    groups: dict[Kind, OfferGroup] = {}
    for o in offer_views(e):
        kind = Kind(o.kind)
        if kind not in groups:
            if not _games_left(e, kind):
                continue
            title, look = KIND_WORDS[kind]
            groups[kind] = OfferGroup(kind.value, title, look)
        groups[kind].offers.append(o)
    return list(groups.values())


def offer_views(e: Evening) -> list[OfferView]:
    """The evening's tariff for the buy buttons (test ids `buy-<kind>[-<quantity>]`)."""
    free = e.program.settings.free_cartons
    out = []
    for i, o in enumerate(e.program.offers):
        label, what = _pack(o.kind, o.quantity, o.planche)
        out.append(
            OfferView(
                index=i,
                kind=o.kind.value,
                quantity=o.quantity,
                label=label,
                price="offert" if free else euros(o.price_cents),
                testid=f"buy-{o.kind.value}" + (f"-{o.quantity}" if o.quantity > 1 else ""),
                what=what,
            )
        )
    return out


def order_views(e: Evening, player_id: str) -> list[OrderView]:
    """My orders waiting for the caissier."""
    return [
        OrderView(
            no=s.no,
            label=_pack(e.program.offers[s.offer].kind, s.quantity, s.planche)[1],
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
    # the verdict holds while the hall shows this game and count of numbers (the page hides it
    # at the next number, which phones are not poked for)
    verdict_game: int = 0
    verdict_count: int = 0
    # a valid claim of mine on the last number, for the stage judged on it (the last call asks
    # me to wait, unless another carton of mine may still claim)
    claimed: bool = False
    # a carton of mine plays the current game and is not annulled (I may be invited to claim)
    in_play: bool = False
    # ... and one of them holds for nothing on the last number (`CartonView.hold`): with a
    # claim of mine in, the last call still invites me for another carton
    may_claim: bool = False
    # the share question of an ex aequo: with whom, for which lot
    share_with: str = ""
    share_lot: str = ""


#: A carton's claim button, waiting for the next number (`CartonView.hold`): its claim of
#: the last number is in (the engine takes one claim per carton, stage and number: a second
#: carton of mine completed on the same number stays claimable)...
CLAIM_IN = "Annonce enregistrée"
#: ... or its player's claim of that number is valid and its stage settled (the lot awarded,
#: the share asked, the tokens drawn): a phone never invites a player who has just won.
JUST_WON = "Attendez le numéro suivant"


VERDICT_KIND = {
    Verdict.VALID: "valid",
    Verdict.FALSE: "false",
    Verdict.LATE: "late",
    Verdict.WRONG_SERIES: "false",
    Verdict.NOT_IN_GAME: "late",
    Verdict.ANNULLED: "false",
    Verdict.AFTER_AWARD: "late",
}


def verdict_text(verdict: str, carton_no: int | str, number: int | None, stage: str = "") -> str:
    """What the player reads after a claim (`stage`: the stage it was judged on)."""
    v = Verdict(verdict)
    if v is Verdict.VALID:
        return (
            f"Annonce valide sur le {number} (carton {carton_no}) : "
            "l'animateur va attribuer le lot."
        )
    if v is Verdict.AFTER_AWARD:
        what = f"pour la {stage.lower()} " if stage else ""
        return (
            f"Votre carton {carton_no} était bon {what}sur le {number}, mais ce lot était déjà "
            "attribué : votre réclamation est transmise à l'association, qui décide. "
            "Votre carton reste en jeu."
        )
    return f"{VERDICT_LABELS[v]} (carton {carton_no})."


def _names(names: list[str]) -> str:
    """'Bruno', 'Bruno et Chloé', 'Bruno, Chloé et Denis', '5 autres joueurs'."""
    if not names:
        return "personne"
    if len(names) > 3:
        return f"{len(names)} autres joueurs"
    return " et ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _tie_text(e: Evening, g: Game, claim: ev.ClaimMade, player_id: str) -> str:
    """A valid claim of mine tied with others' on the stage in play: with whom, and what
    settles it now, as the game's tie rule says (its own, else the evening's): a lot each, the
    lot shared, the mort subite's extra balls, or the share asked first, then the tokens."""
    others = [_name_of(e, p) for p in g.valid.get(claim.stage, ()) if p != player_id]
    head = f"Annonce valide sur le {claim.number} (carton {claim.carton_no})\u00a0: ex aequo avec "
    head += _names(others) + "."
    lot = g.spec.stages[claim.stage].lot
    tie = g.tie
    rule = e.tie_rule(g)
    if tie.broken is not None and player_id in tie.broken.winners:  # (the lot not yet given)
        won = {"sudden": "Mort subite gagnée", "draw": "Tirage des jetons gagné"}
        how = won.get(tie.broken.method, "Départage gagné")
        return f"{head} {how}\u00a0: l'animateur va vous attribuer le lot."
    if rule is TieRule.EACH:
        return f"{head} Chacun de vous gagne un lot identique\u00a0: l'animateur va l'attribuer."
    if rule is TieRule.SHARE:
        return f"{head} Vous vous partagez le lot\u00a0: l'animateur va l'attribuer."
    if rule is TieRule.SUDDEN_DEATH and (tie.sudden or e.sudden_balls_left(g)):
        how = (
            "Mort subite\u00a0: l'animateur tire des boules en plus, une à la fois. Si votre "
            "carton a le numéro et pas celui des autres, vous gagnez."
        )
        if not tie.sudden:
            return f"{head} {how}"
        balls = ", ".join(str(b.number) for b in tie.sudden)
        left = tie.sudden[-1].left
        others_in = [_name_of(e, p) for p in left if p != player_id]
        where = (  # (one left is the tie broken, said above)
            f"vous restez en lice avec {_names(others_in)}"
            if player_id in left
            else f"vous n'êtes plus en lice (restent\u00a0: {_names(others_in)})"
        )
        return f"{head} {how} Boules en plus\u00a0: {balls} — {where}."
    if player_id in tie.share_offered_to and not tie.share_refused:
        if player_id in tie.answers:
            return f"{head} Votre réponse est envoyée\u00a0: en attente de l'autre joueur."
        return f"{head} Partagez-vous le lot\u202f? Répondez ci-dessous."
    if tie.share_refused:
        return f"{head} Le partage est refusé\u00a0: un tirage au sort des jetons décide."
    share = (
        rule is TieRule.EVENING
        and len(g.valid.get(claim.stage, ())) == 2
        and lot.divisible
        and e.program.settings.tie_method.value == "share_or_draw"
    )
    if share:
        return f"{head} L'animateur va vous proposer de partager le lot (moitié chacun)."
    return f"{head} Un tirage au sort des jetons désigne le gagnant."


def _name_of(e: Evening, player_id: str) -> str:
    return e.players.get(player_id, "un carton papier")


def decision_for(e: Evening, d: ev.Event, player_id: str) -> str:
    """A decision of the association (art. 8) as the player concerned reads it ("" when it
    does not concern them)."""
    who = "l'animateur" if getattr(d, "by", "") == "animateur" else "l'organisateur"
    why = f" Motif : {getattr(d, 'reason', '')}"
    match d:
        case ev.CartonReinstated() if d.player_id == player_id:
            return f"Décision de {who} : votre carton {d.carton_no} joue de nouveau.{why}"
        case ev.VerdictOverturned():
            claim = e.games[d.game].claim(d.claim_no)
            if claim is None or claim.player_id != player_id:
                return ""
            if d.verdict == Verdict.VALID:
                what = "jugée valide" + (" : elle compte pour le lot" if d.entry else "")
            else:
                what = "jugée fausse : le carton est annulé pour cette partie"
            return f"Décision de {who} : votre annonce (carton {claim.carton_no}) est {what}.{why}"
        case ev.LotGiven() if d.player_id == player_id:
            return f"Décision de {who} : un lot vous est donné (ticket n° {d.ticket_no}).{why}"
        case ev.ConsolationGiven() if d.player_id == player_id:
            return f"Décision de {who} : une consolation vous est donnée.{why}"
        case ev.AwardWithdrawn() if d.player_id == player_id:
            return f"Décision de {who} : le ticket n° {d.ticket_no} est annulé.{why}"
    return ""


def _outcome(e: Evening, g: Game, stage: int, player_id: str) -> tuple[str, str]:
    """After a valid claim: what became of it (lot won, shared, or lost at the token draw or
    the mort subite), and the verdict's colour ("valid": won; "late": lost), or ("", "")."""
    award = next((a for a in g.awards if a.stage == stage), None)
    lot = g.spec.stages[stage].lot.description
    if award is not None:
        mine = [t for t in ev.issued_tickets(award) if t.player_id == player_id]
        if mine:
            t = mine[0]
            note = share_note(t.share)
            half = f" (la {note})" if t.share == ev.HALF else f" ({note})" if note else ""
            return f"Gagné ! {lot}{half} : ticket n° {t.no}, à retirer au comptoir.", "valid"
    lost = tie_lost(e, g, stage, player_id)
    if lost is not None:
        # (the way it was lost: the tokens, or the mort subite's extra balls)
        if lost.voucher:
            text = (
                f"{tie_lost_head(lost)}\u00a0: un bon «\u00a0carton offert\u00a0» vous est remis."
            )
            return text, "late"
        return f"{tie_lost_head(lost)}\u00a0: un carton vous est offert.", "late"
    return "", ""


def _when(e: Evening, carton_no: int) -> str:
    """For a carton that does not play now: the game it plays next (or that it plays no
    more); "" when it plays the current game."""
    if e.plays(carton_no):
        return ""
    if carton_no in e.voided:
        return "Remboursé : ne joue plus."
    p = e.purchase_of[carton_no]
    g = e.game
    start = max(p.first_game, g.index + 1 if g else 0)
    nxt = next(
        (i for i, spec in enumerate(e.program.games) if i >= start and spec.kind is p.kind), None
    )
    if nxt is None:
        return "Ne joue plus ce soir."
    return f"Joue à la partie {nxt + 1} : {_game_what(e, nxt)}"


def _claim_is_current(e: Evening, g: Game, claim: ev.ClaimMade) -> bool:
    """A claim's verdict matters until the next number of its game (or a correction)."""
    for x in reversed(e.history):
        if x is claim:
            return True
        if isinstance(x, (ev.NumberDrawn, ev.DrawCorrected)) and x.game == g.index:
            return False
    return True


def unit_targets(e: Evening, carton_no: int) -> str:
    """The target lines of a carton's unit for each stage of the current game, as JSON by
    pattern ("" when it plays no game now)."""
    g = e.game
    if g is None or g.status is GameStatus.FINISHED or not e.plays(carton_no):
        return ""
    unit = [e.cartons[n].carton for n in e.units[e.cartons[carton_no].unit]]
    by_pattern = {s.pattern.value: targets(s.pattern, unit) for s in g.spec.stages}
    return json.dumps({p: t for p, t in by_pattern.items() if t}, separators=(",", ":"))


def private_view(e: Evening, player_id: str) -> PrivateView:
    """Build a player's view from the engine."""
    g = e.game
    mine = e.player_cartons(player_id)
    claimed = _claimed(e, g, player_id)
    won = bool(g and claimed and g.settled(g.claim_stage))
    cartons = []
    for c in mine:
        rows = [[n or 0 for n in r] for r in c.carton.grid]
        cartons.append(
            CartonView(
                no=c.no,
                kind=c.kind.value,
                kind_label=carton_kind_label(c.kind),
                unit=c.unit,
                check=check_code(e.key, e.program.series, c.no),
                plays=e.plays(c.no),
                annulled=bool(g and c.unit in g.annulled),
                knocked=bool(g and c.unit in g.knocked and not g.spec.game_type.claimed),
                free=e.purchase_of[c.no].reason == "consolation",
                when=_when(e, c.no),
                rows=rows,
                targets=unit_targets(e, c.no),
                hold=_hold(e, g, c, won),
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
        if mine_claims and _claim_is_current(e, g, mine_claims[-1]):
            last = mine_claims[-1]
            now = g.verdict_of(last)
            verdict = verdict_text(
                now, last.carton_no, last.number, g.spec.stages[last.stage].label
            )
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
                elif last.stage == g.stage and len(g.valid.get(last.stage, ())) > 1:
                    verdict = _tie_text(e, g, last, player_id)
    offer = bool(g and player_id in g.tie.share_offered_to and g.tie.broken is None)
    share_with, share_lot = "", ""
    if offer and g is not None and g.stage_spec is not None:
        share_with = _names([_name_of(e, p) for p in g.tie.share_offered_to if p != player_id])
        share_lot = g.stage_spec.lot.description
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
        verdict_game=g.index + 1 if g else 0,
        verdict_count=len(g.drawn) if g else 0,
        claimed=claimed,
        in_play=any(c.plays and not c.annulled for c in cartons),
        may_claim=any(c.plays and not c.annulled and not c.hold for c in cartons),
        share_with=share_with,
        share_lot=share_lot,
    )


def _claimed(e: Evening, g: Game | None, player_id: str) -> bool:
    """Has this player a valid claim on the last number, for the stage it is judged on? Then
    a claim of theirs before the next number could win nothing more."""
    if g is None or g.status is GameStatus.FINISHED or not g.drawn:
        return False
    return any(
        c.player_id == player_id
        and c.number == g.last
        and c.stage == g.claim_stage
        and g.verdict_of(c) == Verdict.VALID
        and _claim_is_current(e, g, c)
        for c in g.claims
    )


def _hold(e: Evening, g: Game | None, c: IssuedCarton, won: bool) -> str:
    """Why this carton's claim button waits for the next number ("": it may claim, as far
    as the last number goes). Its claim of the last number is in when the engine judged its
    unit on that number for the stage judged on it (the engine's own index of the claims it
    takes once, `Game.judged`); `won`: its player's valid claim of that number settled."""
    if g is None or g.status is GameStatus.FINISHED or not g.drawn or not e.plays(c.no, g):
        return ""
    if (g.claim_stage, g.last, e.units[c.unit]) in g.judged:
        return CLAIM_IN
    return JUST_WON if won else ""
