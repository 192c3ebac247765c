"""The check before the doors open (`/verification`): what is found, as lines a first-time
volunteer reads, each green ("ok") or red ("bad") with what to do, or grey ("wait") while a
browser-side check is under way.

Pure: the facts come in (`Facts`: what the server counted, what the browsers reported), the
lines go out (`lines`). No Reflex, no clock: ages are given in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

OK, BAD, WAIT = "ok", "bad", "wait"

#: The sound test's answers a hall screen may give (assets/sound.js `LotoSound.test`).
PLAYED, BLOCKED, NO_VOICE = "played", "blocked", "no-voice"
SOUND_RESULTS = (PLAYED, BLOCKED, NO_VOICE)
#: Seconds a hall screen has to answer the sound test (the chime and a sentence: ~5 s).
SOUND_TIMEOUT = 15.0

#: The address check's failures the browser may report (assets/verification.js).
ADDRESS_FAILURES = {
    "timeout": "pas de réponse en 6 secondes",
    "network": "le réseau ne la trouve pas",
}

NB = "\u00a0"  # before ":"
NN = "\u202f"  # before ";", "!", "?"

#: Words of a desk member's role, as the desk's people say them.
ROLES = {"vendeur": "vendeur", "caissier": "caissier", "controleur": "contrôleur"}


@dataclass(frozen=True, slots=True)
class Sound:
    """The last sound test: asked `asked_ago` seconds ago (None: never), and the hall screens'
    answers so far (one per screen that answered)."""

    asked_ago: float | None = None
    answers: tuple[str, ...] = ()
    voice_off: bool = False  # a screen that played has its voice switched off


@dataclass(frozen=True, slots=True)
class Address:
    """The address the phones will use, and what this browser found when it opened it."""

    url: str = ""
    local_only: bool = False  # only this machine can reach it (no network)
    result: str = ""  # "" not tried yet, "ok", or a key of ADDRESS_FAILURES


@dataclass(frozen=True, slots=True)
class Facts:
    """What the check found."""

    screens: int = 0  # hall screens (/ecran) of the evening answering now
    sound: Sound = field(default_factory=Sound)
    tablets: int = 0  # animateur's tablets (/animateur) signed in now, this page's own included
    here_is_tablet: bool = False  # this page is signed in with the animateur's secret
    desk: tuple[tuple[str, str], ...] = ()  # (name, role) of each desk phone signed in now
    pdf_seconds: float | None = None  # the paper cartons' PDF made in (None: it failed)
    pdf_tried: bool = True
    phones: int | None = 0  # players' phones connected now (None: the count is not running)
    address: Address = field(default_factory=Address)
    asking: bool = False  # the first roll call was just made: who is there may not have answered


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the check: what it checks, its colour, what was found, what to do."""

    key: str
    title: str
    status: str
    said: str
    todo: str = ""

    def as_dict(self) -> dict[str, str]:
        return {
            "key": self.key,
            "title": self.title,
            "status": self.status,
            "said": self.said,
            "todo": self.todo,
        }


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _host(url: str) -> str:
    """What to type in a browser: the address without `http://` and the path."""
    rest = url.removeprefix("http://")
    return rest.split("/", 1)[0] if rest else "l'adresse de l'appli"


def screen_line(f: Facts) -> Line:
    line = partial(Line, "screen", "Écran de la salle")
    if f.screens:
        return line(OK, f"{_n(f.screens, 'écran connecté', 'écrans connectés')} à la soirée.")
    if f.asking:
        return line(WAIT, "Recherche des écrans…")
    return line(
        BAD,
        "Aucun écran de la salle n'affiche la soirée.",
        f"Sur la télévision, ouvrez le navigateur à l'adresse {_host(f.address.url)}/ecran{NB}: "
        "un code s'affiche. Sur la tablette de l'animateur, touchez «"
        f"{NB}Relier l'écran de la salle{NB}» et tapez ce code.",
    )


def sound_line(f: Facts) -> Line:
    line = partial(Line, "sound", "Son de l'écran (voix et carillon)")
    s = f.sound
    if not f.screens:
        if f.asking:
            return line(WAIT, "Recherche des écrans…")
        return line(
            BAD,
            "Pas d'écran connecté pour essayer le son.",
            "Reliez d'abord l'écran de la salle (ligne ci-dessus).",
        )
    if s.asked_ago is None:
        return line(
            BAD,
            "Le son de l'écran n'a pas encore été essayé.",
            f"Touchez «{NB}Essayer le son de l'écran{NB}»{NN}: la télévision doit sonner le "
            "carillon puis dire une phrase.",
        )
    if BLOCKED in s.answers:
        return line(
            BAD,
            "Le navigateur de la télévision bloque le son.",
            f"Sur la télévision, touchez le grand bouton «{NB}Activer le son{NB}» (avec la "
            f"souris ou la télécommande){NN}; l'essai recommence tout seul.",
        )
    if NO_VOICE in s.answers:
        return line(
            BAD,
            "Le carillon a sonné, mais ce navigateur ne sait pas parler.",
            "Ouvrez l'écran dans un autre navigateur (Chrome, Edge), ou annoncez les numéros "
            "au micro.",
        )
    if s.answers and all(a == PLAYED for a in s.answers):
        said = "La télévision a sonné le carillon et dit la phrase d'essai."
        if s.voice_off:
            said += (
                f" La voix est coupée sur l'écran{NB}: les numéros ne seront pas lus. "
                f"Touchez «{NB}Voix{NB}» sur l'écran pour l'activer."
            )
        return line(OK, said, "Vérifiez à l'oreille que le volume suffit.")
    if s.asked_ago < SOUND_TIMEOUT:
        return line(WAIT, "Essai envoyé à la télévision…")
    return line(
        BAD,
        "La télévision n'a pas répondu à l'essai du son.",
        "Rechargez la page de l'écran (touche F5), puis touchez à nouveau "
        f"«{NB}Essayer le son de l'écran{NB}».",
    )


