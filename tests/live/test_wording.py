"""The wording of money and shares (loto_app/wording.py), one format everywhere."""

from __future__ import annotations

from loto_app.domain import events as ev
from loto_app.wording import SHARE_LABELS, amount_text, euros, plural, share_note


def test_money_reads_the_french_way_and_a_form_value_types_back() -> None:
    assert [euros(c) for c in (300, 850, 123450, -50)] == [
        "3 €",
        "8,50 €",
        "1\u202f234,50 €",
        "-0,50 €",
    ]
    assert [amount_text(c) for c in (300, 350, 5)] == ["3", "3,50", "0,05"]


def test_a_half_share_is_named_once() -> None:
    assert share_note(ev.HALF) == "moitié du lot"
    assert share_note(ev.WHOLE) == ""
    assert SHARE_LABELS[ev.WHOLE] == "Lot entier" and SHARE_LABELS[ev.HALF] == "Moitié du lot"


def test_a_share_among_more_ex_aequo_is_named_by_its_part() -> None:
    assert share_note(ev.share_of(3)) == "tiers du lot"
    assert share_note(ev.share_of(4)) == "quart du lot"
    assert share_note(ev.share_of(5)) == "part 1/5 du lot"
    assert ev.share_of(1) == ev.WHOLE and ev.share_of(2) == ev.HALF


def test_a_count_takes_the_french_plural() -> None:
    assert [plural(n, "carton") for n in (0, 1, 2, 1200)] == [
        "0 carton",
        "1 carton",
        "2 cartons",
        "1\u202f200 cartons",
    ]
    assert plural(3, "lot gagné", "lots gagnés") == "3 lots gagnés"
