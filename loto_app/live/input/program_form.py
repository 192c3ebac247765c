"""The organiser's program form as plain data: the rows the form shows (games, their stages and
lots, the tariff), typed as strings and booleans, and how they become a `Program` (or why not,
in French). Pure: no Reflex, no database; the domain (`loto_app.domain.program`) decides what
a valid program is. The Reflex state that edits these rows is `live/states/organisation_setup.py`.

A game's rows follow from its type (`domain.games.GAME_TYPES`), never from its name: the
type's shape (`fixed`, `repeats`, `jackpot`, its `patterns`) says which stage rows the form
shows and which may be unticked, its `kinds` the cartons it may play, its `ties` how its ex
aequo may be settled. Every row is read again, field by field, when the program is built: the
state's handlers check each argument, and this module trusts none of what they stored.

The evening's settings come from `domain.settings_catalog`: their fields (`TEXT_FIELDS`,
`CHOICE_FIELDS`, `NUMBER_FIELDS`, `BOOL_FIELDS`), the state's vars (`setting_vars`) and the
reading both ways (`settings_of`, `settings_form`); no setting is named here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from loto_app.domain import settings_catalog as catalog
from loto_app.domain.carton_kinds import KINDS as CARTON_KINDS
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES, GameType, TieRule
from loto_app.domain.games.base import MAX_STAGES, MAX_WITHIN, MIN_WITHIN
from loto_app.domain.program import (
    KIND_LABELS,
    PATTERN_LABELS,
    GameSpec,
    Kind,
    Lot,
    Offer,
    Pattern,
    Program,
    Settings,
    Stage,
    default_offers,
    demo_program,
)
from loto_app.domain.remote import WARNING_LINES
from loto_app.domain.settings_catalog import Check, Choice, Number, Text
from loto_app.limits import MAX_SECRET, MAX_SERIES
from loto_app.refusal import Refusal
from loto_app.wording import amount_text

MAX_GAMES = 30
MAX_OFFERS = 20
MAX_NAME = 120
MAX_DESCRIPTION = 120
MAX_AMOUNT = 12  # characters of a typed amount ("1 234,50 €")
MAX_TITLE = 60

#: The evening's settings, as the form asks for them (`domain.settings_catalog`).
SETTING_SPECS = catalog.SETTINGS

TEXT_FIELDS = {
    "name": MAX_NAME,
    "date": 10,
    "series": MAX_SERIES,
    **{s.form_name: s.control.max_length for s in SETTING_SPECS if isinstance(s.control, Text)},
    "create_key": MAX_SECRET,
}
CHOICE_FIELDS = {
    s.form_name: {o.form for o in s.control.options}
    for s in SETTING_SPECS
    if isinstance(s.control, Choice)
}
NUMBER_FIELDS = {
    s.form_name: (s.control.low, s.control.high)
    for s in SETTING_SPECS
    if isinstance(s.control, Number)
}
BOOL_FIELDS = {
    *(s.form_name for s in SETTING_SPECS if isinstance(s.control, Check)),
}
STAGE_TEXT_FIELDS = {"description": MAX_DESCRIPTION, "value": MAX_AMOUNT, "within": 2}
STAGE_BOOL_FIELDS = {"on", "divisible", "cash"}
KINDS = {k.value for k in Kind}
TYPES = set(GAME_TYPES)
TIES = {t.value for t in TieRule}
PATTERNS = {p.value for p in Pattern}
MAX_WINNERS = MAX_STAGES  # a game of successive winners: 1 to 12 lots
DEFAULT_WITHIN = "50"  # the jackpot's "en N numéros", as a new jackpot game offers it
DEFAULT_TYPE = next(iter(GAME_TYPES))  # the type a new game starts with (the classique)

DEFAULT_NAME = "Loto de l'association"
AMOUNT = re.compile(r"^(\d{1,6})(?:[.,](\d{1,2}))?$")

#: The warning shown when the organiser turns remote play on (domain/remote.py holds it).
REMOTE_WARNING = WARNING_LINES


class FormProblem(Refusal, ValueError):
    """A field of the program form that cannot be read (French message for the organiser)."""


def setting_vars() -> dict[str, tuple[type, Any]]:
    """The form's var for each setting: its type and its value for a new evening."""
    return {
        s.form_name: (bool if isinstance(s.control, Check) else str, s.write(s.default))
        for s in SETTING_SPECS
    }


def settings_of(values: Mapping[str, Any]) -> Settings:
    """The settings the form's values describe (`values`: by form name).

    Raises:
        InvalidProgram: the domain refuses a value (French message).
        ValueError: a value the form never offers.
    """
    return Settings(**{s.name: s.read(values[s.form_name]) for s in SETTING_SPECS})


