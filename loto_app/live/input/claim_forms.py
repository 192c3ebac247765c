"""The claim forms of a paper carton at a desk (the tablet's control desk, `/controle`): a
printed carton's number and check code, an own carton's série and number, read into checked
values. What each page refuses beyond them stays with its handler. Pure."""

from __future__ import annotations

from typing import Any

from loto_app.domain.own_cartons import MAX_OWN_NO
from loto_app.limits import MAX_CARTON_NO, MAX_CODE, MAX_SERIES
from loto_app.live.input.guards import as_int, as_text


def read_paper_claim(data: dict[str, Any]) -> tuple[int, str]:
    """A printed carton typed: its number (`carton`) and its check code (`check`).

    Raises:
        BadInput: a number out of range, a code too long or not text.
    """
    no = as_int(data.get("carton"), 1, MAX_CARTON_NO, "carton")
    check = as_text(data.get("check", ""), "check", MAX_CODE)
    return no, check


def read_own_claim(data: dict[str, Any]) -> tuple[str, int]:
    """One of the association's own cartons: its série (`series`) and printed number
    (`carton`).

    Raises:
        BadInput: a série too long or not text, a number out of range.
    """
    series = as_text(data.get("series", ""), "series", MAX_SERIES)
    no = as_int(data.get("carton"), 1, MAX_OWN_NO, "carton")
    return series, no
