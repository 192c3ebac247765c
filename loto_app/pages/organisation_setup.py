"""`/organisation`, the set-up task: the new evening's form (settings, program, lots, tariff) and
the secrets shown once after creating it (`EveningSetup`, live/states/organisation_setup.py)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.form import (
    FIELD,
    LABEL,
    NATIVE_SELECT,
    check,
    error,
    field,
    radio_cards,
    secret_line,
    section,
)
from loto_app.components.palette import (
    ACCENT,
    CHECK_LINE,
    LINE,
    MUTED,
    NOTICE_BG,
    PAPER,
    SECTION_LINE,
)
from loto_app.components.ui import big_button, tid
from loto_app.domain.carton_kinds import KINDS, Grid, Kind
from loto_app.domain.games import GAME_TYPES, TIE_LABELS, GameType
from loto_app.domain.program import LEGAL_PRICE_MESSAGE, PATTERN_LABELS
from loto_app.domain.remote import (
    CAP_LABEL,
    CONFIRM_LABEL,
    LIVE_ONLY,
    MAX_REMOTE_CAP,
    NBSP,
    WARNING_TITLE,
)
from loto_app.domain.settings_catalog import (
    BY_NAME,
    SETTINGS,
    Check,
    Choice,
    Number,
    SettingSpec,
    Text,
)
from loto_app.live.input.program_form import (
    DEFAULT_TYPE,
    EDIT_STEPS,
    MAX_WINNERS,
    REMOTE_WARNING,
    STEPS,
    GameDraft,
    OfferDraft,
    StageDraft,
)
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.organisation_setup import EveningSetup

P = OrganisationState  # the sign-in and the evening
F = EveningSetup  # the new evening's form

#: the types a game may be, in the registry's order (`domain.games.GAME_TYPES`): the form
#: derives everything else of a game from its type
TYPES: list[GameType] = list(GAME_TYPES.values())
#: a tie rule's name longer than this is said whole under its menu
LONG_TIE = 28


def _text_input(name: str, value: Any, testid: str, **props: Any) -> rx.Component:
    return rx.input(
        id=testid,
        value=value,
        on_change=lambda v: F.set_field(name, v),
        custom_attrs=tid(testid),
        width="100%",
        **{**FIELD, **props},
    )


def _radio(name: str, value: Any, options: list[tuple[str, str, str]]) -> rx.Component:
    return radio_cards(name, value, options, lambda v: F.set_field(name, v))


# ---------------------------------------------------------------------------- the new evening


def _evening_fields() -> rx.Component:
    return section(
        "La soirée",
        rx.grid(
            field("Nom de la soirée", _text_input("name", F.name, "org-name"), "org-name"),
            field(
                "Date",
                _text_input("date", F.date, "org-date", type="date"),
                "org-date",
            ),
            field(
                "Code de série",
                _text_input("series", F.series, "org-series", max_length=16),
                "org-series",
                "Annoncé au début : il figure sur chaque carton.",
            ),
            columns=rx.breakpoints(initial="1", md="3"),
            spacing="4",
            width="100%",
        ),
        testid="org-evening",
    )


def _setting(spec: SettingSpec) -> list[rx.Component]:
    """A setting of the evening on the form, as its catalog entry describes it."""
    name, value, c = spec.form_name, getattr(F, spec.form_name), spec.control
    if isinstance(c, Check):
        return [check(spec.label, value, lambda v: F.set_field(name, v), spec.test_id)]
    if isinstance(c, Choice):
        options = [(o.form, o.title, o.detail) for o in c.options]
        return [rx.text(spec.label, **LABEL), _radio(name, value, options)]
    props: dict[str, Any] = (
        {"placeholder": c.placeholder} if isinstance(c, Text) and c.placeholder else {}
    )
    if isinstance(c, Number):
        props = {"type": "number", "min": c.low, "max": c.high, "input_mode": "numeric"}
    control = _text_input(name, value, spec.test_id, **props)
    return [field(spec.label, control, spec.test_id, spec.help)]


def _how_fields() -> rx.Component:
    return section(
        "Déroulement",
        *[c for spec in SETTINGS if spec.section == "how" for c in _setting(spec)],
        testid="org-how",
    )


def _remote_fields() -> rx.Component:
    return section(
        BY_NAME["remote_play"].label,
        rx.el.label(
            rx.switch(
                checked=F.remote_play,
                on_change=lambda v: F.set_field("remote_play", v),
                size="3",
                custom_attrs=tid("org-remote"),
            ),
            rx.text(
                rx.cond(F.remote_play, "Activé", "Désactivé (conseillé)"),
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
            F.remote_play,
            rx.vstack(
                rx.callout.root(
                    rx.callout.text(WARNING_TITLE, font_weight="700", font_size="1.15rem"),
                    *(rx.callout.text(line) for line in REMOTE_WARNING),
                    color_scheme="orange",
                    size="3",
                    custom_attrs=tid("org-remote-warning", role="note"),
                ),
                check(
                    CONFIRM_LABEL,
                    F.remote_ack,
                    lambda v: F.set_field("remote_ack", v),
                    "org-remote-ack",
                ),
                field(
                    CAP_LABEL,
                    _text_input(
                        "remote_cap",
                        F.remote_cap,
                        "org-remote-cap",
                        input_mode="numeric",
                        max_length=3,
                        max_width="10rem",
                    ),
                    "org-remote-cap",
                    f"Obligatoire, de 1 à {MAX_REMOTE_CAP}{NBSP}: au-delà, la soirée refuse "
                    "les joueurs à distance. Les invitations se créent ensuite, dans "
                    f"«{NBSP}Invitations{NBSP}», une par personne.",
                ),
                rx.text(LIVE_ONLY, color=MUTED),
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
                rx.cond(
                    st.required,
                    rx.text(
                        st.label,
                        font_size="1.1rem",
                        font_weight="700",
                        min_height="2.5rem",
                        display="flex",
                        align_items="center",
                        custom_attrs=tid(f"{pre}-name"),
                    ),
                    check(
                        st.label,
                        st.on,
                        lambda v: F.set_stage_field(i, j, "on", v),
                        f"{pre}-on",
                    ),
                ),
                min_width=["auto", "10.5rem"],
            ),
            rx.cond(st.jackpot, _within_field(st, i, j)),
            rx.cond(
                st.on,
                rx.flex(
                    rx.input(
                        value=st.description,
                        on_change=lambda v: F.set_stage_field(i, j, "description", v),
                        placeholder="Lot (ex. Panier garni)",
                        custom_attrs=tid(f"{pre}-desc", **{"aria-label": f"Lot : {st.label}"}),
                        flex="3 1 14rem",
                        **FIELD,
                    ),
                    rx.hstack(
                        rx.input(
                            value=st.value,
                            on_change=lambda v: F.set_stage_field(i, j, "value", v),
                            placeholder="Valeur",
                            custom_attrs=tid(
                                f"{pre}-value",
                                inputmode="decimal",
                                **{"aria-label": f"Valeur en euros : {st.label}"},
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
                check(
                    "Divisible (bons d'achat…)",
                    st.divisible,
                    lambda v: F.set_stage_field(i, j, "divisible", v),
                    f"{pre}-divisible",
                ),
                check(
                    "Lot en argent",
                    st.cash,
                    lambda v: F.set_stage_field(i, j, "cash", v),
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


def _within_field(st: StageDraft, i: Any, j: Any) -> rx.Component:
    """The jackpot's "en N numéros"."""
    pre = f"stage-{i}-{j}"
    return rx.hstack(
        rx.el.label("en", html_for=f"{pre}-within", font_size="1.1rem"),
        rx.input(
            id=f"{pre}-within",
            value=st.within,
            on_change=lambda v: F.set_stage_field(i, j, "within", v),
            custom_attrs=tid(
                f"{pre}-within",
                inputmode="numeric",
                **{"aria-label": "Jackpot : nombre de numéros tirés au plus"},
            ),
            width="4.5rem",
            max_length=2,
            **FIELD,
        ),
        rx.text("numéros au plus", font_size="1.1rem"),
        align="center",
        spacing="2",
    )


