"""The draw: games started, numbers drawn (electronic boulier or typed balls), corrections,
démarquage allowed, pauses, the evening closed."""

from __future__ import annotations

import random
from typing import Any

from loto_app.domain import commitment as draws
from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.cartons import (
    default_rng,
)
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_ball, check_staff_name, is_int
from loto_app.domain.evening.state import BALLS, MAX_DECISION_REASON, Game, GameStatus
from loto_app.domain.program import (
    DrawSource,
)
from loto_app.limits import MAX_PAUSE_MESSAGE


class DrawMoves(EveningCore):
    """The draw's moves."""

    def start_game(self, seed: bytes | None = None) -> list[ev.Event]:
        """Announce and open the next game of the program. With the electronic boulier, the
        game's whole order is fixed now from a fresh secret seed (`seed`: tests only) and the
        commitment to it is published (`DrawCommitted`, binding the evening's join code, the
        série and the game's number); its cartons are fixed too: a carton bought from now on
        plays the next game."""
        self._open()
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            raise err.GameNotFinished(f"game {g.index} is still {g.status}")
        if len(self.games) >= len(self.program.games):
            raise err.EveningOver("every game of the program has been played")
        index = len(self.games)
        electronic = self.program.settings.draw_source is DrawSource.ELECTRONIC
        if seed is not None and (not isinstance(seed, bytes) or len(seed) != draws.SEED_BYTES):
            raise err.InvalidArgument(f"a seed of {draws.SEED_BYTES} bytes, not {seed!r:.20}")
        evening = self.code
        events = self._emit(ev.GameStarted(index))
        if electronic:
            seed = seed or draws.new_seed()
            series = self.program.series
            self.sealed[index] = seed
            events += self._emit(
                ev.DrawCommitted(
                    index,
                    evening,
                    series,
                    draws.commitment(seed, evening, series, index + 1),
                    draws.SCHEME,
                )
            )
        return events

    def draw(self, rng: random.Random | None = None) -> list[ev.Event]:
        """Draw the next number with the electronic boulier: the next of the game's committed
        order (`rng` serves only a game started before draws were committed)."""
        g = self._drawable(DrawSource.ELECTRONIC)
        events = self._lapse(g)
        if g.status is not GameStatus.RUNNING:
            return events
        if g.commitment is not None:
            number = self.committed_order(g)[len(g.drawn)]
        else:
            out = set(g.drawn)
            left = [n for n in BALLS if n not in out]
            number = (rng or default_rng()).choice(left)
        events += self._emit(ev.NumberDrawn(g.index, len(g.drawn) + 1, number, "electronic"))
        return events + self._found_winners(g)

    def committed_order(self, g: Game) -> tuple[int, ...]:
        """The whole order a committed game draws, from its sealed seed, checked against the
        published commitment.

        Raises:
            DrawSeedMissing: the seed is not here, or it is not the committed one.
        """
        order = self._orders.get(g.index)
        if order is not None:
            return order
        c = g.commitment
        seed = self.sealed.get(g.index)
        if c is None or seed is None:
            raise err.DrawSeedMissing(f"no sealed seed for game {g.index}")
        if draws.commitment(seed, c.evening, c.series, g.index + 1) != c.commitment:
            raise err.DrawSeedMissing(f"the sealed seed of game {g.index} is not the committed one")
        order = self._orders[g.index] = draws.draw_order(seed)
        return order

    def _reveal(self, g: Game) -> list[ev.Event]:
        """The seed of a committed game, once the game is over (or the evening closed on it)."""
        seed = self.sealed.get(g.index)
        if g.commitment is None or g.revealed or seed is None:
            return []
        return self._emit(ev.DrawRevealed(g.index, seed.hex()))

    def enter_ball(self, number: int) -> list[ev.Event]:
        """Record the number read on a physical ball."""
        number = check_ball(number)
        g = self._drawable(DrawSource.PHYSICAL)
        if number in g.drawn:
            raise err.AlreadyDrawn(
                f"{number} already drawn in game {g.index}", f"Le {number} est déjà sorti."
            )
        events = self._lapse(g)
        if g.status is not GameStatus.RUNNING:
            return events
        events += self._emit(ev.NumberDrawn(g.index, len(g.drawn) + 1, number, "physical"))
        return events + self._found_winners(g)

    def _lapse(self, g: Game) -> list[ev.Event]:
        """Before the next number: a stage won only within N numbers (the jackpot) that nobody
        won on its N numbers is no longer in play (its last number's claims were in time until
        now, art. 2); the next stage (the consolation) takes over, or the game is over."""
        stage = g.stage_spec
        if stage is None or not stage.within or len(g.drawn) < stage.within or g.entries():
            return []
        return self._emit(ev.StageLapsed(g.index, g.stage, "within"))

    def can_correct(self) -> bool:
        """May the last ball be corrected now (a physical ball, no claim on it)?"""
        g = self.game
        return bool(
            g
            and g.status is GameStatus.RUNNING
            and g.drawn
            and self.program.settings.draw_source is DrawSource.PHYSICAL
            and not any(c.number == g.drawn[-1] for c in g.claims)
        )

    def correct_last(self, number: int) -> list[ev.Event]:
        """Replace a mistyped physical ball, while no claim refers to it (logged)."""
        number = check_ball(number)
        g = self._running()
        if self.program.settings.draw_source is not DrawSource.PHYSICAL:
            raise err.CorrectionRefused(
                "electronic draws are never corrected", "Un tirage électronique ne se corrige pas."
            )
        if not g.drawn:
            raise err.CorrectionRefused("no number drawn yet", "Aucun numéro à corriger.")
        old = g.drawn[-1]
        if any(c.number == old for c in g.claims):
            raise err.CorrectionRefused(
                f"a claim refers to {old}", f"Un joueur a déjà annoncé sur le {old}."
            )
        if number == old or number in g.drawn:
            raise err.AlreadyDrawn(f"{number} already drawn", f"Le {number} est déjà sorti.")
        return self._emit(ev.DrawCorrected(g.index, len(g.drawn), old, number)) + (
            self._found_winners(g)
        )

    def allow_unmark(self) -> list[ev.Event]:
        """ "Vous pouvez démarquer": ends the game; annulled cartons come back."""
        self._open()
        g = self.game
        if g is None or g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("no game to end")
        if g.status is GameStatus.RUNNING and (len(g.drawn) < len(BALLS) or g.entries()):
            raise err.DemarquageTooEarly(
                f"stage {g.stage + 1} of {len(g.spec.stages)} not awarded yet"
            )
        # (all 90 numbers out and nobody claimed in time: the game ends, the lot stays unwon)
        return self._emit(ev.UnmarkAllowed(g.index)) + self._reveal(g)

    def close_evening(self, by: str, reason: str = "") -> list[ev.Event]:
        """The organiser closes the evening's books: from now on it is read-only, every move is
        refused (`EveningIsClosed`). A game still in play is interrupted (a written reason is
        then required) and its seed revealed first, so that its draw stays checkable."""
        by = check_staff_name(by)
        if self.closed is not None:
            raise err.CloseRefused("already closed", "La soirée est déjà close.")
        if not isinstance(reason, str) or len(reason) > MAX_DECISION_REASON:
            raise err.InvalidArgument(f"close reason {reason!r:.40}")
        reason = " ".join(reason.split())
        g = self.game
        in_play = g is not None and g.status is not GameStatus.FINISHED
        if in_play and not reason:
            raise err.CloseRefused(
                f"game {g.index} in play and no reason",  # type: ignore[union-attr]
                "Une partie est en cours : écrivez pourquoi la soirée est close avant sa fin.",
            )
        events = self._reveal(g) if in_play and g is not None else []
        interrupted = g.index if in_play and g is not None else None
        return events + self._emit(ev.EveningClosed(by, reason, interrupted))

    def start_pause(self, message: str, returns_at: int) -> list[ev.Event]:
        """An entracte between games (or before the first): the hall screen shows its message
        and when the games resume (`returns_at`, POSIX seconds: the caller's clock). Starting
        one while another is in course changes its message or its time."""
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            raise err.PauseRefused(
                f"game {g.index} is {g.status}: no entracte during a game",
                "Terminez la partie (« Vous pouvez démarquer ») avant l'entracte.",
            )
        if self.is_over:
            raise err.PauseRefused(
                "every game has been played", "La soirée est terminée : pas d'entracte."
            )
        text = " ".join(message.split()) if isinstance(message, str) else ""
        if not text or len(text) > MAX_PAUSE_MESSAGE or not text.isprintable():
            raise err.InvalidArgument(
                f"pause message {message!r:.40}",
                f"Le message de l'entracte doit faire de 1 à {MAX_PAUSE_MESSAGE} caractères.",
            )
        if not is_int(returns_at) or returns_at <= 0:
            raise err.InvalidArgument(f"pause return time {returns_at!r}", "Heure de reprise ?")
        return self._emit(ev.PauseStarted(text, returns_at))

    def end_pause(self) -> list[ev.Event]:
        """The entracte is over before the next game starts (starting it ends it too)."""
        if self.pause is None:
            raise err.PauseRefused("no entracte in course", "Aucun entracte en cours.")
        return self._emit(ev.PauseEnded())


