"""The organiser registers the association's own cartons (domain/own_cartons.py): a CSV file
(its text read by the page, assets/own_csv.js, or pasted) or one carton typed, in an own série
named by the organiser. Nothing is registered from a file with a problem: every problem is
listed with its line. A substate of `OrganisationState`: every action needs the organiser's
sign-in, checked in the database."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import SINGLE_CLASSIC
from loto_app.domain.engine import Evening
from loto_app.domain.own_cartons import MAX_SERIES_NAME, OWN_BASE, printed_no
from loto_app.domain.program import KIND_LABELS
from loto_app.limits import MAX_OWN_CSV_CHARS
from loto_app.live.input.guards import BadInput, as_text, choice, form, refuse
from loto_app.live.input.own_cartons import (
    MAX_ERRORS,
    BadOwnCsv,
    OwnLine,
    read_own_csv,
    read_typed,
)
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.wording import plural

KINDS = tuple(k.value for k in SINGLE_CLASSIC)


def own_series_lines(e: Evening) -> list[str]:
    """Each own série: its name, kind, how many cartons and their numbers."""
    out = []
    for base, name in sorted(e.own_series.items()):
        nos = sorted(printed_no(n) for n in e.own_cartons if n - base in range(OWN_BASE))
        if not nos:
            continue
        kind = KIND_LABELS[e.cartons[base + nos[0]].kind].lower()
        sold = sum(1 for n in nos if base + n in e.purchase_of)
        out.append(
            f"Série {name} ({kind}) : {plural(len(nos), 'carton')}, n° {nos[0]} à {nos[-1]}"
            f" — {sold} vendu{'s' if sold > 1 else ''}"
        )
    return out


def _series_and_kind(data: dict[str, Any]) -> tuple[str, str]:
    """The série named and the kind of carton chosen in a form (BadInput if not)."""
    series = as_text(data.get("series", ""), "series", MAX_SERIES_NAME + 8)
    return series, choice(data.get("kind", ""), KINDS, "kind")


class OwnCartons(OrganisationState):
    """The import form, the typed carton, what is registered."""

    own_message: str = ""
    own_ok: bool = False
    own_problems: list[str] = []
    own_series: list[str] = []
    own_kinds: list[dict[str, str]] = []

    @rx.event
    async def import_own(self, form_data: Any):
        """The cartons of a CSV file (its text), in the série named."""
        try:
            data = form(form_data)
            series, kind = _series_and_kind(data)
            text = data.get("csv", "")
            if not isinstance(text, str) or len(text) > MAX_OWN_CSV_CHARS + 100:
                raise BadInput(f"csv of {len(text) if isinstance(text, str) else text!r:.20}")
        except BadInput as exc:
            refuse(self._who(), "import_own", exc)
            return self._say("Choisissez un fichier (ou collez ses lignes), nommez la série.")
        try:
            lines = read_own_csv(text)
        except BadOwnCsv as exc:
            refuse(self._who(), "import_own", exc)
            return self._bad(exc.problems, exc.total)
        await self._register("import_own", series, kind, lines)
        return None

    @rx.event
    async def add_own(self, form_data: Any):
        """One carton typed: its number and its 15 numbers."""
        try:
            data = form(form_data)
            series, kind = _series_and_kind(data)
            line = read_typed(data.get("no", ""), data.get("numbers", ""))
        except BadOwnCsv as exc:
            refuse(self._who(), "add_own", exc)
            return self._bad(exc.problems, exc.total)
        except BadInput as exc:
            refuse(self._who(), "add_own", exc)
            return self._say("Tapez le numéro du carton et ses 15 numéros, nommez la série.")
        await self._register("add_own", series, kind, [line])
        return None

    async def _register(self, handler: str, series: str, kind: str, lines: list[OwnLine]) -> None:
        if not await self._signed_in_now(handler):
            return
        cartons = [(x.no, x.numbers) for x in lines]
        refused: list[err.OwnCartonsRefused] = []

        def said(text: str) -> None:
            self._say(text)

        def move(e: Evening) -> list[ev.Event]:
            try:
                return e.register_own(series, kind, cartons, "organisateur")
            except err.OwnCartonsRefused as exc:
                refused.append(exc)
                raise

        events = await self._play(handler, move, checked=True, say=said)
        if events is None:
            if refused and refused[0].problems:
                problems = [
                    (lines[i].line, f"carton n° {no} : {why}" if no else why)
                    for i, no, why in refused[0].problems
                ]
                self._bad(problems, len(problems))
            return
        reg = next(x for x in events if isinstance(x, ev.OwnCartonsRegistered))
        nos = sorted(no for no, _ in reg.cartons)
        self.own_problems = []
        self._say(
            f"{plural(len(nos), 'carton')} enregistré{'s' if len(nos) > 1 else ''} dans la "
            f"série {reg.series} (n° {nos[0]}" + (f" à {nos[-1]})." if len(nos) > 1 else ")."),
            ok=True,
        )
        await self._show()

    def _bad(self, problems: list[tuple[int, str]], total: int) -> None:
        self.own_problems = [
            (f"Ligne {line} : {why}" if line else why[:1].upper() + why[1:]) + "."
            for line, why in problems[:MAX_ERRORS]
        ]
        more = total - len(self.own_problems)
        if more > 0:
            self.own_problems.append(f"… et {plural(more, 'autre erreur', 'autres erreurs')}.")
        self._say(
            f"Rien n'est enregistré : {plural(total, 'erreur')}. "
            "Corrigez le fichier et importez-le de nouveau."
        )

    def _say(self, text: str, ok: bool = False) -> None:
        self.own_message, self.own_ok = text, ok
        if ok:
            self.own_problems = []

    async def _show(self) -> None:
        e = (await registry.live(self._evening_id)).evening
        self.own_series = own_series_lines(e)
        played = e.program.kinds()
        self.own_kinds = [
            {"value": k.value, "label": KIND_LABELS[k]} for k in SINGLE_CLASSIC if k in played
        ]

    # ------------------------------------------------------------------ hooks

    async def _evening_loaded(self) -> None:
        self.own_message, self.own_problems = "", []
        await self._show()

    def _signed_out(self) -> None:
        self.own_message, self.own_problems, self.own_series, self.own_kinds = "", [], [], []

    def _tell(self, text: str) -> None:
        self._say(text)
