"""Expire what gone clients left in memory: a four-hour evening without a leak.

Reflex keeps each client token's state tree in memory
(`StateManagerMemory`) until an hour after that token's last event. A hall's phones come back
many times in an evening (sleep, Wi-Fi, reloads), and a phone that wakes up often comes back
under a *new* token: the browser lost its tab, or the server had not noticed the old socket die
and handed out another one (upstream Reflex issues 3021, 6252). Every such return leaves a
state tree behind (~200-300 KB), and in the meantime a connected phone that sends no event for
an hour (auto-marking on, a long carton plein) loses its state while still on the page.

`Reaper` is a periodic task of the app (`run`, a lifespan task) that, every `SWEEP_EVERY`
seconds:

- drops the state of every token that has had no socket on this process for
  `LOTO_STATE_IDLE_MINUTES` minutes (default 5; 0 switches the reaper off), unless an event is
  being handled for it (its lock is held);
- keeps the state of every connected token from expiring (a connected phone is never dropped).

Nothing is lost by dropping: a page that comes back (same token or a new one) hydrates again
with what its local storage holds (the player's secret, the staff's sign-in), its `on_load`
handler finds the player or the sign-in in the database again, and the room broadcast gives it
the hall's picture; the database holds the truth. With several workers each keeps the states
of its own sockets (rxconfig.py) and runs its own reaper: the state a phone left on a worker
when its socket came back on another is dropped there like any gone client's.

It reads the Reflex 0.10 state manager's bookkeeping and the token manager's connected tokens
through `compat.MemoryStates` and `compat.connected_tokens` (loto_app/live/compat/), and
`tests/live/test_reaper.py` runs the reaper on the real classes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loto_app.live import compat

log = logging.getLogger("loto_app.live")

IDLE_ENV = "LOTO_STATE_IDLE_MINUTES"
DEFAULT_IDLE_MINUTES = 5.0
SWEEP_EVERY = 30.0  # seconds between two sweeps (at most; less for a short idle time)


@dataclass(frozen=True, slots=True)
class Sweep:
    """What one sweep did."""

    dropped: int  # states of gone clients removed
    kept: int  # connected clients' states kept from expiring
    waiting: int  # gone clients not idle long enough yet (or busy)
    states: int  # states left in memory


def idle_seconds(env: dict[str, str] | os._Environ = os.environ) -> float:
    """`LOTO_STATE_IDLE_MINUTES` in seconds (0: the reaper is off)."""
    raw = env.get(IDLE_ENV, "")
    try:
        minutes = float(raw) if raw.strip() else DEFAULT_IDLE_MINUTES
    except ValueError:
        log.error("%s=%r is not a number of minutes: %g used", IDLE_ENV, raw, DEFAULT_IDLE_MINUTES)
        minutes = DEFAULT_IDLE_MINUTES
    return max(0.0, minutes * 60)


class Reaper:
    """Drops the in-memory states of clients gone for `idle` seconds.

    Args:
        states: Reflex's in-memory state manager's bookkeeping.
        connected: the client tokens with a socket on this process (a live mapping).
        idle: seconds without a socket before a token's state is dropped.
        clock: wall-clock seconds (injected by tests).
    """

    def __init__(
        self,
        states: compat.MemoryStates,
        connected: Any,
        idle: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.states, self.connected, self.idle, self.clock = states, connected, idle, clock
        self.gone_since: dict[str, float] = {}  # token -> when it was first seen without socket
        self.dropped_total = 0

    def sweep(self) -> Sweep:
        """One pass over the states in memory (no await: nothing changes under it)."""
        now = self.clock()
        connected = self.connected
        dropped = kept = waiting = 0
        tracked: set[str] = set()
        for token in self.states.client_tokens():  # (shared states' tokens left out)
            ident = token.ident
            tracked.add(ident)
            if ident in connected:
                self.gone_since.pop(ident, None)
                self.states.keep(token)  # its deadline moves on: never expired
                kept += 1
                continue
            since = self.gone_since.setdefault(ident, now)
            if now - since < self.idle or self.states.busy(token):
                waiting += 1
                continue
            self.states.drop(token)
            self.gone_since.pop(ident, None)
            dropped += 1
        for ident in [i for i in self.gone_since if i not in tracked]:
            del self.gone_since[ident]  # expired by Reflex itself, or dropped above
        self.dropped_total += dropped
        return Sweep(dropped, kept, waiting, self.states.count())


async def run(app: Any) -> None:
    """The lifespan task: sweep every `SWEEP_EVERY` seconds while the app runs."""
    idle = idle_seconds()
    states = compat.MemoryStates.of(app)
    if not idle or states is None:
        log.info("state reaper off (%s)", "disabled" if not idle else "states not in memory")
        return
    reaper = Reaper(states, compat.connected_tokens(app), idle)
    every = max(1.0, min(SWEEP_EVERY, idle / 4))
    log.info("state reaper: states of clients gone for %.0f s are dropped", idle)
    while True:
        await asyncio.sleep(every)
        try:
            s = reaper.sweep()
        except Exception:  # never let the reaper take the app down; try again next time
            log.exception("state reaper: sweep failed")
            continue
        if s.dropped:
            log.info(
                "state reaper: dropped %d gone client state(s); %d connected, %d waiting, "
                "%d in memory",
                s.dropped,
                s.kept,
                s.waiting,
                s.states,
            )
