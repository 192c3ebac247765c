"""Every setting of the evening (`program.Settings`), described once: how the organiser's form
asks for it, what the règlement says of it, what the evening's report writes of it.

The form (`live/input/program_form.py`, the state `live/states/organisation_setup.py` and the
page `pages/organisation_setup.py`), the règlement (`reglement.py`) and the report
(`records/report.py`) read `SETTINGS`; none of them names a setting. A new setting is a field
of `Settings` and one `SettingSpec` here (plus the engine's rule that reads it);
`tests/domain/test_settings_catalog.py` fails until every field has its entry, and
`tests/domain/test_reglement.py` until the règlement says every value of it.

Pure: no Reflex, no database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from loto_app.domain import remote
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.program import (
    MAX_STREAM_URL,
    DrawSource,
    Kind,
    Program,
    Settings,
    TieMethod,
    TokenSource,
)

# ---------------------------------------------------------------------------- the form's controls


@dataclass(frozen=True, slots=True)
class Option:
    """One answer of a choice: what the form sends (`form`), its French title and line of
    detail (a card of the radio choice), and the setting's value it stands for."""

    form: str
    title: str
    detail: str
    value: Any


@dataclass(frozen=True, slots=True)
class Check:
    """A checkbox: the setting is a bool."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few options, as cards (`components.form.radio_cards`). `parse` reads a value
    the options do not offer (an evening stored with 12 seconds of last call shows no card
    ticked and keeps its 12 seconds); None: such a value is refused."""

    options: tuple[Option, ...]
    parse: Callable[[str], Any] | None = None


@dataclass(frozen=True, slots=True)
class Number:
    """A whole number typed in, from `low` to `high` (the domain checks it again)."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text (stripped), at most `max_length` characters."""

    max_length: int
    placeholder: str = ""


Control = Check | Choice | Number | Text

# ---------------------------------------------------------------------------- the règlement

#: The articles settings speak in (`reglement.py` numbers its articles with them).
CARTONS, PROGRAM, BUYING, DRAW, CLAIMS, TIES, MARKING, SERIES, LOTS, DISPUTES = range(1, 11)


