"""The association's own cartons (domain/own_cartons.py, domain/evening/own.py, the CSV import
live/input/own_cartons.py): any valid carton round-trips through the CSV; any corruption of a
line is refused with that line's number and nothing is registered; the engine keeps them apart
from the app's série, sells them by number and judges a claim on one by its number alone."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_rules import KEY

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.cartons import generate_strip
from loto_app.domain.engine import Evening
from loto_app.domain.own_cartons import (
    OWN_BASE,
    BadOwnCarton,
    carton_label,
    clean_series_name,
    grid_of,
    numbers_of,
)
from loto_app.domain.program import DrawSource, Kind, Settings, demo_program
from loto_app.domain.verdicts import Verdict
from loto_app.live.input.own_cartons import BadOwnCsv, read_own_csv, read_typed, to_csv
from loto_app.records.reconciliation import reconcile

ONE, THREE = 0, 1


def evening() -> Evening:
    p = demo_program("A")
    return Evening(type(p)(p.series, p.games, Settings(DrawSource.PHYSICAL)), KEY)


def box(seed: int, count: int, first: int = 1) -> list[tuple[int, tuple[int, ...]]]:
    """A supplier's box: `count` valid cartons numbered from `first`."""
    rng = random.Random(seed)
    cartons = []
    while len(cartons) < count:
        cartons += generate_strip(rng)
    return [(first + i, numbers_of(c)) for i, c in enumerate(cartons[:count])]


def entries(e: Evening) -> list:
    at = datetime(2025, 3, 1, 20, tzinfo=UTC)
    return [(i + 1, at, x) for i, x in enumerate(e.history)]


# ---------------------------------------------------------------------- the CSV, properties

seeds = st.integers(0, 2**32)


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(1, 12), st.sampled_from([";", ",", "\t"]), st.booleans())
def test_any_valid_carton_round_trips_through_the_csv(seed, count, sep, header):
    cartons = box(seed, count, first=random.Random(seed).randint(1, 90_000))
    read = read_own_csv(to_csv(cartons, sep, header))
    assert [(x.no, x.numbers) for x in read] == cartons
    for x, (_, numbers) in zip(read, cartons, strict=True):
        assert numbers_of(grid_of(x.numbers)) == numbers


def _corrupt(fields: list[str], how: int, rng: random.Random, other_no: str) -> list[str]:
    """One way a line goes wrong."""
    f = list(fields)
    i = rng.randrange(1, 16)
    match how:
        case 0:  # a value dropped
            del f[i]
        case 1:  # a value added
            f.insert(i, str(rng.randint(1, 90)))
        case 2:  # not a number
            f[i] = rng.choice(["x", "1O", "", "4.5", "-3"])
        case 3:  # out of 1-90
            f[i] = str(rng.choice([0, 91, 100, 999]))
        case 4:  # a number twice on the carton
            j = rng.choice([k for k in range(1, 16) if k != i])
            f[i] = f[j]
        case 5:  # the carton number of another line
            f[0] = other_no
        case 6:  # a row's five numbers all of the 1-9 column
            row = (i - 1) // 5
            f[1 + row * 5 : 6 + row * 5] = ["1", "2", "3", "4", "5"]
        case _:  # a bad carton number
            f[0] = rng.choice(["0", "abc", "1000000"])
    return f


@settings(max_examples=120, deadline=None)
@given(seeds, st.integers(2, 8), st.integers(0, 7), st.data())
def test_any_corruption_of_a_line_is_refused_with_its_line_and_nothing_registered(
    seed, count, how, data
):
    cartons = box(seed, count)
    lines = [";".join(map(str, (no, *nums))).split(";") for no, nums in cartons]
    bad = data.draw(st.integers(1, count - 1))  # not the first: case 5 copies line 1's number
    rng = random.Random(seed ^ how)
    lines[bad] = _corrupt(lines[bad], how, rng, lines[0][0])
    text = "numero;n1\n" + "\n".join(";".join(f) for f in lines) + "\n"
    with pytest.raises(BadOwnCsv) as caught:
        read_own_csv(text)
    line_no = bad + 2  # the header is line 1
    assert [n for n, _ in caught.value.problems] == [line_no]
    assert f"ligne {line_no} :" in caught.value.user_message
    assert caught.value.user_message.startswith("Rien n'est enregistré")
    # and the engine, given the cartons anyway, registers none of them either
    e = evening()
    parsed = [
        (int(f[0]) if f[0].isdigit() else 0, [int(x) if x.isdigit() else -1 for x in f[1:]])
        for f in lines
    ]
    with pytest.raises(err.OwnCartonsRefused):
        e.register_own("ROUGE", Kind.CLASSIQUE, parsed, "organisateur")
    assert not e.history and not e.own_cartons


