"""The hash chain of the audit log: each entry's hash covers its content and the previous hash,
so that changing, removing or reordering a committed entry is detected afterwards."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64


def canonical_time(at: datetime) -> str:
    """A timestamp as stored by every backend (SQLite drops the zone: treat naive as UTC)."""
    if at.tzinfo is not None:
        at = at.astimezone(UTC).replace(tzinfo=None)
    return at.isoformat(timespec="microseconds")


def entry_hash(prev_hash: str, seq: int, at: datetime, type_: str, payload: dict[str, Any]) -> str:
    """SHA-256 over the previous hash and the entry's canonical JSON."""
    body = json.dumps(
        {"seq": seq, "at": canonical_time(at), "type": type_, "payload": payload},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def verify_chain(
    entries: Iterable[tuple[int, datetime, str, dict[str, Any], str, str]],
) -> list[str]:
    """Check (seq, at, type, payload, prev_hash, hash) entries in seq order.

    Returns:
        One message per problem found (empty when the chain is intact).
    """
    problems: list[str] = []
    prev = GENESIS
    expected_seq = 1
    for seq, at, type_, payload, prev_hash, hash_ in entries:
        if seq != expected_seq:
            problems.append(f"entry {seq}: expected sequence number {expected_seq}")
        if prev_hash != prev:
            problems.append(f"entry {seq}: previous-hash link broken")
        if entry_hash(prev_hash, seq, at, type_, payload) != hash_:
            problems.append(f"entry {seq}: content does not match its hash")
        prev = hash_
        expected_seq = seq + 1
    return problems
