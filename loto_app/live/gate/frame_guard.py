"""The socket's front door: events no handler could take are refused before Reflex reads them.

A client can send anything on `/_event`. Two kinds of frame cost the server far more than they
are worth, and are refused here, on the socket's receive path, before Reflex parses, queues or
logs them:

- an **oversized** event: Reflex's "Error transforming event payload" warning prints the whole
  value (one 900 KB frame grew the log by 900 KB), and the event gate sees the payload only once
  the client's state is loaded and locked. The socket itself refuses frames over
  `MAX_FRAME_BYTES` (engine.io closes the connection, set in `rxconfig.py`); below that, an event
  whose payload holds more than `MAX_EVENT_BYTES` of data is dropped here;
- an event naming **no handler** of the app: Reflex logs a 2.4 KB traceback with the request's
  headers for each one.

Each refusal is logged as one short line, and repeated refusals from one client are counted and
summed up in one line every `LOG_EVERY` seconds, so that no client can grow the log faster than a
few hundred bytes per interval. Everything else goes on to Reflex untouched (the event gate,
`ratelimit.py`, then checks the rate and the payload's shape with the client's state at hand).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from loto_app.live import compat

if TYPE_CHECKING:
    import reflex as rx

log = logging.getLogger("loto_app.live")

#: Bytes of payload data in one event (the largest real one, the organiser's new-evening form
#: with a long program, is ~6 KB).
MAX_EVENT_BYTES = 32_768
#: The socket's frame limit (engine.io `max_http_buffer_size`; Reflex's default is 1 MB).
MAX_FRAME_BYTES = 131_072
LOG_EVERY = 10.0  # seconds between two log lines about one client's refused events
MAX_CLIENTS = 10_000  # refusal counters kept before the oldest are forgotten
SHOWN = 80  # characters of an event's name or value shown in a log line


def bounded_size(value: Any, limit: int) -> int:
    """The size of a JSON value (string lengths, numbers as 8, containers' items), counting up
    to just past `limit` and no further: a huge payload costs no more than `limit` to measure."""
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) + 2
        elif isinstance(v, dict):
            total += 2 + len(v)
            for k, x in v.items():
                total += len(k) + 3 if isinstance(k, str) else 8
                stack.append(x)
        elif isinstance(v, list | tuple):
            total += 2 + len(v)
            stack.extend(v)
        else:
            total += 8
        if total > limit:
            return total
    return total


def handler_names(root: type) -> frozenset[str]:
    """Every event name the app's state tree answers (`<state full name>.<handler>`)."""
    names: set[str] = set()
    todo = [root]
    while todo:
        cls = todo.pop()
        names.update(f"{cls.get_full_name()}.{h}" for h in cls.event_handlers)
        todo.extend(cls.get_substates())
    return frozenset(names)


@dataclass(slots=True)
class _Count:
    logged_at: float
    refused: int = 0  # since the last line


class RefusalLog:
    """One log line per client and kind of refusal (a handler's name, "no handler", ...) per
    `every` seconds, whatever the number of refusals: the first is logged at once, the others
    are counted into the next line."""

    def __init__(
        self,
        every: float = LOG_EVERY,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.every, self.clock, self.max_clients = every, clock, max_clients
        self.counts: dict[tuple[str, str], _Count] = {}

    def refused(self, client: str, kind: str, what: str) -> bool:
        """Record one refusal; True when it was logged (the first, then one per interval)."""
        now = self.clock()
        key = (client, kind)
        c = self.counts.get(key)
        if c is not None and now - c.logged_at < self.every:
            c.refused += 1
            return False
        more = c.refused if c is not None else 0
        if c is None and len(self.counts) >= self.max_clients:
            for key in sorted(self.counts, key=lambda k: self.counts[k].logged_at)[
                : self.max_clients // 2
            ]:
                del self.counts[key]
        self.counts[key] = _Count(now)
        suffix = f" (and {more} more like it in the last {self.every:g} s)" if more else ""
        log.warning("refused event from %s: %s%s", client[:SHOWN], what[:200], suffix)
        return True


class FrameGuard:
    """Wraps the app's socket `on_event`: refuses what no handler could take, passes the rest.

    Args:
        on_event: Reflex's `EventNamespace.on_event(sid, data)`.
        known: the app's event names (see `handler_names`).
        refusals: where refusals are counted and logged.
    """

    def __init__(
        self,
        on_event: Callable[[str, Any], Awaitable[None]],
        known: Callable[[], Iterable[str]],
        refusals: RefusalLog | None = None,
    ) -> None:
        self.on_event = on_event
        self._known_source = known
        self._known: frozenset[str] | None = None
        self.refusals = refusals or RefusalLog()

    def known(self) -> frozenset[str]:
        """The app's event names, read once the state tree is complete (the first event)."""
        if self._known is None:
            self._known = frozenset(self._known_source())
        return self._known

    def problem(self, data: Any) -> tuple[str, str] | None:
        """(kind, why) this frame is refused; None: it goes on to Reflex."""
        if not isinstance(data, dict):
            return "malformed", f"event data of type {type(data).__name__} (a dict is expected)"
        name = data.get("name")
        if not isinstance(name, str) or name not in self.known():
            return "no handler", f"no handler {str(name)[:SHOWN]!r}"
        short = name.rpartition(".")[2]
        for part in ("payload", "router_data"):
            if bounded_size(data.get(part), MAX_EVENT_BYTES) > MAX_EVENT_BYTES:
                return f"oversized {short}", f"{short}: {part} over {MAX_EVENT_BYTES} bytes"
        return None

    async def handle(self, sid: str, data: Any) -> None:
        """The replacement `on_event` (a coroutine function: python-socketio awaits only those)."""
        problem = self.problem(data)
        if problem is not None:
            self.refusals.refused(f"sid {sid}", *problem)
            return
        await self.on_event(sid, data)


def install(app: rx.App) -> FrameGuard:
    """Put the guard in front of the app's socket event handler (python-socketio dispatches
    `event` messages to the namespace's `on_event` attribute)."""
    root = compat.app_state(app)
    if root is None:
        raise RuntimeError("the app has no state yet")
    guard = FrameGuard(compat.socket_on_event(app), lambda: handler_names(root))
    compat.set_socket_handlers(app, on_event=guard.handle)
    return guard
