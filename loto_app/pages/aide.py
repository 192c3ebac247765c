"""`/aide`: the volunteers' guide, in French, for anyone (no sign-in, no state).

The words are docs/GUIDE.md (read by `guide_text`, once, when the app is built): a summary of
big links, then each section under its anchor (`/aide#caisse`, the staff pages' help links).
A picture the guide names is shown when its file is in assets/guide/ (`make guide-pictures`
puts the browser test's screenshots there; git ignores them), else left out: the text says
everything without it.
"""

from __future__ import annotations

import struct

import reflex as rx

from loto_app.components.palette import INFO_BG, INFO_LINE, MUTED
from loto_app.components.ui import page_shell, tid
from loto_app.pages.guide_text import PICTURES, Block, Section, load, runs

TITLE = "Loto — guide du bénévole"
TEXT = {"font_size": ["1.15rem", "1.25rem"], "line_height": "1.6"}


def _inline(line: str) -> list[rx.Component | str]:
    return [rx.text.strong(t) if bold else t for t, bold in runs(line)]


def _size(path) -> tuple[int, int] | None:
    """A PNG's width and height, from its header (None: not a PNG)."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def _picture(caption: str, name: str) -> rx.Component | None:
    path = PICTURES / name
    size = _size(path) if path.is_file() else None
    if size is None:
        return None
    # `?v=` follows the file: a picture taken again is not served from a cache (and a bare
    # "/guide/x.png" in the page's script would be precached on every phone by assets/sw.js)
    src = f"/guide/{name}?v={int(path.stat().st_mtime)}"
    return rx.el.figure(
        rx.image(
            src=src,
            alt=caption,
            loading="lazy",
            max_width="100%",
            height="auto",
            border=f"1px solid {INFO_LINE}",
            border_radius="0.5rem",
            # its size reserves its place before it loads (lazily, as the reader scrolls)
            custom_attrs={"width": str(size[0]), "height": str(size[1])},
        ),
        rx.el.figcaption(caption, color=MUTED, font_size="1rem", margin_top="0.3rem"),
        margin="0",
        custom_attrs=tid(f"picture-{name.removesuffix('.png')}"),
    )


def _block(b: Block) -> rx.Component | None:
    if b.kind == "picture":
        return _picture(*b.lines)
    if b.kind == "h3":
        return rx.heading(b.lines[0], as_="h3", size="5", margin_top="0.5rem")
    if b.kind in ("ul", "ol"):
        tag = rx.el.ul if b.kind == "ul" else rx.el.ol
        return tag(
            *(rx.el.li(*_inline(i), margin_bottom="0.4rem") for i in b.lines),
            padding_left="1.6rem",
            margin="0",
            # (the theme's reset hides the numbers of the steps)
            list_style_type="decimal" if b.kind == "ol" else "disc",
            **TEXT,
        )
    if b.kind == "note":
        return rx.box(
            rx.text(*_inline(b.lines[0]), **TEXT),
            background=INFO_BG,
            border_left=f"0.5rem solid {INFO_LINE}",
            padding="0.75rem 1rem",
            border_radius="0.5rem",
            custom_attrs=tid("guide-note"),
        )
    return rx.text(*_inline(b.lines[0]), **TEXT)


def _blocks(blocks: tuple[Block, ...]) -> list[rx.Component]:
    return [c for c in (_block(b) for b in blocks) if c is not None]


def _summary(sections: tuple[Section, ...]) -> rx.Component:
    return rx.el.nav(
        rx.heading("Sommaire", as_="h2", size="6"),
        rx.el.ol(
            *(
                rx.el.li(
                    rx.el.a(s.title, href=f"#{s.anchor}", custom_attrs=tid(f"toc-{s.anchor}")),
                    margin_bottom="0.5rem",
                )
                for s in sections
            ),
            padding_left="1.6rem",
            font_size=["1.25rem", "1.35rem"],
            font_weight="700",
        ),
        custom_attrs={"aria-label": "Sommaire du guide"},
    )


def _section(s: Section) -> rx.Component:
    return rx.el.section(
        rx.vstack(
            rx.heading(s.title, as_="h2", size="7"),
            *_blocks(s.blocks),
            rx.el.a("↑ Revenir au sommaire", href="#sommaire", font_size="1.1rem"),
            spacing="3",
            align="stretch",
        ),
        id=s.anchor,
        padding_top="1rem",
        border_top=f"2px solid {INFO_LINE}",
        custom_attrs=tid(f"section-{s.anchor}"),
    )


def index() -> rx.Component:
    """The guide's page."""
    guide = load()
    return page_shell(
        rx.heading(guide.title, as_="h1", size="8", id="sommaire", custom_attrs=tid("title")),
        *_blocks(guide.intro),
        _summary(guide.sections),
        *(_section(s) for s in guide.sections),
        max_width="48rem",
        padding=["0.75rem", "1.25rem"],
    )


__all__ = ["TITLE", "index"]
