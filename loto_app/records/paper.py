"""Paper cartons for players without a phone: an A4 planche of 6 cartons per page.

Each carton is printed as its grid with large numbers, the série code, the carton's number, its
check code (the HMAC code the control desk verifies, art. 10) and a QR code holding
`LOTO:<série>:<carton no>:<check code>` for the desk to scan (`parse_qr_text` reads it back).

Classique, spécial and vitrine cartons (3 × 9) are stacked 6 to a page, the way a planche is
printed; maxiquine grids (5 × 5) go 2 across and 3 down. A page holds one layout only: when the
kinds are mixed, a new page starts where the layout changes.

The evening's règlement (domain/reglement.py, "à présenter à chaque carton vendu") follows as
the last page(s) when it is given.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import segno
from sqlmodel import Session, col, select

from loto_app.domain.program import carton_kind_label
from loto_app.domain.reglement import Reglement, reglement
from loto_app.records._pdf import new_pdf
from loto_app.storage import models as m
from loto_app.storage.eventlog import evening_rows
from loto_app.storage.repository import EveningStore

#: Cartons on one page.
PER_PAGE = 6
QR_PREFIX = "LOTO"

Grid = Sequence[Sequence[int | None]]


class PaperCarton(NamedTuple):
    """What is printed of a carton: its number, kind, grid rows (None for a blank) and code."""

    no: int
    kind: str
    rows: Grid
    check_code: str


def qr_text(series: str, carton_no: int, code: str) -> str:
    """The QR code's content for a carton: `LOTO:<série>:<no>:<code>`."""
    return f"{QR_PREFIX}:{series}:{carton_no}:{code}"


def parse_qr_text(text: str) -> tuple[str, int, str] | None:
    """(série, carton no, check code) from a scanned QR code, or None when it is not ours.

    The série code may itself hold ":" (the number and code are the last two fields).
    """
    if not isinstance(text, str):
        return None
    head, sep, rest = text.strip().partition(":")
    if not sep or head != QR_PREFIX:
        return None
    series, _, tail = rest.rpartition(":")
    series, _, no = series.rpartition(":")
    if not series or not no.isdigit() or not tail:
        return None
    return series, int(no), tail


def _is_maxi(c: PaperCarton) -> bool:
    return len(c.rows) == 5


def _pages(cartons: Sequence[PaperCarton]) -> list[list[PaperCarton]]:
    """Up to 6 cartons per page, a new page where the layout (3×9 or 5×5) changes."""
    pages: list[list[PaperCarton]] = []
    for c in cartons:
        if not pages or len(pages[-1]) == PER_PAGE or _is_maxi(pages[-1][0]) != _is_maxi(c):
            pages.append([])
        pages[-1].append(c)
    return pages


def _qr_png(text: str) -> io.BytesIO:
    buf = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buf, kind="png", scale=8, border=2)
    buf.seek(0)
    return buf


