"""`/ecran`: the hall screen (TV), readable from the back of the hall.

One screen, its states as one set, each filling the TV (1920 × 1080 and 1280 × 720; no scroll),
each saying one thing at a time (HallView.scene, live/present/show.py):
- pairing: no evening yet, the code the animateur types on the tablet (`live/runtime/pairing.py`);
- welcome: the evening's program with its lots, and the way in for phones (a large QR code);
- in game: the last number as a large ball, the five before it, the board; before the first
  number, the way in where the ball will be; the lot in play's photo in the header;
- a claim: the last call banner, then the claimed carton read back in place of the board;
- between games: the winners of the game just played, the next game with its lots;
- entracte (started from the tablet): its message, the time the games resume, a countdown;
- end: thanks, the evening's winners and its numbers (components/hall_scenes.py).
A header names the evening (and in game the game and the stage in play); a footer keeps the way
in (small QR code, code, address), the partners' logos, the voice, phrases and chime toggles.
A blocked sound shows "Activer le son" (components/sound.py).
"""

from __future__ import annotations

import reflex as rx

from loto_app.components import hall_scenes as scenes
from loto_app.components.board import board
from loto_app.components.control import last_call_banner, readback
from loto_app.components.draw_note import tv_draw_note
from loto_app.components.hall_scenes import BIG, MEDIUM, SMALL
from loto_app.components.media import partners_strip
from loto_app.components.palette import (
    INFO_LINE,
    TV_BG,
    TV_HIGHLIGHT,
    TV_LAST_TEXT,
    TV_MUTED,
    TV_PANEL,
)
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.sound import chime_toggle, sound_assets, unlock_button
from loto_app.components.sound_check import sound_check_form
from loto_app.components.ui import announcement_box, connection_banner, tid
from loto_app.live.states.hall import HallView
from loto_app.live.states.screen import ScreenState

TITLE = "Loto — écran de la salle"

BALL = ["11rem", "13rem", "16rem", "min(46vh, 30vw)"]
BOARD = ["1rem", "1.4rem", "1.8rem", "min(3.8vh, 2.2vw)"]
#: Only a TV-sized screen is locked to its height; a phone scrolls.
TV = {
    "height": ["auto", "auto", "auto", "100vh"],
    "overflow": ["visible", "visible", "visible", "hidden"],
}
#: The game's scene (a number drawn, or about to be): the ball and the board.
IN_GAME = HallView.scene == "game"


def _toggle(testid: str, off: str, on: str, pressed: bool) -> rx.Component:
    """A preference of this TV (assets/loto.js keeps it in the browser): both labels are in the
    page and the script only flips `aria-pressed`, which shows one (assets/loto.css). The
    script never writes the text: a write before React has hydrated the page is a mismatch
    that makes React render the whole page again, dropping a touch in progress."""
    return rx.button(
        rx.el.span(off, class_name="loto-when-off"),
        rx.el.span(on, class_name="loto-when-on"),
        custom_attrs=tid(testid, **{"aria-pressed": "true" if pressed else "false"}),
        **_TOGGLE,
    )


_TOGGLE = {
    "size": "1",
    "font_size": ["0.9rem", "0.9rem", "1rem", "min(1.8vh, 1vw)"],
    "height": "auto",
    "padding": "0.2em 0.6em",
    "background": TV_PANEL,
    "color": "white",
    "border": f"1px solid {INFO_LINE}",
}


def _toggles() -> rx.Component:
    """This TV's sound preferences, stacked small in the footer's corner (set once, by the
    person who sets the TV up)."""
    return rx.vstack(
        _toggle("voice-toggle", "Voix\u00a0: coupée", "Voix\u00a0: activée", pressed=False),
        _toggle(
            "phrases-toggle",
            "Expressions\u00a0: coupées",
            "Expressions\u00a0: activées",
            pressed=True,
        ),
        chime_toggle(**_TOGGLE),
        spacing="1",
        align="stretch",
        flex_shrink="0",
    )


def _join_lines(large: bool) -> list[rx.Component]:
    return [
        rx.text(
            "Code ",
            rx.el.span(
                HallView.join_code, font_weight="900", color=TV_HIGHLIGHT, letter_spacing="0.08em"
            ),
            font_size=["2rem", "2.4rem", "3rem", "min(6.5vh, 3.6vw)"] if large else MEDIUM,
            white_space="nowrap",
            line_height="1.1",
        ),
        rx.text(
            f"Série {HallView.series} · ",
            rx.el.span(f"ou ouvrez : {ScreenState.join_address}", custom_attrs=tid("join-address")),
            font_size=MEDIUM if large else SMALL,
            color=TV_MUTED,
        ),
    ]


