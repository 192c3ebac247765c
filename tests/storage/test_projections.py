"""Every event kind has a projection, or is declared recorded by the audit log alone: a new
event cannot reach `append` without a decision on its query tables."""

from __future__ import annotations

from loto_app.domain import events as ev
from loto_app.storage.projections import PROJECTIONS, RECORD_ONLY


def test_every_event_kind_is_projected_or_record_only() -> None:
    kinds = set(ev.EVENT_TYPES.values())
    assert kinds == set(PROJECTIONS) | RECORD_ONLY
    assert not set(PROJECTIONS) & RECORD_ONLY
