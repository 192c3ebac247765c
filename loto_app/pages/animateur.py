"""`/animateur`: the tablet that drives the evening."""

from __future__ import annotations

import reflex as rx

from loto_app.components.board import board, last_number
from loto_app.components.control import last_call_banner, readback
from loto_app.components.disputes import withdraw_form
from loto_app.components.entracte import entracte
from loto_app.components.form import (
    label_around,
    line_input,
    player_name_input,
    series_select,
    submit_button,
)
from loto_app.components.help_link import help_link
from loto_app.components.pair_form import pair_form
from loto_app.components.palette import (
    ACCENT,
    CHECK_BG,
    CHECK_LINE,
    INFO,
    LINE,
    MUTED,
    ON_SOLID,
    SUCCESS,
    TIE_BG,
    TIE_LINE,
    step,
)
from loto_app.components.preflight_link import preflight_link
from loto_app.components.rehearsal import rehearsal_banner
from loto_app.components.signin import sign_in_form
from loto_app.components.ui import (
    announcement_box,
    big_button,
    page_shell,
    quiet_button,
    tid,
    verdict_box,
)
from loto_app.live.input.disputes import DECISIONS
from loto_app.live.input.improvised import IMPROVISED_TYPES
from loto_app.live.input.typed_lines import MAX_FIELDS
from loto_app.live.states.animateur import AnimateurState
from loto_app.live.states.hall import HallView

TITLE = "Loto — animateur"
DISABLED_BG, DISABLED_TEXT = step("gray", 3), step("gray", 8)  # a control that waits
#: The control desk's field of a carton's number (a paper carton's, an own carton's).
CARTON = {
    "name": "carton",
    "type": "number",
    "min": 1,
    "placeholder": "N° du carton",
    "size": "3",
    "width": "9rem",
}


def _login() -> rx.Component:
    return sign_in_form(
        "Connexion de l'animateur", "animateur", "Secret de l'animateur", AnimateurState.login
    )


def _dispute_form(c) -> rx.Component:
    """ "Réclamation / litige": what the association decides about this claim (art. 8), with
    a written reason; one confirmation, nothing is deleted (an event of the log)."""
    no = c["no"].to(int)
    verdict = c["verdict"].to(str)
    shown = {
        "reinstate": c["annulled"].to(bool),
        "valid": verdict != "valid",
        "false": verdict != "false",
    }

    def option(value: str, label: str) -> rx.Component:
        choice = rx.el.label(
            rx.el.input(
                type="radio",
                name="decision",
                value=value,
                custom_attrs=tid(f"decision-{value}"),
                style={"width": "1.4rem", "height": "1.4rem"},
            ),
            rx.text(label, as_="span"),
            display="flex",
            gap="0.6rem",
            align_items="center",
            padding_y="0.3rem",
            font_size="1.1rem",
        )
        return rx.cond(shown[value], choice) if value in shown else choice

    return rx.form(
        rx.vstack(
            rx.text(
                f"Réclamation / litige — annonce n° {no} ({c['name']}, carton {c['carton']})",
                font_weight="800",
            ),
            rx.el.input(type="hidden", name="claim", value=no.to_string()),
            *[option(v, label) for v, label in DECISIONS.items()],
            rx.el.label("Motif de la décision (obligatoire)", font_weight="700"),
            rx.text_area(
                name="reason",
                max_length=200,
                rows="2",
                width="100%",
                custom_attrs=tid("decision-reason", **{"aria-label": "Motif de la décision"}),
            ),
            rx.cond(
                AnimateurState.dispute_message != "",
                rx.text(AnimateurState.dispute_message, color=step("red", 11), font_weight="700"),
            ),
            rx.hstack(
                rx.button(
                    "Confirmer la décision",
                    type="submit",
                    size="3",
                    background=SUCCESS,
                    color=ON_SOLID,
                    custom_attrs=tid("decision-confirm"),
                ),
                rx.button(
                    "Annuler",
                    type="button",
                    size="3",
                    variant="outline",
                    color_scheme="gray",
                    high_contrast=True,
                    on_click=AnimateurState.open_dispute(0),
                    custom_attrs=tid("decision-cancel"),
                ),
                wrap="wrap",
            ),
            spacing="2",
            align="stretch",
            width="100%",
        ),
        on_submit=AnimateurState.decide,
        reset_on_submit=False,
        padding="0.6rem",
        border=f"3px solid {TIE_LINE}",
        border_radius="0.5rem",
        background=TIE_BG,
        width="100%",
        custom_attrs=tid(f"dispute-form-{no}"),
    )


