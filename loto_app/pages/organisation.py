"""`/organisation`: the organiser creates the evening (program, tariff, settings), then hands
out the desk's access and keeps the records. Mostly used on a laptop or a tablet."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.disputes import withdraw_form
from loto_app.components.palette import (
    ACCENT,
    CHECK_LINE,
    FIELD_LINE,
    INK,
    LINE,
    MUTED,
    NOTICE_BG,
    ON_SOLID,
    PAPER,
    SECTION_LINE,
    SUCCESS,
    step,
)
from loto_app.components.ui import big_button, page_shell, tid
from loto_app.domain.program import (
    KIND_LABELS,
    LEGAL_PRICE_MESSAGE,
    DrawSource,
    Kind,
    TieMethod,
)
from loto_app.live.disputes import DECISIONS
from loto_app.live.organisation import (
    REMOTE_WARNING,
    GameDraft,
    OfferDraft,
    OrganisationState,
    StaffView,
    StageDraft,
)

TITLE = "Loto — organisation"
S = OrganisationState

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
KIND_OPTIONS = [(k.value, KIND_LABELS[k]) for k in Kind]


def _section(title: str, *children: rx.Component, testid: str, **props: Any) -> rx.Component:
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


def _field(label: str, control: rx.Component, html_for: str, hint: str = "") -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=html_for, **LABEL),
        control,
        rx.cond(hint != "", rx.text(hint, color=MUTED, font_size="0.95rem")),
        spacing="1",
        width="100%",
        align="stretch",
    )


def _text_input(name: str, value: Any, testid: str, **props: Any) -> rx.Component:
    return rx.input(
        id=testid,
        value=value,
        on_change=lambda v: S.set_field(name, v),
        custom_attrs=tid(testid),
        width="100%",
        **{**FIELD, **props},
    )


def _check(label: str, checked: Any, on_change: Any, testid: str) -> rx.Component:
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


def _radio(name: str, value: Any, options: list[tuple[str, str, str]]) -> rx.Component:
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
        on_change=lambda v: S.set_field(name, v),
        size="3",
    )


def _error(text: Any, testid: str) -> rx.Component:
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


# ---------------------------------------------------------------------------- the new evening


def _evening_fields() -> rx.Component:
    return _section(
        "La soirée",
        rx.grid(
            _field("Nom de la soirée", _text_input("name", S.name, "org-name"), "org-name"),
            _field(
                "Date",
                _text_input("date", S.date, "org-date", type="date"),
                "org-date",
            ),
            _field(
                "Code de série",
                _text_input("series", S.series, "org-series", max_length=16),
                "org-series",
                "Annoncé au début : il figure sur chaque carton.",
            ),
            columns=rx.breakpoints(initial="1", md="3"),
            spacing="4",
            width="100%",
        ),
        testid="org-evening",
    )


def _how_fields() -> rx.Component:
    return _section(
        "Déroulement",
        rx.text("Tirage des numéros", **LABEL),
        _radio(
            "draw_source",
            S.draw_source,
            [
                (
                    DrawSource.ELECTRONIC.value,
                    "Boulier électronique",
                    "L'application tire les numéros.",
                ),
                (
                    DrawSource.PHYSICAL.value,
                    "Boules physiques",
                    "L'animateur tape le numéro lu sur la boule.",
                ),
            ],
        ),
        rx.text("Ex aequo", **LABEL),
        _radio(
            "tie_method",
            S.tie_method,
            [
                (
                    TieMethod.DRAW.value,
                    "Tirage au sort",
                    "Chaque gagnant tire un jeton ; le plus fort l'emporte.",
                ),
                (
                    TieMethod.SHARE_OR_DRAW.value,
                    "Partage possible",
                    "Deux gagnants peuvent partager un lot divisible, sinon tirage au sort.",
                ),
            ],
        ),
        rx.text("Jetons des ex aequo", **LABEL),
        _radio(
            "token_source",
            S.token_source,
            [
                ("auto", "Selon le boulier", "Le sac avec des boules physiques, sinon l'appli."),
                ("bag", "Sac de jetons", "L'animateur tape le jeton tiré par chaque joueur."),
                ("app", "Tirés par l'appli", "L'application tire des jetons différents."),
            ],
        ),
        rx.text("Dernier appel « Pas d'autre quine ? »", **LABEL),
        _radio(
            "last_call",
            S.last_call,
            [
                ("5", "5 secondes (conseillé)", "Après la première annonce valide."),
                ("10", "10 secondes", "Une grande salle."),
                ("15", "15 secondes", "Des joueurs à distance."),
                ("0", "Pas de dernier appel", "Le lot peut être attribué tout de suite."),
            ],
        ),
        _check(
            "Marquage automatique des numéros tirés",
            S.auto_marking,
            lambda v: S.set_field("auto_marking", v),
            "org-auto-marking",
        ),
        _check(
            "Prévenir le joueur quand une quine est possible",
            S.claim_hint,
            lambda v: S.set_field("claim_hint", v),
            "org-claim-hint",
        ),
        _check(
            "Loto gratuit : les cartons demandés sur les téléphones sont offerts "
            "(maison de retraite, fête d'école)",
            S.free_cartons,
            lambda v: S.set_field("free_cartons", v),
            "org-free-cartons",
        ),
        _field(
            "Lien de la diffusion en direct (facultatif)",
            _text_input("stream_url", S.stream_url, "org-stream", placeholder="https://…"),
            "org-stream",
        ),
        testid="org-how",
    )


def _remote_fields() -> rx.Component:
    return _section(
        "Jeu à distance",
        rx.el.label(
            rx.switch(
                checked=S.remote_play,
                on_change=lambda v: S.set_field("remote_play", v),
                size="3",
                custom_attrs=tid("org-remote"),
            ),
            rx.text(
                rx.cond(S.remote_play, "Activé", "Désactivé (conseillé)"),
                as_="span",
                font_size="1.1rem",
                font_weight="700",
            ),
            display="flex",
            gap="0.75rem",
            align_items="center",
            cursor="pointer",
        ),
        rx.cond(
            S.remote_play,
            rx.vstack(
                rx.callout(
                    REMOTE_WARNING,
                    icon="triangle_alert",
                    color_scheme="orange",
                    size="3",
                    custom_attrs=tid("org-remote-warning", role="note"),
                ),
                _check(
                    "Je réserve le lien d'invitation à un cercle restreint de personnes connues.",
                    S.remote_ack,
                    lambda v: S.set_field("remote_ack", v),
                    "org-remote-ack",
                ),
                width="100%",
                align="stretch",
            ),
            rx.text(
                "Les joueurs rejoignent la soirée depuis la salle, avec son code.",
                color=MUTED,
            ),
        ),
        testid="org-remote-section",
    )


def _stage_row(st: StageDraft, i: Any, j: Any) -> rx.Component:
    pre = f"stage-{i}-{j}"
    return rx.box(
        rx.flex(
            rx.box(
                _check(
                    st.label,
                    st.on,
                    lambda v: S.set_stage_field(i, j, "on", v),
                    f"{pre}-on",
                ),
                min_width=["auto", "10.5rem"],
            ),
            rx.cond(
                st.on,
                rx.flex(
                    rx.input(
                        value=st.description,
                        on_change=lambda v: S.set_stage_field(i, j, "description", v),
                        placeholder="Lot (ex. Panier garni)",
                        custom_attrs=tid(f"{pre}-desc", **{"aria-label": f"Lot : {st.label}"}),
                        flex="3 1 14rem",
                        **FIELD,
                    ),
                    rx.hstack(
                        rx.input(
                            value=st.value,
                            on_change=lambda v: S.set_stage_field(i, j, "value", v),
                            placeholder="Valeur",
                            custom_attrs=tid(
                                f"{pre}-value",
                                inputmode="decimal",
                                **{"aria-label": f"Valeur en euros : {st.label}"},
                            ),
                            width="7rem",
                            **FIELD,
                        ),
                        rx.text("€", font_size="1.15rem"),
                        align="center",
                        spacing="1",
                    ),
                    gap="0.6rem",
                    wrap="wrap",
                    flex="1 1 20rem",
                    align="center",
                ),
            ),
            gap="0.75rem",
            wrap="wrap",
            align="center",
            width="100%",
        ),
        rx.cond(
            st.on,
            rx.flex(
                _check(
                    "Divisible (bons d'achat…)",
                    st.divisible,
                    lambda v: S.set_stage_field(i, j, "divisible", v),
                    f"{pre}-divisible",
                ),
                _check(
                    "Lot en argent",
                    st.cash,
                    lambda v: S.set_stage_field(i, j, "cash", v),
                    f"{pre}-cash",
                ),
                gap="1.25rem",
                wrap="wrap",
                padding_left=["0", "2rem"],
            ),
        ),
        rx.cond(
            st.on & (st.problem != ""),
            rx.text(
                st.problem,
                color=ACCENT,
                font_weight="700",
                custom_attrs=tid(f"{pre}-problem", role="alert"),
            ),
        ),
        padding_y="0.5rem",
        border_top=f"1px solid {LINE}",
        width="100%",
    )


def _game_card(g: GameDraft, i: Any) -> rx.Component:
    last = S.games.length() - 1
    return rx.box(
        rx.flex(
            rx.heading(f"Partie {i + 1}", as_="h3", size="5", min_width="6.5rem"),
            rx.el.select(
                *[rx.el.option(label, value=v) for v, label in KIND_OPTIONS],
                value=g.kind,
                on_change=lambda v: S.set_game_kind(i, v),
                custom_attrs=tid(f"game-{i}-kind", **{"aria-label": f"Type de la partie {i + 1}"}),
                **NATIVE_SELECT,
            ),
            rx.input(
                value=g.title,
                on_change=lambda v: S.set_game_title(i, v),
                placeholder="Titre (facultatif)",
                custom_attrs=tid(
                    f"game-{i}-title", **{"aria-label": f"Titre de la partie {i + 1}"}
                ),
                flex="1 1 12rem",
                **FIELD,
            ),
            rx.hstack(
                rx.icon_button(
                    rx.icon("arrow-up"),
                    on_click=S.move_game(i, -1),
                    disabled=i == 0,
                    variant="soft",
                    size="3",
                    custom_attrs=tid(f"game-{i}-up", **{"aria-label": "Monter la partie"}),
                ),
                rx.icon_button(
                    rx.icon("arrow-down"),
                    on_click=S.move_game(i, 1),
                    disabled=i == last,
                    variant="soft",
                    size="3",
                    custom_attrs=tid(f"game-{i}-down", **{"aria-label": "Descendre la partie"}),
                ),
                rx.icon_button(
                    rx.icon("trash-2"),
                    on_click=S.remove_game(i),
                    color_scheme="red",
                    variant="soft",
                    size="3",
                    custom_attrs=tid(f"game-{i}-remove", **{"aria-label": "Retirer la partie"}),
                ),
                spacing="2",
            ),
            gap="0.75rem",
            wrap="wrap",
            align="center",
            width="100%",
        ),
        rx.foreach(g.stages, lambda st, j: _stage_row(st, i, j)),
        padding="0.75rem 1rem",
        border=f"2px solid {SECTION_LINE}",
        border_left=f"0.4rem solid {ACCENT}",
        border_radius="0.6rem",
        background=PAPER,
        width="100%",
        custom_attrs=tid(f"game-{i}"),
    )


def _program_fields() -> rx.Component:
    return _section(
        "Programme des parties",
        rx.text(
            "Chaque partie s'enchaîne sur un même tirage : cochez les lots joués, dans l'ordre. "
            "Les lots en argent sont interdits.",
            color=MUTED,
        ),
        rx.foreach(S.games, _game_card),
        rx.flex(
            rx.text("Ajouter une partie :", **LABEL),
            *[
                rx.button(
                    f"+ {label}",
                    on_click=S.add_game(v),
                    variant="outline",
                    size="3",
                    custom_attrs=tid(f"add-game-{v}"),
                )
                for v, label in KIND_OPTIONS
            ],
            gap="0.6rem",
            wrap="wrap",
            align="center",
        ),
        testid="org-program",
    )


def _offer_row(o: OfferDraft, k: Any) -> rx.Component:
    pre = f"offer-{k}"
    return rx.box(
        rx.flex(
            rx.el.select(
                *[rx.el.option(label, value=v) for v, label in KIND_OPTIONS],
                value=o.kind,
                on_change=lambda v: S.set_offer_field(k, "kind", v),
                custom_attrs=tid(f"{pre}-kind", **{"aria-label": "Type de carton"}),
                **NATIVE_SELECT,
            ),
            rx.hstack(
                rx.input(
                    value=o.quantity,
                    on_change=lambda v: S.set_offer_field(k, "quantity", v),
                    custom_attrs=tid(
                        f"{pre}-quantity", inputmode="numeric", **{"aria-label": "Quantité"}
                    ),
                    width="4.5rem",
                    **FIELD,
                ),
                rx.text(
                    rx.match(
                        o.kind,
                        ("vitrine", "vitrines pour"),
                        ("maxiquine", "grilles pour"),
                        "cartons pour",
                    ),
                    font_size="1.1rem",
                ),
                rx.input(
                    value=o.price,
                    on_change=lambda v: S.set_offer_field(k, "price", v),
                    custom_attrs=tid(
                        f"{pre}-price", inputmode="decimal", **{"aria-label": "Prix en euros"}
                    ),
                    width="6rem",
                    **FIELD,
                ),
                rx.text("€", font_size="1.15rem"),
                align="center",
                spacing="2",
            ),
            rx.cond(
                (o.kind == "classique") | (o.kind == "special"),
                _check(
                    "Planche de 6",
                    o.planche,
                    lambda v: S.set_offer_field(k, "planche", v),
                    f"{pre}-planche",
                ),
            ),
            rx.icon_button(
                rx.icon("trash-2"),
                on_click=S.remove_offer(k),
                color_scheme="red",
                variant="soft",
                size="3",
                custom_attrs=tid(f"{pre}-remove", **{"aria-label": "Retirer ce tarif"}),
            ),
            gap="0.75rem",
            wrap="wrap",
            align="center",
        ),
        rx.cond(
            o.problem != "",
            rx.text(
                o.problem,
                color=ACCENT,
                font_weight="700",
                custom_attrs=tid(f"{pre}-problem", role="alert"),
            ),
        ),
        padding_y="0.5rem",
        border_top=f"1px solid {LINE}",
        width="100%",
    )


def _offer_fields() -> rx.Component:
    return _section(
        "Prix des cartons",
        rx.text(LEGAL_PRICE_MESSAGE, color=MUTED),
        rx.foreach(S.offers, _offer_row),
        rx.flex(
            rx.button(
                "+ Ajouter un tarif",
                on_click=S.add_offer,
                variant="outline",
                size="3",
                custom_attrs=tid("add-offer"),
            ),
            rx.button(
                "Tarif habituel",
                on_click=S.usual_offers,
                variant="soft",
                size="3",
                custom_attrs=tid("usual-offers"),
            ),
            gap="0.6rem",
            wrap="wrap",
        ),
        testid="org-offers",
    )


def _create_form() -> rx.Component:
    return rx.vstack(
        _evening_fields(),
        _how_fields(),
        _remote_fields(),
        _program_fields(),
        _offer_fields(),
        rx.cond(
            S.key_required,
            _field(
                "Clé de l'association (donnée par l'hébergeur du loto)",
                _text_input("create_key", S.create_key, "org-create-key", type="password"),
                "org-create-key",
            ),
        ),
        rx.box(
            _error(S.form_error, "org-form-error"),
            big_button(
                rx.cond(S.creating, "Création…", "Créer la soirée"),
                "org-create",
                on_click=S.create_evening,
                loading=S.creating,
                width="100%",
                margin_top="0.75rem",
            ),
            rx.button(
                "Revenir au programme type",
                on_click=S.reset_form,
                variant="ghost",
                size="3",
                margin_top="0.5rem",
                custom_attrs=tid("org-reset"),
            ),
            width="100%",
        ),
        spacing="4",
        width="100%",
        align="stretch",
    )


def _login_form() -> rx.Component:
    return _section(
        "Se connecter à une soirée",
        rx.form(
            rx.vstack(
                _field(
                    "Code de la soirée",
                    rx.input(
                        id="org-login-code",
                        name="code",
                        custom_attrs=tid("org-login-code"),
                        **FIELD,
                    ),
                    "org-login-code",
                ),
                _field(
                    "Secret de l'organisateur",
                    rx.input(
                        id="org-login-secret",
                        name="secret",
                        type="password",
                        custom_attrs=tid("org-login-secret"),
                        **FIELD,
                    ),
                    "org-login-secret",
                ),
                big_button("Se connecter", "org-login", type="submit", width="100%"),
                _error(S.login_message, "org-login-error"),
                spacing="3",
                width="100%",
                align="stretch",
            ),
            on_submit=S.login,
            reset_on_submit=False,
            width="100%",
        ),
        testid="org-login-section",
    )


def _signed_out() -> rx.Component:
    tab = {
        "size": "4",
        "flex": "1 1 12rem",
        "min_height": "3.5rem",
        "font_size": "1.2rem",
        "font_weight": "700",
    }
    return rx.fragment(
        rx.flex(
            rx.button(
                "Créer une soirée",
                on_click=S.show_tab("create"),
                variant=rx.cond(S.tab == "create", "solid", "outline"),
                custom_attrs=tid("tab-create", **{"aria-pressed": S.tab == "create"}),
                **tab,
            ),
            rx.button(
                "J'ai déjà une soirée",
                on_click=S.show_tab("signin"),
                variant=rx.cond(S.tab == "signin", "solid", "outline"),
                custom_attrs=tid("tab-signin", **{"aria-pressed": S.tab == "signin"}),
                **tab,
            ),
            gap="0.75rem",
            wrap="wrap",
            width="100%",
        ),
        rx.cond(S.tab == "create", _create_form(), _login_form()),
    )


# ---------------------------------------------------------------------------- signed in


def _secret_line(label: str, value: Any, testid: str, size: str = "7") -> rx.Component:
    return rx.flex(
        rx.text(label, font_weight="700", font_size="1.15rem", min_width="16rem"),
        rx.code(
            value,
            size=size,
            variant="outline",
            word_break="break-all",
            custom_attrs=tid(testid),
        ),
        gap="0.3rem 1rem",
        wrap="wrap",
        align="center",
    )


def _credentials() -> rx.Component:
    return rx.cond(
        S.created,
        rx.box(
            rx.heading("Soirée créée : notez ces informations", as_="h2", size="6"),
            rx.callout(
                "Elles ne seront plus affichées. Écrivez-les sur papier ou enregistrez-les en "
                "lieu sûr : sans le secret de l'organisateur, personne ne peut gérer la soirée.",
                icon="triangle_alert",
                color_scheme="orange",
                size="3",
                margin_y="0.75rem",
            ),
            rx.vstack(
                _secret_line("Code de la soirée", S.new_code, "new-code"),
                _secret_line("Secret de l'animateur", S.new_animateur_secret, "new-animateur"),
                _secret_line("Secret de l'organisateur", S.new_organiser_secret, "new-organiser"),
                rx.cond(
                    S.new_invitation != "",
                    _secret_line(
                        "Lien d'invitation",
                        f"{S.origin}/?code={S.new_code}&invitation={S.new_invitation}",
                        "new-invitation",
                        size="4",
                    ),
                ),
                spacing="3",
                align="stretch",
            ),
            big_button(
                "C'est noté",
                "credentials-done",
                on_click=S.dismiss_credentials,
                color_scheme="green",
                margin_top="1rem",
            ),
            padding="1.25rem",
            border=f"3px solid {CHECK_LINE}",
            border_radius="0.75rem",
            background=NOTICE_BG,
            width="100%",
            custom_attrs=tid(
                "credentials", role="region", **{"aria-label": "Secrets de la soirée"}
            ),
        ),
    )


def _link(label: str, url: Any, testid: str) -> rx.Component:
    return rx.flex(
        rx.text(label, font_weight="700", min_width="13rem", font_size="1.1rem"),
        rx.link(
            url,
            href=url,
            is_external=True,
            word_break="break-all",
            font_size="1.1rem",
            custom_attrs=tid(testid),
        ),
        gap="0.2rem 1rem",
        wrap="wrap",
    )


def _links() -> rx.Component:
    return _section(
        "Les adresses de la soirée",
        _link("Joueurs (téléphones)", S.player_link, "link-players"),
        _link("Écran de la salle", S.screen_link, "link-screen"),
        _link("Animateur", f"{S.origin}/animateur", "link-animateur"),
        _link("Caisse", f"{S.origin}/caisse", "link-caisse"),
        testid="org-links",
    )


def _staff_row(m: StaffView) -> rx.Component:
    return rx.flex(
        rx.text(m.name, font_weight="700", font_size="1.15rem", flex="1 1 10rem"),
        rx.badge(m.role_label, size="3", color_scheme="indigo", high_contrast=True),
        rx.badge(
            rx.cond(m.active, "Accès actif", "Accès retiré"),
            size="3",
            color_scheme=rx.cond(m.active, "green", "gray"),
            high_contrast=True,
        ),
        rx.cond(
            m.active,
            rx.button(
                "Retirer l'accès",
                on_click=S.set_staff_active(m.id, False),
                color_scheme="red",
                variant="outline",
                size="3",
                custom_attrs=tid(f"staff-withdraw-{m.name}"),
            ),
            rx.button(
                "Rendre l'accès",
                on_click=S.set_staff_active(m.id, True),
                variant="outline",
                size="3",
                custom_attrs=tid(f"staff-restore-{m.name}"),
            ),
        ),
        gap="0.6rem",
        wrap="wrap",
        align="center",
        padding_y="0.4rem",
        border_top=f"1px solid {LINE}",
        custom_attrs=tid(f"staff-{m.name}"),
    )


def _staff() -> rx.Component:
    return _section(
        "L'équipe de la caisse",
        rx.text(
            "Chaque vendeur ou caissier reçoit son propre secret pour la page Caisse.",
            color=MUTED,
        ),
        rx.form(
            rx.flex(
                rx.input(
                    name="name",
                    placeholder="Prénom ou nom",
                    max_length=30,
                    custom_attrs=tid("staff-name", **{"aria-label": "Nom du membre"}),
                    flex="2 1 12rem",
                    **FIELD,
                ),
                rx.el.select(
                    rx.el.option("Vendeur", value="vendeur"),
                    rx.el.option("Caissier", value="caissier"),
                    name="role",
                    default_value="vendeur",
                    custom_attrs=tid("staff-role", **{"aria-label": "Rôle"}),
                    **NATIVE_SELECT,
                ),
                rx.button(
                    "Ajouter",
                    type="submit",
                    size="3",
                    font_weight="700",
                    font_size="1.2rem",
                    custom_attrs=tid("staff-add"),
                ),
                gap="0.6rem",
                wrap="wrap",
                align="center",
            ),
            on_submit=S.add_staff,
            reset_on_submit=True,
        ),
        _error(S.staff_message, "staff-message"),
        rx.cond(
            S.new_staff_secret != "",
            rx.box(
                rx.text(
                    f"Secret de {S.new_staff_name} ({S.new_staff_role}) — à noter, il ne sera "
                    "plus affiché :",
                    font_weight="700",
                ),
                rx.code(
                    S.new_staff_secret,
                    size="7",
                    variant="outline",
                    custom_attrs=tid("staff-secret"),
                ),
                rx.button(
                    "C'est noté",
                    on_click=S.hide_staff_secret,
                    size="3",
                    font_weight="700",
                    font_size="1.2rem",
                    margin_left="1rem",
                    custom_attrs=tid("staff-secret-done"),
                ),
                padding="0.8rem",
                background=NOTICE_BG,
                border=f"2px solid {CHECK_LINE}",
                border_radius="0.5rem",
            ),
        ),
        rx.cond(
            S.staff.length() == 0,
            rx.text("Personne pour l'instant.", color=MUTED),
            rx.box(rx.foreach(S.staff, _staff_row), custom_attrs=tid("staff-list")),
        ),
        testid="org-staff",
    )


def _animateur_secret() -> rx.Component:
    """Renew the animateur's secret (a lost tablet): asks once, shows the new secret once."""
    return _section(
        "Le secret de l'animateur",
        rx.text(
            "Tablette perdue ou secret divulgué : un nouveau secret déconnecte toutes les "
            "tablettes qui utilisaient l'ancien.",
            color=MUTED,
        ),
        rx.cond(
            S.renew_animateur_asked,
            rx.box(
                rx.text(
                    "Renouveler le secret ? Les tablettes connectées devront se reconnecter "
                    "avec le nouveau.",
                    font_weight="700",
                ),
                rx.flex(
                    rx.button(
                        "Oui, renouveler",
                        on_click=S.renew_animateur_secret,
                        color_scheme="red",
                        size="3",
                        font_weight="700",
                        custom_attrs=tid("animateur-renew-confirm"),
                    ),
                    rx.button(
                        "Annuler",
                        on_click=S.cancel_renew_animateur,
                        variant="outline",
                        size="3",
                        custom_attrs=tid("animateur-renew-cancel"),
                    ),
                    gap="0.6rem",
                    wrap="wrap",
                    margin_top="0.5rem",
                ),
                padding="0.8rem",
                background=NOTICE_BG,
                border=f"2px solid {CHECK_LINE}",
                border_radius="0.5rem",
            ),
            rx.button(
                "Renouveler le secret de l'animateur",
                on_click=S.ask_renew_animateur,
                variant="outline",
                size="3",
                custom_attrs=tid("animateur-renew"),
            ),
        ),
        rx.cond(
            S.renewed_animateur_secret != "",
            rx.box(
                _secret_line(
                    "Nouveau secret de l'animateur",
                    S.renewed_animateur_secret,
                    "animateur-new-secret",
                ),
                rx.text("À noter : il ne sera plus affiché.", color=MUTED),
                rx.button(
                    "C'est noté",
                    on_click=S.hide_renewed_animateur_secret,
                    size="3",
                    font_weight="700",
                    custom_attrs=tid("animateur-new-secret-done"),
                ),
                padding="0.8rem",
                background=NOTICE_BG,
                border=f"2px solid {CHECK_LINE}",
                border_radius="0.5rem",
            ),
        ),
        testid="org-animateur",
    )


