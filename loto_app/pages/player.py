"""`/jouer` (and `/` once joined): my cartons, the last number, the claim button, my lots."""

from __future__ import annotations

import reflex as rx

from loto_app.components.board import board
from loto_app.components.carton import CLAIMED_NOW, MY_NUMBER, carton_card
from loto_app.components.control import LAST_CALL_NOTE, last_call_banner
from loto_app.components.draw_note import phone_draw_note
from loto_app.components.media import lot_thumbnail
from loto_app.components.palette import (
    ACCENT,
    CELL_BORDER,
    CHECK_BG,
    CHECK_LINE,
    DRAWN,
    INK,
    LINE,
    MUTED,
    ORDER_BG,
    PAPER,
    TIE_BG,
    TIE_LINE,
    WIN_LINE,
    step,
)
from loto_app.components.qr import qr_code
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.sound import sound_assets, unlock_button
from loto_app.components.ui import announcement_box, big_button, page_shell, quiet_button, tid
from loto_app.domain.events import HALF
from loto_app.domain.till import DESK_QR_PREFIX
from loto_app.live.states.hall import HallView
from loto_app.live.states.player import SHOW_JOUER, PlayerState
from loto_app.live.states.player import TITLE as PLAYER_TITLE
from loto_app.live.states.prefs import Prefs
from loto_app.pages import join
from loto_app.wording import HALF_LOT

TITLE = PLAYER_TITLE


def _header() -> rx.Component:
    return rx.hstack(
        rx.box(
            rx.text("Dernier numéro", font_size="1rem", color=MUTED),
            rx.text(
                rx.cond(HallView.last > 0, HallView.last.to_string(), "–"),
                font_size="3.5rem",
                font_weight="900",
                line_height="1",
                color=ACCENT,
                # (a screen reader hears each number from the live region of `_listen`)
                custom_attrs=tid("last-number"),
            ),
            # "Répéter": the last number said again (the live region, and the phone's voice)
            quiet_button(
                "Répéter",
                "repeat-number",
                size="2",
                font_size="1rem",
                margin_top="0.2rem",
                custom_attrs={"aria-label": "Répéter le dernier numéro"},
            ),
            text_align="center",
            min_width="6rem",
        ),
        rx.vstack(
            rx.text(
                rx.cond(
                    HallView.game_no > 0,
                    f"Partie {HallView.game_no} / {HallView.games_total}",
                    "En attente de la première partie",
                ),
                font_weight="700",
            ),
            rx.cond(
                HallView.stage_label != "",
                rx.text(
                    f"{HallView.stage_label} : {HallView.lot_label}", custom_attrs=tid("stage")
                ),
            ),
            rx.text(
                f"{HallView.count} ",
                rx.cond(HallView.count > 1, "numéros sortis", "numéro sorti"),
                color=MUTED,
            ),
            spacing="0",
            align="start",
            flex="1",
        ),
        lot_thumbnail(),
        width="100%",
        align="center",
        position="sticky",
        top="0",
        z_index="5",
        background=PAPER,
        padding_y="0.3rem",
        border_bottom=f"2px solid {LINE}",
    )


OVER = HallView.status == "over"


def _notice(
    *children: rx.Component, line: str, background: str, padding: str = "0.75rem", **props
) -> rx.Component:
    """A framed box of the page that wants the player's attention (a tie to settle, an order
    to pay, démarquage, a decision, a quine to look for): one look for all of them."""
    return rx.box(
        *children,
        padding=padding,
        border=f"3px solid {line}",
        border_radius="0.5rem",
        background=background,
        **props,
    )


