"""Form widgets of the staff pages (the organiser's forms, the desk's panels): a titled section,
a labelled field, a large checkbox, a radio choice of cards, an error callout. Large text, one
label for every control, test ids on each."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.palette import CHECK_LINE, FIELD_LINE, INK, MUTED, NOTICE_BG, SECTION_LINE
from loto_app.components.ui import big_button, tid

LABEL = {"font_weight": "700", "font_size": "1.1rem"}
FIELD = {"size": "3", "font_size": "1.15rem"}
NATIVE_SELECT = {
    "font_size": "1.1rem",
    "padding": "0.45rem 0.6rem",
    "min_height": "2.75rem",
    "min_width": "9rem",
    "border": f"1px solid {FIELD_LINE}",
    "border_radius": "0.4rem",
    "background": "white",
    "color": INK,
}


def section(title: str, *children: rx.Component, testid: str, **props: Any) -> rx.Component:
    """A titled part of a page (an `h2` heading), on a white card."""
    return rx.el.section(
        rx.vstack(
            rx.heading(title, as_="h2", size="6"),
            *children,
            spacing="3",
            width="100%",
            align="stretch",
        ),
        padding=["0.9rem", "1.25rem"],
        border=f"1px solid {SECTION_LINE}",
        border_radius="0.75rem",
        background="white",
        width="100%",
        custom_attrs=tid(testid),
        **props,
    )


def field(label: str, control: rx.Component, html_for: str, hint: str = "") -> rx.Component:
    """A control with its label above (and a hint below)."""
    return rx.vstack(
        rx.el.label(label, html_for=html_for, **LABEL),
        control,
        rx.cond(hint != "", rx.text(hint, color=MUTED, font_size="0.95rem")),
        spacing="1",
        width="100%",
        align="stretch",
    )


def labelled(label: str, control: rx.Component, html_for: str, **props: Any) -> rx.Component:
    """A control with its bold label above, at the text's size, the pair as wide as the control
    (a field of a row of fields); props go to the pair's stack."""
    return rx.vstack(
        rx.el.label(label, html_for=html_for, font_weight="700"), control, spacing="1", **props
    )


def submit_button(label: Any, testid: str, **props: Any) -> rx.Component:
    """A form's main button: `ui.big_button` at a form's size (Radix size 3, the theme's
    height); props override the defaults."""
    return big_button(
        label, testid, **{"size": "3", "font_size": "1.2rem", "min_height": None, **props}
    )


def button_row(*buttons: rx.Component, gap: str = "0.6rem", **props: Any) -> rx.Component:
    """Buttons side by side, wrapping on a phone (a question's answers, under it)."""
    return rx.flex(*buttons, gap=gap, wrap="wrap", **{"margin_top": "0.5rem", **props})


def notice(*children: rx.Component, **props: Any) -> rx.Component:
    """A yellow framed box for what asks the person's attention: a question before an
    irreversible tap, a secret shown once."""
    style = {
        "padding": "0.8rem",
        "background": NOTICE_BG,
        "border": f"2px solid {CHECK_LINE}",
        "border_radius": "0.5rem",
    }
    return rx.box(*children, **{**style, **props})


def _beside(
    label: str, value: rx.Component, width: str, size: str, gap: str, **props: Any
) -> rx.Component:
    """A value (a link, a code) beside its bold label, below it on a narrow screen."""
    text = rx.text(label, font_weight="700", font_size=size, min_width=width)
    return rx.flex(text, value, gap=gap, wrap="wrap", **props)


def link_line(label: str, url: Any, testid: str) -> rx.Component:
    """An address to give out, beside its label (opens in a new tab)."""
    link = rx.link(
        url,
        href=url,
        is_external=True,
        word_break="break-all",
        font_size="1.1rem",
        custom_attrs=tid(testid),
    )
    return _beside(label, link, "13rem", "1.1rem", "0.2rem 1rem")


def check(label: str, checked: Any, on_change: Any, testid: str) -> rx.Component:
    """A large checkbox with its label (the whole line is clickable)."""
    return rx.el.label(
        rx.checkbox(
            checked=checked,
            on_change=on_change,
            size="3",
            # a Radix checkbox is a <button>: the wrapping <label> does not name it
            custom_attrs=tid(testid, **{"aria-label": label}),
        ),
        rx.text(label, as_="span", font_size="1.1rem"),
        display="flex",
        gap="0.6rem",
        align_items="center",
        cursor="pointer",
        min_height="2.5rem",
    )


