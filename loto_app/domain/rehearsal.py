"""A rehearsal (répétition): a copy of an evening that the volunteers play with test phones
before the doors open. The copy is another evening of its own (its codes, secrets, série key
and log); what it starts with is the real evening's program as it stands and what the hall
screen shows of it (the lots' photos, the partners' logos). Nothing of it enters the real
evening. Pure: the storage makes the copy (`storage/rehearsal.py`).
"""

from __future__ import annotations

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening

#: The word every screen of a rehearsal shows (components/rehearsal.py).
WORD = "RÉPÉTITION"
PREFIX = "Répétition — "
MAX_NAME = 120  # (the evening's name column)


def rehearsal_name(name: str) -> str:
    """The copy's name: the real evening's, said to be a rehearsal (never twice), within the
    name's size."""
    base = name.removeprefix(PREFIX).strip() or "soirée"
    return (PREFIX + base)[:MAX_NAME]


def opening_events(real: Evening) -> list[ev.Event]:
    """The events a rehearsal's log starts with: the pictures the real evening shows now (each
    lot's photo, the partners' logos in their order). The program itself is the copy's own
    (as amended): no sale, player, draw or decision is copied."""
    photos: list[ev.Event] = [ev.LotPhotoSet(lot, d) for lot, d in sorted(real.lot_photos.items())]
    partners: list[ev.Event] = [ev.PartnerAdded(name, d) for name, d in real.partners]
    return photos + partners


def digests(events: list[ev.Event]) -> set[str]:
    """The pictures those events name (copied beside the rehearsal's log)."""
    return {d for e in events if (d := getattr(e, "digest", ""))}