def settings_form(settings: Settings) -> dict[str, Any]:
    """The form's values for these settings, by form name (`settings_of` gives them back)."""
    return {s.form_name: s.write(getattr(settings, s.name)) for s in SETTING_SPECS}


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
    required: bool = False  # the type plays it whatever: no box to untick
    jackpot: bool = False  # won only "en N numéros": the row asks for N
    within: str = ""  # that N, as typed


@dataclasses.dataclass
class GameDraft:
    """One game of the program form."""

    kind: str = Kind.CLASSIQUE.value
    title: str = ""
    stages: list[StageDraft] = dataclasses.field(default_factory=list)
    locked: bool = False  # (editing an evening) started or played: shown, not changed
    note: str = ""  # why it is locked ("En cours", "Jouée")
    type: str = DEFAULT_TYPE  # its `GameType` (`GAME_TYPES`)
    tie: str = TieRule.EVENING.value  # how its ex aequo are settled
    improvised: bool = False  # added during the evening (kept as it is: no field sets it)


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


def winner_label(n: int, pattern: Pattern) -> str:
    """A row of a game of successive winners ("2e gagnant (quine)")."""
    return f"{n}{'er' if n == 1 else 'e'} gagnant ({PATTERN_LABELS[pattern].lower()})"


def jackpot_labels(gt: GameType) -> tuple[str, str]:
    """The rows of a jackpot game: the jackpot, then its consolation."""
    name = PATTERN_LABELS[gt.patterns[0]].lower()
    return f"Jackpot ({name})", f"Lot de consolation ({PATTERN_LABELS[gt.patterns[-1]].lower()})"


def _plays_all(gt: GameType) -> bool:
    """May a game of this type play every one of its patterns at once (a maxiquine: no)?"""
    stages = tuple(Stage(p, Lot("?")) for p in gt.patterns)
    try:
        GameSpec(gt.kinds[0], stages, type=gt.name)
    except InvalidProgram:
        return False
    return True


def stage_rows(
    gt: GameType, *, winners: int = 1, pattern: Pattern | None = None, within: str = ""
) -> list[StageDraft]:
    """The stage rows a game of this type shows, in order, ticked as a new game plays them.

    Successive winners (`repeats`): one row per winner, all of `pattern`; a jackpot: the
    jackpot (with its "en N numéros") and the consolation; a fixed type: its patterns, none
    to untick; any other: its patterns to tick (all, or the first when the type plays one).
    """
    if gt.repeats:
        p = pattern if pattern in gt.patterns else gt.patterns[0]
        n = min(max(winners, 1), MAX_WINNERS)
        return [
            StageDraft(pattern=p.value, label=winner_label(k, p), required=True)
            for k in range(1, n + 1)
        ]
    if gt.jackpot:
        first, second = jackpot_labels(gt)
        return [
            StageDraft(
                pattern=gt.patterns[0].value,
                label=first,
                required=True,
                jackpot=True,
                within=within or DEFAULT_WITHIN,
            ),
            StageDraft(pattern=gt.patterns[-1].value, label=second),
        ]
    every = gt.fixed or _plays_all(gt)
    return [
        StageDraft(pattern=p.value, label=PATTERN_LABELS[p], on=every or i == 0, required=gt.fixed)
        for i, p in enumerate(gt.patterns)
    ]


def _fill(row: StageDraft, s: Stage) -> None:
    row.on = True
    row.description = s.lot.description
    row.value = amount_text(s.lot.value_cents) if s.lot.value_cents else ""
    row.divisible = s.lot.divisible
    if row.jackpot:
        row.within = str(s.within)


def game_draft(spec: GameSpec) -> GameDraft:
    """A game of a program, as the form shows it (`build_program` gives it back unchanged)."""
    gt = spec.game_type
    first = spec.stages[0]
    rows = stage_rows(gt, winners=len(spec.stages), pattern=first.pattern, within=str(first.within))
    if gt.repeats or gt.jackpot:  # (rows in order: the nth stage is the nth row)
        for r in rows[len(spec.stages) :]:
            r.on = False
        for r, s in zip(rows, spec.stages, strict=False):
            _fill(r, s)
    else:
        played = {s.pattern.value: s for s in spec.stages}
        for r in rows:
            s = played.get(r.pattern)
            r.on = s is not None
            if s is not None:
                _fill(r, s)
    return GameDraft(
        kind=spec.kind.value,
        title=spec.title,
        stages=rows,
        type=gt.name,
        tie=spec.tie.value,
        improvised=spec.improvised,
    )


def new_game(type_name: str, title: str = "") -> GameDraft:
    """A new game of this type, with its first kind of cartons and the evening's tie rule."""
    gt = GAME_TYPES[type_name]
    tie = TieRule.EVENING if TieRule.EVENING in gt.ties else gt.ties[0]
    return GameDraft(
        kind=gt.kinds[0].value, title=title, stages=stage_rows(gt), type=gt.name, tie=tie.value
    )


