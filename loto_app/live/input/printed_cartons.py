"""The cartons a desk types or scans to sell paper cartons printed in advance: one a line, as
`<number> <code>` (or `<number>-<code>`, `<number>/<code>`), or the QR code's text
`LOTO:<série>:<number>:<code>` that a USB scanner types. Pure."""

from __future__ import annotations

import re

from loto_app.live.input.guards import BadInput
from loto_app.records.paper import parse_qr_text

MAX_LINES = 40
MAX_TEXT = 2_000
_TYPED = re.compile(r"^\s*(\d{1,6})\s*[-/ ;:.,]+\s*([A-Za-z0-9]{1,12})\s*$")


class BadCartons(BadInput):
    """Lines that are not cartons, with what to tell the vendeur."""

    def __init__(self, detail: str, message: str) -> None:
        super().__init__(detail)
        self.user_message = message


def read_cartons(text: object) -> list[tuple[int, str]]:
    """(number, check code) of each line (blank lines skipped).

    Raises:
        BadCartons: a line that is neither form, too many lines, or none.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise BadCartons(f"cartons text {text!r:.40}", "Trop de texte : un carton par ligne.")
    lines = [ln for ln in text.replace(",\n", "\n").splitlines() if ln.strip()]
    if not lines:
        raise BadCartons("no carton", "Tapez ou scannez au moins un carton (numéro et code).")
    if len(lines) > MAX_LINES:
        raise BadCartons(f"{len(lines)} lines", f"Au plus {MAX_LINES} cartons à la fois.")
    out = []
    for ln in lines:
        qr = parse_qr_text(ln.strip())
        if qr is not None:
            out.append((qr[1], qr[2].strip().upper()))
            continue
        m = _TYPED.match(ln)
        if m is None:
            raise BadCartons(
                f"carton line {ln!r:.40}",
                f"« {ln.strip()[:30]} » : tapez le numéro du carton puis son code (ex. 12 7KQ2MB).",
            )
        out.append((int(m.group(1)), m.group(2).upper()))
    return out
