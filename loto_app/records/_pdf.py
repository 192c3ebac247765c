"""What the report and the paper cartons share to write PDFs with fpdf2: a Unicode font when the
system has one (DejaVu Sans), otherwise the core Helvetica in Windows-1252 with the text folded
to what that encoding holds ("€" is in it), and a fixed creation date so that the same input
gives the same bytes."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

#: Where DejaVu Sans is found on Debian/Ubuntu, Fedora, Arch, Alpine, macOS (Homebrew), or in
#: matplotlib's data when it is installed.
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu-sans-fonts"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/ttf-dejavu"),
    Path("/opt/homebrew/share/fonts"),
    Path("/usr/local/share/fonts"),
    *sorted(Path(sys.prefix).glob("lib/python3*/site-packages/matplotlib/mpl-data/fonts/ttf")),
)
#: fpdf2 family name of the Unicode font
UNICODE_FAMILY = "DejaVu"
_FOLD = {
    "\u202f": " ",  # narrow no-break space (French thousands, euros())
    "\u2009": " ",
    "\u2192": "->",
    "\u2190": "<-",
    "\u2713": "v",
    "\u2717": "x",
    "\u2264": "<=",
    "\u2265": ">=",
}
#: The default creation date of a PDF (only when the caller gives none).
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def find_font(name: str) -> Path | None:
    """The path of a TTF font file of that name in the usual places, or None."""
    for d in FONT_DIRS:
        p = d / name
        if p.is_file():
            return p
    return None


def fold_cp1252(text: str) -> str:
    """Text the core PDF fonts can print (Windows-1252): accents kept, "€" kept, the rest
    transliterated or replaced by "?"."""
    out = []
    for ch in str(text):
        ch = _FOLD.get(ch, ch)
        try:
            ch.encode("cp1252")
        except UnicodeEncodeError:
            base = "".join(
                c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
            )
            try:
                base.encode("cp1252")
                ch = base or "?"
            except UnicodeEncodeError:
                ch = "?"
        out.append(ch)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Fonts:
    """The families to use and the text filter for them."""

    sans: str
    mono: str
    text: Callable[[str], str]
    unicode: bool


def new_pdf(
    title: str, created: datetime | None, *, unicode_font: bool = True
) -> tuple[FPDF, Fonts]:
    """An A4 portrait document with fonts registered, its title and a fixed creation date.

    Args:
        title: the document's title (metadata).
        created: the creation date written in the file (None: a fixed date), so that the same
            input gives the same bytes.
        unicode_font: use DejaVu Sans when found; False forces the core fonts.
    """
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_creation_date(created or EPOCH)
    regular, bold = find_font("DejaVuSans.ttf"), find_font("DejaVuSans-Bold.ttf")
    mono = find_font("DejaVuSansMono.ttf")
    if unicode_font and regular and bold:
        pdf.add_font(UNICODE_FAMILY, "", str(regular))
        pdf.add_font(UNICODE_FAMILY, "B", str(bold))
        mono_family = "Courier"
        if mono:
            pdf.add_font("DejaVuMono", "", str(mono))
            mono_family = "DejaVuMono"
        fonts = Fonts(UNICODE_FAMILY, mono_family, str, True)
    else:
        pdf.core_fonts_encoding = "windows-1252"
        fonts = Fonts("Helvetica", "Courier", fold_cp1252, False)
    pdf.set_title(fonts.text(title))
    pdf.set_lang("fr")
    pdf.set_creator(fonts.text("Loto"))
    return pdf, fonts
