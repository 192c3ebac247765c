"""Argument checks for event handlers: a phone is an untrusted client that can send anything."""

from __future__ import annotations

import logging
from typing import Any

from loto_app.refusal import Refusal

log = logging.getLogger("loto_app.live")

MAX_TEXT = 64


class BadInput(Refusal, ValueError):
    """A handler argument that is not what the UI sends."""

    default_user_message = "Requête invalide."


def as_int(value: Any, lo: int, hi: int, what: str) -> int:
    """An int (or a string of digits, as HTML forms send) within [lo, hi]."""
    if (
        isinstance(value, str)
        and value.strip().isascii()
        and value.strip().isdigit()
        and (len(value.strip()) <= 6)
    ):  # (isdigit() alone lets "²" through, and int("²") raises)
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadInput(f"{what}: {value!r:.40} is not an integer in {lo}..{hi}")
    return value


def as_text(value: Any, what: str, max_len: int = MAX_TEXT) -> str:
    """A short string, stripped."""
    if not isinstance(value, str) or len(value) > max_len:
        raise BadInput(f"{what}: {value!r:.40} is not a string of at most {max_len} characters")
    return value.strip()


def as_bool(value: Any, what: str) -> bool:
    """A real boolean."""
    if not isinstance(value, bool):
        raise BadInput(f"{what}: {value!r:.40} is not a boolean")
    return value


def choice(value: Any, allowed: Any, what: str) -> str:
    """One of a few known strings (anything else, of any type, is refused)."""
    if not isinstance(value, str) or len(value) > 32 or value not in allowed:
        raise BadInput(f"{what}: {value!r:.40} is not one of {sorted(allowed)}")
    return value


def form(value: Any) -> dict[str, Any]:
    """A form submission: a dict of strings."""
    if not isinstance(value, dict) or len(value) > 10:
        raise BadInput(f"form data {value!r:.60} is not a small dict")
    return value


def refuse(who: str, handler: str, reason: object) -> None:
    """Log a refused call precisely (the user gets a short French message)."""
    log.warning("refused %s from %s: %s", handler, who, reason)
