"""How the app words money, shares and lot tickets, in one place (pure: no Reflex, no database).

Every screen and record takes its wording from here: the phones, the desk, the organiser's
summary, the report's CSV and PDF. A change of wording is made once.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from loto_app.domain.events import HALF, LotTicket
from loto_app.domain.serial import lot_ticket_code

if TYPE_CHECKING:
    from loto_app.domain.engine import Evening

# ---------------------------------------------------------------------- money


def euros(cents: int) -> str:
    """French money format: 300 -> '3 €', 850 -> '8,50 €', 123450 -> '1 234,50 €' (a narrow
    no-break space between thousands)."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    text = f"{sign}{whole:,}".replace(",", "\u202f")
    return f"{text},{frac:02d} €" if frac else f"{text} €"


def amount_text(cents: int) -> str:
    """An amount as a form field holds it, to be typed over: 300 -> '3', 350 -> '3,50'."""
    return f"{cents // 100}" if cents % 100 == 0 else f"{cents // 100},{cents % 100:02d}"


# ---------------------------------------------------------------------- counts


def plural(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in French: 0 and 1 take the singular ('1 carton', '0 carton'),
    2 and more the plural ('3 cartons'; `many` for irregular ones: 'lot' / 'lots' is regular,
    'animal' / 'animaux' is not). Thousands as in `euros` ('1 200 cartons')."""
    word = one if abs(n) < 2 else (many if many is not None else one + "s")
    return f"{n:,}".replace(",", "\u202f") + f" {word}"


# ---------------------------------------------------------------------- lot tickets

#: What a half share is called (two ex aequo who agreed to share the lot).
HALF_LOT = "moitié du lot"
#: A lot ticket's share in the records: the whole lot or half of it.
SHARE_LABELS: dict[str, str] = {
    "1": "Lot entier",
    HALF: HALF_LOT.capitalize(),
    "1/3": "Tiers du lot",
    "1/4": "Quart du lot",
}
#: What a voucher is, in the records (a consolation when no game is left for a free carton).
VOUCHER = "Bon « carton offert »"
#: What a voucher gives, as the winner's phone and the desk show it.
VOUCHER_LOT = f"{VOUCHER} (pour un prochain loto)"


def share_note(share: str) -> str:
    """The note beside a lot for its share: 'moitié du lot', 'tiers du lot', 'part 1/5 du
    lot', or nothing for a whole lot."""
    if share in ("", "1"):
        return ""
    return SHARE_LABELS[share].lower() if share in SHARE_LABELS else f"part {share} du lot"


@dataclasses.dataclass
class TicketView:
    """A lot ticket (or a "carton offert" voucher) to collect at the desk."""

    no: int = 0
    stage: str = ""
    lot: str = ""
    share: str = "1"
    code: str = ""
    voucher: bool = False
    voided: bool = False  # withdrawn by a decision of the association


def stage_label(e: Evening, game: int, stage: int) -> str:
    """'Partie 2 — Quine': a stage as the phones and the desk name it."""
    return f"Partie {game + 1} — {e.program.games[game].stages[stage].label}"


def ticket_view(e: Evening, t: LotTicket) -> TicketView:
    """A lot ticket as the winner's phone (and the desk) shows it."""
    stage = e.program.games[t.game].stages[t.stage]
    return TicketView(
        no=t.no,
        stage=stage_label(e, t.game, t.stage),
        lot=VOUCHER_LOT if t.kind == "voucher" else stage.lot.description,
        share=t.share,
        code=lot_ticket_code(e.key, e.program.series, t.no, t.player_id),
        voucher=t.kind == "voucher",
        voided=t.no in e.withdrawn,
    )
