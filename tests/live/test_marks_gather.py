"""The marks' gathering window comes from the environment, and bad values fall back to 5 s."""

from __future__ import annotations

import logging

import pytest

from loto_app.live.runtime import marks


def test_the_default_is_five_seconds() -> None:
    assert marks.gather_seconds({}) == marks.DEFAULT_GATHER_S == 5.0
    assert marks.gather_seconds({"LOTO_MARKS_GATHER_SECONDS": " "}) == 5.0


def test_a_number_of_seconds_is_taken() -> None:
    assert marks.gather_seconds({"LOTO_MARKS_GATHER_SECONDS": "0.2"}) == 0.2
    assert marks.gather_seconds({"LOTO_MARKS_GATHER_SECONDS": "12"}) == 12.0


@pytest.mark.parametrize("raw", ["soon", "0", "-1", "nan", "inf", "61"])
def test_a_bad_value_falls_back_with_an_error_in_the_log(
    raw: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="loto_app.live"):
        assert marks.gather_seconds({"LOTO_MARKS_GATHER_SECONDS": raw}) == 5.0
    assert "LOTO_MARKS_GATHER_SECONDS" in caplog.text
