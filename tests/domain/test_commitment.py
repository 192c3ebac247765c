"""The verifiable draw's scheme (`domain/commitment.py`): the commitment, the order, the check.

The README's re-implementation (the few lines a third party writes) is run here against the
app's: they must agree on fixed and random seeds.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loto_app.domain import commitment as draws

README = Path(__file__).resolve().parents[2] / "README.md"
SEED = bytes(range(32))


def readme_snippet() -> dict:
    """The Python block of the README's "Vérifier un tirage" section, run as a module."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### Vérifier un tirage", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "the README shows the algorithm in a python block"
    scope: dict = {}
    exec(compile(code.group(1), "README.md", "exec"), scope)  # (our own README)
    return scope


def test_the_commitment_is_sha256_of_the_bound_text() -> None:
    text = f"loto-tirage-v1|DEMO42|A|3|{SEED.hex()}"
    assert draws.preimage(SEED, "DEMO42", "A", 3) == text
    assert draws.commitment(SEED, "DEMO42", "A", 3) == hashlib.sha256(text.encode()).hexdigest()


def test_the_commitment_binds_the_evening_the_serie_and_the_game() -> None:
    base = draws.commitment(SEED, "DEMO42", "A", 1)
    assert draws.commitment(SEED, "DEMO43", "A", 1) != base
    assert draws.commitment(SEED, "DEMO42", "B", 1) != base
    assert draws.commitment(SEED, "DEMO42", "A", 2) != base
    assert draws.commitment(bytes(32), "DEMO42", "A", 1) != base


def test_known_answers() -> None:
    """Fixed vectors (seed 00 01 02 ... 1f): the app and every re-implementation must give
    exactly these; a change of the scheme shows here first."""
    order = draws.draw_order(SEED)
    assert sorted(order) == list(range(1, 91))
    assert order[:12] == (2, 24, 69, 29, 36, 17, 40, 66, 65, 79, 71, 52)
    assert draws.commitment(SEED, "DEMO42", "A", 1) == (
        "1fd35c2cbd44e0c93b31ee163b425d5d4c0b6902d8bc30dd3e6181d8ccf53bb4"
    )
    assert tuple(readme_snippet()["draw_order"](SEED)) == order


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32))
def test_the_readme_reimplementation_agrees_with_the_app(seed: bytes) -> None:
    mine = readme_snippet()
    assert tuple(mine["draw_order"](seed)) == draws.draw_order(seed)
    assert mine["commitment"](seed, "ABC234", "S1", 2) == draws.commitment(seed, "ABC234", "S1", 2)


def test_rejection_sampling_skips_the_top_of_the_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """x >= 2^64 - (2^64 mod n) is thrown away (else small j would be favoured)."""
    n = 90
    limit = (1 << 64) - (1 << 64) % n
    values = iter([limit, (1 << 64) - 1, limit - 1])

    class Fake:
        counter = 0

        def next(self) -> int:
            self.counter += 1
            return next(values)

    stream = Fake()
    assert draws._below(stream, n) == (limit - 1) % n  # type: ignore[arg-type]
    assert stream.counter == 3


def test_a_seed_is_32_bytes() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        draws.draw_order(b"short")
    assert len(draws.new_seed()) == 32 and draws.new_seed() != draws.new_seed()


def test_seeds_are_read_as_typed() -> None:
    assert draws.parse_seed(" ".join(SEED.hex()[i : i + 8] for i in range(0, 64, 8))) == SEED
    assert draws.parse_seed(SEED.hex().upper()) == SEED
    for bad in ("", "zz" * 32, SEED.hex()[:-2], SEED.hex() + "00"):
        with pytest.raises(ValueError, match="64 hexadecimal"):
            draws.parse_seed(bad)


def test_the_short_form_is_16_digits_in_groups_of_four() -> None:
    c = draws.commitment(SEED, "DEMO42", "A", 1)
    assert draws.short(c) == " ".join(c[i : i + 4].upper() for i in range(0, 16, 4))


def test_verification_of_an_honest_draw() -> None:
    c = draws.commitment(SEED, "DEMO42", "A", 1)
    drawn = draws.draw_order(SEED)[:37]
    check = draws.verify(SEED, "DEMO42", "A", 1, c, drawn)
    assert check.ok and check.commitment_ok and check.position is None
    assert check.order[:37] == drawn


def test_a_commitment_for_another_game_fails() -> None:
    c = draws.commitment(SEED, "DEMO42", "A", 2)
    check = draws.verify(SEED, "DEMO42", "A", 1, c, draws.draw_order(SEED)[:5])
    assert not check.ok and not check.commitment_ok and check.position is None


@settings(max_examples=200, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    length=st.integers(1, 90),
    data=st.data(),
)
def test_a_changed_number_fails_at_the_first_position_that_differs(
    seed: bytes, length: int, data: st.DataObject
) -> None:
    order = draws.draw_order(seed)
    drawn = list(order[:length])
    at = data.draw(st.integers(0, length - 1))
    other = data.draw(st.integers(1, 90).filter(lambda n: n != drawn[at]))
    drawn[at] = other
    c = draws.commitment(seed, "X", "A", 1)
    check = draws.verify(seed, "X", "A", 1, c, tuple(drawn))
    assert check.commitment_ok and not check.ok
    assert check.position == at + 1
    assert (check.expected, check.got) == (order[at], other)


def test_more_than_90_numbers_fail_at_the_91st() -> None:
    order = draws.draw_order(SEED)
    check = draws.verify(SEED, "X", "A", 1, draws.commitment(SEED, "X", "A", 1), (*order, 5))
    assert check.position == 91 and check.expected is None and check.got == 5
