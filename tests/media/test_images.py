"""The organiser's pictures: what Pillow keeps (upright, small, WebP, no metadata) and what it
refuses with a French message (not an image, a renamed executable, too heavy, a decompression
bomb, a damaged file), whatever the file's name."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from loto_app.images import LOGO_BOX, PHOTO_BOX, ImageRefused, check_size, process
from loto_app.limits import MAX_IMAGE_BYTES


def jpeg(size: tuple[int, int], *, orientation: int = 1, gps: bool = False) -> bytes:
    img = Image.new("RGB", size, (200, 30, 30))
    img.paste((20, 20, 200), (0, 0, size[0] // 2, size[1] // 4))  # a mark to see which way up
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"
    if gps:
        exif[0x8825] = {1: "N", 2: (43.0, 40.0, 0.0)}
    out = io.BytesIO()
    img.save(out, format="JPEG", exif=exif.tobytes(), quality=90)
    return out.getvalue()


def png(size: tuple[int, int], mode: str = "RGBA") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (0, 128, 0, 0) if mode == "RGBA" else 0).save(out, format="PNG")
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header announces width x height pixels (a decompression bomb's
    header: the file is a few hundred bytes, the picture would be gigabytes)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 4096, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def opened(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_a_phone_photo_is_turned_upright_shrunk_and_stripped_of_its_metadata() -> None:
    # a 4000 x 3000 photo taken with the phone turned (EXIF orientation 6: rotate 90°), with GPS
    pic = process(jpeg((4000, 3000), orientation=6, gps=True))
    img = opened(pic.data)
    assert img.format == "WEBP" and pic.mime == "image/webp"
    assert (img.width, img.height) == (pic.width, pic.height)
    assert img.height > img.width  # upright: portrait, as the phone held it
    assert max(img.size) <= max(PHOTO_BOX)
    assert not img.getexif() and "exif" not in img.info  # no place, no phone model
    assert len(pic.digest) == 64 and process(jpeg((4000, 3000), orientation=6)).digest


def test_a_logo_keeps_its_transparency_and_a_small_size() -> None:
    pic = process(png((2000, 1000)), logo=True)
    img = opened(pic.data)
    assert img.mode == "RGBA" and img.getpixel((5, 5))[3] == 0
    assert img.width <= LOGO_BOX[0] and img.height <= LOGO_BOX[1]
    small = process(png((50, 20), mode="L"))
    assert opened(small.data).size == (50, 20)  # never enlarged


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"", "vide"),
        (b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 2000, "pas une image"),  # a Windows .exe
        (b"\x7fELF\x02\x01\x01" + b"\x00" * 2000, "pas une image"),  # a Linux executable
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "pas une"),
        (b"%PDF-1.7\n" + b"x" * 500, "pas une image"),
        (b"GIF89a" + b"\x00" * 3, "pas une image"),  # a GIF header and nothing after
        (png_claiming(30_000, 30_000), "trop grande en pixels"),  # 900 million pixels
        (png_claiming(100_000, 1), "abîmée"),  # few pixels, but its data is not there
    ],
)
def test_what_is_not_a_sound_picture_is_refused_in_french(data: bytes, said: str) -> None:
    with pytest.raises(ImageRefused) as refused:
        process(data)
    assert said in refused.value.user_message
    assert str(refused.value)  # the log's precise reason


def test_a_truncated_photo_and_an_oversized_file_are_refused() -> None:
    whole = jpeg((800, 600))
    with pytest.raises(ImageRefused) as refused:
        process(whole[: len(whole) // 2])
    assert "abîmée" in refused.value.user_message
    with pytest.raises(ImageRefused) as heavy:
        check_size(MAX_IMAGE_BYTES + 1)
    assert "trop lourd" in heavy.value.user_message and "8 Mo au plus" in heavy.value.user_message
    with pytest.raises(ImageRefused):
        process(whole + b"\x00" * (MAX_IMAGE_BYTES + 1 - len(whole)))
    check_size(MAX_IMAGE_BYTES)  # exactly the limit is fine


@settings(max_examples=150)
@given(st.binary(max_size=4096) | st.builds(lambda b: png((3, 2))[:20] + b, st.binary(max_size=64)))
def test_any_bytes_are_either_a_picture_or_a_french_refusal(data: bytes) -> None:
    refusal = ""
    try:
        pic = process(data)
    except ImageRefused as refused:
        refusal = refused.user_message
    if refusal:
        assert "image" in refusal or "fichier" in refusal.lower()
    else:
        assert opened(pic.data).format == "WEBP"
