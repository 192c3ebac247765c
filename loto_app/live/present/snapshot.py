"""What everyone may see of an evening, as plain values: the board, the game, the stage, the
announcements and the public side of claims and ties. Pure: no Reflex, no database."""

from __future__ import annotations

import math
from typing import Any
from urllib.parse import parse_qs, urlparse

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, Game, GameStatus
from loto_app.domain.games import TIE_LABELS, TieRule
from loto_app.domain.patterns import RULES, Pattern
from loto_app.domain.program import KIND_LABELS, PATTERN_LABELS, Kind, TieMethod
from loto_app.domain.verdicts import Verdict
from loto_app.live.present.outcome import tie_lost, tie_lost_label
from loto_app.live.present.show import GameTimes, clock, show
from loto_app.live.present.typed_claims import HORS_LISTE, typed_cartons
from loto_app.live.present.views import kind_games

#: The claim button's word and the last call, in the word of the stage (`patterns.RULES`).
CLAIM_WORDS = {p: r.shout for p, r in RULES.items()}
LAST_CALL_WORDS = {p: r.last_call for p, r in RULES.items()}

#: Public verdict labels (what the hall hears).
#: what settles an ex aequo, said after it on the hall screen and the tablet, when the game
#: has a tie rule of its own (the evening's rule is said by what the animateur does next)
TIE_NEXT = {
    TieRule.DRAW: " Départage\u00a0: tirage au sort des jetons.",
    TieRule.SHARE: " Le lot est partagé entre eux.",
    TieRule.EACH: " Chacun gagne un lot identique.",
    TieRule.SUDDEN_DEATH: " Départage par mort subite\u00a0: des boules en plus, une à la fois.",
}

#: after the names of an award between ex aequo: a lot each, or the lot shared
AWARD_TAILS = {"each": ", un lot chacun", "share": ", lot partagé"}

HALL_VERDICTS = {
    Verdict.VALID: "Annonce valide",
    Verdict.FALSE: "Fausse annonce : carton annulé pour la partie",
    Verdict.LATE: "Tour passé",
    Verdict.WRONG_SERIES: "Carton d'une autre série",
    Verdict.NOT_IN_GAME: "Carton hors partie",
    Verdict.ANNULLED: "Carton déjà annulé",
    Verdict.AFTER_AWARD: "Valide après l'attribution : réclamation",
}

#: What a decision of the association did (art. 8), as the hall and the report say it.
DECISION_WORDS = {
    "carton_reinstated": "carton rétabli",
    "verdict_overturned": "verdict changé",
    "lot_given": "lot donné",
    "consolation_given": "consolation donnée",
    "award_withdrawn": "lot retiré",
}
DECIDER_WORDS = {"animateur": "l'animateur", "organisateur": "l'organisateur"}


def claim_word(e: Evening) -> str:
    """The word on the claim button: the stage a claim is for now. After an award it says the
    next stage at once (docs/RULES.md, Claims: a claim before the next number is still judged
    on the stage in play when the last number came out, whatever the button says); "" once every
    lot of the game is awarded (nothing left to claim). Before a game, its first stage."""
    g = e.game
    if g is None or g.status is GameStatus.FINISHED:
        nxt = e.next_game_index()
        if nxt >= len(e.program.games):
            return ""
        return _shout(e.program.games[nxt].stages[0].pattern)
    if g.stage >= len(g.spec.stages):
        return ""
    return _shout(g.spec.stages[g.stage].pattern)


def _shout(pattern: Pattern) -> str:
    """ "QUINE !"; "" for a stage nobody claims (the inversée: the server finds the winner)."""
    word = CLAIM_WORDS[pattern]
    return f"{word}\u202f!" if word else ""