def paper_pdf(
    evening_name: str,
    series: str,
    cartons: Iterable[PaperCarton | tuple[int, str, Grid, str]],
    *,
    unicode_font: bool = True,
    rules: Reglement | None = None,
) -> bytes:
    """Print cartons on A4 pages, 6 per page, with their numbers, codes and QR codes.

    Args:
        evening_name: printed at the top of each page.
        series: the série code.
        cartons: (carton no, kind, grid rows, check code) in print order; `cartons_for` reads
            them from the database.
        unicode_font: DejaVu Sans when the system has it; False forces the core fonts.
        rules: the evening's règlement, printed after the cartons (None: cartons only).

    Returns:
        The PDF file (fixed creation date: the same cartons give the same bytes).

    Raises:
        ValueError: no cartons, or a grid that is neither 3 × 9 nor 5 × 5.
    """
    items = [PaperCarton(*c) for c in cartons]
    if not items:
        raise ValueError("no cartons to print")
    for c in items:
        shape = (len(c.rows), {len(r) for r in c.rows})
        if shape not in ((3, {9}), (5, {5})):
            raise ValueError(
                f"carton {c.no}: a grid of {shape[0]} rows {shape[1]} is not printable"
            )
    pdf, f = new_pdf(f"Cartons — {evening_name} — série {series}", None, unicode_font=unicode_font)
    pdf.set_auto_page_break(False)
    pages = _pages(items)
    for i, page in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font(f.sans, "B", 11)
        pdf.set_xy(10, 7)
        pdf.cell(130, 6, f.text(f"{evening_name} — série {series}"))
        pdf.set_font(f.sans, "", 9)
        pdf.set_xy(140, 7)
        pdf.cell(60, 6, f.text(f"Planche {i}/{len(pages)}"), align="R")
        for slot, c in enumerate(page):
            if _is_maxi(c):
                _maxi(pdf, f, series, c, 10 + (slot % 2) * 97, 16 + (slot // 2) * 92)
            else:
                _classic(pdf, f, series, c, 10, 16 + slot * 46.5)
    if rules is not None:
        _rules_page(pdf, f, rules)
    return bytes(pdf.output())


def _rules_page(pdf, f, rules: Reglement) -> None:
    """The règlement on its own pages (two for a full program: type large enough to read at
    a table matters more than one sheet), printed after the cartons."""
    pdf.add_page()
    pdf.set_auto_page_break(True, margin=10)
    pdf.set_xy(10, 10)
    pdf.set_font(f.sans, "B", 14)
    pdf.multi_cell(190, 7, f.text(rules.title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(f.sans, "", 9)
    pdf.multi_cell(
        190, 5, f.text("À présenter à chaque carton vendu."), new_x="LMARGIN", new_y="NEXT"
    )
    for a in rules.articles:
        pdf.ln(1.5)
        pdf.set_font(f.sans, "B", 11.5)
        pdf.multi_cell(190, 6, f.text(f"Article {a.no} — {a.title}"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(f.sans, "", 10.5)
        for para in a.paragraphs:
            pdf.multi_cell(190, 5.2, f.text(para), new_x="LMARGIN", new_y="NEXT")
    pdf.set_auto_page_break(False)


def _label(pdf, f, series: str, c: PaperCarton, x: float, y: float, w: float) -> None:
    pdf.set_xy(x, y)
    pdf.set_font(f.sans, "B", 11)
    pdf.cell(w * 0.55, 6, f.text(f"Carton n° {c.no} — série {series}"))
    pdf.set_font(f.sans, "", 10)
    pdf.cell(w * 0.45, 6, f.text(f"Code {c.check_code} · {carton_kind_label(c.kind)}"), align="R")


def _grid(pdf, f, rows: Grid, x: float, y: float, cw: float, ch: float, size: float) -> None:
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.4)
    for r, row in enumerate(rows):
        for k, n in enumerate(row):
            cx, cy = x + k * cw, y + r * ch
            if n is None:
                pdf.set_fill_color(215, 215, 215)
                pdf.rect(cx, cy, cw, ch, style="DF")
                continue
            pdf.set_fill_color(255, 255, 255)
            pdf.rect(cx, cy, cw, ch, style="D")
            pdf.set_xy(cx, cy)
            pdf.set_font(f.sans, "B", size)
            pdf.cell(cw, ch, str(n), align="C")


def _cut_line(pdf, x: float, y: float, w: float) -> None:
    pdf.set_draw_color(170, 170, 170)
    pdf.set_line_width(0.2)
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    pdf.line(x, y, x + w, y)
    pdf.set_dash_pattern()


def _classic(pdf, f, series: str, c: PaperCarton, x: float, y: float) -> None:
    """A 3 × 9 carton in a 190 × 46.5 mm slot: grid on the left, QR code on the right."""
    _label(pdf, f, series, c, x, y, 150)
    _grid(pdf, f, c.rows, x, y + 6.5, 16.5, 11.5, 20)
    pdf.image(_qr_png(qr_text(series, c.no, c.check_code)), x=x + 155, y=y + 5, w=34, h=34)
    _cut_line(pdf, x, y + 43.5, 190)


def _maxi(pdf, f, series: str, c: PaperCarton, x: float, y: float) -> None:
    """A 5 × 5 maxiquine grid in a 95 × 92 mm slot: grid, QR code at its right."""
    pdf.set_xy(x, y)
    pdf.set_font(f.sans, "B", 11)
    pdf.cell(93, 6, f.text(f"Grille n° {c.no} — série {series}"))
    pdf.set_xy(x, y + 6)
    pdf.set_font(f.sans, "", 10)
    pdf.cell(93, 5, f.text(f"Code {c.check_code} · {carton_kind_label(c.kind)}"))
    _grid(pdf, f, c.rows, x, y + 12.5, 12.5, 12.5, 17)
    pdf.image(_qr_png(qr_text(series, c.no, c.check_code)), x=x + 65, y=y + 12.5, w=27, h=27)
    _cut_line(pdf, x, y + 78, 93)


def cartons_for(
    store: EveningStore, evening_id: int, carton_nos: Iterable[int]
) -> list[PaperCarton]:
    """The cartons to print, read from the carton table (grid and check code), in the order
    asked.

    Raises:
        KeyError: a carton number that is not in this evening's série.
    """
    wanted = list(carton_nos)
    with Session(store.engine) as s:
        rows = s.exec(
            select(m.CartonRow).where(
                m.CartonRow.evening_id == evening_id, col(m.CartonRow.no).in_(wanted)
            )
        ).all()
    found = {
        r.no: PaperCarton(r.no, r.kind, tuple(tuple(row) for row in r.grid), r.check_code)
        for r in rows
    }
    missing = [n for n in wanted if n not in found]
    if missing:
        raise KeyError(f"evening {evening_id}: no carton {missing}")
    return [found[n] for n in wanted]


def paper_pdf_for(store: EveningStore, evening_id: int, carton_nos: Iterable[int]) -> bytes:
    """`paper_pdf` of cartons of an evening, with its name and série read from the database.

    Raises:
        KeyError: no such evening, or a carton not in its série.
    """
    with Session(store.engine) as s:
        row, series = evening_rows(s, evening_id)
    rules = reglement(store.current_program(evening_id), row.name)
    return paper_pdf(row.name, series.code, cartons_for(store, evening_id, carton_nos), rules=rules)
