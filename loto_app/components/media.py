"""The evening's pictures on a page: a lot's photo, the partners' logos. A picture's address is
a path the backend serves (`/media/<digest>.webp`, loto_app/media_http.py); on the page it is
made absolute on the backend's origin, as Reflex does for its uploads (the frontend and the
backend share one origin in production, not in the browser tests: `media_url`)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import LINE
from loto_app.components.ui import tid
from loto_app.live import compat


def media_url(path: rx.Var[str] | str) -> rx.Var[str]:
    """The absolute address of a picture's path, or of another path the backend serves ("" stays
    ""; `compat.backend_url`: Reflex offers no documented var for it)."""
    return compat.backend_url(path)


def picture(src: rx.Var[str] | str, alt: Any, **props: Any) -> rx.Component:
    """A stored picture, kept whole in its box (`object-fit: contain`)."""
    attrs = {"loading": "lazy", **props.pop("custom_attrs", {})}
    return rx.image(
        src=media_url(src),
        alt=alt,
        object_fit="contain",
        custom_attrs=attrs,
        **props,
    )


def partners_strip(
    partners: rx.Var[list[dict[str, str]]],
    height: Any,
    *,
    label: Any = "Nos partenaires",
    label_size: Any = "1rem",
    color: str = "white",
    nowrap: bool = False,
    testid: str = "partners",
) -> rx.Component:
    """The partners' logos in a row, each on a white card (a logo is drawn for a white page),
    their names for screen readers; nothing when there are none. `nowrap`: one row whose logos
    shrink to the room there is (a footer) rather than wrap to a second row."""
    return rx.cond(
        partners.length() > 0,
        rx.flex(
            rx.cond(
                label != "",
                rx.text(
                    label,
                    font_size=label_size,
                    font_weight="700",
                    color=color,
                    flex_shrink="0",
                ),
            ),
            rx.foreach(
                partners,
                lambda p: rx.box(
                    picture(p["src"], p["name"], height="100%", width="100%"),
                    background="white",
                    border_radius="0.4rem",
                    padding="0.2rem 0.5rem",
                    height=height,
                    aspect_ratio="3",
                    min_width="0",
                    flex_shrink="1",
                    display="flex",
                    align_items="center",
                    custom_attrs=tid("partner", title=p["name"]),
                ),
            ),
            align="center",
            gap="0.8rem",
            wrap="nowrap" if nowrap else "wrap",
            justify="center",
            min_width="0",
            custom_attrs=tid(testid),
        ),
    )


def lot_thumbnail(size: str = "4rem") -> rx.Component:
    """The lot in play's photo, small (a phone's header), when it has one."""
    from loto_app.live.states.hall import HallView

    return rx.cond(
        HallView.lot_photo != "",
        rx.box(
            picture(HallView.lot_photo, HallView.lot_label, width="100%", height="100%"),
            width=size,
            height=size,
            flex_shrink="0",
            margin_left="auto",
            border_radius="0.4rem",
            border=f"1px solid {LINE}",
            background="white",
            custom_attrs=tid("lot-photo"),
        ),
    )
