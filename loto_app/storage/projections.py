"""The query tables (players, sales, cartons, draws, marks, claims, lot tickets...) kept from the
events: one function per event kind, run in the transaction that writes the event to the log.

The audit log is the record; these tables are what the desk, the organiser's records and
the reports query. Events with no function here (`RECORD_ONLY`) are read from the log itself.

New rows are not ORM objects: each is a dict kept with the transaction (`Target.add`) and
written with the others of its table in one Core statement (`flush_rows`), before any
statement of a projection, at the end of the batch (`EventLog.append`), or when the caller
flushes (`flush`). Building, tracking and flushing an ORM object per row cost ~6 % of a join's
server CPU (a player row, three cartons and a purchase each).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from loto_app.domain import events as ev
from loto_app.domain.program import Program
from loto_app.domain.serial import check_code, lot_ticket_code
from loto_app.storage import models as m

_ROWS = "loto_new_rows"  # the session's `info` key of the rows not written yet


def pending_rows(s: Session, model: type) -> list[dict[str, Any]]:
    """The rows of `model`'s table added in this transaction and not written yet (a caller may
    amend them before they are: `EveningStore.player_secret_writer`)."""
    table = model.__table__  # type: ignore[attr-defined]
    return s.info.get(_ROWS, {}).get(table, [])


def flush_rows(s: Session) -> None:
    """Write the rows added in this transaction: one statement per table (per set of columns),
    in the order their tables were first added to."""
    rows: dict[sa.Table, list[dict[str, Any]]] | None = s.info.pop(_ROWS, None)
    if not rows:
        return
    conn = s.connection()
    for table, values in rows.items():
        by_columns: dict[frozenset[str], list[dict[str, Any]]] = {}
        for v in values:
            by_columns.setdefault(frozenset(v), []).append(v)
        for group in by_columns.values():
            conn.execute(sa.insert(table), group)


def flush(s: Session) -> None:
    """Write everything pending: the rows added here and the session's own objects."""
    flush_rows(s)
    s.flush()


@dataclass(frozen=True, slots=True)
class Target:
    """Where one event is projected: the transaction, the evening, its program and série key,
    and the commit's time."""

    s: Session
    evening_id: int
    program: Program
    key: bytes
    now: datetime

    def add(self, model: type, **values: Any) -> None:
        """A new row of `model`'s table, written with the others (`flush_rows`); columns left
        out take their defaults."""
        table = model.__table__  # type: ignore[attr-defined]
        self.s.info.setdefault(_ROWS, {}).setdefault(table, []).append(values)

    def exec(self, statement: Any) -> None:
        """Run an UPDATE or DELETE once the rows added before it are written."""
        flush_rows(self.s)
        self.s.exec(statement)


def _player_joined(t: Target, e: ev.PlayerJoined) -> None:
    t.add(
        m.PlayerRow,
        evening_id=t.evening_id,
        player_id=e.player_id,
        name=e.name,
        joined_at=t.now,
        origin=e.origin,
    )


def _sale_recorded(t: Target, e: ev.SaleRecorded) -> None:
    pending = e.method == "pending"
    t.add(
        m.SaleRow,
        evening_id=t.evening_id,
        no=e.sale_no,
        player_id=e.player_id,
        offer=e.offer,
        kind=e.kind,
        quantity=e.quantity,
        planche=e.planche,
        amount_cents=e.amount_cents,
        method=e.method,
        seller=e.seller,
        status="pending" if pending else "paid",
        purchase_no=e.purchase_no,
        at=t.now,
        settled_at=None if pending else t.now,
    )


def _update_sale(t: Target, sale_no: int, **values: Any) -> None:
    t.exec(
        sa.update(m.SaleRow)
        .where(m.SaleRow.evening_id == t.evening_id, m.SaleRow.no == sale_no)
        .values(**values)
    )


def _payment_confirmed(t: Target, e: ev.PaymentConfirmed) -> None:
    _update_sale(
        t,
        e.sale_no,
        status="paid",
        method=e.method,
        cashier=e.cashier,
        purchase_no=e.purchase_no,
        settled_at=t.now,
    )


def _sale_cancelled(t: Target, e: ev.SaleCancelled) -> None:
    _update_sale(
        t,
        e.sale_no,
        status="cancelled",
        cancelled_by=e.by,
        cancel_reason=e.reason,
        refunded_cents=e.refunded_cents,
        cancelled_at=t.now,
    )


def _lot_handed_over(t: Target, e: ev.LotHandedOver) -> None:
    t.exec(
        sa.update(m.AwardRow)
        .where(m.AwardRow.evening_id == t.evening_id, m.AwardRow.ticket_no == e.ticket_no)
        .values(handed_over=True, handed_by=e.by, handed_at=t.now)
    )


