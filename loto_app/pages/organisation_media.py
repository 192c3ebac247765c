"""`/organisation`, the pictures task: a photo for each lot, the partners' logos
(`EveningMedia`, live/states/organisation_media.py). Two steps each, in the order a volunteer
does them: choose the lot (or type the partner's name), then choose the picture; it is sent at
once, checked, and shown in the list with a button to take it away."""

from __future__ import annotations

import reflex as rx

from loto_app import uploads
from loto_app.components.form import NATIVE_SELECT, outcome, section
from loto_app.components.media import media_url, picture
from loto_app.components.palette import MUTED, SECTION_LINE
from loto_app.components.ui import tid
from loto_app.limits import MAX_PARTNER_NAME, MAX_PARTNERS
from loto_app.live.states.organisation_media import EveningMedia

M = EveningMedia
#: What the browser's file chooser offers (the server checks the bytes, whatever the name).
ACCEPT = {
    "image/jpeg": [".jpg", ".jpeg"],
    "image/png": [".png"],
    "image/webp": [".webp"],
    "image/gif": [".gif"],
}


#: Where the picture goes (loto_app/media_upload.py), on the backend's origin.
UPLOAD_URL = media_url(uploads.PATH)


def _chooser(upload_id: str, label: str, kind: str, target: rx.Var, disabled) -> rx.Component:
    """A button that opens the file chooser; the chosen picture is sent at once by
    assets/upload.js to `POST /media/upload` with what it is for (`target`), and the answer
    comes back through the hidden form (`_answer_form`)."""
    input_id = f"{upload_id}-input"
    return rx.box(
        rx.button(
            rx.icon("image-up", size=22),
            label,
            size="3",
            font_weight="700",
            type="button",
            disabled=disabled,
            on_click=rx.call_script(f"document.getElementById('{input_id}').click()"),
            custom_attrs=tid(f"{upload_id}-button"),
        ),
        rx.el.input(
            type="file",
            id=input_id,
            accept=",".join([*ACCEPT, *(x for exts in ACCEPT.values() for x in exts)]),
            hidden=True,
            custom_attrs={
                "aria-label": label.removesuffix("…"),
                "data-loto-upload": kind,
                "data-target": target,
                "data-url": UPLOAD_URL,
            },
        ),
        custom_attrs=tid(upload_id),
    )


def _answer_form() -> rx.Component:
    """The hidden form assets/upload.js submits with the server's answer to an upload (or the
    reason a file was not sent)."""
    return rx.form(
        rx.el.input(type="hidden", name="answer"),
        on_submit=M.uploaded,
        reset_on_submit=False,
        display="none",
        custom_attrs={"data-testid": "media-upload-answer", "aria-hidden": "true"},
    )


def _lot_row(lot: rx.Var[dict[str, str]]) -> rx.Component:
    return _row(
        rx.cond(
            lot["photo"] != "",
            _thumbnail(lot["photo"], lot["lot"], "5rem", "5rem"),
            rx.box(
                rx.text("pas de photo", color=MUTED, font_size="0.9rem", text_align="center"),
                width="5rem",
                height="5rem",
                flex_shrink="0",
                display="flex",
                align_items="center",
                justify_content="center",
                border=f"1px dashed {SECTION_LINE}",
                border_radius="0.4rem",
            ),
        ),
        lot["lot"],
        rx.cond(
            lot["photo"] != "",
            rx.button(
                "Retirer la photo",
                on_click=M.remove_lot_photo(lot["lot"]),
                variant="outline",
                size="2",
                custom_attrs=tid("lot-photo-remove"),
            ),
        ),
        tid("lot-row", **{"data-lot": lot["lot"]}),
    )


def _partner_row(p: rx.Var[dict[str, str]]) -> rx.Component:
    return _row(
        _thumbnail(p["src"], p["name"], "9rem", "3.5rem", padding="0.2rem"),
        p["name"],
        rx.button(
            "Retirer",
            on_click=M.remove_partner(p["digest"]),
            variant="outline",
            size="2",
            custom_attrs=tid("partner-remove"),
        ),
        tid("partner-row"),
    )


