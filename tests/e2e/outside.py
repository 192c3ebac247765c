"""Helpers of the tests that serve the app as a separate production process, the way it is
deployed (test_lan.py, test_https.py): bench/serving.py (spawn, wait, stop), and a QR decoder
for what a screen shows."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _load_serving() -> Any:
    path = REPO / "bench" / "serving.py"
    spec = importlib.util.spec_from_file_location("loto_bench_serving", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (its dataclasses look their module up while built)
    spec.loader.exec_module(mod)
    return mod


serving = _load_serving()


def read_qr(image: Any, timeout: float = 30.0) -> list[str]:
    """The texts of the QR code an `<img>` (or inline `<svg>`) locator shows, read as a phone's
    camera does: once the image is decoded by the browser, looking again until it reads (or
    `timeout`)."""
    import time

    end = time.monotonic() + timeout
    while True:
        ready = image.evaluate("e => e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0)")
        texts = decode_qr(image.screenshot()) if ready else []
        if texts or time.monotonic() > end:
            return texts
        time.sleep(0.3)


def decode_qr(png: bytes) -> list[str]:
    """The texts of the QR codes in a screenshot (zxing-cpp, from its pixels)."""
    import zxingcpp
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))]
