"""`/caisse`: selling paper cartons printed in advance (`PrintedSale`), by their numbers and
check codes typed, or scanned with a USB QR scanner (one carton a line)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.desk_form import buyer_name, method_choice, offer_select
from loto_app.components.form import outcome, section
from loto_app.components.palette import FIELD_LINE, MUTED
from loto_app.components.ui import big_button, tid
from loto_app.live.states.caisse_printed import PrintedSale


def printed_sale() -> rx.Component:
    """The form: the buyer's name (optional), the tariff, the payment, the cartons."""
    return section(
        "Cartons papier déjà imprimés",
        rx.text(
            "Un carton par ligne : son numéro puis son code (ex. « 12 7KQ2MB »), ou scannez "
            "son QR code.",
            color=MUTED,
        ),
        rx.form(
            rx.vstack(
                rx.el.label("Cartons vendus", font_weight="700", html_for="printed-cartons"),
                rx.text_area(
                    id="printed-cartons",
                    name="cartons",
                    rows="4",
                    width="100%",
                    font_size="1.3rem",
                    spell_check=False,
                    border=f"2px solid {FIELD_LINE}",
                    custom_attrs=tid("printed-cartons", autocapitalize="characters"),
                ),
                buyer_name("printed-name", "printed-name"),
                offer_select("printed-offer"),
                method_choice("printed"),
                big_button("Encaisser ces cartons", "printed-submit", type="submit", width="100%"),
                spacing="3",
                width="100%",
            ),
            on_submit=PrintedSale.sell_printed,
            reset_on_submit=True,
        ),
        outcome(
            PrintedSale.printed_message,
            PrintedSale.printed_ok,
            "printed-message",
            high_contrast=True,
        ),
        testid="sell-printed",
    )
