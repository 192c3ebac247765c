"""A QR code read with the phone's camera (assets/scan.js): a button opens the camera, the
picture shows in the page, and the first QR code that starts with the expected prefix fills a
field of a form and sends it, as if typed. The browser's own `BarcodeDetector` reads it where
it exists (Android's Chrome); elsewhere jsQR, from the npm registry (`JsQR` below, pinned).

A camera needs a secure page (https, or the laptop's own localhost): over a hall's plain
http:// address the button says so, and the form's fields stay the way in.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import INK, MUTED, SECTION_LINE
from loto_app.components.ui import big_button, tid

SCRIPT = "/scan.js"
JSQR = "jsqr@1.4.0"


class JsQR(rx.Fragment):
    """Nothing on the page: jsQR, imported from the npm registry and handed to assets/scan.js
    (`window.__lotoJsQR`), which reads the camera's frames with it when the browser has no
    `BarcodeDetector`."""

    def add_imports(self) -> dict[str, Any]:
        """jsQR's default export, and React's effect."""
        return {JSQR: rx.ImportVar(tag="jsQR", is_default=True), "react": "useEffect"}

    def add_hooks(self) -> list[str | rx.Var]:
        """Hand jsQR to the page's script once the page is there."""
        return ["useEffect(() => { window.__lotoJsQR = jsQR; }, []);"]


def scanner(
    scanner_id: str,
    *,
    form_id: str,
    field: str,
    prefix: str,
    what: str,
    label: str,
) -> rx.Component:
    """The camera's button, its picture and what it says.

    Args:
        scanner_id: the scanner's element id (and test id).
        form_id: the form a code read is sent with.
        field: the name of the form's field the code goes in.
        prefix: what a QR code must start with to be taken ("LOTO:" for a carton).
        what: what the expected QR code is, for "Ce QR code n'est pas <what>."
        label: the button's text.
    """
    return rx.box(
        JsQR.create(),
        rx.script(src=SCRIPT),
        rx.flex(
            big_button(
                (rx.icon("scan-qr-code", size=26), label),
                f"{scanner_id}-start",
                type="button",
                height="auto",
                padding_y="0.5rem",
                white_space="normal",
                width="100%",
                font_size="1.3rem",
                custom_attrs={"data-scan-start": scanner_id},
            ),
            rx.button(
                "Arrêter la caméra",
                type="button",
                size="3",
                variant="outline",
                class_name="loto-scan-stop",
                custom_attrs=tid(f"{scanner_id}-stop", **{"data-scan-stop": scanner_id}),
            ),
            gap="0.6rem",
            wrap="wrap",
            align="center",
        ),
        rx.el.video(
            muted=True,
            class_name="loto-scan-video",
            custom_attrs={"playsinline": "", "aria-label": "Image de la caméra"},
            border=f"3px solid {INK}",
            border_radius="0.5rem",
            width="100%",
            max_height="50vh",
            background="black",
        ),
        # what the camera does, written by assets/scan.js (an attribute: assets/scan.css)
        rx.el.p(
            class_name="loto-scan-status",
            color=MUTED,
            font_weight="700",
            custom_attrs=tid(f"{scanner_id}-status", role="status", **{"aria-live": "polite"}),
        ),
        id=scanner_id,
        padding="0.75rem",
        border=f"1px solid {SECTION_LINE}",
        border_radius="0.6rem",
        background="white",
        custom_attrs={
            "data-form": form_id,
            "data-field": field,
            "data-accept": prefix,
            "data-what": what,
            "data-testid": scanner_id,
        },
    )
