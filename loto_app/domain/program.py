"""What an evening announces before the first number: its settings and its program of games.

All value objects here are immutable and validated on construction (`InvalidProgram`).
"""

from __future__ import annotations

import functools
import typing
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any

from loto_app.domain import remote
from loto_app.domain.carton_kinds import KINDS, Grid, Kind
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.games import DEFAULT_TYPES, GAME_TYPES, GameType, TieRule
from loto_app.domain.patterns import RULES, Pattern
from loto_app.limits import MAX_SERIES

#: The patterns each kind of cartons may play by default (its default type's), in order.
PATTERNS_BY_KIND: dict[Kind, tuple[Pattern, ...]] = {
    k: t.patterns for k, t in DEFAULT_TYPES.items()
}

#: French names, for the announcements (the rules' own: `patterns.RULES`).
PATTERN_LABELS: dict[Pattern, str] = {p: r.label for p, r in RULES.items()}

#: A kind's name (`carton_kinds.KINDS`).
KIND_LABELS: dict[Kind, str] = {k: d.label for k, d in KINDS.items()}


def carton_kind_label(kind: str) -> str:
    """The kind of a carton, in French ("Spécial": a carton, not a game, is masculine); an
    unknown kind as it is."""
    try:
        return KINDS[Kind(kind)].carton
    except ValueError:
        return kind


class DrawSource(StrEnum):
    """Where numbers come from."""

    ELECTRONIC = "electronic"  # the app's boulier (CSPRNG)
    PHYSICAL = "physical"  # the animateur types the number read on the ball


class TieMethod(StrEnum):
    """How ex aequo are settled (announced at the start of the evening, art. 5)."""

    DRAW = "draw"  # token draw only
    SHARE_OR_DRAW = "share_or_draw"  # two tied players may share a divisible lot


class TokenSource(StrEnum):
    """Where the tie-break tokens come from."""

    APP = "app"  # the app draws distinct random tokens
    BAG = "bag"  # each tied player draws a token from the bag; the animateur types it


MAX_LOT_DESCRIPTION = 120
MAX_STREAM_URL = 300
#: Lotos traditionnels (Code de la sécurité intérieure, art. L322-4): stakes of low value.
#: A carton (or pack) must cost less than 20 euros.
MAX_PRICE_CENTS = 1999
MAX_OFFER_QUANTITY = 36
DEFAULT_LAST_CALL = 5  # seconds of "Pas d'autre quine ?" after the first valid claim
MAX_LAST_CALL = 30
LEGAL_PRICE_MESSAGE = (
    "Un loto traditionnel se joue avec des mises de faible valeur (art. L322-4 du Code de la "
    "sécurité intérieure) : chaque prix doit rester inférieur à 20 €."
)
LEGAL_CASH_MESSAGE = (
    "Un loto traditionnel ne peut pas faire gagner d'argent (art. L322-4 du Code de la "
    "sécurité intérieure) : proposez un objet ou un bon d'achat."
)


@dataclass(frozen=True, slots=True)
class Lot:
    """A prize.

    Attributes:
        description: what the winner receives ("Un vélo", "Bon d'achat de 50 €").
        value_cents: its value, for the record (0 when unknown).
        divisible: vouchers or anything that two winners can share.
        cash: a sum of money: refused (no cash prizes in a loto traditionnel, L322-4); the
            field exists so that the set-up can say why.
    """

    description: str
    value_cents: int = 0
    divisible: bool = False
    cash: bool = False

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
        if self.cash is not False:
            raise InvalidProgram(f"cash lot {self.description!r:.40}", LEGAL_CASH_MESSAGE)


