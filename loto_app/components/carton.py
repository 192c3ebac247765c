"""A player's carton: big cells to touch, the drawn numbers visible, my pions, the claim button."""

from __future__ import annotations

import reflex as rx

from loto_app.components.palette import (
    ACCENT,
    ANNULLED_BG,
    CARTON_BANDS,
    CELL_BORDER,
    CELL_EMPTY,
    DRAWN,
    INK,
    MUTED,
    ON_SOLID,
    step,
)
from loto_app.components.ui import big_button, tid
from loto_app.live.present.views import CartonView
from loto_app.live.states.hall import HallView
from loto_app.live.states.player import PlayerState

#: My private view is of the number the hall shows (the game and count it was made for): my
#: verdict, my claim and my cartons' holds hold until the next number, which phones are not
#: poked for.
MY_NUMBER = (PlayerState.verdict_game == HallView.game_no) & (
    PlayerState.verdict_count == HallView.count
)
#: A valid claim of mine on the last number is in (the last call asks me to wait).
CLAIMED_NOW = PlayerState.claimed & MY_NUMBER
#: A game is being played (numbers drawn or to be drawn, lots left): cartons "en jeu".
IN_PLAY = HallView.status == "running"


def _cell(
    c: rx.Var[CartonView], n: rx.Var[int], row: rx.Var[int], col: rx.Var[int]
) -> rx.Component:
    """A cell of row `row` holding `n` (0: empty). Its pion is the phone's own business
    (assets/loto.js): a touch marks it at once, with no server event, and sets `data-marked`
    (styled in assets/loto.css); its key, "<carton>-<number>", names it to the marks. A carton
    that does not play the game shows no number as drawn (a carton for the next game)."""
    drawn = c.plays & HallView.drawn.contains(n)
    key = f"{c.no}-{n}"
    return rx.cond(
        n == 0,
        rx.box(background=CELL_EMPTY, border_radius="0.3rem", min_height="3rem"),
        rx.el.button(
            # as large as the cell's width allows (the grid is a size container), capped;
            # browsers without container units keep the button's 1.15rem
            rx.text(n, as_="span", font_size="min(6.3cqi, 1.75rem)", white_space="nowrap"),
            type="button",
            background=rx.cond(drawn, DRAWN, "white"),
            color=INK,
            # a marked cell is a round pion with a double ring (loto.css), a drawn one a thick
            # frame: shape, not only colour; rings are inset shadows, so every cell keeps the
            # same inner width
            border=rx.cond(drawn, f"1px solid {INK}", f"1px solid {CELL_BORDER}"),
            box_shadow=rx.cond(drawn, f"inset 0 0 0 2px {INK}", "none"),
            border_radius="0.3rem",
            font_size="1.15rem",
            font_weight=rx.cond(drawn, "800", "600"),
            min_height="3rem",
            padding="0",
            cursor="pointer",
            custom_attrs=tid(
                f"cell-{key}",
                **{
                    "data-cell": key,
                    "data-n": n,
                    "data-drawn": rx.cond(drawn, "true", "false"),
                    "data-row": row,
                    "data-col": col,
                    # (assets/loto.js adds "marqué" to a pion's name)
                    "aria-label": rx.cond(drawn, f"{n}, sorti", f"{n}"),
                },
            ),
        ),
    )


def _held(c: rx.Var[CartonView]) -> rx.Var[bool]:
    """This carton waits for the next number: its own claim of the last one is in, or I have
    just won on it (`CartonView.hold`; my other cartons stay claimable)."""
    return MY_NUMBER & (c.hold != "")


def _claim_label(c: rx.Var[CartonView]) -> rx.Var:
    """What the claim button says: the stage it claims, or why it cannot claim now (never an
    invitation to claim what this carton cannot)."""
    return rx.cond(
        HallView.inversee & IN_PLAY & c.plays,
        # the inversée: nobody claims, the carton is in or out
        rx.cond(c.knocked, "Éliminé", "Toujours en jeu"),
        _claim_word(c),
    )


def _claim_word(c: rx.Var[CartonView]) -> rx.Var:
    return rx.cond(
        c.annulled,
        "Carton annulé",
        rx.cond(
            ~c.plays & IN_PLAY,
            "Ne joue pas cette partie",
            rx.cond(
                HallView.claim_word == "",
                "Partie terminée",
                rx.cond(_held(c), c.hold, HallView.claim_word),
            ),
        ),
    )