def _messages() -> rx.Component:
    """One message area, what matters now: the answer to my last action (until the next
    number), else my verdict (until the next number, or démarquage), else the hall's announcement
    (which my verdict would only repeat)."""
    message_now = (
        (PlayerState.message != "")
        & (PlayerState.message_game == HallView.game_no)
        & (PlayerState.message_count == HallView.count)
    )
    verdict_now = (
        (PlayerState.verdict != "")
        & (PlayerState.verdict_game == HallView.game_no)
        & (PlayerState.verdict_count == HallView.count)
        & ~HallView.unmark_allowed
    )
    return rx.cond(
        message_now,
        rx.callout(
            PlayerState.message,
            color_scheme="orange",
            size="2",
            custom_attrs=tid("player-message", role="alert"),
            high_contrast=True,
        ),
        rx.cond(
            verdict_now,
            announcement_box(
                PlayerState.verdict,
                rx.match(
                    PlayerState.verdict_kind, ("valid", "winner"), ("false", "false"), "check"
                ),
                testid="verdict",
            ),
            rx.cond(
                HallView.announcement != "",
                announcement_box(HallView.announcement, HallView.announcement_kind),
            ),
        ),
    )


def _share_offer() -> rx.Component:
    """The share question of an ex aequo (art. 4): with whom, which lot, half each; a refusal
    means the token draw."""
    return rx.cond(
        PlayerState.share_offer,
        _notice(
            rx.text(
                f"Ex aequo avec {PlayerState.share_with} !",
                font_weight="900",
                font_size="1.3rem",
            ),
            rx.text(
                f"Partager le lot « {PlayerState.share_lot} » : moitié chacun ?",
                font_weight="800",
                font_size="1.15rem",
                custom_attrs=tid("share-question"),
            ),
            rx.text("Si l'un de vous refuse, un tirage au sort des jetons décide.", color=MUTED),
            rx.cond(
                PlayerState.share_answered,
                rx.text("Réponse envoyée. En attente de l'autre joueur.", font_weight="700"),
                rx.vstack(
                    big_button(
                        "Oui, moitié chacun",
                        "share-accept",
                        on_click=PlayerState.answer_share(True),
                        color_scheme="green",
                        width="100%",
                        white_space="normal",
                        height="auto",
                    ),
                    big_button(
                        "Non, tirage au sort",
                        "share-refuse",
                        on_click=PlayerState.answer_share(False),
                        color_scheme="gray",
                        variant="outline",
                        high_contrast=True,
                        width="100%",
                        white_space="normal",
                        height="auto",
                    ),
                    spacing="2",
                    width="100%",
                    margin_top="0.4rem",
                ),
            ),
            line=TIE_LINE,
            background=TIE_BG,
        ),
    )


def _tickets() -> rx.Component:
    return rx.cond(
        PlayerState.tickets.length() > 0,
        rx.box(
            rx.heading("Mes lots gagnés", size="5"),
            rx.foreach(
                PlayerState.tickets,
                lambda t: rx.box(
                    rx.text(f"Ticket n° {t.no} — {t.stage}", font_weight="700"),
                    rx.text(t.lot, rx.cond(t.share == HALF, f" ({HALF_LOT})", "")),
                    rx.cond(
                        t.voided,
                        rx.text(
                            "ANNULÉ par l'association : ce lot ne sera pas remis.",
                            font_weight="800",
                            color=step("red", 11),
                        ),
                        rx.text("Code à montrer au comptoir : ", rx.code(t.code, size="5")),
                    ),
                    padding="0.6rem",
                    border=rx.cond(
                        t.voided, f"2px dashed {step('red', 11)}", f"2px dashed {WIN_LINE}"
                    ),
                    border_radius="0.5rem",
                    margin_top="0.4rem",
                    custom_attrs=tid(
                        f"ticket-{t.no}", **{"data-voided": rx.cond(t.voided, "true", "false")}
                    ),
                ),
            ),
            custom_attrs=tid("tickets"),
        ),
    )


def _decisions() -> rx.Component:
    """The association's decisions that concern me (art. 8), newest first."""
    return rx.cond(
        PlayerState.decisions.length() > 0,
        _notice(
            rx.foreach(
                PlayerState.decisions,
                lambda d: rx.text(d, font_weight="700", padding_y="0.2rem"),
            ),
            line=TIE_LINE,
            background=TIE_BG,
            padding="0.6rem",
            custom_attrs=tid("decisions", role="status"),
        ),
    )


