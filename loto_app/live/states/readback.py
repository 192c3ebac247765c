"""The read-back slots (the contrôle of a claimed carton, drawn by components/control.py): the
hall's public picture shows the latest claim checked on the last number, a contrôleur's phone
the carton it has just checked. Filled from `snapshot.claim_readback`'s dict."""

from __future__ import annotations

from typing import Any

import reflex as rx


class ReadBack(rx.State, mixin=True):
    """A claimed carton read back: its grid(s), the winning line(s), the verdict's words."""

    readback_on: bool = False
    readback_title: str = ""
    readback_caption: str = ""
    readback_kind: str = ""
    readback_cols: int = 9
    readback_cartons: list[list[dict[str, Any]]] = []
    readback_labels: list[str] = []  # whose each grid is (an ex aequo), "" for one claim
