"""SQLModel tables.

`audit_log` is the source of truth: the append-only, hash-chained list of domain events of each
evening, from which the engine state is replayed. The other tables are projections of the same
events, written in the same transaction, for queries and reports (a player's cartons, the
claims of a game, the lot tickets, the sales).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    """The server clock (UTC)."""
    return datetime.now(UTC)


def _ts() -> Any:
    return Field(default_factory=utcnow, sa_type=sa.DateTime(timezone=True), nullable=False)


def _json() -> Any:
    return Field(default=None, sa_type=sa.JSON, nullable=False)


class EveningRow(SQLModel, table=True):
    """A loto evening (or a rehearsal of one: `rehearsal_of`)."""

    __tablename__ = "evening"
    # one rehearsal at a time per evening (domain/rehearsal.py, storage/rehearsal.py)
    __table_args__ = (sa.Index("ix_evening_rehearsal_of", "rehearsal_of", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    date: str = Field(default="", max_length=10)  # ISO date of the evening
    join_code: str = Field(max_length=12, unique=True, index=True)
    animateur_secret_hash: str = Field(max_length=64)
    program: dict = _json()
    created_at: datetime = _ts()
    organiser_secret_hash: str | None = Field(default=None, max_length=64)
    invitation_token: str | None = Field(default=None, max_length=32)
    # the organiser closed the evening's books (`EveningClosed`): read-only from then on
    closed_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))
    closed_by: str = Field(default="", max_length=30)
    # a rehearsal: the real evening it copies (None: a real evening). Not a foreign key, so
    # that either may go without the other's rows in the way; deleted with its own rows.
    rehearsal_of: int | None = Field(default=None)


class StaffRow(SQLModel, table=True):
    """A member of the desk: a vendeur (sells cartons) or a caissier (settles and closes)."""

    __tablename__ = "staff"
    __table_args__ = (sa.UniqueConstraint("evening_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    name: str = Field(max_length=30)
    role: str = Field(max_length=10)  # "vendeur" | "caissier"
    secret_hash: str = Field(max_length=64, index=True)
    active: bool = True
    created_at: datetime = _ts()


class SeriesRow(SQLModel, table=True):
    """The série announced at the start; its secret key signs carton and lot codes."""

    __tablename__ = "series"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    code: str = Field(max_length=16)
    key_hex: str = Field(max_length=128)


class DrawSeedRow(SQLModel, table=True):
    """The secret seed of a committed electronic draw (`DrawCommitted`), kept apart from the
    log: it is written with the commitment, read back when the evening is loaded (a restart
    continues the same order), and enters the log only at the game's end (`DrawRevealed`).
    Nothing of the app shows it, and the evening file carries only the log."""

    __tablename__ = "draw_seed"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    game_idx: int = Field(primary_key=True)
    seed_hex: str = Field(max_length=64)
    at: datetime = _ts()


class InvitationRow(SQLModel, table=True):
    """A personal invitation to play at a distance (`PlayerInvited`): the token of its link,
    written with the event by `AccessStore.invitation_writer`. The token stays readable (the
    organiser sends the link again when asked) and is never in the log; whether it was used
    is the engine's (`InvitationUsed`)."""

    __tablename__ = "invitation"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    no: int = Field(primary_key=True)
    name: str = Field(max_length=30)
    token: str = Field(max_length=32, index=True)
    created_at: datetime = _ts()


class PlayerRow(SQLModel, table=True):
    """A player of an evening; `secret_hash` identifies their browser."""

    __tablename__ = "player"
    __table_args__ = (sa.UniqueConstraint("evening_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    player_id: str = Field(max_length=64)
    name: str = Field(max_length=30)
    secret_hash: str | None = Field(default=None, max_length=64, index=True)
    joined_at: datetime = _ts()
    origin: str = Field(default="hall", max_length=8)  # hall | remote | paper


class CartonRow(SQLModel, table=True):
    """A carton of the série."""

    __tablename__ = "carton"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    no: int = Field(primary_key=True)
    kind: str = Field(max_length=12)
    unit: int
    grid: list = _json()
    check_code: str = Field(max_length=12)
    printed_at: datetime = _ts()


class PurchaseRow(SQLModel, table=True):
    """Cartons handed to a player (sale, planche, or consolation)."""

    __tablename__ = "purchase"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    no: int = Field(primary_key=True)
    player_id: str = Field(max_length=64, index=True)
    kind: str = Field(max_length=12)
    carton_nos: list = _json()
    first_game: int
    reason: str = Field(max_length=12)
    at: datetime = _ts()


class SaleRow(SQLModel, table=True):
    """A sale of a pack of cartons and its money: paid, "à régler" (pending) or cancelled."""

    __tablename__ = "sale"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    no: int = Field(primary_key=True)
    player_id: str = Field(max_length=64, index=True)
    offer: int
    kind: str = Field(max_length=12)
    quantity: int
    planche: bool = False
    amount_cents: int
    method: str = Field(max_length=12)
    seller: str = Field(default="", max_length=30)
    cashier: str = Field(default="", max_length=30)
    status: str = Field(max_length=10)
    purchase_no: int = 0
    cancelled_by: str = Field(default="", max_length=30)
    cancel_reason: str = Field(default="", max_length=120)
    refunded_cents: int = 0
    at: datetime = _ts()
    settled_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))
    cancelled_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))