# ---------------------------------------------------------------------- the CSV, examples


def refusal(text: str) -> str:
    """What the organiser reads for a file refused."""
    with pytest.raises(BadOwnCsv) as caught:
        read_own_csv(text)
    return caught.value.user_message


def test_a_spreadsheets_export_is_read_with_its_header_quotes_and_trailing_separators():
    ((_, nums),) = box(1, 1, first=347)
    text = '\ufeff"Numéro";"N1"\r\n\r\n"347";' + ";".join(f'"{n}"' for n in nums) + ";;\r\n"
    (line,) = read_own_csv(text)
    assert (line.line, line.no, line.numbers) == (3, 347, nums)


def test_every_bad_line_is_listed_up_to_twenty():
    good = box(2, 30)
    rows = [f"{no},{','.join(map(str, nums))}" for no, nums in good]
    for i in range(0, 30, 1):
        rows[i] = rows[i].rsplit(",", 1)[0]  # 15 values: every line wrong
    with pytest.raises(BadOwnCsv) as caught:
        read_own_csv("\n".join(rows))
    assert len(caught.value.problems) == 20 and caught.value.total == 30
    assert "et 10 autres erreurs" in caught.value.user_message
    assert "ligne 1 : 15 valeurs au lieu de 16" in caught.value.user_message


def test_the_reasons_are_said_in_french():
    ((no, nums),) = box(3, 1, first=12)
    cases = {
        (5, 91): "le numéro 91 n'est pas entre 1 et 90",
        (4, nums[5]): f"le numéro {nums[5]} est deux fois sur le carton",
    }
    for (i, value), said in cases.items():
        f = list(nums)
        f[i] = value
        assert said in refusal(";".join(map(str, (no, *f))))
    with pytest.raises(BadOwnCarton) as c:
        grid_of([1, 2, 20, 30, 40, 50, 60, 70, 80, 81, 11, 21, 31, 41, 51])
    assert c.value.french == "ligne 1 du carton : 1 et 2 sont dans la même colonne (1 à 9)"
    with pytest.raises(BadOwnCarton) as c:
        grid_of([1, 10, 20, 30, 40, 2, 11, 21, 31, 41, 3, 12, 22, 32, 42])
    assert c.value.french == "aucun numéro de 50 à 59 (colonne vide)"
    with pytest.raises(BadOwnCarton) as c:
        grid_of([5, 10, 20, 30, 40, 2, 11, 21, 31, 51, 3, 12, 22, 62, 72])
    assert "croître de haut en bas (5, 2, 3)" in c.value.french
    assert "ligne 2 : le carton n° 12 est déjà à la ligne 1" in refusal(
        to_csv([(no, nums), (no, nums)], header=False)
    )
    assert "Fichier trop gros" in refusal("1;" * 20_000)
    assert "Aucun carton" in refusal("numero;n1\n\n")


def test_one_carton_typed():
    ((no, nums),) = box(4, 1)
    typed = read_typed(str(no), " ".join(map(str, nums)))
    assert (typed.no, typed.numbers) == (no, nums)
    with pytest.raises(BadOwnCsv) as c:
        read_typed(str(no), " ".join(map(str, nums[:13])))
    assert "14 valeurs au lieu de 16" in c.value.user_message


def test_a_series_name_is_cleaned_or_refused():
    assert clean_series_name("  rouge  2025 ") == "ROUGE 2025"
    for bad in ("", "   ", "x" * 17, "<b>", 3):
        with pytest.raises(BadOwnCarton):
            clean_series_name(bad)


# ---------------------------------------------------------------------- the engine


def test_own_cartons_are_numbered_apart_and_named_by_their_series():
    e = evening()
    e.print_paper(Kind.CLASSIQUE, 1, "organisateur", random.Random(5))  # app cartons 1-6
    (reg,) = e.register_own("rouge", Kind.CLASSIQUE, box(5, 6, first=1), "organisateur")
    assert isinstance(reg, ev.OwnCartonsRegistered) and reg.series == "ROUGE"
    assert reg.base == OWN_BASE and set(e.own_cartons) == {OWN_BASE + n for n in range(1, 7)}
    assert 1 in e.cartons and OWN_BASE + 1 in e.cartons  # carton 1 twice: no clash
    assert e.carton_label(1) == "1" and e.carton_label(OWN_BASE + 1) == "ROUGE n°\u00a01"
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 6, rng=random.Random(1))  # the phones' cartons: 7-12
    assert all(c.no < OWN_BASE for c in e.player_cartons("ana"))
    e.check_invariants()
    assert Evening.replay(e.program, e.history, KEY).fingerprint() == e.fingerprint()
    (blue,) = e.register_own("BLEU", Kind.CLASSIQUE, box(6, 1, first=1), "organisateur")
    assert blue.base == 2 * OWN_BASE
    assert carton_label(2 * OWN_BASE + 1, e.own_series) == "BLEU n°\u00a01"