def _desk_code(testid: str = "desk-code") -> rx.Component:
    """My code for the desk, with its QR (the vendeur types or scans it)."""
    return rx.hstack(
        rx.code(PlayerState.desk_code, size="8", custom_attrs=tid(testid)),
        rx.cond(
            PlayerState.desk_code != "",
            qr_code(DESK_QR_PREFIX + PlayerState.desk_code, "QR code de mon code caisse", "8rem"),
        ),
        align="center",
        spacing="4",
        wrap="wrap",
    )


def _order_waiting() -> rx.Component:
    """At the top while an order waits: what to pay, the code to show, a way back."""
    return rx.cond(
        (PlayerState.orders.length() > 0) & ~OVER,
        _notice(
            rx.heading("À régler à la caisse", size="5"),
            rx.text(
                rx.cond(
                    PlayerState.remote,
                    "Réglez selon les consignes des organisateurs (par virement, vérifié "
                    "par le caissier, sans paiement en ligne)\u00a0: vos cartons arrivent ici "
                    "dès que la caisse confirme.",
                    "Montrez ce code à la caisse : vos cartons arrivent ici dès le paiement.",
                ),
                font_size="1.05rem",
            ),
            rx.cond(~PlayerState.remote, _desk_code()),
            rx.foreach(
                PlayerState.orders,
                lambda o: rx.hstack(
                    rx.text(
                        f"Commande n° {o.no} : {o.label} — {o.price}",
                        font_weight="700",
                        custom_attrs=tid(f"order-{o.no}"),
                    ),
                    rx.spacer(),
                    rx.button(
                        "Annuler",
                        on_click=PlayerState.cancel_order(o.no),
                        size="3",
                        variant="outline",
                        color_scheme="gray",
                        high_contrast=True,
                        min_height="2.75rem",
                        custom_attrs=tid(
                            f"cancel-order-{o.no}",
                            **{"aria-label": f"Annuler la commande n° {o.no}"},
                        ),
                    ),
                    align="center",
                    width="100%",
                    wrap="wrap",
                    padding_top="0.4rem",
                    border_top=f"1px solid {CHECK_LINE}",
                    margin_top="0.4rem",
                ),
            ),
            line=CHECK_LINE,
            background=ORDER_BG,
            custom_attrs=tid("orders"),
        ),
    )


def _offer(o) -> rx.Component:
    return big_button(
        (
            rx.text(o.label, font_weight="800", font_size="1.15rem"),
            rx.text(o.price, font_weight="600", font_size="1.1rem"),
        ),
        o.testid,
        on_click=PlayerState.choose(o.index),
        size="3",
        variant="outline",
        height="auto",
        padding_y="0.5rem",
        flex_direction="column",
        white_space="normal",
        font_size=None,
        font_weight=None,
    )


def _offer_group(g) -> rx.Component:
    """A kind's tariff lines, with the games it plays from now (public: it changes for every
    phone at once when a game's first number is drawn); gone when none is left."""
    games = HallView.kind_games[g.kind].to(str)
    return rx.cond(
        games != "",
        _offer_group_box(g, games),
    )


def _offer_group_box(g, games) -> rx.Component:
    return rx.box(
        rx.heading(g.title, size="4", as_="h3"),
        rx.text(g.look, font_size="1rem"),
        rx.text(games, font_size="1rem", font_weight="700", custom_attrs=tid(f"games-{g.kind}")),
        rx.grid(
            rx.foreach(g.offers, _offer),
            columns="2",
            gap="0.5rem",
            margin_top="0.4rem",
        ),
        padding="0.6rem",
        border=f"1px solid {LINE}",
        border_radius="0.5rem",
        background="white",
        custom_attrs=tid(f"offers-{g.kind}"),
    )


