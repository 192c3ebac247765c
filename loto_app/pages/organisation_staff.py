"""`/organisation`, the staff task: who may sign in to the evening (the desk's members, the
animateur's secret; `EveningStaff`, live/states/organisation_staff.py)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.form import (
    FIELD,
    NATIVE_SELECT,
    button_row,
    error,
    notice,
    secret_line,
    section,
    submit_button,
)
from loto_app.components.palette import LINE, MUTED
from loto_app.components.ui import tid
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.organisation_staff import EveningStaff, StaffView

P = OrganisationState  # the sign-in and the evening
T = EveningStaff  # who may sign in


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
                on_click=T.set_staff_active(m.id, False),
                color_scheme="red",
                variant="outline",
                size="3",
                custom_attrs=tid(f"staff-withdraw-{m.name}"),
            ),
            rx.button(
                "Rendre l'accès",
                on_click=T.set_staff_active(m.id, True),
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


def staff() -> rx.Component:
    """The desk's members: add one (its secret shown once), withdraw or give back an access."""
    return section(
        "L'équipe de la caisse",
        rx.text(
            "Chaque vendeur ou caissier reçoit son propre secret pour la page Caisse ; un "
            "contrôleur, pour la page Contrôle (vérifier les cartons papier aux tables, avec "
            "l'appareil photo du téléphone).",
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
                    rx.el.option("Contrôleur (cartons papier)", value="controleur"),
                    name="role",
                    default_value="vendeur",
                    custom_attrs=tid("staff-role", **{"aria-label": "Rôle"}),
                    **NATIVE_SELECT,
                ),
                submit_button("Ajouter", "staff-add", type="submit"),
                gap="0.6rem",
                wrap="wrap",
                align="center",
            ),
            on_submit=T.add_staff,
            reset_on_submit=True,
        ),
        error(T.staff_message, "staff-message"),
        rx.cond(
            T.new_staff_secret != "",
            notice(
                rx.text(
                    f"Secret de {T.new_staff_name} ({T.new_staff_role}) — à noter, il ne sera "
                    "plus affiché :",
                    font_weight="700",
                ),
                rx.code(
                    T.new_staff_secret,
                    size="7",
                    variant="outline",
                    custom_attrs=tid("staff-secret"),
                ),
                submit_button(
                    "C'est noté",
                    "staff-secret-done",
                    on_click=T.hide_staff_secret,
                    margin_left="1rem",
                ),
            ),
        ),
        rx.cond(
            T.staff.length() == 0,
            rx.text("Personne pour l'instant.", color=MUTED),
            rx.box(rx.foreach(T.staff, _staff_row), custom_attrs=tid("staff-list")),
        ),
        testid="org-staff",
    )


def animateur_secret() -> rx.Component:
    """Renew the animateur's secret (a lost tablet): asks once, shows the new secret once."""
    return section(
        "Le secret de l'animateur",
        rx.text(
            "Tablette perdue ou secret divulgué : un nouveau secret déconnecte toutes les "
            "tablettes qui utilisaient l'ancien.",
            color=MUTED,
        ),
        rx.cond(
            T.renew_animateur_asked,
            notice(
                rx.text(
                    "Renouveler le secret ? Les tablettes connectées devront se reconnecter "
                    "avec le nouveau.",
                    font_weight="700",
                ),
                button_row(
                    rx.button(
                        "Oui, renouveler",
                        on_click=T.renew_animateur_secret,
                        color_scheme="red",
                        size="3",
                        font_weight="700",
                        custom_attrs=tid("animateur-renew-confirm"),
                    ),
                    rx.button(
                        "Annuler",
                        on_click=T.cancel_renew_animateur,
                        variant="outline",
                        size="3",
                        custom_attrs=tid("animateur-renew-cancel"),
                    ),
                ),
            ),
            rx.button(
                "Renouveler le secret de l'animateur",
                on_click=T.ask_renew_animateur,
                variant="outline",
                size="3",
                custom_attrs=tid("animateur-renew"),
            ),
        ),
        rx.cond(
            T.renewed_animateur_secret != "",
            notice(
                secret_line(
                    "Nouveau secret de l'animateur",
                    T.renewed_animateur_secret,
                    "animateur-new-secret",
                ),
                rx.text("À noter : il ne sera plus affiché.", color=MUTED),
                rx.button(
                    "C'est noté",
                    on_click=T.hide_renewed_animateur_secret,
                    size="3",
                    font_weight="700",
                    custom_attrs=tid("animateur-new-secret-done"),
                ),
            ),
        ),
        testid="org-animateur",
    )
