"""Regression tests of the handlers' argument guards (found by tests/e2e/test_fuzz.py)."""

from __future__ import annotations

import pytest

from loto_app.live.input.guards import BadInput, as_int


@pytest.mark.parametrize("value", ["²", "¹²", "٣", "1e3", " ", "-3", "1234567"])
def test_as_int_refuses_strings_that_are_not_ascii_digits(value: str) -> None:
    with pytest.raises(BadInput):
        as_int(value, 0, 10**9, "n")


def test_as_int_takes_form_digits() -> None:
    assert as_int(" 42 ", 1, 90, "n") == 42
