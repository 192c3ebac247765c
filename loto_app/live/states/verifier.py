"""VerifierState: `/verifier?code=…`, the public check of an evening's electronic draws.

Anyone holding the evening's code (the hall screen shows it) sees each game's commitment,
published before its first number, and, once the game is over, its revealed seed and the
numbers drawn; the page recomputes the commitment and the whole order from the seed
(`domain/commitment.py`) and compares them with the commitment (or the 16 digits noted from the
hall screen) and with the numbers, which the person may correct from their own notes: the
first position that differs is named. A game in play shows its commitment, never its seed.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import reflex as rx

from loto_app.domain import commitment as draws
from loto_app.limits import MAX_CODE
from loto_app.live.input.guards import BadInput, as_int, as_text, form, refuse
from loto_app.live.runtime import registry

NO_EVENING = "Aucune soirée ne porte ce code : vérifiez le code affiché dans la salle."
MAX_NUMBERS_TEXT = 600  # 90 numbers and their separators, with room to spare
SECRET = "Secrète jusqu'à la fin de la partie."


def grouped(hex_text: str) -> str:
    """A long hex string in capitals (as the hall screen shows it) and groups of 4, easier to
    read aloud and compare."""
    text = hex_text.upper()
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


class BadNumbers(BadInput):
    """Numbers that are not 1-90, with what to tell the person."""

    def __init__(self, detail: str, message: str) -> None:
        super().__init__(detail)
        self.user_message = message


def read_numbers(text: str) -> tuple[int, ...]:
    """The numbers as typed: integers 1-90 separated by spaces, commas or new lines.

    Raises:
        BadInput: anything else.
    """
    parts = [p for p in re.split(r"[\s,;.]+", text) if p]
    if len(parts) > draws.BALLS + 10:
        raise BadNumbers(f"{len(parts)} numbers", "Au plus 90 numéros.")
    out = []
    for p in parts:
        if not p.isdigit() or not 1 <= int(p) <= draws.BALLS:
            raise BadNumbers(f"number {p!r:.10}", f"« {p[:10]} » n'est pas un numéro de 1 à 90.")
        out.append(int(p))
    return tuple(out)


class VerifierState(rx.State):
    """The evening named by ?code= (or typed), its games and the check of one."""

    code: str = ""
    evening_name: str = ""
    series: str = ""
    games: list[dict[str, Any]] = []
    game_no: int = 0  # the game being checked (0: none chosen)
    game_label: str = ""
    commitment: str = ""  # grouped hex
    commitment_short: str = ""
    seed: str = ""  # grouped hex, "" while secret
    revealed: bool = False
    numbers: str = ""  # as the evening recorded them
    result: str = ""
    result_ok: bool = False
    order: str = ""  # the whole order the seed gives, once checked
    message: str = ""

    @rx.event
    async def load(self):
        """On load of /verifier?code=XXXX."""
        raw = self.router.url.query_parameters.get("code", "")
        await self._open(raw, "load")

    @rx.event
    async def open_evening(self, form_data: dict):
        """The code typed in the page's form."""
        try:
            raw = form(form_data).get("code", "")
        except BadInput as exc:
            refuse("verifier", "open_evening", exc)
            raw = ""
        await self._open(raw, "open_evening")

    async def _open(self, raw: Any, handler: str) -> None:
        self._clear_game()
        self.games, self.evening_name, self.series = [], "", ""
        try:
            code = as_text(raw, "code", MAX_CODE).upper()
        except BadInput as exc:
            refuse("verifier", handler, exc)
            code = ""
        self.code = code
        if not code:
            self.message = "Tapez le code de la soirée (il est affiché sur l'écran de la salle)."
            return
        evening_id = await asyncio.to_thread(registry.store().evening_id_for_code, code)
        if evening_id is None:
            self.message = NO_EVENING
            return
        lv = await registry.live(evening_id)
        e = lv.evening
        self.evening_name, self.series, self.message = lv.name, e.program.series, ""
        self.games = [
            {
                "no": g.index + 1,
                "label": g.spec.label,
                "state": (
                    "boulier manuel : rien d'engagé"
                    if g.commitment is None
                    else "terminée : vérifiable"
                    if g.revealed
                    else "en cours : graine secrète"
                ),
                "checkable": g.commitment is not None,
            }
            for g in e.games
        ]
        if not self.games:
            self.message = "Aucune partie n'a encore commencé."

    @rx.event
    async def pick(self, game_no: Any):
        """Show one game's commitment, its seed (once revealed) and its numbers."""
        try:
            no = as_int(game_no, 1, 99, "game")
        except BadInput as exc:
            return refuse("verifier", "pick", exc)
        g = await self._game(no)
        self._clear_game()
        if g is None:
            self.message = "Cette partie n'a pas commencé."
            return
        self.game_no, self.game_label = no, g.spec.label
        if g.commitment is None:
            self.message = (
                "Partie jouée au boulier manuel : rien n'était engagé, les boules tirées font foi."
            )
            return
        self.message = ""
        self.commitment = grouped(g.commitment.commitment)
        self.commitment_short = draws.short(g.commitment.commitment)
        self.revealed = bool(g.revealed)
        self.seed = grouped(g.revealed) if g.revealed else ""
        self.numbers = " ".join(map(str, g.drawn))

    @rx.event
    async def verify(self, form_data: dict):
        """Recompute the commitment and the order from the seed; compare."""
        self.result, self.result_ok, self.order = "", False, ""
        g = await self._game(self.game_no) if self.game_no else None
        if g is None or g.commitment is None:
            self.result = "Choisissez d'abord une partie au boulier électronique."
            return
        if not g.revealed:
            self.result = "La graine de cette partie sera publiée à sa fin : revenez après."
            return
        try:
            data = form(form_data)
            seed = draws.parse_seed(as_text(data.get("seed", ""), "seed", 200))
            noted = "".join(as_text(data.get("commitment", ""), "commitment", 200).split())
            numbers = read_numbers(as_text(data.get("numbers", ""), "numbers", MAX_NUMBERS_TEXT))
        except BadNumbers as exc:
            refuse("verifier", "verify", exc)
            self.result = exc.user_message
            return
        except BadInput as exc:
            refuse("verifier", "verify", exc)
            self.result = (
                "Un des champs est trop long : recopiez la graine, l'empreinte et les numéros."
            )
            return
        except ValueError:
            self.result = "La graine fait 64 caractères : chiffres de 0 à 9 et lettres de a à f."
            return
        noted = noted.lower()
        if len(noted) < 16 or any(c not in "0123456789abcdef" for c in noted):
            self.result = (
                "L'empreinte : au moins ses 16 premiers caractères, comme l'écran les montrait."
            )
            return
        c = g.commitment
        check = draws.verify(seed, c.evening, c.series, g.index + 1, c.commitment, numbers)
        self.order = " ".join(map(str, check.order))
        if not check.expected_commitment.startswith(noted):
            self.result = (
                "NON CONFORME : cette graine ne donne pas l'empreinte publiée avant la partie "
                f"(elle donne {draws.short(check.expected_commitment)}…)."
            )
        elif not check.commitment_ok:
            self.result = (
                "NON CONFORME : l'empreinte notée ne correspond pas à celle que la soirée a "
                "enregistrée."
            )
        elif check.position is not None:
            expected = (
                f"l'ordre engagé donne le {check.expected}"
                if check.expected is not None
                else "l'ordre engagé n'a que 90 numéros"
            )
            self.result = (
                f"NON CONFORME : au {check.position}e numéro, {expected}, la liste dit {check.got}."
            )
        else:
            self.result_ok = True
            self.result = (
                f"Tirage conforme : la graine donne bien l'empreinte publiée, et les "
                f"{len(numbers)} numéros suivent exactement l'ordre engagé."
            )

    def _clear_game(self) -> None:
        self.game_no, self.game_label = 0, ""
        self.commitment = self.commitment_short = self.seed = self.numbers = ""
        self.revealed, self.result, self.result_ok, self.order = False, "", False, ""

    async def _game(self, no: int) -> Any:
        if not self.code:
            return None
        evening_id = await asyncio.to_thread(registry.store().evening_id_for_code, self.code)
        if evening_id is None:
            return None
        e = (await registry.live(evening_id)).evening
        return e.games[no - 1] if 1 <= no <= len(e.games) else None