def _annulled_bar(c: rx.Var[CartonView]) -> rx.Component:
    """An annulled carton says so in large text on a dark bar, readable in greyscale and
    without telling colours apart."""
    return rx.cond(
        c.annulled,
        rx.box(
            rx.text("✕ CARTON ANNULÉ", font_size="1.35rem", font_weight="900", line_height="1.2"),
            rx.text(
                "Fausse annonce : il ne joue plus cette partie. Il revient à la suivante.",
                font_size="1rem",
                font_weight="700",
            ),
            background=INK,
            color=ON_SOLID,
            padding="0.5rem 0.75rem",
            border_radius="0.4rem",
            margin_top="0.3rem",
            custom_attrs=tid(f"annulled-{c.no}"),
        ),
    )


def _kind_label(c: rx.Var[CartonView]) -> rx.Component:
    """The carton's kind; a coloured série's (and the enfants') on its colour's band, white
    text, so that "carton vert" is seen at a glance as the hall's paper ones are."""
    band = rx.match(c.kind, *CARTON_BANDS.items(), "")
    return rx.cond(
        band != "",
        rx.text(
            c.kind_label,
            background=band,
            color=ON_SOLID,
            font_weight="800",
            padding="0 0.6rem",
            border_radius="0.4rem",
            custom_attrs=tid(f"band-{c.no}"),
        ),
        rx.text(c.kind_label, color=MUTED),
    )


def carton_card(c: rx.Var[CartonView]) -> rx.Component:
    """One carton with its header, grid and claim button."""
    cols = rx.cond(c.kind == "maxiquine", "repeat(5, minmax(0, 1fr))", "repeat(9, minmax(0, 1fr))")
    can_claim = HallView.claim_open & c.plays & ~c.annulled & ~_held(c) & ~HallView.inversee
    return rx.box(
        rx.hstack(
            rx.text(f"Carton n° {c.no}", font_weight="800", font_size="1.1rem"),
            _kind_label(c),
            rx.cond(c.free, rx.badge("offert", color_scheme="green", size="2")),
            rx.spacer(),
            rx.cond(
                c.plays & ~c.annulled & ~c.knocked & IN_PLAY,
                rx.badge("en jeu", color_scheme="green", size="2", high_contrast=True),
            ),
            width="100%",
            align="center",
            wrap="wrap",
        ),
        _annulled_bar(c),
        # "Plus qu'un numéro !" (an evening setting): what this carton still needs for the
        # stage in play, written by assets/loto.js from the numbers drawn
        rx.box(custom_attrs=tid(f"togo-{c.no}", hidden=True, role="status")),
        # not in the current game: which game it will play (bought before the first number)
        rx.cond(
            c.when != "",
            rx.text(
                c.when,
                font_weight="700",
                font_size="1.05rem",
                custom_attrs=tid(f"when-{c.no}"),
            ),
        ),
        rx.box(
            rx.foreach(c.rows, lambda r, i: rx.foreach(r, lambda n, j: _cell(c, n, i, j))),
            display="grid",
            grid_template_columns=cols,
            gap="2px",
            margin_y="0.5rem",
            container_type="inline-size",
            # an annulled carton turns grey, its text keeping full contrast (no opacity)
            filter=rx.cond(c.annulled, "grayscale(1)", "none"),
        ),
        # one tap arms it ("Confirmer : QUINE ?"), a second tap on the same spot claims
        # (assets/loto.js): a slip of the thumb never claims
        big_button(
            _claim_label(c),
            f"claim-{c.no}",
            on_click=PlayerState.claim(c.no),
            disabled=~can_claim,
            width="100%",
            font_size="1.5rem",
            font_weight="900",
            background=rx.cond(can_claim, ACCENT, step("gray", 3)),
            # off: its reason stays readable ("Carton annulé", "Partie terminée")
            color=rx.cond(can_claim, ON_SOLID, step("gray", 11)),
            white_space="normal",
            height="auto",
            custom_attrs={"data-claim": c.no, "data-confirm": HallView.claim_confirm},
        ),
        rx.cond(
            can_claim,
            rx.text(
                "Touchez, puis touchez « Confirmer ».",
                font_size="0.95rem",
                color=MUTED,
                text_align="center",
            ),
        ),
        padding=["0.35rem", "0.6rem"],
        border=rx.cond(c.annulled, f"3px dashed {INK}", f"2px solid {INK}"),
        border_radius="0.6rem",
        background=rx.cond(c.annulled, ANNULLED_BG, "white"),
        custom_attrs=tid(
            f"carton-{c.no}",
            **{
                "data-plays": rx.cond(c.plays, "true", "false"),
                "data-annulled": rx.cond(c.annulled, "true", "false"),
                # the server's target lines of its unit, by pattern (assets/targets.js)
                "data-targets": c.targets,
            },
        ),
    )