def _join(large: bool, qr_size: str = "min(34vh, 22vw)") -> rx.Component:
    """The way in for phones: the QR code, the evening's code, the série and the address;
    large (stacked, in the ball's place or beside the program) or small (the footer)."""
    # (a little smaller on a TV when the draw's commitment is shown under it)
    tv_qr = rx.cond(HallView.draw_note != "", f"calc({qr_size} * 0.8)", qr_size)
    qr = ["12rem", "14rem", "16rem", tv_qr] if large else "min(11vh, 6rem)"
    # (no image, only its place, until the code is there: an empty white square is not a QR
    # code, for a phone's camera or for a test reading it)
    image = rx.cond(
        ScreenState.qr != "",
        rx.image(
            src=ScreenState.qr,
            width=qr,
            height=qr,
            alt="QR code pour rejoindre la soirée",
            background="white",
            border_radius="0.4rem",
        ),
        rx.box(width=qr, height=qr, flex_shrink="0"),
    )
    if large:
        return rx.vstack(
            rx.text(
                "Jouez avec votre téléphone\u00a0: visez le QR code",
                font_size=MEDIUM,
                font_weight="700",
                text_align="center",
                max_width=["100%", "100%", "100%", "max(16em, min(40vh, 26vw))"],
            ),
            image,
            *_join_lines(large),
            align="center",
            spacing="3",
            custom_attrs=tid("join-qr"),
        )
    return rx.hstack(
        image,
        rx.vstack(
            rx.text("Jouez avec votre téléphone", font_size=SMALL, font_weight="700"),
            *_join_lines(large),
            spacing="1",
            align="start",
        ),
        align="center",
        spacing="3",
        custom_attrs=tid("join-qr"),
    )


def _header() -> rx.Component:
    """The evening's name; in game, the game and the stage in play (with its lot's photo)."""
    return rx.flex(
        rx.heading(
            HallView.evening_name,
            as_="h1",
            font_size=rx.cond(IN_GAME, MEDIUM, BIG),
            font_weight="800",
            color=rx.cond(IN_GAME, TV_MUTED, "white"),
        ),
        rx.cond(
            IN_GAME,
            rx.text(
                f"Partie {HallView.game_no} / {HallView.games_total}",
                font_size=MEDIUM,
                font_weight="800",
            ),
        ),
        rx.cond(
            IN_GAME & (HallView.stage_label != ""),
            rx.flex(
                rx.cond(
                    HallView.lot_photo != "",
                    scenes.lot_photo(
                        HallView.lot_photo,
                        HallView.lot_label,
                        "min(8vh, 4.8vw)",
                        "min(6vh, 3.6vw)",
                        custom_attrs=tid("lot-photo"),
                    ),
                ),
                rx.text(
                    f"En jeu : {HallView.stage_label} — {HallView.lot_label}",
                    font_size=MEDIUM,
                    font_weight="900",
                    color=TV_HIGHLIGHT,
                    custom_attrs=tid("stage"),
                ),
                align="center",
                gap="0.8rem",
            ),
        ),
        _game_count(),
        justify="between",
        align="center",
        wrap="wrap",
        gap="0.5rem 2rem",
        width="100%",
    )


def _game_count() -> rx.Component:
    """What the hall counts in some games: the inversée's cartons still in play, the numbers
    the jackpot may still be won in."""
    return rx.cond(
        IN_GAME & HallView.inversee,
        rx.text(
            "Cartons encore en jeu : ",
            rx.text.strong(HallView.standing),
            font_size=MEDIUM,
            font_weight="800",
            custom_attrs=tid("standing"),
        ),
        rx.cond(
            IN_GAME & (HallView.jackpot_within > 0),
            rx.text(
                f"Jackpot si carton plein en {HallView.jackpot_within} numéros : encore ",
                rx.text.strong(HallView.jackpot_left),
                rx.cond(HallView.jackpot_left > 1, " numéros", " numéro"),
                font_size=MEDIUM,
                font_weight="800",
                custom_attrs=tid("jackpot-left"),
            ),
        ),
    )