def _claim_row(c) -> rx.Component:
    verdict = c["verdict"].to(str)
    no = c["no"].to(int)
    return rx.box(
        rx.hstack(
            rx.badge(
                rx.match(
                    rx.cond(c["tie_lost"].to(bool), "tie_lost", verdict),
                    ("tie_lost", "EX AEQUO PERDU"),
                    ("valid", "VALIDE"),
                    ("false", "FAUSSE"),
                    ("late", "TOUR PASSÉ"),
                    ("wrong_series", "AUTRE SÉRIE"),
                    ("not_in_game", "HORS PARTIE"),
                    ("annulled", "ANNULÉ"),
                    ("after_award", "RÉCLAMATION"),
                    "?",
                ),
                size="2",
                color_scheme=rx.cond(
                    c["tie_lost"].to(bool),
                    "gray",
                    rx.match(
                        verdict,
                        ("valid", "green"),
                        ("false", "red"),
                        ("after_award", "orange"),
                        "gray",
                    ),
                ),
                high_contrast=True,
            ),
            rx.text(f"{c['name']} — carton {c['carton']} — {c['stage']} sur le {c['number']}"),
            rx.text(c["label"], color=MUTED),
            rx.cond(c["overturned"].to(bool), rx.badge("décision", size="2", high_contrast=True)),
            rx.cond(
                (verdict == "false") & ~c["annulled"].to(bool) & ~c["overturned"].to(bool),
                rx.badge("carton rétabli", size="2", color_scheme="green", high_contrast=True),
            ),
            rx.spacer(),
            rx.cond(
                c["disputable"].to(bool) & (AnimateurState.dispute_claim != no),
                rx.button(
                    "Réclamation / litige",
                    size="2",
                    variant="outline",
                    color_scheme="indigo",
                    high_contrast=True,
                    on_click=AnimateurState.open_dispute(no),
                    custom_attrs=tid(f"dispute-{no}"),
                ),
            ),
            wrap="wrap",
            align="center",
            width="100%",
        ),
        rx.cond(AnimateurState.dispute_claim == no, _dispute_form(c)),
        padding_y="0.25rem",
        border_bottom=f"1px solid {LINE}",
        custom_attrs=tid(
            f"claim-row-{no}",
            **{
                "data-verdict": verdict,
                "data-tie-lost": rx.cond(c["tie_lost"].to(bool), "true", "false"),
            },
        ),
    )


def _claims() -> rx.Component:
    return rx.box(
        rx.heading("Annonces", size="5"),
        rx.cond(
            HallView.reclamations > 0,
            rx.text(
                "Réclamation : une annonce valide arrivée après l'attribution du lot. "
                "L'association décide (« Réclamation / litige »).",
                font_weight="700",
                custom_attrs=tid("reclamation-note"),
            ),
        ),
        rx.cond(HallView.claims.length() == 0, rx.text("Aucune annonce pour l'instant.")),
        rx.foreach(HallView.claims, _claim_row),
        custom_attrs=tid("claims"),
    )


def _panel_button(label: str, name: str, testid: str) -> rx.Component:
    """Opens an occasional form (`AnimateurState.panel`), or closes it."""
    open_ = AnimateurState.panel == name
    return quiet_button(
        rx.cond(open_, "Fermer", label),
        testid,
        on_click=AnimateurState.open_panel(name),
        custom_attrs={"aria-expanded": rx.cond(open_, "true", "false")},
    )


def _ball_input(testid: str, label: str, font_size: str = "1.6rem") -> rx.Component:
    """A ball's number, typed from the physical boulier (1 to 90; the phone's number pad)."""
    return rx.input(
        name="ball",
        type="number",
        min=1,
        max=90,
        size="3",
        font_size=font_size,
        width="7rem",
        placeholder="n°",
        custom_attrs=tid(testid, inputmode="numeric", **{"aria-label": label}),
    )


