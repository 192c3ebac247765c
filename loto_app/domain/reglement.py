"""The evening's règlement, written from its program and settings.

The association's printed règlement (art. 1-12 of the traditional loto) is "à présenter à chaque
carton vendu". Here it is generated from the same `Program` the engine plays, so that it says
what the app enforces tonight: the kinds of cartons and the games each plays, every stage and
its lot, the tariff, the claim window (until the next number), the last call and its seconds,
ties (share or draw) and where the tokens come from, marking and démarquage, the série.
Each article cites the engine's rule it describes (docs/RULES.md).

Pure: no Reflex, no database. `reglement(program, association)` gives a `Reglement`;
`.text()` a plain-text form (the PDF page), `.as_dicts()` what a page shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loto_app.domain import remote
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.games import DEFAULT_TYPES, TIE_MEANINGS, TieRule
from loto_app.domain.patterns import RULES
from loto_app.domain.program import (
    KIND_LABELS,
    DrawSource,
    GameSpec,
    Kind,
    Pattern,
    Program,
    TieMethod,
    TokenSource,
)

TITLE = "Règlement de la soirée"

#: What completes each pattern, in plain French.
PATTERN_MEANINGS: dict[Pattern, str] = {p: r.meaning for p, r in RULES.items()}

#: The cartons of each kind, as the buyer sees them (`carton_kinds.KINDS`).
KIND_CARTONS: dict[Kind, str] = {k: d.reglement for k, d in KINDS.items()}

#: "Tarif classique", "Tarif des vitrines"...
TARIFF_NAMES: dict[Kind, str] = {k: d.tariff for k, d in KINDS.items()}


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


def _euros(cents: int) -> str:
    whole, frac = divmod(cents, 100)
    return f"{whole},{frac:02d} €" if frac else f"{whole} €"


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
    return Article(1, "Les cartons et ce qu'ils jouent", tuple(paras))


def _program(program: Program) -> Article:
    paras = [game_line(i, g) for i, g in enumerate(program.games, start=1)]
    if any(s.pattern is Pattern.FULL_CARD for g in program.games for s in g.stages):
        paras.append("Carton plein : 15 numéros sur un carton, 25 sur une grille maxiquine.")
    return Article(2, "Le programme et les lots", tuple(paras))


def _buying(program: Program) -> Article:
    st = program.settings
    if st.free_cartons:
        paras = ["Ce soir, les cartons sont offerts."]
    else:
        paras = []
        for kind in Kind:
            offers = [o for o in program.offers if o.kind is kind]
            if offers:
                prices = " ; ".join(f"{o.label.lower()} : {_euros(o.price_cents)}" for o in offers)
                paras.append(f"Tarif {TARIFF_NAMES[kind]} : {prices}.")
    paras.append(
        "Les cartons s'achètent pendant toute la soirée. Un carton acheté une fois la partie "
        "commencée (son tirage est alors engagé) joue à partir de la partie suivante de son type."
        if st.draw_source is DrawSource.ELECTRONIC
        else (
            "Les cartons s'achètent pendant toute la soirée. Un carton acheté après le premier "
            "numéro d'une partie joue à partir de la partie suivante de son type."
        )
    )
    paras.append(remote.reglement_article(st.remote_play, st.remote_cap))
    return Article(3, "L'achat des cartons", tuple(paras))


def _draw(program: Program) -> Article:
    if program.settings.draw_source is DrawSource.ELECTRONIC:
        paras: tuple[str, ...] = (
            "Les numéros de 1 à 90 sont tirés au hasard, sans remise, par le boulier "
            "électronique de l'application, et annoncés par l'animateur.",
            "Tirage vérifiable\u202f: au début de chaque partie, avant le premier numéro, "
            "l'application fixe tout l'ordre des numéros à partir d'une graine secrète et en "
            "affiche l'empreinte (SHA-256) sur l'écran de la salle et les téléphones. Chaque "
            "numéro tiré est le suivant de cet ordre. À la fin de la partie, la graine est "
            "publiée\u202f: chacun peut vérifier, sur la page «\u00a0vérifier\u00a0» de "
            "l'application ou par ses propres moyens, que l'ordre tiré est bien celui qui avait "
            "été engagé.",
        )
    else:
        paras = (
            "Les numéros de 1 à 90 sortent du boulier de la salle, sans remise\u202f; l'animateur "
            "les annonce et les saisit dans l'application.",
            "Avec le boulier de la salle, rien n'est engagé à l'avance dans l'application\u202f: "
            "les boules tirées font foi, sous les yeux des joueurs.",
        )
    return Article(4, "Le tirage", paras)


def _claims(program: Program) -> Article:
    return Article(
        5,
        "Annoncer",
        (
            "Sur le téléphone : touchez « QUINE ! » puis confirmez. Avec un carton papier : "
            "levez la main et criez « QUINE ! » vers le podium ; l'animateur contrôle votre "
            "carton par son numéro et son code.",
            "L'annonce doit arriver avant la sortie du numéro suivant : après, c'est « tour "
            "passé » (pas de lot, le carton reste en jeu). Aucun numéro n'est tiré tant qu'une "
            "annonce valide est en cours.",
            "Le dernier numéro tiré doit figurer dans ce qui fait gagner (la ligne, les lignes, "
            "le carton ou la diagonale), sous peine de nullité. L'annonce est jugée sur les "
            "numéros tirés, pas sur les marques du carton.",
            "Une annonce fausse annule le carton pour le reste de la partie ; il rejoue à la "
            "partie suivante.",
        ),
    )


def _ties(program: Program) -> Article:
    st = program.settings
    s = st.last_call_seconds
    if s:
        first = (
            "Un seul gagnant par lot, ex aequo possibles. Dès la première annonce valide sur "
            f"un numéro, l'animateur lance « Pas d'autre quine ? » : pendant {s} seconde"
            f"{'s' if s > 1 else ''}, toute autre annonce valide sur ce même numéro est ex "
            "aequo. Le lot est attribué ensuite."
        )
    else:
        first = (
            "Un seul gagnant par lot, ex aequo possibles. Pas de dernier appel ce soir : les "
            "annonces valides sur le même numéro, reçues avant l'attribution du lot, sont ex "
            "aequo."
        )
    paras = [first, "Un joueur compte une seule fois, même avec plusieurs cartons gagnants."]
    divisible = sorted(
        {s.lot.description for g in program.games for s in g.stages if s.lot.divisible}
    )
    if st.tie_method is TieMethod.SHARE_OR_DRAW and divisible:
        paras.append(
            "Deux ex aequo sur un lot partageable ("
            + ", ".join(divisible)
            + ") : il leur est d'abord proposé de le partager ; si tous deux acceptent, "
            "chacun en reçoit la moitié. Sinon, ou à trois ex aequo et plus, tirage au sort."
        )
    elif st.tie_method is TieMethod.SHARE_OR_DRAW:
        paras.append("Aucun lot n'est partageable ce soir : les ex aequo sont tirés au sort.")
    else:
        paras.append("Ce soir, pas de partage : les ex aequo sont départagés par tirage au sort.")
    if st.token_source is TokenSource.BAG:
        paras.append(
            "Tirage au sort : chaque ex aequo tire un jeton numéroté (1 à 90) dans le sac, "
            "l'animateur le saisit ; le plus grand numéro gagne."
        )
    else:
        paras.append(
            "Tirage au sort : l'application tire pour chaque ex aequo un jeton numéroté de 1 à "
            "90, tous différents ; le plus grand numéro gagne."
        )
    paras.append(
        "Les autres ex aequo reçoivent un carton offert pour une partie suivante (un bon « "
        "carton offert » s'il n'en reste aucune)."
    )
    return Article(6, "Ex aequo", tuple(paras))


def _marking(program: Program) -> Article:
    st = program.settings
    paras = [
        "Les numéros tirés se marquent d'eux-mêmes sur les cartons de l'application."
        if st.auto_marking
        else "Marquez vous-même les numéros tirés (sur l'application : touchez le numéro, "
        "touchez-le de nouveau pour l'effacer). Les marques sont une aide : l'annonce est "
        "jugée sur les numéros tirés."
    ]
    if st.claim_hint:
        paras.append("L'application signale quand un de vos cartons a de quoi gagner.")
    else:
        paras.append("L'application ne signale pas les quines : à vous de les voir.")
    if st.one_to_go:
        paras.append(
            "L'application montre combien de numéros il manque à chaque carton, et le numéro "
            "qu'attend un carton à qui il n'en manque plus qu'un. Marquer et annoncer restent "
            "vos gestes."
        )
    paras.append(
        "Ne démarquez pas avant que l'animateur l'annonce (« Vous pouvez démarquer ») : sur "
        "l'application, « Démarquer » reste bloqué jusque-là ; sur papier, une réclamation "
        "après un démarquage n'est pas recevable."
    )
    return Article(7, "Marquer et démarquer", tuple(paras))


def _series(program: Program) -> Article:
    return Article(
        8,
        "La série",
        (
            f"Série de ce soir : « {program.series} ». Chaque carton porte son numéro et un "
            "code de contrôle ; un carton d'une autre série, ou dont le code ne correspond "
            "pas, est nul.",
        ),
    )


def _lots(program: Program) -> Article:
    return Article(
        9,
        "Les lots",
        (
            "Chaque gagnant reçoit un ticket de lot (un numéro et un code) à présenter à la "
            "caisse, qui remet le lot une seule fois.",
            "Les lots sont en nature ou en bons d'achat, jamais en argent, et chaque prix reste "
            "inférieur à 20 € (art. L322-4 du Code de la sécurité intérieure).",
        ),
    )


def _disputes(association: str) -> Article:
    who = f"l'association organisatrice ({association})" if association else "l'association"
    return Article(
        10,
        "Litiges",
        (
            f"Tout litige est réglé par {who}. Une annonce valide reçue après l'attribution du "
            "lot lui est transmise comme réclamation ; ses décisions sont écrites, motivées et "
            "portées au compte rendu de la soirée.",
            "Participer à la soirée vaut acceptation de ce règlement.",
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
            _disputes(name),
        ),
    )


__all__ = ["TITLE", "Article", "Reglement", "game_line", "reglement"]
