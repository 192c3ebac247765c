"""OrganisationState: the organiser creates an evening, then manages its desk and its records.

Creating an evening is open (it only hands out new secrets); everything about an existing
evening needs the organiser's secret, checked against the database again on every call: a
secret that was reset stops working at once, and the code and secret the browser remembers
(`rx.LocalStorage`) are only ever used to sign in again, never trusted as a sign-in.

The program form is kept in this per-client state as plain strings and booleans; the domain
(`loto_app.domain.program`) decides what is a valid program and says why not in French.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import os
import re
import secrets
from typing import Any

import reflex as rx

from loto_app import network
from loto_app.domain.errors import InvalidProgram, LotoError
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
    default_offers,
    demo_program,
)
from loto_app.live import broadcast, registry, signin_limit
from loto_app.live.disputes import decision_move, read_decision, read_withdrawal
from loto_app.live.guards import BadInput, as_bool, as_int, as_text, form, refuse
from loto_app.records import export
from loto_app.records.paper import cartons_for, paper_pdf
from loto_app.records.report import build_report, local_time, problem_fr
from loto_app.storage.access import MAX_STAFF_NAME, ROLES, AccessError, AccessStore

log = logging.getLogger("loto_app.live")

MAX_GAMES = 30
MAX_OFFERS = 20
MAX_NAME = 120
MAX_SERIES = 16
MAX_STREAM = 300
MAX_DESCRIPTION = 120
MAX_AMOUNT = 12  # characters of a typed amount ("1 234,50 €")
MAX_TITLE = 60

#: When set, creating an evening asks for this key (a server open to the internet should set it).
CREATE_KEY_ENV = "LOTO_CREATE_KEY"

TEXT_FIELDS = {
    "name": MAX_NAME,
    "date": 10,
    "series": MAX_SERIES,
    "stream_url": MAX_STREAM,
    "create_key": 64,
}
CHOICE_FIELDS = {
    "draw_source": {d.value for d in DrawSource},
    "tie_method": {t.value for t in TieMethod},
    "token_source": {"auto", *(t.value for t in TokenSource)},  # "auto": as the boulier
    "last_call": {"0", "5", "10", "15"},  # seconds of "Pas d'autre quine ?"
}
BOOL_FIELDS = {"auto_marking", "claim_hint", "remote_play", "remote_ack", "free_cartons"}
STAGE_TEXT_FIELDS = {"description": MAX_DESCRIPTION, "value": MAX_AMOUNT}
STAGE_BOOL_FIELDS = {"on", "divisible", "cash"}
KINDS = {k.value for k in Kind}

DEFAULT_NAME = "Loto de l'association"
AMOUNT = re.compile(r"^(\d{1,6})(?:[.,](\d{1,2}))?$")

REMOTE_WARNING = (
    "Un loto traditionnel se joue dans un cercle restreint (art. L322-4 du Code de la sécurité "
    "intérieure) : il ne doit pas être ouvert à un public en ligne. Le jeu à distance se fait "
    "uniquement avec le lien d'invitation de la soirée, à donner aux seules personnes de votre "
    "entourage (membres, proches) qui ne peuvent pas venir dans la salle."
)
NOT_SIGNED_IN = "Réservé à l'organisateur : connectez-vous avec le code et le secret de la soirée."


class FormProblem(ValueError):
    """A field of the program form that cannot be read (French message for the organiser)."""

    def __init__(self, detail: str, user_message: str) -> None:
        super().__init__(detail)
        self.user_message = user_message


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


@dataclasses.dataclass
class OfferDraft:
    """One line of the tariff form."""

    kind: str = Kind.CLASSIQUE.value
    quantity: str = "1"
    price: str = ""  # euros, as typed
    planche: bool = False
    problem: str = ""


@dataclasses.dataclass
class StaffView:
    """A member of the desk, for the list."""

    id: int = 0
    name: str = ""
    role: str = ""
    role_label: str = ""
    active: bool = True


@dataclasses.dataclass
class ReportLine:
    """One line of the report's summary: a label and its value."""

    label: str = ""
    value: str = ""


# ---------------------------------------------------------------------------- form <-> domain


