"""`/caisse`: the sales desk — one path for a phone player (their code finds them and their
orders à régler: settle one, or sell a new pack), paper players, the caissier's refunds and
closing (each asked once), lots handed over against lot tickets."""

from __future__ import annotations

import reflex as rx

from loto_app.components.desk_form import method_choice, offer_select
from loto_app.components.form import section
from loto_app.components.help_link import help_link
from loto_app.components.palette import (
    ACCENT,
    CHECK_BG,
    CHECK_LINE,
    FALSE_BG,
    FALSE_LINE,
    LINE,
    MUTED,
    SUCCESS,
    step,
)
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.scanner import scanner
from loto_app.components.signin import sign_in_form
from loto_app.components.ui import big_button, page_shell, tid
from loto_app.domain.till import DESK_QR_PREFIX
from loto_app.live.states.caisse import CaisseState, SaleLine, TicketLine, TotalLine
from loto_app.pages.caisse_own import own_sale
from loto_app.pages.caisse_printed import printed_sale

TITLE = "Loto — caisse"

#: Solid buttons with white text: bold and 1.2rem is "large text" for WCAG contrast (3:1).
BOLD = {"size": "3", "font_weight": "700", "font_size": "1.2rem"}


def _login() -> rx.Component:
    return sign_in_form(
        "Connexion à la caisse",
        "caisse",
        "Votre secret",
        CaisseState.login,
        intro="Vendeurs et caissiers : le secret vous est donné par l'organisateur.",
    )


def _ask_box(
    text, yes: str, yes_testid: str, on_yes, no: str, no_testid: str, on_no, *, danger: bool
) -> rx.Component:
    """A question asked once before a move that costs money or cannot be undone."""
    return rx.box(
        rx.text(text, font_weight="700", font_size="1.15rem", margin_bottom="0.6rem"),
        rx.flex(
            rx.button(
                yes,
                on_click=on_yes,
                **BOLD,
                **({"color_scheme": "red"} if danger else {}),
                custom_attrs=tid(yes_testid),
            ),
            rx.button(
                no,
                on_click=on_no,
                size="3",
                variant="outline",
                color_scheme="gray",
                high_contrast=True,
                custom_attrs=tid(no_testid),
            ),
            gap="0.6rem",
            wrap="wrap",
        ),
        padding="0.8rem",
        border=f"3px solid {FALSE_LINE if danger else CHECK_LINE}",
        border_radius="0.5rem",
        background=FALSE_BG if danger else CHECK_BG,
        width="100%",
        custom_attrs=tid(f"{yes_testid}-box"),
    )


def _settle_buttons(o: SaleLine, prefix: str) -> rx.Component:
    """Settle an order: cash or card (any desk), a transfer received (the caissier)."""
    return rx.flex(
        rx.button(
            f"Encaisser {o.amount} en espèces",
            on_click=CaisseState.confirm(o.no, "cash"),
            **BOLD,
            custom_attrs=tid(f"{prefix}-{o.no}-cash"),
        ),
        rx.button(
            f"Encaisser {o.amount} par carte",
            on_click=CaisseState.confirm(o.no, "card"),
            **BOLD,
            custom_attrs=tid(f"{prefix}-{o.no}-card"),
        ),
        rx.cond(
            CaisseState.role == "caissier",
            rx.button(
                "Virement reçu : valider",
                on_click=CaisseState.confirm(o.no, "transfer"),
                **BOLD,
                variant="outline",
                custom_attrs=tid(f"{prefix}-{o.no}-transfer"),
            ),
        ),
        gap="0.5rem",
        wrap="wrap",
    )


def _found_order(o: SaleLine) -> rx.Component:
    return rx.box(
        rx.text(
            rx.text.strong(f"Commande n° {o.no} à régler"),
            f" — {o.label} — ",
            rx.text.strong(o.amount),
            font_size="1.15rem",
            margin_bottom="0.4rem",
        ),
        _settle_buttons(o, "found"),
        padding="0.6rem",
        border=f"2px solid {CHECK_LINE}",
        border_radius="0.5rem",
        background=CHECK_BG,
        custom_attrs=tid(f"found-order-{o.no}"),
    )


def _new_pack() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.text(
                rx.cond(
                    CaisseState.found_orders.length() > 0,
                    "Ou vendre un nouveau paquet (en plus de la commande)",
                    "Vendre un paquet",
                ),
                font_weight="800",
                font_size="1.15rem",
            ),
            offer_select("sell-offer"),
            method_choice("sell", font_size="1.25rem"),
            big_button(
                "Encaisser et donner les cartons",
                "sell-submit",
                type="submit",
                width="100%",
                variant=rx.cond(CaisseState.found_orders.length() > 0, "outline", "solid"),
            ),
            spacing="3",
            width="100%",
        ),
        on_submit=CaisseState.sell,
        reset_on_submit=False,
        width="100%",
    )


