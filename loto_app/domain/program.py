"""What an evening announces before the first number: its settings and its program of games.

All value objects here are immutable and validated on construction (`InvalidProgram`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from loto_app.domain.errors import InvalidProgram


class Kind(StrEnum):
    """The kind of a game, and of the cartons that play it (art. 1, 6)."""

    CLASSIQUE = "classique"
    SPECIAL = "special"
    VITRINE = "vitrine"
    MAXIQUINE = "maxiquine"


class Pattern(StrEnum):
    """What completes a stage."""

    ONE_LINE = "one_line"  # quine
    TWO_LINES = "two_lines"  # double quine
    FULL_CARD = "full_card"  # carton plein (15 numbers, or 25 on a maxiquine)
    ONE_CARD = "one_card"  # vitrine: one of the 3 cartons complete
    TWO_CARDS = "two_cards"
    THREE_CARDS = "three_cards"
    DIAGONAL = "diagonal"  # maxiquine: either diagonal (choice)


#: The patterns each kind of game may play, in the only order they may be chained.
PATTERNS_BY_KIND: dict[Kind, tuple[Pattern, ...]] = {
    Kind.CLASSIQUE: (Pattern.ONE_LINE, Pattern.TWO_LINES, Pattern.FULL_CARD),
    Kind.SPECIAL: (Pattern.FULL_CARD,),
    Kind.VITRINE: (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS),
    Kind.MAXIQUINE: (Pattern.FULL_CARD, Pattern.DIAGONAL),
}

#: French names, for the announcements.
PATTERN_LABELS: dict[Pattern, str] = {
    Pattern.ONE_LINE: "Quine",
    Pattern.TWO_LINES: "Double quine",
    Pattern.FULL_CARD: "Carton plein",
    Pattern.ONE_CARD: "Un carton",
    Pattern.TWO_CARDS: "Deux cartons",
    Pattern.THREE_CARDS: "Trois cartons",
    Pattern.DIAGONAL: "Diagonale",
}

KIND_LABELS: dict[Kind, str] = {
    Kind.CLASSIQUE: "Classique",
    Kind.SPECIAL: "Spéciale",
    Kind.VITRINE: "Vitrine",
    Kind.MAXIQUINE: "Maxiquine",
}


class DrawSource(StrEnum):
    """Where numbers come from."""

    ELECTRONIC = "electronic"  # the app's boulier (CSPRNG)
    PHYSICAL = "physical"  # the animateur types the number read on the ball


class TieMethod(StrEnum):
    """How ex aequo are settled (announced at the start of the evening, art. 5)."""

    DRAW = "draw"  # token draw only
    SHARE_OR_DRAW = "share_or_draw"  # two tied players may share a divisible lot


MAX_LOT_DESCRIPTION = 120
MAX_STREAM_URL = 300


@dataclass(frozen=True, slots=True)
class Lot:
    """A prize.

    Attributes:
        description: what the winner receives ("Un vélo", "Bon d'achat de 50 €").
        value_cents: its value, for the record (0 when unknown).
        divisible: vouchers or anything that two winners can share.
    """

    description: str
    value_cents: int = 0
    divisible: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.description, str) or not self.description.strip():
            raise InvalidProgram("lot description is empty", "Décrivez le lot.")
        if len(self.description) > MAX_LOT_DESCRIPTION:
            raise InvalidProgram(
                f"lot description longer than {MAX_LOT_DESCRIPTION} characters",
                f"La description du lot dépasse {MAX_LOT_DESCRIPTION} caractères.",
            )
        if (
            not isinstance(self.value_cents, int)
            or isinstance(self.value_cents, bool)
            or self.value_cents < 0
        ):
            raise InvalidProgram(
                f"lot value {self.value_cents!r} is not a non-negative integer of cents",
                "La valeur du lot doit être un montant positif.",
            )


@dataclass(frozen=True, slots=True)
class Stage:
    """One prize of a game: the pattern that wins it and its lot."""

    pattern: Pattern
    lot: Lot

    @property
    def label(self) -> str:
        """The French name of the pattern."""
        return PATTERN_LABELS[self.pattern]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game (partie) of the program: its kind and ordered stages, played on one draw."""

    kind: Kind
    stages: tuple[Stage, ...]
    title: str = ""

    def __post_init__(self) -> None:
        if not self.stages:
            raise InvalidProgram("a game needs at least one stage", "Une partie doit avoir un lot.")
        allowed = PATTERNS_BY_KIND[self.kind]
        order = [p.pattern for p in self.stages]
        for p in order:
            if p not in allowed:
                raise InvalidProgram(
                    f"pattern {p} cannot be played in a {self.kind} game",
                    f"« {PATTERN_LABELS[p]} » ne se joue pas en partie "
                    f"{KIND_LABELS[self.kind].lower()}.",
                )
        if self.kind is Kind.MAXIQUINE and len(order) != 1:
            raise InvalidProgram(
                "a maxiquine draw plays exactly one pattern (full card, or diagonal)",
                "Un tirage maxiquine se joue sur un seul lot.",
            )
        ranks = [allowed.index(p) for p in order]
        if ranks != sorted(set(ranks)):
            raise InvalidProgram(
                f"stages {order} are not in increasing order without repeats",
                "Les lots d'une partie s'enchaînent dans l'ordre (quine, double quine, carton).",
            )

    @property
    def label(self) -> str:
        """A French title for announcements."""
        if self.title:
            return self.title
        return f"Partie {KIND_LABELS[self.kind].lower()} : " + " → ".join(
            s.label for s in self.stages
        )