def _confirm_order() -> rx.Component:
    """Asked once before ordering, at the bottom of the screen whatever the scroll."""
    return rx.cond(
        PlayerState.chosen >= 0,
        rx.box(
            rx.text(
                rx.cond(
                    PlayerState.chosen_price == "offert",
                    f"Prendre {PlayerState.chosen_what} (offert) ?",
                    f"Commander {PlayerState.chosen_what} pour {PlayerState.chosen_price} ?",
                ),
                font_weight="800",
                font_size="1.25rem",
            ),
            rx.text(PlayerState.chosen_games, font_size="1rem"),
            rx.cond(
                PlayerState.chosen_price != "offert",
                rx.text("Vous réglerez à la caisse.", font_size="1rem"),
            ),
            rx.hstack(
                big_button(
                    rx.cond(
                        PlayerState.chosen_price == "offert", "Oui, les prendre", "Oui, commander"
                    ),
                    "buy-confirm",
                    on_click=PlayerState.confirm_order,
                    color_scheme="green",
                    flex="1",
                ),
                big_button(
                    "Non",
                    "buy-cancel",
                    on_click=PlayerState.unchoose,
                    color_scheme="gray",
                    variant="outline",
                    high_contrast=True,
                ),
                width="100%",
                margin_top="0.5rem",
            ),
            position="fixed",
            bottom="0",
            left="0",
            right="0",
            z_index="10",
            max_width="40rem",
            margin="0 auto",
            padding="1rem",
            background=PAPER,
            border_top=f"4px solid {CHECK_LINE}",
            box_shadow=f"0 -0.5rem 1.5rem {CELL_BORDER}",
            custom_attrs=tid(
                "buy-confirm-box", role="dialog", **{"aria-label": "Confirmer la commande"}
            ),
        ),
    )


def _buy() -> rx.Component:
    return rx.cond(
        ~OVER,
        rx.box(
            rx.heading(
                rx.cond(HallView.free_cartons, "Prendre des cartons", "Acheter des cartons"),
                size="5",
                custom_attrs=tid("buy-heading"),
            ),
            rx.cond(
                HallView.count > 0,
                rx.text(
                    rx.cond(
                        HallView.free_cartons,
                        "La partie en cours a commencé : un carton pris maintenant joue à "
                        "partir de la partie suivante.",
                        "La partie en cours a commencé : un carton acheté maintenant joue à "
                        "partir de la partie suivante.",
                    ),
                    color=MUTED,
                    font_size="1rem",
                ),
            ),
            # the first purchase: say what buying accepts (the règlement, art. 10)
            rx.cond(
                (PlayerState.cartons.length() == 0) & (PlayerState.orders.length() == 0),
                rx.text(
                    rx.cond(
                        HallView.free_cartons,
                        "En prenant des cartons, vous acceptez le règlement de la soirée.",
                        "En commandant, vous acceptez le règlement de la soirée.",
                    ),
                    font_size="1rem",
                    custom_attrs=tid("reglement-accept"),
                ),
            ),
            rx.link(
                "Lire le règlement de la soirée",
                href=f"/reglement?code={HallView.join_code}",
                size="3",
                custom_attrs=tid("reglement-link"),
            ),
            rx.vstack(
                rx.foreach(PlayerState.offer_groups, _offer_group),
                spacing="3",
                width="100%",
                align="stretch",
                margin_top="0.5rem",
            ),
            # the code for buying at the desk (at the top instead while an order waits)
            rx.cond(
                PlayerState.orders.length() == 0,
                rx.box(
                    rx.text(
                        rx.cond(
                            HallView.free_cartons,
                            "Ou demandez-en à la table des organisateurs : montrez ce code",
                            "Ou achetez à la caisse : montrez ce code",
                        ),
                        font_weight="700",
                    ),
                    _desk_code(),
                    margin_top="0.8rem",
                ),
            ),
            _confirm_order(),
            padding_top="0.5rem",
            # room for the confirmation at the bottom of the screen
            padding_bottom=rx.cond(PlayerState.chosen >= 0, "14rem", "0"),
        ),
    )


