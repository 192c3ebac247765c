"""Marks saved for safekeeping: the phones' batches of five seconds, one move.

A pion is not evidence (RULES.md: a claim is judged on the numbers drawn), so a touch does not
wait for the server: the phone (assets/loto.js) shows it at once, keeps it in local storage
(a reload, a dropped connection) and sends what changed in batches (one every three minutes,
in slots of its own, see assets/loto.js). The server keeps a copy (the pions come back on the
player's other device and after a restart; démarquage clears them). The batches arriving
within `GATHER_S` of each other are played as one move, `Evening.save_marks`: one `MarksSaved`
event in the log for all of them, one commit. A commit costs a few milliseconds whatever it
holds, and the phones' batches arrive spread over the draws, so they wait five seconds for
their commit: nobody waits for it (the pion is on the phone), and the phone sends a batch again
only when its answer is 20 s late.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import logging
import os
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from loto_app.live.input.marks_batch import MarksBatch, batch_text, parse
from loto_app.live.runtime import identity, registry

if TYPE_CHECKING:
    from loto_app.domain import events as ev
    from loto_app.domain.engine import Evening

log = logging.getLogger("loto_app.live")

GATHER_ENV = "LOTO_MARKS_GATHER_SECONDS"
DEFAULT_GATHER_S = 5.0


def gather_seconds(env: dict[str, str] | os._Environ = os.environ) -> float:
    """`LOTO_MARKS_GATHER_SECONDS`: how long the first batch waits for others to share its
    commit (default 5; 0.05 at least). The load test shortens it: each of its draws waits
    until every mark is answered."""
    raw = env.get(GATHER_ENV, "")
    try:
        seconds = float(raw) if raw.strip() else DEFAULT_GATHER_S
    except ValueError:
        log.error("%s=%r is not a number of seconds: %g used", GATHER_ENV, raw, DEFAULT_GATHER_S)
        seconds = DEFAULT_GATHER_S
    if not 0.05 <= seconds <= 60:  # (also NaN)
        log.error("%s=%r is outside 0.05-60 s: %g used", GATHER_ENV, raw, DEFAULT_GATHER_S)
        seconds = DEFAULT_GATHER_S
    return seconds


GATHER_S = gather_seconds()  # batches arriving within this are committed together
COMMIT_TIMEOUT_S = 30.0  # a batch not stored by then is not acked (the phone sends it again)


def forget_all() -> None:
    """Tests: another database."""
    _inbox.clear()
    _due.clear()


@dataclass(slots=True)
class _Waiting:
    player_id: str
    batch: MarksBatch
    answer: asyncio.Future
    ok: bool = True
    skipped: list[tuple[int, int]] = field(default_factory=list)


_inbox: dict[int, list[_Waiting]] = {}  # evening id -> batches waiting for the next commit


async def save(evening_id: int, player_id: str, batch: MarksBatch) -> dict[str, Any]:
    """Store a batch; the phone's ack, once committed (an ack means "stored"): the batch id,
    whether it was taken (not: another game, a finished one), the game, and the cells whose op
    was skipped as illegal (the phone checks before: rarely any). The phone then holds the
    server's pions: those it had, with the batch's ops applied but the skipped ones.

    Raises:
        Exception: the batch could not be stored (no ack: the phone sends it again).
    """
    loop = asyncio.get_running_loop()
    w = _Waiting(player_id, batch, loop.create_future())
    _inbox.setdefault(evening_id, []).append(w)
    if evening_id not in _due:  # the first of GATHER_S: they all commit then
        _due.add(evening_id)
        loop.call_later(GATHER_S, spawn, _flush(evening_id))
    await asyncio.wait_for(asyncio.shield(w.answer), COMMIT_TIMEOUT_S)
    if w.skipped:
        log.info("marks of player %s: %d illegal ops skipped", player_id, len(w.skipped))
    return {
        "id": batch.batch_id,
        "ok": w.ok,
        "game": batch.game,
        "skipped": [f"{no}-{n}" for no, n in w.skipped],
    }


_due: set[int] = set()  # evenings whose next commit of marks is scheduled
_tasks: set[asyncio.Task] = set()


def spawn(coro: Coroutine[Any, Any, None]) -> None:
    """Run `coro` as a task of its own, in a fresh context: nothing of the socket event that
    brought a batch (Reflex's event context, its cancellations) reaches the commit."""
    task = asyncio.get_running_loop().create_task(coro, context=contextvars.Context())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _flush(evening_id: int) -> None:
    _due.discard(evening_id)
    await _commit(evening_id, _inbox.pop(evening_id, []))


async def _commit(evening_id: int, waiting: list[_Waiting]) -> None:
    def move(e: Evening) -> list[ev.Event]:
        events, outcomes = e.save_marks([(w.player_id, w.batch.game, w.batch.ops) for w in waiting])
        for w, (ok, skipped) in zip(waiting, outcomes, strict=True):
            w.ok, w.skipped = ok, skipped
            if not ok:
                log.info("marks of player %s for game %s refused", w.player_id, w.batch.game)
        return events

    try:
        await registry.play(evening_id, move)
    except Exception as exc:  # nothing of it was stored: no ack (the phones send them again)
        log.warning("evening %s: %d batches of marks not stored: %s", evening_id, len(waiting), exc)
        for w in waiting:
            if not w.answer.done():
                w.answer.set_exception(exc)
        return
    for w in waiting:
        if not w.answer.done():
            w.answer.set_result(None)


# ---------------------------------------------------------------- a phone's batch, answered

_acks = itertools.count(1)


def ack_text(ack: dict[str, Any]) -> str:
    """An ack as the page receives it: each one a new text (`n`), so that the page sees every
    answer, even two alike."""
    return json.dumps({**ack, "n": next(_acks)}, separators=(",", ":"))


def read(payload: Any) -> MarksBatch:
    """The batch of a `save_marks` event's payload.

    Raises:
        BadInput: not a batch.
    """
    form_data = payload.get("form_data") if isinstance(payload, dict) else None
    return parse(batch_text(form_data))


async def answer(batch: MarksBatch) -> dict[str, Any] | None:
    """Identify, store, and the ack (None: nobody's identity, or not stored)."""
    who = await identity.player_of(batch.code, batch.secret)
    if who is None:
        log.warning("save_marks: a batch with no valid player identity (code %s)", batch.code)
        return None
    try:
        return await save(*who, batch)
    except Exception:
        log.exception("save_marks: the batch of player %s was not stored", who[1])
        return None
