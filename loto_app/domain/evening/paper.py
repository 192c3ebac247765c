"""Paper cartons printed in advance and sold by number at the desk."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS, Grid
from loto_app.domain.cartons import (
    default_rng,
    generate_maxi,
    generate_strip,
)
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_kind, check_staff_name, clean_name, is_int, rows_of
from loto_app.domain.evening.state import BALLS, MAX_PAPER_SHEETS, MAX_PER_SALE
from loto_app.domain.program import (
    KIND_LABELS,
    Kind,
)
from loto_app.domain.serial import verify_check_code
from loto_app.domain.till import (
    DESK_METHODS,
)


class PaperMoves(EveningCore):
    """Paper cartons printed in advance and sold by number at the desk."""

    def print_paper(
        self, kind: Kind | str, sheets: int, by: str, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Print cartons on paper in advance: `sheets` sheets of 6 (a planche covering 1-90,
        two vitrines, or 6 maxiquine grids), numbered in the série, kept apart for the desk
        to sell by number and check code (`sell_printed`)."""
        self._open()
        by = check_staff_name(by)
        kind = check_kind(kind)
        if kind not in self.program.kinds():
            raise err.InvalidSale(
                f"no {kind} game tonight", "Aucune partie de ce type n'est au programme."
            )
        self._check_sellable(kind)
        if not is_int(sheets) or not 1 <= sheets <= MAX_PAPER_SHEETS:
            raise err.InvalidSale(
                f"{sheets!r} sheets not in 1..{MAX_PAPER_SHEETS}",
                f"Imprimez de 1 à {MAX_PAPER_SHEETS} feuilles à la fois.",
            )
        rng = rng or default_rng()
        events: list[ev.Event] = []
        for _ in range(sheets):
            printed = self._print(kind, rng, 6)
            self.apply(printed)
            events.append(printed)
        nos = tuple(
            no for p in events if isinstance(p, ev.CartonsPrinted) for no, _, _ in p.cartons
        )
        return events + self._emit(ev.PaperPrinted(kind.value, nos, by))

    def sell_printed(
        self,
        player_id: str,
        name: str,
        offer: int,
        cartons: Sequence[tuple[object, object]],
        method: str,
        seller: str,
    ) -> list[ev.Event]:
        """The desk sells pre-printed paper cartons, each given by its number and check code
        (typed, or the QR code scanned), to a paper player (registered now under `name` when
        `player_id` is new). A carton that is not in this série's paper stock, or whose code is
        wrong, or that was sold already (cancelled included), is refused and counted: the move
        then returns only `PaperCartonRefused` events and sells nothing."""
        self._open()
        self._till_open()
        seller = check_staff_name(seller)
        if method not in DESK_METHODS:
            raise err.InvalidSale(f"desk payment method {method!r}", "Espèces ou carte.")
        o = self.offer(offer)
        self._check_sellable(o.kind)
        if not isinstance(cartons, list | tuple) or not 1 <= len(cartons) <= 3 * MAX_PER_SALE:
            raise err.InvalidSale(
                f"{cartons!r:.40} cartons", "Scannez ou tapez les cartons vendus."
            )
        joining, name = self._paper_buyer(player_id, name)
        refused: list[ev.PaperCartonRefused] = []
        units: list[int] = []
        for no, code in cartons:
            c = self.cartons.get(no) if is_int(no) else None  # type: ignore[arg-type]
            genuine = (
                c is not None
                and isinstance(code, str)
                and verify_check_code(self.key, self.program.series, c.no, code)
            )
            typed = no if is_int(no) and 0 <= no < 10**9 else 0  # type: ignore[operator]
            if c is None or not genuine:
                refused.append(ev.PaperCartonRefused(typed, "unknown", seller))  # type: ignore[arg-type]
            elif c.no in self.purchase_of:
                refused.append(ev.PaperCartonRefused(c.no, "sold", seller))
            elif c.unit not in self.paper_stock[c.kind]:
                refused.append(ev.PaperCartonRefused(c.no, "unknown", seller))
            elif c.kind is not o.kind:
                raise err.InvalidSale(
                    f"carton {c.no} is {c.kind}, the offer {o.kind}",
                    f"Le carton n° {c.no} n'est pas un carton « {KIND_LABELS[o.kind].lower()} ».",
                )
            elif c.unit in units:
                raise err.InvalidSale(
                    f"unit {c.unit} given twice", f"Le carton n° {c.no} est compté deux fois."
                )
            else:
                units.append(c.unit)
        return self._sell_paper_units(
            player_id, name, joining, offer, units, refused, method, seller
        )

    def _paper_buyer(self, player_id: str, name: str) -> tuple[bool, str]:
        """A paper sale's buyer: (new player?, their name cleaned)."""
        joining = player_id not in self.players
        if joining:
            if not isinstance(player_id, str) or not 1 <= len(player_id) <= 64:
                raise err.InvalidArgument(f"player id {player_id!r:.20}")
            name = clean_name(name)
        elif self.origins.get(player_id) != "paper":
            raise err.InvalidSale(
                f"printed cartons for {self.origins.get(player_id)} player {player_id}",
                "Les cartons imprimés se vendent aux joueurs sans téléphone.",
            )
        return joining, name

    def _sell_paper_units(
        self,
        player_id: str,
        name: str,
        joining: bool,
        offer: int,
        units: list[int],
        refused: list[ev.PaperCartonRefused],
        method: str,
        seller: str,
    ) -> list[ev.Event]:
        """The sale of paper units checked one by one (`sell_printed`, `sell_own`): the
        refusals alone when there is one, else the units sold as the offer says."""
        o = self.offer(offer)
        if refused:
            events: list[ev.Event] = []
            for r in refused:
                events += self._emit(r)
            return events
        nos = tuple(sorted(n for u in units for n in self.units[u]))
        if o.planche:
            numbers = sorted(x for n in nos for x in self.cartons[n].carton.numbers)
            whole = len(nos) == 6 and numbers == list(BALLS)
        else:
            whole = len(units) == o.quantity
        if not whole:
            want = "une planche de 6 (les 90 numéros)" if o.planche else o.label
            raise err.InvalidSale(
                f"{len(units)} units for offer {offer} ({o.label})",
                f"Ce tarif vend {want} : {len(units)} carton(s) scanné(s).",
            )
        events = self._emit(ev.PlayerJoined(player_id, name, "paper")) if joining else []
        sold = ev.CartonsSold(
            purchase_no=len(self.purchases) + 1,
            player_id=player_id,
            kind=o.kind.value,
            carton_nos=nos,
            first_game=self.next_game_index(),
            reason="planche" if o.planche else "sale",
        )
        events += self._emit(sold)
        return events + self._emit(
            self._sale_record(player_id, offer, o.price_cents, method, seller, sold.purchase_no)
        )

    def _print(self, kind: Kind, rng: random.Random, wanted: int = 1) -> ev.CartonsPrinted:
        """Number new cartons of the série (not applied)."""
        first = len(self.cartons) - len(self.own_cartons) + 1  # (own cartons apart)
        if KINDS[kind].grid is Grid.MAXI:
            grids = [generate_maxi(rng) for _ in range(wanted)]
            return ev.CartonsPrinted(
                kind.value,
                tuple((first + i, first + i, rows_of(c)) for i, c in enumerate(grids)),
            )
        strip = generate_strip(rng)
        per_unit = KINDS[kind].unit
        return ev.CartonsPrinted(
            kind.value,
            tuple((first + i, first + i - i % per_unit, rows_of(c)) for i, c in enumerate(strip)),
        )


@applies(ev.PaperPrinted)
def _paper_printed(self: Any, e: ev.PaperPrinted) -> None:
    kind = Kind(e.kind)
    units = {self.cartons[n].unit for n in e.carton_nos}
    self.stock[kind] = [u for u in self.stock[kind] if u not in units]
    self.paper_stock[kind] += sorted(units)


@applies(ev.PaperCartonRefused)
def _paper_carton_refused(self: Any, e: ev.PaperCartonRefused) -> None:
    pass  # (counted by the reconciliation, from the log)