def euros(cents: int) -> str:
    """Cents as the form shows them: "3", "3,50"."""
    return f"{cents // 100}" if cents % 100 == 0 else f"{cents // 100},{cents % 100:02d}"


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
            f"{what} : écrivez un montant en euros, par exemple 3 ou 2,50.",
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
            r.value = euros(s.lot.value_cents) if s.lot.value_cents else ""
            r.divisible = s.lot.divisible
    return GameDraft(kind=spec.kind.value, title=spec.title, stages=rows)


def offer_draft(o: Offer) -> OfferDraft:
    """A tariff line, as the form shows it."""
    return OfferDraft(
        kind=o.kind.value, quantity=str(o.quantity), price=euros(o.price_cents), planche=o.planche
    )


def lot_of(row: StageDraft) -> Lot:
    """The lot of a stage row (the domain refuses a cash lot, an empty description...)."""
    value = parse_cents(row.value, "Valeur du lot", allow_empty=True)
    return Lot(row.description.strip(), value, divisible=row.divisible, cash=row.cash)


def offer_of(row: OfferDraft) -> Offer:
    """The offer of a tariff line (the domain refuses a price of 20 euros or more...)."""
    if not row.quantity.strip().isdigit() or len(row.quantity.strip()) > 3:
        raise FormProblem(
            f"offer quantity {row.quantity!r:.20}", "Quantité : un nombre entier de cartons."
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
                    f"Partie {i}, {row.label} : {exc.user_message}",
                ) from exc
        try:
            specs.append(GameSpec(Kind(g.kind), tuple(stages), title=g.title.strip()))
        except InvalidProgram as exc:
            raise InvalidProgram(f"game {i}: {exc}", f"Partie {i} : {exc.user_message}") from exc
    tariff = []
    for i, row in enumerate(offers, 1):
        try:
            tariff.append(offer_of(row))
        except (InvalidProgram, FormProblem) as exc:
            raise type(exc)(
                f"offer {i}: {exc}", f"Tarif {i} ({offer_name(row)}) : {exc.user_message}"
            ) from exc
    if not tariff:
        raise FormProblem("no offer", "Ajoutez au moins un tarif de cartons.")
    return Program(series=series, games=tuple(specs), settings=settings, offers=tuple(tariff))


def _stage_problem(row: StageDraft) -> str:
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


def _offer_problem(row: OfferDraft) -> str:
    try:
        offer_of(row)
    except (InvalidProgram, FormProblem) as exc:
        return exc.user_message
    return ""


def _default_games() -> list[GameDraft]:
    return [game_draft(g) for g in demo_program().games]


def _default_offers() -> list[OfferDraft]:
    return [offer_draft(o) for o in demo_program().offers]


def choice(value: Any, allowed: Any, what: str) -> str:
    """One of a few known strings (anything else, of any type, is refused)."""
    if not isinstance(value, str) or len(value) > 32 or value not in allowed:
        raise BadInput(f"{what}: {value!r:.40} is not one of {sorted(allowed)}")
    return value


# ---------------------------------------------------------------------------- the state


