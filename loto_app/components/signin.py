"""The staff sign-in form, one for every staff page (the animateur's tablet, the desk, the
organiser): the evening's code and a secret, sent to the page state's `login`
(`StaffSession`, live/states/session.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import error
from loto_app.components.ui import big_button, tid


def sign_in_form(
    title: str,
    prefix: str,
    secret_label: str,
    on_submit: Any,
    intro: str = "",
    *,
    submit_id: str = "",
    message: Any = None,
) -> rx.Component:
    """A staff sign-in: the evening's code and a secret (test ids `<prefix>-code`,
    `<prefix>-secret`, and `submit_id` or `<prefix>-login` for the button). `title` "" leaves
    the heading to the section around it; `message`, a var, is shown under the button."""
    field = {"size": "3", "font_size": "1.3rem"}
    return rx.form(
        rx.vstack(
            *([rx.heading(title, size="6")] if title else []),
            *([rx.text(intro)] if intro else []),
            rx.el.label("Code de la soirée", html_for=f"{prefix}-code", font_weight="700"),
            rx.input(id=f"{prefix}-code", name="code", custom_attrs=tid(f"{prefix}-code"), **field),
            rx.el.label(secret_label, html_for=f"{prefix}-secret", font_weight="700"),
            rx.input(
                id=f"{prefix}-secret",
                name="secret",
                type="password",
                custom_attrs=tid(f"{prefix}-secret"),
                **field,
            ),
            big_button("Se connecter", submit_id or f"{prefix}-login", type="submit", width="100%"),
            *([error(message, f"{prefix}-error")] if message is not None else []),
            spacing="3",
            width="100%",
        ),
        on_submit=on_submit,
        reset_on_submit=False,
        width="100%",
    )