@dataclass(frozen=True, slots=True)
class Settings:
    """What the animateur announces about the way the evening is played.

    Attributes:
        draw_source: electronic boulier or physical balls typed in.
        auto_marking: mark drawn numbers on every carton automatically (off: marking is part
            of the game).
        tie_method: how ex aequo are settled.
        claim_hint: tell a player that a quine is possible (off by default: spotting it is part
            of the game).
        stream_url: a live-stream link (https) shown above the cartons of remote players.
    """

    draw_source: DrawSource = DrawSource.ELECTRONIC
    auto_marking: bool = False
    tie_method: TieMethod = TieMethod.SHARE_OR_DRAW
    claim_hint: bool = False
    stream_url: str = ""

    def __post_init__(self) -> None:
        url = self.stream_url
        if url and (
            not isinstance(url, str)
            or not url.startswith("https://")
            or len(url) > MAX_STREAM_URL
            or any(c.isspace() or c in "\"'<>" for c in url)
        ):
            raise InvalidProgram(
                f"stream url {url!r:.80} is not an https link of at most {MAX_STREAM_URL} chars",
                "Le lien de diffusion doit être une adresse https:// valide.",
            )


@dataclass(frozen=True, slots=True)
class Program:
    """The evening as announced: série code, settings and the ordered games."""

    series: str
    games: tuple[GameSpec, ...]
    settings: Settings = field(default_factory=Settings)

    def __post_init__(self) -> None:
        if not isinstance(self.series, str) or not (1 <= len(self.series.strip()) <= 16):
            raise InvalidProgram(
                f"series code {self.series!r} must have 1 to 16 characters",
                "Le code de série doit faire de 1 à 16 caractères.",
            )
        if not self.games:
            raise InvalidProgram(
                "the program has no game", "Le programme ne contient aucune partie."
            )

    def kinds(self) -> frozenset[Kind]:
        """The kinds of games played tonight (the kinds of cartons worth selling)."""
        return frozenset(g.kind for g in self.games)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "series": self.series,
            "settings": {
                "draw_source": self.settings.draw_source.value,
                "auto_marking": self.settings.auto_marking,
                "tie_method": self.settings.tie_method.value,
                "claim_hint": self.settings.claim_hint,
                "stream_url": self.settings.stream_url,
            },
            "games": [
                {
                    "kind": g.kind.value,
                    "title": g.title,
                    "stages": [
                        {
                            "pattern": s.pattern.value,
                            "lot": {
                                "description": s.lot.description,
                                "value_cents": s.lot.value_cents,
                                "divisible": s.lot.divisible,
                            },
                        }
                        for s in g.stages
                    ],
                }
                for g in self.games
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Program:
        """Rebuild from `to_dict()` output (validating everything again)."""
        try:
            st = data["settings"]
            settings = Settings(
                draw_source=DrawSource(st["draw_source"]),
                auto_marking=bool(st["auto_marking"]),
                tie_method=TieMethod(st["tie_method"]),
                claim_hint=bool(st.get("claim_hint", False)),
                stream_url=str(st.get("stream_url", "")),
            )
            games = tuple(
                GameSpec(
                    kind=Kind(g["kind"]),
                    title=str(g.get("title", "")),
                    stages=tuple(
                        Stage(Pattern(s["pattern"]), Lot(**s["lot"])) for s in g["stages"]
                    ),
                )
                for g in data["games"]
            )
            return cls(series=str(data["series"]), games=games, settings=settings)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidProgram):
                raise
            raise InvalidProgram(f"malformed program: {exc!r}") from exc


def demo_program(series: str = "A") -> Program:
    """A typical evening: chained classique games, a spécial, a vitrine and both maxiquines."""
    q = Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000))
    dq = Stage(Pattern.TWO_LINES, Lot("Bon d'achat de 50 €", 5000, divisible=True))
    cp = Stage(Pattern.FULL_CARD, Lot("Téléviseur", 30000))
    return Program(
        series=series,
        games=(
            GameSpec(Kind.CLASSIQUE, (q, dq, cp)),
            GameSpec(
                Kind.CLASSIQUE,
                (
                    Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),
                    Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),
                ),
            ),
            GameSpec(
                Kind.SPECIAL, (Stage(Pattern.FULL_CARD, Lot("Bons d'achat 100 €", 10000, True)),)
            ),
            GameSpec(
                Kind.VITRINE,
                (
                    Stage(Pattern.ONE_CARD, Lot("Robot pâtissier", 15000)),
                    Stage(Pattern.TWO_CARDS, Lot("Trottinette", 25000)),
                    Stage(Pattern.THREE_CARDS, Lot("Séjour à la montagne", 60000)),
                ),
            ),
            GameSpec(Kind.MAXIQUINE, (Stage(Pattern.FULL_CARD, Lot("Tablette", 20000)),)),
            GameSpec(Kind.MAXIQUINE, (Stage(Pattern.DIAGONAL, Lot("Cafetière", 8000)),)),
        ),
    )
