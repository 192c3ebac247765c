"""The evenings' pictures (lots' photos, partners' logos) by digest, beside the log.

A picture is written in the transaction that commits the event naming it (`writer`, the `extra`
of the registry's move): a move the engine refuses stores nothing. The app serves them by digest
(`/media/<digest>.webp`, loto_app/media_route.py): content-addressed, so a browser may keep
them for ever.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from loto_app.images import Picture
from loto_app.storage import models as m

_TABLE = m.PictureRow.__table__


def writer(evening_id: int, picture: Picture) -> Callable[[Session], None]:
    """The write of a picture, for the transaction of the move that names it (nothing when the
    evening already holds the same picture)."""

    def write(s: Session) -> None:
        conn = s.connection()
        held = conn.execute(
            sa.select(_TABLE.c.digest).where(
                _TABLE.c.evening_id == evening_id, _TABLE.c.digest == picture.digest
            )
        ).first()
        if held is None:
            conn.execute(
                sa.insert(_TABLE).values(
                    evening_id=evening_id,
                    digest=picture.digest,
                    mime=picture.mime,
                    width=picture.width,
                    height=picture.height,
                    data=picture.data,
                    created_at=m.utcnow(),
                )
            )

    return write


def read(engine: Engine, digest: str) -> tuple[bytes, str] | None:
    """A picture's bytes and content type by its digest (None: no such picture)."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(_TABLE.c.data, _TABLE.c.mime).where(_TABLE.c.digest == digest).limit(1)
        ).first()
    return (bytes(row[0]), row[1]) if row else None


def count(engine: Engine, evening_id: int) -> int:
    """How many pictures an evening holds (the tests check that a refusal stores nothing)."""
    with engine.connect() as conn:
        return conn.execute(
            sa.select(sa.func.count()).select_from(_TABLE).where(_TABLE.c.evening_id == evening_id)
        ).scalar_one()