class OrganisationState(rx.State):
    """The organiser's page: create an evening, sign in, the desk, the records."""

    # remembered by this browser, only to sign in again (the server checks them each time)
    code: str = rx.LocalStorage("", name="loto_organiser_code")
    secret: str = rx.LocalStorage("", name="loto_organiser_secret")
    signed_in: bool = False
    tab: str = "create"  # "create" | "signin" while signed out
    login_message: str = ""
    message: str = ""  # from the event gate (loto_app/live/ratelimit.py): too many requests
    origin: str = ""  # the page's scheme://host, for the links

    # --- the new evening form
    name: str = DEFAULT_NAME
    date: str = ""
    series: str = "A"
    draw_source: str = DrawSource.ELECTRONIC.value
    tie_method: str = TieMethod.SHARE_OR_DRAW.value
    token_source: str = "auto"
    last_call: str = "5"
    auto_marking: bool = False
    claim_hint: bool = False
    free_cartons: bool = False
    create_key: str = ""
    key_required: bool = False
    stream_url: str = ""
    remote_play: bool = False
    remote_ack: bool = False
    games: list[GameDraft] = _default_games()
    offers: list[OfferDraft] = _default_offers()
    form_error: str = ""
    creating: bool = False

    # --- shown once after creation
    created: bool = False
    new_code: str = ""
    new_animateur_secret: str = ""
    new_organiser_secret: str = ""
    new_invitation: str = ""

    # --- the signed-in organiser's evening
    evening_name: str = ""
    evening_code: str = ""
    evening_series: str = ""
    evening_remote: bool = False
    staff: list[StaffView] = []
    staff_message: str = ""
    new_staff_name: str = ""
    new_staff_role: str = ""
    new_staff_secret: str = ""
    invitation: str = ""
    renew_animateur_asked: bool = False  # the confirmation step is shown
    renewed_animateur_secret: str = ""  # shown once
    records_message: str = ""
    report_lines: list[ReportLine] = []
    report_winners: list[str] = []
    report_decisions: list[str] = []
    decision_message: str = ""
    decision_ok: bool = False
    audit_ok: bool = False
    audit_message: str = ""
    audit_problems: list[str] = []

    _evening_id: int = 0
    _secret: str = ""

    # ------------------------------------------------------------------ derived

    @rx.var
    def kind_names(self) -> list[str]:
        """The kinds of the games in the form, for the tariff's kind menus."""
        seen = [g.kind for g in self.games]
        return [k.value for k in Kind if k.value in seen]

    @rx.var
    def player_link(self) -> str:
        """The players' join link of the signed-in evening."""
        return f"{self.origin}/?code={self.evening_code}"

    @rx.var
    def screen_link(self) -> str:
        """The hall screen's link."""
        return f"{self.origin}/ecran?code={self.evening_code}"

    @rx.var
    def invitation_link(self) -> str:
        """The remote players' invitation link (empty when remote play is off)."""
        if not self.invitation:
            return ""
        return f"{self.origin}/?code={self.evening_code}&invitation={self.invitation}"

    # ------------------------------------------------------------------ page load and sign-in

    @rx.event
    async def resume(self):
        """On load: today's date in an untouched form; sign in again with what this browser
        remembers."""
        self.origin = self._origin()
        self.key_required = bool(os.environ.get(CREATE_KEY_ENV))
        if not self.date:
            self.date = dt.date.today().isoformat()
        self.signed_in, self._evening_id, self._secret = False, 0, ""
        code, secret = self.code, self.secret
        if isinstance(code, str) and isinstance(secret, str) and secret and len(secret) <= 64:
            try:
                if len(code) <= 16 and await self._sign_in(code.strip().upper(), secret):
                    return
            except signin_limit.TooManyAttempts as exc:
                refuse(self._who(), "resume", exc)
                self.login_message, self.tab = exc.user_message, "signin"
                return
            self.code, self.secret = "", ""

    @rx.event
    def show_tab(self, tab: Any):
        """Signed out: switch between creating an evening and signing in."""
        try:
            self.tab = choice(tab, ("create", "signin"), "tab")
        except BadInput as exc:
            refuse(self._who(), "show_tab", exc)
            return
        self.login_message = ""

    @rx.event
    async def login(self, form_data: Any):
        """The sign-in form: the evening's join code and the organiser's secret."""
        try:
            data = form(form_data)
            code = as_text(data.get("code", ""), "code", 16).upper()
            secret = as_text(data.get("secret", ""), "secret", 64)
        except BadInput as exc:
            refuse(self._who(), "login", exc)
            self.login_message = "Code ou secret trop long."
            return
        try:
            ok = bool(code and secret) and await self._sign_in(code, secret)
        except signin_limit.TooManyAttempts as exc:
            refuse(self._who(), "login", exc)
            self.login_message = exc.user_message
            return
        if not ok:
            self.login_message = "Code de soirée ou secret de l'organisateur incorrect."
            return
        self.code, self.secret, self.login_message = code, secret, ""

    @rx.event
    def logout(self):
        """Forget the sign-in on this browser."""
        self.code, self.secret = "", ""
        self._evening_id, self._secret, self.signed_in = 0, "", False
        self.created = False
        self._forget_created()
        self.new_staff_secret = self.new_staff_name = ""
        self.renew_animateur_asked, self.renewed_animateur_secret = False, ""
        self.tab = "signin"

    async def _sign_in(self, code: str, secret: str) -> bool:
        """Raises signin_limit.TooManyAttempts when this address failed too often."""
        await signin_limit.check(self.router)
        store = registry.store()
        evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
        access = AccessStore(store.engine)
        ok = evening_id is not None and await asyncio.to_thread(
            access.check_organiser, evening_id, secret
        )
        if not ok:
            refuse(self._who(), "login", f"wrong code {code!r} or organiser secret")
            await signin_limit.failed(self.router, "organiser")
            return False
        self._evening_id, self._secret, self.signed_in = evening_id, secret, True
        await self._load_evening()
        return True

    async def _authorized(self, handler: str) -> bool:
        """Is the caller signed in as this evening's organiser? Checked in the database each
        time (a reset secret stops working at once)."""
        if not self._evening_id or not self._secret:
            refuse(self._who(), handler, "not signed in as organiser")
            self.records_message = self.staff_message = NOT_SIGNED_IN
            return False
        access = AccessStore(registry.store().engine)
        if not await asyncio.to_thread(access.check_organiser, self._evening_id, self._secret):
            refuse(self._who(), handler, "organiser secret no longer valid")
            self.signed_in, self._evening_id, self._secret = False, 0, ""
            self.code, self.secret = "", ""
            self.login_message = (
                "Le secret de l'organisateur n'est plus valable : reconnectez-vous."
            )
            self.tab = "signin"
            return False
        return True

    async def _load_evening(self) -> None:
        store = registry.store()
        eid = self._evening_id
        name, code = await asyncio.to_thread(store.describe, eid)
        lv = await registry.live(eid)
        program = lv.evening.program
        self.evening_name, self.evening_code = name, code
        self.evening_series = program.series
        self.evening_remote = program.settings.remote_play
        access = AccessStore(store.engine)
        self.invitation = (
            await asyncio.to_thread(access.invitation, eid) if self.evening_remote else ""
        )
        await self._load_staff()
        self.staff_message = self.records_message = self.audit_message = ""
        self.audit_problems, self.report_lines, self.report_winners = [], [], []
        self.report_decisions, self.decision_message = [], ""

    async def _load_staff(self) -> None:
        access = AccessStore(registry.store().engine)
        members = await asyncio.to_thread(access.staff, self._evening_id)
        self.staff = [
            StaffView(m.id, m.name, m.role, ROLES.get(m.role, m.role), m.active) for m in members
        ]

    # ------------------------------------------------------------------ the program form

    @rx.event
    def set_field(self, field: Any, value: Any):
        """A setting of the new evening (text, choice or checkbox)."""
        try:
            name = choice(field, [*TEXT_FIELDS, *CHOICE_FIELDS, *BOOL_FIELDS], "field")
            if name in TEXT_FIELDS:
                text = as_text(value, name, TEXT_FIELDS[name])
                setattr(self, name, text.upper() if name == "series" else text)
            elif name in CHOICE_FIELDS:
                setattr(self, name, choice(value, CHOICE_FIELDS[name], name))
            else:
                setattr(self, name, as_bool(value, name))
                if name == "remote_play" and not value:
                    self.remote_ack = False
        except BadInput as exc:
            return self._form_refused("set_field", exc)
        self.form_error = ""

    @rx.event
    def add_game(self, kind: Any):
        """Add a game of this kind at the end of the program."""
        try:
            kind = choice(kind, KINDS, "kind")
        except BadInput as exc:
            return self._form_refused("add_game", exc)
        if len(self.games) >= MAX_GAMES:
            self.form_error = f"Le programme compte déjà {MAX_GAMES} parties."
            return
        self.games.append(GameDraft(kind=kind, stages=stage_rows(Kind(kind))))

    @rx.event
    def remove_game(self, index: Any):
        """Remove a game from the program."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
        except BadInput as exc:
            return self._form_refused("remove_game", exc)
        del self.games[i]
        self.form_error = ""

    @rx.event
    def move_game(self, index: Any, step: Any):
        """Move a game one place up (-1) or down (+1)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            j = as_int(i + as_int(step, -1, 1, "step"), 0, len(self.games) - 1, "target")
            if j == i:
                raise BadInput("step 0")
        except BadInput as exc:
            return self._form_refused("move_game", exc)
        self.games.insert(j, self.games.pop(i))  # pop/insert move the raw value, not a proxy

    @rx.event
    def set_game_kind(self, index: Any, kind: Any):
        """Change a game's kind (its possible stages change with it)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            kind = choice(kind, KINDS, "kind")
        except BadInput as exc:
            return self._form_refused("set_game_kind", exc)
        self.form_error = ""
        if self.games[i].kind != kind:
            self.games[i] = GameDraft(
                kind=kind, title=self.games[i].title, stages=stage_rows(Kind(kind))
            )

    @rx.event
    def set_game_title(self, index: Any, value: Any):
        """A game's own title (optional)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            self.games[i].title = as_text(value, "title", MAX_TITLE)
        except BadInput as exc:
            self._form_refused("set_game_title", exc)

    @rx.event
    def set_stage_field(self, index: Any, stage: Any, field: Any, value: Any):
        """A stage of a game: played or not, its lot's description, value, divisible, cash."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            j = as_int(stage, 0, len(self.games[i].stages) - 1, "stage")
            row = self.games[i].stages[j]
            name = choice(field, [*STAGE_TEXT_FIELDS, *STAGE_BOOL_FIELDS], "stage field")
            if name in STAGE_TEXT_FIELDS:
                setattr(row, name, as_text(value, name, STAGE_TEXT_FIELDS[name]))
            else:
                setattr(row, name, as_bool(value, name))
        except BadInput as exc:
            return self._form_refused("set_stage_field", exc)
        row.problem = _stage_problem(row)
        self.form_error = ""

    @rx.event
    def add_offer(self):
        """A new tariff line."""
        if len(self.offers) >= MAX_OFFERS:
            self.form_error = f"Le tarif compte déjà {MAX_OFFERS} lignes."
            return
        kinds = self.kind_names or [Kind.CLASSIQUE.value]
        self.offers.append(OfferDraft(kind=kinds[0], quantity="1", price=""))

    @rx.event
    def remove_offer(self, index: Any):
        """Remove a tariff line."""
        try:
            i = as_int(index, 0, len(self.offers) - 1, "offer")
        except BadInput as exc:
            return self._form_refused("remove_offer", exc)
        del self.offers[i]
        self.form_error = ""

    @rx.event
    def set_offer_field(self, index: Any, field: Any, value: Any):
        """A tariff line: kind, quantity, price (euros), planche."""
        try:
            i = as_int(index, 0, len(self.offers) - 1, "offer")
            row = self.offers[i]
            name = choice(field, ("kind", "quantity", "price", "planche"), "offer field")
            if name == "kind":
                row.kind = choice(value, KINDS, "kind")
                if row.kind not in (Kind.CLASSIQUE.value, Kind.SPECIAL.value):
                    row.planche = False
            elif name == "planche":
                row.planche = as_bool(value, name)
                if row.planche:
                    row.quantity = "6"
            else:
                setattr(row, name, as_text(value, name, MAX_AMOUNT))
        except BadInput as exc:
            return self._form_refused("set_offer_field", exc)
        row.problem = _offer_problem(row)
        self.form_error = ""

    @rx.event
    def usual_offers(self):
        """The usual tariff for the kinds of games in the form."""
        kinds = {Kind(k) for k in self.kind_names}
        self.offers = [offer_draft(o) for o in default_offers(kinds)]

    @rx.event
    def reset_form(self):
        """Back to the typical program."""
        self.games, self.offers = _default_games(), _default_offers()
        self.form_error = ""

    @rx.event
    async def create_evening(self):
        """Create the evening the form describes; show its secrets once."""
        if self.creating:
            return
        name = self.name.strip()
        problem = ""
        if not 1 <= len(name) <= MAX_NAME:
            problem = f"Donnez un nom à la soirée ({MAX_NAME} caractères au plus)."
        else:
            try:
                date = dt.date.fromisoformat(self.date).isoformat()
            except ValueError:
                problem = "Indiquez la date de la soirée."
        wanted = os.environ.get(CREATE_KEY_ENV, "")
        if (
            not problem
            and wanted
            and not secrets.compare_digest(self.create_key.strip().encode(), wanted.encode())
        ):
            problem = "Clé de l'association incorrecte : demandez-la à l'hébergeur du loto."
        if not problem and self.remote_play and not self.remote_ack:
            problem = (
                "Jeu à distance : cochez la case qui confirme que le lien d'invitation sera "
                "réservé à un cercle restreint, ou désactivez le jeu à distance."
            )
        if problem:
            refuse(self._who(), "create_evening", f"form: {problem}")
            self.form_error = problem
            return
        try:
            settings = Settings(
                draw_source=DrawSource(self.draw_source),
                auto_marking=self.auto_marking,
                tie_method=TieMethod(self.tie_method),
                claim_hint=self.claim_hint,
                stream_url=self.stream_url.strip(),
                remote_play=self.remote_play,
                free_cartons=self.free_cartons,
                last_call_seconds=int(self.last_call),
                token_source=None
                if self.token_source == "auto"
                else TokenSource(self.token_source),
            )
            program = build_program(self.series.strip(), settings, self.games, self.offers)
        except (InvalidProgram, FormProblem) as exc:
            refuse(self._who(), "create_evening", f"invalid program: {exc}")
            self.form_error = exc.user_message
            return
        self.creating, self.form_error = True, ""
        yield
        try:
            store = registry.store()
            creds = await asyncio.to_thread(store.create_evening, name, program, date=date)
        except Exception:
            log.exception("create_evening: could not store the evening %r", name)
            self.form_error = "La soirée n'a pas pu être enregistrée. Réessayez."
            return
        finally:
            self.creating = False
        log.info("organiser created evening %s (%s)", creds.evening_id, creds.join_code)
        self.created = True
        self.new_code = creds.join_code
        self.new_animateur_secret = creds.animateur_secret
        self.new_organiser_secret = creds.organiser_secret
        self.new_invitation = creds.invitation if program.settings.remote_play else ""
        self.code, self.secret = creds.join_code, creds.organiser_secret
        self._evening_id, self._secret, self.signed_in = (
            creds.evening_id,
            creds.organiser_secret,
            True,
        )
        await self._load_evening()

    @rx.event
    def dismiss_credentials(self):
        """The organiser wrote the secrets down: stop showing them."""
        self._forget_created()

    def _forget_created(self) -> None:
        self.created = False
        self.new_code = self.new_animateur_secret = ""
        self.new_organiser_secret = self.new_invitation = ""

    # ------------------------------------------------------------------ the desk's staff

    @rx.event
    async def add_staff(self, form_data: Any):
        """A new vendeur or caissier: their secret is shown once."""
        if not await self._authorized("add_staff"):
            return
        try:
            data = form(form_data)
            name = as_text(data.get("name", ""), "name", MAX_STAFF_NAME * 2)
            role = choice(data.get("role", ""), ROLES, "role")
        except BadInput as exc:
            refuse(self._who(), "add_staff", exc)
            self.staff_message = (
                f"Le nom doit faire de 1 à {MAX_STAFF_NAME} caractères ; "
                "choisissez vendeur ou caissier."
            )
            return
        access = AccessStore(registry.store().engine)
        try:
            secret = await asyncio.to_thread(access.add_staff, self._evening_id, name, role)
        except AccessError as exc:
            refuse(self._who(), "add_staff", exc)
            self.staff_message = exc.user_message
            return
        log.info("evening %s: organiser added %s %r", self._evening_id, role, name)
        self.new_staff_name, self.new_staff_role, self.new_staff_secret = name, ROLES[role], secret
        self.staff_message = ""
        await self._load_staff()

    @rx.event
    def hide_staff_secret(self):
        """The new member's secret was written down."""
        self.new_staff_name = self.new_staff_role = self.new_staff_secret = ""

    @rx.event
    async def set_staff_active(self, staff_id: Any, active: Any):
        """Withdraw (False) or give back (True) a member's access."""
        if not await self._authorized("set_staff_active"):
            return
        try:
            sid = as_int(staff_id, 1, 2**31 - 1, "staff id")
            on = as_bool(active, "active")
        except BadInput as exc:
            refuse(self._who(), "set_staff_active", exc)
            self.staff_message = "Membre inconnu."
            return
        access = AccessStore(registry.store().engine)
        try:
            await asyncio.to_thread(access.set_active, self._evening_id, sid, on)
        except AccessError as exc:
            refuse(self._who(), "set_staff_active", exc)
            self.staff_message = exc.user_message
            return
        log.info("evening %s: staff %s active=%s", self._evening_id, sid, on)
        self.staff_message = ""
        await self._load_staff()

    # ------------------------------------------------------------------ the animateur's secret

    @rx.event
    async def ask_renew_animateur(self):
        """First step of renewing the animateur's secret (a lost tablet): ask to confirm."""
        if await self._authorized("ask_renew_animateur"):
            self.renew_animateur_asked, self.renewed_animateur_secret = True, ""

    @rx.event
    def cancel_renew_animateur(self):
        """The organiser changed their mind."""
        self.renew_animateur_asked = False

    @rx.event
    async def renew_animateur_secret(self):
        """Issue a new animateur secret, shown once: every tablet signed in with the old one is
        signed out (at once in this process, at its next action elsewhere)."""
        if not await self._authorized("renew_animateur_secret"):
            return
        if not self.renew_animateur_asked:
            refuse(self._who(), "renew_animateur_secret", "not confirmed")
            self.staff_message = "Confirmez d'abord le renouvellement."
            return
        access = AccessStore(registry.store().engine)
        secret = await asyncio.to_thread(access.reset_animateur_secret, self._evening_id)
        log.warning("evening %s: the organiser renewed the animateur's secret", self._evening_id)
        self.renew_animateur_asked, self.renewed_animateur_secret = False, secret
        await broadcast.recheck_staff(self._evening_id)

    @rx.event
    def hide_renewed_animateur_secret(self):
        """The new secret was written down."""
        self.renewed_animateur_secret = ""

    # ------------------------------------------------------------------ invitation link

    @rx.event
    async def renew_invitation(self):
        """A new invitation link: the old one stops letting anyone in."""
        if not await self._authorized("renew_invitation"):
            return
        if not self.evening_remote:
            refuse(self._who(), "renew_invitation", "remote play is off")
            self.staff_message = "Le jeu à distance n'est pas ouvert pour cette soirée."
            return
        access = AccessStore(registry.store().engine)
        self.invitation = await asyncio.to_thread(access.renew_invitation, self._evening_id)
        log.info("evening %s: invitation link renewed", self._evening_id)

    # ------------------------------------------------------------------ records

    @rx.event
    async def paper_cartons(self):
        """Download the PDF of the cartons sold to paper players."""
        if not await self._authorized("paper_cartons"):
            return None
        eid = self._evening_id
        evening = (await registry.live(eid)).evening
        nos = sorted(
            c.no
            for pid, origin in evening.origins.items()
            if origin == "paper"
            for c in evening.player_cartons(pid)
        )
        if not nos:
            self.records_message = "Aucun carton papier vendu pour l'instant."
            return None
        store = registry.store()
        try:
            cartons = await asyncio.to_thread(cartons_for, store, eid, nos)
            pdf = await asyncio.to_thread(
                paper_pdf, self.evening_name, self.evening_series, cartons
            )
        except Exception:
            log.exception("evening %s: paper cartons PDF failed", eid)
            self.records_message = "Le PDF des cartons papier n'a pas pu être créé."
            return None
        self.records_message = f"{len(nos)} cartons papier."
        return rx.download(
            data=pdf,
            filename=f"cartons-papier-{self.evening_code}.pdf",
            mime_type="application/pdf",
        )

    @rx.event
    async def show_report(self):
        """The evening's summary: games, numbers drawn, winners, sales."""
        if not await self._authorized("show_report"):
            return
        report = await self._report()
        if report is None:
            return
        self.report_lines, self.report_winners = summarize(report)
        self.report_decisions = [
            f"Partie {g.number}, {local_time(d.at):%H:%M} — {d.by_label} : {d.what} "
            f"({d.player_name}). Motif : {d.reason}"
            for g in report.games
            for d in g.decisions
        ] + [
            f"Réclamation à régler : annonce n° {c.no} de {c.player_name} (carton {c.carton_no}"
            f", {c.stage_label} sur le {c.number}, partie {g.number}) — {c.verdict_label}"
            for g in report.games
            for c in g.claims
            if c.verdict == "after_award" and c.no not in {d.claim_no for d in g.decisions}
        ]
        # the report carries its own check of the journal: an older check would contradict it
        self.records_message, self.audit_message, self.audit_problems = "", "", []

    @rx.event
    async def decide(self, form_data: Any):
        """A decision of the association on a claim (art. 8): same moves as the tablet's."""
        try:
            claim_no, decision, reason = read_decision(form(form_data))
        except BadInput as exc:
            refuse(self._who(), "decide", exc)
            self.decision_message, self.decision_ok = exc.user_message, False
            return
        await self._decision("decide", decision_move(claim_no, decision, "organisateur", reason))

    @rx.event
    async def withdraw_award(self, form_data: Any):
        """Void a lot ticket (the desk can no longer hand it over)."""
        try:
            ticket, reason = read_withdrawal(form(form_data))
        except BadInput as exc:
            refuse(self._who(), "withdraw_award", exc)
            self.decision_message, self.decision_ok = exc.user_message, False
            return
        await self._decision(
            "withdraw_award", lambda e: e.withdraw_award(ticket, "organisateur", reason)
        )

    async def _decision(self, handler: str, move: Any) -> None:
        if not await self._authorized(handler):
            self.decision_message, self.decision_ok = NOT_SIGNED_IN, False
            return
        try:
            await registry.play(self._evening_id, move)
        except LotoError as exc:
            refuse(self._who(), handler, exc)
            self.decision_message, self.decision_ok = exc.user_message, False
            return
        self.decision_message, self.decision_ok = "Décision enregistrée.", True
        await self.show_report()

    @rx.event
    async def report_csv(self):
        """Download the report as CSV."""
        return await self._download_report("csv")

    @rx.event
    async def report_pdf(self):
        """Download the report as PDF."""
        return await self._download_report("pdf")

    async def _download_report(self, fmt: str):
        if not await self._authorized(f"report_{fmt}"):
            return None
        report = await self._report()
        if report is None:
            return None
        try:
            make = export.report_csv if fmt == "csv" else export.report_pdf
            data = await asyncio.to_thread(make, report)
        except Exception:
            log.exception("evening %s: report %s failed", self._evening_id, fmt)
            self.records_message = "Le rapport n'a pas pu être créé."
            return None
        mime = "text/csv" if fmt == "csv" else "application/pdf"
        return rx.download(data=data, filename=f"rapport-{self.evening_code}.{fmt}", mime_type=mime)

    async def _report(self) -> Any:
        try:
            return await asyncio.to_thread(build_report, registry.store(), self._evening_id)
        except Exception:
            log.exception("evening %s: building the report failed", self._evening_id)
            self.records_message = "Le rapport de la soirée n'a pas pu être établi."
            return None

    @rx.event
    async def verify_journal(self):
        """Check the evening's hash-chained event log."""
        if not await self._authorized("verify_journal"):
            return
        store = registry.store()
        eid = self._evening_id
        problems = await asyncio.to_thread(store.verify_audit, eid)
        if problems:
            log.warning("evening %s: audit log problems: %s", eid, problems[:5])
            self.audit_ok = False
            self.audit_problems = [problem_fr(str(p))[:200] for p in problems[:50]]
            self.audit_message = f"Journal altéré : {len(problems)} problème(s)."
            return
        count = len((await registry.live(eid)).evening.history)
        self.audit_ok, self.audit_problems = True, []
        self.audit_message = f"Journal intègre ({count} entrée{'s' if count > 1 else ''})."

    # ------------------------------------------------------------------ helpers

    def _origin(self) -> str:
        """The address players reach, for the links (`network.public_origin`)."""
        return network.public_origin_of(self.router)[:200]

    def _who(self) -> str:
        return f"organiser? evening {self._evening_id} (sid {self.router.session.session_id})"

    def _form_refused(self, handler: str, exc: Exception) -> None:
        refuse(self._who(), handler, exc)
        self.form_error = "Valeur refusée : rechargez la page si le formulaire semble bloqué."