def _locked_stage(st: StageDraft) -> rx.Component:
    return rx.cond(
        st.on,
        rx.text(rx.text.strong(f"{st.label} : "), st.description, font_size="1.1rem"),
    )


def _locked_game(g: GameDraft, i: Any) -> rx.Component:
    """A game already started (editing an evening): shown as it is played, not editable."""
    return rx.box(
        rx.flex(
            rx.heading(f"Partie {i + 1}", as_="h3", size="5"),
            rx.text(_type_label(g), font_weight="700"),
            rx.badge(g.note, size="3", color_scheme="gray", variant="surface"),
            rx.text("ne se modifie plus", color=MUTED),
            gap="0.75rem",
            wrap="wrap",
            align="center",
        ),
        rx.foreach(g.stages, _locked_stage),
        padding="0.75rem 1rem",
        border=f"2px dashed {SECTION_LINE}",
        border_radius="0.6rem",
        background=PAPER,
        width="100%",
        custom_attrs=tid(f"game-{i}", **{"data-locked": "true"}),
    )


def _game_card(g: GameDraft, i: Any) -> rx.Component:
    return rx.cond(g.locked, _locked_game(g, i), _open_game(g, i))


def _type_label(g: GameDraft) -> Any:
    return rx.match(g.type, *[(t.name, t.label) for t in TYPES], g.type)


