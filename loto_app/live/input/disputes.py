"""The animateur's and the organiser's forms for ties and disputes, read into engine moves.

Pure: no Reflex, no database. A form is untrusted input (`BadInput` when it is not what the
page sends); the moves it becomes are the engine's, which decides what is allowed (art. 4, 5, 8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import MAX_DECISION_REASON, Evening
from loto_app.limits import MAX_CLAIM_NO, MAX_TICKET_NO
from loto_app.live.input.guards import BadInput, as_int, as_text
from loto_app.live.present.snapshot import tie_key

MAX_TIED = 9  # token fields on the form (a form holds 10 fields at most)

#: The decisions a claim's "Réclamation / litige" form offers, with their French names.
DECISIONS: dict[str, str] = {
    "reinstate": "Rétablir le carton (il rejoue dans la partie)",
    "valid": "Juger l'annonce valide",
    "false": "Juger l'annonce fausse (carton annulé pour la partie)",
    "lot": "Donner le lot au joueur (un ticket de lot)",
    "consolation": "Donner une consolation (carton offert)",
}


def _bad(detail: str, message: str) -> BadInput:
    exc = BadInput(detail)
    exc.user_message = message
    return exc


def read_tokens(data: dict[str, Any]) -> tuple[str, list[int]]:
    """The tokens form: the tie it was filled for and one token per tied player, in order."""
    key = as_text(data.get("tie", ""), "tie", 200)
    numbers = []
    for i in range(MAX_TIED):
        raw = data.get(f"token-{i}")
        if raw is None:
            break
        try:
            numbers.append(as_int(raw, 1, 90, f"token {i}"))
        except BadInput as exc:
            exc.user_message = "Chaque jeton est un numéro de 1 à 90."
            raise
    if not key or not numbers:
        raise _bad(f"tokens form without tie or tokens: {sorted(data)!r:.80}", "Tapez les jetons.")
    return key, numbers


def tokens_for(e: Evening, key: str, numbers: list[int]) -> dict[str, int]:
    """The typed tokens, by tied player (refused if the tie changed since the form was shown)."""
    g = e.game
    if g is None or tie_key(g) != key:
        raise err.InvalidTokens(
            f"tokens typed for tie {key!r:.40}, now {tie_key(g) if g else None!r}",
            "Les ex aequo ont changé : vérifiez la liste et tapez les jetons à nouveau.",
        )
    entries = g.entries()
    if len(numbers) != len(entries):
        raise err.InvalidTokens(f"{len(numbers)} tokens for {len(entries)} tied players")
    return dict(zip(entries, numbers, strict=True))


def _reason(data: dict[str, Any]) -> str:
    reason = as_text(data.get("reason", ""), "reason", MAX_DECISION_REASON + 20)
    if not reason:
        raise _bad("decision without a reason", "Écrivez le motif de la décision.")
    return reason


def read_decision(data: dict[str, Any]) -> tuple[int, str, str]:
    """A claim's decision form: the claim, the decision, the written reason."""
    try:
        claim_no = as_int(data.get("claim"), 1, MAX_CLAIM_NO, "claim")
    except BadInput as exc:
        exc.user_message = "Numéro d'annonce invalide."
        raise
    decision = data.get("decision")
    if not isinstance(decision, str) or decision not in DECISIONS:
        raise _bad(f"decision {decision!r:.30}", "Choisissez une décision.")
    return claim_no, decision, _reason(data)


def read_withdrawal(data: dict[str, Any]) -> tuple[int, str]:
    """The form that voids a lot ticket: its number and the reason."""
    try:
        ticket = as_int(data.get("ticket"), 1, MAX_TICKET_NO, "ticket")
    except BadInput as exc:
        exc.user_message = "Tapez le numéro du ticket de lot."
        raise
    return ticket, _reason(data)


def decision_move(
    claim_no: int, decision: str, by: str, reason: str
) -> Callable[[Evening], list[ev.Event]]:
    """The engine move a decision on a claim is."""

    def move(e: Evening) -> list[ev.Event]:
        if decision == "reinstate":
            g = e.game
            claim = g.claim(claim_no) if g is not None else None
            if claim is None:
                raise err.DisputeRefused(
                    f"no claim {claim_no} in the current game", "Annonce introuvable."
                )
            return e.reinstate_carton(claim.carton_no, by, reason)
        if decision in ("valid", "false"):
            return e.overturn(claim_no, decision, by, reason)
        if decision == "lot":
            return e.give_lot(claim_no, by, reason)
        return e.give_consolation(claim_no, by, reason)

    return move
