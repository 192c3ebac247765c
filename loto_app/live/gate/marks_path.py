"""The marks' light path: a phone's batch of marks is answered on the socket, before Reflex
loads, locks and diffs the client's state (most of what an ordinary event costs).

A batch is sent as an ordinary Reflex event (`PlayerState.save_marks`, the page's hidden form:
queued while offline, sent on reconnect) and is taken here instead: checked
(`live/input/marks_batch.py`), rate limited per socket, its sender identified from the identity
it carries (the browser's stored code and secret, as `PlayerState._identify` does: never the
socket or Reflex's client token), stored with the other batches of the same two seconds
(`live/runtime/marks.py`), and answered on the same socket with a delta of one display slot,
`PlayerState.marks_ack` (read by assets/loto.js; the server never reads its copy). The frame
guard, installed after this, checks the event's size first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from loto_app.live import compat
from loto_app.live.input.guards import BadInput
from loto_app.live.input.marks_batch import MarksBatch
from loto_app.live.runtime import marks
from loto_app.live.runtime.marks import ack_text, answer, read

if TYPE_CHECKING:
    import reflex as rx

log = logging.getLogger("loto_app.live")

BURST = 10  # batches a socket may send at once (a phone sends one a second at most)
RATE = 2.0  # batches per second, sustained
MAX_SOCKETS = 50_000  # rate buckets kept

_buckets: dict[str, list[float]] = {}  # sid -> [tokens, last refill]


def allowed(sid: str) -> bool:
    """A token bucket per socket: `BURST` at once, `RATE` a second."""
    now = time.monotonic()
    b = _buckets.get(sid)
    if b is None:
        if len(_buckets) >= MAX_SOCKETS:
            _buckets.clear()
        b = _buckets[sid] = [float(BURST), now]
    b[0] = min(float(BURST), b[0] + (now - b[1]) * RATE)
    b[1] = now
    if b[0] < 1:
        return False
    b[0] -= 1
    return True


class MarksPath:
    """Wraps the socket's `on_event`: a `save_marks` event is answered here."""

    def __init__(
        self, app: rx.App, on_event: Callable[[str, Any], Awaitable[None]], handler: str
    ) -> None:
        self.app, self.on_event, self.handler = app, on_event, handler
        self.state = handler.rpartition(".")[0]

    async def handle(self, sid: str, data: Any) -> None:
        """The replacement `on_event`."""
        if not isinstance(data, dict) or data.get("name") != self.handler:
            await self.on_event(sid, data)
            return
        if not allowed(sid):
            log.warning("save_marks: batch from sid %s dropped, over the rate limit", sid)
            return
        try:
            batch = read(data.get("payload"))
        except BadInput as exc:
            log.warning("save_marks: refused a batch from sid %s: %s", sid, exc)
            return
        marks.spawn(self._answer(sid, batch))

    async def _answer(self, sid: str, batch: MarksBatch) -> None:
        ack = await answer(batch)
        if ack is None:
            return
        update = compat.delta(self.state, {"marks_ack": ack_text(ack)}) | compat.poke()
        await compat.send(self.app, update, sid)

    def forget(self, sid: str) -> None:
        """The socket is gone."""
        _buckets.pop(sid, None)


def install(app: rx.App, handler: str) -> MarksPath:
    """Put the light path in front of Reflex's `on_event` (before the frame guard is
    installed, so that the guard checks a batch's size first)."""
    path = MarksPath(app, compat.socket_on_event(app), handler)
    compat.set_socket_handlers(app, on_event=path.handle, before_disconnect=path.forget)
    return path