def _hall_helpers() -> rx.Component:
    """Marker read by assets/loto.js (wake lock, vibrations, the optional claim hint, and
    `_marks_helpers`)."""
    return rx.fragment(
        rx.box(
            display="none",
            custom_attrs={
                "data-page": "player",
                "data-claim-hint": rx.cond(HallView.claim_hint, "true", "false"),
                "data-one-to-go": rx.cond(HallView.one_to_go, "true", "false"),
                "data-pattern": HallView.pattern,
                **_marks_attrs(),
            },
        ),
        _marks_form(),
        rx.script(src="/targets.js"),
        rx.script(src="/loto.js"),
    )


def _marks_attrs() -> dict[str, rx.Var]:
    """What assets/loto.js needs for the pions, which are the phone's: the game they are of,
    the server's copy, the answer to the last batch."""
    return {
        "data-code": PlayerState.code,
        "data-game": HallView.game_no,
        "data-game-over": rx.cond(HallView.unmark_allowed, "true", "false"),
        "data-auto-marking": rx.cond(HallView.auto_marking, "true", "false"),
        "data-marks": PlayerState.marks.join(" "),
        "data-marks-ack": PlayerState.marks_ack,
        "data-ready": rx.cond(PlayerState.ready, "true", "false"),
    }


def _marks_form() -> rx.Component:
    """The hidden form assets/loto.js submits to send a batch of marks (an ordinary event,
    queued while offline; answered by live/gate/marks_path.py)."""
    return rx.form(
        rx.el.input(type="hidden", name="batch", custom_attrs={"data-testid": "marks-batch"}),
        on_submit=PlayerState.save_marks,
        reset_on_submit=False,
        display="none",
        custom_attrs={"data-testid": "marks-flush", "aria-hidden": "true"},
    )


def _mark_message() -> rx.Component:
    """What the phone says of a touch it could not take (assets/loto.js fills it)."""
    return rx.box(custom_attrs=tid("mark-message", hidden=True, role="status"))


def _stream() -> rx.Component:
    """The evening's live stream, for remote players (numbers come faster than the video)."""
    return rx.cond(
        HallView.stream_url != "",
        rx.box(
            rx.el.iframe(
                src=HallView.stream_url,
                title="Diffusion en direct de la soirée",
                allow="autoplay; encrypted-media; picture-in-picture",
                allow_full_screen=True,
                loading="lazy",
                width="100%",
                height="100%",
                border="0",
                position="absolute",
                top="0",
                left="0",
            ),
            position="relative",
            width="100%",
            padding_top="56.25%",
            custom_attrs=tid("stream"),
        ),
    )


def _voice_toggle() -> rx.Component:
    """ "Annonce sur mon téléphone": this phone speaks each number (assets/loto.js keeps the
    choice in the browser and shows the label of its state)."""
    return quiet_button(
        rx.fragment(
            rx.text.span("Annonce sur mon téléphone : non", class_name="loto-when-off"),
            rx.text.span("Annonce sur mon téléphone : oui", class_name="loto-when-on"),
        ),
        "phone-voice",
        font_size="1.1rem",
        white_space="normal",
        height="auto",
        max_width="100%",  # (it wraps rather than widen the page, in large text too)
        custom_attrs={"aria-pressed": "false"},
    )


def _large_text_toggle() -> rx.Component:
    """Bigger letters on this phone (remembered by the browser, see `Prefs`)."""
    on = Prefs.large_text == "1"
    return rx.button(
        "Grands caractères",
        on_click=Prefs.toggle_large_text,
        size="3",
        variant=rx.cond(on, "solid", "outline"),
        color_scheme="gray",
        high_contrast=True,
        font_size="1.1rem",
        min_height="2.75rem",
        custom_attrs=tid("large-text", **{"aria-pressed": rx.cond(on, "true", "false")}),
    )


def index() -> rx.Component:
    """`/jouer`: the player's page; the join form when this browser holds no identity (once
    hydrated: before, the page's skeleton, "Chargement de vos cartons…")."""
    return rx.cond(rx.State.is_hydrated & (PlayerState.secret == ""), join.form_page(), _page())


