"""Prefs: this phone's display preferences, kept in the browser (never in the database)."""

from __future__ import annotations

import reflex as rx


class Prefs(rx.State):
    """The large-text mode of the player page, remembered by the phone's localStorage."""

    large_text: str = rx.LocalStorage("", name="loto_large_text")

    @rx.event
    def toggle_large_text(self):
        """The "Grands caractères" button: on, off."""
        self.large_text = "" if self.large_text == "1" else "1"