def _kind_many(kind: Any) -> Any:
    """The kind's cartons ("cartons verts")."""
    return rx.match(kind, *[(k.value, d.many) for k, d in KINDS.items()], kind)


def _labelled(label: str, control: rx.Component, html_for: Any, hint: Any = "") -> rx.Component:
    """A small control of a game with its label above (a select), and a hint below."""
    return rx.vstack(
        rx.el.label(label, html_for=html_for, **LABEL),
        control,
        rx.cond(hint != "", rx.text(hint, color=MUTED, font_size="0.95rem")),
        spacing="1",
        align="stretch",
        flex="1 1 14rem",
    )


def _select(testid: Any, value: Any, options: list[tuple[str, str]], on_change: Any) -> Any:
    return rx.el.select(
        *[rx.el.option(label, value=v) for v, label in options],
        id=testid,
        value=value,
        on_change=on_change,
        custom_attrs=tid(testid),
        width="100%",
        **NATIVE_SELECT,
    )


def _game_head(g: GameDraft, i: Any) -> rx.Component:
    """An open game's type and title."""
    return rx.flex(
        rx.el.select(
            *[rx.el.option(t.label, value=t.name) for t in TYPES],
            value=g.type,
            on_change=lambda v: F.set_game_type(i, v),
            custom_attrs=tid(f"game-{i}-type", **{"aria-label": f"Type de la partie {i + 1}"}),
            **NATIVE_SELECT,
        ),
        rx.input(
            value=g.title,
            on_change=lambda v: F.set_game_title(i, v),
            placeholder="Titre (facultatif)",
            custom_attrs=tid(f"game-{i}-title", **{"aria-label": f"Titre de la partie {i + 1}"}),
            flex="1 1 12rem",
            **FIELD,
        ),
        gap="0.75rem",
        wrap="wrap",
        flex="1 1 20rem",
        align="center",
    )