def join_or_play() -> rx.Component:
    """`/` (the hall's QR code): the join form; once joined, the player's page at once, in the
    same page (no second page load: `PlayerState.join_evening`). A phone that opens `/` with
    its identity (the QR code scanned again) gets the player's page from its hydrate, and the
    address bar says `/jouer` as after a join (the script runs on the phone: `/` has no on_load
    handler to send it)."""
    return rx.cond(
        PlayerState.secret == "",
        join.form_page(),
        rx.fragment(rx.el.span(hidden=True, on_mount=rx.call_script(SHOW_JOUER)), _page()),
    )


def _last_call() -> rx.Component:
    """The last call as this phone says it: only a player who could still claim is invited
    (one whose claim of this number is in, for another carton of theirs); one whose claim is
    in and who has no other carton able to claim waits; one with none at all is told so."""
    # (my view is of an earlier number: its holds are gone, every carton in play may claim)
    may_claim = rx.cond(MY_NUMBER, PlayerState.may_claim, PlayerState.in_play)
    return last_call_banner(
        "1.8rem",
        note=rx.cond(
            CLAIMED_NOW,
            rx.cond(
                may_claim,
                "Votre annonce est valide. Un autre de vos cartons l'a aussi ? "
                "Annoncez-le maintenant !",
                "Votre annonce est valide : attendez la fin du dernier appel.",
            ),
            rx.cond(
                may_claim,
                LAST_CALL_NOTE,
                "Les autres joueurs peuvent encore annoncer sur ce numéro.",
            ),
        ),
    )


def _unmark_button(**props) -> rx.Component:
    return big_button(
        rx.cond(
            HallView.unmark_allowed,
            "Démarquer mes cartons",
            "Démarquer (attendez l'animateur)",
        ),
        "unmark-all",
        on_click=PlayerState.unmark_all,
        disabled=~HallView.unmark_allowed,
        **props,
    )


def _unmark_now() -> rx.Component:
    """ "Vous pouvez démarquer !": the action at the top, in view, not under the cartons."""
    return rx.cond(
        HallView.unmark_allowed & (PlayerState.cartons.length() > 0) & ~OVER,
        _notice(
            rx.text(
                "La partie est terminée : vous pouvez démarquer vos cartons.",
                font_weight="800",
                font_size="1.15rem",
            ),
            _unmark_button(color_scheme="green", width="100%", margin_top="0.4rem"),
            line=WIN_LINE,
            background="white",
            custom_attrs=tid("unmark-now"),
        ),
    )


def _listen() -> rx.Component:
    """Hearing the numbers on this phone (assets/loto.js): "Annonce sur mon téléphone" speaks
    each number (off by default, remembered by the phone), "Activer le son" when the browser
    holds speech back until a touch, "Répéter" says the last number again; a hidden live
    region tells a screen reader each number."""
    return rx.box(
        # "Activer le son" while the browser holds the phone's voice back (assets/sound.js)
        unlock_button("1.4rem"),
        sound_assets(),
        # (assets/loto.js writes "Numéro 42" here at each number and at "Répéter")
        rx.box(
            custom_attrs=tid("number-live", **{"aria-live": "assertive"}), class_name="loto-sr-only"
        ),
    )


