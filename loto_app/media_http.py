"""The HTTP side of the evening's pictures, as one ASGI wrapper of the backend
(`rx.App(api_transformer=...)`):

- `GET /media/<digest>.webp`: a picture by its digest (storage/pictures.py), with a year's cache
  (the address is the content's hash: it never changes), `nosniff`, and a content type that is
  always an image (the app made the file itself, with Pillow);
- `POST /media/upload` (the organiser's pictures, loto_app/media_upload.py) and `POST /_upload`
  (Reflex's upload endpoint, which the app no longer uses): refused with 413 before
  its body is read when it announces more than a picture's limit and a margin for the form, and
  with 411 when it announces no length (a browser's upload always does). A refused body never
  reaches the disk; the handler checks each file again (loto_app/images.py).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from loto_app import media_upload, uploads
from loto_app.limits import MAX_IMAGE_BYTES

log = logging.getLogger(__name__)

#: The form around a picture (its field names, the handler's arguments): well under this.
FORM_MARGIN = 256 * 1024
MAX_UPLOAD_BODY = MAX_IMAGE_BYTES + FORM_MARGIN
_PATH = re.compile(r"^/media/([0-9a-f]{64})\.webp$")


async def _reply(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-length", str(len(body)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _serve_picture(digest: str, method: str, send: Any) -> None:
    from loto_app.live.runtime import registry
    from loto_app.storage import pictures

    try:
        found = await asyncio.to_thread(pictures.read, registry.store().engine, digest)
    except Exception:
        log.exception("picture %s could not be read", digest[:12])
        found = None
    if found is None:
        await _reply(send, 404, b"", [(b"cache-control", b"no-store")])
        return
    data, mime = found
    headers = [
        (b"content-type", mime.encode("latin-1")),
        (b"cache-control", b"public, max-age=31536000, immutable"),
        (b"x-content-type-options", b"nosniff"),
        (b"access-control-allow-origin", b"*"),
    ]
    if method == "HEAD":
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", str(len(data)).encode()), *headers],
            }
        )
        await send({"type": "http.response.body", "body": b""})
        return
    await _reply(send, 200, data, headers)


async def _upload(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """`POST /media/upload` (loto_app/media_upload.py), answered in JSON."""
    from starlette.requests import Request

    from loto_app.live.runtime.signin_limit import counted_address_of

    request = Request(scope, receive)
    peer = request.client.host if request.client else ""
    address = counted_address_of(request.headers, peer)  # (lower-case names)
    json_type = [(b"content-type", b"application/json; charset=utf-8")]
    try:
        async with request.form(max_files=2, max_fields=8, max_part_size=64 * 1024) as form:
            answer = await media_upload.upload(form, address)
    except Exception:  # a malformed body (the parser's errors), or a failure of ours
        log.exception("upload from %s failed", address or "this machine")
        answer = media_upload.Answer(400, False, uploads.BROKEN)
    await _reply(send, answer.status, answer.body(), [*json_type, (b"cache-control", b"no-store")])


def wrap(app: Any) -> Any:
    """The backend with the pictures' route and the upload's size limit."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            path, method = scope.get("path", ""), scope.get("method", "GET")
            if method in ("GET", "HEAD") and (found := _PATH.match(path)):
                await _serve_picture(found.group(1), method, send)
                return
            if method == "POST" and (path.endswith("/_upload") or path == uploads.PATH):
                length = next(
                    (v for k, v in scope.get("headers") or () if k == b"content-length"), None
                )
                if length is None or not length.isdigit():
                    log.warning("upload without a length refused (411)")
                    await _reply(send, 411, b"Length Required", [])
                    return
                if int(length) > MAX_UPLOAD_BODY:
                    log.warning("upload of %s bytes refused (413)", length.decode())
                    await _reply(send, 413, b"Payload Too Large", [])
                    return
                if path == uploads.PATH:
                    await _upload(scope, receive, send)
                    return
        await app(scope, receive, send)

    return wrapped