def _thumbnail(src: rx.Var, name: rx.Var, width: str, height: str, **props) -> rx.Component:
    """The picture at the start of a line of the list, framed."""
    return rx.box(
        picture(src, name, width="100%", height="100%"),
        width=width,
        height=height,
        flex_shrink="0",
        border=f"1px solid {SECTION_LINE}",
        border_radius="0.4rem",
        **props,
    )


def _row(thumbnail: rx.Component, name: rx.Var, remove: rx.Component, attrs: dict) -> rx.Component:
    """A line of the list: the picture, what it shows (a lot, a partner), the button that
    takes it away."""
    return rx.flex(
        thumbnail,
        rx.text(name, font_size="1.15rem", font_weight="700", flex="1"),
        remove,
        align="center",
        gap="0.8rem",
        wrap="wrap",
        padding_y="0.3rem",
        width="100%",
        border_bottom=f"1px solid {SECTION_LINE}",
        custom_attrs=attrs,
    )


def _two_steps(
    first: str, control: rx.Component, second: str, chooser: rx.Component
) -> rx.Component:
    """The two steps side by side: the labelled first control (what the picture is of), then
    the picture's chooser."""
    return rx.flex(
        rx.vstack(
            rx.el.label(first, html_for=control.id, font_weight="700"),
            control,
            spacing="1",
        ),
        rx.vstack(rx.text(second, font_weight="700"), chooser, spacing="1"),
        gap="1rem",
        wrap="wrap",
        align="end",
    )


def media() -> rx.Component:
    """The lots' photos and the partners' logos."""
    return section(
        "Photos des lots et logos des partenaires",
        rx.text(
            "Une photo JPEG, PNG, WebP ou GIF de 8 Mo au plus : l'appli la réduit pour l'écran "
            "de la salle et les téléphones, et enlève ses informations cachées (le lieu de la "
            "photo).",
            color=MUTED,
        ),
        outcome(
            M.media_message,
            M.media_ok,
            "media-message",
            size="2",
            role=rx.cond(M.media_ok, "status", "alert"),
        ),
        rx.heading("Photos des lots", as_="h3", size="5"),
        _two_steps(
            "1. Le lot",
            rx.el.select(
                rx.el.option("Choisissez un lot…", value=""),
                rx.foreach(M.lots, lambda lot: rx.el.option(lot["lot"], value=lot["lot"])),
                id="lot-choice",
                value=M.lot_choice,
                on_change=M.choose_lot,
                custom_attrs=tid("lot-choice"),
                **NATIVE_SELECT,
            ),
            "2. La photo",
            _chooser("lot-photo", "Choisir la photo…", "lot", M.lot_choice, M.lot_choice == ""),
        ),
        rx.vstack(rx.foreach(M.lots, _lot_row), spacing="0", width="100%"),
        rx.heading("Partenaires", as_="h3", size="5", margin_top="0.5rem"),
        rx.text(
            f"Leurs logos passent sur l'écran de la salle (accueil, entracte, fin, et en petit "
            f"pendant les parties) ; {MAX_PARTNERS} au plus.",
            color=MUTED,
        ),
        _two_steps(
            "1. Le nom du partenaire",
            rx.input(
                id="partner-name",
                value=M.partner_name,
                on_change=M.name_partner,
                max_length=MAX_PARTNER_NAME,
                placeholder="ex. Boulangerie Martin",
                size="3",
                width="18rem",
                custom_attrs=tid("partner-name"),
            ),
            "2. Son logo",
            _chooser(
                "partner-logo", "Choisir le logo…", "logo", M.partner_name, M.partner_name == ""
            ),
        ),
        rx.vstack(rx.foreach(M.partners, _partner_row), spacing="0", width="100%"),
        _answer_form(),
        rx.script(src="/upload.js"),
        testid="org-media",
    )