def _decisions() -> rx.Component:
    """The association's latest decisions, and voiding a lot ticket (on demand)."""
    return rx.box(
        rx.heading("Litiges (art. 8 du règlement)", size="5"),
        rx.foreach(
            HallView.decisions,
            lambda d: rx.text(d, padding_y="0.2rem", border_bottom=f"1px solid {LINE}"),
        ),
        rx.box(
            _panel_button("Retirer un lot…", "withdraw", "withdraw-open"),
            rx.cond(
                AnimateurState.panel == "withdraw",
                withdraw_form(AnimateurState.withdraw_award),
            ),
            margin_top="0.5rem",
        ),
        padding_top="0.5rem",
        custom_attrs=tid("disputes"),
    )


def _draw_controls() -> rx.Component:
    return rx.cond(
        HallView.physical,
        rx.form(
            rx.hstack(
                _ball_input("ball-input", "Numéro de la boule"),
                big_button(
                    "Annoncer la boule", "ball-submit", type="submit", disabled=~HallView.can_draw
                ),
            ),
            on_submit=AnimateurState.enter_ball,
            reset_on_submit=True,
        ),
        big_button(
            "Tirer un numéro",
            "draw",
            on_click=AnimateurState.draw,
            disabled=~HallView.can_draw,
            width="100%",
            min_height="5rem",
            font_size="2rem",
        ),
    )


def _bag_tokens() -> rx.Component:
    """Tokens from the bag: the animateur types the token each tied player drew."""
    return rx.form(
        rx.el.input(type="hidden", name="tie", value=HallView.tie_key),
        rx.text("Jetons tirés du sac : tapez le numéro de chaque joueur.", font_weight="700"),
        rx.flex(
            rx.foreach(
                HallView.tied,
                lambda t: rx.el.label(
                    rx.text(t["name"], as_="span", font_weight="700"),
                    rx.input(
                        name=f"token-{t['index']}",
                        type="number",
                        min=1,
                        max=90,
                        size="3",
                        width="6rem",
                        font_size="1.4rem",
                        disabled=~HallView.draw_allowed,
                        custom_attrs=tid(
                            f"token-{t['index']}",
                            inputmode="numeric",
                            **{"aria-label": f"Jeton de {t['name']}"},
                        ),
                    ),
                    display="flex",
                    flex_direction="column",
                    gap="0.2rem",
                ),
            ),
            wrap="wrap",
            gap="0.8rem",
            margin_y="0.4rem",
        ),
        big_button(
            "Valider les jetons",
            "tokens-submit",
            type="submit",
            disabled=~HallView.draw_allowed,
            background=rx.cond(HallView.draw_allowed, INFO, DISABLED_BG),
            color=rx.cond(HallView.draw_allowed, ON_SOLID, DISABLED_TEXT),
            width="100%",
        ),
        on_submit=AnimateurState.tie_tokens,
        reset_on_submit=True,
        custom_attrs=tid("bag-tokens"),
    )


def _paper_answers() -> rx.Component:
    """A paper player has no phone: the animateur records the answer they give aloud."""
    return rx.foreach(
        HallView.paper_share,
        lambda t: rx.hstack(
            rx.text(f"{t['name']} (carton papier) partage ?", font_weight="700"),
            rx.button(
                "Oui",
                size="3",
                on_click=AnimateurState.paper_answer(t["index"].to(int), True),
                custom_attrs=tid(f"paper-share-yes-{t['index']}"),
            ),
            rx.button(
                "Non",
                size="3",
                variant="outline",
                color_scheme="gray",
                high_contrast=True,
                on_click=AnimateurState.paper_answer(t["index"].to(int), False),
                custom_attrs=tid(f"paper-share-no-{t['index']}"),
            ),
            align="center",
            wrap="wrap",
        ),
    )


def _waiting(label: str, testid: str) -> rx.Component:
    """The next action, not possible yet (the last call runs): said where it will be."""
    return big_button(
        label,
        testid,
        disabled=True,
        background=DISABLED_BG,
        color=DISABLED_TEXT,
        width="100%",
    )