@dataclass(frozen=True, slots=True)
class Stage:
    """One prize of a game: the pattern that wins it and its lot."""

    pattern: Pattern
    lot: Lot
    #: won only within this many numbers drawn (the jackpot; 0: no limit)
    within: int = 0

    def __post_init__(self) -> None:
        w = self.within
        if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w <= 90:
            raise InvalidProgram(
                f"stage within {w!r:.20}", "Le nombre de numéros doit être un entier de 1 à 90."
            )

    @property
    def label(self) -> str:
        """The French name of the pattern ("Carton plein en 50 numéros" for a jackpot)."""
        name = PATTERN_LABELS[self.pattern]
        return f"{name} en {self.within} numéros" if self.within else name


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game (partie) of the program: its type, the kind of cartons it plays, its ordered
    stages (played on one draw), its tie rule.

    Attributes:
        kind: the kind of cartons that play it.
        stages: its lots, in the order they are played.
        title: the organiser's title ("" for the type's name and the lots).
        type: the name of its `GameType` (`games.GAME_TYPES`); "" for the kind's default
            type (programs written before types).
        tie: how its ex aequo are settled (`TieRule.EVENING`: the evening's rule).
        improvised: added during the evening (a donor arrived with a lot).
    """

    kind: Kind
    stages: tuple[Stage, ...]
    title: str = ""
    type: str = ""
    tie: TieRule = TieRule.EVENING
    improvised: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise InvalidProgram(f"game kind {self.kind!r:.20}", "Type de carton inconnu.")
        if not self.stages:
            raise InvalidProgram("a game needs at least one stage", "Une partie doit avoir un lot.")
        if not isinstance(self.type, str) or (self.type and self.type not in GAME_TYPES):
            raise InvalidProgram(f"game type {self.type!r:.30}", "Type de partie inconnu.")
        if not self.type:
            object.__setattr__(self, "type", DEFAULT_TYPES[self.kind].name)
        try:
            object.__setattr__(self, "tie", TieRule(self.tie))
        except ValueError as exc:
            raise InvalidProgram(
                f"tie rule {self.tie!r:.30}", "Règle des ex aequo inconnue."
            ) from exc
        if not isinstance(self.improvised, bool):
            raise InvalidProgram(f"improvised {self.improvised!r:.20}")
        self.game_type.validate(self)

    @property
    def game_type(self) -> GameType:
        """What the game is (its rule, its words)."""
        return GAME_TYPES[self.type]

    @property
    def label(self) -> str:
        """A French title for announcements."""
        if self.title:
            return self.title
        return f"{self.game_type.label} : " + " → ".join(s.label for s in self.stages)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (what is at its default is left out: old programs read the same)."""
        out: dict[str, Any] = {"kind": self.kind.value, "title": self.title}
        if self.type != DEFAULT_TYPES[self.kind].name:
            out["type"] = self.type
        if self.tie is not TieRule.EVENING:
            out["tie"] = self.tie.value
        if self.improvised:
            out["improvised"] = True
        out["stages"] = [
            {
                "pattern": s.pattern.value,
                "lot": {
                    "description": s.lot.description,
                    "value_cents": s.lot.value_cents,
                    "divisible": s.lot.divisible,
                    "cash": s.lot.cash,
                },
                **({"within": s.within} if s.within else {}),
            }
            for s in self.stages
        ]
        return out

    @classmethod
    def from_dict(cls, g: dict[str, Any]) -> GameSpec:
        """Rebuild from `to_dict()` output (validated again)."""
        return cls(
            kind=Kind(g["kind"]),
            title=str(g.get("title", "")),
            type=str(g.get("type", "")),
            tie=TieRule(g.get("tie", "")),
            improvised=g.get("improvised", False),
            stages=tuple(
                Stage(Pattern(s["pattern"]), Lot(**s["lot"]), within=s.get("within", 0))
                for s in g["stages"]
            ),
        )


@dataclass(frozen=True, slots=True)
class Offer:
    """A price of the evening's tariff: a pack of cartons of one kind.

    Attributes:
        kind: the kind of cartons.
        quantity: cartons in the pack (vitrine: units of 3 cartons); 6 with `planche`.
        price_cents: what the pack costs (under 20 euros: L322-4).
        planche: a whole fresh planche of 6 (classique or spécial), every number 1-90 once.
    """

    kind: Kind
    quantity: int
    price_cents: int
    planche: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise InvalidProgram(f"offer kind {self.kind!r}", "Type de carton inconnu.")
        q = self.quantity
        if not isinstance(q, int) or isinstance(q, bool) or not 1 <= q <= MAX_OFFER_QUANTITY:
            raise InvalidProgram(
                f"offer quantity {q!r} not in 1..{MAX_OFFER_QUANTITY}",
                f"Un tarif porte sur 1 à {MAX_OFFER_QUANTITY} cartons.",
            )
        if self.planche and (not KINDS[self.kind].planche or q != 6):
            raise InvalidProgram(
                f"planche offer of {q} {self.kind}",
                "Une planche compte 6 cartons de 15 numéros (pas de planche de vitrines, de "
                "grilles maxiquine ni de cartons enfants).",
            )
        p = self.price_cents
        if not isinstance(p, int) or isinstance(p, bool) or p <= 0:
            raise InvalidProgram(f"offer price {p!r}", "Le prix doit être un montant positif.")
        if p > MAX_PRICE_CENTS:
            raise InvalidProgram(f"offer price {p} cents is 20 euros or more", LEGAL_PRICE_MESSAGE)

    @property
    def label(self) -> str:
        """French name of the pack ("3 cartons", "Planche de 6", "1 vitrine")."""
        if self.planche:
            return "Planche de 6"
        d = KINDS[self.kind]
        if d.unit > 1:
            return f"{self.quantity} vitrine" + ("s" if self.quantity > 1 else "")
        noun = "grille" if d.grid is Grid.MAXI else "carton"
        return f"{self.quantity} {noun}" + ("s" if self.quantity > 1 else "")

    @property
    def name(self) -> str:
        """The pack with its kind, as the desk and the record name it ("3 cartons (classique)")."""
        return f"{self.label} ({KIND_LABELS[self.kind].lower()})"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "kind": self.kind.value,
            "quantity": self.quantity,
            "price_cents": self.price_cents,
            "planche": self.planche,
        }