def decision_text(e: Evening, d: ev.Event) -> str:
    """One decision of the association, in French (who, what, why)."""
    by = DECIDER_WORDS.get(getattr(d, "by", ""), "l'association")
    reason = getattr(d, "reason", "")
    match d:
        case ev.CartonReinstated():
            what = f"le carton {e.carton_label(d.carton_no)} ({_name(e, d.player_id)}) est rétabli"
        case ev.VerdictOverturned():
            claim = e.games[d.game].claim(d.claim_no)
            who = _name(e, claim.player_id if claim else None)
            new = "valide" if d.verdict == Verdict.VALID else "fausse"
            what = f"l'annonce n° {d.claim_no} de {who} est jugée {new}"
        case ev.LotGiven():
            lot = e.program.games[d.game].stages[d.stage].lot.description
            what = f"{lot} donné à {_name(e, d.player_id)} (ticket n° {d.ticket_no})"
        case ev.ConsolationGiven():
            what = f"une consolation pour {_name(e, d.player_id)}"
        case ev.AwardWithdrawn():
            what = f"le ticket n° {d.ticket_no} de {_name(e, d.player_id)} est annulé"
        case _:
            what = "décision"
    return f"Décision de {by} : {what}. Motif : {reason}"


def _numbered(e: Evening, carton_no: int) -> str:
    """« n° 12 » for the app's carton, « ROUGE n° 347 » for an own série's."""
    label = e.carton_label(carton_no)
    return label if label != str(carton_no) else f"n° {carton_no}"


def _name(e: Evening, player_id: str | None) -> str:
    return e.players.get(player_id or "", "Carton papier")


def _status(e: Evening) -> str:
    g = e.game
    if e.closed is not None or e.is_over:
        return "over"
    if g is None:
        return "waiting"
    return g.status.value


#: Said wherever the draw is shown, when the physical boulier draws (nothing is committed).
PHYSICAL_NOTE = "Boulier manuel : rien n'est engagé à l'avance, les boules tirées font foi."


def draw_public(e: Evening, g: Game | None) -> dict[str, Any]:
    """The game's commitment as everyone sees it (never its seed while it is played): the
    hall screen and the phones show it short before the first number; once the game is over
    and its seed revealed, where to check it."""
    c = g.commitment if g is not None else None
    if c is None:
        physical = e.program.settings.draw_source.value == "physical"
        note = PHYSICAL_NOTE if g is not None and physical else ""
        return {"commitment": "", "commitment_short": "", "draw_revealed": False, "draw_note": note}
    revealed = bool(g and g.revealed)
    note = (
        f"Partie {c.game + 1} terminée : son tirage se vérifie sur la page « vérifier »."
        if revealed
        else "Tirage engagé avant le premier numéro, vérifiable à la fin de la partie."
    )
    return {
        "commitment": c.commitment,
        "commitment_short": draws.short(c.commitment),
        "draw_revealed": revealed,
        "draw_note": note,
    }