def _sudden_death() -> rx.Component:
    """A game settled by mort subite: one extra ball a tap (the app's, or the ball drawn from
    the bag typed in), the balls so far and who is still in."""
    return rx.fragment(
        rx.text(
            "Mort subite\u00a0: une boule supplémentaire à la fois\u202f; seuls les ex aequo "
            "dont le carton gagnant porte le numéro restent en lice.",
            custom_attrs=tid("sudden-rule"),
        ),
        rx.cond(
            HallView.sudden_balls.length() > 0,
            rx.text(
                "Boules en plus\u00a0: ",
                rx.text.span(HallView.sudden_balls.join(", ")),
                " — encore en lice\u00a0: ",
                rx.text.span(HallView.sudden_left.join(", ")),
                font_weight="700",
                custom_attrs=tid("sudden-balls"),
            ),
        ),
        rx.cond(
            HallView.token_source == "app",
            big_button(
                "Tirer une boule supplémentaire",
                "sudden-ball",
                on_click=AnimateurState.sudden_ball(None),
                disabled=~HallView.sudden_allowed,
                background=INFO,
                color=ON_SOLID,
                width="100%",
            ),
            rx.form(
                rx.text(
                    "Tirez une boule du boulier, tapez son numéro, puis remettez-la dans le "
                    "boulier.",
                    font_weight="700",
                    margin_bottom="0.3rem",
                ),
                rx.hstack(
                    _ball_input("sudden-input", "Numéro de la boule supplémentaire"),
                    big_button(
                        "Annoncer la boule",
                        "sudden-submit",
                        type="submit",
                        disabled=~HallView.sudden_allowed,
                    ),
                ),
                on_submit=AnimateurState.sudden_ball,
                reset_on_submit=True,
            ),
        ),
    )


def _tie_controls() -> rx.Component:
    """An ex aequo, one step at a time, its next step the one button in view: wait for the
    last call, then as the game's rule says: propose the share (two on a divisible lot) then
    the tokens (typed from the bag, or drawn by the app); the mort subite's extra balls; or,
    when the rule gives each a lot or shares it, the award at once."""
    return rx.box(
        rx.text("Ex aequo : ", rx.text.span(HallView.entries.join(", ")), font_weight="800"),
        rx.cond(
            HallView.tie_rule_label != "",
            rx.text(
                "Règle de cette partie : ",
                rx.text.span(HallView.tie_rule_label),
                custom_attrs=tid("tie-rule"),
            ),
        ),
        rx.cond(
            HallView.last_call,
            _waiting("Dernier appel en cours…", "tie-wait"),
            rx.cond(
                HallView.award_allowed,
                _award(),
                rx.cond(
                    HallView.sudden_allowed,
                    _sudden_death(),
                    _share_or_tokens(),
                ),
            ),
        ),
        padding="0.6rem",
        border=f"3px solid {TIE_LINE}",
        border_radius="0.5rem",
        display="flex",
        flex_direction="column",
        gap="0.5rem",
        custom_attrs=tid("tie-controls"),
    )


def _share_or_tokens() -> rx.Component:
    """The evening's way: the share asked first (two on a divisible lot), then tokens."""
    return rx.cond(
        HallView.share_first,
        rx.fragment(
            rx.text(
                "Deux ex aequo sur un lot partageable : proposez d'abord le partage "
                "(moitié chacun, art. 4). Les jetons viennent après un refus.",
                custom_attrs=tid("share-first"),
            ),
            rx.cond(
                HallView.share_pending,
                rx.fragment(
                    rx.text(
                        "Partage proposé : en attente de la réponse des joueurs.",
                        font_weight="700",
                        custom_attrs=tid("share-pending"),
                    ),
                    _paper_answers(),
                ),
                big_button(
                    "Proposer le partage",
                    "tie-share",
                    on_click=AnimateurState.tie_share,
                    disabled=~HallView.share_possible,
                    background=INFO,
                    color=ON_SOLID,
                    width="100%",
                ),
            ),
        ),
        rx.cond(
            HallView.token_source == "app",
            big_button(
                "Tirage au sort des jetons",
                "tie-draw",
                on_click=AnimateurState.tie_draw,
                disabled=~HallView.draw_allowed,
                background=INFO,
                color=ON_SOLID,
                width="100%",
            ),
            _bag_tokens(),
        ),
    )


