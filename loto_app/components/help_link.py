"""The small "Aide" link of the staff pages (/organisation, /caisse, /animateur) to the
volunteers' guide (`/aide`, pages/aide.py), opened at the page's own section.

It opens a new tab: the tablet or the desk keeps its page (and its place in the evening) while
the volunteer reads.
"""

from __future__ import annotations

import reflex as rx

from loto_app.components.ui import tid

#: The guide's section for each staff page (the anchors of docs/GUIDE.md).
SECTIONS = {"organisation": "avant", "caisse": "caisse", "animateur": "parties"}


def help_link(page: str) -> rx.Component:
    """ "Aide : le guide du bénévole", right-aligned, to the guide's section for `page`."""
    return rx.box(
        rx.el.a(
            "Aide\u00a0: le guide du bénévole",
            rx.el.span(" (s'ouvre dans un nouvel onglet)", class_name="loto-sr-only"),
            href=f"/aide#{SECTIONS[page]}",
            target="_blank",
            rel="noopener",
            font_size="1.05rem",
            font_weight="700",
            text_decoration="underline",
            custom_attrs=tid("help-link"),
        ),
        text_align="right",
        width="100%",
        # (the screen reader's words are positioned absolutely: inside a pane that scrolls,
        # with no positioned box around them they would lengthen the page itself)
        position="relative",
    )


__all__ = ["SECTIONS", "help_link"]
