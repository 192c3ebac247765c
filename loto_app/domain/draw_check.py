"""The check of an evening's committed draws, from its log: what `verify-draw` prints (the CLI,
`storage/cli.py`), for the database, an evening file, or values typed by hand. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev


@dataclass(frozen=True, slots=True)
class GameDraw:
    """One game's draw as the log holds it."""

    game: int  # 1 for the first
    committed: ev.DrawCommitted | None
    seed: str  # "" until revealed
    drawn: tuple[int, ...]


def game_draws(events: Iterable[ev.Event]) -> list[GameDraw]:
    """Every started game's commitment, revealed seed and numbers (corrections applied)."""
    started: list[int] = []
    committed: dict[int, ev.DrawCommitted] = {}
    seeds: dict[int, str] = {}
    drawn: dict[int, list[int]] = {}
    for e in events:
        match e:
            case ev.GameStarted():
                started.append(e.game)
            case ev.DrawCommitted():
                committed[e.game] = e
            case ev.DrawRevealed():
                seeds[e.game] = e.seed
            case ev.NumberDrawn():
                drawn.setdefault(e.game, []).append(e.number)
            case ev.DrawCorrected():
                drawn[e.game][e.seq - 1] = e.new
            case _:
                pass
    return [
        GameDraw(g + 1, committed.get(g), seeds.get(g, ""), tuple(drawn.get(g, ())))
        for g in started
    ]


def describe(check: draws.Check, count: int) -> str:
    """A check's outcome in French, one line."""
    if not check.commitment_ok:
        return "NON CONFORME : la graine ne donne pas l'empreinte publiée avant la partie"
    if check.position is not None:
        wanted = check.expected if check.expected is not None else "rien (90 numéros au plus)"
        return f"NON CONFORME : au {check.position}e numéro, l'ordre engagé donne {wanted}, " + (
            f"le tirage dit {check.got}"
        )
    return f"conforme : les {count} numéros tirés suivent l'ordre engagé"


def report_lines(
    games: list[GameDraw], only: int | None = None, numbers: tuple[int, ...] | None = None
) -> tuple[list[str], bool]:
    """What to print for each game (or the one asked), and whether every revealed game checks
    (`numbers`: the numbers noted by hand instead of the log's, for the game asked)."""
    lines: list[str] = []
    ok = True
    for g in games:
        if only is not None and g.game != only:
            continue
        c = g.committed
        if c is None:
            lines.append(f"Partie {g.game} : boulier manuel, rien n'était engagé.")
            continue
        head = f"Partie {g.game} : empreinte {c.commitment} (liée à {c.evening}, série {c.series})"
        if not g.seed:
            lines.append(f"{head} ; graine secrète jusqu'à la fin de la partie.")
            continue
        drawn = numbers if numbers is not None and only is not None else g.drawn
        check = draws.verify(
            bytes.fromhex(g.seed), c.evening, c.series, g.game, c.commitment, drawn
        )
        ok = ok and check.ok
        lines.append(f"{head} ; graine {g.seed} ; {describe(check, len(drawn))}.")
    if only is not None and not lines:
        lines.append(f"Aucune partie {only} dans cette soirée.")
        ok = False
    return lines, ok