def _award() -> rx.Component:
    """The award; between ex aequo whose game gives each a lot, or shares it, the button says
    so (a volunteer must not think one bottle goes to two players)."""
    return big_button(
        rx.cond(
            HallView.last_call,
            "Dernier appel en cours…",
            rx.cond(
                HallView.tie & (HallView.tie_rule == "each"),
                f"Attribuer un lot à chacun ({HallView.entries.length()} lots)\u00a0: "
                f"{HallView.lot_label}",
                rx.cond(
                    HallView.tie & (HallView.tie_rule == "share"),
                    f"Partager le lot entre les {HallView.entries.length()} ex aequo\u00a0: "
                    f"{HallView.lot_label}",
                    f"Attribuer le lot : {HallView.lot_label}",
                ),
            ),
        ),
        "award",
        on_click=AnimateurState.award,
        disabled=~HallView.award_allowed,
        background=rx.cond(HallView.award_allowed, SUCCESS, DISABLED_BG),
        color=rx.cond(HallView.award_allowed, ON_SOLID, DISABLED_TEXT),
        width="100%",
        white_space="normal",
        height="auto",
        padding_y="0.6rem",
    )


def _allow_unmark() -> rx.Component:
    return big_button(
        "Annoncer «\u00a0Vous pouvez démarquer\u00a0»",
        "allow-unmark",
        on_click=AnimateurState.allow_unmark,
        # it ends the game for every phone: a first tap only asks, as a claim does
        # (assets/loto.js); a second tap on the same spot within 4 s announces it
        custom_attrs={
            "data-claim": "unmark",
            "data-confirm": "Confirmer : fin de partie ?",
        },
        background=SUCCESS,
        color=ON_SOLID,
        width="100%",
        white_space="normal",
        text_wrap="balance",
        height="auto",
        padding_y="0.6rem",
    )


def _next_action() -> rx.Component:
    """The one thing to do now, first in the column: start a game, draw (or type the ball),
    award the lot, settle the ex aequo, allow démarquage."""
    claim_open = HallView.entries.length() > 0
    return rx.cond(
        HallView.can_start,
        rx.cond(
            HallView.game_no == 0,
            big_button(
                "Commencer la première partie",
                "start-game",
                on_click=AnimateurState.start_game,
                width="100%",
            ),
            big_button(
                "Partie suivante", "next-game", on_click=AnimateurState.start_game, width="100%"
            ),
        ),
        rx.cond(
            HallView.tie,
            _tie_controls(),
            rx.cond(
                claim_open,
                _award(),
                rx.cond(
                    HallView.awaiting_unmark,
                    _allow_unmark(),
                    rx.cond(
                        HallView.status == "running",
                        _draw_controls(),
                        rx.cond(
                            HallView.status == "over",
                            rx.text(
                                "Toutes les parties ont été jouées. Merci !", font_weight="800"
                            ),
                        ),
                    ),
                ),
            ),
        ),
    )