def _found() -> rx.Component:
    """The player the code names: their orders à régler first, then a new pack."""
    return rx.vstack(
        rx.flex(
            rx.box(
                rx.text(CaisseState.found_name, font_size="1.5rem", font_weight="800"),
                rx.text(
                    "Code ",
                    rx.code(CaisseState.found_code, size="4"),
                    f" — {CaisseState.found_cartons}",
                    color=MUTED,
                ),
            ),
            rx.button(
                "Joueur suivant",
                on_click=CaisseState.forget,
                size="3",
                variant="outline",
                color_scheme="gray",
                high_contrast=True,
                custom_attrs=tid("found-done"),
            ),
            justify="between",
            align="center",
            gap="0.5rem",
            wrap="wrap",
            width="100%",
        ),
        rx.foreach(CaisseState.found_orders, _found_order),
        rx.cond(
            CaisseState.extra_ask != "",
            _ask_box(
                CaisseState.extra_ask,
                "Oui, vendre en plus",
                "sell-extra",
                CaisseState.sell_extra,
                "Non",
                "sell-extra-drop",
                CaisseState.drop_extra,
                danger=False,
            ),
            _new_pack(),
        ),
        spacing="3",
        width="100%",
        padding_top="0.6rem",
        border_top=f"2px solid {LINE}",
        custom_attrs=tid("found"),
    )