def _invitation() -> rx.Component:
    return rx.cond(
        S.evening_remote,
        _section(
            "Lien d'invitation (jeu à distance)",
            rx.text(
                "À donner seulement aux personnes de votre cercle qui jouent à distance. "
                "Renouvelez-le s'il a circulé : l'ancien ne permettra plus d'entrer.",
                color=MUTED,
            ),
            rx.link(
                S.invitation_link,
                href=S.invitation_link,
                word_break="break-all",
                font_size="1.15rem",
                custom_attrs=tid("invitation-link"),
            ),
            rx.button(
                "Renouveler le lien",
                on_click=S.renew_invitation,
                variant="outline",
                size="3",
                custom_attrs=tid("invitation-renew"),
            ),
            testid="org-invitation",
        ),
    )


def _records() -> rx.Component:
    btn = {"size": "3", "variant": "outline"}
    return _section(
        "Cartons papier et rapport",
        rx.flex(
            rx.button(
                "PDF des cartons papier",
                on_click=S.paper_cartons,
                custom_attrs=tid("paper-pdf"),
                **btn,
            ),
            rx.button(
                "Voir le rapport", on_click=S.show_report, custom_attrs=tid("report-show"), **btn
            ),
            rx.button("Rapport CSV", on_click=S.report_csv, custom_attrs=tid("report-csv"), **btn),
            rx.button("Rapport PDF", on_click=S.report_pdf, custom_attrs=tid("report-pdf"), **btn),
            rx.button(
                "Vérifier le journal",
                on_click=S.verify_journal,
                custom_attrs=tid("audit-verify"),
                **btn,
            ),
            gap="0.6rem",
            wrap="wrap",
        ),
        rx.cond(
            S.records_message != "",
            rx.text(S.records_message, font_weight="700", custom_attrs=tid("records-message")),
        ),
        rx.cond(
            S.audit_message != "",
            rx.callout(
                S.audit_message,
                color_scheme=rx.cond(S.audit_ok, "green", "red"),
                size="3",
                custom_attrs=tid("audit-message", role="status"),
            ),
        ),
        rx.foreach(S.audit_problems, lambda p: rx.text(p, color=ACCENT)),
        rx.cond(
            S.report_lines.length() > 0,
            rx.box(
                rx.el.dl(
                    rx.foreach(
                        S.report_lines,
                        lambda r: rx.flex(
                            rx.el.dt(r.label, font_weight="700", min_width="11rem"),
                            rx.el.dd(r.value, margin="0"),
                            gap="0.2rem 1rem",
                            wrap="wrap",
                            padding_y="0.2rem",
                        ),
                    ),
                ),
                rx.heading("Gagnants", as_="h3", size="4", margin_top="0.6rem"),
                rx.cond(S.report_winners.length() == 0, rx.text("Aucun lot attribué.")),
                rx.el.ul(rx.foreach(S.report_winners, lambda w: rx.el.li(w))),
                rx.heading("Litiges (art. 8)", as_="h3", size="4", margin_top="0.6rem"),
                rx.cond(S.report_decisions.length() == 0, rx.text("Aucune décision.")),
                rx.el.ul(
                    rx.foreach(S.report_decisions, lambda d: rx.el.li(d)),
                    custom_attrs=tid("report-decisions"),
                ),
                font_size="1.1rem",
                custom_attrs=tid("report-summary"),
            ),
        ),
        _disputes(),
        testid="org-records",
    )


