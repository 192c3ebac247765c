"""The organiser's program form as plain data: the rows the form shows (games, their stages and
lots, the tariff), typed as strings and booleans, and how they become a `Program` (or why not,
in French). Pure: no Reflex, no database; the domain (`loto_app.domain.program`) decides what
a valid program is. The Reflex state that edits these rows is `live/states/organisation_setup.py`.
"""

from __future__ import annotations

import dataclasses
import re

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.program import (
    KIND_LABELS,
    PATTERN_LABELS,
    PATTERNS_BY_KIND,
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Offer,
    Pattern,
    Program,
    Settings,
    Stage,
    TieMethod,
    TokenSource,
    demo_program,
)
from loto_app.limits import MAX_SECRET, MAX_SERIES
from loto_app.refusal import Refusal
from loto_app.wording import amount_text

MAX_GAMES = 30
MAX_OFFERS = 20
MAX_NAME = 120
MAX_STREAM = 300
MAX_DESCRIPTION = 120
MAX_AMOUNT = 12  # characters of a typed amount ("1 234,50 €")
MAX_TITLE = 60

TEXT_FIELDS = {
    "name": MAX_NAME,
    "date": 10,
    "series": MAX_SERIES,
    "stream_url": MAX_STREAM,
    "create_key": MAX_SECRET,
}
CHOICE_FIELDS = {
    "draw_source": {d.value for d in DrawSource},
    "tie_method": {t.value for t in TieMethod},
    "token_source": {"auto", *(t.value for t in TokenSource)},  # "auto": as the boulier
    "last_call": {"0", "5", "10", "15"},  # seconds of "Pas d'autre quine ?"
}
BOOL_FIELDS = {
    "auto_marking",
    "claim_hint",
    "one_to_go",
    "remote_play",
    "remote_ack",
    "free_cartons",
}
STAGE_TEXT_FIELDS = {"description": MAX_DESCRIPTION, "value": MAX_AMOUNT}
STAGE_BOOL_FIELDS = {"on", "divisible", "cash"}
KINDS = {k.value for k in Kind}

DEFAULT_NAME = "Loto de l'association"
AMOUNT = re.compile(r"^(\d{1,6})(?:[.,](\d{1,2}))?$")

REMOTE_WARNING = (
    "Un loto traditionnel se joue dans un cercle restreint (art. L322-4 du Code de la sécurité "
    "intérieure) : il ne doit pas être ouvert à un public en ligne. Le jeu à distance se fait "
    "uniquement avec le lien d'invitation de la soirée, à donner aux seules personnes de votre "
    "entourage (membres, proches) qui ne peuvent pas venir dans la salle."
)


class FormProblem(Refusal, ValueError):
    """A field of the program form that cannot be read (French message for the organiser)."""


@dataclasses.dataclass
class StageDraft:
    """One possible stage of a game, as the form shows it (`on`: played tonight)."""

    pattern: str = ""
    label: str = ""
    on: bool = True
    description: str = ""
    value: str = ""  # euros, as typed
    divisible: bool = False
    cash: bool = False
    problem: str = ""


@dataclasses.dataclass
class GameDraft:
    """One game of the program form."""

    kind: str = Kind.CLASSIQUE.value
    title: str = ""
    stages: list[StageDraft] = dataclasses.field(default_factory=list)
    locked: bool = False  # (editing an evening) started or played: shown, not changed
    note: str = ""  # why it is locked ("En cours", "Jouée")


@dataclasses.dataclass
class OfferDraft:
    """One line of the tariff form."""

    kind: str = Kind.CLASSIQUE.value
    quantity: str = "1"
    price: str = ""  # euros, as typed
    planche: bool = False
    problem: str = ""


def parse_cents(text: str, what: str, *, allow_empty: bool = False) -> int:
    """An amount typed in euros ("3", "3,50", "3.5 €") as cents.

    Raises:
        FormProblem: not an amount.
    """
    clean = text.replace("€", "").replace(" ", "").replace("\u00a0", "").strip()
    if not clean and allow_empty:
        return 0
    m = AMOUNT.match(clean)
    if not m:
        raise FormProblem(
            f"{what}: {text!r:.40} is not an amount",
            f"{what} : écrivez un montant en euros, par exemple 3 ou 2,50.",
        )
    cents = (m.group(2) or "0").ljust(2, "0")
    return int(m.group(1)) * 100 + int(cents)


def stage_rows(kind: Kind) -> list[StageDraft]:
    """The stages a game of this kind may play, in order (maxiquine: the first only)."""
    rows = []
    for i, p in enumerate(PATTERNS_BY_KIND[kind]):
        on = i == 0 if kind is Kind.MAXIQUINE else True
        rows.append(StageDraft(pattern=p.value, label=PATTERN_LABELS[p], on=on))
    return rows


