"""Pictures the browser tests upload or seed: a lot's photo, partners' logos (drawn with
Pillow, as a phone's photo or a sponsor's logo would be)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from loto_app.records._pdf import find_font

BOLD = find_font("DejaVuSans-Bold.ttf")


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(str(BOLD), size) if BOLD else ImageFont.load_default(size=size)


def photo(label: str, colour: tuple[int, int, int], size: tuple[int, int] = (1600, 1200)) -> bytes:
    """A JPEG 'photo' of a lot: a coloured object on a table, its name written on it."""
    img = Image.new("RGB", size, (236, 228, 212))
    draw = ImageDraw.Draw(img)
    w, h = size
    draw.rectangle((0, int(h * 0.7), w, h), fill=(150, 110, 70))  # the table
    draw.ellipse((int(w * 0.2), int(h * 0.15), int(w * 0.8), int(h * 0.8)), fill=colour)
    font = _font(h // 10)
    draw.text((w // 2, int(h * 0.47)), label, fill="white", font=font, anchor="mm")
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=85)
    return out.getvalue()


def logo(name: str, colour: tuple[int, int, int]) -> bytes:
    """A PNG logo with a transparent background: a coloured badge and the partner's name."""
    img = Image.new("RGBA", (1150, 300), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((10, 10, 290, 290), radius=60, fill=colour)
    font = _font(56)
    draw.text((320, 150), name, fill=(30, 30, 30), font=font, anchor="lm")
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
