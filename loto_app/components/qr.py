"""A QR code drawn by the phone itself (qrcode.react's `QRCodeSVG`): the server sends only
its text. Used for the player's desk code, which every phone shows from its first page: made
on the server (segno, an SVG as a base64 data URI), it was ~8 % of a join's server CPU and
~1 KB of its first update."""

from __future__ import annotations

import reflex as rx


class QRCodeSVG(rx.Component):
    """An inline `<svg>` QR code of `value`, black on white (the library's default colours), a
    quiet zone of `margin_size` modules; `size` in pixels, or any CSS size through
    `width`/`height` style props."""

    library = "qrcode.react@4.2.0"
    tag = "QRCodeSVG"

    value: rx.Var[str]
    size: rx.Var[int]
    level: rx.Var[str]  # error correction: "L", "M", "Q" or "H"
    margin_size: rx.Var[int]
    title: rx.Var[str]


def qr_code(value: rx.Var[str], label: str, size: str) -> rx.Component:
    """The QR code of `value`, an image named `label` for screen readers, `size` square."""
    return QRCodeSVG.create(
        value=value,
        level="M",
        margin_size=2,
        title=label,
        width=size,
        height=size,
        flex_shrink="0",
        custom_attrs={"role": "img", "aria-label": label},
    )
