"""The association's own cartons as the organiser gives them (`/organisation`): a CSV file, one
line a carton: its number, then its 15 numbers in reading order (row 1's five, row 2's five,
row 3's five), separated by `,` or `;` (as a spreadsheet exports them; a tab or spaces too), an
optional header line first; or one carton typed (its number, its 15 numbers). Untrusted input
read into checked values: each line's carton checked by the domain's rule
(`domain/own_cartons.grid_of`), a number given twice caught, every problem listed with its
line number (up to `MAX_ERRORS`). Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from loto_app.domain.cartons import CLASSIC_NUMBERS
from loto_app.domain.own_cartons import MAX_OWN_NO, BadOwnCarton, grid_of
from loto_app.limits import MAX_OWN_CSV_CHARS, MAX_OWN_CSV_LINES
from loto_app.live.input.guards import BadInput

#: problems listed (the others are counted)
MAX_ERRORS = 20
_FIELDS = CLASSIC_NUMBERS + 1
#: a file over the limit (the page's script says it too, before sending)
TOO_BIG = (
    f"Fichier trop gros ({MAX_OWN_CSV_CHARS // 1000}\u202f000 caractères, environ 600 cartons, "
    "au plus) : coupez-le en plusieurs fichiers"
)
_DIGITS = re.compile(r"^[0-9]{1,6}$")


@dataclass(frozen=True, slots=True)
class OwnLine:
    """One carton read: the file's line it was on, its number, its 15 numbers in reading
    order."""

    line: int
    no: int
    numbers: tuple[int, ...]


class BadOwnCsv(BadInput):
    """A file (or a typed carton) with problems: `problems` holds (line number, French
    reason) for each, `user_message` lists them."""

    def __init__(self, detail: str, problems: list[tuple[int, str]], total: int = 0) -> None:
        super().__init__(detail)
        self.problems = problems
        self.total = total or len(problems)
        self.user_message = say_problems(problems, self.total)


def say_problems(problems: list[tuple[int, str]], total: int) -> str:
    """The organiser's message: nothing registered, and each problem by its line."""
    listed = " ; ".join(
        f"ligne {line} : {why}" if line else why for line, why in problems[:MAX_ERRORS]
    )
    more = total - min(len(problems), MAX_ERRORS)
    tail = (
        f" (et {more} autre{'s' if more > 1 else ''} erreur{'s' if more > 1 else ''})"
        if more > 0
        else ""
    )
    n = total
    return (
        f"Rien n'est enregistré : {n} erreur{'s' if n > 1 else ''}. {listed}{tail}. "
        "Corrigez le fichier et importez-le de nouveau."
    )


def _fields(text: str) -> list[str]:
    """A line's values: split on `;`, else `,`, else a tab, else spaces; quotes and trailing
    empty values (a spreadsheet's) dropped."""
    for sep in (";", ",", "\t"):
        if sep in text:
            parts = text.split(sep)
            break
    else:
        parts = text.split()
    values = [p.strip().strip('"').strip() for p in parts]
    while values and not values[-1]:
        values.pop()
    return values


def _line(n: int, text: str) -> OwnLine:
    """One line read, or BadOwnCarton with why (French)."""
    values = _fields(text)
    if len(values) != _FIELDS:
        raise BadOwnCarton(
            f"{len(values)} values",
            f"{len(values)} valeur{'s' if len(values) > 1 else ''} au lieu de {_FIELDS} "
            "(le numéro du carton puis ses 15 numéros)",
        )
    for v in values:
        if not _DIGITS.match(v):
            raise BadOwnCarton(f"not a number {v!r:.12}", f"« {v[:12]} » n'est pas un nombre")
    no, *numbers = (int(v) for v in values)
    if not 1 <= no <= MAX_OWN_NO:
        raise BadOwnCarton(
            f"carton number {no}", f"le numéro de carton {no} n'est pas entre 1 et {MAX_OWN_NO}"
        )
    try:
        grid_of(numbers)
    except BadOwnCarton as exc:
        raise BadOwnCarton(str(exc), f"carton n° {no} : {exc.french}") from exc
    return OwnLine(n, no, tuple(numbers))


def _is_header(text: str) -> bool:
    values = _fields(text)
    return bool(values) and not _DIGITS.match(values[0])


