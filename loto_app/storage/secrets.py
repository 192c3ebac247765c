"""The codes and secrets the app hands out, and how a secret is kept: a digest.

Its own module, below both the evening store (`repository.py`, which creates an evening's codes
and writes a joiner's digest) and the credential checks (`access.py`, which compares digests).
"""

from __future__ import annotations

import hashlib
import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
JOIN_CODE_LENGTH = 6


def hash_secret(secret: str) -> str:
    """Secrets are stored as SHA-256 digests (they are long random tokens: no salt needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A random code that reads well aloud and on a screen."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