def _announcement(e: Evening, g: Game | None) -> tuple[str, str]:
    """(text, kind) of the latest thing the hall must hear."""
    if e.closed is not None:
        return "La soirée est close. Merci à tous et à bientôt\u202f!", "winner"
    if e.pause is not None:  # (the phones say it; the hall screen shows the entracte's scene)
        back = clock(e.pause.returns_at)
        return f"Entracte : {e.pause.message} — reprise à {back}.", "info"
    if g is None:
        return "La partie va bientôt commencer.", "info"
    if e.is_over:
        return "La soirée est terminée. Merci à tous et à bientôt !", "winner"
    for x in reversed(e.history):
        match x:
            case ev.NumberDrawn() | ev.DrawCorrected():
                st = g.stage_spec
                if st is None:
                    return "", "info"
                if isinstance(x, ev.DrawCorrected):
                    return f"Correction : le {x.old} est remplacé par le {x.new}.", "info"
                gone = g.lapsed[-1] if g.lapsed else None
                if gone is not None and gone.why == "within":
                    within = g.spec.stages[gone.stage].within
                    if len(g.drawn) == within + 1:  # the first number after the jackpot's
                        return (
                            f"Jackpot non gagné en {within} numéros\u00a0: on joue maintenant "
                            f"pour {st.lot.description}.",
                            "info",
                        )
                return f"{st.label} en jeu : {st.lot.description}", "info"
            case ev.ClaimMade() if x.game == g.index and x.via == "server":
                n = len(g.entries()) if x.stage == g.stage else 1
                if n > 1:
                    return (
                        f"Ex aequo\u00a0: les {n} derniers cartons sont éliminés par le "
                        f"{x.number}." + TIE_NEXT.get(g.spec.tie, ""),
                        "tie",
                    )
                return (
                    f"Dernier carton en jeu\u00a0: {_name(e, x.player_id)} "
                    f"(carton {e.carton_label(x.carton_no)}) gagne\u202f!",
                    "check",
                )
            case ev.ClaimMade() if x.game == g.index:
                who = _name(e, x.player_id)
                ct = f"carton {e.carton_label(x.carton_no)}" if x.unit_nos else HORS_LISTE
                stage = g.spec.stages[x.stage]
                word = CLAIM_WORDS[stage.pattern]
                if x.verdict == Verdict.VALID:
                    n = len(g.entries()) if x.stage == g.stage else 1
                    if n > 1:
                        text = f"{word} ! Ex aequo : {n} gagnants sur le {x.number}."
                        return text + TIE_NEXT.get(g.spec.tie, ""), "tie"
                    return f"{word} ! {who} ({ct}) : annonce valide.", "check"
                if x.verdict == Verdict.FALSE:
                    return (
                        f"Fausse annonce de {who} : le {ct} est annulé "
                        "pour cette partie. On continue !",
                        "false",
                    )
                if x.verdict == Verdict.AFTER_AWARD:
                    return (
                        f"{word} ? {who} ({ct}) : valide, mais après "
                        "l'attribution du lot. Réclamation transmise à l'association.",
                        "check",
                    )
                return f"{word} ? {who} : {HALL_VERDICTS[Verdict(x.verdict)]}.", "info"
            case (
                ev.LastCallOpened()
                | ev.LastCallClosed()
                | ev.VoucherIssued()
                | ev.DrawCommitted()
                | ev.DrawRevealed()
            ):
                continue  # (the claim before it, the tie-break or the game's start says it)
            case (
                ev.CartonReinstated()
                | ev.VerdictOverturned()
                | ev.LotGiven()
                | ev.ConsolationGiven()
                | ev.AwardWithdrawn()
            ):
                return decision_text(e, x), "info"
            case ev.ShareOffered():
                names = " et ".join(_name(e, p) for p in x.players)
                return f"Ex aequo : partage proposé à {names}.", "tie"
            case ev.ShareAnswered():
                if not x.accepted:
                    return f"{_name(e, x.player_id)} refuse le partage : tirage au sort.", "tie"
                continue
            case ev.StageLapsed():
                if x.why != "within" or x.game != g.index:
                    continue  # (the award before it says it)
                lapsed = g.spec.stages[x.stage]
                nxt = g.stage_spec
                then = (
                    f"on joue maintenant pour {nxt.lot.description}."
                    if nxt is not None
                    else "la partie est terminée."
                )
                return (
                    f"Jackpot non gagné en {lapsed.within} numéros\u00a0: {then}",
                    "info",
                )
            case ev.SuddenDeathBall():
                if len(x.left) == 1:
                    continue  # (the tie broken says who won)
                names = ", ".join(_name(e, p) for p in x.left)
                return (
                    f"Mort subite, boule en plus\u00a0: le {x.number}. Encore en lice\u00a0: "
                    f"{names}.",
                    "tie",
                )
            case ev.TieBroken():
                if x.method == "sudden":
                    balls = [b.number for b in g.tie.sudden]
                    won = f" avec le {balls[-1]}" if balls else ""
                    text = f"Mort subite\u00a0: {_name(e, x.winners[0])} gagne{won}\u202f!"
                    if len(balls) > 1:
                        text += f" Boules en plus\u00a0: {', '.join(map(str, balls))}."
                    return text, "tie"
                if x.method == "each":
                    names = " et ".join(_name(e, p) for p in x.winners)
                    return f"Ex aequo\u00a0: un lot identique pour {names}.", "winner"
                if x.method == "share" and len(x.winners) > 2:
                    lot = g.spec.stages[x.stage].lot.description if x.game == g.index else "Lot"
                    names = ", ".join(_name(e, p) for p in x.winners)
                    return f"Lot partagé en {len(x.winners)}\u00a0: {lot} — {names}.", "winner"
                if x.method == "share":
                    lot = g.spec.stages[x.stage].lot.description if x.game == g.index else "Lot"
                    halves = ", ".join(f"moitié pour {_name(e, p)}" for p in x.winners)
                    return f"Lot partagé : {lot} — {halves}.", "winner"
                tokens = ", ".join(f"{_name(e, p)} : {t}" for p, t in x.tokens)
                how = "Jetons tirés du sac" if x.source == "bag" else "Tirage des jetons"
                return f"{how} — {tokens}. {_name(e, x.winners[0])} gagne !", "tie"
            case ev.StageAwarded():
                stage = g.spec.stages[x.stage]
                names = " et ".join(_name(e, t.player_id) for t in ev.issued_tickets(x))
                # between ex aequo: a lot each, or one lot shared (the hall must not guess)
                broke = [t.method for t in e.games[x.game].tie_breaks if t.stage == x.stage]
                tail = AWARD_TAILS.get(broke[-1], "") if broke else ""
                text = f"{stage.label} : {stage.lot.description} pour {names}{tail} !"
                if g.status is GameStatus.AWAITING_UNMARK and x.game == g.index:
                    text += " Partie terminée."
                return text, "winner"
            case ev.UnmarkAllowed():
                return "Vous pouvez démarquer !", "unmark"
            case ev.GameStarted():
                return f"Partie {x.game + 1} : {e.program.games[x.game].label}", "info"
            case _:
                continue
    return "", "info"


