"""A phone's batch of marks, read into checked values (pure): what assets/loto.js sends.

The page's hidden form carries one field, `batch`, a JSON text:
`{"id": n, "game": g, "code": "...", "secret": "...", "ops": [[carton, number, 0|1], ...]}`
(the game it marked, 1-based; the player's identity as the browser stores it; each op says
what a cell should be).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from loto_app.limits import MAX_CARTON_NO, MAX_CODE, MAX_SECRET
from loto_app.live.input.guards import BadInput, as_int

MAX_OPS = 240  # ops in one batch (every cell of 16 cartons)
MAX_TEXT = 8_000  # characters of a batch (240 ops and the identity)
#: The key under which the browser sends a form's fields in an event's payload: Reflex's
#: `FORM_DATA_ENTRIES_KEY`, written here so that input/ imports no Reflex (pinned by
#: tests/live/test_compat.py, with the private names of live/compat/).
FORM_ENTRIES = "__reflex_form_data__"


@dataclass(frozen=True, slots=True)
class MarksBatch:
    """A checked batch."""

    batch_id: int
    game: int
    code: str
    secret: str
    ops: list[tuple[int, int, bool]]


def batch_text(form_data: Any) -> str:
    """The `batch` field of the hidden form (`{"batch": "<json>"}`, or the browser's encoding of
    a form, `{"__reflex_form_data__": [["batch", "<json>"]]}`).

    Raises:
        BadInput: no such form.
    """
    if isinstance(form_data, dict) and isinstance(form_data.get(FORM_ENTRIES), list):
        pairs = form_data[FORM_ENTRIES][:4]
        form_data = {p[0]: p[1] for p in pairs if isinstance(p, list) and len(p) == 2}
    text = form_data.get("batch") if isinstance(form_data, dict) else None
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise BadInput(f"marks form without a batch: {form_data!r:.60}")
    return text


def parse(text: str) -> MarksBatch:
    """The batch in a form's text.

    Raises:
        BadInput: not such a batch.
    """
    try:
        batch = json.loads(text)
    except ValueError as exc:
        raise BadInput(f"marks batch is not JSON: {text[:40]!r}") from exc
    if not isinstance(batch, dict):
        raise BadInput(f"marks batch of type {type(batch).__name__}")
    code, secret = batch.get("code"), batch.get("secret")
    if not isinstance(code, str) or not code or len(code) > MAX_CODE:
        raise BadInput(f"marks batch without an evening code: {code!r:.40}")
    if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
        raise BadInput("marks batch without a player secret")
    raw = batch.get("ops")
    if not isinstance(raw, list) or len(raw) > MAX_OPS:
        raise BadInput(f"marks batch without a list of at most {MAX_OPS} ops")
    ops: list[tuple[int, int, bool]] = []
    for op in raw:
        if not isinstance(op, list) or len(op) != 3:
            raise BadInput(f"a marks op is not [carton, number, 0|1]: {op!r:.40}")
        ops.append(
            (
                as_int(op[0], 1, MAX_CARTON_NO, "carton"),
                as_int(op[1], 1, 90, "number"),
                bool(as_int(op[2], 0, 1, "marked")),
            )
        )
    return MarksBatch(
        as_int(batch.get("id"), 0, 2**31, "batch id"),
        as_int(batch.get("game"), 0, 10_000, "game"),
        code.upper(),
        secret,
        ops,
    )