def _correction() -> rx.Component:
    """Physical boulier: a mistyped last number is corrected on purpose, apart from the ball
    entry: the button opens the form, the right number is typed, then asked once more."""
    return rx.cond(
        HallView.can_correct,
        rx.box(
            _panel_button("Corriger le dernier numéro…", "correct", "correct-open"),
            rx.cond(
                AnimateurState.panel == "correct",
                rx.box(
                    rx.cond(
                        AnimateurState.correction == 0,
                        rx.form(
                            rx.text(
                                f"Le dernier numéro annoncé est le {HallView.last}. "
                                "Quel numéro était vraiment sur la boule ?",
                                font_weight="700",
                            ),
                            rx.hstack(
                                _ball_input("correct-input", "Le bon numéro", "1.4rem"),
                                quiet_button("Continuer", "correct-submit", type="submit"),
                                margin_top="0.4rem",
                            ),
                            on_submit=AnimateurState.ask_correction,
                            reset_on_submit=True,
                        ),
                        rx.box(
                            rx.text(
                                f"Remplacer le {HallView.last} par le "
                                f"{AnimateurState.correction} ? Tous les écrans seront corrigés "
                                "(la correction est notée au journal).",
                                font_weight="800",
                                custom_attrs=tid("correct-question"),
                            ),
                            rx.hstack(
                                rx.button(
                                    "Oui, corriger",
                                    on_click=AnimateurState.correct_last(None),
                                    size="3",
                                    background=ACCENT,
                                    color=ON_SOLID,
                                    custom_attrs=tid("correct-confirm"),
                                ),
                                quiet_button(
                                    "Non",
                                    "correct-cancel",
                                    on_click=AnimateurState.open_panel("correct"),
                                ),
                                margin_top="0.4rem",
                            ),
                        ),
                    ),
                    padding="0.6rem",
                    margin_top="0.4rem",
                    border=f"3px solid {CHECK_LINE}",
                    border_radius="0.5rem",
                    background=CHECK_BG,
                    custom_attrs=tid("correct-panel"),
                ),
            ),
            custom_attrs=tid("correction"),
        ),
    )


def _improvise() -> rx.Component:
    """A partie improvisée: a donor arrived with a lot; the game joins the program after the
    games already started (the organiser edits it fully until it starts)."""
    return rx.box(
        rx.heading("Partie improvisée", size="5"),
        _panel_button("Ajouter une partie…", "improvise", "improvise-open"),
        rx.cond(
            AnimateurState.panel == "improvise",
            rx.form(
                label_around(
                    "Type de partie",
                    rx.el.select(
                        *[rx.el.option(label, value=v) for v, label in IMPROVISED_TYPES],
                        name="type",
                        default_value=IMPROVISED_TYPES[0][0],
                        font_size="1.2rem",
                        padding="0.5rem",
                        custom_attrs=tid("improvise-type"),
                    ),
                ),
                label_around(
                    "Le lot",
                    rx.input(
                        name="lot",
                        size="3",
                        max_length=120,
                        placeholder="Un panier garni offert par la boulangerie",
                        custom_attrs=tid("improvise-lot"),
                    ),
                ),
                big_button("Ajouter au programme", "improvise-submit", type="submit", width="100%"),
                on_submit=AnimateurState.add_game,
                reset_on_submit=True,
                display="flex",
                flex_direction="column",
                gap="0.6rem",
                margin_top="0.5rem",
            ),
        ),
        padding_top="0.5rem",
        custom_attrs=tid("improvise"),
    )


def _paper_claim() -> rx.Component:
    """The control desk: a paper player's claim, by carton number and check code (the form
    opens on demand)."""
    return rx.box(
        rx.heading("Contrôle d'un carton papier", size="5"),
        _panel_button("Contrôler un carton papier…", "paper", "paper-open"),
        rx.cond(AnimateurState.panel == "paper", _paper_form()),
        rx.cond(AnimateurState.panel == "paper", _typed_lines()),
        padding_top="0.5rem",
        custom_attrs=tid("paper-desk"),
    )


def _carton_input(testid: str) -> rx.Component:
    """A carton's number, as printed on it."""
    return rx.input(custom_attrs=tid(testid, **{"aria-label": "Numéro du carton"}), **CARTON)


def _paper_verdict(text: rx.Var, kind: rx.Var, testid: str) -> rx.Component:
    """The verdict of the carton checked at the desk, under its form."""
    return rx.cond(text != "", verdict_box(text, kind, testid, margin_top="0.5rem"))


def _paper_form() -> rx.Component:
    return rx.box(
        rx.form(
            rx.flex(
                _carton_input("paper-carton"),
                rx.input(
                    name="check",
                    placeholder="Code de contrôle",
                    size="3",
                    width="11rem",
                    auto_complete="off",
                    custom_attrs=tid("paper-check", **{"aria-label": "Code de contrôle"}),
                ),
                submit_button("Vérifier l'annonce", "paper-submit", type="submit"),
                wrap="wrap",
                gap="0.5rem",
            ),
            on_submit=AnimateurState.paper_claim,
            reset_on_submit=True,
        ),
        _own_form(),
        _paper_verdict(
            AnimateurState.paper_verdict, AnimateurState.paper_verdict_kind, "paper-verdict"
        ),
        margin_top="0.5rem",
    )


