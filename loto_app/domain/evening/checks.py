"""Argument checks shared by the moves: a phone is an untrusted client."""

from __future__ import annotations

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.cartons import (
    Carton,
)
from loto_app.domain.evening.state import BALLS, DECIDERS, MAX_DECISION_REASON, MAX_NAME
from loto_app.domain.program import (
    Kind,
)
from loto_app.domain.till import (
    MAX_STAFF_NAME,
)

# ---------------------------------------------------------------------- argument checks


def lot_key(description: object) -> str:
    """A lot's description as lot photos are keyed: spaces collapsed, case folded (a lot's
    photo follows its description, whichever games play it)."""
    return " ".join(description.split()).casefold() if isinstance(description, str) else ""


def check_digest(digest: object) -> str:
    """A picture's digest: 64 lowercase hexadecimal digits (SHA-256)."""
    if (
        not isinstance(digest, str)
        or len(digest) != 64
        or any(c not in "0123456789abcdef" for c in digest)
    ):
        raise err.InvalidArgument(f"picture digest {digest!r:.70}", "Image inconnue.")
    return digest


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_ball(number: object) -> int:
    if not is_int(number) or number not in BALLS:
        raise err.InvalidNumber(f"ball number {number!r} not an integer in 1..90")
    return number  # type: ignore[return-value]


def check_kind(kind: object) -> Kind:
    try:
        return Kind(kind)
    except ValueError as exc:
        raise err.InvalidSale(f"unknown carton kind {kind!r}", "Type de carton inconnu.") from exc


def check_decision(by: object, reason: object) -> tuple[str, str]:
    """Who decided (the animateur or the organiser) and their written reason, cleaned."""
    if by not in DECIDERS:
        raise err.InvalidArgument(
            f"decision by {by!r:.20}", "Décision de l'animateur ou de l'organisateur."
        )
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_DECISION_REASON:
        raise err.InvalidArgument(
            f"decision reason {reason!r:.40}",
            f"Écrivez le motif de la décision ({MAX_DECISION_REASON} caractères au plus).",
        )
    return str(by), " ".join(reason.split())


def check_staff_name(name: object) -> str:
    if not isinstance(name, str) or not (1 <= len(name.strip()) <= MAX_STAFF_NAME):
        raise err.InvalidArgument(f"staff name {name!r:.40}", "Nom du vendeur manquant.")
    return " ".join(name.split())


def clean_name(name: object) -> str:
    if not isinstance(name, str):
        raise err.InvalidName(f"name {name!r} is not a string")
    clean = " ".join(name.split())
    if not (1 <= len(clean) <= MAX_NAME) or not clean.isprintable():
        raise err.InvalidName(f"name {name!r} must have 1-{MAX_NAME} printable characters")
    return clean


def rows_of(c: Carton) -> ev.Rows:
    return tuple(tuple(r) for r in c.grid)