def _type_fields(t: GameType, g: GameDraft, i: Any) -> rx.Component:
    """What a game of this type asks besides its lots: its cartons (when it may play
    several kinds), its winners (successive winners), its tie rule."""
    kinds = [(k.value, KINDS[k].many.capitalize()) for k in t.kinds]
    parts = []
    if len(kinds) > 1:
        parts.append(
            _labelled(
                "Cartons joués",
                _select(f"game-{i}-kind", g.kind, kinds, lambda v: F.set_game_kind(i, v)),
                f"game-{i}-kind",
            )
        )
    else:
        parts.append(
            rx.vstack(
                rx.text("Cartons joués", **LABEL),
                rx.text(
                    kinds[0][1],
                    font_size="1.1rem",
                    min_height="2.75rem",
                    display="flex",
                    align_items="center",
                    custom_attrs=tid(f"game-{i}-kind-only"),
                ),
                spacing="1",
                flex="1 1 14rem",
            )
        )
    if t.repeats:
        parts.append(
            _labelled(
                "Nombre de gagnants",
                _select(
                    f"game-{i}-winners",
                    g.stages.length().to_string(),
                    [(str(n), str(n)) for n in range(1, MAX_WINNERS + 1)],
                    lambda v: F.set_game_winners(i, v),
                ),
                f"game-{i}-winners",
            )
        )
        if len(t.patterns) > 1:
            parts.append(
                _labelled(
                    "Figure gagnante",
                    _select(
                        f"game-{i}-pattern",
                        g.stages[0].pattern,
                        [(p.value, PATTERN_LABELS[p]) for p in t.patterns],
                        lambda v: F.set_game_winners(i, g.stages.length(), v),
                    ),
                    f"game-{i}-pattern",
                )
            )
    parts.append(
        _labelled(
            "Ex aequo",
            _select(
                f"game-{i}-tie",
                g.tie,
                [(r.value, TIE_LABELS[r]) for r in t.ties],
                lambda v: F.set_game_tie(i, v),
            ),
            f"game-{i}-tie",
            rx.match(
                g.tie,
                ("", "La règle choisie pour toute la soirée, à l'étape 4 « Réglages »."),
                # (a long name, cut in its menu on a phone, said whole below it)
                *[(r.value, TIE_LABELS[r]) for r in t.ties if len(TIE_LABELS[r]) > LONG_TIE],
                "",
            ),
        )
    )
    return rx.vstack(
        rx.text(
            t.summary[0].upper() + t.summary[1:] + ".",
            color=MUTED,
            margin_top="0.5rem",
            custom_attrs=tid(f"game-{i}-summary-text"),
        ),
        rx.flex(*parts, gap="0.75rem", wrap="wrap", width="100%"),
        spacing="2",
        width="100%",
        align="stretch",
    )


def _game_details(g: GameDraft, i: Any) -> rx.Component:
    """An open game's type's fields (the page derives them from its type)."""
    return rx.match(
        g.type,
        *[(t.name, _type_fields(t, g, i)) for t in TYPES],
        rx.fragment(),
    )


def _lot_word(st: StageDraft) -> rx.Component:
    return rx.cond(
        st.on | st.required,
        rx.text(
            rx.text.strong(st.label, rx.cond(st.jackpot, f" en {st.within} numéros", ""), " : "),
            st.description,
            as_="span",
        ),
    )


def _game_line(g: GameDraft, i: Any) -> rx.Component:
    """A folded game: its type, its cartons and its lots, on one line."""
    return rx.flex(
        rx.badge(_type_label(g), size="3", variant="surface", color_scheme="gray"),
        rx.text(_kind_many(g.kind), as_="span", color=MUTED),
        rx.flex(rx.foreach(g.stages, _lot_word), gap="0 1rem", wrap="wrap"),
        rx.cond(
            g.tie != "",
            rx.text(
                "Ex aequo : ",
                rx.match(g.tie, *[(r.value, TIE_LABELS[r]) for r in TIE_LABELS], g.tie),
                as_="span",
                color=MUTED,
            ),
        ),
        gap="0.6rem",
        wrap="wrap",
        align="center",
        flex="1 1 16rem",
        font_size="1.05rem",
        custom_attrs=tid(f"game-{i}-summary"),
    )