def _typed_line_field(i: int) -> rx.Component:
    return rx.cond(
        AnimateurState.typed_needed >= i,
        line_input(
            i,
            f"typed-line{i}",
            f"Ligne {i}\u00a0: ex. 5 12 23 47 81",
            **{"aria-label": f"Ligne {i}"},
        ),
    )


def _typed_lines() -> rx.Component:
    """A carton in no list (a player's own): the numbers of the claimed line(s) typed."""
    return rx.box(
        rx.heading("Carton hors liste", size="4"),
        rx.cond(
            AnimateurState.typed_needed > 0,
            rx.form(
                rx.vstack(
                    rx.text(AnimateurState.typed_hint, font_weight="700"),
                    *[_typed_line_field(i) for i in range(1, MAX_FIELDS + 1)],
                    player_name_input(
                        "typed-name",
                        placeholder="Nom du joueur (facultatif)",
                        custom_attrs={"aria-label": "Nom du joueur"},
                    ),
                    submit_button("Vérifier les lignes", "typed-submit", type="submit"),
                    spacing="2",
                    width="100%",
                ),
                on_submit=AnimateurState.typed_claim,
                reset_on_submit=False,  # (a slip is corrected, not retyped)
            ),
            rx.button(
                "Taper les numéros de la ligne",
                on_click=AnimateurState.open_typed,
                variant="outline",
                size="3",
                font_size="1.1rem",
                custom_attrs=tid("typed-open"),
            ),
        ),
        _paper_verdict(
            AnimateurState.typed_verdict, AnimateurState.typed_verdict_kind, "typed-verdict"
        ),
        margin_top="0.75rem",
        custom_attrs=tid("typed-desk"),
    )


def _own_form() -> rx.Component:
    """A claim on one of the association's own cartons: its série and number (no code)."""
    return rx.cond(
        AnimateurState.own_series.length() > 0,
        rx.form(
            rx.text("Carton de l'association (sans code)", font_weight="700", margin_top="0.6rem"),
            rx.flex(
                series_select(
                    AnimateurState.own_series,
                    "own-claim-series",
                    font_size="1.1rem",
                    padding="0.5rem",
                    min_height="2.75rem",
                    custom_attrs={"aria-label": "Série"},
                ),
                _carton_input("own-claim-carton"),
                submit_button("Vérifier l'annonce", "own-claim-submit", type="submit"),
                wrap="wrap",
                gap="0.5rem",
            ),
            on_submit=AnimateurState.own_claim,
            reset_on_submit=True,
        ),
    )


def _pair_screen() -> rx.Component:
    """Attach the hall TV: type the code it shows (live/runtime/pairing.py)."""
    return rx.box(
        rx.heading("Relier l'écran de la salle", size="5"),
        rx.text("Ouvrez /ecran sur la télévision et tapez le code qu'elle affiche."),
        pair_form(AnimateurState),
        padding_top="0.5rem",
        custom_attrs=tid("pair-screen"),
    )


def _status() -> rx.Component:
    """The last number, large, and where the evening stands."""
    return rx.hstack(
        last_number("4rem", "6.5rem"),
        rx.vstack(
            rx.text(HallView.evening_name, font_weight="800"),
            rx.text(
                f"Code : {HallView.join_code} — série {HallView.series} — {HallView.players} ",
                rx.cond(HallView.players > 1, "joueurs", "joueur"),
            ),
            rx.text(
                rx.cond(
                    HallView.game_no > 0,
                    f"Partie {HallView.game_no}/{HallView.games_total} : {HallView.game_label}",
                    "Aucune partie commencée",
                )
            ),
            rx.cond(
                HallView.stage_label != "",
                rx.text(
                    f"En jeu : {HallView.stage_label} — {HallView.lot_label}", font_weight="700"
                ),
            ),
            rx.text(
                f"{HallView.count} ",
                rx.cond(HallView.count > 1, "numéros tirés", "numéro tiré"),
            ),
            rx.text(
                f"{HallView.phones} ",
                rx.cond(HallView.phones > 1, "téléphones connectés", "téléphone connecté"),
                " en ce moment",
                custom_attrs=tid("phones-count", **{"data-phones": HallView.phones}),
            ),
            spacing="1",
            align="start",
        ),
        width="100%",
    )