def _recent() -> rx.Component:
    """The last ten numbers, newest first, and all the numbers of the game on demand: a late
    joiner, or a player who looked away, sees at once what came out."""
    return rx.cond(
        HallView.count > 0,
        rx.box(
            rx.text("Les derniers numéros", font_weight="700", custom_attrs={"id": "recent-title"}),
            rx.el.ol(
                rx.foreach(
                    HallView.recent,
                    lambda n: rx.el.li(
                        n,
                        font_weight="800",
                        font_size="1.2rem",
                        min_width="2.4rem",
                        text_align="center",
                        padding="0.1rem 0.3rem",
                        border=f"2px solid {INK}",
                        border_radius="999px",
                        background=DRAWN,
                    ),
                ),
                display="flex",
                flex_wrap="wrap",
                gap="0.35rem",
                list_style="none",
                padding="0",
                margin="0.3rem 0 0",
                custom_attrs=tid("recent-numbers", **{"aria-labelledby": "recent-title"}),
            ),
            rx.el.details(
                rx.el.summary(
                    f"Tous les numéros sortis ({HallView.count})",
                    font_weight="700",
                    padding_y="0.5rem",
                    cursor="pointer",
                ),
                board("1.05rem", light=True),
                margin_top="0.3rem",
                custom_attrs=tid("drawn-board"),
            ),
            padding="0.5rem 0.75rem",
            border=f"1px solid {LINE}",
            border_radius="0.5rem",
            background="white",
        ),
    )


def _page() -> rx.Component:
    """The player's page."""
    return page_shell(
        # the rehearsal's band and the header stay in view together (two sticky boxes at the
        # top would lie on each other)
        rx.box(
            rehearsal_banner(HallView.rehearsal),
            _header(),
            position="sticky",
            top="0",
            z_index="15",
            width="100%",
        ),
        _hall_helpers(),
        _listen(),
        _stream(),
        _notice(
            rx.text("Une quine possible ! Vérifiez vos cartons.", font_weight="900"),
            line=CHECK_LINE,
            background=CHECK_BG,
            padding="0.6rem",
            custom_attrs=tid("quine-hint", hidden=True, role="status"),
        ),
        _last_call(),
        _mark_message(),
        _messages(),
        _unmark_now(),
        phone_draw_note(),
        _order_waiting(),
        rx.cond(
            HallView.tie_tokens.length() > 0,
            rx.flex(
                rx.text("Jetons tirés :", font_weight="700"),
                rx.foreach(
                    HallView.tie_tokens,
                    lambda t: rx.badge(f"{t['name']} : {t['token']}", size="3"),
                ),
                wrap="wrap",
                gap="0.4rem",
                custom_attrs=tid("tie-tokens"),
            ),
        ),
        _decisions(),
        _share_offer(),
        rx.hstack(
            rx.cond(
                PlayerState.ready,
                rx.text(f"Bonjour {PlayerState.name} !", font_size="1.2rem", font_weight="700"),
                rx.text("Chargement de vos cartons…"),
            ),
            rx.spacer(),
            _voice_toggle(),
            _large_text_toggle(),
            align="center",
            wrap="wrap",
            width="100%",
        ),
        rx.cond(
            (PlayerState.cartons.length() == 0)
            & (PlayerState.orders.length() == 0)
            & PlayerState.ready
            & ~OVER,
            rx.text(
                "Vous n'avez pas encore de carton : prenez-en ci-dessous.",
                font_size="1.1rem",
                custom_attrs=tid("no-carton"),
            ),
        ),
        _recent(),
        # (a column of their own: with "Plus qu'un numéro !" assets/loto.js puts the closest
        # first, by the CSS order of each)
        rx.box(
            rx.foreach(PlayerState.cartons, carton_card),
            display="flex",
            flex_direction="column",
            gap="1rem",
            custom_attrs=tid("cartons"),
        ),
        # démarquage means something once a game has started, with cartons to clear (once
        # allowed, the action is at the top: `_unmark_now`)
        rx.cond(
            (PlayerState.cartons.length() > 0)
            & (HallView.game_no > 0)
            & ~OVER
            & ~HallView.unmark_allowed,
            _unmark_button(variant="soft", color_scheme="green"),
        ),
        _tickets(),
        rx.cond(
            PlayerState.consolations > 0,
            rx.text(
                f"Cartons offerts (ex aequo) : {PlayerState.consolations}",
                custom_attrs=tid("consolations"),
            ),
        ),
        _buy(),
        # large-text mode: the whole page scaled up (the carton cells still fit the width)
        zoom=rx.cond(Prefs.large_text == "1", "1.25", "1"),
    )
