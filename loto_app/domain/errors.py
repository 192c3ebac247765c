"""Domain errors: every illegal move raises one of these, and the engine state stays unchanged.

Each error carries a precise English message for the logs (`str(error)`) and a short French
message for the person who made the move (`error.user_message`).
"""

from __future__ import annotations

from typing import ClassVar

from loto_app.refusal import Refusal


class LotoError(Refusal):
    """Base class of every rule violation (a `Refusal`: `user_message` in French).

    Attributes:
        code: a stable machine-readable name (used by the UI and the tests).
    """

    code: ClassVar[str] = "loto_error"


class InvalidArgument(LotoError):
    """An argument has the wrong type or is out of its range."""

    code = "invalid_argument"
    default_user_message = "Valeur invalide."


class InvalidNumber(InvalidArgument):
    """A ball number outside 1-90 (or not an integer)."""

    code = "invalid_number"
    default_user_message = "Le numéro doit être un nombre entier de 1 à 90."


class InvalidName(InvalidArgument):
    """A pseudonym that is empty, too long or made of control characters."""

    code = "invalid_name"
    default_user_message = "Le pseudo doit faire de 1 à 30 caractères."


class InvalidProgram(LotoError):
    """The evening's program or settings break a rule (kind, stage order, lot)."""

    code = "invalid_program"
    default_user_message = "Le programme de la soirée n'est pas valide."


class UnknownPlayer(LotoError):
    """No player with this id in the evening."""

    code = "unknown_player"
    default_user_message = "Joueur inconnu : rejoignez la soirée d'abord."


class DuplicatePlayer(LotoError):
    """A player id that is already registered."""

    code = "duplicate_player"
    default_user_message = "Ce joueur est déjà inscrit."


class InvalidSale(LotoError):
    """A sale that cannot be made (quantity, kind not played tonight, evening over)."""

    code = "invalid_sale"
    default_user_message = "Cette vente est impossible."


class PendingOrder(InvalidSale):
    """A desk sale to a player whose order is still "à régler": settle the order, or sell
    in addition only when the vendeur says so (never charge twice by mistake)."""

    code = "pending_order"
    default_user_message = (
        "Ce joueur a une commande à régler : encaissez-la plutôt que de vendre en plus."
    )


class UnknownCarton(LotoError):
    """No carton with this number in the série."""

    code = "unknown_carton"
    default_user_message = "Ce carton n'existe pas dans la série de ce soir."


class OwnCartonsRefused(LotoError):
    """The association's own cartons refused: not valid, a number registered already, a série
    name taken; nothing is registered."""

    code = "own_cartons_refused"
    default_user_message = "Cartons de l'association refusés : rien n'est enregistré."

    def __init__(
        self,
        detail: str,
        user_message: str | None = None,
        problems: tuple[tuple[int, int, str], ...] = (),
    ) -> None:
        super().__init__(detail, user_message)
        #: each carton refused: (its position in the registration, its number, why in French)
        self.problems = problems


class NotYourCarton(LotoError):
    """A player acted on a carton that belongs to someone else (or to nobody)."""

    code = "not_your_carton"
    default_user_message = "Ce carton n'est pas à vous."


class CartonNotInGame(LotoError):
    """The carton does not play the current game (kind, or bought after the first number)."""

    code = "carton_not_in_game"
    default_user_message = "Ce carton ne joue pas cette partie."


class CartonAnnulled(LotoError):
    """The carton was annulled for the current game after a false claim."""

    code = "carton_annulled"
    default_user_message = "Ce carton est annulé pour cette partie (fausse annonce)."


class NumberNotOnCarton(LotoError):
    """A mark on a number the carton does not hold."""

    code = "number_not_on_carton"
    default_user_message = "Ce numéro n'est pas sur ce carton."


class NumberNotDrawn(LotoError):
    """A mark on a number that has not been drawn in the current game."""

    code = "number_not_drawn"
    default_user_message = "Ce numéro n'est pas encore sorti."


class NoGameInProgress(LotoError):
    """The action needs a game in progress."""

    code = "no_game_in_progress"
    default_user_message = "Aucune partie n'est en cours."


class GameNotFinished(LotoError):
    """A new game cannot start before the current one has ended (démarquage)."""

    code = "game_not_finished"
    default_user_message = "La partie en cours n'est pas terminée."


class EveningOver(LotoError):
    """Every announced game has been played."""

    code = "evening_over"
    default_user_message = "Toutes les parties de la soirée ont été jouées."


