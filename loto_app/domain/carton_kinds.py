"""The kinds of cartons an evening sells: each kind one `CartonKind` that carries all of it.

A kind is what a buyer pays for and what a game plays (a game names the kind of cartons it
plays, `GameSpec.kind`): the classique carton of 15 numbers, the spécial (the same grid, sold
for the spéciale only), the vitrine (3 cartons sold and played together), the maxiquine grid
of 25 numbers, the enfants' carton (a grid of 15 sold at a price of its own, for the partie
enfants), and the coloured séries a hall sells for the games that name them ("les cartons
verts"). Its French words (the shop, the desk, the règlement, the records), its grid, how many
cartons make a unit, whether it sells as a planche, its default tariff and whether it carries a
coloured band live here and nowhere else (`tests/domain/test_game_types.py` fails when a kind
lacks one).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """The kind of the cartons a game plays (art. 1, 6)."""

    CLASSIQUE = "classique"
    SPECIAL = "special"
    VITRINE = "vitrine"
    MAXIQUINE = "maxiquine"
    ENFANT = "enfant"
    VERT = "vert"
    JAUNE = "jaune"
    BLEU = "bleu"
    ROSE = "rose"


class Grid(StrEnum):
    """The grid of a kind's cartons."""

    CLASSIC = "classic"  # 3 rows of 5 numbers on 9 columns
    MAXI = "maxi"  # 5 rows of 5 numbers


@dataclass(frozen=True, slots=True)
class CartonKind:
    """Everything about one kind of carton.

    Attributes:
        kind: the kind it describes.
        label: its name as a game's kind and in a tariff ("Classique", "Vert").
        carton: a carton of this kind, as a label on the carton ("Spécial": masculine).
        one, many: a count of them ("carton vert" / "cartons verts").
        title: the shop's group title ("Cartons verts").
        looks: what one looks like, for a buyer.
        reglement: the règlement's sentence (who it plays with is added from the program).
        tariff: the règlement's tariff title after "Tarif " ("des cartons verts").
        grid: the grid of its cartons.
        unit: cartons sold and played together (a vitrine: 3).
        planche: sold as a planche of 6 (every number 1-90 once).
        offers: the default tariff: (quantity, price in cents, planche).
        band: its cartons carry a coloured band with its name (the colours:
            `components/palette.CARTON_BANDS`).
    """

    kind: Kind
    label: str
    carton: str
    one: str
    many: str
    title: str
    looks: str
    reglement: str
    tariff: str
    grid: Grid = Grid.CLASSIC
    unit: int = 1
    planche: bool = False
    offers: tuple[tuple[int, int, bool], ...] = ((1, 300, False), (3, 800, False))
    band: bool = False


def _coloured(kind: Kind, name: str, plural: str) -> CartonKind:
    return CartonKind(
        kind,
        label=name.capitalize(),
        carton=name.capitalize(),
        one=f"carton {name}",
        many=f"cartons {plural}",
        title=f"Cartons {plural}",
        looks=f"Un carton de 15 numéros de la série {plural}, pour les parties qui la nomment.",
        reglement=(
            f"Carton {name} : un carton de 15 numéros d'une série de couleur, vendu à part. "
            f"Il ne joue que les parties qui nomment les cartons {plural}"
        ),
        tariff=f"des cartons {plural}",
        planche=True,
        offers=((1, 200, False), (3, 500, False)),
        band=True,
    )


KINDS: dict[Kind, CartonKind] = {
    Kind.CLASSIQUE: CartonKind(
        Kind.CLASSIQUE,
        label="Classique",
        carton="Classique",
        one="carton classique",
        many="cartons classiques",
        title="Cartons classiques",
        looks="Le carton habituel : 3 lignes de 5 numéros.",
        reglement=(
            "Carton classique : 3 lignes de 5 numéros (15 numéros de 1 à 90). "
            "Il joue toutes les parties classiques de la soirée"
        ),
        tariff="classique",
        planche=True,
        offers=((1, 300, False), (3, 800, False), (6, 1500, True)),
    ),
    Kind.SPECIAL: CartonKind(
        Kind.SPECIAL,
        label="Spéciale",
        carton="Spécial",
        one="carton spécial",
        many="cartons spéciaux",
        title="Cartons de la partie spéciale",
        looks="Un carton habituel, pour cette partie seule.",
        reglement=(
            "Carton spécial : la même grille que le classique (15 numéros). "
            "Il ne joue que les parties spéciales"
        ),
        tariff="spécial",
        planche=True,
        offers=((1, 200, False), (3, 500, False)),
    ),
    Kind.VITRINE: CartonKind(
        Kind.VITRINE,
        label="Vitrine",
        carton="Vitrine",
        one="vitrine de 3 cartons",
        many="vitrines de 3 cartons",
        title="Vitrines",
        looks="3 cartons vendus et joués ensemble : un lot pour 1 carton plein, puis 2, puis 3.",
        reglement=(
            "Vitrine : 3 cartons vendus ensemble, qui ne se séparent pas. "
            "Elle ne joue que les parties vitrine"
        ),
        tariff="des vitrines",
        unit=3,
        offers=((1, 500, False),),
    ),
    Kind.MAXIQUINE: CartonKind(
        Kind.MAXIQUINE,
        label="Maxiquine",
        carton="Maxiquine",
        one="grand carton",
        many="grands cartons",
        title="Grands cartons (maxiquine)",
        looks="Un grand carton de 25 numéros.",
        reglement=(
            "Grille maxiquine : 5 lignes de 5 numéros (25 numéros). "
            "Elle ne joue que les tirages maxiquine"
        ),
        tariff="maxiquine",
        grid=Grid.MAXI,
        offers=((1, 200, False), (2, 300, False)),
    ),
    Kind.ENFANT: CartonKind(
        Kind.ENFANT,
        label="Enfants",
        carton="Enfant",
        one="carton enfant",
        many="cartons enfants",
        title="Cartons de la partie enfants",
        looks="Un carton habituel de 15 numéros, pour la partie des enfants.",
        reglement=(
            "Carton enfant : un carton de 15 numéros vendu à un prix à part. "
            "Il ne joue que les parties enfants"
        ),
        tariff="des cartons enfants",
        offers=((1, 100, False),),
        band=True,
    ),
    Kind.VERT: _coloured(Kind.VERT, "vert", "verts"),
    Kind.JAUNE: _coloured(Kind.JAUNE, "jaune", "jaunes"),
    Kind.BLEU: _coloured(Kind.BLEU, "bleu", "bleus"),
    Kind.ROSE: _coloured(Kind.ROSE, "rose", "roses"),
}

#: the kinds whose cartons are single 15-number grids (the classique's games may play them)
SINGLE_CLASSIC: tuple[Kind, ...] = tuple(
    k for k, d in KINDS.items() if d.grid is Grid.CLASSIC and d.unit == 1
)
#: the coloured séries
COLOURED: tuple[Kind, ...] = (Kind.VERT, Kind.JAUNE, Kind.BLEU, Kind.ROSE)


def describe(kind: Kind) -> CartonKind:
    """The description of a kind."""
    return KINDS[kind]
