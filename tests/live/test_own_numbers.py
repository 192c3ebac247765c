"""The desk's typed numbers of the association's own cartons (live/input/own_cartons.py)."""

from __future__ import annotations

import pytest

from loto_app.live.input.guards import BadInput
from loto_app.live.input.own_cartons import read_numbers


@pytest.mark.parametrize(
    ("typed", "numbers"),
    [
        ("347", [347]),
        (" 347 348 ", [347, 348]),
        ("345-347", [345, 346, 347]),
        ("345 à 347, 12", [345, 346, 347, 12]),
        ("1 - 3;9", [1, 2, 3, 9]),
    ],
)
def test_numbers_and_ranges_are_read(typed: str, numbers: list[int]) -> None:
    assert read_numbers(typed) == numbers


@pytest.mark.parametrize(
    "typed", ["", "abc", "0", "100000", "5-3", "1-500", "3,,x", 347, "1" * 500]
)
def test_anything_else_is_refused(typed: object) -> None:
    with pytest.raises(BadInput):
        read_numbers(typed)
