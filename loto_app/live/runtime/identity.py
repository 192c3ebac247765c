"""Who a phone is: the identity its browser stores (the evening's join code and the player's
secret) resolved to (evening id, player id). The one way every path asks: the player page's
handlers (`PlayerState._identify`) and the marks' light path (`live/gate/marks_path.py`).

Both answers are kept in memory once found, by the stores that find them (a join code never
changes, a player's secret is never renewed: `EveningStore.evening_id_for_code`,
`AccessStore.player_for_secret`), so a phone already known costs no database read and no hop to
a worker thread; only an unknown one is looked up, in a worker thread, each time it is asked (it
may be a join another process is committing)."""

from __future__ import annotations

import asyncio

from loto_app.live.runtime import registry
from loto_app.storage.access import AccessStore

_access: AccessStore | None = None


def access() -> AccessStore:
    """The credential checks, on the process's database (one store per database: it keeps the
    players it has found)."""
    global _access
    engine = registry.store().engine
    if _access is None or _access.engine is not engine:
        _access = AccessStore(engine)
    return _access


async def player_of(code: str, secret: str) -> tuple[int, str] | None:
    """(evening id, player id) of a browser's stored code and secret; None: nobody's."""
    if not isinstance(code, str) or not isinstance(secret, str) or not code or not secret:
        return None
    store = registry.store()
    evening_id = store.known_code(code)
    if evening_id is None:
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
        if evening_id is None:
            return None
    checks = access()
    pid = checks.known_player(evening_id, secret)
    if pid is None:
        pid = await asyncio.to_thread(checks.player_for_secret, evening_id, secret)
        if pid is None:
            return None
    return evening_id, pid
