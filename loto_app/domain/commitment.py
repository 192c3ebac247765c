"""The verifiable electronic draw: a game's whole order fixed by a secret seed before its first
number, committed in public, revealed after its end, checkable by anyone.

The scheme ("loto-tirage-v1"), short enough to re-implement in a few lines (README, "Vérifier
un tirage"):

- **seed**: 32 random bytes (the operating system's CSPRNG), secret while the game is played.
- **commitment**: SHA-256, in lowercase hex, of the UTF-8 text
  `loto-tirage-v1|<evening's join code>|<série>|<game number, 1 for the first>|<seed in
  lowercase hex>`. Published before the first number (hall screen, phones, the log).
- **order**: Fisher-Yates on the balls 1..90. For i = 0..88, with n = 90 - i balls left, take
  the next 64-bit number x = the first 8 bytes, big-endian, of SHA-256(seed || c), where c is a
  counter (8 bytes, big-endian) starting at 0 and incremented at every hash; x is used only if
  x < 2^64 - (2^64 mod n) (rejection sampling: every j equally likely), else the next one is
  taken; then swap balls[i] and balls[i + x mod n]. The draw is balls[0], balls[1], ...
- **reveal**: at the game's end the seed is published; anyone recomputes the commitment and
  the order and compares them with what was announced and drawn.

Pure: no clock, no I/O (but `new_seed`, which reads the system's random source).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

SCHEME = "loto-tirage-v1"
SEED_BYTES = 32
BALLS = 90
_SPACE = 1 << 64
#: x must lie below this for n balls left (rejection sampling)
_LIMIT = {n: _SPACE - _SPACE % n for n in range(1, BALLS + 1)}


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's cryptographic source."""
    return secrets.token_bytes(SEED_BYTES)


def preimage(seed: bytes, evening: str, series: str, game: int) -> str:
    """The text whose SHA-256 is the commitment (`game`: 1 for the first game)."""
    return f"{SCHEME}|{evening}|{series}|{game}|{seed.hex()}"


def commitment(seed: bytes, evening: str, series: str, game: int) -> str:
    """The public commitment to a game's draw: SHA-256 of `preimage`, lowercase hex."""
    return hashlib.sha256(preimage(seed, evening, series, game).encode()).hexdigest()


class _Stream:
    """The 64-bit numbers x0, x1, ... of a seed: the first 8 bytes of SHA-256(seed || c)."""

    __slots__ = ("_base", "counter")

    def __init__(self, seed: bytes) -> None:
        self._base = hashlib.sha256(seed)
        self.counter = 0

    def next(self) -> int:
        h = self._base.copy()
        h.update(self.counter.to_bytes(8, "big"))
        self.counter += 1
        return int.from_bytes(h.digest()[:8], "big")


def _below(stream: _Stream, n: int) -> int:
    """A number uniform in 0..n-1 from the stream (rejection sampling)."""
    limit = _LIMIT[n]
    while True:
        x = stream.next()
        if x < limit:
            return x % n


def draw_order(seed: bytes) -> tuple[int, ...]:
    """The whole order of a game's 90 numbers from its seed (Fisher-Yates, see above)."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    balls = list(range(1, BALLS + 1))
    stream = _Stream(seed)
    for i in range(BALLS - 1):
        j = i + _below(stream, BALLS - i)
        balls[i], balls[j] = balls[j], balls[i]
    return tuple(balls)


def short(commitment_hex: str) -> str:
    """The commitment as the hall screen shows it: its first 16 hex digits, in capitals, in
    groups of 4 ("3F9A 21C0 7B4E D2A8": 64 bits, too many to find another seed for)."""
    head = commitment_hex[:16].upper()
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def parse_seed(text: str) -> bytes:
    """A revealed seed as typed or pasted (hex, spaces allowed).

    Raises:
        ValueError: not 64 hex digits.
    """
    clean = "".join(str(text).split()).lower()
    if len(clean) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in clean):
        raise ValueError("a seed is 64 hexadecimal digits")
    return bytes.fromhex(clean)


@dataclass(frozen=True, slots=True)
class Check:
    """What a verification found.

    Attributes:
        expected_commitment: the SHA-256 recomputed from the seed and what it binds.
        commitment_ok: it equals the commitment published before the first number.
        order: the whole order the seed gives.
        drawn: the numbers actually drawn, as given.
        position: the first position (1 for the first number) where a drawn number differs
            from the order (None: none differs).
        expected: the order's number at that position.
        got: the drawn number there.
    """

    expected_commitment: str
    commitment_ok: bool
    order: tuple[int, ...]
    drawn: tuple[int, ...]
    position: int | None
    expected: int | None
    got: int | None

    @property
    def ok(self) -> bool:
        """The commitment matches and every drawn number is the next of the order."""
        return self.commitment_ok and self.position is None


def verify(
    seed: bytes, evening: str, series: str, game: int, published: str, drawn: tuple[int, ...]
) -> Check:
    """Recompute a game's commitment and order from its revealed seed, and compare them with
    the commitment published before the first number and the numbers drawn."""
    expected = commitment(seed, evening, series, game)
    order = draw_order(seed)
    drawn = tuple(drawn)
    position = next((i + 1 for i, n in enumerate(drawn) if i >= len(order) or order[i] != n), None)
    return Check(
        expected,
        expected == published.strip().lower(),
        order,
        drawn,
        position,
        order[position - 1] if position is not None and position <= len(order) else None,
        drawn[position - 1] if position is not None else None,
    )
