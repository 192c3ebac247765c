"""The hall screen's scenes around the draw (pages/screen.py frames them): the welcome with the
program, the winners and the next game between games, the entracte with its countdown, the end
with the evening's winners and its numbers. Each fills the TV (1920 × 1080 and 1280 × 720,
sizes that follow the screen's height and width) and says one thing at a time.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from loto_app.components.media import partners_strip, picture
from loto_app.components.palette import (
    ACCENT,
    INFO_LINE,
    TV_HIGHLIGHT,
    TV_LAST_TEXT,
    TV_MUTED,
    TV_PANEL,
)
from loto_app.components.ui import tid
from loto_app.live.states.hall import HallView

#: Sizes follow the TV's height as well as its width (a 16:9 screen of any resolution); the
#: lists are phone first (360, 480, 768, 992, 1280, 1536 px) for a screen opened on a phone.
HUGE = ["2.4rem", "3rem", "3.6rem", "min(8vh, 4.6vw)"]
BIG = ["1.6rem", "1.8rem", "2.2rem", "min(4.4vh, 2.6vw)"]
MEDIUM = ["1.2rem", "1.4rem", "1.6rem", "min(3.2vh, 1.9vw)"]
SMALL = ["1rem", "1.1rem", "1.2rem", "min(2.4vh, 1.4vw)"]
#: A program or a list of winners: as large as the screen allows for many lines.
LIST = ["1rem", "1.1rem", "1.2rem", "min(2.6vh, 1.5vw)"]
PARTNER_LOGO = ["3rem", "3.5rem", "4rem", "min(9vh, 6vw)"]


def title(text: Any, testid: str, size: Any = BIG, **props: Any) -> rx.Component:
    """A scene's one line in the hall's yellow: what is happening now."""
    return rx.heading(
        text,
        as_="h2",
        font_size=size,
        font_weight="900",
        color=TV_HIGHLIGHT,
        line_height="1.15",
        custom_attrs=tid(testid),
        **props,
    )


def _panel(*children: rx.Component, **props: Any) -> rx.Component:
    return rx.box(
        *children,
        background=TV_PANEL,
        border=f"1px solid {INFO_LINE}",
        border_radius="0.6rem",
        padding="0.6em 0.9em",
        **props,
    )


def lot_photo(src: Any, lot: Any, width: Any, height: Any, **props: Any) -> rx.Component:
    """A lot's photo on the TV, on white (a transparent PNG stays legible on the dark hall)."""
    return rx.box(
        picture(src, lot, width="100%", height="100%"),
        width=width,
        height=height,
        background="white",
        border_radius="0.3rem",
        **props,
    )


def _heading(text: str) -> rx.Component:
    """What a column of a scene lists ("Les gagnants", "Prochaine partie")."""
    return rx.text(text, font_size=MEDIUM, font_weight="800")


def _column(*children: rx.Component, **props: Any) -> rx.Component:
    """A column of a scene: what does not fit is cut, never pushed off the TV."""
    return rx.vstack(*children, spacing="3", min_height="0", overflow="hidden", **props)


def scene_grid(
    left: rx.Component, right: rx.Component, wide: str, testid: str, **props: Any
) -> rx.Component:
    """A scene in two columns side by side on a TV (`wide`: their widths), one above the other
    on a smaller screen."""
    return rx.grid(
        left,
        right,
        grid_template_columns=["minmax(0, 1fr)", "minmax(0, 1fr)", "minmax(0, 1fr)", wide],
        gap="2rem",
        width="100%",
        min_height="0",
        custom_attrs=tid(testid),
        **props,
    )


def _stage_line(s: rx.Var[dict[str, Any]], photo: Any) -> rx.Component:
    """ "Quine : Jambon" with the lot's photo beside it when there is one (and room for it:
    `photo` "0" leaves it out)."""
    return rx.flex(
        rx.cond(
            (s["photo"] != "") & (photo != "0"),
            lot_photo(s["photo"], s["lot"], photo, photo, flex_shrink="0"),
        ),
        rx.text(
            rx.el.span(f"{s['label']} : ", font_weight="800", color=TV_HIGHLIGHT),
            s["lot"],
        ),
        align="center",
        gap="0.6em",
    )


