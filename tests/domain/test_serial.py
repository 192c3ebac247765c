"""Tests of the série check codes and lot ticket codes (docs/RULES.md, "Cartons", art. 10)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loto_app.domain.serial import (
    ALPHABET,
    CODE_LENGTH,
    check_code,
    lot_ticket_code,
    verify_check_code,
    verify_lot_ticket_code,
)

KEY = b"\x13" * 32
OTHER_KEY = b"\x14" * 32
KEYS = st.binary(min_size=0, max_size=64)
SERIES = st.text(min_size=0, max_size=20)
NUMBERS = st.integers(min_value=0, max_value=2**64 - 1)
CARTON_FIRST = set(ALPHABET[:16])
LOT_FIRST = set(ALPHABET[16:])


def test_alphabet_is_unambiguous() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert not set(ALPHABET) & set("01OI")
    assert ALPHABET.isupper()


def test_codes_are_stable() -> None:
    # Golden values: a change here would void every carton already printed for an evening.
    assert check_code(b"secret", "A", 1) == "GGGD48"
    assert lot_ticket_code(b"secret", "A", 1, "p1") == "YTM2Y3"
    assert check_code(KEY, "2024-06-01", 1234) == check_code(KEY, "2024-06-01", 1234)


def test_code_is_the_documented_hmac() -> None:
    digest = hmac.new(
        b"secret", b"loto/carton-check/v1\x00\x00\x01A" + (1).to_bytes(8, "big"), hashlib.sha256
    )
    bits = int.from_bytes(digest.digest()[:4], "big") >> 3
    expected = ALPHABET[bits >> 25] + "".join(ALPHABET[bits >> s & 31] for s in (20, 15, 10, 5, 0))
    assert check_code(b"secret", "A", 1) == expected


@settings(max_examples=200, deadline=None)
@given(KEYS, SERIES, NUMBERS, st.text(max_size=10))
def test_codes_have_the_right_shape(key: bytes, series: str, no: int, player: str) -> None:
    code = check_code(key, series, no)
    assert len(code) == CODE_LENGTH
    assert set(code) <= set(ALPHABET)
    assert code[0] in CARTON_FIRST
    lot = lot_ticket_code(key, series, no, player)
    assert len(lot) == CODE_LENGTH
    assert set(lot) <= set(ALPHABET)
    assert lot[0] in LOT_FIRST


@settings(max_examples=200, deadline=None)
@given(KEYS, SERIES, NUMBERS)
def test_verify_accepts_the_right_code_case_and_spaces_tolerant(
    key: bytes, series: str, no: int
) -> None:
    code = check_code(key, series, no)
    assert verify_check_code(key, series, no, code)
    assert verify_check_code(key, series, no, code.lower())
    assert verify_check_code(key, series, no, f"  {code}\t\n")


def test_codes_differ_by_key_series_and_number() -> None:
    base = check_code(KEY, "S1", 1)
    assert check_code(OTHER_KEY, "S1", 1) != base
    assert check_code(KEY, "S2", 1) != base
    assert check_code(KEY, "S1", 2) != base
    codes = {check_code(KEY, "S1", n) for n in range(2000)}
    assert len(codes) >= 1995  # 29-bit codes: collisions among 2000 are very unlikely
    per_key = {check_code(bytes([k]), "S1", 1) for k in range(256)}
    assert len(per_key) >= 250
    per_series = {check_code(KEY, f"S{n}", 1) for n in range(500)}
    assert len(per_series) >= 498


def test_message_encoding_is_unambiguous() -> None:
    # A series ending in digits and a number must not be confused with another split.
    assert check_code(KEY, "S1", 23) != check_code(KEY, "S12", 3)
    assert lot_ticket_code(KEY, "S", 1, "23") != lot_ticket_code(KEY, "S1", 2, "3")


def test_verify_rejects_wrong_and_tampered_codes() -> None:
    code = check_code(KEY, "S1", 42)
    assert not verify_check_code(OTHER_KEY, "S1", 42, code)
    assert not verify_check_code(KEY, "S2", 42, code)
    assert not verify_check_code(KEY, "S1", 43, code)
    for i in range(CODE_LENGTH):
        for symbol in ALPHABET:
            if symbol != code[i]:
                tampered = code[:i] + symbol + code[i + 1 :]
                assert not verify_check_code(KEY, "S1", 42, tampered)
    for bad in (
        "",
        code[:-1],
        code + "2",
        code.replace(code[0], "É"),
        "O" * 6,
        f"{code[:3]} {code[3:]}",
    ):
        assert not verify_check_code(KEY, "S1", 42, bad)
    assert not verify_check_code(KEY, "S1", 42, None)  # type: ignore[arg-type]


def test_lot_codes_are_separate_from_carton_codes() -> None:
    for n in range(500):
        carton = check_code(KEY, "S1", n)
        lot = lot_ticket_code(KEY, "S1", n, "")
        assert carton != lot
        assert not verify_lot_ticket_code(KEY, "S1", n, "", carton)
        assert not verify_check_code(KEY, "S1", n, lot)
        assert verify_lot_ticket_code(KEY, "S1", n, "", f" {lot.lower()} ")


def test_lot_codes_differ_by_award_and_player() -> None:
    base = lot_ticket_code(KEY, "S1", 7, "alice")
    assert lot_ticket_code(KEY, "S1", 7, "bob") != base
    assert lot_ticket_code(KEY, "S1", 8, "alice") != base
    assert lot_ticket_code(KEY, "S2", 7, "alice") != base
    assert lot_ticket_code(OTHER_KEY, "S1", 7, "alice") != base
    assert not verify_lot_ticket_code(KEY, "S1", 7, "bob", base)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: check_code("key", "S", 1), "key must be bytes"),  # type: ignore[arg-type]
        (lambda: check_code(KEY, 1, 1), "series must be a str"),  # type: ignore[arg-type]
        (lambda: check_code(KEY, "S", -1), "carton_no must be an int"),
        (lambda: check_code(KEY, "S", 2**64), "carton_no must be an int"),
        (lambda: check_code(KEY, "S", True), "carton_no must be an int"),
        (lambda: check_code(KEY, "S" * 70_000, 1), "series is too long"),
        (lambda: lot_ticket_code(KEY, "S", 1, 5), "player_id must be a str"),  # type: ignore[arg-type]
        (lambda: lot_ticket_code(KEY, "S", 1.0, "p"), "award_no must be an int"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_raise(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