def read_own_csv(text: object) -> list[OwnLine]:
    """Every carton of the file, in its order.

    Raises:
        BadOwnCsv: an empty or too big file, or any problem (each with its line number):
            nothing of the file is to be registered then.
    """
    if not isinstance(text, str):
        raise BadOwnCsv(f"csv {type(text).__name__}", [(0, "Fichier illisible")])
    if len(text) > MAX_OWN_CSV_CHARS:
        raise BadOwnCsv(
            f"csv of {len(text)} characters",
            [(0, TOO_BIG)],
        )
    lines = [(i, ln) for i, ln in enumerate(text.lstrip("\ufeff").splitlines(), 1) if ln.strip()]
    if lines and _is_header(lines[0][1]):
        lines = lines[1:]
    if not lines:
        raise BadOwnCsv("no carton", [(0, "Aucun carton dans le fichier")])
    if len(lines) > MAX_OWN_CSV_LINES:
        raise BadOwnCsv(
            f"{len(lines)} lines", [(0, f"Au plus {MAX_OWN_CSV_LINES} cartons par fichier")]
        )
    out: list[OwnLine] = []
    problems: list[tuple[int, str]] = []
    first_line: dict[int, int] = {}
    total = 0
    for n, ln in lines:
        try:
            own = _line(n, ln)
        except BadOwnCarton as exc:
            total += 1
            if len(problems) < MAX_ERRORS:
                problems.append((n, exc.french))
            continue
        if own.no in first_line:
            total += 1
            if len(problems) < MAX_ERRORS:
                problems.append(
                    (n, f"le carton n° {own.no} est déjà à la ligne {first_line[own.no]}")
                )
            continue
        first_line[own.no] = n
        out.append(own)
    if problems:
        raise BadOwnCsv(f"{total} bad lines, first {problems[0]!r}", problems, total)
    return out


def read_typed(no: object, numbers: object) -> OwnLine:
    """One carton typed: its number and its 15 numbers (spaces or commas between them).

    Raises:
        BadOwnCsv: what is wrong, as line 0 (no line to name).
    """
    if (
        not isinstance(no, str)
        or not isinstance(numbers, str)
        or len(numbers) > 200
        or len(no) > 10
    ):
        raise BadOwnCsv("typed carton", [(0, "Tapez le numéro du carton et ses 15 numéros")])
    text = " ".join([no.strip(), *numbers.replace(",", " ").replace(";", " ").split()])
    try:
        return _line(0, text)
    except BadOwnCarton as exc:
        raise BadOwnCsv(str(exc), [(0, exc.french[:1].upper() + exc.french[1:])]) from exc


def to_csv(cartons: list[tuple[int, tuple[int, ...]]], sep: str = ";", header: bool = True) -> str:
    """Cartons written as the import reads them (the tests' and the guide's example)."""
    head = [sep.join(["numero", *(f"n{i}" for i in range(1, _FIELDS))])] if header else []
    return "\n".join(head + [sep.join(map(str, (no, *nums))) for no, nums in cartons]) + "\n"


_RANGE = re.compile(r"^(\d{1,5})-(\d{1,5})$")
#: numbers one desk sale may name
MAX_SOLD = 108


def read_numbers(text: object) -> list[int]:
    """The own cartons' numbers the desk typed: '347', '347 348', '345-347' or '345 à 347',
    spaces, commas or semicolons between them.

    Raises:
        BadInput: anything else, or none, or more than a sale holds.
    """
    if not isinstance(text, str) or len(text) > 400:
        raise BadInput(f"own numbers {text!r:.30}")
    text = re.sub(r"\s*(?:-|à)\s*", "-", text.strip())
    out: list[int] = []
    for part in re.split(r"[,;\s]+", text):
        if not part:
            continue
        m = _RANGE.match(part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if not 1 <= lo <= hi <= MAX_OWN_NO or hi - lo >= MAX_SOLD:
                raise BadInput(f"own range {part!r:.20}")
            out += range(lo, hi + 1)
        elif _DIGITS.match(part) and 1 <= int(part) <= MAX_OWN_NO:
            out.append(int(part))
        else:
            raise BadInput(f"own number {part!r:.20}")
    if not 1 <= len(out) <= MAX_SOLD:
        raise BadInput(f"{len(out)} own numbers")
    return out
