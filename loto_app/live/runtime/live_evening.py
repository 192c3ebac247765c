"""One evening in memory, kept in step with its event log: the state the registry's writer
plays moves on (see `registry`, the only way moves are played and committed).

No Reflex here, and no asyncio: the registry calls these methods on the event loop (playing a
batch, which must not be interleaved with a reader) or in a worker thread (I/O).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError
from loto_app.storage.repository import EveningStore

log = logging.getLogger(__name__)

Move = Callable[[Evening], list[ev.Event]]
Extra = Callable[[Session], None]

#: Advisory lock keys of the evenings' writers (PostgreSQL): this + the evening id.
_WRITER_LOCK = 0x10707 << 32


class LiveEvening:
    """An evening in memory, kept in step with the database.

    A move's events are played on the engine, committed, and only then told (by the registry):
    a batch that cannot be committed is undone by reloading the evening. Before each batch the
    evening catches up with events committed by other processes (several workers share one
    database).
    """

    def __init__(self, store: EveningStore, evening_id: int) -> None:
        self.store = store
        self.evening_id = evening_id
        self._lock = threading.RLock()
        self.name, self.join_code = store.describe(evening_id)
        self.rehearsal = store.rehearsal_of(evening_id) is not None  # (every screen says it)
        self.evening, self.seq, self.last_hash = store.load(evening_id)
        self.drawn_at = store.draw_times(evening_id)
        self.game_times = store.game_times(evening_id)

    def reload(self) -> None:
        """Drop the in-memory state and replay it from the database."""
        with self._lock:
            self.evening, self.seq, self.last_hash = self.store.load(self.evening_id)
            self.drawn_at = self.store.draw_times(self.evening_id)
            self.game_times = self.store.game_times(self.evening_id)

    def catch_up(self) -> None:
        """Apply the events other processes committed since our last one.

        First a look at the log's last sequence number without the lock, so that a page
        loading while a move commits does not wait for it when there is nothing to catch up.
        """
        if self.store.last_seq(self.evening_id) <= self.seq:
            return
        with self._lock:
            for seq, e, h in self.store.events_after(self.evening_id, self.seq):
                self.evening.apply(e)
                self.seq, self.last_hash = seq, h
                self._note([e])
                if isinstance(e, ev.DrawCommitted):  # (another worker started the game)
                    seed = self.store.sealed_seed(self.evening_id, e.game)
                    if seed is not None:
                        self.evening.sealed[e.game] = seed

    def _note(self, events: list[ev.Event]) -> None:
        """Keep the time of each draw (for the hall's draw rhythm) and when each game started
        and ended (for the numbers of the evening on the hall screen's end)."""
        for e in events:
            if isinstance(e, ev.NumberDrawn):
                self.drawn_at.setdefault(e.game, []).append(time.time())
            elif isinstance(e, ev.GameStarted):
                self.game_times[e.game] = (time.time(), None)
            elif isinstance(e, ev.UnmarkAllowed) and e.game in self.game_times:
                self.game_times[e.game] = (self.game_times[e.game][0], time.time())

    def apply_batch(
        self, moves: list[tuple[Move, Extra | None]]
    ) -> tuple[list[list[ev.Event] | LotoError], list[ev.Event], Extra | None]:
        """Play moves in order on the evening in memory, for one commit (group commit: one
        transaction for a burst of joins, marks or claims). No I/O but on failure: run it on
        the thread that reads the evening (the event loop), so that no reader ever walks a
        half-applied move; then `commit_batch` in a worker thread.

        Returns:
            Each move's events or the LotoError that refused it (nothing changed for that
            move), all the events, and the writes that go with them in the same transaction.

        Raises:
            Exception: a move failed unexpectedly: the evening is reloaded from the database
                and no move of the batch took effect.
        """
        out: list[list[ev.Event] | LotoError] = []
        events: list[ev.Event] = []
        extras: list[Extra] = []
        with self._lock:
            try:
                for move, extra in moves:
                    try:
                        got = move(self.evening)
                    except LotoError as exc:
                        out.append(exc)
                        continue
                    out.append(got)
                    events += got
                    if got and extra is not None:
                        extras.append(extra)
            except Exception:
                self.reload()
                raise

        def all_extras(s: Session) -> None:
            for extra in extras:
                extra(s)

        return out, events, all_extras if extras else None

    def lock_writers(self) -> Callable[[], None]:
        """Several processes on one PostgreSQL database: wait for the evening's writer lock (a
        session advisory lock), so that this process catches up, plays and commits its batch
        while the others wait, rather than racing them and replaying the whole evening on
        every lost race. Returns the release. On SQLite (one process) it does nothing.
        """
        if self.store.engine.dialect.name != "postgresql":
            return lambda: None
        key = sa.text("SELECT pg_advisory_lock(:k)")
        conn = self.store.engine.connect()
        try:
            conn.execute(key, {"k": _WRITER_LOCK + self.evening_id})
        except Exception:
            conn.close()
            raise

        def release() -> None:
            try:
                conn.execute(
                    sa.text("SELECT pg_advisory_unlock(:k)"), {"k": _WRITER_LOCK + self.evening_id}
                )
            finally:
                conn.close()

        return release

    def commit_batch(self, events: list[ev.Event], extra: Extra | None) -> bool:
        """Commit the events `apply_batch` played (audit log, projections, `extra`).

        Returns:
            False when another process committed first: the evening was reloaded, and the
            batch must be played again on it.

        Raises:
            Exception: the commit failed: the evening is reloaded (the batch did not happen).
        """
        with self._lock:
            try:
                self.seq, self.last_hash = self.store.append(
                    self.evening_id, events, self.seq, self.last_hash, extra, self.evening.sealed
                )
            except IntegrityError:
                log.warning("evening %s: concurrent write, batch played again", self.evening_id)
                self.reload()
                return False
            except Exception:
                log.exception("evening %s: commit failed; state reloaded", self.evening_id)
                self.reload()
                raise
            self._note(events)
            return True
