"""Load and save evenings: every event is committed (audit log + projections, one
transaction) before the caller may announce it, and an evening is restored by replaying its log.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import LotoError
from loto_app.domain.program import Program
from loto_app.domain.serial import check_code, lot_ticket_code
from loto_app.storage import models as m
from loto_app.storage.audit import GENESIS, entry_hash, verify_chain

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
JOIN_CODE_LENGTH = 6


def hash_secret(secret: str) -> str:
    """Secrets are stored as SHA-256 digests (they are long random tokens: no salt needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A random code that reads well aloud and on a screen."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


@dataclass(frozen=True, slots=True)
class Credentials:
    """What the organiser gets when an evening is created (the secret is shown once)."""

    evening_id: int
    join_code: str
    animateur_secret: str
    organiser_secret: str = ""
    invitation: str = ""  # the token of the remote players' invitation link


class EveningStore:
    """Database access for evenings, on one SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._meta: dict[int, tuple[Program, bytes]] = {}  # immutable once created
        self._codes: dict[str, int] = {}  # join code -> evening id (never changes)

    # ------------------------------------------------------------------ evenings

    def create_evening(
        self,
        name: str,
        program: Program,
        *,
        date: str = "",
        join_code: str | None = None,
        animateur_secret: str | None = None,
        organiser_secret: str | None = None,
    ) -> Credentials:
        """Create an evening with its série, a fresh secret key, the animateur's and the
        organiser's secrets and the token of the remote players' invitation link."""
        secret = animateur_secret or secrets.token_urlsafe(9)
        organiser = organiser_secret or secrets.token_urlsafe(12)
        invitation = secrets.token_urlsafe(12)
        with Session(self.engine) as s:
            for _ in range(20):
                code = join_code or new_code()
                if s.exec(select(m.EveningRow.id).where(m.EveningRow.join_code == code)).first():
                    if join_code:
                        raise ValueError(f"join code {join_code} already used")
                    continue
                break
            row = m.EveningRow(
                name=name,
                date=date,
                join_code=code,
                animateur_secret_hash=hash_secret(secret),
                program=program.to_dict(),
                organiser_secret_hash=hash_secret(organiser),
                invitation_token=invitation,
            )
            s.add(row)
            s.flush()
            assert row.id is not None
            s.add(
                m.SeriesRow(
                    evening_id=row.id, code=program.series, key_hex=secrets.token_bytes(32).hex()
                )
            )
            s.commit()
            return Credentials(row.id, code, secret, organiser, invitation)

    def evening_id_for_code(self, join_code: str) -> int | None:
        """The evening a join code opens (case-insensitive). A code never changes once given
        (nor is an evening deleted), so codes found are remembered: every join and every
        resume of a phone asks."""
        code = join_code.strip().upper()
        if code in self._codes:
            return self._codes[code]
        with Session(self.engine) as s:
            found = s.exec(select(m.EveningRow.id).where(m.EveningRow.join_code == code)).first()
        if found is not None:
            self._codes[code] = found
        return found

    def describe(self, evening_id: int) -> tuple[str, str]:
        """The evening's name and join code."""
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
        if row is None:
            raise KeyError(f"no evening {evening_id}")
        return row.name, row.join_code

    def player_for_secret(self, evening_id: int, secret: str) -> str | None:
        """The player id a browser's secret identity resolves to (checked by the one store of
        credential checks, `storage/access.py`)."""
        from loto_app.storage.access import AccessStore  # (access.py imports this module)

        return AccessStore(self.engine).player_for_secret(evening_id, secret)

    def _program_and_key(self, s: Session, evening_id: int) -> tuple[Program, bytes]:
        if evening_id not in self._meta:
            row = s.get(m.EveningRow, evening_id)
            series = s.get(m.SeriesRow, evening_id)
            if row is None or series is None:
                raise KeyError(f"no evening {evening_id}")
            self._meta[evening_id] = (Program.from_dict(row.program), bytes.fromhex(series.key_hex))
        return self._meta[evening_id]

    # ------------------------------------------------------------------ the event log

    def load(self, evening_id: int) -> tuple[Evening, int, str]:
        """Replay an evening from its audit log.

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
        evening = Evening.replay(program, (ev.event_from_dict(p) for _, p, _ in rows), key)
        if rows:
            return evening, rows[-1][0], rows[-1][2]
        return evening, 0, GENESIS

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
    ) -> tuple[int, str]:
        """Commit events (audit log and projections) in one transaction.

        Raises:
            IntegrityError: another writer committed after `after_seq` first.
        """
        with Session(self.engine) as s:
            program, key = self._program_and_key(s, evening_id)
            seq, prev = after_seq, after_hash
            now = m.utcnow()
            for e in events:
                seq += 1
                payload = e.to_dict()
                h = entry_hash(prev, seq, now, e.type, payload)
                s.add(
                    m.AuditRow(
                        evening_id=evening_id,
                        seq=seq,
                        at=now,
                        type=e.type,
                        payload=payload,
                        prev_hash=prev,
                        hash=h,
                    )
                )
                _project(s, evening_id, program, key, e, now)
                prev = h
            if extra is not None:
                extra(s)
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


#: Advisory lock keys of the evenings' writers (PostgreSQL): this + the evening id.
_WRITER_LOCK = 0x10707 << 32


class LiveEvening:
    """An evening in memory, kept in step with the database.

    Every move runs on the engine, is committed, and only then returned to the caller: a move
    that cannot be committed is undone by reloading the evening. Before each move the evening
    catches up with events committed by other processes (several workers share one database).
    """

    def __init__(self, store: EveningStore, evening_id: int) -> None:
        self.store = store
        self.evening_id = evening_id
        self._lock = threading.RLock()
        self.name, self.join_code = store.describe(evening_id)
        self.evening, self.seq, self.last_hash = store.load(evening_id)
        self.drawn_at = store.draw_times(evening_id)

    def reload(self) -> None:
        """Drop the in-memory state and replay it from the database."""
        with self._lock:
            self.evening, self.seq, self.last_hash = self.store.load(self.evening_id)
            self.drawn_at = self.store.draw_times(self.evening_id)

    def catch_up(self) -> None:
        """Apply the events other processes committed since our last one.

        First a look at the log's last sequence number without the lock, so that a page
        loading while a move commits does not wait for it when there is nothing to catch up.
        """
        with Session(self.store.engine) as s:
            last = s.exec(
                select(sa.func.max(m.AuditRow.seq)).where(m.AuditRow.evening_id == self.evening_id)
            ).one()
        if (last or 0) <= self.seq:
            return
        with self._lock:
            for seq, e, h in self.store.events_after(self.evening_id, self.seq):
                self.evening._apply(e)
                self.seq, self.last_hash = seq, h
                self._note([e])

    def run(
        self,
        move: Callable[[Evening], list[ev.Event]],
        extra: Callable[[Session], None] | None = None,
    ) -> list[ev.Event]:
        """Play a move and commit its events.

        Raises:
            LotoError: the move is illegal (nothing changed).
        """
        with self._lock:
            for attempt in range(3):
                self.catch_up()
                try:
                    events = move(self.evening)
                except LotoError:
                    raise
                except Exception:
                    self.reload()
                    raise
                if not events:
                    return events
                try:
                    self.seq, self.last_hash = self.store.append(
                        self.evening_id, events, self.seq, self.last_hash, extra
                    )
                    self._note(events)
                    return events
                except IntegrityError:
                    log.warning(
                        "evening %s: concurrent write, retrying (%d)", self.evening_id, attempt + 1
                    )
                    self.reload()
                except Exception:
                    log.exception("evening %s: commit failed; state reloaded", self.evening_id)
                    self.reload()
                    raise
            raise RuntimeError(f"evening {self.evening_id}: could not commit after 3 attempts")

    def _note(self, events: list[ev.Event]) -> None:
        """Keep the time of each draw (for the hall's draw rhythm)."""
        for e in events:
            if isinstance(e, ev.NumberDrawn):
                self.drawn_at.setdefault(e.game, []).append(time.time())

    def join(self, name: str, origin: str = "hall") -> tuple[str, str]:
        """Register a new player; returns (player id, secret identity for the browser)."""
        move, set_secret, player_id, secret = self.join_move(name, origin)
        self.run(move, extra=set_secret)
        return player_id, secret

    def join_move(
        self, name: str, origin: str = "hall"
    ) -> tuple[Callable[[Evening], list[ev.Event]], Callable[[Session], None], str, str]:
        """A new player's move, the write of their secret's digest (same transaction), their
        id and their secret identity: for `run` or `run_batch`."""
        player_id = uuid.uuid4().hex[:16]
        secret = secrets.token_urlsafe(24)

        def set_secret(s: Session) -> None:
            s.exec(
                sa.update(m.PlayerRow)
                .where(
                    m.PlayerRow.evening_id == self.evening_id, m.PlayerRow.player_id == player_id
                )
                .values(secret_hash=hash_secret(secret))
            )

        return (lambda e: e.join(player_id, name, origin)), set_secret, player_id, secret

    def apply_batch(
        self,
        moves: list[tuple[Callable[[Evening], list[ev.Event]], Callable[[Session], None] | None]],
    ) -> tuple[list[list[ev.Event] | LotoError], list[ev.Event], Callable[[Session], None] | None]:
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
        extras: list[Callable[[Session], None]] = []
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

    def commit_batch(self, events: list[ev.Event], extra: Callable[[Session], None] | None) -> bool:
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
                    self.evening_id, events, self.seq, self.last_hash, extra
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


# ---------------------------------------------------------------------- projections


def _project(s: Session, evening_id: int, program: Program, key: bytes, e: ev.Event, now) -> None:
    eid = evening_id
    match e:
        case ev.PlayerJoined():
            s.add(
                m.PlayerRow(
                    evening_id=eid,
                    player_id=e.player_id,
                    name=e.name,
                    joined_at=now,
                    origin=e.origin,
                )
            )
        case ev.SaleRecorded():
            s.add(
                m.SaleRow(
                    evening_id=eid,
                    no=e.sale_no,
                    player_id=e.player_id,
                    offer=e.offer,
                    kind=e.kind,
                    quantity=e.quantity,
                    planche=e.planche,
                    amount_cents=e.amount_cents,
                    method=e.method,
                    seller=e.seller,
                    status="pending" if e.method == "pending" else "paid",
                    purchase_no=e.purchase_no,
                    at=now,
                    settled_at=None if e.method == "pending" else now,
                )
            )
        case ev.PaymentConfirmed():
            s.exec(
                sa.update(m.SaleRow)
                .where(m.SaleRow.evening_id == eid, m.SaleRow.no == e.sale_no)
                .values(
                    status="paid",
                    method=e.method,
                    cashier=e.cashier,
                    purchase_no=e.purchase_no,
                    settled_at=now,
                )
            )
        case ev.SaleCancelled():
            s.exec(
                sa.update(m.SaleRow)
                .where(m.SaleRow.evening_id == eid, m.SaleRow.no == e.sale_no)
                .values(
                    status="cancelled",
                    cancelled_by=e.by,
                    cancel_reason=e.reason,
                    refunded_cents=e.refunded_cents,
                    cancelled_at=now,
                )
            )
        case ev.LotHandedOver():
            s.exec(
                sa.update(m.AwardRow)
                .where(m.AwardRow.evening_id == eid, m.AwardRow.ticket_no == e.ticket_no)
                .values(handed_over=True, handed_by=e.by, handed_at=now)
            )
        case ev.TillClosed():
            pass  # the audit log is its record
        case ev.CartonsPrinted():
            for no, unit, rows in e.cartons:
                s.add(
                    m.CartonRow(
                        evening_id=eid,
                        no=no,
                        kind=e.kind,
                        unit=unit,
                        grid=[list(r) for r in rows],
                        check_code=check_code(key, program.series, no),
                        printed_at=now,
                    )
                )
        case ev.CartonsSold():
            s.add(
                m.PurchaseRow(
                    evening_id=eid,
                    no=e.purchase_no,
                    player_id=e.player_id,
                    kind=e.kind,
                    carton_nos=list(e.carton_nos),
                    first_game=e.first_game,
                    reason=e.reason,
                    at=now,
                )
            )
        case ev.GameStarted():
            spec = program.games[e.game]
            s.add(
                m.GameRow(
                    evening_id=eid,
                    idx=e.game,
                    kind=spec.kind.value,
                    status="running",
                    started_at=now,
                )
            )
            for i, st in enumerate(spec.stages):
                s.add(
                    m.StageRow(
                        evening_id=eid,
                        game_idx=e.game,
                        idx=i,
                        pattern=st.pattern.value,
                        lot_description=st.lot.description,
                        lot_value_cents=st.lot.value_cents,
                        lot_divisible=st.lot.divisible,
                    )
                )
        case ev.NumberDrawn():
            s.add(
                m.DrawRow(
                    evening_id=eid,
                    game_idx=e.game,
                    seq=e.seq,
                    number=e.number,
                    source=e.source,
                    at=now,
                )
            )
        case ev.DrawCorrected():
            s.exec(
                sa.update(m.DrawRow)
                .where(
                    m.DrawRow.evening_id == eid,
                    m.DrawRow.game_idx == e.game,
                    m.DrawRow.seq == e.seq,
                )
                .values(number=e.new, corrected_from=e.old, at=now)
            )
            s.exec(
                sa.delete(m.MarkRow).where(
                    m.MarkRow.evening_id == eid,
                    m.MarkRow.game_idx == e.game,
                    m.MarkRow.number == e.old,
                )
            )
        case ev.CellMarked():
            s.add(
                m.MarkRow(
                    evening_id=eid,
                    game_idx=e.game,
                    carton_no=e.carton_no,
                    number=e.number,
                    player_id=e.player_id,
                    at=now,
                )
            )
        case ev.CellUnmarked():
            s.exec(
                sa.delete(m.MarkRow).where(
                    m.MarkRow.evening_id == eid,
                    m.MarkRow.game_idx == e.game,
                    m.MarkRow.carton_no == e.carton_no,
                    m.MarkRow.number == e.number,
                )
            )
        case ev.CartonsCleared():
            s.exec(
                sa.delete(m.MarkRow).where(
                    m.MarkRow.evening_id == eid,
                    m.MarkRow.game_idx == e.game,
                    m.MarkRow.player_id == e.player_id,
                )
            )
        case ev.ClaimMade():
            s.add(
                m.ClaimRow(
                    evening_id=eid,
                    no=e.claim_no,
                    game_idx=e.game,
                    stage_idx=e.stage,
                    player_id=e.player_id,
                    carton_no=e.carton_no,
                    unit_nos=list(e.unit_nos),
                    number=e.number,
                    verdict=e.verdict,
                    winning=list(e.winning),
                    via=e.via,
                    at=now,
                )
            )
        case ev.TieBroken():
            s.add(
                m.TieBreakRow(
                    evening_id=eid,
                    game_idx=e.game,
                    stage_idx=e.stage,
                    method=e.method,
                    tokens=[list(t) for t in e.tokens],
                    winners=list(e.winners),
                    at=now,
                )
            )
        case ev.StageAwarded():
            for ticket, player, share in e.tickets:
                s.add(
                    m.AwardRow(
                        evening_id=eid,
                        ticket_no=ticket,
                        game_idx=e.game,
                        stage_idx=e.stage,
                        player_id=player,
                        share=share,
                        code=lot_ticket_code(key, program.series, ticket, player),
                        at=now,
                    )
                )
            s.exec(
                sa.update(m.StageRow)
                .where(
                    m.StageRow.evening_id == eid,
                    m.StageRow.game_idx == e.game,
                    m.StageRow.idx == e.stage,
                )
                .values(awarded_at=now)
            )
            if e.stage == len(program.games[e.game].stages) - 1:
                s.exec(
                    sa.update(m.GameRow)
                    .where(m.GameRow.evening_id == eid, m.GameRow.idx == e.game)
                    .values(status="awaiting_unmark")
                )
        case ev.UnmarkAllowed():
            s.exec(
                sa.update(m.GameRow)
                .where(m.GameRow.evening_id == eid, m.GameRow.idx == e.game)
                .values(status="finished", ended_at=now)
            )
        case ev.VoucherIssued() | ev.LotGiven():
            # a "carton offert" voucher, a lot given by a decision: lot tickets like any
            s.add(
                m.AwardRow(
                    evening_id=eid,
                    ticket_no=e.ticket_no,
                    game_idx=e.game,
                    stage_idx=e.stage,
                    player_id=e.player_id,
                    share="1",
                    code=lot_ticket_code(key, program.series, e.ticket_no, e.player_id),
                    at=now,
                )
            )
        case (
            ev.ShareOffered()
            | ev.ShareAnswered()
            | ev.LastCallOpened()
            | ev.LastCallClosed()
            | ev.CartonReinstated()
            | ev.VerdictOverturned()
            | ev.ConsolationGiven()
            | ev.AwardWithdrawn()
        ):
            pass  # the audit log is their record (the report reads it)
        case _:
            raise TypeError(f"no projection for {e!r}")
