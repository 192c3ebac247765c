"""The organiser's first task: the evening's form (program, tariff, settings), kept in this
per-client substate of `OrganisationState` as plain rows (`live/input/program_form.py`), in
steps (`STEPS`); creating the evening shows its secrets once and signs its creator in.

The same form edits the signed-in organiser's evening (`mode` "edit"): it opens on the
program as it is now, the games already started shown but locked, and saving plays
`Evening.amend_program` (the engine refuses what may no longer change, in French).

Open to anyone (creating an evening only hands out new secrets), unless `LOTO_CREATE_KEY` is
set: then the association's key is asked for.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import re
import secrets
from typing import Any, ClassVar

import reflex as rx

from loto_app.domain.carton_kinds import KINDS as CARTON_KINDS
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import GAME_TYPES
from loto_app.domain.program import Kind, Program, default_offers
from loto_app.live.input.guards import BadInput, as_bool, as_int, as_text, choice, refuse
from loto_app.live.input.program_form import (
    BOOL_FIELDS,
    CHOICE_FIELDS,
    DEFAULT_NAME,
    DEFAULT_TYPE,
    KINDS,
    MAX_AMOUNT,
    MAX_GAMES,
    MAX_NAME,
    MAX_OFFERS,
    MAX_TITLE,
    MAX_WINNERS,
    NUMBER_FIELDS,
    STAGE_BOOL_FIELDS,
    STAGE_TEXT_FIELDS,
    TEXT_FIELDS,
    TYPES,
    FormProblem,
    GameDraft,
    OfferDraft,
    build_program,
    default_game_drafts,
    default_offer_drafts,
    game_draft,
    kinds_played,
    new_game,
    offer_draft,
    offer_groups,
    offer_problem,
    priced,
    retyped,
    setting_vars,
    settings_form,
    settings_of,
    stage_problem,
    step_of,
    tariff_groups,
    with_winners,
)
from loto_app.live.runtime import registry
from loto_app.live.states.organisation import OrganisationState
from loto_app.refusal import Refusal
from loto_app.storage.access import StaffMember

log = logging.getLogger("loto_app.live")

#: When set, creating an evening asks for this key (a server open to the internet should set it).
CREATE_KEY_ENV = "LOTO_CREATE_KEY"


#: The form's settings as a new evening starts with them (the class defaults; the evening's
#: settings are vars added from `domain.settings_catalog` below the class).
SETTING_DEFAULTS: dict[str, Any] = {
    "series": "A",
    **{name: default for name, (_, default) in setting_vars().items()},
}


class EveningSetup(OrganisationState):
    """The new evening's form and the secrets shown once after creating it."""

    NEEDS_SESSION: ClassVar[bool] = False  # (the form is filled in before any sign-in)

    name: str = DEFAULT_NAME
    date: str = ""
    series: str = "A"
    # (one var per setting of the evening, `settings_catalog`: added below the class)
    create_key: str = ""
    key_required: bool = False
    # Empty until the organisation page loads (`_page_loaded`): Reflex gives every client, each
    # phone included, an instance of every state, and the typical program's drafts were ~10 KB
    # of each phone's server state (bench/state_size.py).
    games: list[GameDraft] = []
    offers: list[OfferDraft] = []
    form_error: str = ""
    creating: bool = False
    step: int = 1  # the step of the form shown (program_form.STEPS)
    mode: str = "create"  # "create" | "edit" (the signed-in organiser's evening)
    open_game: int = 0  # the game whose lots are shown to edit (-1: none; the others: a line)
    locked_count: int = 0  # editing: the games started (the first ones) stay as they are
    edit_note: str = ""  # editing: which games are locked, and why
    saved_message: str = ""  # editing: the amendment was saved
    tariff_note: str = ""  # prices added for a kind of cartons new to the program

    # --- shown once after creation
    created: bool = False
    new_code: str = ""
    new_animateur_secret: str = ""
    new_organiser_secret: str = ""

    @rx.var
    def kind_names(self) -> list[str]:
        """The kinds of the games in the form, in the domain's order."""
        return [k.value for k in kinds_played(self.games)]

    @rx.var
    def tariff_groups(self) -> list[dict[str, str]]:
        """The tariff step: a group of lines per kind of cartons played (and the lines of
        kinds no game plays)."""
        return tariff_groups(self.games, self.offers)

    @rx.var
    def offer_groups(self) -> list[str]:
        """The group of each tariff line (`tariff_groups`' kind)."""
        return offer_groups(self.games, self.offers)

    @rx.event
    def set_field(self, field: Any, value: Any):
        """A setting of the new evening (text, choice or checkbox)."""
        try:
            fields = [*TEXT_FIELDS, *CHOICE_FIELDS, *NUMBER_FIELDS, *BOOL_FIELDS]
            name = choice(field, fields, "field")
            if name in TEXT_FIELDS:
                text = as_text(value, name, TEXT_FIELDS[name])
                setattr(self, name, text.upper() if name == "series" else text)
            elif name in CHOICE_FIELDS:
                setattr(self, name, choice(value, CHOICE_FIELDS[name], name))
            elif name in NUMBER_FIELDS:
                typed = str(value).strip() if isinstance(value, str | int) else value
                number = "" if typed == "" else str(as_int(typed, *NUMBER_FIELDS[name], name))
                setattr(self, name, number)  # ("": not typed yet; the domain says if needed)
            else:
                setattr(self, name, as_bool(value, name))
                if name == "remote_play" and not value:
                    self.remote_ack = False
        except BadInput as exc:
            return self._form_refused("set_field", exc)
        self.form_error = ""

    @rx.event
    def go_step(self, number: Any):
        """Show a step of the form."""
        try:
            self.step = as_int(number, 2 if self.mode == "edit" else 1, 4, "step")
        except BadInput as exc:
            return self._form_refused("go_step", exc)
        if self.step == 3:
            self.tariff_note = ""  # (the organiser is looking at the prices)

    @rx.event
    def show_game(self, index: Any):
        """Show a game's lots to edit them (again: fold it back to its line)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
        except BadInput as exc:
            return self._form_refused("show_game", exc)
        self.open_game = -1 if self.open_game == i else i

    def _locked(self, i: int) -> bool:
        """Editing: game i has started; say so (the engine would refuse it anyway)."""
        if self.games[i].locked:
            self.form_error = f"La partie {i + 1} a commencé : elle ne peut plus être modifiée."
            return True
        return False

    @rx.event
    def add_game(self, type_name: Any = DEFAULT_TYPE):
        """Add a game of this type at the end of the program (open, to fill its lots in)."""
        try:
            name = choice(type_name, TYPES, "type")
        except BadInput as exc:
            return self._form_refused("add_game", exc)
        if len(self.games) >= MAX_GAMES:
            self.form_error = f"Le programme compte déjà {MAX_GAMES} parties."
            return
        self.games.append(new_game(name))
        self.open_game = len(self.games) - 1
        self._price_new_kinds()
        self.form_error = ""

    @rx.event
    def remove_game(self, index: Any):
        """Remove a game from the program."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
        except BadInput as exc:
            return self._form_refused("remove_game", exc)
        if self._locked(i):
            return
        del self.games[i]
        if self.open_game == i:
            self.open_game = -1
        elif self.open_game > i:
            self.open_game -= 1
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
        if self._locked(i) or self._locked(j):
            return
        self.games.insert(j, self.games.pop(i))  # pop/insert move the raw value, not a proxy
        if self.open_game in (i, j):
            self.open_game = j if self.open_game == i else i

    @rx.event
    def set_game_type(self, index: Any, type_name: Any):
        """Change a game's type: its stages, its cartons and its tie rules follow (the lots
        typed stay on the stages of the same pattern)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            name = choice(type_name, TYPES, "type")
        except BadInput as exc:
            return self._form_refused("set_game_type", exc)
        if self._locked(i):
            return
        self.form_error = ""
        if self.games[i].type != name:
            self.games[i] = retyped(self.games[i], name)
            self._price_new_kinds()

    @rx.event
    def set_game_kind(self, index: Any, kind: Any):
        """Change the cartons a game plays (one of its type's kinds)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            gt = GAME_TYPES[self.games[i].type]
            kind = choice(kind, {k.value for k in gt.kinds}, "kind")
        except BadInput as exc:
            return self._form_refused("set_game_kind", exc)
        if self._locked(i):
            return
        self.form_error = ""
        if self.games[i].kind != kind:
            self.games[i].kind = kind
            self._price_new_kinds()

    @rx.event
    def set_game_tie(self, index: Any, tie: Any):
        """How a game's ex aequo are settled (one of its type's tie rules)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            gt = GAME_TYPES[self.games[i].type]
            tie = choice(tie, {t.value for t in gt.ties}, "tie")
        except BadInput as exc:
            return self._form_refused("set_game_tie", exc)
        if not self._locked(i):
            self.games[i].tie = tie
            self.form_error = ""

    @rx.event
    def set_game_winners(self, index: Any, count: Any, pattern: Any = None):
        """A game of successive winners (the partie enfants): how many, on which pattern
        (None: the one it plays now)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            g = self.games[i]
            gt = GAME_TYPES[g.type]
            if not gt.repeats:
                raise BadInput(f"game {i} of type {g.type} has no successive winners")
            n = as_int(count, 1, MAX_WINNERS, "winners")
            p = g.stages[0].pattern if pattern is None else pattern
            p = choice(p, {q.value for q in gt.patterns}, "pattern")
        except BadInput as exc:
            return self._form_refused("set_game_winners", exc)
        if not self._locked(i):
            self.games[i].stages = with_winners(g, n, p)
            self.form_error = ""

    def _price_new_kinds(self) -> None:
        """A kind of cartons new to the program gets its usual prices (said on the form)."""
        before = {o.kind for o in self.offers}
        self.offers = priced(self.games, self.offers)
        added = [k for k in kinds_played(self.games) if k.value not in before]
        if added:
            names = " et les ".join(CARTON_KINDS[k].many for k in added)
            self.tariff_note = (
                f"Prix habituels ajoutés pour les {names} : vérifiez-les à l'étape 3 « Le tarif »."
            )

    @rx.event
    def set_game_title(self, index: Any, value: Any):
        """A game's own title (optional)."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            title = as_text(value, "title", MAX_TITLE)
        except BadInput as exc:
            return self._form_refused("set_game_title", exc)
        if not self._locked(i):
            self.games[i].title = title

    @rx.event
    def set_stage_field(self, index: Any, stage: Any, field: Any, value: Any):
        """A stage of a game: played or not, its lot's description, value, divisible, cash."""
        try:
            i = as_int(index, 0, len(self.games) - 1, "game")
            j = as_int(stage, 0, len(self.games[i].stages) - 1, "stage")
            if self._locked(i):
                return
            row = self.games[i].stages[j]
            name = choice(field, [*STAGE_TEXT_FIELDS, *STAGE_BOOL_FIELDS], "stage field")
            if name == "on" and row.required:
                raise BadInput(f"game {i} stage {j} is played whatever")
            if name == "within" and not row.jackpot:
                raise BadInput(f"game {i} stage {j} is no jackpot")
            if name in STAGE_TEXT_FIELDS:
                setattr(row, name, as_text(value, name, STAGE_TEXT_FIELDS[name]))
            else:
                setattr(row, name, as_bool(value, name))
        except BadInput as exc:
            return self._form_refused("set_stage_field", exc)
        row.problem = stage_problem(row)
        self.form_error = ""

    @rx.event
    def add_offer(self, kind: Any = None):
        """A new tariff line for cartons of a kind played (None: the first)."""
        try:
            kinds = self.kind_names or [Kind.CLASSIQUE.value]
            kind = kinds[0] if kind is None else choice(kind, kinds, "kind")
        except BadInput as exc:
            return self._form_refused("add_offer", exc)
        if len(self.offers) >= MAX_OFFERS:
            self.form_error = f"Le tarif compte déjà {MAX_OFFERS} lignes."
            return
        at = max((n + 1 for n, o in enumerate(self.offers) if o.kind == kind), default=0)
        self.offers.insert(at or len(self.offers), OfferDraft(kind=kind, quantity="1", price=""))

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
                if not CARTON_KINDS[Kind(row.kind)].planche:
                    row.planche = False
            elif name == "planche":
                planche = as_bool(value, name)
                if planche and not CARTON_KINDS[Kind(row.kind)].planche:
                    raise BadInput(f"offer {i}: no planche of {row.kind} cartons")
                row.planche = planche
                if row.planche:
                    row.quantity = "6"
            else:
                setattr(row, name, as_text(value, name, MAX_AMOUNT))
        except BadInput as exc:
            return self._form_refused("set_offer_field", exc)
        row.problem = offer_problem(row)
        self.form_error = ""

    @rx.event
    def usual_offers(self):
        """The usual tariff for the kinds of games in the form."""
        kinds = {Kind(k) for k in self.kind_names}
        self.offers = [offer_draft(o) for o in default_offers(kinds)]

    @rx.event
    def reset_form(self):
        """Back to the typical program (editing: back to the program as it is now)."""
        if self.mode == "edit":
            return EveningSetup.open_edit
        self._typical_program()
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
            problem = "Clé de l'association incorrecte : demandez-la à l'hébergeur du loto."
        if not problem and self.mode != "create":
            problem = "Vous modifiez une soirée : enregistrez ou annulez d'abord."
        if problem:
            refuse(self._who(), "create_evening", f"form: {problem}")
            self._problem(problem)
            return
        program = self._program("create_evening", self.series.strip())
        if program is None:
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
        self.code, self.secret = creds.join_code, creds.organiser_secret
        organiser = StaffMember(0, self.KIND, self.KIND, True)
        await self._enter(creds.evening_id, creds.organiser_secret, organiser)

    def _problem(self, text: str) -> None:
        """Say what is wrong, on the step where it is fixed."""
        self.form_error = text
        self.step = max(step_of(text), 2 if self.mode == "edit" else 1)
        game = re.match(r"(?:La p|P)artie (\d+)", text)
        if (
            game
            and int(game.group(1)) <= len(self.games)
            and not self.games[int(game.group(1)) - 1].locked
        ):
            self.open_game = int(game.group(1)) - 1

    def _program(self, handler: str, series: str) -> Program | None:
        """The program the form describes (None: the problem is shown and logged)."""
        try:
            settings = settings_of({name: getattr(self, name) for name in setting_vars()})
            return build_program(series, settings, self.games, self.offers)
        except (InvalidProgram, FormProblem, ValueError) as exc:
            refuse(self._who(), handler, f"invalid program: {exc}")
            told = exc.user_message if isinstance(exc, Refusal) else None
            self._problem(told or "Le programme n'est pas valide.")
            return None

    # ------------------------------------------------------------------ editing an evening

    @rx.event
    async def open_edit(self):
        """The signed-in organiser edits their evening: the form shows its program now."""
        if not await self._signed_in_now("open_edit"):
            return
        lv = await registry.live(self._evening_id)
        self._show_program(lv.evening)
        self.mode, self.step, self.form_error, self.saved_message = "edit", 2, "", ""

    @rx.event
    def cancel_edit(self):
        """Leave the edit without saving (nothing was changed)."""
        self._back_to_create()

    @rx.event
    async def save_edit(self):
        """Amend the evening's program as the form describes it (the engine decides)."""
        if self.creating:
            return
        if not await self._signed_in_now("save_edit"):
            return
        if self.mode != "edit":
            refuse(self._who(), "save_edit", "not editing")
            return
        lv = await registry.live(self._evening_id)
        program = self._program("save_edit", lv.evening.program.series)
        if program is None:
            return
        self.creating = True
        yield

        def refused(text: str) -> None:
            self._relock(lv.evening)  # (a game may have started meanwhile)
            self._problem(text)

        try:
            played = await self._play(
                "save_edit",
                lambda e: e.amend_program(program, "organisateur"),
                checked=True,
                say=refused,
            )
        except Exception:
            log.exception("save_edit: the amendment of evening %s failed", self._evening_id)
            self.form_error = "Le programme n'a pas pu être enregistré. Réessayez."
            return
        finally:
            self.creating = False
        if played is None:
            return
        log.info("organiser amended the program of evening %s", self._evening_id)
        self.evening_remote = program.settings.remote_play
        for task in await self._tasks():  # (the invitations, when remote play is now on)
            await task._evening_loaded()
        self._show_program(lv.evening)
        self.form_error = ""
        self.saved_message = (
            "Programme enregistré : les téléphones, l'écran, l'animateur et le règlement "
            "suivent le nouveau programme."
        )

    def _show_program(self, evening: Any) -> None:
        """The form holds this evening's program now; the games started are locked."""
        p = evening.program
        self.games = [game_draft(g) for g in p.games]
        self.offers = [offer_draft(o) for o in p.offers]
        self.tariff_note = ""
        self._relock(evening)
        self.open_game = self.locked_count if self.locked_count < len(self.games) else -1
        self.series = p.series
        for name, value in settings_form(p.settings).items():
            setattr(self, name, value)

    def _relock(self, evening: Any) -> None:
        """The games started now are shown as played (the organiser's other changes stay)."""
        p, frozen = evening.program, evening.first_amendable_game
        games = list(self.games)
        for i in range(min(frozen, len(p.games))):
            running = evening.game is not None and evening.game.index == i
            if i < len(games):
                games[i] = game_draft(p.games[i])
            else:
                games.append(game_draft(p.games[i]))
            games[i].locked = True
            games[i].note = "En cours" if running and evening.game.status != "finished" else "Jouée"
        self.games, self.locked_count = games, frozen
        if self.open_game < frozen:
            self.open_game = -1
        self.edit_note = (
            f"Parties 1 à {frozen} commencées : elles ne se modifient plus."
            if frozen > 1
            else "La partie 1 a commencé : elle ne se modifie plus."
            if frozen == 1
            else "Aucune partie n'a commencé : tout le programme se modifie."
        )

    def _back_to_create(self) -> None:
        """The form as a new evening's, with its defaults."""
        for name, value in SETTING_DEFAULTS.items():
            setattr(self, name, value)
        self._typical_program()
        self.locked_count, self.open_game = 0, 0
        self.mode, self.step, self.form_error, self.saved_message = "create", 1, "", ""

    @rx.event
    def dismiss_credentials(self):
        """The organiser wrote the secrets down: stop showing them."""
        self._forget_created()

    def _forget_created(self) -> None:
        self.created = False
        self.new_code = self.new_animateur_secret = ""
        self.new_organiser_secret = ""

    # ------------------------------------------------------------------ hooks

    def _page_loaded(self) -> None:
        """The typical program and today's date in an untouched form; whether creating asks
        for the key."""
        self.key_required = bool(os.environ.get(CREATE_KEY_ENV))
        if not self.date:
            self.date = dt.date.today().isoformat()
        if self.mode == "create" and not self.games and not self.offers:
            self._typical_program()

    def _typical_program(self) -> None:
        """The form's games and tariff as a new evening's."""
        self.games, self.offers = default_game_drafts(), default_offer_drafts()
        self.tariff_note = ""

    def _signed_out(self) -> None:
        self._forget_created()
        if self.mode == "edit":
            self._back_to_create()

    def _tell(self, text: str) -> None:
        self.form_error = text

    def _form_refused(self, handler: str, exc: Exception) -> None:
        refuse(self._who(), handler, exc)
        self.form_error = "Valeur refusée : rechargez la page si le formulaire semble bloqué."


# One var per setting of the evening (`domain.settings_catalog`), its default a new evening's.
for _name, (_type, _default) in setting_vars().items():
    EveningSetup.add_var(_name, _type, _default)