def _game_card(g: rx.Var[dict[str, Any]], photo: Any, size: Any = MEDIUM) -> rx.Component:
    """A game of the program: its number, kind and title, each stage with its lot (and
    photo)."""
    return _panel(
        rx.text(
            f"Partie {g['no']}",
            rx.el.span(f" · {g['kind']}", color=TV_MUTED, font_weight="700"),
            font_weight="900",
            color=TV_HIGHLIGHT,
        ),
        rx.cond(
            g["title"] != "",
            rx.text(g["title"], font_weight="700", color=TV_MUTED, font_size="0.85em"),
        ),
        rx.vstack(
            rx.foreach(g["stages"].to(list[dict[str, Any]]), lambda s: _stage_line(s, photo)),
            spacing="1",
            margin_top="0.3em",
        ),
        font_size=size,
        min_width="0",
        custom_attrs=tid("program-game"),
    )


def welcome(join: rx.Component) -> rx.Component:
    """Before the first game: welcome, the program with its lots, how to join."""
    games = HallView.program.length()
    many = rx.cond(games <= 3, 0, rx.cond(games <= 6, 1, 2))  # (photos left out past 6)
    return scene_grid(
        rx.vstack(
            title("Bienvenue ! La partie va bientôt commencer.", "scene-title"),
            _heading("Au programme"),
            # a long program in smaller type and photos, so that every game fits
            rx.grid(
                rx.foreach(
                    HallView.program,
                    lambda g: _game_card(
                        g,
                        rx.match(many, (0, "min(8vh, 4.6vw)"), (1, "min(6vh, 3.4vw)"), "0"),
                        rx.match(many, (0, MEDIUM[-1]), (1, LIST[-1]), "min(2.1vh, 1.2vw)"),
                    ),
                ),
                grid_template_columns="repeat(auto-fill, minmax(min(20vw, 100%), 1fr))",
                gap="0.8rem",
                width="100%",
                custom_attrs=tid("program"),
            ),
            spacing="3",
            width="100%",
            min_height="0",
            overflow="hidden",
        ),
        join,
        "minmax(0, 1fr) auto",
        "scene-welcome",
        height="100%",
        align_items="start",
    )


def _winner(w: rx.Var[dict[str, str]], with_game: bool, photo: Any) -> rx.Component:
    return rx.flex(
        rx.cond(
            w["photo"] != "",
            lot_photo(w["photo"], w["lot"], photo, photo, flex_shrink="0"),
        ),
        rx.box(
            rx.text(
                *([rx.el.span(f"{w['game']} · ", color=TV_MUTED)] if with_game else []),
                rx.el.span(f"{w['label']} : ", font_weight="800", color=TV_HIGHLIGHT),
                w["lot"],
            ),
            rx.text(
                rx.cond(w["names"] != "", w["names"], "Non attribué"),
                font_weight="900",
                font_size="1.15em",
            ),
        ),
        align="center",
        gap="0.6em",
        custom_attrs=tid("winner"),
    )


def between(*after: rx.Component) -> rx.Component:
    """Between games: who won what in the game just played (and `after` it, the check of its
    draw), then the next game."""
    return scene_grid(
        _column(
            title(f"Partie {HallView.game_no} terminée : vous pouvez démarquer", "scene-title"),
            _heading("Les gagnants"),
            rx.vstack(
                rx.foreach(HallView.game_winners, lambda w: _winner(w, False, "min(12vh, 7vw)")),
                spacing="3",
                font_size=MEDIUM,
                custom_attrs=tid("game-winners"),
            ),
            *after,
        ),
        _column(
            _heading("Prochaine partie"),
            rx.foreach(HallView.next_game, lambda g: _game_card(g, "min(14vh, 8vw)", size=MEDIUM)),
            custom_attrs=tid("next-game"),
        ),
        "1fr 1fr",
        "scene-between",
        height="100%",
    )


