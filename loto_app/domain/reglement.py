"""The evening's règlement, written from its program and settings.

The association's printed règlement (art. 1-12 of the traditional loto) is "à présenter à chaque
carton vendu". Here it is generated from the same `Program` the engine plays, so that it says
what the app enforces tonight: the kinds of cartons and the games each plays, every stage and
its lot, the tariff, the claim window (until the next number), the last call and its seconds,
ties (share or draw) and where the tokens come from, marking and démarquage, the série.
Each article cites the engine's rule it describes (docs/RULES.md). What a setting says is in
its `settings_catalog` entry (`Said`): each article is its own paragraphs with the settings'
put in place (`settings_catalog.said_in`); no setting is named here.

Pure: no Reflex, no database. `reglement(program, association)` gives a `Reglement`;
`.text()` a plain-text form (the PDF page), `.as_dicts()` what a page shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.games import DEFAULT_TYPES, TIE_MEANINGS, TieRule
from loto_app.domain.patterns import RULES
from loto_app.domain.program import KIND_LABELS, GameSpec, Kind, Pattern, Program
from loto_app.domain.settings_catalog import (
    BUYING,
    CARTONS,
    CLAIMS,
    DISPUTES,
    DRAW,
    LOTS,
    MARKING,
    PROGRAM,
    SERIES,
    TIES,
    said_in,
)

TITLE = "Règlement de la soirée"

#: What completes each pattern, in plain French.
PATTERN_MEANINGS: dict[Pattern, str] = {p: r.meaning for p, r in RULES.items()}

#: The cartons of each kind, as the buyer sees them (`carton_kinds.KINDS`).
KIND_CARTONS: dict[Kind, str] = {k: d.reglement for k, d in KINDS.items()}


@dataclass(frozen=True, slots=True)
class Article:
    """One article: its number, a short title and its paragraphs."""

    no: int
    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reglement:
    """The règlement of one evening."""

    association: str
    series: str
    articles: tuple[Article, ...]

    @property
    def title(self) -> str:
        """ "Règlement de la soirée" with the association's name."""
        return f"{TITLE} — {self.association}" if self.association else TITLE

    def text(self) -> str:
        """Plain text: the title, then each article and its paragraphs."""
        out = [self.title, ""]
        for a in self.articles:
            out.append(f"Article {a.no} — {a.title}")
            out.extend(f"  {p}" for p in a.paragraphs)
            out.append("")
        return "\n".join(out).rstrip() + "\n"

    def as_dicts(self) -> list[dict[str, Any]]:
        """JSON-ready articles for a page: {"no", "title", "paragraphs"}."""
        return [
            {"no": a.no, "title": a.title, "paragraphs": list(a.paragraphs)} for a in self.articles
        ]


def _numbers(nos: list[int]) -> str:
    """'la partie 3' / 'les parties 1, 2 et 5'."""
    if len(nos) == 1:
        return f"la partie {nos[0]}"
    head = ", ".join(str(n) for n in nos[:-1])
    return f"les parties {head} et {nos[-1]}"


def game_line(no: int, game: GameSpec) -> str:
    """'Partie 2 (classique) : Quine — Jambon ; puis Carton plein — Vélo.'; a game of another
    type than its cartons' default says its type, what it is and its tie rule."""
    gt = game.game_type
    title = f" « {game.title} »" if game.title else ""
    stages = " ; puis ".join(
        f"{s.label}, {PATTERN_MEANINGS[s.pattern]} — {s.lot.description}"
        + (" (lot partageable)" if s.lot.divisible else "")
        for s in game.stages
    )
    if gt is DEFAULT_TYPES[game.kind] and game.kind in _FIRST_KINDS:
        head = f"Partie {no}{title} ({KIND_LABELS[game.kind].lower()})"
    else:
        head = f"Partie {no}{title} ({gt.label.lower()}, {KINDS[game.kind].many}, {gt.summary})"
    tail = ""
    if game.tie is not TieRule.EVENING:
        tail += f" Ex aequo : {TIE_MEANINGS[game.tie]}."
    if game.improvised:
        tail += " Partie ajoutée pendant la soirée."
    return f"{head} : {stages}.{tail}"


#: the kinds whose default game is named by the kind alone ("Partie 2 (classique)")
_FIRST_KINDS = (Kind.CLASSIQUE, Kind.SPECIAL, Kind.VITRINE, Kind.MAXIQUINE)


def _cartons(program: Program) -> Article:
    paras = []
    for kind in Kind:
        nos = [i for i, g in enumerate(program.games, start=1) if g.kind is kind]
        if nos:
            paras.append(f"{KIND_CARTONS[kind]} : {_numbers(nos)}.")
    paras.append(
        "Un carton ne joue que les parties de son type. Les lots d'une partie se jouent "
        "l'un après l'autre sur le même tirage, sans démarquer entre deux lots."
    )
    return Article(
        CARTONS, "Les cartons et ce qu'ils jouent", said_in(program, CARTONS, tuple(paras))
    )


