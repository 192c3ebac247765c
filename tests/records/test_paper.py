"""Paper cartons: 6 to an A4 page, each with its numbers, série, number, check code and QR code."""

from __future__ import annotations

import io
import random
import re

import pypdf
import pytest
from evening_scenario import EVENING_NAME, Played
from sqlmodel import Session, select

from loto_app.domain.cartons import generate_maxi
from loto_app.domain.serial import verify_check_code
from loto_app.records.paper import (
    PER_PAGE,
    PaperCarton,
    cartons_for,
    paper_pdf,
    paper_pdf_for,
    parse_qr_text,
    qr_text,
)
from loto_app.storage import models as m


def pages_text(data: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


def images_per_page(data: bytes) -> list[int]:
    return [len(p.images) for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_cartons_for_reads_grid_and_check_code(played: Played) -> None:
    e = played.live.evening
    nos = [c.no for c in e.player_cartons("dede")]
    cartons = cartons_for(played.store, played.evening_id, nos)
    assert [c.no for c in cartons] == nos
    for c in cartons:
        assert c.rows == tuple(tuple(r) for r in e.cartons[c.no].carton.to_rows())
        assert c.kind == e.cartons[c.no].kind.value
        assert verify_check_code(e.key, "A", c.no, c.check_code)
    with pytest.raises(KeyError):
        cartons_for(played.store, played.evening_id, [nos[0], 10_000])


def test_paper_pdf_prints_six_cartons_a_page_with_codes_and_qr(played: Played) -> None:
    with Session(played.store.engine) as s:
        table = s.exec(
            select(m.CartonRow)
            .where(m.CartonRow.evening_id == played.evening_id, m.CartonRow.kind == "classique")
            .order_by(m.CartonRow.no)
        ).all()
    nos = [r.no for r in table][:15]
    data = paper_pdf_for(played.store, played.evening_id, nos)
    texts = pages_text(data)
    # 6 + 6 + 3 cartons, then the evening's règlement (two pages for this program)
    assert len(texts) == 5
    assert images_per_page(data) == [6, 6, 3, 0, 0]
    rules = " ".join(texts[3:])
    del texts[3:]
    assert rules.startswith(f"Règlement de la soirée — {EVENING_NAME}")
    assert "À présenter à chaque carton vendu." in rules
    assert "Série de ce soir : « A »" in rules
    program = played.live.evening.program
    for i, g in enumerate(program.games, start=1):
        assert f"Partie {i} " in rules
        assert all(st.lot.description in rules for st in g.stages)
    assert f"pendant {program.settings.last_call_seconds} secondes" in rules
    codes = {r.no: r.check_code for r in table}
    for i, no in enumerate(nos):
        page = texts[i // PER_PAGE]
        assert f"Carton n° {no} — série A" in page
        assert f"Code {codes[no]}" in page
    assert all(EVENING_NAME in t for t in texts)
    assert "Planche 3/3" in texts[2]
    # every number of the carton is printed
    grid = next(r.grid for r in table if r.no == nos[0])
    first = texts[0].split(f"Carton n° {nos[1]}")[0]
    for n in (x for row in grid for x in row if x):
        assert re.search(rf"\b{n}\b", first)


def test_each_carton_gets_its_own_qr_image(played: Played) -> None:
    cartons = cartons_for(played.store, played.evening_id, [1, 2, 3, 4, 5, 6])
    data = paper_pdf(EVENING_NAME, "A", cartons)
    (page,) = pypdf.PdfReader(io.BytesIO(data)).pages
    blobs = {img.data for img in page.images}
    assert len(blobs) == 6  # six different QR codes
    assert paper_pdf(EVENING_NAME, "A", cartons) == data  # deterministic


def test_maxiquine_grids_go_six_to_a_page_and_kinds_do_not_share_a_page() -> None:
    rng = random.Random(7)
    maxi = [
        PaperCarton(i, "maxiquine", tuple(tuple(r) for r in generate_maxi(rng).grid), "2ABCDE")
        for i in range(1, 8)
    ]
    data = paper_pdf("Loto", "M", maxi)
    assert images_per_page(data) == [6, 1]
    assert "Grille n° 7 — série M" in pages_text(data)[1]
    classic = (8, "classique", ((1, None, None, None, None, None, None, None, None),) * 3, "3ABCDE")
    mixed = paper_pdf("Loto", "M", [maxi[0], classic, maxi[1]])
    assert images_per_page(mixed) == [1, 1, 1]


def test_paper_pdf_refuses_nothing_to_print_and_odd_grids() -> None:
    with pytest.raises(ValueError, match="no cartons"):
        paper_pdf("Loto", "A", [])
    with pytest.raises(ValueError, match="not printable"):
        paper_pdf("Loto", "A", [(1, "classique", ((1, 2),), "2ABCDE")])


def test_qr_text_round_trips() -> None:
    assert qr_text("A", 12, "7K3QXD") == "LOTO:A:12:7K3QXD"
    assert parse_qr_text("LOTO:A:12:7K3QXD") == ("A", 12, "7K3QXD")
    assert parse_qr_text(" LOTO:S:1:12:ABCDEF\n") == ("S:1", 12, "ABCDEF")
    for bad in ("", "LOTO", "LOTO:A:x:CODE", "MOTO:A:1:CODE", "LOTO::1:CODE", "LOTO:A:1:", None):
        assert parse_qr_text(bad) is None  # type: ignore[arg-type]