def tablet_line(f: Facts) -> Line:
    line = partial(Line, "tablet", "Tablette de l'animateur")
    if f.here_is_tablet:
        return line(OK, "Cette tablette est connectée comme animateur.")
    if f.tablets:
        return line(
            OK, f"{_n(f.tablets, 'tablette connectée', 'tablettes connectées')} comme animateur."
        )
    if f.asking:
        return line(WAIT, "Recherche des tablettes…")
    return line(
        BAD,
        "Aucune tablette de l'animateur n'est connectée.",
        f"Sur la tablette, ouvrez {_host(f.address.url)}/animateur et connectez-vous avec le "
        "code de la soirée et le secret de l'animateur (l'organisateur le donne).",
    )


def desk_line(f: Facts) -> Line:
    line = partial(Line, "desk", "Téléphones de la caisse")
    if f.desk:
        who = ", ".join(f"{name} ({ROLES.get(role, role)})" for name, role in f.desk)
        n = _n(len(f.desk), "téléphone connecté", "téléphones connectés")
        return line(OK, f"{n}{NB}: {who}.")
    if f.asking:
        return line(WAIT, "Recherche des téléphones de la caisse…")
    return line(
        BAD,
        "Aucun téléphone de la caisse n'est connecté.",
        f"Chaque vendeur ouvre {_host(f.address.url)}/caisse sur son téléphone et se connecte "
        f"avec le code de la soirée et son secret (l'organisateur les donne, onglet «{NB}"
        f"Équipe{NB}»).",
    )


def pdf_line(f: Facts) -> Line:
    line = partial(Line, "pdf", "PDF des cartons papier")
    if not f.pdf_tried:
        return line(WAIT, "Essai du PDF en cours…")
    if f.pdf_seconds is not None:
        secs = f"{f.pdf_seconds:.1f}".replace(".", ",")
        return line(
            OK,
            f"Le serveur sait créer le PDF des cartons papier (essai en {secs}{NB}s).",
            f"Pour voir qu'il s'ouvre sur cet appareil, touchez «{NB}Ouvrir le PDF d'essai{NB}».",
        )
    return line(
        BAD,
        "Le serveur n'arrive pas à créer le PDF des cartons papier.",
        "Imprimez les cartons papier à l'avance depuis un autre ordinateur, et prévenez la "
        "personne qui a installé l'appli (le journal du serveur dit pourquoi).",
    )


def phones_line(f: Facts) -> Line:
    line = partial(Line, "phones", "Téléphones des joueurs")
    if f.phones is None:
        return line(
            BAD,
            "Le compte des téléphones connectés ne marche pas.",
            "Le jeu marche quand même. Prévenez la personne qui a installé l'appli.",
        )
    if f.phones:
        n = _n(f.phones, "téléphone de joueur connecté", "téléphones de joueurs connectés")
        return line(OK, f"{n} en ce moment.")
    return line(
        BAD,
        "Aucun téléphone de joueur connecté pour l'instant.",
        f"Essayez avec votre propre téléphone, sur le Wi-Fi de la salle{NB}: scannez le QR "
        "code de l'écran et inscrivez-vous. Il doit apparaître ici.",
    )


def address_line(f: Facts) -> Line:
    line = partial(Line, "address", "Adresse des téléphones")
    a = f.address
    if a.local_only or not a.url:
        return line(
            BAD,
            f"L'adresse des téléphones est {a.url or '(aucune)'}{NB}: elle ne marche que sur "
            "l'ordinateur du loto.",
            "Branchez l'ordinateur du loto au Wi-Fi (ou au routeur) de la salle, puis "
            f"touchez «{NB}Vérifier à nouveau{NB}».",
        )
    if not a.result:
        return line(WAIT, f"Essai de {a.url} depuis cet appareil…")
    if a.result == "ok":
        return line(
            OK, f"Les téléphones utiliseront {a.url}{NB}: elle s'ouvre depuis cet appareil."
        )
    why = ADDRESS_FAILURES.get(a.result, "erreur")
    return line(
        BAD,
        f"L'adresse {a.url} ne s'ouvre pas depuis cet appareil ({why}).",
        "Mettez cet appareil sur le même Wi-Fi que l'ordinateur du loto (le Wi-Fi de la "
        f"salle), puis touchez «{NB}Vérifier à nouveau{NB}». Si l'ordinateur a un pare-feu, "
        "il doit laisser passer l'appli.",
    )


def lines(f: Facts) -> list[Line]:
    """Every line of the check, in the order a volunteer goes through them."""
    return [
        screen_line(f),
        sound_line(f),
        tablet_line(f),
        desk_line(f),
        address_line(f),
        phones_line(f),
        pdf_line(f),
    ]


def summary(found: list[Line]) -> str:
    """The sentence above the lines."""
    bad = sum(1 for x in found if x.status == BAD)
    waiting = sum(1 for x in found if x.status == WAIT)
    if bad:
        return f"{_n(bad, 'point à régler', 'points à régler')} avant d'ouvrir les portes."
    if waiting:
        return "Vérification en cours…"
    return f"Tout est prêt{NB}: vous pouvez ouvrir les portes{NN}!"