def summarize(report: Any) -> tuple[list[ReportLine], list[str]]:
    """The report's summary lines and its winners (`loto_app.records.report.EveningReport`)."""
    games = report.games
    played = [g for g in games if g.status != "not_played"]
    till = report.till
    awards = [a for g in games for a in g.awards]
    lines = [
        ReportLine("Parties jouées", f"{len(played)} sur {len(games)}"),
        ReportLine("Numéros tirés", str(sum(len(g.draws) for g in games))),
        ReportLine(
            "Joueurs", ", ".join(f"{label} : {n}" for _, label, n in report.origins if n) or "0"
        ),
        ReportLine("Ventes réglées", f"{till.sales} ({till.cartons} cartons)"),
        ReportLine("En caisse", f"{euros(till.received_cents)} €"),
        ReportLine("À régler", f"{euros(till.pending_cents)} €"),
        ReportLine("Cartons offerts", str(till.free_cartons)),
        ReportLine("Lots remis", f"{sum(a.handed_over for a in awards)} sur {len(awards)}"),
        ReportLine(
            "Journal",
            f"intègre ({report.audit.entries} entrées)"
            if report.audit.ok
            else "PROBLÈME : voir « Vérifier le journal »",
        ),
    ]
    winners = [
        f"Partie {g.number}, {a.stage_label} : {a.lot} → {a.player_name}"
        + ("" if a.share == "1" else f" ({a.share_label.lower()})")
        for g in games
        for a in g.awards
    ]
    return lines, winners[:300]