def _disputes() -> rx.Component:
    """The association's decisions (art. 8), as on the animateur's tablet: on a claim (by its
    number, as the report lists it) or voiding a lot ticket; each with a written reason."""
    field = {"size": "3"}
    return rx.box(
        rx.heading("Régler un litige", as_="h3", size="4", margin_top="0.8rem"),
        rx.form(
            rx.flex(
                rx.input(
                    name="claim",
                    type="number",
                    min=1,
                    placeholder="N° de l'annonce",
                    width="10rem",
                    custom_attrs=tid("org-decision-claim", **{"aria-label": "Numéro de l'annonce"}),
                    **field,
                ),
                rx.el.select(
                    rx.el.option("Choisir la décision…", value=""),
                    *[rx.el.option(label, value=v) for v, label in DECISIONS.items()],
                    name="decision",
                    font_size="1.05rem",
                    padding="0.4rem",
                    max_width="100%",  # (a select is as wide as its longest option)
                    flex="1 1 14rem",
                    custom_attrs=tid("org-decision", **{"aria-label": "Décision"}),
                ),
                rx.input(
                    name="reason",
                    placeholder="Motif (obligatoire)",
                    max_length=200,
                    flex="1",
                    min_width="14rem",
                    custom_attrs=tid("org-decision-reason", **{"aria-label": "Motif"}),
                    **field,
                ),
                rx.button(
                    "Confirmer la décision",
                    type="submit",
                    background=SUCCESS,
                    color=ON_SOLID,
                    custom_attrs=tid("org-decision-submit"),
                    **field,
                ),
                gap="0.5rem",
                wrap="wrap",
            ),
            on_submit=S.decide,
            reset_on_submit=True,
        ),
        withdraw_form(S.withdraw_award, "org-"),
        rx.cond(
            S.decision_message != "",
            rx.text(
                S.decision_message,
                font_weight="700",
                color=rx.cond(S.decision_ok, SUCCESS, step("red", 11)),
                custom_attrs=tid("org-decision-message", role="status"),
            ),
        ),
    )


def _signed_in() -> rx.Component:
    return rx.fragment(
        _credentials(),
        rx.flex(
            rx.vstack(
                rx.heading(S.evening_name, as_="h2", size="7", custom_attrs=tid("org-evening")),
                rx.text(
                    f"Code {S.evening_code} — série {S.evening_series}",
                    font_size="1.2rem",
                ),
                spacing="1",
            ),
            rx.spacer(),
            rx.button(
                "Se déconnecter",
                on_click=S.logout,
                variant="outline",
                size="3",
                custom_attrs=tid("org-logout"),
            ),
            gap="0.75rem",
            wrap="wrap",
            align="center",
            width="100%",
        ),
        _links(),
        _animateur_secret(),
        _staff(),
        _invitation(),
        _records(),
    )


def index() -> rx.Component:
    """The organiser's page."""
    return page_shell(
        rx.heading("Organisation de la soirée", as_="h1", size="8", custom_attrs=tid("title")),
        _error(S.message, "org-message"),
        rx.cond(S.signed_in, _signed_in(), _signed_out()),
        max_width="72rem",
        padding=["0.5rem", "1rem", "1.5rem"],
        font_size="1.05rem",
    )
