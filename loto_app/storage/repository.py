"""Evenings and their secrets: creating an evening (its série key, the animateur's and the
organiser's secrets, the invitation token), finding one by its join code, a player by the
secret identity their browser keeps. The event log itself is `eventlog.EventLog`, which
`EveningStore` extends; the query tables are `projections`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from loto_app.domain.program import Program
from loto_app.storage import models as m
from loto_app.storage.eventlog import EventLog
from loto_app.storage.projections import flush, pending_rows
from loto_app.storage.secrets import hash_secret, new_code


@dataclass(frozen=True, slots=True)
class Credentials:
    """What the organiser gets when an evening is created (the secret is shown once)."""

    evening_id: int
    join_code: str
    animateur_secret: str
    organiser_secret: str = ""
    invitation: str = ""  # the token of the remote players' invitation link


class EveningStore(EventLog):
    """Database access for evenings, on one SQLAlchemy engine (SQLite or PostgreSQL): the
    evenings and their secrets here, their event log inherited from `EventLog`."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self._codes: dict[str, int] = {}  # join code -> evening id (never changes)
        self._rehearsals: dict[int, int | None] = {}  # evening id -> the evening it rehearses

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
        rehearsal_of: int | None = None,
    ) -> Credentials:
        """Create an evening with its série, a fresh secret key, the animateur's and the
        organiser's secrets and the token of the remote players' invitation link
        (`rehearsal_of`: a rehearsal of that evening, `storage/rehearsal.py`).

        Raises:
            IntegrityError: that evening has a rehearsal already (a unique index).
        """
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
                rehearsal_of=rehearsal_of,
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

    def known_code(self, join_code: str) -> int | None:
        """The evening of a join code already found (memory only: no database read)."""
        return self._codes.get(join_code.strip().upper())

    def evening_id_for_code(self, join_code: str) -> int | None:
        """The evening a join code opens (case-insensitive). A code never changes once given
        (a deleted evening, a rehearsal, is forgotten: `forget`), so codes found are
        remembered: every join and every resume of a phone asks."""
        code = join_code.strip().upper()
        if code in self._codes:
            return self._codes[code]
        with Session(self.engine) as s:
            found = s.exec(select(m.EveningRow.id).where(m.EveningRow.join_code == code)).first()
        if found is not None:
            self._codes[code] = found
        return found

    def rehearsal_of(self, evening_id: int) -> int | None:
        """The real evening a rehearsal copies; None for a real evening (never changes: kept
        in memory once read, since every screen's picture says it)."""
        if evening_id not in self._rehearsals:
            with Session(self.engine) as s:
                row = s.get(m.EveningRow, evening_id)
            if row is None:
                raise KeyError(f"no evening {evening_id}")
            self._rehearsals[evening_id] = row.rehearsal_of
        return self._rehearsals[evening_id]

    def forget(self, evening_id: int) -> None:
        """Drop what this process remembers of a deleted evening (a rehearsal), so that an
        evening given its id later is read afresh."""
        self._rehearsals.pop(evening_id, None)
        self._meta.pop(evening_id, None)
        self._codes_by_id.pop(evening_id, None)
        for code in [c for c, eid in self._codes.items() if eid == evening_id]:
            del self._codes[code]

    def describe(self, evening_id: int) -> tuple[str, str]:
        """The evening's name and join code."""
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
        if row is None:
            raise KeyError(f"no evening {evening_id}")
        return row.name, row.join_code

    def player_secret_writer(
        self, evening_id: int, player_id: str, secret: str
    ) -> Callable[[Session], None]:
        """The write of a new player's secret digest, for the transaction that commits their
        join (the `extra` of `EventLog.append`)."""

        table = m.PlayerRow.__table__
        digest = hash_secret(secret)

        def write(s: Session) -> None:
            # The projection's row, not written yet, takes the digest with it: one INSERT.
            for row in reversed(pending_rows(s, m.PlayerRow)):  # (the batch's last joiner first)
                if row["evening_id"] == evening_id and row["player_id"] == player_id:
                    row["secret_hash"] = digest
                    return
            # Else (the row was written): a Core statement on the transaction's connection.
            flush(s)
            s.connection().execute(
                sa.update(table)
                .where(table.c.evening_id == evening_id, table.c.player_id == player_id)
                .values(secret_hash=digest)
            )

        return write