def _copy_lot(row: StageDraft, old: StageDraft) -> None:
    row.description, row.value, row.divisible = old.description, old.value, old.divisible
    row.cash, row.problem = old.cash, old.problem


def _lots_by_pattern(rows: list[StageDraft]) -> dict[str, list[StageDraft]]:
    out: dict[str, list[StageDraft]] = {}
    for r in rows:
        if r.on and (r.description or r.value):
            out.setdefault(r.pattern, []).append(r)
    return out


def _carry(rows: list[StageDraft], old: list[StageDraft]) -> list[StageDraft]:
    """The new rows, with the lots typed in the old rows of the same pattern (in order)."""
    lots = _lots_by_pattern(old)
    for r in rows:
        if lots.get(r.pattern):
            _copy_lot(r, lots[r.pattern].pop(0))
    return rows


def retyped(g: GameDraft, type_name: str) -> GameDraft:
    """The game as one of another type: its kind and tie rule kept where the type allows them,
    the lots already typed kept on the stages of the same pattern."""
    gt = GAME_TYPES[type_name]
    out = new_game(type_name, g.title)
    if g.kind in gt.kinds:
        out.kind = g.kind
    if g.tie in gt.ties:
        out.tie = g.tie
    out.stages = _carry(out.stages, g.stages)
    out.improvised = g.improvised
    return out


def with_winners(g: GameDraft, winners: int, pattern: str) -> list[StageDraft]:
    """A game of successive winners' rows for this many winners of this pattern (the lots
    typed kept, in order)."""
    gt = GAME_TYPES[g.type]
    p = Pattern(pattern)
    rows = stage_rows(gt, winners=winners, pattern=p)
    for r, o in zip(rows, g.stages, strict=False):
        _copy_lot(r, o)
    return rows


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
    if row.kind not in KINDS:
        raise FormProblem(f"offer kind {row.kind!r:.30}", "Carton inconnu.")
    q = row.quantity.strip()
    if not (q.isascii() and q.isdigit()) or len(q) > 3:
        raise FormProblem(
            f"offer quantity {row.quantity!r:.20}", "Quantité : un nombre entier de cartons."
        )
    price = parse_cents(row.price, "Prix")
    return Offer(Kind(row.kind), int(row.quantity.strip()), price, planche=row.planche)


def offer_name(row: OfferDraft) -> str:
    """A tariff line's name for messages ("Tarif 2 : 3 cartons classique")."""
    kind = KIND_LABELS[Kind(row.kind)].lower() if row.kind in KINDS else "?"
    return f"{row.quantity.strip() or '?'} × {kind}"


def parse_within(text: str) -> int:
    """The jackpot's "en N numéros" as typed.

    Raises:
        FormProblem: not a whole number.
    """
    clean = text.strip()
    if not (clean.isascii() and clean.isdigit() and len(clean) <= 2):
        raise FormProblem(
            f"within {text!r:.20} is not a number",
            f"Écrivez le nombre de numéros du jackpot, de {MIN_WITHIN} à {MAX_WITHIN}.",
        )
    return int(clean)


def stage_of(row: StageDraft) -> Stage:
    """The stage of a ticked row (its pattern, its lot, a jackpot's "en N numéros")."""
    if row.pattern not in PATTERNS:
        raise FormProblem(f"pattern {row.pattern!r:.30}", "Figure inconnue.")
    within = parse_within(row.within) if row.jackpot else 0
    return Stage(Pattern(row.pattern), lot_of(row), within=within)


def spec_of(g: GameDraft, i: int) -> GameSpec:
    """The game a form's game describes (its type, kind and tie rule read again: the domain
    decides whether they go together).

    Raises:
        InvalidProgram, FormProblem: "Partie 2 : ..." or, for a stage, "Partie 2, Quine : ...".
    """
    if g.type not in TYPES:
        raise FormProblem(f"game {i} type {g.type!r:.30}", f"Partie {i} : type de partie inconnu.")
    if g.kind not in KINDS:
        raise FormProblem(f"game {i} kind {g.kind!r:.30}", f"Partie {i} : carton inconnu.")
    if g.tie not in TIES:
        raise FormProblem(
            f"game {i} tie rule {g.tie!r:.30}", f"Partie {i} : règle des ex aequo inconnue."
        )
    stages = []
    for row in g.stages:
        if not (row.on or row.required):
            continue
        try:
            stages.append(stage_of(row))
        except (InvalidProgram, FormProblem) as exc:
            raise type(exc)(
                f"game {i} {row.pattern}: {exc}",
                f"Partie {i}, {row.label} : {exc.user_message}",
            ) from exc
    try:
        return GameSpec(
            Kind(g.kind),
            tuple(stages),
            title=g.title.strip(),
            type=g.type,
            tie=g.tie,
            improvised=g.improvised is True,
        )
    except InvalidProgram as exc:
        raise InvalidProgram(f"game {i}: {exc}", f"Partie {i} : {exc.user_message}") from exc


