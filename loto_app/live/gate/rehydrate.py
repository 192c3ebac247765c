"""A page whose Reflex state was rebuilt never shows an empty evening.

When a browser (re)connects, Reflex's `hydrate_and_load` sends it a snapshot of its state on the
server, then runs the page's on_load handler (`PlayerState.resume`, ...). After a server restart,
or when Reflex hands a reconnecting phone a new client token, that state is brand new: the
snapshot carries the defaults (no carton, no number drawn) and the page showed an empty evening
until `resume` had loaded it again, a fraction of a second on a quiet server and seconds on a busy
one (measured with the crash test: 0 cartons and "–" for 100-200 ms after every restart).

`WarmHydrate` is a Reflex middleware that runs, with the client's state locked, just before
`hydrate_and_load` takes that snapshot: from the identity the browser sends with it (its local
storage), the page's states fill themselves in first (`_warm` on a state class whose `ROUTE` is
the page loads what its page shows), and the public picture of the evening is put in the
client's `HallView`. The snapshot then carries the real cartons and board, and the on_load
handler only joins the broadcast rooms. Nothing here decides who anyone is: `_warm` uses the same
identification as every handler, against the database.

A page with no on_load handler (the join page `/`, where a phone lands from the hall's QR code)
is loaded by its hydrate alone: `_warm` is then told so (`whole`) and does what the handler would
(the player's socket joins the broadcast rooms); where it cannot (an identity that is no
player's, an error), it says so and the page's `resume` is queued after the hydrate, as an
on_load handler would run. Reflex runs a page's on_load handlers as events of their own after
the hydrate (`on_load_internal`, then one per handler): three of the six events the server
processed for each phone joining from the QR code, ~18 % of a join's CPU.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from reflex.middleware import Middleware

from loto_app.live import compat

if TYPE_CHECKING:
    from reflex.app import App
    from reflex.event import Event
    from reflex.state import BaseState, StateUpdate

log = logging.getLogger(__name__)

HYDRATE = compat.HYDRATE


class Warmable(Protocol):
    """A page state that can fill itself in from the browser's stored identity."""

    ROUTE: str

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Fill the page's state in before the snapshot; with `whole` (no on_load handler
        follows), do the handler's work too. Returns False when, with `whole`, the page's
        `resume` must run after the hydrate."""
        ...


def stored_values(state_cls: type, vars_: Any) -> dict[str, Any]:
    """The browser-stored values of one state class, by var name, from a hydrate payload
    (`{"<state full name>.<var>[_rx_state_]": value}`); junk is ignored."""
    if not isinstance(vars_, dict):
        return {}
    prefix = state_cls.get_full_name() + "."
    out: dict[str, Any] = {}
    for key, value in vars_.items():
        if isinstance(key, str) and key.startswith(prefix) and isinstance(value, str):
            out[key[len(prefix) :].removesuffix(compat.FIELD_MARKER)] = value
    return out


class WarmHydrate(Middleware):
    """The middleware (registered after the event gate, so a refused event never gets here).

    Args:
        states: the page states with a `_warm` hook and their `ROUTE` (and `ALSO_AT`); several
            may serve one route (warmed in this order).
    """

    def __init__(self, *states: type) -> None:
        self.by_route: dict[str, list[type]] = {}
        for s in states:
            route = s.__dict__.get("ROUTE")  # (a plain str: not a Reflex var)
            if not isinstance(route, str) or not route:
                raise TypeError(f"{s.__name__}.ROUTE must be a ClassVar[str], not {route!r}")
            for path in (route, *s.__dict__.get("ALSO_AT", ())):
                self.by_route.setdefault(path, []).append(s)

    async def preprocess(self, app: App, state: BaseState, event: Event) -> StateUpdate | None:
        """Let every event through; before a hydrate, fill the page's states in."""
        if event.name.rpartition(".")[2] != HYDRATE:
            return None
        root = compat.root_state(state)
        path = root.router.url.path
        classes = self.by_route.get(path.rstrip("/") or "/")
        if not classes:
            return None
        # (the same test as Reflex's hydrate: does an on_load event follow it?)
        whole = not compat.has_on_load(app, path)
        payload = event.payload if isinstance(event.payload, dict) else {}
        for cls in classes:
            try:
                page_state = await root.get_state(cls)
                done = await page_state._warm(stored_values(cls, payload.get("vars")), whole=whole)
            except Exception:  # the page's resume does it all again: warming is a head start
                log.exception("could not warm %s before its hydrate", cls.__name__)
                done = False
            if whole and not done:
                await self._resume_after(cls)
        return None

    @staticmethod
    async def _resume_after(cls: type) -> None:
        """Queue the page state's `resume` after this hydrate, as an on_load handler."""
        resume = getattr(cls, "resume", None)
        if resume is not None:
            await compat.enqueue(resume)