class GameRow(SQLModel, table=True):
    """A game of the evening, once started."""

    __tablename__ = "game"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    idx: int = Field(primary_key=True)
    kind: str = Field(max_length=12)
    status: str = Field(max_length=20)
    started_at: datetime = _ts()
    ended_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))


class StageRow(SQLModel, table=True):
    """A stage of a started game and its lot."""

    __tablename__ = "stage"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    game_idx: int = Field(primary_key=True)
    idx: int = Field(primary_key=True)
    pattern: str = Field(max_length=16)
    lot_description: str = Field(max_length=120)
    lot_value_cents: int = 0
    lot_divisible: bool = False
    awarded_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))


class DrawRow(SQLModel, table=True):
    """A number drawn in a game (`corrected_from`: the mistyped ball it replaced)."""

    __tablename__ = "draw"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    game_idx: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    number: int
    source: str = Field(max_length=12)
    corrected_from: int | None = None
    at: datetime = _ts()


class MarkRow(SQLModel, table=True):
    """A pion on a cell (current marks; the audit log keeps every touch)."""

    __tablename__ = "mark"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    game_idx: int = Field(primary_key=True)
    carton_no: int = Field(primary_key=True)
    number: int = Field(primary_key=True)
    player_id: str = Field(max_length=64)
    at: datetime = _ts()


class ClaimRow(SQLModel, table=True):
    """A claim and its verdict."""

    __tablename__ = "claim"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    no: int = Field(primary_key=True)
    game_idx: int
    stage_idx: int
    player_id: str | None = Field(default=None, max_length=64)
    carton_no: int
    unit_nos: list = _json()
    number: int | None = None
    verdict: str = Field(max_length=16)
    winning: list = _json()
    via: str = Field(max_length=8)
    at: datetime = _ts()


class TieBreakRow(SQLModel, table=True):
    """An ex aequo settled by tokens or by an agreed share."""

    __tablename__ = "tie_break"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    game_idx: int = Field(primary_key=True)
    stage_idx: int = Field(primary_key=True)
    method: str = Field(max_length=8)
    tokens: list = _json()
    winners: list = _json()
    at: datetime = _ts()


class AwardRow(SQLModel, table=True):
    """A lot ticket: what the desk hands the lot against."""

    __tablename__ = "award"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    ticket_no: int = Field(primary_key=True)
    game_idx: int
    stage_idx: int
    player_id: str = Field(max_length=64)
    share: str = Field(max_length=4)
    code: str = Field(max_length=12)
    handed_over: bool = False
    at: datetime = _ts()
    handed_by: str = Field(default="", max_length=30)
    handed_at: datetime | None = Field(default=None, sa_type=sa.DateTime(timezone=True))


class AuditRow(SQLModel, table=True):
    """One domain event of an evening, append-only, chained by hashes."""

    __tablename__ = "audit_log"
    __table_args__ = (sa.UniqueConstraint("evening_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    evening_id: int = Field(foreign_key="evening.id", index=True)
    seq: int
    at: datetime = _ts()
    type: str = Field(max_length=32)
    payload: dict = _json()
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)


class PictureRow(SQLModel, table=True):
    """A picture of an evening (a lot's photo, a partner's logo) as the app made it (WebP,
    loto_app/images.py), by its digest: the log's events name it (`LotPhotoSet`,
    `PartnerAdded`), the hall screen and the phones load it from `/media/<digest>.webp`."""

    __tablename__ = "picture"

    evening_id: int = Field(foreign_key="evening.id", primary_key=True)
    digest: str = Field(max_length=64, primary_key=True, index=True)
    mime: str = Field(max_length=32)
    width: int
    height: int
    data: bytes = Field(sa_type=sa.LargeBinary, nullable=False)
    created_at: datetime = _ts()