def embed_url(url: str) -> str:
    """A live-stream link as an embeddable address (YouTube watch/short links -> embed)."""
    if not url:
        return ""
    parsed = urlparse(url)
    host = parsed.netloc.lower().removeprefix("www.").removeprefix("m.")
    video = ""
    if host == "youtube.com" and parsed.path == "/watch":
        video = parse_qs(parsed.query).get("v", [""])[0]
    elif host == "youtube.com" and parsed.path.startswith(("/live/", "/shorts/")):
        video = parsed.path.split("/")[2]
    elif host == "youtu.be":
        video = parsed.path.lstrip("/")
    if video and video.replace("-", "").replace("_", "").isalnum():
        return f"https://www.youtube-nocookie.com/embed/{video}?autoplay=1&mute=1"
    return url


#: Below this average gap between draws the pace tells the hall nothing (a burst of balls
#: typed in, a catch-up): the screen shows no pace.
STEADY_PACE_SECONDS = 5


def rhythm(times: list[float]) -> str:
    """The pace of the draw as the hall says it, from the last draws' times: 'Environ un
    numéro toutes les 20 secondes'; '' until there is a steady pace to tell."""
    recent = times[-6:]
    if len(recent) < 2:
        return ""
    gap = (recent[-1] - recent[0]) / (len(recent) - 1)
    if gap < STEADY_PACE_SECONDS - 0.5:
        return ""
    if gap >= 100:
        return f"Environ un numéro toutes les {max(2, math.floor(gap / 60 + 0.5))} minutes"
    seconds = round(gap) if gap < 10 else 5 * math.floor(gap / 5 + 0.5)  # "environ": to 5 s
    if seconds == 60:
        return "Environ un numéro par minute"
    return f"Environ un numéro toutes les {seconds} secondes"


#: Verdicts of a claim checked on its grid: the hall sees that carton read back.
READ_BACK = (Verdict.VALID, Verdict.FALSE, Verdict.LATE, Verdict.AFTER_AWARD)


def readback(e: Evening, g: Game | None) -> dict[str, Any]:
    """The contrôle of the latest claim checked on the last number (seed 002): the claimed
    carton(s) as a grid for the tablet and the hall screen, the winning line(s) and the last
    number marked. Only a claimed carton becomes public, as in a real hall; nothing once the
    next number is out."""
    off: dict[str, Any] = {
        "readback_on": False,
        "readback_cartons": [],
        "readback_labels": [],
        "readback_cols": 9,
    }
    if g is None or g.status is GameStatus.FINISHED or not g.drawn:
        return {**off, "readback_title": "", "readback_caption": "", "readback_kind": ""}
    claim = next(
        (c for c in reversed(g.claims) if c.number == g.last and c.verdict in READ_BACK), None
    )
    if claim is None:
        return {**off, "readback_title": "", "readback_caption": "", "readback_kind": ""}
    return claim_readback(e, g, claim, ties=True)