def _last_number() -> rx.Component:
    """The last number as a large ball, the five before it, how many are out."""
    return rx.vstack(
        rx.text("Dernier numéro", font_size=MEDIUM, color=TV_MUTED),
        rx.box(
            rx.text(
                HallView.last.to_string(),
                font_size="0.62em",
                font_weight="900",
                line_height="1",
                color=TV_LAST_TEXT,
                custom_attrs=tid("last-number", **{"aria-live": "assertive"}),
            ),
            font_size=BALL,
            width="1em",
            height="1em",
            border_radius="50%",
            background=TV_HIGHLIGHT,
            box_shadow=f"inset 0 0 0 0.04em {TV_LAST_TEXT}, 0 0 0 0.03em {TV_HIGHLIGHT}",
            display="flex",
            align_items="center",
            justify_content="center",
        ),
        rx.cond(
            HallView.last_five.length() > 0,
            rx.hstack(
                rx.text("Avant :", font_size=MEDIUM, color=TV_MUTED),
                rx.foreach(
                    HallView.last_five,
                    lambda n: rx.text(n, font_size=BIG, font_weight="800"),
                ),
                spacing="5",
                align="baseline",
                justify="center",
                wrap="wrap",
                custom_attrs=tid("last-five"),
            ),
        ),
        rx.text(
            f"{HallView.count} ",
            rx.cond(HallView.count > 1, "numéros sortis", "numéro sorti"),
            font_size=MEDIUM,
        ),
        rx.cond(
            HallView.rhythm != "",
            rx.text(
                HallView.rhythm,
                font_size=SMALL,
                color=TV_MUTED,
                custom_attrs=tid("rhythm"),
            ),
        ),
        align="center",
        spacing="3",
        width="100%",
    )


def _ways_in() -> rx.Component:
    """A game started, before its first number: how to join, where the ball will be."""
    return rx.vstack(
        scenes.title("La partie va commencer", "scene-title"),
        _join(large=True, qr_size="min(28vh, 20vw)"),
        # the electronic draw's commitment, before the first number
        tv_draw_note(True, MEDIUM, ScreenState.join_address, BIG, SMALL),
        align="center",
        justify="center",
        spacing=rx.cond(HallView.draw_note != "", "3", "5"),
        width="100%",
        height="100%",
    )


def _game() -> rx.Component:
    """In game: the ball (or the way in before the first number), the board or the read-back."""
    return scenes.scene_grid(
        rx.box(
            rx.cond(HallView.count > 0, _last_number(), _ways_in()),
            display="flex",
            align_items="center",
            justify_content="center",
            min_height="0",
            overflow="hidden",
        ),
        rx.vstack(
            announcement_box(
                HallView.announcement,
                HallView.announcement_kind,
                font_size=MEDIUM,
                color=TV_LAST_TEXT,
            ),
            last_call_banner(
                ["2rem", "2.4rem", "3rem", "min(5.4vh, 3.2vw)"],
                ["1rem", "1.1rem", "1.4rem", "min(2.4vh, 1.4vw)"],
            ),
            # a token draw between ex aequo: each player's token, the hall sees who won
            rx.cond(
                HallView.tie_tokens.length() > 0,
                rx.flex(
                    rx.foreach(
                        HallView.tie_tokens,
                        lambda t: rx.text(
                            f"{t['name']} : {t['token']}",
                            font_size=BIG,
                            font_weight="800",
                            color=TV_LAST_TEXT,
                            background=TV_HIGHLIGHT,
                            padding="0.2rem 0.8rem",
                            border_radius="0.4rem",
                        ),
                    ),
                    wrap="wrap",
                    gap="0.6rem",
                    custom_attrs=tid("tie-tokens"),
                ),
            ),
            # while a claim is checked, its carton replaces the board: the animateur reads
            # it back to the hall (the last number and the numbers before stay on the left)
            rx.cond(
                HallView.readback_on,
                readback(
                    ["1.2rem", "1.6rem", "2.2rem", "min(3.8vh, 2.3vw)"],
                    # an ex aequo: every tied carton on the screen at once
                    ["1rem", "1.2rem", "1.5rem", "min(2.6vh, 1.6vw)"],
                    font_size=SMALL,
                ),
                board(BOARD),
            ),
            spacing="3",
            width="100%",
            min_height="0",
            justify="center",
        ),
        "2fr 3fr",
        "scene-game",
        align_items="stretch",
    )