def default_offers(kinds: frozenset[Kind] | set[Kind]) -> tuple[Offer, ...]:
    """A common tariff for the kinds played (what most associations charge)."""
    return tuple(
        Offer(k, q, cents, planche=planche)
        for k in Kind
        if k in kinds
        for q, cents, planche in KINDS[k].offers
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
        one_to_go: "Plus qu'un numéro !": a carton one number away from the stage's pattern
            says which number it waits for, and the cartons closest to the pattern come first
            with how many numbers each still needs (off by default, like the hint). Marking and
            claiming stay the player's own gestures.
        stream_url: a live-stream link (https) shown above the cartons of remote players.
        remote_play: players outside the hall may join, each with an invitation of their own
            (off by default: a loto traditionnel is played in a restricted circle, L322-4; the
            rules of remote play: `domain/remote.py`).
        remote_cap: at most this many remote players (1 to `remote.MAX_REMOTE_CAP`, required
            when remote play is on; not read when off).
        remote_confirmed: the organiser read the warning on remote play (QE 17-2417, L322-4)
            and confirmed it (required when remote play is on; recorded with the program).
        free_cartons: a free loto (a retirement home, a school party): cartons ordered on a
            phone are handed at once for nothing, and recorded as "offert".
        last_call_seconds: how long "Pas d'autre quine ?" lasts after the first valid claim
            on a number (0 to 30; 0: no last call, the lot can be awarded at once).
        token_source: where tie-break tokens come from; None (the default) means the bag with
            a physical boulier, the app with the electronic one.
    """

    draw_source: DrawSource = DrawSource.ELECTRONIC
    auto_marking: bool = False
    tie_method: TieMethod = TieMethod.SHARE_OR_DRAW
    claim_hint: bool = False
    one_to_go: bool = False
    stream_url: str = ""
    remote_play: bool = False
    remote_cap: int = 0
    remote_confirmed: bool = False
    free_cartons: bool = False
    last_call_seconds: int = DEFAULT_LAST_CALL
    token_source: TokenSource | None = None

    def __post_init__(self) -> None:
        remote.check_settings(self.remote_play, self.remote_cap, self.remote_confirmed)
        lc = self.last_call_seconds
        if not isinstance(lc, int) or isinstance(lc, bool) or not 0 <= lc <= MAX_LAST_CALL:
            raise InvalidProgram(
                f"last call of {lc!r} seconds not in 0..{MAX_LAST_CALL}",
                f"Le dernier appel dure de 0 à {MAX_LAST_CALL} secondes.",
            )
        if self.token_source is None:
            physical = self.draw_source is DrawSource.PHYSICAL
            object.__setattr__(
                self, "token_source", TokenSource.BAG if physical else TokenSource.APP
            )
        elif not isinstance(self.token_source, TokenSource):
            try:
                object.__setattr__(self, "token_source", TokenSource(self.token_source))
            except ValueError as exc:
                raise InvalidProgram(
                    f"token source {self.token_source!r:.20}", "Jetons : l'appli ou le sac."
                ) from exc
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

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: every field, an enum by its value."""
        return {
            f.name: v.value if isinstance(v := getattr(self, f.name), Enum) else v
            for f in fields(self)
        }

    @classmethod
    def from_dict(cls, st: dict[str, Any]) -> Settings:
        """Rebuild from `to_dict()` output (validated again). A setting a stored program
        does not have (stored before it existed) takes its default, except the first three
        every program has.

        Raises:
            KeyError, TypeError, ValueError: malformed settings.
        """
        hints = _settings_types()
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in st:
                if f.name in _SETTINGS_SINCE_THE_START:
                    raise KeyError(f.name)
                continue
            values[f.name] = _setting_value(hints[f.name], st[f.name])
        if "remote_cap" not in st:
            # (stored before the cap and the confirmation, with the shared invitation link of
            # then: remote play off, its conditions not met)
            values["remote_play"] = False
        return cls(**values)


#: The settings every stored program has (the others came later: see `Settings.from_dict`).
_SETTINGS_SINCE_THE_START = ("draw_source", "auto_marking", "tie_method")


@functools.cache
def _settings_types() -> dict[str, Any]:
    return typing.get_type_hints(Settings)


def _setting_value(hint: Any, raw: Any) -> Any:
    """A stored setting's value as its field's type (an enum from its value, None for an
    empty optional)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if args and len(args) < len(typing.get_args(hint)):  # (Optional)
        return _setting_value(args[0], raw) if raw else None
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(raw)
    if hint is bool or hint is str:
        return hint(raw)
    return raw


@dataclass(frozen=True, slots=True)
class Program:
    """The evening as announced: série code, settings, the ordered games and the tariff
    (`offers`; empty means the default tariff for the kinds played)."""

    series: str
    games: tuple[GameSpec, ...]
    settings: Settings = field(default_factory=Settings)
    offers: tuple[Offer, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.series, str) or not (1 <= len(self.series.strip()) <= MAX_SERIES):
            raise InvalidProgram(
                f"series code {self.series!r} must have 1 to {MAX_SERIES} characters",
                f"Le code de série doit faire de 1 à {MAX_SERIES} caractères.",
            )
        if not self.games:
            raise InvalidProgram(
                "the program has no game", "Le programme ne contient aucune partie."
            )
        if not self.offers:
            object.__setattr__(self, "offers", default_offers(self.kinds()))
        seen: set[tuple[Kind, int, bool]] = set()
        for o in self.offers:
            if o.kind not in self.kinds():
                raise InvalidProgram(
                    f"offer for {o.kind} cartons but no {o.kind} game",
                    f"Aucune partie {KIND_LABELS[o.kind].lower()} au programme : "
                    "ce tarif ne servirait à rien.",
                )
            if (o.kind, o.quantity, o.planche) in seen:
                raise InvalidProgram(
                    f"offer {o} given twice", f"Le tarif « {o.label} » est donné deux fois."
                )
            seen.add((o.kind, o.quantity, o.planche))

    def with_settings(self, **changes: Any) -> Program:
        """The same program with some settings changed (validated again; a new draw source
        without a token source takes that source's default tokens)."""
        if "draw_source" in changes:
            changes.setdefault("token_source", None)
        return Program(self.series, self.games, replace(self.settings, **changes), self.offers)

    def kinds(self) -> frozenset[Kind]:
        """The kinds of games played tonight (the kinds of cartons worth selling)."""
        return frozenset(g.kind for g in self.games)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "series": self.series,
            "settings": self.settings.to_dict(),
            "offers": [o.to_dict() for o in self.offers],
            "games": [g.to_dict() for g in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Program:
        """Rebuild from `to_dict()` output (validating everything again)."""
        try:
            settings = Settings.from_dict(data["settings"])
            games = tuple(GameSpec.from_dict(g) for g in data["games"])
            offers = tuple(
                Offer(
                    Kind(o["kind"]),
                    o["quantity"],
                    o["price_cents"],
                    planche=bool(o.get("planche", False)),
                )
                for o in data.get("offers", ())
            )
            return cls(series=str(data["series"]), games=games, settings=settings, offers=offers)
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