class WrongDrawSource(LotoError):
    """Electronic draw on a physical-boulier evening, or the other way round."""

    code = "wrong_draw_source"
    default_user_message = "Ce tirage ne correspond pas au boulier choisi pour la soirée."


class AlreadyDrawn(LotoError):
    """The number has already come out in this game."""

    code = "already_drawn"
    default_user_message = "Ce numéro est déjà sorti."


class NoNumberLeft(LotoError):
    """All 90 numbers have been drawn."""

    code = "no_number_left"
    default_user_message = "Les 90 numéros sont sortis."


class DrawingClosed(LotoError):
    """No draw while a valid claim awaits its award, or once every lot of the game is awarded."""

    code = "drawing_closed"
    default_user_message = "Impossible de tirer maintenant."


class CorrectionRefused(LotoError):
    """The last number cannot be corrected (no draw yet, electronic draw, or a claim on it)."""

    code = "correction_refused"
    default_user_message = "Ce numéro ne peut plus être corrigé."


class NoStageInPlay(LotoError):
    """No lot is in play: nothing to claim or award."""

    code = "no_stage_in_play"
    default_user_message = "Aucun lot n'est en jeu en ce moment."


class AlreadyClaimed(LotoError):
    """The same carton already claimed this stage on this number."""

    code = "already_claimed"
    default_user_message = "Vous avez déjà annoncé ce carton sur ce numéro."


class ClaimsClosed(LotoError):
    """The tie of this stage is being settled: no new entry."""

    code = "claims_closed"
    default_user_message = "Les annonces sont closes pour ce lot."


class NoValidClaim(LotoError):
    """Award or tie-break without a valid claim."""

    code = "no_valid_claim"
    default_user_message = "Aucune annonce valide pour ce lot."


class TieUnresolved(LotoError):
    """Several players are tied: break the tie before awarding."""

    code = "tie_unresolved"
    default_user_message = "Ex aequo : faites d'abord le tirage au sort ou le partage."


class NoTie(LotoError):
    """A tie-break was asked for while fewer than two players are tied, or it is settled."""

    code = "no_tie"
    default_user_message = "Il n'y a pas d'ex aequo à départager."


class ShareNotAllowed(LotoError):
    """Sharing needs exactly two tied players, a divisible lot and the evening's consent."""

    code = "share_not_allowed"
    default_user_message = "Le partage n'est pas possible pour ce lot."


class NoClaimInThisGame(LotoError):
    """A claim in a game whose winners the server finds (the partie inversée)."""

    code = "no_claim_in_this_game"
    default_user_message = (
        "Pas d'annonce dans cette partie\u00a0: l'appli trouve elle-même le gagnant."
    )


class AlreadyWonThisGame(LotoError):
    """A second win in a game that gives one lot a player (the partie enfants)."""

    code = "already_won_this_game"
    default_user_message = (
        "Vous avez déjà gagné un lot dans cette partie\u00a0: place aux autres joueurs."
    )


class NotSuddenDeath(LotoError):
    """A tie-break that is not the game's rule (a mort subite asked for in a token draw, or a
    token draw in a mort subite)."""

    code = "not_sudden_death"
    default_user_message = "Ce n'est pas ainsi que cette partie départage ses ex aequo."


class NotInTie(LotoError):
    """A player answered a share offer they are not part of."""

    code = "not_in_tie"
    default_user_message = "Vous n'êtes pas concerné par ce partage."


class DemarquageLocked(LotoError):
    """A player tried to clear their cartons before the animateur allowed it (art. 9)."""

    code = "demarquage_locked"
    default_user_message = "Attendez que l'animateur annonce « vous pouvez démarquer »."


class DemarquageTooEarly(LotoError):
    """The animateur allowed démarquage before the game's last lot was awarded."""

    code = "demarquage_too_early"
    default_user_message = "Tous les lots de la partie n'ont pas encore été attribués."


class UnknownSale(LotoError):
    """No sale (or order) with this number."""

    code = "unknown_sale"
    default_user_message = "Aucune vente avec ce numéro."


class TillIsClosed(LotoError):
    """The till is closed: no sale, order or payment any more."""

    code = "till_closed"
    default_user_message = "La caisse est fermée : plus aucune vente ce soir."


class UnknownTicket(LotoError):
    """No lot ticket with this number (or it was already handed over)."""

    code = "unknown_ticket"
    default_user_message = "Ticket de lot introuvable."


