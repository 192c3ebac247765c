"""Per-client rate limit and shape check of every event, as one Reflex middleware.

Every event a browser sends on `/_event` (and every event the server chains for it) goes through
`App._preprocess` before its handler runs, with the client's state locked. `EventGate` is
registered there (`app.add_middleware(EventGate())` in `loto_app.py`) and:

- keeps a token bucket per client token (`BURST` events at once, `RATE` per second sustained):
  an event over the limit is dropped with a logged warning, and the client is told, at most
  once every `TELL_EVERY` seconds, "Trop de requêtes : patientez un instant." in the `message`
  var of the state it called (PlayerState, AnimateurState, ScreenState, ...);
- refuses (one log line per client and handler every few seconds, `frame_guard.RefusalLog`)
  `setvar` on the app's states (Reflex adds it to every state; with auto-setters off
  it can only fail with a traceback), and a call whose payload does not fit the handler's
  parameters (a key it does not take, a parameter missing, a payload that is not a dict of
  short keys): without this, Reflex raises a TypeError in the handler, logs a traceback and
  shows an English error toast. The handler's own guards (`guards.py`) still check the values.

A client signed in as staff on the state it calls (a `StaffSession`, live/states/session.py,
or one of its substates, whose `_authorized` is True: the animateur, the desk, the organiser) is not
limited: the animateur may draw, the desk sell, as fast as they like. A real phone never comes
near the limit: marking as fast as a thumb can tap is 3-5 events/s, a page load or reconnect is
3-4 events, a purchase 1 plus the server's `refresh` poke (measured in tests/e2e/test_fuzz.py).
Several workers each keep their own buckets: a client's socket, hence its events, stays on
one worker.

Last, an event that needs a session but reaches a page state whose Reflex state was lost (the
process that held it in memory restarted, or dropped it once idle) makes the page load again
instead of running (`session.reload_if_lost`): the rule for every page that signs someone in,
in one place.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reflex.middleware import Middleware
from reflex.state import StateUpdate

from loto_app.live import compat
from loto_app.live.gate.frame_guard import RefusalLog
from loto_app.live.states.session import StaffSession, reload_if_lost

if TYPE_CHECKING:
    from reflex.app import App
    from reflex.event import Event
    from reflex.state import BaseState

log = logging.getLogger("loto_app.live")

BURST = 20  # events a client may send at once
RATE = 10.0  # events per second, sustained
TELL_EVERY = 5.0  # seconds between two "trop de requêtes" messages to one client
MAX_CLIENTS = 20_000  # buckets kept before idle (full) ones are pruned
TOO_MANY = "Trop de requêtes : patientez un instant."
MALFORMED = "Requête invalide."
MAX_PAYLOAD_KEYS = 8


@dataclass(slots=True)
class TokenBucket:
    """`capacity` tokens, refilled at `rate` per second; an event takes one."""

    capacity: float
    rate: float
    tokens: float
    updated: float
    told: float = float("-inf")  # last time the client was told to slow down
    dropped: int = 0  # events dropped since the last warning in the log

    def take(self, now: float) -> bool:
        """Take a token if one is left (after the refill since the last call)."""
        elapsed = max(0.0, now - self.updated)  # a clock going back gives nothing back
        self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
        self.updated += elapsed
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        """Would the bucket be full now (an idle client, safe to forget)?"""
        return self.tokens + (now - self.updated) * self.rate >= self.capacity


class RateLimiter:
    """One token bucket per client key, with bounded memory.

    Args:
        burst: the bucket's capacity.
        rate: tokens per second.
        tell_every: seconds between two notices to one client.
        clock: a monotonic clock (injected by tests).
        max_clients: buckets kept before full (idle) ones are pruned.
    """

    def __init__(
        self,
        burst: int = BURST,
        rate: float = RATE,
        tell_every: float = TELL_EVERY,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError(f"burst {burst} must be >= 1 and rate {rate} > 0")
        self.burst, self.rate, self.tell_every = burst, rate, tell_every
        self.clock, self.max_clients = clock, max_clients
        self.buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str) -> bool:
        """May this client's event go through now? (Takes a token when it may.)"""
        now = self.clock()
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.max_clients:
                self._prune(now)
            b = self.buckets[key] = TokenBucket(self.burst, self.rate, self.burst, now)
        ok = b.take(now)
        if not ok:
            b.dropped += 1
        return ok

    def should_tell(self, key: str) -> bool:
        """True at most once every `tell_every` seconds per client (after a refusal)."""
        b = self.buckets.get(key)
        now = self.clock()
        if b is None or now - b.told < self.tell_every:
            return False
        b.told = now
        return True

    def dropped(self, key: str) -> int:
        """Events dropped since the last call (for one log line per notice), then reset."""
        b = self.buckets.get(key)
        if b is None:
            return 0
        n, b.dropped = b.dropped, 0
        return n

    def _prune(self, now: float) -> None:
        for key in [k for k, b in self.buckets.items() if b.full(now)]:
            del self.buckets[key]
        if len(self.buckets) >= self.max_clients:  # all busy: forget the oldest half
            oldest = sorted(self.buckets, key=lambda k: self.buckets[k].updated)
            for key in oldest[: len(oldest) // 2]:
                del self.buckets[key]


def payload_problem(fn: Callable[..., Any], payload: Any) -> str | None:
    """Why `payload` cannot be passed to the handler `fn(self, **payload)` (None if it can)."""
    if not isinstance(payload, dict):
        return f"payload {payload!r:.60} is not a dict"
    if len(payload) > MAX_PAYLOAD_KEYS or not all(
        isinstance(k, str) and len(k) <= 64 for k in payload
    ):
        return f"payload keys {list(payload)!r:.80} are not a few short names"
    try:
        inspect.signature(fn).bind(None, **payload)
    except TypeError as exc:
        return f"arguments {sorted(payload)!r:.80} do not fit {fn.__qualname__}: {exc}"
    return None


class EventGate(Middleware):
    """The middleware: the rate limit, then the payload shape, before any handler runs."""

    def __init__(
        self, limiter: RateLimiter | None = None, refusals: RefusalLog | None = None
    ) -> None:
        self.limiter = limiter or RateLimiter()
        # one line per client and handler every few seconds, however many are refused
        self.refusals = refusals or RefusalLog()

    async def preprocess(self, app: App, state: BaseState, event: Event) -> StateUpdate | None:
        """Drop (with a warning and, now and then, a French message) or let the event through."""
        state = compat.root_state(state)  # (Reflex may hand the handler's state, not the root)
        session = state.router.session
        key = session.client_token or session.session_id or "?"
        if not self.limiter.allow(key) and not await _signed_in_staff(state, event):
            if self.limiter.should_tell(key):
                log.warning(
                    "rate limit: dropped %d event(s) from client %s (sid %s), last %s; "
                    "limit %d at once, %g/s",
                    self.limiter.dropped(key),
                    key,
                    session.session_id,
                    event.name[-80:],
                    self.limiter.burst,
                    self.limiter.rate,
                )
                return await _tell(state, event, TOO_MANY)
            return StateUpdate()
        handler = _handler(state, event)
        problem = None
        if handler is not None:
            problem = (
                "setvar: the app has no public setter"
                if event.name.endswith(".setvar")
                else payload_problem(handler.fn, event.payload)
            )
        if problem:
            self.refusals.refused(
                f"client {key} (sid {session.session_id})",
                event.name,
                f"{event.name[-80:]}: {problem}",
            )
            return await _tell(state, event, MALFORMED)
        if handler is not None and await _reloaded(state, event):
            return await _delta(state)
        return None


def _handler(state: BaseState, event: Event) -> Any:
    """The app's EventHandler an event names (None for unknown names, which Reflex reports,
    and for Reflex's internal events)."""
    path, _, name = event.name.rpartition(".")
    try:
        cls = type(state).get_class_substate(path)  # the dotted path (a list is not hashable)
    except Exception:  # an unknown state path: Reflex refuses it itself
        return None
    if not cls.__module__.startswith("loto_app."):  # Reflex's own events: its own checks
        return None
    return cls.event_handlers.get(name)


async def _signed_in_staff(state: BaseState, event: Event) -> bool:
    """Is the client signed in (with the evening's secret) on the staff state it calls (or the
    staff state a substate belongs to)? The animateur drawing fast or the desk selling fast is
    trusted; only checked over the limit."""
    try:
        target = type(state).get_class_substate(event.name.rpartition(".")[0])
        if not issubclass(target, StaffSession):  # not a staff state
            return False
        return (await state.get_state(target))._authorized is True
    except Exception:  # an unknown state: not staff
        return False


async def _reloaded(state: BaseState, event: Event) -> bool:
    """The lost-state rule (live/states/session.py): True when the page was asked to load again."""
    path, _, name = event.name.rpartition(".")
    try:
        target = type(state).get_class_substate(path)
        return await reload_if_lost(state, target, name)
    except Exception:  # the handler runs and refuses as usual
        log.exception("could not check %s for a lost state", event.name[-80:])
        return False


async def _delta(state: BaseState) -> StateUpdate:
    return StateUpdate(delta=await compat.resolved_delta(state))


async def _tell(state: BaseState, event: Event, text: str) -> StateUpdate:
    """Put `text` in the `message` var of the state the event called (when it has one)."""
    try:
        target = type(state).get_class_substate(event.name.rpartition(".")[0])
        if "message" not in target.vars:  # (a substate's are its own and its parent's)
            return StateUpdate()
        sub = await state.get_state(target)
        sub.message = text
        return await _delta(state)
    except Exception:  # telling is best effort; the event is dropped anyway
        log.exception("could not tell client about %s", event.name[-80:])
        return StateUpdate()