def game_draft(spec: GameSpec) -> GameDraft:
    """A game of a program, as the form shows it."""
    rows = stage_rows(spec.kind)
    played = {s.pattern.value: s for s in spec.stages}
    for r in rows:
        s = played.get(r.pattern)
        r.on = s is not None
        if s is not None:
            r.description = s.lot.description
            r.value = amount_text(s.lot.value_cents) if s.lot.value_cents else ""
            r.divisible = s.lot.divisible
    return GameDraft(kind=spec.kind.value, title=spec.title, stages=rows)


def offer_draft(o: Offer) -> OfferDraft:
    """A tariff line, as the form shows it."""
    return OfferDraft(
        kind=o.kind.value,
        quantity=str(o.quantity),
        price=amount_text(o.price_cents),
        planche=o.planche,
    )


def lot_of(row: StageDraft) -> Lot:
    """The lot of a stage row (the domain refuses a cash lot, an empty description...)."""
    value = parse_cents(row.value, "Valeur du lot", allow_empty=True)
    return Lot(row.description.strip(), value, divisible=row.divisible, cash=row.cash)


def offer_of(row: OfferDraft) -> Offer:
    """The offer of a tariff line (the domain refuses a price of 20 euros or more...)."""
    if not row.quantity.strip().isdigit() or len(row.quantity.strip()) > 3:
        raise FormProblem(
            f"offer quantity {row.quantity!r:.20}", "Quantité : un nombre entier de cartons."
        )
    price = parse_cents(row.price, "Prix")
    return Offer(Kind(row.kind), int(row.quantity.strip()), price, planche=row.planche)


def offer_name(row: OfferDraft) -> str:
    """A tariff line's name for messages ("Tarif 2 : 3 cartons classique")."""
    return f"{row.quantity.strip() or '?'} × {KIND_LABELS[Kind(row.kind)].lower()}"


def build_program(
    series: str, settings: Settings, games: list[GameDraft], offers: list[OfferDraft]
) -> Program:
    """The program the form describes.

    Raises:
        InvalidProgram, FormProblem: with a French `user_message` that says where.
    """
    specs = []
    for i, g in enumerate(games, 1):
        stages = []
        for row in g.stages:
            if not row.on:
                continue
            try:
                stages.append(Stage(Pattern(row.pattern), lot_of(row)))
            except (InvalidProgram, FormProblem) as exc:
                raise type(exc)(
                    f"game {i} {row.pattern}: {exc}",
                    f"Partie {i}, {row.label} : {exc.user_message}",
                ) from exc
        try:
            specs.append(GameSpec(Kind(g.kind), tuple(stages), title=g.title.strip()))
        except InvalidProgram as exc:
            raise InvalidProgram(f"game {i}: {exc}", f"Partie {i} : {exc.user_message}") from exc
    tariff = []
    for i, row in enumerate(offers, 1):
        try:
            tariff.append(offer_of(row))
        except (InvalidProgram, FormProblem) as exc:
            raise type(exc)(
                f"offer {i}: {exc}", f"Tarif {i} ({offer_name(row)}) : {exc.user_message}"
            ) from exc
    if not tariff:
        raise FormProblem("no offer", "Ajoutez au moins un tarif de cartons.")
    return Program(series=series, games=tuple(specs), settings=settings, offers=tuple(tariff))


def stage_problem(row: StageDraft) -> str:
    """What is wrong with a stage row, shown beside it as it is typed (a ticked "lot en
    argent" first, whatever else is missing: it is never allowed)."""
    if not row.on:
        return ""
    if row.cash:
        try:
            Lot("?", cash=True)
        except InvalidProgram as exc:
            return exc.user_message
    try:
        lot_of(row)
    except (InvalidProgram, FormProblem) as exc:
        if row.description.strip() or row.cash or row.value.strip():
            return exc.user_message
    return ""


def offer_problem(row: OfferDraft) -> str:
    try:
        offer_of(row)
    except (InvalidProgram, FormProblem) as exc:
        return exc.user_message
    return ""


def default_game_drafts() -> list[GameDraft]:
    return [game_draft(g) for g in demo_program().games]


def default_offer_drafts() -> list[OfferDraft]:
    return [offer_draft(o) for o in demo_program().offers]


#: The steps of the organiser's form: (number, title). Editing an evening shows 2 to 4.
STEPS = ((1, "La soirée"), (2, "Les parties"), (3, "Le tarif"), (4, "Réglages"))
EDIT_STEPS = tuple(s for s in STEPS if s[0] != 1)


def step_of(problem: str) -> int:
    """The step of the form where a French problem is fixed (the form jumps there)."""
    if problem.startswith(("Partie", "La partie", "Le programme", "Des cartons")):
        return 2
    if problem.startswith(("Tarif", "Ajoutez au moins un tarif", "Aucune partie", "Le tarif")):
        return 3
    if problem.startswith(("Jeu à distance", "Le lien", "Le dernier appel", "Des ventes")):
        return 4
    if "en cours : ce réglage" in problem:
        return 4
    return 1
