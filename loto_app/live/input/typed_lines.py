"""The lines a contrôleur types for a carton in no list: one field a line, its numbers
separated by spaces, commas or semicolons ("5 12 23 47 81", "5, 12, 23, 47, 81"). Pure.

Only the reading is checked here (numbers, how many fields); what the lines must be for the
stage in play is the domain's rule (`domain/typed_lines.check_lines`)."""

from __future__ import annotations

import re

from loto_app.live.input.guards import BadInput, as_text

MAX_FIELDS = 9  # a vitrine's three cartons, three lines each
MAX_FIELD = 60  # characters of one field
_SEPARATORS = re.compile(r"[\s,;./\-]+")


class BadLines(BadInput):
    """Fields that are not lines of numbers, with what to tell the contrôleur."""

    def __init__(self, detail: str, message: str) -> None:
        super().__init__(detail)
        self.user_message = message


def read_typed_form(data: dict[str, object]) -> tuple[str, list[object]]:
    """The typed lines' form: the player's name if given (`name`), and the fields `line1`...
    as sent (`read_lines` reads them).

    Raises:
        BadInput: a name too long, or not text.
    """
    name = as_text(data.get("name", ""), "name", 60)
    return name, [data.get(f"line{i}", "") for i in range(1, MAX_FIELDS + 1)]


def read_lines(fields: object, needed: int) -> list[list[int]]:
    """The numbers of each of the first `needed` fields, in the order typed.

    Raises:
        BadLines: a field that is not numbers, an empty one, or too much text.
    """
    if not isinstance(fields, list | tuple) or not 1 <= needed <= MAX_FIELDS:
        raise BadLines(f"fields {fields!r:.40} for {needed}", "Requête invalide.")
    if len(fields) < needed:
        raise BadLines(f"{len(fields)} fields, {needed} needed", _lines_word(needed))
    out: list[list[int]] = []
    for i, text in enumerate(fields[:needed], 1):
        where = f"Ligne {i}" if needed > 1 else "La ligne"
        if not isinstance(text, str) or len(text) > MAX_FIELD:
            raise BadLines(f"line {i}: {text!r:.40}", f"{where}\u00a0: trop de texte.")
        words = [w for w in _SEPARATORS.split(text.strip()) if w]
        if not words:
            raise BadLines(f"line {i} empty", f"{where}\u00a0: tapez ses 5 numéros.")
        bad = next((w for w in words if not (w.isascii() and w.isdigit() and len(w) <= 2)), None)
        if bad is not None:
            raise BadLines(
                f"line {i}: {bad!r:.20}",
                f"{where}\u00a0: « {bad[:10]} » n'est pas un numéro de 1 à 90.",
            )
        out.append([int(w) for w in words])
    return out


def _lines_word(n: int) -> str:
    what = "la ligne" if n == 1 else f"les {n} lignes"
    return f"Tapez {what} de 5 numéros."