@dataclass(frozen=True, slots=True)
class Said:
    """What the règlement says of a setting: in which article, where in it (the article's own
    paragraphs stand at 10, 20, 30…; settings at the same place follow `SETTINGS`' order), and
    its paragraphs for this program (usually from its value alone)."""

    article: int
    at: int
    say: Callable[[Program], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Reported:
    """The setting's line in the evening's report (and its exports): a label, and its value
    in French."""

    label: str
    say: Callable[[Any], str]


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting of the evening.

    Attributes:
        name: its field of `Settings`.
        label: its French name on the form (a choice's heading, a checkbox's line).
        control: how the form asks for it.
        reglement: what the règlement says of it (a setting no rule of the game depends on
            still says it: `test_reglement.py` checks that every value is told).
        report: its line in the report; None: the report does not list it (say so here,
            on purpose, for a new setting).
        help: a line under the control ("" for none).
        form: the form's name for it (the state's var, `set_field`'s field, the test ids
            `<form>-<option>`); "" for the field's own name.
        testid: its control's test id; "" for `org-<name with dashes>`.
        section: where the page shows it: "how" (the "Déroulement" section, drawn from this
            entry) or "remote" (the "Jeu à distance" section, drawn by hand with its warning).
    """

    name: str
    label: str
    control: Control
    reglement: tuple[Said, ...]
    report: Reported | None
    help: str = ""
    form: str = ""
    testid: str = ""
    section: str = "how"

    @property
    def form_name(self) -> str:
        return self.form or self.name

    @property
    def test_id(self) -> str:
        return self.testid or "org-" + self.name.replace("_", "-")

    @property
    def default(self) -> Any:
        """The setting's default (the dataclass field's: None for "as the boulier")."""
        (f,) = [f for f in fields(Settings) if f.name == self.name]
        return f.default

    def read(self, form_value: Any) -> Any:
        """The setting's value from what the form holds (the domain validates it).

        Raises:
            ValueError: not one of a choice's options.
        """
        c = self.control
        if isinstance(c, Choice):
            for o in c.options:
                if o.form == form_value:
                    return o.value
            if c.parse is None:
                raise ValueError(f"{self.name}: {form_value!r:.30} is not an option")
            return c.parse(form_value)
        if isinstance(c, Number):
            typed = str(form_value).strip()
            if not typed:
                return 0  # (not typed: the domain refuses it where a number is needed)
            if not (typed.isascii() and typed.isdigit()):
                raise InvalidProgram(
                    f"{self.name}: {form_value!r:.12} is not a whole number",
                    f"{self.label}\u00a0: un nombre entier, de {c.low} à {c.high}.",
                )
            return int(typed)
        if isinstance(c, Text):
            return str(form_value).strip()
        return bool(form_value)

    def write(self, value: Any) -> Any:
        """What the form holds for a value of the setting (`read` gives it back)."""
        c = self.control
        if isinstance(c, Choice):
            for o in c.options:
                if o.value == value:
                    return o.form
            return str(value)
        if isinstance(c, Number):
            return str(value) if value else ""  # (0: nothing typed)
        if isinstance(c, Text):
            return str(value)
        return bool(value)


# ---------------------------------------------------------------------------- what each says


def _euros(cents: int) -> str:
    whole, frac = divmod(cents, 100)
    return f"{whole},{frac:02d} €" if frac else f"{whole} €"


def _yes_no(value: Any) -> str:
    return "oui" if value else "non"


def _tariff(p: Program) -> tuple[str, ...]:
    if p.settings.free_cartons:
        return ("Ce soir, les cartons sont offerts.",)
    paras = []
    for kind in Kind:
        offers = [o for o in p.offers if o.kind is kind]
        if offers:
            prices = " ; ".join(f"{o.label.lower()} : {_euros(o.price_cents)}" for o in offers)
            paras.append(f"Tarif {KINDS[kind].tariff} : {prices}.")
    return tuple(paras)


def _buying_late(p: Program) -> tuple[str, ...]:
    if p.settings.draw_source is DrawSource.ELECTRONIC:
        return (
            "Les cartons s'achètent pendant toute la soirée. Un carton acheté une fois la "
            "partie commencée (son tirage est alors engagé) joue à partir de la partie suivante "
            "de son type.",
        )
    return (
        "Les cartons s'achètent pendant toute la soirée. Un carton acheté après le premier "
        "numéro d'une partie joue à partir de la partie suivante de son type.",
    )


def _the_draw(p: Program) -> tuple[str, ...]:
    if p.settings.draw_source is DrawSource.ELECTRONIC:
        return (
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
    return (
        "Les numéros de 1 à 90 sortent du boulier de la salle, sans remise\u202f; l'animateur "
        "les annonce et les saisit dans l'application.",
        "Avec le boulier de la salle, rien n'est engagé à l'avance dans l'application\u202f: "
        "les boules tirées font foi, sous les yeux des joueurs.",
    )


def _remote(p: Program) -> tuple[str, ...]:
    """Who may play remotely (invited members, one phone each, the cap, the live draw)."""
    return (remote.reglement_article(p.settings.remote_play, p.settings.remote_cap),)


def _stream(p: Program) -> tuple[str, ...]:
    if p.settings.stream_url:
        return (
            "La soirée est diffusée en direct\u00a0: la vidéo s'affiche au-dessus des cartons "
            "sur les téléphones.",
        )
    return ()


def _last_call(p: Program) -> tuple[str, ...]:
    s = p.settings.last_call_seconds
    if s:
        return (
            "Un seul gagnant par lot, ex aequo possibles. Dès la première annonce valide sur "
            f"un numéro, l'animateur lance « Pas d'autre quine ? » : pendant {s} seconde"
            f"{'s' if s > 1 else ''}, toute autre annonce valide sur ce même numéro est ex "
            "aequo. Le lot est attribué ensuite.",
        )
    return (
        "Un seul gagnant par lot, ex aequo possibles. Pas de dernier appel ce soir : les "
        "annonces valides sur le même numéro, reçues avant l'attribution du lot, sont ex "
        "aequo.",
    )


def _sharing(p: Program) -> tuple[str, ...]:
    divisible = sorted({s.lot.description for g in p.games for s in g.stages if s.lot.divisible})
    if p.settings.tie_method is TieMethod.SHARE_OR_DRAW and divisible:
        return (
            "Deux ex aequo sur un lot partageable ("
            + ", ".join(divisible)
            + ") : il leur est d'abord proposé de le partager ; si tous deux acceptent, "
            "chacun en reçoit la moitié. Sinon, ou à trois ex aequo et plus, tirage au sort.",
        )
    if p.settings.tie_method is TieMethod.SHARE_OR_DRAW:
        return ("Aucun lot n'est partageable ce soir : les ex aequo sont tirés au sort.",)
    return ("Ce soir, pas de partage : les ex aequo sont départagés par tirage au sort.",)


def _tokens(p: Program) -> tuple[str, ...]:
    if p.settings.token_source is TokenSource.BAG:
        return (
            "Tirage au sort : chaque ex aequo tire un jeton numéroté (1 à 90) dans le sac, "
            "l'animateur le saisit ; le plus grand numéro gagne.",
        )
    return (
        "Tirage au sort : l'application tire pour chaque ex aequo un jeton numéroté de 1 à "
        "90, tous différents ; le plus grand numéro gagne.",
    )


def _marking(p: Program) -> tuple[str, ...]:
    if p.settings.auto_marking:
        return ("Les numéros tirés se marquent d'eux-mêmes sur les cartons de l'application.",)
    return (
        "Marquez vous-même les numéros tirés (sur l'application : touchez le numéro, "
        "touchez-le de nouveau pour l'effacer). Les marques sont une aide : l'annonce est "
        "jugée sur les numéros tirés.",
    )


def _hint(p: Program) -> tuple[str, ...]:
    if p.settings.claim_hint:
        return ("L'application signale quand un de vos cartons a de quoi gagner.",)
    return ("L'application ne signale pas les quines : à vous de les voir.",)


def _one_to_go(p: Program) -> tuple[str, ...]:
    if p.settings.one_to_go:
        return (
            "L'application montre combien de numéros il manque à chaque carton, et le numéro "
            "qu'attend un carton à qui il n'en manque plus qu'un. Marquer et annoncer restent "
            "vos gestes.",
        )
    return ()


# ---------------------------------------------------------------------------- the settings

#: Every setting, in the order the form shows them.
SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "draw_source",
        "Tirage des numéros",
        Choice(
            (
                Option(
                    "electronic",
                    "Boulier électronique",
                    "L'application tire les numéros.",
                    DrawSource.ELECTRONIC,
                ),
                Option(
                    "physical",
                    "Boules physiques",
                    "L'animateur tape le numéro lu sur la boule.",
                    DrawSource.PHYSICAL,
                ),
            )
        ),
        reglement=(Said(BUYING, 2, _buying_late), Said(DRAW, 0, _the_draw)),
        report=Reported(
            "Tirage",
            lambda v: (
                "boulier électronique (chaque partie engagée avant son premier numéro, vérifiable)"
                if v is DrawSource.ELECTRONIC
                else "boulier physique (rien n'est engagé : les boules tirées sont le tirage)"
            ),
        ),
    ),
    SettingSpec(
        "tie_method",
        "Ex aequo",
        Choice(
            (
                Option(
                    "draw",
                    "Tirage au sort",
                    "Chaque gagnant tire un jeton ; le plus fort l'emporte.",
                    TieMethod.DRAW,
                ),
                Option(
                    "share_or_draw",
                    "Partage possible",
                    "Deux gagnants peuvent partager un lot divisible, sinon tirage au sort.",
                    TieMethod.SHARE_OR_DRAW,
                ),
            )
        ),
        reglement=(Said(TIES, 15, _sharing),),
        report=Reported(
            "Ex aequo",
            lambda v: (
                "tirage des jetons"
                if v is TieMethod.DRAW
                else "partage possible (lot divisible, 2 gagnants), sinon jetons"
            ),
        ),
    ),
    SettingSpec(
        "token_source",
        "Jetons des ex aequo",
        Choice(
            (
                Option(
                    "auto",
                    "Selon le boulier",
                    "Le sac avec des boules physiques, sinon l'appli.",
                    None,
                ),
                Option(
                    "bag",
                    "Sac de jetons",
                    "L'animateur tape le jeton tiré par chaque joueur.",
                    TokenSource.BAG,
                ),
                Option(
                    "app",
                    "Tirés par l'appli",
                    "L'application tire des jetons différents.",
                    TokenSource.APP,
                ),
            )
        ),
        reglement=(Said(TIES, 15, _tokens),),
        report=None,  # (the report's "Ex aequo" line says how ties go)
    ),
    SettingSpec(
        "last_call_seconds",
        "Dernier appel « Pas d'autre quine ? »",
        Choice(
            (
                Option("5", "5 secondes (conseillé)", "Après la première annonce valide.", 5),
                Option("10", "10 secondes", "Une grande salle.", 10),
                Option("15", "15 secondes", "Des joueurs à distance.", 15),
                Option("0", "Pas de dernier appel", "Le lot peut être attribué tout de suite.", 0),
            ),
            parse=int,
        ),
        reglement=(Said(TIES, 5, _last_call),),
        report=None,
        form="last_call",
    ),
    SettingSpec(
        "auto_marking",
        "Marquage automatique des numéros tirés",
        Check(),
        reglement=(Said(MARKING, 1, _marking),),
        report=Reported("Marquage automatique", _yes_no),
    ),
    SettingSpec(
        "claim_hint",
        "Prévenir le joueur quand une quine est possible",
        Check(),
        reglement=(Said(MARKING, 2, _hint),),
        report=Reported("Aide à l'annonce", _yes_no),
    ),
    SettingSpec(
        "one_to_go",
        "« Plus qu'un numéro ! » : montrer le numéro qu'attend un carton presque gagnant, "
        "et les cartons les plus proches en premier",
        Check(),
        reglement=(Said(MARKING, 3, _one_to_go),),
        report=Reported("« Plus qu'un numéro ! »", _yes_no),
    ),
    SettingSpec(
        "free_cartons",
        "Loto gratuit : les cartons demandés sur les téléphones sont offerts "
        "(maison de retraite, fête d'école)",
        Check(),
        reglement=(Said(BUYING, 1, _tariff),),
        report=None,  # (the report's till says "offert" on each carton)
    ),
    SettingSpec(
        "stream_url",
        "Lien de la diffusion en direct (facultatif)",
        Text(MAX_STREAM_URL, placeholder="https://…"),
        reglement=(Said(BUYING, 4, _stream),),
        report=None,
        testid="org-stream",
    ),
    SettingSpec(
        "remote_play",
        "Jeu à distance",
        Check(),
        reglement=(Said(BUYING, 3, _remote),),
        report=Reported("Jeu à distance", _yes_no),
        section="remote",
    ),
    SettingSpec(
        "remote_cap",
        remote.CAP_LABEL,
        Number(0, remote.MAX_REMOTE_CAP),
        reglement=(Said(BUYING, 3, _remote),),  # (one sentence with remote_play's)
        report=None,  # (the report's remote players' section counts them against the cap)
        section="remote",
    ),
    SettingSpec(
        "remote_confirmed",
        remote.CONFIRM_LABEL,
        Check(),
        reglement=(),  # the organiser's word, recorded with the program: no rule to announce
        report=None,  # (with remote play on it is always confirmed: the domain requires it)
        form="remote_ack",
        section="remote",
    ),
)

#: Settings the règlement does not announce, and why (`test_reglement.py` reads it).
NOT_ANNOUNCED: dict[str, str] = {
    "remote_confirmed": "the organiser's confirmation of the warning, a record, not a rule",
}

#: The entries by field name.
BY_NAME: dict[str, SettingSpec] = {s.name: s for s in SETTINGS}


def said_in(program: Program, article: int, own: tuple[str, ...] = ()) -> tuple[str, ...]:
    """An article's paragraphs: its own (at 10, 20, 30…) and what each setting says there,
    in place."""
    placed: list[tuple[int, tuple[str, ...]]] = [(10 * (i + 1), (t,)) for i, t in enumerate(own)]
    placed += [
        (s.at, s.say(program)) for spec in SETTINGS for s in spec.reglement if s.article == article
    ]
    placed.sort(key=lambda x: x[0])  # (stable: settings at one place in SETTINGS' order)
    return tuple(t for _, texts in placed for t in texts)


__all__ = [
    "BY_NAME",
    "NOT_ANNOUNCED",
    "SETTINGS",
    "Check",
    "Choice",
    "Control",
    "Number",
    "Option",
    "Reported",
    "Said",
    "SettingSpec",
    "Text",
    "said_in",
]
