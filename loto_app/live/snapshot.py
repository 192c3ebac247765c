"""What everyone may see of an evening, as plain values: the board, the game, the stage, the
announcements and the public side of claims and ties. Pure: no Reflex, no database."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, Game, GameStatus
from loto_app.domain.program import KIND_LABELS, PATTERN_LABELS, Pattern
from loto_app.domain.verdicts import Verdict

CLAIM_WORDS = {
    Pattern.ONE_LINE: "QUINE",
    Pattern.TWO_LINES: "DOUBLE QUINE",
    Pattern.FULL_CARD: "CARTON PLEIN",
    Pattern.ONE_CARD: "CARTON",
    Pattern.TWO_CARDS: "DEUX CARTONS",
    Pattern.THREE_CARDS: "TROIS CARTONS",
    Pattern.DIAGONAL: "DIAGONALE",
}

#: Public verdict labels (what the hall hears).
HALL_VERDICTS = {
    Verdict.VALID: "Annonce valide",
    Verdict.FALSE: "Fausse annonce : carton annulé pour la partie",
    Verdict.LATE: "Tour passé",
    Verdict.WRONG_SERIES: "Carton d'une autre série",
    Verdict.NOT_IN_GAME: "Carton hors partie",
    Verdict.ANNULLED: "Carton déjà annulé",
}


def claim_word(e: Evening) -> str:
    """The word on the claim button for the stage in play ("QUINE !")."""
    g = e.game
    st = g.stage_spec if g else None
    return f"{CLAIM_WORDS[st.pattern]} !" if st else "QUINE !"


def _name(e: Evening, player_id: str | None) -> str:
    return e.players.get(player_id or "", "Carton papier")


def _status(e: Evening) -> str:
    g = e.game
    if g is None:
        return "waiting"
    if e.is_over:
        return "over"
    return g.status.value


def _announcement(e: Evening, g: Game | None) -> tuple[str, str]:
    """(text, kind) of the latest thing the hall must hear."""
    if g is None:
        return "La partie va bientôt commencer.", "info"
    if e.is_over:
        return "La soirée est terminée. Merci à tous et à bientôt !", "winner"
    for x in reversed(e.history):
        match x:
            case ev.NumberDrawn() | ev.DrawCorrected():
                st = g.stage_spec
                if st is None:
                    return "", "info"
                if isinstance(x, ev.DrawCorrected):
                    return f"Correction : le {x.old} est remplacé par le {x.new}.", "info"
                return f"{st.label} en jeu : {st.lot.description}", "info"
            case ev.ClaimMade() if x.game == g.index:
                who = _name(e, x.player_id)
                stage = g.spec.stages[x.stage]
                word = CLAIM_WORDS[stage.pattern]
                if x.verdict == Verdict.VALID:
                    n = len(g.entries()) if x.stage == g.stage else 1
                    if n > 1:
                        return f"{word} ! Ex aequo : {n} gagnants sur le {x.number}.", "tie"
                    return f"{word} ! {who} (carton {x.carton_no}) : annonce valide.", "check"
                if x.verdict == Verdict.FALSE:
                    return (
                        f"Fausse annonce de {who} : le carton {x.carton_no} est annulé "
                        "pour cette partie. On continue !",
                        "false",
                    )
                return f"{word} ? {who} : {HALL_VERDICTS[Verdict(x.verdict)]}.", "info"
            case ev.ShareOffered():
                names = " et ".join(_name(e, p) for p in x.players)
                return f"Ex aequo : partage proposé à {names}.", "tie"
            case ev.ShareAnswered():
                if not x.accepted:
                    return f"{_name(e, x.player_id)} refuse le partage : tirage au sort.", "tie"
                continue
            case ev.TieBroken():
                if x.method == "share":
                    names = " et ".join(_name(e, p) for p in x.winners)
                    return f"Lot partagé entre {names}.", "winner"
                tokens = ", ".join(f"{_name(e, p)} : {t}" for p, t in x.tokens)
                return f"Tirage des jetons — {tokens}. {_name(e, x.winners[0])} gagne !", "tie"
            case ev.StageAwarded():
                stage = g.spec.stages[x.stage]
                names = " et ".join(_name(e, p) for _, p, _ in x.tickets)
                text = f"{stage.label} : {stage.lot.description} pour {names} !"
                if g.status is GameStatus.AWAITING_UNMARK and x.game == g.index:
                    text += " Partie terminée."
                return text, "winner"
            case ev.UnmarkAllowed():
                return "Vous pouvez démarquer !", "unmark"
            case ev.GameStarted():
                return f"Partie {x.game + 1} : {e.program.games[x.game].label}", "info"
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


def rhythm(times: list[float]) -> str:
    """The draw rhythm from the last draws' times: 'un numéro toutes les 12 s'."""
    recent = times[-6:]
    if len(recent) < 2:
        return ""
    gap = (recent[-1] - recent[0]) / (len(recent) - 1)
    if gap >= 90:
        minutes = round(gap / 60)
        return "un numéro par minute" if minutes <= 1 else f"un numéro toutes les {minutes} min"
    seconds = round(gap)
    return "un numéro par seconde" if seconds <= 1 else f"un numéro toutes les {seconds} s"


