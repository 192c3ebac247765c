"""The event log: each evening's events, hash-chained in the audit table, read back to replay
the evening and appended to, with the query tables (`projections`), in one transaction.

An evening is restored by replaying its log; nothing is announced before it is appended.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.program import Program
from loto_app.storage import models as m
from loto_app.storage.audit import GENESIS, entry_hash, verify_chain
from loto_app.storage.projections import Target, flush_rows, project

AUDIT_TABLE: sa.Table = m.AuditRow.__table__  # type: ignore[attr-defined]

#: events whose projection reads the program's games (which an amendment may have changed)
NEEDS_PROGRAM = (ev.GameStarted, ev.StageAwarded)


def evening_rows(s: Session, evening_id: int) -> tuple[m.EveningRow, m.SeriesRow]:
    """An evening's row and its série's (its code and secret key).

    Raises:
        KeyError: no such evening.
    """
    row = s.get(m.EveningRow, evening_id)
    series = s.get(m.SeriesRow, evening_id)
    if row is None or series is None:
        raise KeyError(f"no evening {evening_id}")
    return row, series


def amended(payload: dict[str, Any]) -> Program:
    """The program a `ProgramAmended` payload holds."""
    return Program.from_dict(json.loads(payload["program"]))


_LAST_SEQ = sa.select(sa.func.max(m.AuditRow.seq)).where(
    m.AuditRow.evening_id == sa.bindparam("evening_id")
)


class EventLog:
    """The audit log of every evening on one SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._meta: dict[int, tuple[Program, bytes]] = {}  # immutable once created
        self._codes_by_id: dict[int, str] = {}

    def _program_and_key(self, s: Session, evening_id: int) -> tuple[Program, bytes]:
        if evening_id not in self._meta:
            row, series = evening_rows(s, evening_id)
            self._meta[evening_id] = (Program.from_dict(row.program), bytes.fromhex(series.key_hex))
            self._codes_by_id[evening_id] = row.join_code
        return self._meta[evening_id]

    def _program_now(self, s: Session, evening_id: int) -> Program:
        """The program as last amended (the log's last `ProgramAmended`), or as created."""
        base, _ = self._program_and_key(s, evening_id)
        last = s.exec(
            select(m.AuditRow.payload)
            .where(m.AuditRow.evening_id == evening_id, m.AuditRow.type == ev.ProgramAmended.type)
            .order_by(m.AuditRow.seq.desc())  # type: ignore[union-attr]
            .limit(1)
        ).first()
        return base if last is None else amended(last)

    def current_program(self, evening_id: int) -> Program:
        """The evening's program now: as created, then as the organiser amended it."""
        with Session(self.engine) as s:
            return self._program_now(s, evening_id)

    def load(self, evening_id: int) -> tuple[Evening, int, str]:
        """Replay an evening from its audit log (with the sealed seeds of its committed draws:
        a restart continues the same order).

        Returns:
            The evening, the last sequence number and the last hash of its log.
        """
        with Session(self.engine) as s:
            program, key = self._program_and_key(s, evening_id)
            rows = s.exec(
                select(m.AuditRow.seq, m.AuditRow.payload, m.AuditRow.hash)
                .where(m.AuditRow.evening_id == evening_id)
                .order_by(m.AuditRow.seq)
            ).all()
            sealed = self._sealed(s, evening_id)
        events = (ev.event_from_dict(p) for _, p, _ in rows)
        evening = Evening.replay(program, events, key, sealed, self._codes_by_id[evening_id])
        if rows:
            return evening, rows[-1][0], rows[-1][2]
        return evening, 0, GENESIS

    @staticmethod
    def _sealed(s: Session, evening_id: int, game: int | None = None) -> dict[int, bytes]:
        query = select(m.DrawSeedRow.game_idx, m.DrawSeedRow.seed_hex).where(
            m.DrawSeedRow.evening_id == evening_id
        )
        if game is not None:
            query = query.where(m.DrawSeedRow.game_idx == game)
        return {g: bytes.fromhex(h) for g, h in s.exec(query).all()}

    def sealed_seed(self, evening_id: int, game: int) -> bytes | None:
        """The sealed seed of a committed game (for a worker catching up with another's
        commit), or None."""
        with Session(self.engine) as s:
            return self._sealed(s, evening_id, game).get(game)

    def draw_times(self, evening_id: int) -> dict[int, list[float]]:
        """When each number was drawn (POSIX seconds), per game, in draw order."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.DrawRow.game_idx, m.DrawRow.at)
                .where(m.DrawRow.evening_id == evening_id)
                .order_by(m.DrawRow.game_idx, m.DrawRow.seq)
            ).all()
        out: dict[int, list[float]] = {}
        for game, at in rows:
            if at.tzinfo is None:
                at = at.replace(tzinfo=UTC)
            out.setdefault(game, []).append(at.timestamp())
        return out

    def game_times(self, evening_id: int) -> dict[int, tuple[float, float | None]]:
        """When each game started and ended (POSIX seconds; None: not ended)."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.GameRow.idx, m.GameRow.started_at, m.GameRow.ended_at).where(
                    m.GameRow.evening_id == evening_id
                )
            ).all()

        def seconds(at: datetime) -> float:
            return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()

        return {game: (seconds(start), seconds(end) if end else None) for game, start, end in rows}

    def last_seq(self, evening_id: int) -> int:
        """The sequence number of the evening's last committed event (0: none). Asked before
        every commit and page load (`LiveEvening.catch_up`): a Core statement on a pooled
        connection, ~6 times cheaper than an ORM session's query."""
        with self.engine.connect() as c:
            last = c.execute(_LAST_SEQ, {"evening_id": evening_id}).scalar()
        return last or 0

    def events_after(self, evening_id: int, seq: int) -> list[tuple[int, ev.Event, str]]:
        """The events committed after `seq` (by another process), in order."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.AuditRow.seq, m.AuditRow.payload, m.AuditRow.hash)
                .where(m.AuditRow.evening_id == evening_id, m.AuditRow.seq > seq)
                .order_by(m.AuditRow.seq)
            ).all()
        return [(q, ev.event_from_dict(p), h) for q, p, h in rows]

    def append(
        self,
        evening_id: int,
        events: list[ev.Event],
        after_seq: int,
        after_hash: str,
        extra: Callable[[Session], None] | None = None,
        sealed: Mapping[int, bytes] | None = None,
    ) -> tuple[int, str]:
        """Commit events (audit log and projections) and `extra` in one transaction; the seed
        of each committed draw (`DrawCommitted`) is taken from `sealed` (the engine's) and kept
        in its own table, never in the log.

        Returns:
            The sequence number and hash of the last event appended.

        Raises:
            IntegrityError: another writer committed after `after_seq` first.
            ValueError: a committed draw whose seed `sealed` does not hold.
        """
        with Session(self.engine) as s:
            program, key = self._program_and_key(s, evening_id)
            if any(isinstance(e, NEEDS_PROGRAM) for e in events):  # (the games' lots)
                program = self._program_now(s, evening_id)
            seq, prev = after_seq, after_hash
            now = m.utcnow()
            audit: list[dict[str, Any]] = []
            for e in events:
                seq += 1
                payload = e.to_dict()
                h = entry_hash(prev, seq, now, e.type, payload)
                audit.append(
                    {
                        "evening_id": evening_id,
                        "seq": seq,
                        "at": now,
                        "type": e.type,
                        "payload": payload,
                        "prev_hash": prev,
                        "hash": h,
                    }
                )
                if isinstance(e, ev.ProgramAmended):
                    program = amended(payload)
                project(s, evening_id, program, key, e, now)
                if isinstance(e, ev.DrawCommitted):
                    seed = (sealed or {}).get(e.game)
                    if seed is None:
                        raise ValueError(f"evening {evening_id}: game {e.game}'s seed not given")
                    Target(s, evening_id, program, key, now).add(
                        m.DrawSeedRow,
                        evening_id=evening_id,
                        game_idx=e.game,
                        seed_hex=seed.hex(),
                        at=now,
                    )
                prev = h
            if extra is not None:
                extra(s)  # (before the rows are written: it may amend them, `pending_rows`)
            flush_rows(s)
            # The log's rows in one Core statement: nothing reads them back in this session,
            # and building an ORM object per row was ~5 % of a join's server CPU.
            # A concurrent writer's rows make it fail on (evening_id, seq): IntegrityError.
            s.execute(sa.insert(AUDIT_TABLE), audit)
            s.commit()
        return seq, prev

    def verify_audit(self, evening_id: int) -> list[str]:
        """Check the hash chain of an evening's log; returns the problems found."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.AuditRow)
                .where(m.AuditRow.evening_id == evening_id)
                .order_by(m.AuditRow.seq)
            ).all()
            return verify_chain((r.seq, r.at, r.type, r.payload, r.prev_hash, r.hash) for r in rows)