def _games_of_kind(games: list[GameDraft], kind: Kind) -> str:
    nos = [str(i) for i, g in enumerate(games, 1) if g.kind == kind.value]
    if len(nos) == 1:
        return f"partie {nos[0]}"
    return "parties " + ", ".join(nos[:-1]) + f" et {nos[-1]}"


def build_program(
    series: str, settings: Settings, games: list[GameDraft], offers: list[OfferDraft]
) -> Program:
    """The program the form describes.

    Raises:
        InvalidProgram, FormProblem: with a French `user_message` that says where.
    """
    if len(games) > MAX_GAMES:
        raise FormProblem(
            f"{len(games)} games", f"Le programme compte plus de {MAX_GAMES} parties."
        )
    if len(offers) > MAX_OFFERS:
        raise FormProblem(f"{len(offers)} offers", f"Le tarif a plus de {MAX_OFFERS} lignes.")
    specs = [spec_of(g, i) for i, g in enumerate(games, 1)]
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
    priced = {o.kind for o in tariff}
    for k in Kind:
        if any(s.kind is k for s in specs) and k not in priced:
            raise FormProblem(
                f"no offer for the {k} cartons played",
                f"Tarif : aucun prix pour les {CARTON_KINDS[k].many} "
                f"({_games_of_kind(games, k)}) : ajoutez-en un.",
            )
    return Program(series=series, games=tuple(specs), settings=settings, offers=tuple(tariff))


def stage_problem(row: StageDraft) -> str:
    """What is wrong with a stage row, shown beside it as it is typed (a ticked "lot en
    argent" first, whatever else is missing: it is never allowed)."""
    if not (row.on or row.required):
        return ""
    if row.cash:
        try:
            Lot("?", cash=True)
        except InvalidProgram as exc:
            return exc.user_message
    if row.jackpot:
        try:
            n = parse_within(row.within)
        except FormProblem as exc:
            return exc.user_message
        if not MIN_WITHIN <= n <= MAX_WITHIN:  # (the jackpot's own check says it at creation)
            return f"Le jackpot se joue en {MIN_WITHIN} à {MAX_WITHIN} numéros."
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


def kinds_played(games: list[GameDraft]) -> list[Kind]:
    """The kinds of cartons the form's games play, in the domain's order."""
    seen = {g.kind for g in games}
    return [k for k in Kind if k.value in seen]


def priced(games: list[GameDraft], offers: list[OfferDraft]) -> list[OfferDraft]:
    """The tariff, with the usual prices of every kind played that has none yet (each kind's
    lines together, in the domain's order of kinds; the lines typed kept as they are)."""
    have = {o.kind for o in offers}
    out = list(offers)
    for k in kinds_played(games):
        if k.value in have:
            continue
        rank = list(Kind).index(k)
        at = next((n for n, o in enumerate(out) if _rank(o.kind) > rank), len(out))
        out[at:at] = [offer_draft(o) for o in default_offers({k})]
    return out


def _rank(kind: str) -> int:
    return list(Kind).index(Kind(kind)) if kind in KINDS else len(Kind)


def tariff_groups(games: list[GameDraft], offers: list[OfferDraft]) -> list[dict[str, str]]:
    """The tariff step's groups: one per kind of cartons played (its title, the games that
    play it, whether it sells as a planche, whether it has a price, its button's words), and
    one for the lines of kinds no game plays (kind "")."""
    groups = []
    have = {o.kind for o in offers}
    for k in kinds_played(games):
        d = CARTON_KINDS[k]
        groups.append(
            {
                "kind": k.value,
                "id": k.value,
                "title": d.title,
                "games": _games_of_kind(games, k).capitalize(),
                "planche": "yes" if d.planche else "",
                "priced": "yes" if k.value in have else "",
                "add": f"Ajouter un prix pour les {d.many}",
            }
        )
    played = {g["kind"] for g in groups}
    if any(o.kind not in played for o in offers):
        groups.append(
            {
                "kind": "",
                "id": "none",
                "title": "Cartons d'aucune partie",
                "games": "Aucune partie du programme ne joue ces cartons : retirez ces prix.",
                "planche": "",
                "priced": "yes",
                "add": "",
            }
        )
    return groups


def offer_groups(games: list[GameDraft], offers: list[OfferDraft]) -> list[str]:
    """The group of each tariff line in `tariff_groups` (its kind, "" for a kind not played)."""
    played = {g.kind for g in games}
    return [o.kind if o.kind in played else "" for o in offers]


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
