"""The Redis server several workers share (`REFLEX_REDIS_URL`), as the app uses it.

The operator sets `REFLEX_REDIS_URL` (deploy/loto.env.example). rxconfig.py hands it to the app
as `LOTO_REDIS_URL` and hides it from Reflex, which keeps no state in Redis (its states in each
worker's memory, its token registry local: a page belongs to the worker of its socket). The app
uses Redis for what the workers share: the rooms' broadcasts (live/runtime/broadcast.py), the
phones' count (presence.py), the sign-in limits (signin_limit.py), the screens' pairing codes
(pairing.py); with it, the registry catches up with the other workers' commits (registry.py)
and events are admitted in turn (live/gate/admission.py).
"""

from __future__ import annotations

import os

ENV = "LOTO_REDIS_URL"
OPERATOR_ENV = "REFLEX_REDIS_URL"


def redis_url() -> str | None:
    """The shared Redis server's URL (None: one process, nothing shared)."""
    return os.environ.get(ENV) or os.environ.get(OPERATOR_ENV) or None
