"""The paper cartons of the série, reconciled (what a treasurer and an inspector count at the end
of the evening): per kind, the cartons printed on paper (in advance for the desk, or for a paper
player at the sale), sold, given (a consolation), cancelled (their sale refunded) and unsold;
the association's own cartons (domain/own_cartons.py) the same way, a line per own série
(registered in advance: `printed` = registered);
and what was refused and counted: a carton sold twice or unknown at the desk, a carton of
another série (or with a wrong code) or one nobody holds presented at the control desk.

Pure: built from the log's entries (`report.Entry`), like the report.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from loto_app.domain import events as ev
from loto_app.domain.own_cartons import OWN_BASE, carton_label, is_own
from loto_app.domain.program import Kind, carton_kind_label
from loto_app.domain.verdicts import Verdict

REFUSAL_LABELS: dict[str, str] = {
    "sold": "vendu deux fois (refusé à la caisse)",
    "unknown": "inconnu de la série (refusé à la caisse)",
    "wrong_series": "autre série ou code faux (refusé au contrôle)",
    "nobody": "carton que personne ne détient (refusé au contrôle)",
}


@dataclass(frozen=True, slots=True)
class PaperLine:
    """The paper cartons of one kind. `printed` = `sold` + `given` + `cancelled` + `unsold`."""

    kind: str
    kind_label: str  # an own série's: « Série ROUGE (classique) »
    printed: int
    in_advance: int  # of them, printed in advance for the desk
    sold: int
    given: int  # consolation cartons (a lost tie-break, a decision)
    cancelled: int
    unsold: int
    series: str = ""  # an own série's name ("" for the app's cartons)

    @property
    def balanced(self) -> bool:
        """Every printed carton is accounted for."""
        return self.printed == self.sold + self.given + self.cancelled + self.unsold


@dataclass(frozen=True, slots=True)
class Refusal:
    """A carton refused and counted: where, when, its number as typed, why."""

    at: datetime
    where: str  # "caisse" | "contrôle"
    carton_no: int
    why: str  # a key of REFUSAL_LABELS
    by: str = ""
    carton: str = ""  # how the carton is named (« ROUGE n° 347 » for an own série's)

    @property
    def label(self) -> str:
        """Why, in French."""
        return REFUSAL_LABELS.get(self.why, self.why)


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """The série's paper cartons, per kind, and the refusals."""

    series: str
    lines: tuple[PaperLine, ...]
    refusals: tuple[Refusal, ...]

    def count(self, why: str) -> int:
        """How many refusals of one kind (`REFUSAL_LABELS`)."""
        return sum(1 for r in self.refusals if r.why == why)

    @property
    def balanced(self) -> bool:
        """Every line adds up."""
        return all(line.balanced for line in self.lines)

    @property
    def printed(self) -> int:
        """Every paper carton printed."""
        return sum(line.printed for line in self.lines)


def reconcile(entries: Iterable[tuple[int, datetime, ev.Event]], series: str) -> Reconciliation:
    """The reconciliation of an evening's paper cartons from its log."""
    origin: dict[str, str] = {}
    kind_of: dict[int, str] = {}
    in_advance: set[int] = set()
    purchases: dict[int, ev.CartonsSold] = {}
    purchase_of_sale: dict[int, int] = {}
    cancelled_purchases: set[int] = set()
    owner: dict[int, int] = {}  # carton -> purchase
    refusals: list[Refusal] = []
    own_series: dict[int, str] = {}
    for _, at, e in entries:
        match e:
            case ev.PlayerJoined():
                origin[e.player_id] = e.origin
            case ev.CartonsPrinted():
                for no, _, _ in e.cartons:
                    kind_of[no] = e.kind
            case ev.PaperPrinted():
                in_advance.update(e.carton_nos)
            case ev.OwnCartonsRegistered():
                own_series[e.base] = e.series
                for no, _ in e.cartons:
                    kind_of[e.base + no] = e.kind
                    in_advance.add(e.base + no)
            case ev.CartonsSold():
                purchases[e.purchase_no] = e
                for no in e.carton_nos:
                    owner[no] = e.purchase_no
            case ev.SaleRecorded() | ev.PaymentConfirmed() if e.purchase_no:
                purchase_of_sale[e.sale_no] = e.purchase_no
            case ev.SaleCancelled() if e.sale_no in purchase_of_sale:
                cancelled_purchases.add(purchase_of_sale[e.sale_no])
            case ev.PaperCartonRefused():
                refusals.append(Refusal(at, "caisse", e.carton_no, e.why, e.by))
            case ev.ClaimMade() if e.via == "desk":
                if e.verdict == Verdict.WRONG_SERIES:
                    refusals.append(Refusal(at, "contrôle", e.carton_no, "wrong_series"))
                elif e.verdict == Verdict.NOT_IN_GAME and (
                    e.player_id is None or owner.get(e.carton_no) in cancelled_purchases
                ):
                    refusals.append(Refusal(at, "contrôle", e.carton_no, "nobody"))
            case _:
                pass
    refusals = [
        Refusal(r.at, r.where, r.carton_no, r.why, r.by, carton_label(r.carton_no, own_series))
        for r in refusals
    ]
    counts: dict[tuple[str, str], dict[str, Any]] = {}

    def line(kind: str, no: int) -> dict[str, Any]:
        series = own_series.get(no - no % OWN_BASE, "") if is_own(no) else ""
        return counts.setdefault(
            (series, kind),
            {"printed": 0, "in_advance": 0, "sold": 0, "given": 0, "cancelled": 0, "unsold": 0},
        )

    paper_cartons = set(in_advance)
    for p in purchases.values():
        if origin.get(p.player_id) == "paper":
            paper_cartons.update(p.carton_nos)
    for no in sorted(paper_cartons):
        c = line(kind_of.get(no, "?"), no)
        c["printed"] += 1
        c["in_advance"] += no in in_advance
        p = purchases.get(owner.get(no, 0))
        if p is None:
            c["unsold"] += 1
        elif p.purchase_no in cancelled_purchases:
            c["cancelled"] += 1
        elif p.reason == "consolation":
            c["given"] += 1
        else:
            c["sold"] += 1
    order = [k.value for k in Kind]
    lines = tuple(
        PaperLine(kind, _label(kind, series), **counts[(series, kind)], series=series)
        for series, kind in sorted(
            counts, key=lambda k: (k[0], order.index(k[1]) if k[1] in order else 99)
        )
    )
    return Reconciliation(series, lines, tuple(refusals))


def _label(kind: str, series: str) -> str:
    label = carton_kind_label(kind)
    return f"Série {series} ({label.lower()})" if series else label
