"""A rehearsal's rows: made from the real evening (`create`), found (`find`), and deleted whole
(`delete`). What the copy holds is the domain's (`domain/rehearsal.py`); here it is written:
a new evening row (its own join code, animateur and organiser secrets, série key) flagged
`rehearsal_of`, the real evening's desk members (the same secrets sign them in to the copy,
with its code), and a log of its own that starts with the pictures the hall screen shows.

Nothing here writes a row of the real evening: its log, its projections and its report stay as
they were (`tests/storage/test_rehearsal_rows.py` compares them byte for byte).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from loto_app.domain import rehearsal as rules
from loto_app.refusal import Refusal
from loto_app.storage import models as m
from loto_app.storage.audit import GENESIS
from loto_app.storage.repository import Credentials, EveningStore

log = logging.getLogger(__name__)

ALREADY = (
    "Une répétition de cette soirée existe déjà\u00a0: supprimez-la avant d'en faire une autre."
)
OF_A_REHEARSAL = "Cette soirée est déjà une répétition."


class RehearsalError(Refusal, ValueError):
    """A rehearsal refused, with a French message for the organiser."""


@dataclass(frozen=True, slots=True)
class Rehearsal:
    """The rehearsal of an evening, as the organiser's page lists it."""

    evening_id: int
    name: str
    join_code: str
    created_at: datetime


def _tables_of_an_evening() -> list[sa.Table]:
    """Every table holding an evening's rows (by its `evening_id`), children first."""
    tables = [t for t in SQLModel.metadata.sorted_tables if "evening_id" in t.c]
    return list(reversed(tables))


def find(store: EveningStore, real_id: int) -> Rehearsal | None:
    """The rehearsal of an evening, if it has one."""
    with Session(store.engine) as s:
        row = s.exec(select(m.EveningRow).where(m.EveningRow.rehearsal_of == real_id)).first()
    if row is None or row.id is None:
        return None
    return Rehearsal(row.id, row.name, row.join_code, row.created_at)


def create(store: EveningStore, real_id: int) -> Credentials:
    """Make the rehearsal of an evening: its program as it stands now, its lots' photos and
    partners, its desk members; a new join code and animateur secret (returned, shown once).

    Raises:
        RehearsalError: the evening has a rehearsal already, or is one.
        KeyError: no such evening.
    """
    with Session(store.engine) as s:
        real = s.get(m.EveningRow, real_id)
        if real is None:
            raise KeyError(f"no evening {real_id}")
        if real.rehearsal_of is not None:
            raise RehearsalError(f"evening {real_id} is a rehearsal", OF_A_REHEARSAL)
        name, date = real.name, real.date
        staff = s.exec(
            select(m.StaffRow).where(m.StaffRow.evening_id == real_id, m.StaffRow.active)
        ).all()
        members = [(r.name, r.role, r.secret_hash) for r in staff]
    if find(store, real_id) is not None:
        raise RehearsalError(f"evening {real_id} has a rehearsal", ALREADY)
    program = store.current_program(real_id)
    engine, _, _ = store.load(real_id)
    opening = rules.opening_events(engine)
    try:
        made = store.create_evening(
            rules.rehearsal_name(name), program, date=date, rehearsal_of=real_id
        )
    except IntegrityError as exc:  # (another tap made one meanwhile)
        raise RehearsalError(f"evening {real_id} has a rehearsal", ALREADY) from exc
    rid = made.evening_id
    pictures = rules.digests(opening)

    def copy(s: Session) -> None:
        conn = s.connection()
        for member, role, digest in members:
            conn.execute(
                sa.insert(m.StaffRow.__table__).values(
                    evening_id=rid,
                    name=member,
                    role=role,
                    secret_hash=digest,
                    active=True,
                    created_at=m.utcnow(),
                )
            )
        if pictures:
            table = m.PictureRow.__table__
            rows = conn.execute(
                sa.select(table).where(table.c.evening_id == real_id, table.c.digest.in_(pictures))
            ).mappings()
            for row in rows:
                conn.execute(sa.insert(table).values({**row, "evening_id": rid}))

    if opening:
        store.append(rid, opening, 0, GENESIS, extra=copy)
    else:
        with Session(store.engine) as s:
            copy(s)
            s.commit()
    log.info("evening %s: rehearsal %s made (%d events)", real_id, rid, len(opening))
    return made


def delete(store: EveningStore, real_id: int) -> int | None:
    """Delete an evening's rehearsal whole (every row of it, its log), in one transaction;
    returns its id (None: there was none). The real evening is not read, nor written."""
    found = find(store, real_id)
    if found is None:
        return None
    rid = found.evening_id
    with Session(store.engine) as s:
        conn = s.connection()
        for table in _tables_of_an_evening():
            conn.execute(sa.delete(table).where(table.c.evening_id == rid))
        evening = m.EveningRow.__table__
        conn.execute(
            sa.delete(evening).where(evening.c.id == rid, evening.c.rehearsal_of == real_id)
        )
        s.commit()
    store.forget(rid)
    log.info("evening %s: rehearsal %s deleted", real_id, rid)
    return rid
