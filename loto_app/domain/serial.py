"""Série numbering proofs: short check codes derived from the evening's secret key.

Every carton of the série carries a number and a 6-character check code. The code is an
HMAC-SHA256 of the série code and the carton number under the evening's secret key, so nobody
without the key can make up a valid (number, code) pair, and a carton typed at the control desk
or printed on paper can be proven to belong to this evening's série (art. 10). Award (lot)
tickets carry a code of the same shape over the série, the award number and the player.

Codes use a 32-symbol alphabet without the ambiguous 0/O and 1/I. The first symbol tells the
kind of code apart: carton codes start with one of `23456789ABCDEFGH`, lot codes with one of
`JKLMNPQRSTUVWXYZ`, so a carton code is never a valid lot code (and conversely); the other 5
symbols carry 25 more bits, hence 29 bits of MAC per code (a blind guess succeeds with
probability 2^-29, about 1.9e-9). The messages are length-prefixed and domain-separated, so no
two different inputs share a message.

Pure functions, no I/O.
"""

from __future__ import annotations

import hashlib
import hmac

#: The code alphabet: digits 2-9 and the letters without I and O (32 symbols).
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: Length of a check code.
CODE_LENGTH = 6

_CARTON_DOMAIN = b"loto/carton-check/v1\x00"
_LOT_DOMAIN = b"loto/lot-ticket/v1\x00"
_HALF = len(ALPHABET) // 2  # carton codes start in the first half, lot codes in the second
_MAX_NUMBER = (1 << 64) - 1


def _field(text: str, what: str) -> bytes:
    """A length-prefixed UTF-8 field of a MAC message."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be a str, got {type(text).__name__}")
    data = text.encode("utf-8")
    if len(data) > 0xFFFF:
        raise ValueError(f"{what} is too long ({len(data)} bytes)")
    return len(data).to_bytes(2, "big") + data


def _number(value: int, what: str) -> bytes:
    """An 8-byte big-endian field of a MAC message."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _MAX_NUMBER:
        raise ValueError(f"{what} must be an int in 0..2^64-1, got {value!r}")
    return value.to_bytes(8, "big")


def _code(key: bytes, message: bytes, first_half: int) -> str:
    """Encode the HMAC-SHA256 of `message` as a check code (first symbol in a given half)."""
    if not isinstance(key, bytes | bytearray | memoryview):
        raise ValueError(f"key must be bytes, got {type(key).__name__}")
    digest = hmac.new(bytes(key), message, hashlib.sha256).digest()
    bits = int.from_bytes(digest[:4], "big") >> 3  # 29 bits
    symbols = [ALPHABET[first_half * _HALF + (bits >> 25)]]
    for shift in range(20, -1, -5):
        symbols.append(ALPHABET[bits >> shift & 31])
    return "".join(symbols)


def _normalise(code: object) -> str | None:
    """The code as typed, upper-cased and stripped, or None when it cannot be a code."""
    if not isinstance(code, str):
        return None
    text = code.strip().upper()
    if len(text) != CODE_LENGTH or not text.isascii():
        return None
    return text


def check_code(key: bytes, series: str, carton_no: int) -> str:
    """The check code of a carton of the série.

    Args:
        key: the evening's secret key.
        series: the série code (printed on every carton).
        carton_no: the carton's number in the série (0 to 2^64 - 1).

    Returns:
        6 upper-case symbols of `ALPHABET`, the first one in `23456789ABCDEFGH`.

    Raises:
        ValueError: if an argument has the wrong type or range.
    """
    message = _CARTON_DOMAIN + _field(series, "series") + _number(carton_no, "carton_no")
    return _code(key, message, 0)


def verify_check_code(key: bytes, series: str, carton_no: int, code: str) -> bool:
    """Whether `code` is the check code of this carton (case-insensitive, spaces around ignored).

    The comparison runs in constant time (`hmac.compare_digest`). A malformed code (wrong
    length, non-ASCII, not a string) is simply not valid.

    Args:
        key: the evening's secret key.
        series: the série code.
        carton_no: the carton's number in the série.
        code: the code as typed or read.

    Returns:
        True iff the code matches.

    Raises:
        ValueError: if `key`, `series` or `carton_no` has the wrong type or range.
    """
    expected = check_code(key, series, carton_no)
    given = _normalise(code)
    if given is None:
        return False
    return hmac.compare_digest(expected.encode("ascii"), given.encode("ascii"))


def lot_ticket_code(key: bytes, series: str, award_no: int, player_id: str) -> str:
    """The code printed on a lot (award) ticket, binding série, award number and player.

    Domain-separated from carton codes: its first symbol is in `JKLMNPQRSTUVWXYZ`, so it can
    never pass `verify_check_code`, and a carton code can never pass `verify_lot_ticket_code`.

    Args:
        key: the evening's secret key.
        series: the série code.
        award_no: the award ticket's number (0 to 2^64 - 1).
        player_id: the winning player's identifier.

    Returns:
        6 upper-case symbols of `ALPHABET`, the first one in `JKLMNPQRSTUVWXYZ`.

    Raises:
        ValueError: if an argument has the wrong type or range.
    """
    message = (
        _LOT_DOMAIN
        + _field(series, "series")
        + _number(award_no, "award_no")
        + _field(player_id, "player_id")
    )
    return _code(key, message, 1)


def verify_lot_ticket_code(
    key: bytes, series: str, award_no: int, player_id: str, code: str
) -> bool:
    """Whether `code` is the lot ticket code of this award (same tolerance as check codes).

    Args:
        key: the evening's secret key.
        series: the série code.
        award_no: the award ticket's number.
        player_id: the winning player's identifier.
        code: the code as typed or read.

    Returns:
        True iff the code matches.

    Raises:
        ValueError: if an argument other than `code` has the wrong type or range.
    """
    expected = lot_ticket_code(key, series, award_no, player_id)
    given = _normalise(code)
    if given is None:
        return False
    return hmac.compare_digest(expected.encode("ascii"), given.encode("ascii"))