def test_a_registration_with_any_problem_registers_nothing():
    e = evening()
    e.register_own("ROUGE", Kind.CLASSIQUE, box(7, 2, first=10), "organisateur")
    before = list(e.history)
    again = box(8, 3, first=11)  # 11 is registered already
    with pytest.raises(err.OwnCartonsRefused) as c:
        e.register_own("rouge", Kind.CLASSIQUE, again, "organisateur")
    assert "n° 11 : le n° 11 est déjà enregistré dans la série ROUGE" in c.value.user_message
    assert [(i, no) for i, no, _ in c.value.problems] == [(0, 11)]
    twice = box(9, 2, first=50)
    with pytest.raises(err.OwnCartonsRefused, match="bad own cartons"):
        e.register_own("ROUGE", Kind.CLASSIQUE, [twice[0], (50, twice[1][1])], "organisateur")
    for series, kind in (("A", Kind.CLASSIQUE), ("ROUGE", Kind.MAXIQUINE), ("", Kind.CLASSIQUE)):
        with pytest.raises(err.OwnCartonsRefused):
            e.register_own(series, kind, box(10, 1, first=99), "organisateur")
    assert e.history == before


def test_the_desk_sells_them_by_number_refuses_unknown_or_sold_and_reconciles():
    e = evening()
    e.register_own("ROUGE", Kind.CLASSIQUE, box(11, 6, first=345), "organisateur")
    joined, sold, sale = e.sell_own(
        "p1", "Mme Martin", THREE, "rouge", [345, 346, 347], "cash", "Luc"
    )
    assert joined.origin == "paper" and sold.carton_nos == tuple(
        OWN_BASE + n for n in (345, 346, 347)
    )
    assert sale.amount_cents == 800 and e.owner(OWN_BASE + 347) == "p1"
    (twice,) = e.sell_own("p2", "Jo", ONE, "ROUGE", [347], "cash", "Luc")
    assert twice == ev.PaperCartonRefused(OWN_BASE + 347, "sold", "Luc")
    (unknown,) = e.sell_own("p2", "Jo", ONE, "ROUGE", [999], "cash", "Luc")
    assert unknown.why == "unknown" and "p2" not in e.players
    with pytest.raises(err.InvalidSale, match="no own series"):
        e.sell_own("p2", "Jo", ONE, "VERT", [345], "cash", "Luc")
    e.sell_own("p2", "Jo", ONE, "ROUGE", [348], "cash", "Luc")
    e.cancel_sale(2, "Jeanne", "Joueur parti")
    e.check_invariants()
    rec = reconcile(entries(e), "A")
    (line,) = rec.lines
    assert line.series == "ROUGE" and line.kind_label == "Série ROUGE (classique)"
    assert (line.printed, line.in_advance, line.sold, line.cancelled, line.unsold) == (
        6,
        6,
        3,
        1,
        2,
    )
    assert rec.balanced and [r.carton for r in rec.refusals] == [
        "ROUGE n°\u00a0347",
        "ROUGE n°\u00a0999",
    ]


def test_a_claim_on_one_is_judged_by_its_number_alone():
    e = evening()
    cartons = box(12, 2, first=347)
    e.register_own("ROUGE", Kind.CLASSIQUE, cartons, "organisateur")
    e.sell_own("p1", "Mme Martin", ONE, "ROUGE", [347], "cash", "Luc")
    e.start_game()
    row = cartons[0][1][:5]
    for n in row:
        e.enter_ball(n)
    (claim, *_) = e.own_claim("rouge", 347)
    assert isinstance(claim, ev.ClaimMade) and claim.via == "desk"
    assert claim.verdict == Verdict.VALID and claim.player_id == "p1"
    assert claim.carton_no == OWN_BASE + 347
    e.close_last_call()
    e.award()
    e.enter_ball(next(n for n in range(1, 91) if n not in e.game.drawn))
    (unsold,) = e.own_claim("ROUGE", 348)
    assert unsold.verdict == Verdict.NOT_IN_GAME and unsold.player_id is None
    (unknown,) = e.own_claim("ROUGE", 5)
    assert unknown.verdict == Verdict.WRONG_SERIES and unknown.carton_no == OWN_BASE + 5
    with pytest.raises(err.InvalidArgument, match="no own series"):
        e.own_claim("VERT", 347)
    e.check_invariants()
    rec = reconcile(entries(e), "A")
    assert rec.count("wrong_series") == 1 and rec.count("nobody") == 1
