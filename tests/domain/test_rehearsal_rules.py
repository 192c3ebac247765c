"""What a rehearsal starts with (domain/rehearsal.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from loto_app.domain import events as ev
from loto_app.domain import rehearsal
from loto_app.domain.engine import Evening
from loto_app.domain.program import demo_program

KEY = b"k" * 32


@given(st.text(max_size=200))
def test_a_rehearsal_name_says_it_once_and_fits(name):
    out = rehearsal.rehearsal_name(name)
    assert out.startswith(rehearsal.PREFIX)
    assert len(out) <= rehearsal.MAX_NAME
    assert rehearsal.rehearsal_name(out) == out  # (a copy's copy is not "Répétition — Répétition")


def test_the_copy_starts_with_the_pictures_the_hall_shows_now():
    e = Evening(demo_program(), KEY)
    lot = demo_program().games[0].stages[0].lot.description
    e.set_lot_photo(lot, "a" * 64)
    e.add_partner("Boulangerie", "b" * 64)
    e.add_partner("Mairie", "c" * 64)
    e.remove_partner("b" * 64)
    e.join("p1", "Ana")
    opening = rehearsal.opening_events(e)
    assert opening == [
        ev.LotPhotoSet(" ".join(lot.split()).casefold(), "a" * 64),
        ev.PartnerAdded("Mairie", "c" * 64),
    ]
    copy = Evening.replay(demo_program(), opening, KEY)
    assert copy.lot_photos == e.lot_photos and copy.partners == e.partners
    assert not copy.players
    assert rehearsal.digests(opening) == {"a" * 64, "c" * 64}
