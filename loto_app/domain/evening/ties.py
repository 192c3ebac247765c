"""Ex aequo: the share offered and answered, the token draw, consolations."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.cartons import (
    default_rng,
)
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_ball, is_int
from loto_app.domain.evening.state import BALLS, TOKEN_BAG, Game
from loto_app.domain.games import TIE_LABELS, TieRule
from loto_app.domain.program import (
    Kind,
    TieMethod,
    TokenSource,
)


class TieMoves(EveningCore):
    """Ex aequo: the share offered and answered, the token draw, consolations."""

    def tie_rule(self, g: Game) -> TieRule:
        """The rule that settles this game's ex aequo: its own, else the evening's (DRAW when
        the evening draws only; EVENING then means the share offered to two on a divisible
        lot, else tokens)."""
        if g.spec.tie is not TieRule.EVENING:
            return g.spec.tie
        if self.program.settings.tie_method is TieMethod.DRAW:
            return TieRule.DRAW
        return TieRule.EVENING

    def _not_the_rule(self, g: Game, asked: str) -> err.LotoError:
        rule = self.tie_rule(g)
        return err.NotSuddenDeath(
            f"{asked} in a game settling ties by {rule.value or 'share_or_draw'}",
            f"Cette partie départage ses ex aequo ainsi\u00a0: {TIE_LABELS[rule].lower()}.",
        )

    def offer_share(self) -> list[ev.Event]:
        """Ask the two tied players whether they share the divisible lot (art. 4)."""
        g = self._running()
        self._after_last_call(g)
        entries = g.entries()
        stage = g.stage_spec
        assert stage is not None
        rule = self.tie_rule(g)
        if rule is TieRule.DRAW and g.spec.tie is TieRule.EVENING:
            raise err.ShareNotAllowed(
                "the evening settles ties by draw only",
                "Ce soir, les ex aequo se départagent par tirage au sort.",
            )
        if rule is not TieRule.EVENING:
            raise self._not_the_rule(g, "share offered")
        if len(entries) != 2:
            raise err.ShareNotAllowed(
                f"{len(entries)} players tied, sharing needs exactly 2",
                "Le partage n'est possible qu'entre deux ex aequo.",
            )
        if not stage.lot.divisible:
            raise err.ShareNotAllowed("the lot is not divisible", "Ce lot n'est pas divisible.")
        if g.tie.closed:
            raise err.ShareNotAllowed(
                "the tie is already being settled", "Le partage a déjà été proposé."
            )
        return self._emit(ev.ShareOffered(g.index, g.stage, entries))

    def answer_share(self, player_id: str, accept: bool, by: str = "") -> list[ev.Event]:
        """A tied player accepts or refuses to share; two yes settle the tie.

        `by` "animateur": the animateur records the answer of a paper player (a player with no
        phone, registered at the desk); a phone player answers on their phone.
        """
        g = self._running()
        if by not in ("", "animateur"):
            raise err.InvalidArgument(f"share answer by {by!r:.20}")
        if by and self.origins.get(player_id) != "paper":
            raise err.InvalidArgument(
                f"proxy share answer for {player_id!r:.20}, not a paper player",
                "Ce joueur répond sur son téléphone : seul un joueur papier répond par "
                "l'animateur.",
            )
        if not isinstance(accept, bool):
            raise err.InvalidArgument(f"accept must be a bool, got {accept!r}")
        if not g.tie.share_offered_to or g.tie.broken is not None:
            raise err.NoTie("no share offer is pending", "Aucun partage n'est proposé.")
        if player_id not in g.tie.share_offered_to:
            raise err.NotInTie(f"{player_id} is not part of the share offer")
        if player_id in g.tie.answers:
            raise err.InvalidArgument(f"{player_id} already answered", "Vous avez déjà répondu.")
        events = self._emit(ev.ShareAnswered(g.index, g.stage, player_id, accept, by))
        if all(g.tie.answers.get(p) for p in g.tie.share_offered_to):
            events += self._emit(
                ev.TieBroken(g.index, g.stage, "share", (), tuple(g.tie.share_offered_to))
            )
        return events

    def break_tie_by_draw(self, rng: random.Random | None = None) -> list[ev.Event]:
        """Each tied player draws a numbered token from the app; the highest wins, the others
        get a free carton at once (art. 4, 5). Refused on an evening whose tokens come from
        the bag (`break_tie_with_tokens`)."""
        g, entries = self._tie_to_draw(TokenSource.APP)
        rng = rng or default_rng()
        tokens = rng.sample(range(1, max(TOKEN_BAG, len(entries)) + 1), len(entries))
        return self._tokens_drawn(g, entries, tokens, "app", rng)

    def break_tie_with_tokens(
        self, tokens: dict[str, int], rng: random.Random | None = None
    ) -> list[ev.Event]:
        """Each tied player drew a token from the bag and the animateur typed them: one per
        tied player, distinct, from 1 to 90; the highest wins (art. 4, 5). Refused on an
        evening whose tokens come from the app.

        `rng` prints the losers' free cartons (default: the system CSPRNG).
        """
        g, entries = self._tie_to_draw(TokenSource.BAG)
        if not isinstance(tokens, dict) or set(tokens) != set(entries):
            given = sorted(map(str, tokens)) if isinstance(tokens, dict) else tokens
            raise err.InvalidTokens(
                f"tokens for {given!r:.80}, tied players {list(entries)}",
                "Tapez le jeton de chacun des joueurs ex aequo.",
            )
        values = [tokens[p] for p in entries]
        if not all(is_int(t) and 1 <= t <= TOKEN_BAG for t in values):
            raise err.InvalidTokens(f"tokens {values!r:.80} not all integers in 1..{TOKEN_BAG}")
        if len(set(values)) != len(values):
            raise err.InvalidTokens(
                f"tokens {values} are not distinct", "Deux jetons portent le même numéro."
            )
        return self._tokens_drawn(g, entries, values, "bag", rng)

    def _tie_to_draw(self, source: TokenSource) -> tuple[Game, tuple[str, ...]]:
        """The game and its tied players, once a token draw may settle them."""
        g = self._running()
        entries = g.entries()
        if len(entries) < 2 or g.tie.broken is not None:
            raise err.NoTie(f"{len(entries)} valid entries, tie broken: {g.tie.broken is not None}")
        self._after_last_call(g)
        rule = self.tie_rule(g)
        if rule in (TieRule.EACH, TieRule.SHARE) or (
            rule is TieRule.SUDDEN_DEATH and self.sudden_balls_left(g)
        ):
            raise self._not_the_rule(g, "token draw")
        st = self.program.settings
        if st.token_source is not source:
            raise err.WrongTokenSource(
                f"{source} tokens on an evening with {st.token_source} tokens",
                "Ce soir, les jetons sortent du sac : tapez le jeton de chaque joueur."
                if st.token_source is TokenSource.BAG
                else "Ce soir, l'appli tire les jetons au sort.",
            )
        lot = g.spec.stages[g.stage].lot
        if (
            rule is TieRule.EVENING
            and len(entries) == 2
            and lot.divisible
            and not g.tie.share_refused
        ):
            raise err.ShareFirst(
                "two tied players, a divisible lot: the share must be offered and refused first",
                "Partage proposé : attendez les réponses des deux joueurs."
                if g.tie.share_offered_to
                else None,
            )
        return g, entries

    def sudden_balls_left(self, g: Game) -> list[int]:
        """The balls a mort subite may still draw: not out in the game, not drawn for it."""
        out = set(g.drawn) | {b.number for b in g.tie.sudden}
        return [n for n in BALLS if n not in out]

    def _winning_numbers(self, g: Game, player_id: str) -> frozenset[int]:
        """The numbers of a tied player's winning cartons on the stage in play (every unit of
        theirs with a valid claim that is an entry)."""
        out: set[int] = set()
        for c in g.stage_claims():
            if c.player_id == player_id and g.is_entry(c):
                for n in c.unit_nos:
                    out |= self.cartons[n].carton.numbers
                if not c.unit_nos:  # a carton in no list: the lines typed (its winning ones)
                    out |= set(c.winning)
        return frozenset(out)

    def sudden_death_ball(
        self, number: int | None = None, rng: random.Random | None = None
    ) -> list[ev.Event]:
        """One extra ball of the mort subite (a game whose tie rule it is): drawn by the app
        among the balls not out when the evening's tie-breaks come from the app, typed by the
        animateur (`number`) when they come from the bag (the physical boulier's default).
        The tied players whose winning carton holds it stay in (when
        nobody's does, everyone stays); the last one left wins, the others get a consolation
        (docs/RULES.md, "Ex aequo"). The balls go back in the boulier: they are not drawn."""
        g = self._running()
        entries = g.entries()
        if len(entries) < 2 or g.tie.broken is not None:
            raise err.NoTie(f"{len(entries)} valid entries, tie broken: {g.tie.broken is not None}")
        self._after_last_call(g)
        if self.tie_rule(g) is not TieRule.SUDDEN_DEATH:
            raise self._not_the_rule(g, "sudden death ball")
        left_balls = self.sudden_balls_left(g)
        if not left_balls:
            raise err.NoNumberLeft("no ball left for the sudden death")
        physical = self.program.settings.token_source is TokenSource.BAG
        if physical:
            if number is None:
                raise err.InvalidNumber(
                    "the animateur types the sudden death ball",
                    "Tapez le numéro de la boule tirée.",
                )
            number = check_ball(number)
            if number not in left_balls:
                raise err.AlreadyDrawn(
                    f"{number} already out",
                    f"Le {number} est déjà sorti\u202f: tirez-en une autre.",
                )
        elif number is not None:
            raise err.WrongTokenSource(
                "the app draws the sudden death ball", "Ce soir, l'appli tire la boule."
            )
        else:
            number = (rng or default_rng()).choice(left_balls)
        contenders = g.tie.sudden[-1].left if g.tie.sudden else entries
        holders = tuple(p for p in contenders if number in self._winning_numbers(g, p))
        left = holders or contenders
        source = "bag" if physical else "app"
        events = self._emit(ev.SuddenDeathBall(g.index, g.stage, number, left, source))
        if len(left) == 1:
            events += self._emit(ev.TieBroken(g.index, g.stage, "sudden", (), left, source))
            for p in entries:
                if p not in left:
                    events += self._console(g.index, g.stage, p, "tie", rng)
        return events

    def _tokens_drawn(
        self,
        g: Game,
        entries: tuple[str, ...],
        tokens: Sequence[int],
        source: str,
        rng: random.Random | None,
    ) -> list[ev.Event]:
        winner = entries[max(range(len(entries)), key=tokens.__getitem__)]
        events = self._emit(
            ev.TieBroken(
                g.index,
                g.stage,
                "draw",
                tuple(zip(entries, tokens, strict=True)),
                (winner,),
                source,
            )
        )
        for p in entries:
            if p != winner:
                events += self._console(g.index, g.stage, p, "tie", rng)
        return events

    def _console(
        self, game: int, stage: int, player_id: str, why: str, rng: random.Random | None
    ) -> list[ev.Event]:
        """A consolation: a free carton, a classique one or a single carton of a kind that
        still has a game to play (a vitrine is a unit of 3, not "a carton"); when no game is
        left for it, a "carton offert" voucher."""
        kinds = [Kind.CLASSIQUE, self.program.games[game].kind, Kind.SPECIAL, Kind.MAXIQUINE]
        kind = next((k for k in kinds if k is not Kind.VITRINE and self._plays_later(k)), None)
        if kind is not None:
            return self.sell(player_id, kind, 1, rng=rng or default_rng(), reason="consolation")
        return self._emit(ev.VoucherIssued(self._next_ticket, player_id, game, stage, why))

    def _plays_later(self, kind: Kind) -> bool:
        """Is a game of this kind still to be played by a carton bought now?"""
        first = self.next_game_index()
        return any(spec.kind is kind for spec in self.program.games[first:])


@applies(ev.ShareOffered)
def _share_offered(self: Any, e: ev.ShareOffered) -> None:
    self.games[e.game].tie.share_offered_to = e.players


@applies(ev.ShareAnswered)
def _share_answered(self: Any, e: ev.ShareAnswered) -> None:
    self.games[e.game].tie.answers[e.player_id] = e.accepted


@applies(ev.SuddenDeathBall)
def _sudden_death_ball(self: Any, e: ev.SuddenDeathBall) -> None:
    self.games[e.game].tie.sudden.append(e)


@applies(ev.TieBroken)
def _tie_broken(self: Any, e: ev.TieBroken) -> None:
    g = self.games[e.game]
    g.tie.broken = e
    g.tie_breaks.append(e)


@applies(ev.VoucherIssued)
def _voucher_issued(self: Any, e: ev.VoucherIssued) -> None:
    self._issue(e)