@applies(ev.GameStarted)
def _game_started(self: Any, e: ev.GameStarted) -> None:
    self.games.append(Game(e.game, self.program.games[e.game]))
    self.pause = None  # the games resume


@applies(ev.PauseStarted)
def _pause_started(self: Any, e: ev.PauseStarted) -> None:
    self.pause = e


@applies(ev.PauseEnded)
def _pause_ended(self: Any, e: ev.PauseEnded) -> None:
    self.pause = None


@applies(ev.DrawCommitted)
def _draw_committed(self: Any, e: ev.DrawCommitted) -> None:
    self.games[e.game].commitment = e


@applies(ev.DrawRevealed)
def _draw_revealed(self: Any, e: ev.DrawRevealed) -> None:
    self.games[e.game].revealed = e.seed
    self.sealed[e.game] = bytes.fromhex(e.seed)


@applies(ev.EveningClosed)
def _evening_closed(self: Any, e: ev.EveningClosed) -> None:
    self.closed = e


@applies(ev.NumberDrawn)
def _number_drawn(self: Any, e: ev.NumberDrawn) -> None:
    g = self.games[e.game]
    g.drawn.append(e.number)
    g.claim_stage = g.stage  # claims on this number are judged on this stage
    g.last_call = None
    if self.program.settings.auto_marking:
        self._auto_mark(g, e.number)
    if not g.spec.game_type.claimed:  # the inversée: the cartons holding it are out
        g.knocked.update(self.cartons[n].unit for n in self._by_number[e.number])


@applies(ev.DrawCorrected)
def _draw_corrected(self: Any, e: ev.DrawCorrected) -> None:
    g = self.games[e.game]
    g.drawn[-1] = e.new
    g.corrections.append(e)
    for marks in g.marks.values():
        marks.discard(e.old)
    if self.program.settings.auto_marking:
        self._auto_mark(g, e.new)
    if not g.spec.game_type.claimed:
        g.knocked = {self.cartons[n].unit for x in g.drawn for n in self._by_number[x]}


@applies(ev.UnmarkAllowed)
def _unmark_allowed(self: Any, e: ev.UnmarkAllowed) -> None:
    g = self.games[e.game]
    g.status = GameStatus.FINISHED
    g.annulled.clear()
