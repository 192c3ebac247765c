"""The machine's own servers the tests use when they are there: Redis (the multi-worker mode).

`REDIS_URL` (LOTO_TEST_REDIS_URL, default redis://127.0.0.1:6379) and `redis_up()`, which asks
that server for a PONG; the tests that need Redis skip with a clear reason when it is not up.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

REDIS_URL = os.environ.get("LOTO_TEST_REDIS_URL", "redis://127.0.0.1:6379")
_redis = urlsplit(REDIS_URL)
REDIS_ADDRESS = (_redis.hostname or "127.0.0.1", _redis.port or 6379)
REDIS_MISSING = f"Redis not reachable at {REDIS_ADDRESS[0]}:{REDIS_ADDRESS[1]}"


def redis_up() -> bool:
    """True when the Redis server at REDIS_URL answers PING."""
    try:
        with socket.create_connection(REDIS_ADDRESS, timeout=2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False