def _open_game(g: GameDraft, i: Any) -> rx.Component:
    """A game not started: folded to a line, or open with its lots (one at a time)."""
    last = F.games.length() - 1
    shown = F.open_game == i
    return rx.box(
        rx.flex(
            rx.heading(f"Partie {i + 1}", as_="h3", size="5", min_width="6.5rem"),
            rx.cond(shown, _game_head(g, i), _game_line(g, i)),
            rx.hstack(
                rx.button(
                    rx.cond(shown, "Replier", "Modifier"),
                    on_click=F.show_game(i),
                    variant=rx.cond(shown, "soft", "solid"),
                    size="3",
                    custom_attrs=tid(
                        f"game-{i}-open", **{"aria-expanded": rx.cond(shown, "true", "false")}
                    ),
                ),
                rx.icon_button(
                    rx.icon("arrow-up"),
                    on_click=F.move_game(i, -1),
                    disabled=i <= F.locked_count,  # (never above a game started)
                    variant="soft",
                    size="3",
                    custom_attrs=tid(f"game-{i}-up", **{"aria-label": "Monter la partie"}),
                ),
                rx.icon_button(
                    rx.icon("arrow-down"),
                    on_click=F.move_game(i, 1),
                    disabled=i == last,
                    variant="soft",
                    size="3",
                    custom_attrs=tid(f"game-{i}-down", **{"aria-label": "Descendre la partie"}),
                ),
                rx.icon_button(
                    rx.icon("trash-2"),
                    on_click=F.remove_game(i),
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
        rx.cond(shown, _game_details(g, i)),
        rx.cond(shown, rx.foreach(g.stages, lambda st, j: _stage_row(st, i, j))),
        padding="0.75rem 1rem",
        border=f"2px solid {SECTION_LINE}",
        border_left=f"0.4rem solid {ACCENT}",
        border_radius="0.6rem",
        background=PAPER,
        width="100%",
        custom_attrs=tid(f"game-{i}"),
    )


def _program_fields() -> rx.Component:
    return section(
        "Programme des parties",
        rx.text(
            "Pour chaque partie, choisissez son type : ses lots, ses cartons et la règle des ex "
            "aequo en découlent. Les lots d'une partie se jouent sur un même tirage, dans "
            "l'ordre. Les lots en argent sont interdits.",
            color=MUTED,
        ),
        rx.cond(
            F.mode == "edit",
            rx.text(F.edit_note, font_weight="700", custom_attrs=tid("org-edit-note")),
        ),
        rx.foreach(F.games, _game_card),
        rx.button(
            "+ Ajouter une partie",
            on_click=F.add_game(DEFAULT_TYPE),
            variant="outline",
            size="3",
            align_self="start",
            custom_attrs=tid("add-game"),
        ),
        rx.cond(
            F.tariff_note != "",
            rx.callout(
                F.tariff_note,
                icon="info",
                color_scheme="indigo",
                size="2",
                custom_attrs=tid("org-tariff-added", role="status"),
            ),
        ),
        rx.button(
            rx.cond(F.mode == "edit", "Annuler mes changements", "Revenir au programme type"),
            on_click=F.reset_form,
            variant="ghost",
            size="3",
            align_self="start",
            custom_attrs=tid("org-reset"),
        ),
        testid="org-program",
    )


def _nouns(kind: Kind) -> tuple[str, str]:
    """What a tariff line of this kind counts: one, many."""
    d = KINDS[kind]
    if d.unit > 1:
        return "vitrine", "vitrines"
    return ("grille", "grilles") if d.grid is Grid.MAXI else ("carton", "cartons")


def _offer_noun(o: OfferDraft) -> Any:
    """What a tariff line counts, by its kind ("1 carton", "3 vitrines", "2 grilles")."""
    return rx.match(
        o.kind,
        *[(k.value, rx.cond(o.quantity == "1", _nouns(k)[0], _nouns(k)[1])) for k in Kind],
        "cartons",
    )


def _offer_row(o: OfferDraft, k: Any, group: Any) -> rx.Component:
    """A tariff line in its kind's group: how many, for how much, a planche where the kind
    sells as one (in the group of kinds no game plays, its kind's name first)."""
    pre = f"offer-{k}"
    return rx.box(
        rx.cond(
            group["kind"] == "",
            rx.text(
                rx.match(o.kind, *[(kd.value, d.title) for kd, d in KINDS.items()], o.kind),
                font_weight="700",
            ),
        ),
        rx.flex(
            rx.hstack(
                rx.input(
                    value=o.quantity,
                    on_change=lambda v: F.set_offer_field(k, "quantity", v),
                    custom_attrs=tid(
                        f"{pre}-quantity", inputmode="numeric", **{"aria-label": "Quantité"}
                    ),
                    width="4rem",
                    **FIELD,
                ),
                rx.text(_offer_noun(o), " pour", font_size="1.1rem", white_space="nowrap"),
                rx.input(
                    value=o.price,
                    on_change=lambda v: F.set_offer_field(k, "price", v),
                    custom_attrs=tid(
                        f"{pre}-price", inputmode="decimal", **{"aria-label": "Prix en euros"}
                    ),
                    width="5.5rem",
                    **FIELD,
                ),
                rx.text("€", font_size="1.15rem"),
                align="center",
                spacing="2",
            ),
            rx.cond(
                group["planche"] != "",
                check(
                    "Planche de 6",
                    o.planche,
                    lambda v: F.set_offer_field(k, "planche", v),
                    f"{pre}-planche",
                ),
            ),
            rx.icon_button(
                rx.icon("trash-2"),
                on_click=F.remove_offer(k),
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
        custom_attrs={"data-kind": o.kind},
    )


def _offer_group(group: Any) -> rx.Component:
    """The prices of one kind of cartons played (or of the kinds no game plays)."""
    return rx.box(
        rx.heading(group["title"], as_="h3", size="4"),
        rx.text(group["games"], color=MUTED),
        rx.foreach(
            F.offers,
            lambda o, k: rx.cond(F.offer_groups[k] == group["kind"], _offer_row(o, k, group)),
        ),
        rx.cond(
            group["priced"] == "",
            rx.text(
                "Aucun prix : ces cartons ne pourront pas être vendus.",
                color=ACCENT,
                font_weight="700",
                custom_attrs=tid(f"offers-{group['id']}-missing", role="alert"),
            ),
        ),
        rx.cond(
            group["add"] != "",
            rx.button(
                "+ Ajouter un prix",
                on_click=F.add_offer(group["kind"]),
                variant="outline",
                size="3",
                margin_top="0.4rem",
                custom_attrs=tid(f"add-offer-{group['id']}", **{"aria-label": group["add"]}),
            ),
        ),
        padding=["0.6rem", "0.75rem 1rem"],
        border=f"2px solid {SECTION_LINE}",
        border_radius="0.6rem",
        background=PAPER,
        width="100%",
        custom_attrs=tid(f"offers-{group['id']}"),
    )


def _offer_fields() -> rx.Component:
    return section(
        "Prix des cartons",
        rx.text(LEGAL_PRICE_MESSAGE, color=MUTED),
        rx.cond(
            F.mode == "edit",
            rx.text(
                "Les cartons déjà vendus gardent le prix payé ; "
                "un nouveau prix vaut pour les ventes à venir.",
                font_weight="700",
                custom_attrs=tid("org-tariff-note"),
            ),
        ),
        rx.foreach(F.tariff_groups, _offer_group),
        rx.button(
            "Remettre le tarif habituel",
            on_click=F.usual_offers,
            variant="soft",
            size="3",
            align_self="start",
            custom_attrs=tid("usual-offers"),
        ),
        testid="org-offers",
    )


def _step_button(number: int, title: str) -> rx.Component:
    here = F.step == number
    return rx.button(
        rx.text(f"{number}. {title}"),
        on_click=F.go_step(number),
        variant=rx.cond(here, "solid", "outline"),
        size="3",
        flex="1 1 9rem",
        min_height="3rem",
        font_size="1.05rem",
        font_weight="700",
        custom_attrs=tid(f"step-{number}", **{"aria-current": rx.cond(here, "step", "false")}),
    )


def _steps(steps: tuple[tuple[int, str], ...]) -> rx.Component:
    """The form's steps: one row of buttons (the form shows one step at a time)."""
    return rx.el.nav(
        rx.flex(*[_step_button(n, t) for n, t in steps], gap="0.5rem", wrap="wrap"),
        aria_label="Étapes du formulaire",
        width="100%",
        custom_attrs=tid("org-steps"),
    )


def _key_field() -> rx.Component:
    return rx.cond(
        F.key_required,
        field(
            "Clé de l'association (donnée par l'hébergeur du loto)",
            _text_input("create_key", F.create_key, "org-create-key", type="password"),
            "org-create-key",
        ),
    )


def _step_content() -> rx.Component:
    return rx.match(
        F.step,
        (1, rx.vstack(_evening_fields(), _key_field(), spacing="4", align="stretch")),
        (2, _program_fields()),
        (3, _offer_fields()),
        _fragment_how(),
    )


def _fragment_how() -> rx.Component:
    return rx.vstack(_how_fields(), _remote_fields(), spacing="4", align="stretch")


def _nav_buttons(first: int) -> rx.Component:
    """Previous / next step."""
    return rx.flex(
        rx.button(
            "← Précédent",
            on_click=F.go_step(F.step - 1),
            disabled=F.step <= first,
            variant="outline",
            size="3",
            custom_attrs=tid("step-prev"),
        ),
        rx.button(
            "Suivant →",
            on_click=F.go_step(F.step + 1),
            disabled=F.step >= 4,
            variant="outline",
            size="3",
            custom_attrs=tid("step-next"),
        ),
        gap="0.75rem",
        justify="between",
        wrap="wrap",
        width="100%",
    )


def create_form() -> rx.Component:
    """The new evening's form, in steps, with the button that creates it on every step (the
    form starts filled with a typical evening)."""
    return rx.vstack(
        _steps(STEPS),
        _step_content(),
        _nav_buttons(1),
        rx.box(
            error(F.form_error, "org-form-error"),
            rx.text(
                "Tout est prérempli avec une soirée type : vous pouvez créer la soirée à "
                "n'importe quelle étape et la modifier ensuite.",
                color=MUTED,
            ),
            big_button(
                rx.cond(F.creating, "Création…", "Créer la soirée"),
                "org-create",
                on_click=F.create_evening,
                loading=F.creating,
                width="100%",
                margin_top="0.75rem",
            ),
            width="100%",
        ),
        spacing="4",
        width="100%",
        align="stretch",
    )


def edit_program() -> rx.Component:
    """The signed-in organiser's evening: its program, and the same form, in steps, to
    change what may still change."""
    return section(
        "Programme, lots et tarif",
        rx.cond(
            F.saved_message != "",
            rx.callout(
                F.saved_message,
                icon="check",
                color_scheme="green",
                size="2",
                custom_attrs=tid("org-edit-saved", role="status"),
            ),
        ),
        rx.cond(
            F.mode == "edit",
            rx.vstack(
                _steps(EDIT_STEPS),
                _step_content(),
                _nav_buttons(2),
                error(F.form_error, "org-form-error"),
                rx.flex(
                    big_button(
                        rx.cond(F.creating, "Enregistrement…", "Enregistrer les modifications"),
                        "org-edit-save",
                        on_click=F.save_edit,
                        loading=F.creating,
                        flex="2 1 16rem",
                    ),
                    big_button(
                        "Fermer sans enregistrer",
                        "org-edit-cancel",
                        on_click=F.cancel_edit,
                        variant="outline",
                        flex="1 1 12rem",
                        font_size=None,
                        font_weight=None,
                    ),
                    gap="0.75rem",
                    wrap="wrap",
                    width="100%",
                ),
                spacing="4",
                width="100%",
                align="stretch",
            ),
            rx.vstack(
                rx.text(
                    "Les parties qui n'ont pas commencé, leurs lots, le tarif et les réglages "
                    "se modifient jusqu'au début de chaque partie.",
                ),
                big_button(
                    "Modifier le programme, les lots ou le tarif",
                    "org-edit-open",
                    on_click=F.open_edit,
                    width="100%",
                    font_size=None,
                    font_weight=None,
                ),
                spacing="3",
                width="100%",
                align="stretch",
            ),
        ),
        testid="org-edit",
    )


def credentials() -> rx.Component:
    """The new evening's code and secrets, shown once after creating it."""
    return rx.cond(
        F.created,
        rx.box(
            rx.heading("Soirée créée : notez ces informations", as_="h2", size="6"),
            rx.callout(
                "Elles ne seront plus affichées. Écrivez-les sur papier ou enregistrez-les en "
                "lieu sûr : sans le secret de l'organisateur, personne ne peut gérer la soirée.",
                icon="triangle_alert",
                color_scheme="orange",
                size="3",
                margin_y="0.75rem",
            ),
            rx.vstack(
                secret_line("Code de la soirée", F.new_code, "new-code"),
                secret_line("Secret de l'animateur", F.new_animateur_secret, "new-animateur"),
                secret_line("Secret de l'organisateur", F.new_organiser_secret, "new-organiser"),
                spacing="3",
                align="stretch",
            ),
            big_button(
                "C'est noté",
                "credentials-done",
                on_click=F.dismiss_credentials,
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
