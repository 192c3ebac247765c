"""What an evening announces before the first number: its settings and its program of games.

All value objects here are immutable and validated on construction (`InvalidProgram`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from loto_app.domain.errors import InvalidProgram
from loto_app.domain.patterns import RULES, Pattern
from loto_app.limits import MAX_SERIES


class Kind(StrEnum):
    """The kind of a game, and of the cartons that play it (art. 1, 6)."""

    CLASSIQUE = "classique"
    SPECIAL = "special"
    VITRINE = "vitrine"
    MAXIQUINE = "maxiquine"


#: The patterns each kind of game may play, in the only order they may be chained.
PATTERNS_BY_KIND: dict[Kind, tuple[Pattern, ...]] = {
    Kind.CLASSIQUE: (Pattern.ONE_LINE, Pattern.TWO_LINES, Pattern.FULL_CARD),
    Kind.SPECIAL: (Pattern.FULL_CARD,),
    Kind.VITRINE: (Pattern.ONE_CARD, Pattern.TWO_CARDS, Pattern.THREE_CARDS),
    Kind.MAXIQUINE: (Pattern.FULL_CARD, Pattern.DIAGONAL),
}

#: French names, for the announcements (the rules' own: `patterns.RULES`).
PATTERN_LABELS: dict[Pattern, str] = {p: r.label for p, r in RULES.items()}

KIND_LABELS: dict[Kind, str] = {
    Kind.CLASSIQUE: "Classique",
    Kind.SPECIAL: "Spéciale",
    Kind.VITRINE: "Vitrine",
    Kind.MAXIQUINE: "Maxiquine",
}


def carton_kind_label(kind: str) -> str:
    """The kind of a carton, in French ("Spécial": a carton, not a game, is masculine); an
    unknown kind as it is."""
    try:
        k = Kind(kind)
    except ValueError:
        return kind
    return "Spécial" if k is Kind.SPECIAL else KIND_LABELS[k]


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
                    f"« {PATTERN_LABELS[p]} » ne se joue pas en partie "
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
        return f"Partie {KIND_LABELS[self.kind].lower()} : " + " → ".join(
            s.label for s in self.stages
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
        if self.planche and (self.kind not in (Kind.CLASSIQUE, Kind.SPECIAL) or q != 6):
            raise InvalidProgram(
                f"planche offer of {q} {self.kind}", "Une planche compte 6 cartons classiques."
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
        if self.kind is Kind.VITRINE:
            return f"{self.quantity} vitrine" + ("s" if self.quantity > 1 else "")
        noun = "grille" if self.kind is Kind.MAXIQUINE else "carton"
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
    table = {
        Kind.CLASSIQUE: (
            Offer(Kind.CLASSIQUE, 1, 300),
            Offer(Kind.CLASSIQUE, 3, 800),
            Offer(Kind.CLASSIQUE, 6, 1500, planche=True),
        ),
        Kind.SPECIAL: (Offer(Kind.SPECIAL, 1, 200), Offer(Kind.SPECIAL, 3, 500)),
        Kind.VITRINE: (Offer(Kind.VITRINE, 1, 500),),
        Kind.MAXIQUINE: (Offer(Kind.MAXIQUINE, 1, 200), Offer(Kind.MAXIQUINE, 2, 300)),
    }
    return tuple(o for k in Kind if k in kinds for o in table[k])


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
        remote_play: players outside the hall may join with the invitation link (off by
            default: a loto traditionnel is played in a restricted circle, L322-4).
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
    free_cartons: bool = False
    last_call_seconds: int = DEFAULT_LAST_CALL
    token_source: TokenSource | None = None

    def __post_init__(self) -> None:
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
            "settings": {
                "draw_source": self.settings.draw_source.value,
                "auto_marking": self.settings.auto_marking,
                "tie_method": self.settings.tie_method.value,
                "claim_hint": self.settings.claim_hint,
                "one_to_go": self.settings.one_to_go,
                "stream_url": self.settings.stream_url,
                "remote_play": self.settings.remote_play,
                "free_cartons": self.settings.free_cartons,
                "last_call_seconds": self.settings.last_call_seconds,
                "token_source": self.settings.token_source.value,  # type: ignore[union-attr]
            },
            "offers": [o.to_dict() for o in self.offers],
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
                                "cash": s.lot.cash,
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
                one_to_go=bool(st.get("one_to_go", False)),
                stream_url=str(st.get("stream_url", "")),
                remote_play=bool(st.get("remote_play", False)),
                free_cartons=bool(st.get("free_cartons", False)),
                # (programs stored before these settings: 5 s, tokens by the boulier's default)
                last_call_seconds=st.get("last_call_seconds", DEFAULT_LAST_CALL),
                token_source=TokenSource(st["token_source"]) if st.get("token_source") else None,
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
