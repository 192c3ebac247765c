"""Pictures the organiser uploads (a lot's photo, a partner's logo), checked and made small
enough for a hall's Wi-Fi with Pillow. Pure: bytes in, bytes out, no database, no Reflex.

What is refused, with a French message and nothing kept:
- an empty file, or one over `MAX_IMAGE_BYTES`;
- anything Pillow does not read as a JPEG, PNG, WebP or GIF from its own bytes (the file's name
  and the type the browser announced are never trusted: a renamed executable is not an image);
- a picture whose header announces more than `MAX_IMAGE_PIXELS` (a decompression bomb: a small
  file that would fill the memory once decoded), checked before any pixel is decoded, and
  Pillow's own bomb check kept as a second guard;
- a file that cannot be decoded to the end (truncated, damaged).

What is kept: the picture turned upright (its EXIF orientation), without its metadata (a
phone's photo carries the place it was taken), fitted within `PHOTO_BOX` or `LOGO_BOX`, as WebP.
"""

from __future__ import annotations

import hashlib
import io
import logging
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from loto_app.limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS
from loto_app.refusal import Refusal

log = logging.getLogger(__name__)

#: The formats read, by Pillow's names (the only decoders tried on an upload).
FORMATS = ("JPEG", "PNG", "WEBP", "GIF")
#: The largest picture kept, in pixels: a lot's photo fills half a TV; a logo is small.
PHOTO_BOX = (1280, 1280)
LOGO_BOX = (640, 320)
MIME = "image/webp"
EXTENSION = "webp"


class ImageRefused(Refusal, ValueError):
    """An upload that is not kept: `str()` for the log, `user_message` for the organiser."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A checked picture, ready to store and serve."""

    data: bytes
    width: int
    height: int
    digest: str  # SHA-256 of `data`, hex: the picture's address (`/media/<digest>.webp`)

    @property
    def mime(self) -> str:
        """Its content type."""
        return MIME


def media_path(digest: str) -> str:
    """Where a picture is served (on the backend's origin: loto_app/media_http.py)."""
    return f"/media/{digest}.webp"


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f}".replace(".", ",").removesuffix(",0") + " Mo"


def check_size(size: int | None) -> None:
    """Refuse an empty or oversized upload by its size alone (before reading it)."""
    if size is None:
        return
    if size <= 0:
        raise ImageRefused("empty upload", "Le fichier est vide : choisissez une photo.")
    if size > MAX_IMAGE_BYTES:
        raise ImageRefused(
            f"upload of {size} bytes over {MAX_IMAGE_BYTES}",
            f"Fichier trop lourd ({_mb(size)}) : {_mb(MAX_IMAGE_BYTES)} au plus. "
            "Envoyez une photo plus légère.",
        )


def process(data: bytes, *, logo: bool = False) -> Picture:
    """Check an uploaded file and make the picture the app keeps.

    Args:
        data: the file as uploaded (at most `MAX_IMAGE_BYTES`; more is refused).
        logo: a partner's logo (kept smaller, transparency kept) rather than a lot's photo.

    Returns:
        The picture as WebP, upright, without metadata, fitted in its box.

    Raises:
        ImageRefused: not an image, too large (bytes or pixels), or damaged.
    """
    check_size(len(data))
    try:
        with warnings.catch_warnings():
            # Pillow warns past its own limit and refuses past twice that: both are refusals
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data), formats=FORMATS)
            width, height = img.size
            if width <= 0 or height <= 0 or width * height > MAX_IMAGE_PIXELS:
                raise ImageRefused(
                    f"{img.format} of {width}x{height} pixels over {MAX_IMAGE_PIXELS}",
                    "Image trop grande en pixels (plus de 40 millions) : réduisez-la avant "
                    "de l'envoyer.",
                )
            img.load()
    except ImageRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageRefused(
            f"decompression bomb: {exc}",
            "Image trop grande en pixels (plus de 40 millions) : réduisez-la avant de l'envoyer.",
        ) from exc
    except UnidentifiedImageError as exc:
        raise ImageRefused(
            f"not an image Pillow reads as {'/'.join(FORMATS)}: {exc}",
            "Ce fichier n'est pas une image : envoyez une photo JPEG, PNG, WebP ou GIF.",
        ) from exc
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageRefused(
            f"image could not be decoded: {exc!r}",
            "L'image est abîmée ou incomplète : envoyez-la de nouveau.",
        ) from exc
    try:
        img = ImageOps.exif_transpose(img)
        keep_alpha = logo and (img.mode in ("RGBA", "LA") or "transparency" in img.info)
        img = img.convert("RGBA" if keep_alpha else "RGB")
        img.thumbnail(LOGO_BOX if logo else PHOTO_BOX, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        img.save(out, format="WEBP", quality=82, method=4)  # (no EXIF, no ICC: nothing kept)
    except (OSError, ValueError) as exc:
        log.exception("an image read by Pillow could not be converted")
        raise ImageRefused(
            f"conversion failed: {exc!r}", "Cette image n'a pas pu être convertie."
        ) from exc
    webp = out.getvalue()
    return Picture(webp, img.width, img.height, hashlib.sha256(webp).hexdigest())
