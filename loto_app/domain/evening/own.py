"""The association's own cartons (domain/own_cartons.py): registered by the organiser in an own
série, sold by number at the desk, a claim on one checked by its number alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import SINGLE_CLASSIC
from loto_app.domain.cartons import Carton
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_kind, check_staff_name, is_int, rows_of
from loto_app.domain.evening.state import MAX_PER_SALE, IssuedCarton
from loto_app.domain.own_cartons import (
    MAX_OWN_NO,
    MAX_OWN_SERIES,
    OWN_BASE,
    BadOwnCarton,
    clean_series_name,
    grid_of,
)
from loto_app.domain.program import KIND_LABELS, Kind
from loto_app.domain.till import DESK_METHODS
from loto_app.domain.verdicts import Verdict

#: cartons one registration may hold (a supplier's box holds a few hundred)
MAX_OWN_BATCH = 3_000
#: problems a refusal lists (the rest are counted)
MAX_PROBLEMS = 20


class OwnMoves(EveningCore):
    """The association's own cartons: registered, sold by number, claims checked by number."""

    def own_base(self, series: object) -> int | None:
        """The engine's base of an own série, by its name (any case), or None."""
        if not isinstance(series, str):
            return None
        name = " ".join(series.split()).upper()
        return next((b for b, n in self.own_series.items() if n == name), None)

    def _own_of(self, base: int) -> list[int]:
        """The engine numbers of an own série's cartons."""
        return sorted(n for n in self.own_cartons if n - base in range(OWN_BASE))

    def register_own(
        self,
        series: str,
        kind: Kind | str,
        cartons: Sequence[tuple[int, Sequence[int]]],
        by: str,
    ) -> list[ev.Event]:
        """Register cartons the app did not print, in the own série `series` (new, or one
        registered before, of the same kind): each (its printed number, its 15 numbers in
        reading order). Every carton is checked (a valid classique carton, a number not given
        twice nor registered already); any problem refuses the whole registration
        (`OwnCartonsRefused`, its `problems`: (position, number, French reason))."""
        self._open()
        by = check_staff_name(by)
        try:
            name = clean_series_name(series)
        except BadOwnCarton as exc:
            raise err.OwnCartonsRefused(str(exc), exc.french + ".") from exc
        if name == self.program.series.strip().upper():
            raise err.OwnCartonsRefused(
                f"own series named like the app's {name!r}",
                f"« {name} » est le code de la série de l'application : choisissez un autre nom.",
            )
        kind = check_kind(kind)
        if kind not in SINGLE_CLASSIC or kind not in self.program.kinds():
            raise err.OwnCartonsRefused(
                f"own cartons of kind {kind}",
                "Choisissez un type de carton à 15 numéros joué ce soir.",
            )
        base = self.own_base(name)
        if base is None:
            if len(self.own_series) >= MAX_OWN_SERIES:
                raise err.OwnCartonsRefused(
                    "too many own series", f"Au plus {MAX_OWN_SERIES} séries de l'association."
                )
            base = (len(self.own_series) + 1) * OWN_BASE
        elif any(self.cartons[n].kind is not kind for n in self._own_of(base)):
            raise err.OwnCartonsRefused(
                f"own series {name} is of another kind",
                f"La série {name} a déjà des cartons d'un autre type.",
            )
        if not isinstance(cartons, list | tuple) or not 1 <= len(cartons) <= MAX_OWN_BATCH:
            raise err.OwnCartonsRefused(
                f"{len(cartons) if isinstance(cartons, list | tuple) else cartons!r:.20} cartons",
                f"De 1 à {MAX_OWN_BATCH} cartons à la fois.",
            )
        problems: list[tuple[int, int, str]] = []
        seen: set[int] = set()
        rows: list[tuple[int, ev.Rows]] = []
        for i, (no, numbers) in enumerate(cartons):
            if not is_int(no) or not 1 <= no <= MAX_OWN_NO:
                problems.append((i, 0, f"numéro de carton de 1 à {MAX_OWN_NO}"))
                continue
            try:
                if not all(is_int(n) for n in numbers):
                    raise BadOwnCarton("not integers", "des numéros qui n'en sont pas")
                grid = grid_of(list(numbers))
            except (BadOwnCarton, TypeError) as exc:
                problems.append((i, no, getattr(exc, "french", "carton illisible")))
                continue
            if no in seen:
                problems.append((i, no, f"le n° {no} est donné deux fois"))
            elif base + no in self.cartons:
                problems.append((i, no, f"le n° {no} est déjà enregistré dans la série {name}"))
            seen.add(no)
            rows.append((no, rows_of(grid)))
        if problems:
            raise _refusal(problems)
        return self._emit(ev.OwnCartonsRegistered(name, base, kind.value, tuple(rows), by))

    def own_claim(self, series: str, printed: int) -> list[ev.Event]:
        """A claim on one of the association's own cartons, checked by its série and printed
        number alone (no check code): the same verdicts as `paper_claim`; a number not
        registered in the série is `WRONG_SERIES`, recorded the same way."""
        self._open()
        g = self._claimable()
        base = self.own_base(series)
        if base is None:
            raise err.InvalidArgument(f"no own series {series!r:.20}", "Série inconnue.")
        if not is_int(printed) or not 1 <= printed <= MAX_OWN_NO:
            raise err.InvalidArgument(
                f"own carton number {printed!r:.20}", "Numéro de carton invalide."
            )
        no = base + printed
        if no not in self.cartons:
            return self._emit(
                self._claim_event(g, None, no, (no,), Verdict.WRONG_SERIES, (), "desk")  # type: ignore[attr-defined]
            )
        return self._claim(self.cartons[no], self.owner(no), "desk")  # type: ignore[attr-defined]

    def sell_own(
        self,
        player_id: str,
        name: str,
        offer: int,
        series: str,
        printed: Sequence[object],
        method: str,
        seller: str,
    ) -> list[ev.Event]:
        """The desk sells the association's own cartons of one série by their printed numbers,
        to a paper player (registered now under `name` when `player_id` is new), as
        `sell_printed` does: a number not registered, or a carton sold already, is refused and
        counted (`PaperCartonRefused`) and nothing is sold."""
        self._open()
        self._till_open()  # type: ignore[attr-defined]
        seller = check_staff_name(seller)
        if method not in DESK_METHODS:
            raise err.InvalidSale(f"desk payment method {method!r}", "Espèces ou carte.")
        o = self.offer(offer)  # type: ignore[attr-defined]
        self._check_sellable(o.kind)  # type: ignore[attr-defined]
        base = self.own_base(series)
        if base is None:
            raise err.InvalidSale(f"no own series {series!r:.20}", "Série inconnue.")
        if not isinstance(printed, list | tuple) or not 1 <= len(printed) <= 3 * MAX_PER_SALE:
            raise err.InvalidSale(f"{printed!r:.40} cartons", "Tapez les numéros vendus.")
        joining, name = self._paper_buyer(player_id, name)  # type: ignore[attr-defined]
        refused: list[ev.PaperCartonRefused] = []
        units: list[int] = []
        for p in printed:
            no = base + p if is_int(p) and 1 <= p <= MAX_OWN_NO else 0  # type: ignore[operator]
            c = self.cartons.get(no)
            if c is None:
                refused.append(ev.PaperCartonRefused(no, "unknown", seller))
            elif no in self.purchase_of or c.unit not in self.paper_stock[c.kind]:
                refused.append(ev.PaperCartonRefused(no, "sold", seller))
            elif c.kind is not o.kind:
                raise err.InvalidSale(
                    f"carton {no} is {c.kind}, the offer {o.kind}",
                    f"Le carton {self.carton_label(no)} n'est pas un carton "
                    f"« {KIND_LABELS[o.kind].lower()} ».",
                )
            elif c.unit in units:
                raise err.InvalidSale(
                    f"unit {c.unit} given twice",
                    f"Le carton {self.carton_label(no)} est compté deux fois.",
                )
            else:
                units.append(c.unit)
        return self._sell_paper_units(  # type: ignore[attr-defined,no-any-return]
            player_id, name, joining, offer, units, refused, method, seller
        )


def _refusal(problems: list[tuple[int, int, str]]) -> err.OwnCartonsRefused:
    said = " ; ".join(f"n° {no} : {why}" if no else why for _, no, why in problems[:MAX_PROBLEMS])
    more = len(problems) - MAX_PROBLEMS
    return err.OwnCartonsRefused(
        f"{len(problems)} bad own cartons: {problems[:3]!r}",
        f"Rien n'est enregistré : {said}" + (f" (et {more} autres)." if more > 0 else "."),
        tuple(problems),
    )


@applies(ev.OwnCartonsRegistered)
def _own_cartons_registered(self: Any, e: ev.OwnCartonsRegistered) -> None:
    kind = Kind(e.kind)
    self.own_series[e.base] = e.series
    for printed, rows in e.cartons:
        no = e.base + printed
        self.cartons[no] = IssuedCarton(no, kind, no, Carton.from_rows(rows))  # type: ignore[arg-type]
        self.units[no] = (no,)
        self.paper_stock[kind].append(no)
        self.own_cartons.add(no)