class LastCallOpen(LotoError):
    """The last call ("Pas d'autre quine ?") is still running: no award or tie-break yet."""

    code = "last_call_open"
    default_user_message = (
        "Dernier appel en cours (« Pas d'autre quine ? ») : attendez la fin du décompte."
    )


class NoLastCall(LotoError):
    """No last call to close (already closed, or another one)."""

    code = "no_last_call"
    default_user_message = "Aucun dernier appel en cours."


class ShareFirst(LotoError):
    """Two ex aequo on a divisible lot: the share must be offered (and refused) before a draw."""

    code = "share_first"
    default_user_message = (
        "Deux ex aequo sur un lot divisible : proposez d'abord le partage (art. 4)."
    )


class WrongTokenSource(LotoError):
    """Tokens typed on an evening where the app draws them, or the other way round."""

    code = "wrong_token_source"
    default_user_message = "Les jetons ne se tirent pas de cette façon ce soir."


class InvalidTokens(InvalidArgument):
    """Typed tokens: one per tied player, distinct, from 1 to 90."""

    code = "invalid_tokens"
    default_user_message = "Un jeton par joueur ex aequo, tous différents, de 1 à 90."


class DisputeRefused(LotoError):
    """A decision of the association (art. 8) that does not apply here."""

    code = "dispute_refused"
    default_user_message = "Cette décision n'est pas possible ici."


class AmendmentRefused(LotoError):
    """A change of the program that would touch a game already started, a setting the game in
    play depends on, or cartons already sold."""

    code = "amendment_refused"
    default_user_message = "Modification du programme impossible."


class PauseRefused(LotoError):
    """An entracte asked while a game is in play, after the last game, or ended when none is
    in course."""

    code = "pause_refused"
    default_user_message = "Entracte impossible maintenant."


class PictureRefused(LotoError):
    """A lot's photo for a lot that is not in the program, a partner too many, a logo given
    twice, or one to remove that is not there."""

    code = "picture_refused"
    default_user_message = "Image refusée."


class DrawSeedMissing(LotoError):
    """The committed order of the game in play cannot be read here (its secret seed is not on
    this server: an evening imported from a file while a game was in play)."""

    code = "draw_seed_missing"
    default_user_message = (
        "Le tirage engagé de cette partie n'est pas sur ce serveur (soirée importée en cours de "
        "partie) : reprenez la soirée sur le serveur d'origine, ou restaurez sa sauvegarde."
    )


class EveningIsClosed(LotoError):
    """Any move on an evening the organiser closed: it is read-only."""

    code = "evening_closed"
    default_user_message = (
        "La soirée est close : plus aucune modification n'est possible. Le procès-verbal et "
        "le rapport restent consultables par l'organisateur."
    )


class CloseRefused(LotoError):
    """Closing the evening refused (already closed, or a reason missing)."""

    code = "close_refused"
    default_user_message = "La soirée ne peut pas être close maintenant."


class InvalidTypedLines(InvalidArgument):
    """The lines typed for a carton in no list are not what the stage needs (count, numbers
    1-90, a repeat, two numbers of one column on a line): a typing slip, no verdict."""

    code = "invalid_typed_lines"
    default_user_message = "Lignes tapées invalides."


class RemoteRefused(LotoError):
    """A move of remote play refused: remote play is off, or its conditions are not met."""

    code = "remote_refused"
    default_user_message = "Le jeu à distance n'est pas ouvert pour cette soirée."


class UnknownInvitation(RemoteRefused):
    """A remote join without an invitation of the evening (none, or a wrong one)."""

    code = "unknown_invitation"
    default_user_message = (
        "Ce lien d'invitation n'est pas valable pour cette soirée\u00a0: demandez le vôtre "
        "aux organisateurs."
    )


class InvitationAlreadyUsed(RemoteRefused):
    """A second phone tried an invitation that already let a player in."""

    code = "invitation_used"
    default_user_message = (
        "Cette invitation a déjà servi sur un autre téléphone\u00a0: une invitation ne vaut "
        "que pour un seul téléphone. Demandez la vôtre aux organisateurs."
    )


class RemoteCapReached(RemoteRefused):
    """A remote join beyond the cap of remote players the organiser set."""

    code = "remote_cap_reached"
    default_user_message = (
        "Le nombre maximum de joueurs à distance est atteint pour ce soir\u00a0: il n'y a "
        "plus de place à distance."
    )


class InvitationRefused(RemoteRefused):
    """Invitations that cannot be made (remote play off, a bad or repeated name, too many)."""

    code = "invitation_refused"
    default_user_message = "Ces invitations ne peuvent pas être créées."