def claim_readback(
    e: Evening, g: Game, claim: ev.ClaimMade, *, ties: bool = False
) -> dict[str, Any]:
    """The read-back of one claim of game `g` (the hall's, or a controller's at the table);
    `ties`: a valid claim shows every valid claim on its number and stage (an ex aequo)."""
    stage = g.spec.stages[claim.stage]
    verdict = Verdict(g.verdict_of(claim))
    # an ex aequo: every valid claim on this number for this stage, each carton read back
    tied = [claim]
    if ties and verdict is Verdict.VALID:
        tied = [
            c
            for c in g.claims
            if c.number == claim.number
            and c.stage == claim.stage
            and g.verdict_of(c) == Verdict.VALID
        ]
    drawn = set(g.drawn)
    cartons, labels = [], []
    for c in tied:
        win = set(c.winning)
        if not c.unit_nos:  # a carton in no list: the lines typed
            for grid in typed_cartons(e, g, c):
                cartons.append(grid)
                labels.append(f"{_name(e, c.player_id)} — {HORS_LISTE}" if len(tied) > 1 else "")
        for no in c.unit_nos:
            cartons.append(
                [
                    {
                        "n": n or 0,
                        "drawn": bool(n and n in drawn),
                        "win": bool(n and n in win),
                        "last": n == claim.number,
                    }
                    for row in e.cartons[no].carton.grid
                    for n in row
                ]
            )
            labels.append(
                f"{_name(e, c.player_id)} — carton {_numbered(e, no)}" if len(tied) > 1 else ""
            )
    if len(tied) > 1:
        names = " et ".join(dict.fromkeys(_name(e, c.player_id) for c in tied))
        # (several winning cartons of one player are no ex aequo: one entry per player)
        tie = "ex aequo : " if len({c.player_id for c in tied}) > 1 else ""
        return {
            "readback_on": True,
            "readback_title": f"Contrôle — {tie}{len(tied)} cartons gagnants",
            "readback_caption": f"{names} — {stage.label} sur le {claim.number} : "
            + "annonces valides",
            "readback_kind": "winner",
            "readback_cartons": cartons,
            "readback_labels": labels,
            "readback_cols": 5 if g.spec.kind is Kind.MAXIQUINE else 9,
        }
    paper = claim.via == "desk" or e.origins.get(claim.player_id or "") == "paper"
    who = _name(e, claim.player_id)
    return {
        "readback_on": True,
        "readback_labels": labels,
        "readback_title": f"Contrôle — {HORS_LISTE}"
        if not claim.unit_nos
        else f"Contrôle — carton {_numbered(e, claim.carton_no)}"
        + (" (carton papier)" if paper and claim.player_id else ""),
        "readback_caption": f"{who} — {stage.label} sur le {claim.number} : "
        + HALL_VERDICTS[verdict],
        "readback_kind": {
            Verdict.VALID: "winner",
            Verdict.FALSE: "false",
            Verdict.AFTER_AWARD: "check",
        }.get(verdict, "info"),
        "readback_cartons": cartons,
        "readback_cols": 5 if g.spec.kind is Kind.MAXIQUINE else 9,
    }


def tie_key(g: Game) -> str:
    """Which tie the animateur's form was filled for: game, stage and the tied claims (a form
    sent for another tie is refused instead of giving tokens to the wrong players)."""
    claims = [
        c.claim_no
        for c in g.stage_claims()
        if c.player_id in g.entries() and g.verdict_of(c) == Verdict.VALID
    ]
    return f"{g.index}-{g.stage}-" + ".".join(map(str, claims))


def _claim_rows(e: Evening, g: Game) -> list[dict[str, Any]]:
    """The latest claims for the tablet, newest first, with their verdict now (a decision may
    have changed it) and what a decision may still do about them."""
    rows = []
    for c in reversed(g.claims[-12:]):
        stage = g.spec.stages[c.stage]
        verdict = Verdict(g.verdict_of(c))
        unit = e.cartons[c.carton_no].unit if c.carton_no in e.cartons else 0
        # a valid claim whose ex aequo the tokens settled against its player: says so, with
        # the consolation the engine gave
        lost = tie_lost(e, g, c.stage, c.player_id) if verdict is Verdict.VALID else None
        rows.append(
            {
                "no": c.claim_no,
                "name": _name(e, c.player_id),
                "carton": e.carton_label(c.carton_no) if c.unit_nos else "hors liste",
                "number": c.number or 0,
                "stage": stage.label,
                "verdict": verdict.value,
                "label": HALL_VERDICTS[verdict] if lost is None else tie_lost_label(lost),
                "tie_lost": lost is not None,
                "overturned": c.claim_no in g.overturned,
                # what the "Réclamation / litige" form offers for this claim
                "disputable": c.player_id is not None,
                "annulled": unit in g.annulled,
            }
        )
    return rows