def pause() -> rx.Component:
    """The entracte: its message, when the games resume and how long it is until then."""
    until = HallView.pause_until.to_string()
    return rx.vstack(
        title("Entracte", "scene-title", size=HUGE),
        rx.text(
            HallView.pause_message,
            font_size=BIG,
            font_weight="800",
            text_align="center",
            max_width="80%",
            custom_attrs=tid("pause-message"),
        ),
        rx.text(
            f"Reprise à {HallView.pause_at}",
            font_size=BIG,
            font_weight="800",
            custom_attrs=tid("pause-at"),
        ),
        rx.text(
            font_size=HUGE,
            font_weight="900",
            color=TV_LAST_TEXT,
            background=TV_HIGHLIGHT,
            padding="0.1em 0.6em",
            border_radius="0.4em",
            custom_attrs=tid(
                "pause-countdown",
                role="timer",
                **{"data-pause-until": until, "aria-live": "off"},
            ),
        ),
        partners_strip(HallView.partners, PARTNER_LOGO, label_size=MEDIUM),
        align="center",
        justify="center",
        spacing="5",
        width="100%",
        height="100%",
        custom_attrs=tid("scene-pause"),
    )


def _bars() -> rx.Component:
    """Each number's frequency over the evening, 1 to 90: a bar per number, the scale's
    highest value on the left, the numbers 1, 10, 20 ... 90 under the bars."""
    return rx.box(
        rx.flex(
            rx.text(HallView.numbers_highest, font_size=SMALL, color=TV_MUTED, width="2.2em"),
            rx.flex(
                rx.foreach(
                    HallView.numbers_bars,
                    lambda b: rx.box(
                        height=f"{b['height']}%",
                        flex="1",
                        background=ACCENT,
                        border_top=rx.cond(b["times"] > 0, f"2px solid {TV_HIGHLIGHT}", "none"),
                        custom_attrs={"title": f"{b['n']} : {b['times']} fois"},
                    ),
                ),
                align="end",
                gap="1px",
                height="100%",
                flex="1",
                border_bottom=f"2px solid {TV_MUTED}",
            ),
            height="min(20vh, 14vw)",
            align="start",
        ),
        rx.flex(
            *[
                rx.text(str(n), font_size=SMALL, color=TV_MUTED, text_align="center")
                for n in (1, 10, 20, 30, 40, 50, 60, 70, 80, 90)
            ],
            justify="between",
            margin_left="2.2em",
        ),
        width="100%",
        custom_attrs=tid(
            "numbers-chart",
            role="img",
            **{
                "aria-label": "Fréquence de chaque numéro sur la soirée : "
                + HallView.numbers_summary
            },
        ),
    )


def end() -> rx.Component:
    """The end of the evening: thanks, the association, the winners of the evening and its
    numbers (so that nobody need ask whether they are always the same)."""
    return scene_grid(
        _column(
            title("La soirée est terminée. Merci à tous et à bientôt !", "scene-title", size=BIG),
            _heading("Les gagnants de la soirée"),
            rx.grid(
                rx.foreach(HallView.evening_winners, lambda w: _winner(w, True, "min(5vh, 3vw)")),
                grid_template_columns="repeat(auto-fill, minmax(min(22vw, 100%), 1fr))",
                gap="0.5rem 1.2rem",
                # a long evening's winners in smaller type, so that all of them fit
                font_size=rx.cond(
                    HallView.evening_winners.length() > 8,
                    "max(0.9rem, min(2.1vh, 1.2vw))",
                    "max(1rem, min(2.6vh, 1.5vw))",
                ),
                width="100%",
                custom_attrs=tid("evening-winners"),
            ),
        ),
        _column(
            _heading("Les numéros de la soirée"),
            rx.text(
                HallView.numbers_summary,
                font_size=SMALL,
                custom_attrs=tid("numbers-summary"),
            ),
            _bars(),
            rx.flex(
                rx.foreach(
                    HallView.numbers_games,
                    lambda g: rx.text(
                        f"Partie {g['no']} : {g['draws']} numéros en {g['duration']}",
                        font_size=SMALL,
                        color=TV_MUTED,
                    ),
                ),
                wrap="wrap",
                gap="0.2rem 1.5rem",
                custom_attrs=tid("numbers-games"),
            ),
            width="100%",
        ),
        "1fr 1fr",
        "scene-end",
        height="100%",
    )
