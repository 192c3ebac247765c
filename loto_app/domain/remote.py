"""Remote play anchored to the hall: what the law says, and the rules that follow from it.

The government's answer to written question 17-2417 (JOAN, 20 January 2026) says that the
"cercle restreint" of a loto traditionnel (art. L322-4 of the Code de la sécurité intérieure)
is not compatible with a broadcast on the internet and that no text allows lotos to be run
online. Remote play is therefore off by default; an organiser who turns it on reads the warning
below and confirms it (`Settings.remote_confirmed`, recorded in the program), names a cap
(`Settings.remote_cap`), and admits only the people the association invites, each with a link
of their own that lets one phone in (`Evening.invite`, `Evening.join(..., invitation=no)`).
The draw stays live in the hall: a remote player plays the hall's games while they are played.

The three settings of remote play live together here (their checks, their règlement article,
their form's words) so that they can move as one into a single description of the settings.
"""

from __future__ import annotations

from loto_app.domain.errors import InvalidProgram

#: At most this many players at a distance, whatever the organiser writes (a restricted circle).
MAX_REMOTE_CAP = 300
#: At most this many invitations an evening, and at once (one line of the member list each).
MAX_INVITATIONS = 1000
MAX_INVITES_AT_ONCE = 300

NBSP = "\u00a0"  # before ":"

#: What the organiser reads before turning remote play on (the form shows it; the confirmation
#: box under it is the `remote_confirmed` setting).
WARNING_TITLE = "Avant d'ouvrir le jeu à distance"
WARNING_LINES = (
    "Le loto traditionnel n'est permis (art. L322-4 du Code de la sécurité intérieure) que "
    "s'il est organisé dans un cercle restreint, uniquement dans un but social, culturel, "
    "scientifique, éducatif, sportif ou d'animation sociale, avec des mises de faible valeur, "
    f"inférieures à 20{NBSP}€, et des lots qui ne sont jamais de l'argent.",
    "Dans sa réponse à la question écrite n° 17-2417 (Journal officiel de l'Assemblée "
    f"nationale du 20 janvier 2026), le gouvernement indique que le «{NBSP}cercle "
    f"restreint{NBSP}» n'est pas compatible avec une diffusion sur internet et qu'aucun texte "
    "n'autorise l'organisation de lotos en ligne.",
    "Ouvrir le jeu à distance se fait donc sous votre responsabilité, et seulement ancré à "
    f"la salle{NBSP}: des personnes invitées par l'association (une invitation chacune, "
    "valable sur un seul téléphone), en nombre limité, qui jouent pendant la soirée, sur le "
    f"tirage fait en direct dans la salle. Aucun paiement en ligne{NBSP}: la caisse confirme "
    "chaque règlement à la main.",
)
CONFIRM_LABEL = (
    "J'ai lu cet avertissement et je confirme que le jeu à distance reste réservé aux "
    "personnes invitées par l'association, en nombre limité, pendant le tirage en direct "
    "dans la salle."
)
CAP_LABEL = "Nombre maximum de joueurs à distance"
#: What the player's and the organiser's pages say of when a remote player plays.
LIVE_ONLY = (
    f"Le jeu à distance suit le tirage fait en direct dans la salle{NBSP}: on ne joue que pendant "
    "la soirée, et jamais sans elle."
)


def check_settings(remote_play: object, cap: object, confirmed: object) -> None:
    """The three settings of remote play, checked together (`Settings.__post_init__`).

    Raises:
        InvalidProgram: a cap that is not a whole number in 0..MAX_REMOTE_CAP, or remote play
            on without a cap or without the warning confirmed.
    """
    if not isinstance(cap, int) or isinstance(cap, bool) or not 0 <= cap <= MAX_REMOTE_CAP:
        raise InvalidProgram(
            f"remote cap {cap!r:.20} not in 0..{MAX_REMOTE_CAP}",
            f"Jeu à distance{NBSP}: le nombre maximum de joueurs va de 1 à {MAX_REMOTE_CAP}.",
        )
    if not remote_play:
        return
    # (the warning first: it is read before the cap is chosen, and the form says so first)
    if confirmed is not True:
        raise InvalidProgram(
            "remote play on without the warning confirmed",
            f"Jeu à distance{NBSP}: lisez l'avertissement et cochez la case de confirmation.",
        )
    if cap == 0:
        raise InvalidProgram(
            "remote play on without a cap",
            f"Jeu à distance{NBSP}: indiquez le nombre maximum de joueurs à distance "
            f"(de 1 à {MAX_REMOTE_CAP}).",
        )


def reglement_article(remote_play: bool, cap: int) -> str:
    """The règlement's sentence on who may play remotely."""
    if not remote_play:
        return (
            f"Le jeu se déroule uniquement dans la salle, en présence des joueurs{NBSP}: "
            "il n'y a pas de jeu à distance."
        )
    plural = "s" if cap > 1 else ""
    return (
        "Le jeu à distance est réservé aux personnes invitées par l'association, chacune "
        "avec une invitation personnelle valable sur un seul téléphone, dans la limite de "
        f"{cap} joueur{plural} à distance. Elles jouent pendant la soirée, sur le tirage "
        "fait en direct dans la salle, et règlent leurs cartons auprès de la caisse, sans "
        "paiement en ligne."
    )
