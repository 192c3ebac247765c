"""What became of a valid claim whose ex aequo the token draw settled: lost, and the
consolation the engine gave for it. Read from the engine's tie-breaks and the events that
followed them (never judged again here), for the player's phone (views.py) and the animateur's
list of claims (snapshot.py). Pure: no Reflex, no database."""

from __future__ import annotations

from dataclasses import dataclass

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, Game
from loto_app.domain.program import Kind


@dataclass(frozen=True, slots=True)
class TieLost:
    """A player's ex aequo on a stage, lost at the token draw, and its consolation."""

    voucher: bool  # a "carton offert" voucher: no game was left for a free carton to play
    game: int | None  # the index of the game the free carton plays (None: no free carton)
    sudden: bool = False  # lost at the mort subite (extra balls), not at the tokens


def tie_lost(e: Evening, g: Game, stage: int, player_id: str | None) -> TieLost | None:
    """The tie of `stage` of game `g`, if `player_id` drew a token and did not win it."""
    tie = next((t for t in g.tie_breaks if t.stage == stage), None)
    if tie is None or tie.method not in ("draw", "sudden") or player_id is None:
        return None
    tied = dict(tie.tokens) if tie.method == "draw" else g.valid.get(stage, {})
    if player_id in tie.winners or player_id not in tied:
        return None
    voucher = any(
        t.kind == "voucher" and (t.game, t.stage, t.player_id) == (g.index, stage, player_id)
        for t in e.lot_tickets.values()
    )
    game = None if voucher else _free_carton_game(e, tie, player_id)
    return TieLost(voucher, game, tie.method == "sudden")


def _free_carton_game(e: Evening, tie: ev.TieBroken, player_id: str) -> int | None:
    """The game the free carton a tie-break gave this player plays first: the consolations
    are the events right after the tie-break (cartons printed for them, sold "consolation",
    vouchers)."""
    after: list[ev.Event] = []
    for x in reversed(e.history):  # (the tie-break is recent: a few events back)
        if x is tie:
            break
        after.append(x)
    else:
        return None
    for x in reversed(after):
        if isinstance(x, ev.CartonsSold) and x.reason == "consolation":
            if x.player_id == player_id:
                kind = Kind(x.kind)
                return next(
                    (
                        i
                        for i, spec in enumerate(e.program.games)
                        if i >= x.first_game and spec.kind is kind
                    ),
                    None,
                )
        elif not isinstance(x, (ev.CartonsPrinted, ev.VoucherIssued)):
            return None
    return None


def tie_lost_head(lost: TieLost) -> str:
    """How the tie was lost, as the tablet and the player's phone both say it."""
    return (
        "Ex aequo perdu à la mort subite" if lost.sudden else "Ex aequo perdu au tirage des jetons"
    )


def tie_lost_label(lost: TieLost) -> str:
    """The animateur's line for it: "Ex aequo perdu au tirage des jetons : carton offert pour
    la partie 2" (or a "carton offert" voucher)."""
    head = tie_lost_head(lost)
    if lost.voucher:
        return f"{head}\u00a0: bon «\u00a0carton offert\u00a0»"
    if lost.game is not None:
        return f"{head}\u00a0: carton offert pour la partie {lost.game + 1}"
    return head