def _sell_forms() -> rx.Component:
    return rx.fragment(
        section(
            "Joueur avec téléphone",
            scanner(
                "player-scanner",
                form_id="lookup-form",
                field="code",
                prefix=DESK_QR_PREFIX,
                what="celui d'un joueur (son code caisse)",
                label="Scanner le QR du joueur",
            ),
            rx.form(
                rx.vstack(
                    rx.el.label(
                        "Ou tapez son code caisse (affiché dans son appli)",
                        font_weight="700",
                        html_for="lookup-code",
                    ),
                    rx.flex(
                        rx.input(
                            id="lookup-code",
                            name="code",
                            placeholder="ex. 3FA2C91B",
                            size="3",
                            font_size="1.4rem",
                            flex="1",
                            min_width="10rem",
                            auto_complete="off",
                            custom_attrs=tid("lookup-code", autocapitalize="characters"),
                        ),
                        rx.button(
                            "Trouver le joueur",
                            type="submit",
                            **BOLD,
                            min_height="2.75rem",
                            custom_attrs=tid("lookup-submit"),
                        ),
                        gap="0.5rem",
                        wrap="wrap",
                        width="100%",
                    ),
                    spacing="2",
                    width="100%",
                ),
                on_submit=CaisseState.lookup,
                reset_on_submit=True,
                id="lookup-form",
            ),
            rx.cond(CaisseState.found_name != "", _found()),
            testid="sell-phone",
        ),
        _orders(),
        section(
            "Joueur sans téléphone (cartons papier)",
            rx.form(
                rx.vstack(
                    rx.el.label("Nom du joueur", font_weight="700", html_for="paper-name"),
                    rx.input(
                        id="paper-name",
                        name="name",
                        placeholder="ex. Mme Martin",
                        size="3",
                        font_size="1.3rem",
                        width="100%",
                        max_length=30,
                        custom_attrs=tid("paper-name"),
                    ),
                    offer_select("paper-offer"),
                    method_choice("paper", font_size="1.25rem"),
                    big_button(
                        "Encaisser et imprimer les cartons",
                        "paper-submit",
                        type="submit",
                        width="100%",
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=CaisseState.sell_paper,
                reset_on_submit=True,
            ),
            testid="sell-paper",
        ),
        printed_sale(),
        own_sale(),
    )


def _order_row(o: SaleLine) -> rx.Component:
    return rx.flex(
        rx.text(
            f"n° {o.no} — {o.player} — code ",
            rx.code(o.code, size="3"),
            f" — {o.label} — ",
            rx.text.strong(o.amount),
            font_size="1.1rem",
        ),
        _settle_buttons(o, "confirm"),
        direction="column",
        gap="0.3rem",
        padding_y="0.5rem",
        border_bottom=f"1px solid {LINE}",
        custom_attrs=tid(f"order-{o.no}"),
    )


def _orders() -> rx.Component:
    return section(
        "Commandes à régler",
        rx.text(CaisseState.payment_note, color=MUTED, font_size="0.95rem"),
        rx.text(
            "Le joueur montre son code caisse : tapez-le ci-dessus pour le retrouver.",
            color=MUTED,
            font_size="0.95rem",
        ),
        rx.cond(CaisseState.orders_count == 0, rx.text("Aucune commande en attente.")),
        rx.cond(
            CaisseState.orders_count > CaisseState.orders.length(),
            rx.text(f"{CaisseState.orders_count} commandes en attente (les premières ci-dessous)."),
        ),
        rx.foreach(CaisseState.orders, _order_row),
        testid="orders",
    )


def _sale_row(s: SaleLine) -> rx.Component:
    return rx.box(
        rx.text(
            rx.text.strong(f"n° {s.no}"),
            f" — {s.player} — {s.label} — {s.amount} — {s.method} — {s.seller}",
        ),
        rx.text(
            rx.cond(s.cartons != "", f"Cartons n° {s.cartons} — ", ""),
            s.status,
            color=rx.cond(s.cancelled, ACCENT, rx.cond(s.pending, step("orange", 11), SUCCESS)),
            font_weight="700",
        ),
        padding_y="0.35rem",
        border_bottom=f"1px solid {LINE}",
        custom_attrs=tid(f"sale-{s.no}"),
    )


def _cancel_form() -> rx.Component:
    return rx.form(
        rx.flex(
            rx.input(
                name="sale",
                type="number",
                min=1,
                placeholder="N° de vente",
                size="3",
                width="9rem",
                custom_attrs=tid("cancel-sale", **{"aria-label": "N° de vente"}),
            ),
            rx.input(
                name="reason",
                placeholder="Motif (obligatoire)",
                size="3",
                max_length=120,
                flex="1",
                min_width="12rem",
                custom_attrs=tid("cancel-reason", **{"aria-label": "Motif"}),
            ),
            rx.button(
                "Annuler / rembourser",
                type="submit",
                size="3",
                color_scheme="red",
                variant="outline",
                custom_attrs=tid("cancel-submit"),
            ),
            gap="0.5rem",
            wrap="wrap",
        ),
        on_submit=CaisseState.ask_cancel,
        reset_on_submit=True,
    )


def _cancel() -> rx.Component:
    return rx.cond(
        CaisseState.cancel_ask != "",
        _ask_box(
            CaisseState.cancel_ask,
            "Oui, annuler la vente",
            "cancel-confirm",
            CaisseState.cancel,
            "Non, garder la vente",
            "cancel-drop",
            CaisseState.drop_cancel,
            danger=True,
        ),
        _cancel_form(),
    )


def _totals() -> rx.Component:
    def breakdown(title: str, lines, testid: str) -> rx.Component:
        return rx.box(
            rx.text(title, font_weight="800"),
            rx.foreach(lines, lambda t: rx.text(f"{t.label} : {t.amount}")),
            custom_attrs=tid(testid),
            min_width="12rem",
        )

    return section(
        "Totaux",
        rx.flex(
            rx.box(
                rx.text("Encaissé", color=MUTED),
                rx.text(
                    CaisseState.received,
                    font_size="2rem",
                    font_weight="900",
                    custom_attrs=tid("total-received"),
                ),
            ),
            rx.box(
                rx.text("Remboursé", color=MUTED),
                rx.text(
                    CaisseState.refunded,
                    font_size="1.5rem",
                    font_weight="700",
                    custom_attrs=tid("total-refunded"),
                ),
            ),
            rx.box(
                rx.text("À régler", color=MUTED),
                rx.text(
                    CaisseState.pending,
                    font_size="1.5rem",
                    font_weight="700",
                    custom_attrs=tid("total-pending"),
                ),
            ),
            rx.box(
                rx.text("Cartons vendus", color=MUTED),
                rx.text(
                    CaisseState.sold_cartons,
                    font_size="1.5rem",
                    font_weight="700",
                    custom_attrs=tid("total-cartons"),
                ),
            ),
            gap="1.5rem",
            wrap="wrap",
        ),
        rx.flex(
            breakdown("Par vendeur", CaisseState.by_seller, "by-seller"),
            breakdown("Par type de carton", CaisseState.by_kind, "by-kind"),
            breakdown("Par paiement", CaisseState.by_method, "by-method"),
            gap="1.5rem",
            wrap="wrap",
            margin_top="0.6rem",
        ),
        rx.cond(
            CaisseState.role == "caissier",
            rx.cond(
                CaisseState.till_closed,
                rx.callout(
                    f"Caisse fermée par {CaisseState.till_closed_by}.",
                    color_scheme="gray",
                    size="3",
                    margin_top="0.6rem",
                    custom_attrs=tid("till-closed"),
                    high_contrast=True,
                ),
                rx.cond(
                    CaisseState.close_ask,
                    rx.box(
                        _ask_box(
                            rx.fragment(
                                "Fermer la caisse pour toute la soirée ? Plus aucune vente "
                                "ensuite.",
                                rx.el.br(),
                                "Encaissé : ",
                                CaisseState.received,
                                " — remboursé : ",
                                CaisseState.refunded,
                                " — cartons vendus : ",
                                CaisseState.sold_cartons,
                            ),
                            "Oui, fermer la caisse",
                            "close-confirm",
                            CaisseState.close_till,
                            "Non, laisser ouverte",
                            "close-drop",
                            CaisseState.drop_close,
                            danger=True,
                        ),
                        margin_top="0.6rem",
                        width="100%",
                    ),
                    big_button(
                        "Fermer la caisse…",
                        "close-till",
                        on_click=CaisseState.ask_close,
                        color_scheme="red",
                        variant="outline",
                        margin_top="0.6rem",
                        width="100%",
                    ),
                ),
            ),
        ),
        testid="totals",
    )


def _ticket_row(t: TicketLine) -> rx.Component:
    return rx.flex(
        rx.box(
            rx.text(rx.text.strong(f"Ticket n° {t.no}"), f" — {t.player}"),
            rx.text(f"{t.stage} : {t.lot} ", rx.cond(t.share != "", f"({t.share})", "")),
            rx.text("Code : ", rx.code(t.code, size="4")),
        ),
        rx.cond(
            t.voided,
            # withdrawn by a decision of the association (art. 8): never handed over
            rx.badge(
                rx.cond(t.handed, "ANNULÉ (déjà remis : à récupérer)", "ANNULÉ : ne pas remettre"),
                color_scheme="red",
                size="3",
                high_contrast=True,
                custom_attrs=tid(f"voided-{t.no}"),
            ),
            rx.cond(
                t.handed,
                rx.badge(
                    f"Remis par {t.handed_by}", color_scheme="green", size="3", high_contrast=True
                ),
                rx.button(
                    rx.icon("gift", size=22, aria_hidden="true"),
                    "Remettre le lot",
                    on_click=CaisseState.hand_over(t.no),
                    **BOLD,
                    color_scheme="green",
                    custom_attrs=tid(f"hand-over-{t.no}"),
                ),
            ),
        ),
        justify="between",
        align="center",
        gap="0.5rem",
        wrap="wrap",
        padding_y="0.5rem",
        border_bottom=f"1px solid {LINE}",
        custom_attrs=tid(f"ticket-{t.no}"),
    )


def _lots() -> rx.Component:
    return section(
        "Lots à remettre",
        rx.text(
            "Comparez le code du ticket (téléphone du gagnant) avant de remettre le lot.",
            color=MUTED,
            font_size="0.95rem",
        ),
        rx.cond(CaisseState.tickets.length() == 0, rx.text("Aucun lot gagné pour l'instant.")),
        rx.foreach(CaisseState.tickets, _ticket_row),
        testid="lots",
    )


def _desk() -> rx.Component:
    return rx.fragment(
        rx.flex(
            rx.box(
                rx.heading(CaisseState.evening_name, size="6"),
                rx.text(
                    f"Connecté : {CaisseState.staff_name} (",
                    rx.cond(CaisseState.role == "caissier", "caissier", "vendeur"),
                    ")",
                    custom_attrs=tid("caisse-who"),
                ),
                rx.link(
                    "Règlement de la soirée (à montrer aux joueurs)",
                    href=f"/reglement?code={CaisseState.code}",
                    target="_blank",
                    size="3",
                    custom_attrs=tid("reglement-link"),
                ),
            ),
            rx.button("Se déconnecter", on_click=CaisseState.logout, variant="outline", size="3"),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.cond(
            CaisseState.message != "",
            rx.callout(
                CaisseState.message,
                color_scheme=rx.cond(CaisseState.message_kind == "ok", "green", "red"),
                size="3",
                custom_attrs=tid("caisse-message", role="status"),
                high_contrast=True,
            ),
        ),
        rx.cond(  # the player's code first: it finds their orders à régler
            CaisseState.till_closed,
            rx.fragment(),
            _sell_forms(),
        ),
        _totals(),
        section(
            rx.cond(CaisseState.role == "caissier", "Ventes (les dernières)", "Mes ventes"),
            rx.cond(CaisseState.role == "caissier", _cancel()),
            rx.foreach(CaisseState.sales, _sale_row),
            testid="sales",
        ),
        _lots(),
    )


def index() -> rx.Component:
    """The desk page."""
    return page_shell(
        rehearsal_banner(CaisseState.rehearsal),
        help_link("caisse"),
        rx.cond(
            CaisseState.signed_in,
            _desk(),
            rx.fragment(
                _login(),
                rx.cond(
                    CaisseState.message != "",
                    rx.callout(
                        CaisseState.message,
                        color_scheme="red",
                        custom_attrs=tid("caisse-message", role="alert"),
                        high_contrast=True,
                    ),
                ),
            ),
        ),
        max_width="60rem",
    )


__all__ = ["TITLE", "TotalLine", "index"]