def _cartons_printed(t: Target, e: ev.CartonsPrinted) -> None:
    for no, unit, rows in e.cartons:
        t.add(
            m.CartonRow,
            evening_id=t.evening_id,
            no=no,
            kind=e.kind,
            unit=unit,
            grid=[list(r) for r in rows],
            check_code=check_code(t.key, t.program.series, no),
            printed_at=t.now,
        )


def _cartons_sold(t: Target, e: ev.CartonsSold) -> None:
    t.add(
        m.PurchaseRow,
        evening_id=t.evening_id,
        no=e.purchase_no,
        player_id=e.player_id,
        kind=e.kind,
        carton_nos=list(e.carton_nos),
        first_game=e.first_game,
        reason=e.reason,
        at=t.now,
    )


def _game_started(t: Target, e: ev.GameStarted) -> None:
    spec = t.program.games[e.game]
    t.add(
        m.GameRow,
        evening_id=t.evening_id,
        idx=e.game,
        kind=spec.kind.value,
        status="running",
        started_at=t.now,
    )
    for i, st in enumerate(spec.stages):
        t.add(
            m.StageRow,
            evening_id=t.evening_id,
            game_idx=e.game,
            idx=i,
            pattern=st.pattern.value,
            lot_description=st.lot.description,
            lot_value_cents=st.lot.value_cents,
            lot_divisible=st.lot.divisible,
        )


def _number_drawn(t: Target, e: ev.NumberDrawn) -> None:
    t.add(
        m.DrawRow,
        evening_id=t.evening_id,
        game_idx=e.game,
        seq=e.seq,
        number=e.number,
        source=e.source,
        at=t.now,
    )


def _draw_corrected(t: Target, e: ev.DrawCorrected) -> None:
    t.exec(
        sa.update(m.DrawRow)
        .where(
            m.DrawRow.evening_id == t.evening_id,
            m.DrawRow.game_idx == e.game,
            m.DrawRow.seq == e.seq,
        )
        .values(number=e.new, corrected_from=e.old, at=t.now)
    )
    _delete_marks(t, e.game, m.MarkRow.number == e.old)


def _delete_marks(t: Target, game: int, *where: Any) -> None:
    t.exec(
        sa.delete(m.MarkRow).where(
            m.MarkRow.evening_id == t.evening_id, m.MarkRow.game_idx == game, *where
        )
    )


def _cell_marked(t: Target, e: ev.CellMarked) -> None:
    t.add(
        m.MarkRow,
        evening_id=t.evening_id,
        game_idx=e.game,
        carton_no=e.carton_no,
        number=e.number,
        player_id=e.player_id,
        at=t.now,
    )


def _cell_unmarked(t: Target, e: ev.CellUnmarked) -> None:
    _delete_marks(t, e.game, m.MarkRow.carton_no == e.carton_no, m.MarkRow.number == e.number)


def _marks_saved(t: Target, e: ev.MarksSaved) -> None:
    """Many phones' pions in one statement or two (a batch of the marks path, live/marks.py):
    the rows of every cell a pion left (even if one came back), then the cells that end with
    one."""
    final: dict[tuple[int, int], tuple[str, int]] = {}
    off: list[tuple[int, int]] = []
    for pid, carton_no, number, on in e.marks:
        final[(carton_no, number)] = (pid, on)
        if not on:
            off.append((carton_no, number))
    if off:
        t.exec(
            sa.delete(m.MarkRow).where(
                m.MarkRow.evening_id == t.evening_id,
                m.MarkRow.game_idx == e.game,
                sa.tuple_(m.MarkRow.carton_no, m.MarkRow.number).in_(off),
            )
        )
    rows = [
        {
            "evening_id": t.evening_id,
            "game_idx": e.game,
            "carton_no": carton_no,
            "number": number,
            "player_id": pid,
            "at": t.now,
        }
        for (carton_no, number), (pid, on) in final.items()
        if on
    ]
    for row in rows:
        t.add(m.MarkRow, **row)


def _cartons_cleared(t: Target, e: ev.CartonsCleared) -> None:
    _delete_marks(t, e.game, m.MarkRow.player_id == e.player_id)


def _claim_made(t: Target, e: ev.ClaimMade) -> None:
    t.add(
        m.ClaimRow,
        evening_id=t.evening_id,
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
        at=t.now,
    )


def _tie_broken(t: Target, e: ev.TieBroken) -> None:
    t.add(
        m.TieBreakRow,
        evening_id=t.evening_id,
        game_idx=e.game,
        stage_idx=e.stage,
        method=e.method,
        tokens=[list(x) for x in e.tokens],
        winners=list(e.winners),
        at=t.now,
    )


def _lot_tickets(t: Target, e: ev.Event) -> None:
    """The lot tickets an event issues (an award, a lot given, a "carton offert" voucher)."""
    for lt in ev.issued_tickets(e):
        t.add(
            m.AwardRow,
            evening_id=t.evening_id,
            ticket_no=lt.no,
            game_idx=lt.game,
            stage_idx=lt.stage,
            player_id=lt.player_id,
            share=lt.share,
            code=lot_ticket_code(t.key, t.program.series, lt.no, lt.player_id),
            at=t.now,
        )


