"""`components.ui.big_button`: one large button for a thumb, whatever it holds."""

from __future__ import annotations

import reflex as rx

from loto_app.components.ui import big_button


def style(button: rx.Component) -> dict[str, str]:
    return {k: str(v).strip('"') for k, v in button.style.items()}


def test_a_big_button_is_a_thumbs_height_with_a_large_bold_text() -> None:
    b = big_button("Se connecter", "login", type="submit")
    assert style(b) == {"minHeight": "3.5rem", "fontSize": "1.35rem", "fontWeight": "700"}
    assert b.custom_attrs == {"data-testid": "login"}
    assert [str(c) for c in b.children] == ['"Se connecter"']


def test_props_override_the_defaults_and_none_leaves_the_font_to_the_theme() -> None:
    b = big_button("Fermer", "close", size="3", font_size=None, font_weight=None, width="100%")
    assert style(b) == {"minHeight": "3.5rem", "width": "100%"}
    assert '"3"' in str(b) and "fontSize" not in str(b)


def test_a_tuple_is_the_buttons_children_and_attributes_add_to_its_test_id() -> None:
    b = big_button(
        (rx.icon("scan-qr-code", size=26), "Scanner"), "scan", custom_attrs={"data-scan": "x"}
    )
    assert len(b.children) == 2 and "LucideScanQrCode" in str(b)
    assert b.custom_attrs == {"data-testid": "scan", "data-scan": "x"}