def _footer() -> rx.Component:
    """One row: the way in (small: not where the welcome shows it large, nor at the end), the
    partners' logos (small during a game; not during the entracte, whose middle shows them
    large; they shrink rather than wrap), the voice, phrases and chime toggles."""
    scene = HallView.scene
    small_join = (IN_GAME & (HallView.count > 0)) | (scene == "between") | (scene == "pause")
    return rx.flex(
        rx.cond(small_join, _join(large=False)),
        # while the numbers come out: the draw's commitment, in a line
        tv_draw_note(False, SMALL),
        rx.box(
            rx.cond(
                scene != "pause",
                partners_strip(
                    HallView.partners,
                    rx.cond(IN_GAME, "min(6vh, 3.2vw)", "min(9vh, 5vw)"),
                    label=rx.cond(IN_GAME, "", "Nos partenaires"),
                    label_size=SMALL,
                    nowrap=True,
                ),
            ),
            flex="1 1 0",
            min_width="0",
            display="flex",
            justify_content="center",
        ),
        _toggles(),
        justify="between",
        align="end",
        gap="1.5rem",
        width="100%",
        # (a TV: one row; a screen opened on a phone wraps)
        flex_wrap=["wrap", "wrap", "wrap", "nowrap"],
    )


def _evening() -> rx.Component:
    """The screen of an evening: header, the scene, footer."""
    return rx.box(
        _header(),
        rx.box(
            rx.match(
                HallView.scene,
                ("welcome", scenes.welcome(_join(large=True))),
                # (the game's draw can be checked now: where, with its commitment)
                (
                    "between",
                    scenes.between(
                        tv_draw_note(True, SMALL, ScreenState.join_address, MEDIUM, SMALL)
                    ),
                ),
                ("pause", scenes.pause()),
                ("end", scenes.end()),
                _game(),
            ),
            min_height="0",
            display="flex",
            flex_direction="column",
        ),
        _footer(),
        display="grid",
        grid_template_rows="auto minmax(0, 1fr) auto",
        gap="1rem",
        width="100%",
        flex="1",
        min_height="0",
        custom_attrs={"data-scene": HallView.scene},
    )


def _pairing() -> rx.Component:
    """No evening yet: the code to type on the animateur's tablet."""
    return rx.vstack(
        rx.heading("Écran de la salle", as_="h1", font_size=BIG, color=TV_MUTED),
        rx.text(
            "Sur la tablette de l'animateur, « Relier l'écran de la salle », tapez :",
            font_size=BIG,
            text_align="center",
        ),
        rx.text(
            ScreenState.pair_code,
            font_size=["4rem", "5rem", "7rem", "min(24vh, 15vw)"],
            font_weight="900",
            letter_spacing="0.12em",
            line_height="1",
            color=TV_HIGHLIGHT,
            font_family="monospace",
            custom_attrs=tid("pair-code", **{"aria-live": "polite"}),
        ),
        rx.text(
            "Le code change toutes les 10 minutes. L'écran s'affiche dès que la tablette "
            "l'a relié.",
            font_size=MEDIUM,
            color=TV_MUTED,
            text_align="center",
        ),
        # clicked every 2 s by the script `ScreenState.watch` starts: attached yet?
        rx.el.button(
            "Vérifier",
            id="pair-poll",
            on_click=ScreenState.poll_pairing,
            hidden=True,
            tab_index=-1,
        ),
        align="center",
        justify="center",
        spacing="6",
        flex="1",
        custom_attrs=tid("pairing"),
    )


def index() -> rx.Component:
    """The hall screen."""
    return rx.box(
        rx.box(
            display="none",
            custom_attrs={
                "data-page": "screen",
                # (assets/loto.js: the number shown with the evening's first picture is not
                # news; the next one is)
                "data-ready": rx.cond(HallView.join_code != "", "true", "false"),
            },
        ),
        rx.script(src="/loto.js"),
        sound_assets(),
        rx.script(src="/screen.js"),  # the entracte's countdown
        connection_banner(),
        rehearsal_banner(HallView.rehearsal & (ScreenState.pair_code == ""), tv=True),
        unlock_button(font_size=BIG),
        sound_check_form(),  # (the check before the doors open: its sound test's answer)
        rx.cond(
            ScreenState.message != "",
            rx.text(
                ScreenState.message,
                font_size=MEDIUM,
                color="white",
                text_align="center",
                custom_attrs=tid("screen-message", role="status"),
            ),
        ),
        rx.cond(
            ScreenState.pair_code != "",
            _pairing(),
            _evening(),
        ),
        background=TV_BG,
        color="white",
        min_height="100vh",
        padding=["1rem", "1rem", "1.5rem", "2.5vh 2vw"],
        box_sizing="border-box",
        display="flex",
        flex_direction="column",
        custom_attrs={"role": "main"},
        **TV,
    )