def public_snapshot(
    e: Evening,
    name: str,
    join_code: str,
    drawn_at: dict[int, list[float]] | None = None,
    game_times: GameTimes | None = None,
    rehearsal: bool = False,
) -> dict[str, Any]:
    """Everything the hall screen, the animateur and every phone may see (the hall screen's
    scenes around the draw: `show.show`); `rehearsal`: the evening is a rehearsal's copy
    (domain/rehearsal.py), which every screen says in a banner."""
    g = e.game
    st = g.stage_spec if g else None
    text, kind = _announcement(e, g)
    claims: list[dict[str, Any]] = []
    tie_tokens: list[dict[str, Any]] = []
    if g is not None:
        claims = _claim_rows(e, g)
        if g.tie.broken is not None:
            tie_tokens = [{"name": _name(e, p), "token": t} for p, t in g.tie.broken.tokens]
    entries = list(g.entries()) if g else []
    running = bool(g and g.status is GameStatus.RUNNING)
    settings = e.program.settings
    lc = g.last_call if g else None
    tie_open = bool(g and len(entries) > 1 and not g.tie.broken)
    word = claim_word(e)
    # the game's tie rule (its own, or the evening's: EVENING is "share offered, else tokens")
    rule = e.tie_rule(g) if g else TieRule.EVENING
    balls_left = bool(g and e.sudden_balls_left(g))
    sudden = rule is TieRule.SUDDEN_DEATH and balls_left
    share_first = bool(
        tie_open
        and g
        and st
        and len(entries) == 2
        and st.lot.divisible
        and rule is TieRule.EVENING
        and settings.tie_method is TieMethod.SHARE_OR_DRAW
    )
    inversee = bool(g and not g.spec.game_type.claimed)
    # the tied players, in entry order (the animateur types their tokens, or the answer of a
    # paper player, against this order; `tie_key` makes sure it did not change meanwhile)
    tied = [
        {
            "index": i,
            "name": _name(e, p),
            "paper": e.origins.get(p) == "paper",
            "answered": bool(g and p in g.tie.answers),
            "offered": bool(g and p in g.tie.share_offered_to),
        }
        for i, p in enumerate(entries)
    ]
    return {
        **show(e, game_times),
        **readback(e, g),
        **draw_public(e, g),
        "closed": e.closed is not None,
        "last_call": lc is not None,
        "last_call_text": LAST_CALL_WORDS[g.spec.stages[lc.stage].pattern] if g and lc else "",
        "last_call_seconds": lc.seconds if lc else settings.last_call_seconds,
        "last_call_key": f"{lc.game}-{lc.stage}-{lc.number}" if lc else "",
        "token_source": settings.token_source.value,  # type: ignore[union-attr]
        "tied": tied,
        "tie_key": tie_key(g) if g else "",
        # a token draw may settle the tie now: after the last call, and the share asked first
        # (and refused) when two are tied on a divisible lot
        "draw_allowed": bool(
            tie_open
            and lc is None
            and rule in (TieRule.EVENING, TieRule.DRAW, TieRule.SUDDEN_DEATH)
            and not sudden
            and (not share_first or (g and g.tie.share_refused))
        ),
        "share_first": share_first and not bool(g and g.tie.share_refused),
        # a game settled by extra balls among the tied (mort subite): one ball a tap
        "sudden_allowed": bool(tie_open and lc is None and sudden),
        "sudden_balls": [b.number for b in g.tie.sudden] if g else [],
        "sudden_left": [_name(e, p) for p in g.tie.sudden[-1].left] if g and g.tie.sudden else [],
        # the game's own rule gives each a lot, or shares it: awarded at once
        "award_allowed": bool(
            entries and lc is None and (not tie_open or rule in (TieRule.EACH, TieRule.SHARE))
        ),
        "tie_rule": rule.value,
        "tie_rule_label": TIE_LABELS[rule] if g and g.spec.tie is not TieRule.EVENING else "",
        "game_type": g.spec.game_type.label if g else "",
        # the partie inversée: the cartons still in play (nobody claims)
        "inversee": inversee,
        "standing": len(e.standing(g)) if g and inversee else 0,
        # the jackpot en N numéros: the numbers it may still be won in
        "jackpot_within": st.within if st else 0,
        "jackpot_left": max(0, st.within - len(g.drawn)) if g and st and st.within else 0,
        "reclamations": sum(1 for c in claims if c["verdict"] == Verdict.AFTER_AWARD.value),
        "decisions": [decision_text(e, d) for d in reversed(e.decisions[-6:])],
        "paper_share": [t for t in tied if t["paper"] and t["offered"] and not t["answered"]],
        "claim_stage_label": g.spec.stages[g.claim_stage].label
        if g and g.drawn and g.claim_stage < len(g.spec.stages)
        else "",
        "evening_name": name,
        "rehearsal": rehearsal,
        "join_code": join_code,
        "series": e.program.series,
        "status": _status(e),
        "game_no": g.index + 1 if g else 0,
        "games_total": len(e.program.games),
        "game_label": g.spec.label if g else "",
        "game_kind": KIND_LABELS[g.spec.kind] if g else "",
        "stage_label": st.label if st else "",
        "lot_label": st.lot.description if st else "",
        "claim_word": word,
        "claim_confirm": f"Confirmer : {word.removesuffix(' !')} ?" if word else "",
        "drawn": list(g.drawn) if g else [],
        "last": g.last or 0 if g else 0,
        "count": len(g.drawn) if g else 0,
        # a claim refers to the last number until the next one, award or not; the phones
        # invite it while a stage is left to play (the desk still takes a réclamation after
        # the last award: `Evening.claim`); nothing once the evening is closed
        "claim_open": bool(running and g and g.drawn and e.closed is None),
        "can_draw": e.can_draw(),
        "can_correct": e.can_correct(),
        "unmark_allowed": bool(g and g.status is GameStatus.FINISHED),
        # every lot awarded, or all 90 numbers out with no valid claim: the game can end
        "awaiting_unmark": bool(
            g
            and (
                g.status is GameStatus.AWAITING_UNMARK
                or (running and len(g.drawn) == 90 and not g.entries())
            )
        ),
        "can_start": bool(
            (g is None or g.status is GameStatus.FINISHED) and not e.is_over and e.closed is None
        ),
        "entries": [_name(e, p) for p in entries],
        "tie": len(entries) > 1 and not (g and g.tie.broken),
        "share_possible": bool(
            g
            and st
            and len(entries) == 2
            and st.lot.divisible
            and not g.tie.closed
            and lc is None
            and rule is TieRule.EVENING
            and e.program.settings.tie_method.value == "share_or_draw"
        ),
        "share_pending": bool(
            g and g.tie.share_offered_to and not g.tie.broken and not g.tie.share_refused
        ),
        "tie_tokens": tie_tokens,
        "claims": claims,
        "announcement": text,
        "announcement_kind": kind,
        "players": len(e.players),
        "auto_marking": e.program.settings.auto_marking,
        "physical": e.program.settings.draw_source.value == "physical",
        "patterns": [PATTERN_LABELS[s.pattern] for s in g.spec.stages] if g else [],
        "pattern": st.pattern.value if st else "",
        "claim_hint": e.program.settings.claim_hint,
        "last_five": list(reversed(g.drawn[-6:-1])) if g else [],
        # the phones' "Les derniers numéros" (newest first, the last one included)
        "recent": list(reversed(g.drawn[-10:])) if g else [],
        "one_to_go": settings.one_to_go,
        "free_cartons": settings.free_cartons,
        "kind_games": kind_games(e),
        # the pace while numbers are drawn; a finished game's pace is no news to the hall
        "rhythm": rhythm((drawn_at or {}).get(g.index, [])) if g and running else "",
        "stream_url": embed_url(e.program.settings.stream_url),
    }
