"""Marks: a player's own marks on their cartons, automatic marking, démarquage."""

from __future__ import annotations

from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_ball, is_int
from loto_app.domain.evening.state import Game, GameStatus


class MarkMoves(EveningCore):
    """Marks: a player's own marks on their cartons, automatic marking, démarquage."""

    def toggle_mark(self, player_id: str, carton_no: int, number: int) -> list[ev.Event]:
        """Touch a cell: put a pion on a drawn number, or take it off."""
        number = check_ball(number)
        g, c = self._own_playing(player_id, carton_no)
        if g.status is GameStatus.FINISHED:
            raise err.NoGameInProgress("the game is over", "La partie est terminée.")
        if number not in c.carton.numbers:
            raise err.NumberNotOnCarton(f"{number} not on carton {carton_no}")
        if number in g.marks.get(carton_no, ()):
            return self._emit(ev.CellUnmarked(g.index, player_id, carton_no, number))
        if c.unit in g.annulled:
            raise err.CartonAnnulled(f"carton {carton_no} annulled in game {g.index}")
        if number not in g.drawn:
            raise err.NumberNotDrawn(
                f"{number} not drawn in game {g.index}", f"Le {number} n'est pas encore sorti."
            )
        return self._emit(ev.CellMarked(g.index, player_id, carton_no, number))

    def save_marks(
        self, batches: list[tuple[str, int, list[tuple[int, int, bool]]]]
    ) -> tuple[list[ev.Event], list[tuple[bool, list[tuple[int, int]]]]]:
        """Phones' pions, sent in batches for safekeeping (the pion is the phone's at once:
        marks are not evidence). A batch is (player id, game no 1-based, ops "(carton, number)
        is marked or not"). An op that already holds costs nothing; one `toggle_mark` would
        refuse is skipped; the batch of another game, a finished one or an unknown player is
        refused whole. All the changes make one event.

        Returns:
            The events (none, or one `MarksSaved`), and for each batch (taken, the (carton,
            number) of its ops skipped as illegal).
        """
        g = self.game
        now: dict[tuple[int, int], bool] = {}  # what the batches before set, in this call
        changes: list[tuple[str, int, int, int]] = []
        out: list[tuple[bool, list[tuple[int, int]]]] = []
        for player_id, game_no, ops in batches:
            if (
                not isinstance(player_id, str)
                or player_id not in self.players
                or g is None
                or g.index + 1 != game_no
                or g.status is GameStatus.FINISHED
                or self.closed is not None
            ):
                out.append((False, []))
                continue
            skipped: list[tuple[int, int]] = []
            for carton_no, number, marked in ops:
                key = (carton_no, number)
                held = now.get(key, number in g.marks.get(carton_no, ()))
                if not self._may_mark(g, player_id, carton_no, number, bool(marked)):
                    skipped.append(key)
                elif held != bool(marked):
                    now[key] = bool(marked)
                    changes.append((player_id, carton_no, number, int(bool(marked))))
            out.append((True, skipped))
        if not changes:
            return [], out
        assert g is not None
        return self._emit(ev.MarksSaved(g.index, tuple(changes))), out

    def _may_mark(self, g: Game, player_id: str, carton_no: int, number: int, on: bool) -> bool:
        """Whether `toggle_mark` would let this player put (`on`) or take off a pion there."""
        c = self.cartons.get(carton_no) if is_int(carton_no) else None
        if c is None or self.owner(carton_no) != player_id or not self.plays(carton_no, g):
            return False
        if not is_int(number) or number not in c.carton.numbers:
            return False
        return not on or (c.unit not in g.annulled and number in g.drawn)

    def unmark_all(self, player_id: str) -> list[ev.Event]:
        """Clear all my cartons: locked until the animateur allows it (art. 9)."""
        self._need_player(player_id)
        g = self.game
        if g is None:
            return []
        if g.status is not GameStatus.FINISHED:
            raise err.DemarquageLocked(f"game {g.index} is {g.status}")
        mine = {c.no for c in self.player_cartons(player_id)}
        if not any(g.marks.get(n) for n in mine):
            return []
        return self._emit(ev.CartonsCleared(g.index, player_id))

    def _auto_mark(self, g: Game, number: int) -> None:
        for n in self._by_number[number]:
            if self.plays(n, g) and self.cartons[n].unit not in g.annulled:
                g.marks.setdefault(n, set()).add(number)


@applies(ev.CellMarked)
def _cell_marked(self: Any, e: ev.CellMarked) -> None:
    self.games[e.game].marks.setdefault(e.carton_no, set()).add(e.number)


@applies(ev.CellUnmarked)
def _cell_unmarked(self: Any, e: ev.CellUnmarked) -> None:
    self.games[e.game].marks[e.carton_no].discard(e.number)


@applies(ev.MarksSaved)
def _marks_saved(self: Any, e: ev.MarksSaved) -> None:
    marks = self.games[e.game].marks
    for _pid, carton_no, number, on in e.marks:
        if on:
            marks.setdefault(carton_no, set()).add(number)
        else:
            marks.get(carton_no, set()).discard(number)


@applies(ev.CartonsCleared)
def _cartons_cleared(self: Any, e: ev.CartonsCleared) -> None:
    g = self.games[e.game]
    for c in self.player_cartons(e.player_id):
        g.marks.pop(c.no, None)
