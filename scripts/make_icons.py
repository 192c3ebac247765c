"""Draw the PWA icons in `assets/icons/`: a red loto ball with a white disc and "90".

Pure Python (zlib + struct PNG writer, shapes as signed distance fields with one-pixel
anti-aliasing), so no imaging dependency; the output is deterministic, and the PNGs are
committed. Run again after changing the drawing:

    .venv/bin/python scripts/make_icons.py

Icons written:
- `icon-192.png`, `icon-512.png`: the ball on a transparent background (manifest, purpose "any");
- `icon-maskable-512.png`: the ball inside the maskable safe zone (a centred circle of 40 % of
  the size) on an opaque paper background, for launchers that crop to a circle or squircle;
- `apple-touch-icon.png` (180 px, opaque: iOS fills transparency with black);
- `favicon-32.png`: the browser tab icon.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "assets" / "icons"

RGB = tuple[int, int, int]
RED: RGB = (0xB3, 0x00, 0x1B)  # the app's accent
PAPER: RGB = (0xFF, 0xFD, 0xF7)  # the app's page background
INK: RGB = (0x1A, 0x1A, 0x1A)  # the app's text colour
WHITE: RGB = (0xFF, 0xFF, 0xFF)
LIGHT_RED: RGB = (0xE0, 0x2A, 0x42)  # the lit side of the ball
DARK_RED: RGB = (0x6E, 0x00, 0x10)  # its shadow side
SHADE: RGB = (0xD9, 0xD4, 0xCC)  # the white disc's shadow side

# A shape is a signed distance function: negative inside, in icon units (the icon is 1 x 1).
Sdf = Callable[[float, float], float]


def circle(cx: float, cy: float, r: float) -> Sdf:
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def _segment_distance(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
    t = min(1.0, max(0.0, t))
    return math.hypot(x - (ax + t * dx), y - (ay + t * dy))


def stroke_segment(ax: float, ay: float, bx: float, by: float, width: float) -> Sdf:
    return lambda x, y: _segment_distance(x, y, ax, ay, bx, by) - width / 2


def stroke_stadium(cx: float, top: float, bottom: float, r: float, width: float) -> Sdf:
    """The outline of a vertical stadium (a "0"): centre line between `top` and `bottom`."""
    return lambda x, y: abs(_segment_distance(x, y, cx, top, cx, bottom) - r) - width / 2


def stroke_arc(cx: float, cy: float, r: float, start: float, end: float, width: float) -> Sdf:
    """An arc from angle `start` to `end` (radians, y pointing down, so pi/2 is the bottom)."""
    ends = [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in (start, end)]

    def sdf(x: float, y: float) -> float:
        angle = math.atan2(y - cy, x - cx) % (2 * math.pi)
        if start <= angle <= end:
            d = abs(math.hypot(x - cx, y - cy) - r)
        else:
            d = min(math.hypot(x - ex, y - ey) for ex, ey in ends)
        return d - width / 2

    return sdf


def union(*shapes: Sdf) -> Sdf:
    return lambda x, y: min(s(x, y) for s in shapes)


@dataclass(frozen=True)
class Layer:
    """A shape painted with a colour (or a colour function of x, y) at an opacity, inside a
    bounding box (for speed)."""

    shape: Sdf
    paint: RGB | Callable[[float, float], RGB]
    alpha: float = 1.0
    box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)

    def colour(self, x: float, y: float) -> RGB:
        return self.paint(x, y) if callable(self.paint) else self.paint


def radial(cx: float, cy: float, reach: float, inner: RGB, outer: RGB) -> Callable:
    """A radial gradient from `inner` at (cx, cy) to `outer` at distance `reach`."""

    def paint(x: float, y: float) -> RGB:
        t = min(1.0, math.hypot(x - cx, y - cy) / reach)
        t = t * t * (3 - 2 * t)  # smoothstep: a soft, round-looking falloff
        return tuple(round(i + (o - i) * t) for i, o in zip(inner, outer, strict=True))

    return paint


def ball_layers(cx: float, cy: float, radius: float) -> list[Layer]:
    """A loto ball of `radius` centred on (cx, cy): a shaded red sphere, a white disc turned a
    little towards the light, "90" in ink."""
    r = radius
    box = (cx - r, cy - r, cx + r, cy + r)
    light_x, light_y = cx - 0.45 * r, cy - 0.5 * r
    # the white disc sits a little up-left, as on a ball turned towards the viewer's light
    dx, dy, dr = cx - 0.04 * r, cy - 0.04 * r, 0.64 * r
    layers = [
        Layer(circle(cx, cy, r), radial(light_x, light_y, 1.75 * r, LIGHT_RED, DARK_RED), box=box),
        Layer(circle(dx, dy, dr), radial(light_x, light_y, 1.9 * r, WHITE, SHADE), box=box),
        Layer(circle(light_x - 0.12 * r, light_y - 0.08 * r, 0.1 * r), WHITE, 0.45, box),
    ]
    # "90": two digits of height h and width w, stroke sw, centred in the white disc
    h, w, sw, gap = 0.62 * r, 0.37 * r, 0.125 * r, 0.10 * r
    ring = (w - sw) / 2  # centre-line radius of the round parts
    nine_x, zero_x = dx - (w + gap) / 2, dx + (w + gap) / 2
    top, bottom = dy - h / 2, dy + h / 2
    loop_y = top + sw / 2 + ring
    hook_y = bottom - sw / 2 - ring
    nine = union(
        stroke_arc(nine_x, loop_y, ring, 0.0, 2 * math.pi, sw),  # the loop
        stroke_segment(nine_x + ring, loop_y, nine_x + ring, hook_y, sw),  # the stem
        stroke_arc(nine_x, hook_y, ring, 0.0, 0.8 * math.pi, sw),  # the hook
    )
    zero = stroke_stadium(zero_x, top + sw / 2 + ring, bottom - sw / 2 - ring, ring, sw)
    digits_box = (dx - w - gap, top - sw, dx + w + gap, bottom + sw)
    layers.append(Layer(union(nine, zero), INK, box=digits_box))
    return layers


def render(size: int, layers: list[Layer], background: RGB | None) -> bytes:
    """Rows of RGBA pixels, composited front to back with one-pixel anti-aliasing."""
    rows = []
    base = (*background, 1.0) if background else (0, 0, 0, 0.0)
    margin = 2 / size  # the anti-aliased edge reaches a little outside a shape's box
    for py in range(size):
        row = bytearray()
        y = (py + 0.5) / size
        for px in range(size):
            x = (px + 0.5) / size
            r, g, b, a = (float(c) for c in base)
            for layer in layers:
                x0, y0, x1, y1 = layer.box
                if not (x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin):
                    continue
                cover = min(1.0, max(0.0, 0.5 - layer.shape(x, y) * size)) * layer.alpha
                if cover <= 0:
                    continue
                # "over" on straight (non-premultiplied) colour
                out_a = cover + a * (1 - cover)
                lr, lg, lb = layer.colour(x, y)
                r = (lr * cover + r * a * (1 - cover)) / out_a
                g = (lg * cover + g * a * (1 - cover)) / out_a
                b = (lb * cover + b * a * (1 - cover)) / out_a
                a = out_a
            row += bytes((round(r), round(g), round(b), round(a * 255)))
        rows.append(bytes(row))
    return b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row


def png(size: int, raw_rgba: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw_rgba, 9))
        + chunk(b"IEND", b"")
    )


ICONS: dict[str, tuple[int, float, RGB | None]] = {
    # file name: (size in px, ball radius as a fraction of the size, background)
    "icon-192.png": (192, 0.48, None),
    "icon-512.png": (512, 0.48, None),
    "icon-maskable-512.png": (512, 0.36, PAPER),  # inside the 0.40 safe-zone circle
    "apple-touch-icon.png": (180, 0.42, PAPER),
    "favicon-32.png": (32, 0.49, None),
}


def main() -> int:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, (size, radius, background) in ICONS.items():
        data = png(size, render(size, ball_layers(0.5, 0.5, radius), background))
        (OUT_DIR / name).write_bytes(data)
        print(f"{OUT_DIR / name}: {size}x{size}, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