def _program(program: Program) -> Article:
    paras = [game_line(i, g) for i, g in enumerate(program.games, start=1)]
    if any(s.pattern is Pattern.FULL_CARD for g in program.games for s in g.stages):
        paras.append("Carton plein : 15 numéros sur un carton, 25 sur une grille maxiquine.")
    return Article(PROGRAM, "Le programme et les lots", said_in(program, PROGRAM, tuple(paras)))


def _buying(program: Program) -> Article:
    return Article(BUYING, "L'achat des cartons", said_in(program, BUYING))


def _draw(program: Program) -> Article:
    return Article(DRAW, "Le tirage", said_in(program, DRAW))


def _claims(program: Program) -> Article:
    return Article(
        CLAIMS,
        "Annoncer",
        said_in(
            program,
            CLAIMS,
            (
                "Sur le téléphone : touchez « QUINE ! » puis confirmez. Avec un carton papier : "
                "levez la main et criez « QUINE ! » vers le podium ; l'animateur contrôle votre "
                "carton par son numéro et son code.",
                "L'annonce doit arriver avant la sortie du numéro suivant : après, c'est « tour "
                "passé » (pas de lot, le carton reste en jeu). Aucun numéro n'est tiré tant qu'une "
                "annonce valide est en cours.",
                "Le dernier numéro tiré doit figurer dans ce qui fait gagner (la ligne, les "
                "lignes, le carton ou la diagonale), sous peine de nullité. L'annonce est jugée "
                "sur les numéros tirés, pas sur les marques du carton.",
                "Une annonce fausse annule le carton pour le reste de la partie ; il rejoue à la "
                "partie suivante.",
            ),
        ),
    )


def _ties(program: Program) -> Article:
    own = (
        "Un joueur compte une seule fois, même avec plusieurs cartons gagnants.",
        "Les autres ex aequo reçoivent un carton offert pour une partie suivante (un bon « "
        "carton offert » s'il n'en reste aucune).",
    )
    return Article(TIES, "Ex aequo", said_in(program, TIES, own))


def _marking(program: Program) -> Article:
    own = (
        "Ne démarquez pas avant que l'animateur l'annonce (« Vous pouvez démarquer ») : sur "
        "l'application, « Démarquer » reste bloqué jusque-là ; sur papier, une réclamation "
        "après un démarquage n'est pas recevable.",
    )
    return Article(MARKING, "Marquer et démarquer", said_in(program, MARKING, own))


def _series(program: Program) -> Article:
    return Article(
        SERIES,
        "La série",
        said_in(
            program,
            SERIES,
            (
                f"Série de ce soir : « {program.series} ». Chaque carton porte son numéro et un "
                "code de contrôle ; un carton d'une autre série, ou dont le code ne correspond "
                "pas, est nul.",
            ),
        ),
    )


def _lots(program: Program) -> Article:
    return Article(
        LOTS,
        "Les lots",
        said_in(
            program,
            LOTS,
            (
                "Chaque gagnant reçoit un ticket de lot (un numéro et un code) à présenter à la "
                "caisse, qui remet le lot une seule fois.",
                "Les lots sont en nature ou en bons d'achat, jamais en argent, et chaque prix "
                "reste inférieur à 20 € (art. L322-4 du Code de la sécurité intérieure).",
            ),
        ),
    )


def _disputes(program: Program, association: str) -> Article:
    who = f"l'association organisatrice ({association})" if association else "l'association"
    return Article(
        DISPUTES,
        "Litiges",
        said_in(
            program,
            DISPUTES,
            (
                f"Tout litige est réglé par {who}. Une annonce valide reçue après l'attribution du "
                "lot lui est transmise comme réclamation ; ses décisions sont écrites, motivées et "
                "portées au compte rendu de la soirée.",
                "Participer à la soirée vaut acceptation de ce règlement.",
            ),
        ),
    )


def reglement(program: Program, association: str = "") -> Reglement:
    """The règlement of an evening, from its program and settings.

    Args:
        program: the evening's program (games, settings, tariff).
        association: the organiser's name as the evening shows it ("" for none).
    """
    name = association.strip() if isinstance(association, str) else ""
    return Reglement(
        association=name,
        series=program.series,
        articles=(
            _cartons(program),
            _program(program),
            _buying(program),
            _draw(program),
            _claims(program),
            _ties(program),
            _marking(program),
            _series(program),
            _lots(program),
            _disputes(program, name),
        ),
    )


__all__ = ["TITLE", "Article", "Reglement", "game_line", "reglement"]