def radio_cards(
    name: str, value: Any, options: list[tuple[str, str, str]], on_change: Any
) -> rx.Component:
    """One of a few choices, each a card with a title and a line of detail (test ids
    `<name>-<value>`)."""
    return rx.radio_group.root(
        rx.flex(
            *[
                rx.el.label(
                    rx.radio_group.item(value=v, custom_attrs=tid(f"{name}-{v}")),
                    rx.vstack(
                        rx.text(title, font_weight="700", font_size="1.1rem"),
                        rx.text(detail, color=MUTED, font_size="0.95rem"),
                        spacing="0",
                    ),
                    display="flex",
                    gap="0.6rem",
                    align_items="start",
                    padding="0.6rem 0.8rem",
                    border=f"1px solid {SECTION_LINE}",
                    border_radius="0.5rem",
                    cursor="pointer",
                    flex="1 1 14rem",
                )
                for v, title, detail in options
            ],
            gap="0.6rem",
            wrap="wrap",
            width="100%",
        ),
        value=value,
        on_change=on_change,
        size="3",
    )


def error(text: Any, testid: str) -> rx.Component:
    """A red callout, announced (`role=alert`), shown when `text` is not empty."""
    return rx.cond(
        text != "",
        rx.callout(
            text,
            icon="triangle_alert",
            color_scheme="red",
            size="3",
            custom_attrs=tid(testid, role="alert"),
        ),
    )


def label_around(text: Any, control: rx.Component, **props: Any) -> rx.Component:
    """A control inside its label, the bold text above it (no id ties them: a form would send a
    field with an id twice); props override the label's look."""
    style = {"display": "flex", "flex_direction": "column", "gap": "0.2rem", "font_weight": "700"}
    return rx.el.label(text, control, **{**style, **props})


#: A claimed line's numbers typed: large, on a keypad with a separator.
LINE_FIELD = {
    "input_mode": "decimal",
    "auto_complete": "off",
    "size": "3",
    "font_size": "1.4rem",
    "width": "100%",
}


def line_input(i: int, testid: str, placeholder: str, **attrs: Any) -> rx.Component:
    """The numbers of a claimed line, typed (sent as `line<i>`); attrs add to its test id."""
    return rx.input(
        name=f"line{i}", placeholder=placeholder, custom_attrs=tid(testid, **attrs), **LINE_FIELD
    )


def player_name_input(testid: str, **props: Any) -> rx.Component:
    """A player's name, optional (sent as `name`), as wide as the form; props override its
    look, more attributes in `custom_attrs`."""
    style = {"max_length": 30, "auto_complete": "off", "size": "3", "width": "100%"}
    attrs = {**tid(testid), **props.pop("custom_attrs", {})}
    return rx.input(name="name", custom_attrs=attrs, **{**style, **props})


def series_select(series: Any, testid: str, **props: Any) -> rx.Component:
    """A choice among the association's own séries (`series`: their names), sent as `series`;
    props: its look, its id, more attributes in `custom_attrs`."""
    attrs = {**tid(testid), **props.pop("custom_attrs", {})}
    return rx.el.select(
        rx.foreach(series, lambda s: rx.el.option(s, value=s)),
        name="series",
        custom_attrs=attrs,
        **props,
    )


def outcome(
    text: Any, ok: Any, testid: str, size: str = "3", role: Any = "status", **props: Any
) -> rx.Component:
    """The answer to a form, shown when `text` is not empty: green when done (`ok`), red when
    refused."""
    return rx.cond(
        text != "",
        rx.callout(
            text,
            color_scheme=rx.cond(ok, "green", "red"),
            size=size,
            custom_attrs=tid(testid, role=role),
            **props,
        ),
    )


def secret_line(label: str, value: Any, testid: str, size: str = "7") -> rx.Component:
    """A secret (or a code) to write down, large, beside its label."""
    code = rx.code(
        value, size=size, variant="outline", word_break="break-all", custom_attrs=tid(testid)
    )
    return _beside(label, code, "16rem", "1.15rem", "0.3rem 1rem", align="center")
