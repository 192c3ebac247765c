"""What a game type is: one `GameType` value carries all of it.

A type says which cartons it may play (`kinds`), which stage patterns and in what shape
(`patterns`, `fixed`, `repeats`, `jackpot`), how ties may be settled (`ties`), whether a
player may win twice in it (`one_win_per_player`), when it ends (`ends_after`), its French
name and its règlement sentence. The engine asks the type; it never names one. Adding a type
is a module in this package (its value, and a `check` for what the shape above does not
say), its line in `GAME_TYPES` (`games/__init__.py`), and its tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from loto_app.domain.carton_kinds import KINDS, Kind
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.patterns import RULES, Pattern

if TYPE_CHECKING:
    from loto_app.domain.program import GameSpec


class TieRule(StrEnum):
    """How the ex aequo of a game are settled (announced with the game, art. 4, 5)."""

    EVENING = ""  # the evening's rule (`Settings.tie_method`: share offered, else tokens)
    DRAW = "draw"  # a token each, the highest wins; the others get a consolation
    SHARE = "share"  # the tied winners share the lot (a divisible lot)
    EACH = "each"  # each tied winner gets a lot of the same kind
    SUDDEN_DEATH = "sudden_death"  # extra balls among the tied cartons only (mort subite)


#: French names of the tie rules, for the form and the règlement
TIE_LABELS: dict[TieRule, str] = {
    TieRule.EVENING: "Règle de la soirée",
    TieRule.DRAW: "Tirage au sort d'un jeton (le plus grand gagne)",
    TieRule.SHARE: "Partage du lot",
    TieRule.EACH: "Chacun gagne un lot identique",
    TieRule.SUDDEN_DEATH: "Mort subite (boules supplémentaires entre les ex aequo)",
}

#: the règlement's sentence for each tie rule
TIE_MEANINGS: dict[TieRule, str] = {
    TieRule.EVENING: "",
    TieRule.DRAW: (
        "les ex aequo tirent chacun un jeton, le plus grand numéro gagne le lot, les autres "
        "reçoivent un carton offert"
    ),
    TieRule.SHARE: "les ex aequo se partagent le lot à parts égales",
    TieRule.EACH: "chaque ex aequo reçoit un lot identique",
    TieRule.SUDDEN_DEATH: (
        "mort subite : des boules supplémentaires sont tirées parmi celles qui ne sont pas "
        "sorties (elles sont remises dans le boulier ensuite) ; à chaque boule, seuls les ex "
        "aequo dont le carton gagnant porte ce numéro restent en lice, et le dernier resté gagne "
        "le lot ; une boule qu'aucun carton ne porte est retirée sans rien changer ; les autres "
        "reçoivent un carton offert"
    ),
}

ALL_TIES: tuple[TieRule, ...] = tuple(TieRule)

MAX_STAGES = 12  # lots of a game (the partie enfants: 12 successive winners)
#: the jackpot's "en N numéros": at least a full carton's 15, at most 89
MIN_WITHIN, MAX_WITHIN = 15, 89

Check = Callable[["GameSpec"], None]


def _no_check(spec: GameSpec) -> None:
    return None


@dataclass(frozen=True, slots=True)
class GameType:
    """Everything about one type of game.

    Attributes:
        name: its key in programs ("rapide").
        label: its French name ("Partie rapide").
        summary: what it is, for the règlement and the form.
        kinds: the kinds of cartons it may play (the first: the form's default).
        patterns: the stage patterns it may play, in the only order they may be chained.
        fixed: its stages are exactly `patterns` (the partie rapide, the quine et carton).
        repeats: successive winners of the same pattern (the partie enfants: 1 to 12 stages
            of one pattern).
        jackpot: its first stage has a `within` (won only within N numbers), the next one
            is the consolation.
        one_win_per_player: a player wins at most one lot of the game.
        ties: the tie rules it may announce.
        check: what else its programs must hold (raises `InvalidProgram`).
    """

    name: str
    label: str
    summary: str
    kinds: tuple[Kind, ...]
    patterns: tuple[Pattern, ...]
    fixed: bool = False
    repeats: bool = False
    jackpot: bool = False
    one_win_per_player: bool = False
    ties: tuple[TieRule, ...] = ALL_TIES
    check: Check = _no_check

    @property
    def claimed(self) -> bool:
        """Do players claim its lots (no: the server finds the winners, the inversée)?"""
        return all(RULES[p].claimed for p in self.patterns)

    def ends_after(self, spec: GameSpec, stage: int) -> bool:
        """Does the game end once this stage is awarded (its last; a jackpot won at once)?"""
        return stage >= len(spec.stages) - 1 or (self.jackpot and stage == 0)

    def validate(self, spec: GameSpec) -> None:
        """Raise `InvalidProgram` (in French) unless the game is one of this type."""
        label = self.label
        if spec.kind not in self.kinds:
            raise InvalidProgram(
                f"{self.name} game played with {spec.kind} cartons",
                f"{label} : elle se joue avec des "
                + " ou des ".join(KINDS[k].many for k in self.kinds)
                + ".",
            )
        order = [s.pattern for s in spec.stages]
        for p in order:
            if p not in self.patterns:
                raise InvalidProgram(
                    f"pattern {p} cannot be played in a {self.name} game",
                    f"« {RULES[p].label} » ne se joue pas en {label.lower()}.",
                )
        if len(order) > MAX_STAGES:
            raise InvalidProgram(
                f"{len(order)} stages, at most {MAX_STAGES}",
                f"Une partie a au plus {MAX_STAGES} lots.",
            )
        if self.fixed and tuple(order) != self.patterns:
            raise InvalidProgram(
                f"{self.name} plays {self.patterns}, not {order}",
                f"{label} : " + " puis ".join(RULES[p].label.lower() for p in self.patterns) + ".",
            )
        if self.repeats:
            if len(set(order)) != 1:
                raise InvalidProgram(
                    f"{self.name} stages {order} are not one pattern",
                    f"{label} : tous les lots se jouent sur la même figure.",
                )
        elif not self.jackpot:
            ranks = [self.patterns.index(p) for p in order]
            if ranks != sorted(set(ranks)):
                raise InvalidProgram(
                    f"stages {order} are not in increasing order without repeats",
                    "Les lots d'une partie s'enchaînent dans l'ordre (quine, double quine, "
                    "carton).",
                )
        for i, s in enumerate(spec.stages):
            if s.within and not (self.jackpot and i == 0):
                raise InvalidProgram(
                    f"stage {i} of a {self.name} game has within={s.within}",
                    "Seul le jackpot se gagne « en N numéros ».",
                )
        if spec.tie not in self.ties:
            raise InvalidProgram(
                f"tie rule {spec.tie} not allowed in a {self.name} game",
                f"{label} : les ex aequo ne se départagent pas par « {TIE_LABELS[spec.tie]} ».",
            )
        if spec.tie is TieRule.SHARE:
            for s in spec.stages:
                if not s.lot.divisible:
                    raise InvalidProgram(
                        f"shared tie on the indivisible lot {s.lot.description!r:.40}",
                        f"Partage des ex aequo : le lot « {s.lot.description} » doit être "
                        "divisible (un bon d'achat, par exemple).",
                    )
        self.check(spec)


def stage_count(spec: GameSpec, low: int, high: int, words: str) -> None:
    """Refuse a game whose number of stages is not in low..high (`words`: what to say)."""
    if not low <= len(spec.stages) <= high:
        raise InvalidProgram(
            f"a {spec.type} game of {len(spec.stages)} stages, not {low}..{high}", words
        )


def patterns_of(types: Sequence[GameType]) -> tuple[Pattern, ...]:
    """Every pattern some of these types play (each once, in declaration order)."""
    return tuple(dict.fromkeys(p for t in types for p in t.patterns))
