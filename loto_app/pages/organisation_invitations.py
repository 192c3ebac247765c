"""`/organisation`, the remote players' invitations (remote play on): the member list typed
or pasted, one personal link a name, and who has joined against the cap
(`EveningInvitations`, live/states/organisation_invitations.py)."""

from __future__ import annotations

import reflex as rx

from loto_app.components.form import FIELD, outcome, section, submit_button
from loto_app.components.palette import LINE, MUTED
from loto_app.components.ui import tid
from loto_app.domain.remote import LIVE_ONLY, NBSP
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.organisation_invitations import EveningInvitations, InvitationView

P = OrganisationState
V = EveningInvitations


def _row(i: InvitationView) -> rx.Component:
    return rx.flex(
        rx.text(i.name, font_weight="700", font_size="1.15rem", flex="1 1 9rem"),
        rx.badge(
            rx.cond(i.used, "A rejoint (lien utilisé)", "Pas encore utilisé"),
            size="3",
            color_scheme=rx.cond(i.used, "green", "gray"),
            high_contrast=True,
        ),
        rx.link(
            i.link,
            href=i.link,
            word_break="break-all",
            font_size="1rem",
            flex="1 1 20rem",
            custom_attrs=tid(f"invitation-link-{i.no}"),
        ),
        rx.button(
            "Copier le lien",
            on_click=rx.set_clipboard(i.link),
            variant="outline",
            size="3",
            custom_attrs=tid(f"invitation-copy-{i.no}"),
        ),
        gap="0.4rem 0.6rem",
        wrap="wrap",
        align="center",
        padding_y="0.5rem",
        border_top=f"1px solid {LINE}",
        custom_attrs=tid(f"invitation-{i.no}"),
    )


def invitations() -> rx.Component:
    """The invitations section (shown when remote play is on)."""
    return rx.cond(
        P.evening_remote,
        section(
            "Invitations (jeu à distance)",
            rx.text(
                f"Seules les personnes invitées par l'association jouent à distance{NBSP}: "
                "écrivez ou collez la liste des membres, un nom par ligne. Chacun reçoit son "
                "propre lien, qui ne sert que sur un seul téléphone (le sien peut revenir).",
                color=MUTED,
            ),
            rx.text(LIVE_ONLY, color=MUTED),
            rx.text(
                f"Joueurs à distance{NBSP}: {V.remote_players} sur {V.remote_cap} au maximum",
                rx.cond(V.remote_players >= V.remote_cap, f" (complet{NBSP}: plus de place)", ""),
                font_weight="700",
                font_size="1.15rem",
                custom_attrs=tid("remote-count"),
            ),
            rx.form(
                rx.vstack(
                    rx.el.label(
                        "Membres invités (un nom par ligne)",
                        html_for="invite-names",
                        font_weight="700",
                    ),
                    rx.text_area(
                        id="invite-names",
                        name="names",
                        rows="5",
                        placeholder="ex. Marie Dupont",
                        custom_attrs=tid("invite-names"),
                        width="100%",
                        **FIELD,
                    ),
                    submit_button("Créer les invitations", "invite-create", type="submit"),
                    align="stretch",
                    width="100%",
                ),
                on_submit=V.invite,
                reset_on_submit=True,
            ),
            outcome(V.invite_message, V.invite_ok, "invite-message"),
            rx.cond(
                V.invitations.length() > 0,
                rx.vstack(
                    rx.foreach(V.invitations, _row),
                    rx.button(
                        "Actualiser la liste",
                        on_click=V.refresh_invitations,
                        variant="outline",
                        size="3",
                        custom_attrs=tid("invite-refresh"),
                    ),
                    spacing="0",
                    align="stretch",
                    custom_attrs=tid("invitation-list"),
                ),
            ),
            testid="org-invitation",
        ),
    )
