"""A rehearsal made and deleted for the organiser's page (`live/states/organisation_rehearsal.py`):
the rows are the storage's (`storage/rehearsal.py`); here, what the running app must do
besides. Deleting one drops it from memory (the registry's copy, the players remembered, the
codes) and makes every page still open on it load again: each finds its code gone and says so.
"""

from __future__ import annotations

import asyncio
import logging

from loto_app.live.runtime import broadcast, registry
from loto_app.live.runtime.identity import access
from loto_app.storage import rehearsal as rows
from loto_app.storage.repository import Credentials

log = logging.getLogger(__name__)


async def create(real_id: int) -> Credentials:
    """Make the evening's rehearsal (its codes and secrets returned, to show once).

    Raises:
        RehearsalError: it has one already.
    """
    return await asyncio.to_thread(rows.create, registry.store(), real_id)


async def find(real_id: int) -> rows.Rehearsal | None:
    """The evening's rehearsal, if any."""
    return await asyncio.to_thread(rows.find, registry.store(), real_id)


async def renew_animateur(real_id: int) -> str:
    """A new animateur secret for the rehearsal's tablet (the first one was shown once); ""
    when there is no rehearsal."""
    found = await find(real_id)
    if found is None:
        return ""
    secret = await asyncio.to_thread(access().reset_animateur_secret, found.evening_id)
    await broadcast.recheck_staff(found.evening_id)
    return secret


async def delete(real_id: int) -> int | None:
    """Delete the evening's rehearsal whole; returns its id (None: there was none)."""
    rid = await asyncio.to_thread(rows.delete, registry.store(), real_id)
    if rid is None:
        return None
    registry.forget(rid)
    access().forget_evening(rid)
    try:
        await broadcast.reload_room(rid)
    except Exception:  # (the rows are gone whatever a page does)
        log.exception("rehearsal %s: reloading its pages failed", rid)
    return rid