def _phones_warning() -> rx.Component:
    """Many phones gone at once (the hall's Wi-Fi): wait before the next number
    (live/runtime/presence.py says when)."""
    return rx.cond(
        HallView.phones_warning != "",
        rx.callout(
            HallView.phones_warning,
            icon="wifi_off",
            color_scheme="red",
            size="3",
            font_weight="700",
            custom_attrs=tid("phones-warning", role="alert"),
        ),
    )


def _pane(*children: rx.Component, name: str, **props) -> rx.Component:
    """One part of the tablet's layout (assets/loto.css: two sides on a landscape tablet,
    one column on a phone or a portrait tablet)."""
    return rx.box(*children, class_name=f"loto-anim-{name}", **props)


def _dashboard() -> rx.Component:
    """The next action and what the hall hears (primary) with the claims and the rest under
    it on one side; the read-back and the board on the other (the side)."""
    primary = _pane(
        _status(),
        _phones_warning(),
        announcement_box(HallView.announcement, HallView.announcement_kind),
        rx.cond(
            AnimateurState.message != "",
            rx.callout(
                AnimateurState.message,
                color_scheme="orange",
                custom_attrs=tid("animateur-message", role="alert"),
            ),
        ),
        # the next action: one button, in view (the last call and the read-back are beside it)
        rx.box(_next_action(), class_name="loto-anim-next", custom_attrs=tid("next-action")),
        _correction(),
        # between games: the entracte, with its message and the time of return
        entracte(AnimateurState),
        # before the first game: the check before the doors open (pages/verification.py)
        rx.cond(HallView.status == "waiting", preflight_link(margin_top="0.5rem")),
        name="primary",
    )
    side = _pane(
        # (on a phone, two digits must fit a ninth of the screen)
        _pane(
            last_call_banner("2rem"),
            readback(["1.1rem", "1.3rem", "1.6rem"]),
            name="readback",
        ),
        # a landscape tablet: as large as the side's width and the screen's height allow
        _pane(board(["1rem", "1.2rem", "1.2rem", "min(2.2vw, 3.2vh)"]), name="board"),
        name="side",
        # (it scrolls on a landscape tablet when an ex aequo's cartons are read back: a
        # keyboard reaches it too)
        custom_attrs={
            "tabindex": "0",
            "role": "region",
            "aria-label": "Contrôle de l'annonce et tableau des numéros",
        },
    )
    more = _pane(
        _pane(_claims(), name="claims"),
        _pane(
            rx.cond(HallView.status == "running", _paper_claim()),
            rx.cond(~HallView.closed, _improvise()),
            _decisions(),
            _pair_screen(),
            help_link("animateur"),
            rx.button(
                "Se déconnecter",
                on_click=AnimateurState.logout,
                variant="ghost",
                size="3",
                align_self="center",  # a ghost button's negative margins widen the page
            ),
            name="rest",
        ),
        name="more",
    )
    return rx.box(
        _pane(primary, more, name="controls"),
        side,
        class_name="loto-anim",
        custom_attrs=tid("animateur-dashboard"),
    )


def index() -> rx.Component:
    """The animateur page."""
    return page_shell(
        rehearsal_banner(HallView.rehearsal & AnimateurState.signed_in),
        # the two-tap gesture of "Vous pouvez démarquer" (assets/loto.js)
        rx.script(src="/loto.js"),
        rx.cond(
            AnimateurState.signed_in,
            _dashboard(),
            rx.fragment(
                help_link("animateur"),
                _login(),
                rx.cond(
                    AnimateurState.message != "",
                    rx.callout(
                        AnimateurState.message,
                        color_scheme="red",
                        custom_attrs=tid("animateur-message", role="alert"),
                    ),
                ),
            ),
        ),
        max_width="84rem",
    )
