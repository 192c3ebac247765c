"""The hall screen's answer to the sound test of the check before the doors open: a hidden form
assets/sound.js fills and submits once the TV has played (or could not play) the chime and the
test sentence (`RollCall.sound_played`, live/states/verification.py)."""

from __future__ import annotations

import reflex as rx

from loto_app.live.states.verification import RollCall


def sound_check_form() -> rx.Component:
    """Put once on the hall screen's page."""
    return rx.form(
        *(rx.el.input(type="hidden", name=n) for n in ("nonce", "result", "voice")),
        on_submit=RollCall.sound_played,
        reset_on_submit=False,
        display="none",
        custom_attrs={"data-testid": "sound-check-form", "aria-hidden": "true"},
    )