def _set_game_status(t: Target, game: int, **values: Any) -> None:
    t.exec(
        sa.update(m.GameRow)
        .where(m.GameRow.evening_id == t.evening_id, m.GameRow.idx == game)
        .values(**values)
    )


def _stage_awarded(t: Target, e: ev.StageAwarded) -> None:
    _lot_tickets(t, e)
    t.exec(
        sa.update(m.StageRow)
        .where(
            m.StageRow.evening_id == t.evening_id,
            m.StageRow.game_idx == e.game,
            m.StageRow.idx == e.stage,
        )
        .values(awarded_at=t.now)
    )
    if e.stage == len(t.program.games[e.game].stages) - 1:
        _set_game_status(t, e.game, status="awaiting_unmark")


def _unmark_allowed(t: Target, e: ev.UnmarkAllowed) -> None:
    _set_game_status(t, e.game, status="finished", ended_at=t.now)


def _evening_closed(t: Target, e: ev.EveningClosed) -> None:
    """What the handlers outside the engine (the desk's staff, the TV pairing) read."""
    t.exec(
        sa.update(m.EveningRow)
        .where(m.EveningRow.id == t.evening_id)
        .values(closed_at=t.now, closed_by=e.by)
    )


PROJECTIONS: dict[type[ev.Event], Callable[[Target, Any], None]] = {
    ev.PlayerJoined: _player_joined,
    ev.SaleRecorded: _sale_recorded,
    ev.PaymentConfirmed: _payment_confirmed,
    ev.SaleCancelled: _sale_cancelled,
    ev.LotHandedOver: _lot_handed_over,
    ev.CartonsPrinted: _cartons_printed,
    ev.CartonsSold: _cartons_sold,
    ev.GameStarted: _game_started,
    ev.NumberDrawn: _number_drawn,
    ev.DrawCorrected: _draw_corrected,
    ev.CellMarked: _cell_marked,
    ev.CellUnmarked: _cell_unmarked,
    ev.MarksSaved: _marks_saved,
    ev.CartonsCleared: _cartons_cleared,
    ev.ClaimMade: _claim_made,
    ev.TieBroken: _tie_broken,
    ev.StageAwarded: _stage_awarded,
    ev.UnmarkAllowed: _unmark_allowed,
    ev.VoucherIssued: _lot_tickets,  # a "carton offert" voucher: a lot ticket like any
    ev.LotGiven: _lot_tickets,  # a lot given by a decision
    ev.EveningClosed: _evening_closed,
}

#: Events whose only record is the audit log (the report reads it there).
RECORD_ONLY: frozenset[type[ev.Event]] = frozenset(
    {
        ev.TillClosed,
        ev.ShareOffered,
        ev.ShareAnswered,
        ev.LastCallOpened,
        ev.LastCallClosed,
        ev.CartonReinstated,
        ev.VerdictOverturned,
        ev.ConsolationGiven,
        ev.AwardWithdrawn,
        ev.ProgramAmended,  # (the log holds the program; `EventLog.current_program` reads it)
        ev.PauseStarted,  # (an entracte: the hall screen's, told from the log)
        ev.PauseEnded,
        ev.LotPhotoSet,  # (the pictures' bytes are written beside, storage/media.py)
        ev.PartnerAdded,
        ev.PartnerRemoved,
        ev.DrawCommitted,  # (its seed: `EventLog.append`, the table draw_seed)
        ev.DrawRevealed,
        ev.PaperPrinted,  # (the cartons: `CartonsPrinted`; the reconciliation reads the log)
        ev.PaperCartonRefused,
        ev.LinesTyped,  # (a carton in no list: the lines typed, read from the log)
        ev.OwnCartonsRegistered,  # (the engine and the reconciliation read the log)
        ev.StageLapsed,  # (a jackpot not won in time: the report reads it in the log)
        ev.SuddenDeathBall,  # (the mort subite's balls: the procès-verbal reads them there)
        ev.PlayerInvited,  # (its link's token: `AccessStore.invitation_writer`, invitation)
        ev.InvitationUsed,  # (the report reads the remote players from `PlayerJoined`)
    }
)


def project(
    s: Session, evening_id: int, program: Program, key: bytes, e: ev.Event, now: datetime
) -> None:
    """Write what one event changes in the query tables (in the caller's transaction).

    Raises:
        TypeError: an event kind with no projection (a new event must be added here).
    """
    fn = PROJECTIONS.get(type(e))
    if fn is not None:
        fn(Target(s, evening_id, program, key, now), e)
    elif type(e) not in RECORD_ONLY:
        raise TypeError(f"no projection for {e!r}")
