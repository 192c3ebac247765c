"""Sound that a browser may block: the large "Activer le son" button and the chime.

Browsers play no sound (speech, a chime) on a page nobody has touched yet: a hall screen that
reloads with its voice on would stay silent. assets/sound.js sees it (the voice or the chime is
on, and the page has had no user activation, or the speech was refused, or the audio is
suspended) and marks `<html data-loto-sound="blocked">`; assets/sound.css then shows this
button over the page, and a tap on it (any tap on the page, in fact) unlocks the sound. The
script never writes into what React renders (a write before hydration is a mismatch).

`chime_toggle` is a preference of the browser, like the hall screen's voice: a short two-note
chime before each number (assets/sound.js `LotoSound.beforeNumber`, called by assets/loto.js
before it speaks).

Put on a page with `sound_assets()` (the script) and `unlock_button()`; the stylesheet is
the app's (loto_app.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.ui import tid

SCRIPT = "/sound.js"
STYLESHEET = "/sound.css"


def sound_assets() -> rx.Component:
    """The script that watches whether the sound is blocked and plays the chime."""
    return rx.script(src=SCRIPT)


def unlock_button(font_size: Any = "2rem", **props: Any) -> rx.Component:
    """ "Activer le son": shown only while the browser blocks the sound the page wants."""
    return rx.el.button(
        rx.el.span(
            rx.icon("volume-x", size=48, custom_attrs={"aria-hidden": "true"}),
            rx.el.span("Activer le son"),
            class_name="loto-sound-title",
        ),
        rx.el.span(
            "Touchez ici : le navigateur bloque le son tant que personne n'a touché l'écran.",
            class_name="loto-sound-why",
        ),
        type="button",
        class_name="loto-sound-unlock",
        font_size=font_size,
        custom_attrs=tid("sound-unlock"),
        **props,
    )


def chime_toggle(**props: Any) -> rx.Component:
    """The chime's preference: both labels are in the button, the script flips
    `aria-pressed` (assets/sound.css shows the label of its state)."""
    return rx.button(
        rx.el.span("Carillon\u00a0: coupé", class_name="loto-when-off"),
        rx.el.span("Carillon\u00a0: activé", class_name="loto-when-on"),
        custom_attrs=tid("chime-toggle", **{"aria-pressed": "false"}),
        **props,
    )