def public_snapshot(
    e: Evening, name: str, join_code: str, drawn_at: dict[int, list[float]] | None = None
) -> dict[str, Any]:
    """Everything the hall screen, the animateur and every phone may see."""
    g = e.game
    st = g.stage_spec if g else None
    text, kind = _announcement(e, g)
    claims: list[dict[str, Any]] = []
    tie_tokens: list[dict[str, Any]] = []
    if g is not None:
        for c in reversed(g.claims[-12:]):
            stage = g.spec.stages[c.stage]
            claims.append(
                {
                    "no": c.claim_no,
                    "name": _name(e, c.player_id),
                    "carton": c.carton_no,
                    "number": c.number or 0,
                    "stage": stage.label,
                    "verdict": c.verdict,
                    "label": HALL_VERDICTS[Verdict(c.verdict)],
                }
            )
        if g.tie.broken is not None:
            tie_tokens = [{"name": _name(e, p), "token": t} for p, t in g.tie.broken.tokens]
    entries = list(g.entries()) if g else []
    running = bool(g and g.status is GameStatus.RUNNING)
    return {
        "evening_name": name,
        "join_code": join_code,
        "series": e.program.series,
        "status": _status(e),
        "game_no": g.index + 1 if g else 0,
        "games_total": len(e.program.games),
        "game_label": g.spec.label if g else "",
        "game_kind": KIND_LABELS[g.spec.kind] if g else "",
        "stage_label": st.label if st else "",
        "lot_label": (st.lot.description + (" (divisible)" if st.lot.divisible else ""))
        if st
        else "",
        "claim_word": claim_word(e),
        "drawn": list(g.drawn) if g else [],
        "last": g.last or 0 if g else 0,
        "count": len(g.drawn) if g else 0,
        "claim_open": bool(running and g.drawn and not g.tie.closed),
        "can_draw": e.can_draw(),
        "unmark_allowed": bool(g and g.status is GameStatus.FINISHED),
        # every lot awarded, or all 90 numbers out with no valid claim: the game can end
        "awaiting_unmark": bool(
            g
            and (
                g.status is GameStatus.AWAITING_UNMARK
                or (running and len(g.drawn) == 90 and not g.entries())
            )
        ),
        "can_start": bool((g is None or g.status is GameStatus.FINISHED) and not e.is_over),
        "entries": [_name(e, p) for p in entries],
        "tie": len(entries) > 1 and not (g and g.tie.broken),
        "share_possible": bool(
            g
            and st
            and len(entries) == 2
            and st.lot.divisible
            and not g.tie.closed
            and e.program.settings.tie_method.value == "share_or_draw"
        ),
        "share_pending": bool(g and g.tie.share_offered_to and not g.tie.broken),
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
        "rhythm": rhythm((drawn_at or {}).get(g.index, [])) if g else "",
        "stream_url": embed_url(e.program.settings.stream_url),
    }
