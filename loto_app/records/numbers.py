"""The numbers of the evening: each game's numbers in order, its number of draws and its duration,
and how often each number came out over the whole evening, so that an organiser can answer
"ce sont toujours les mêmes numéros" with the facts (the report, its PDF and CSV, and the hall
screen's end). Pure: the callers give the numbers and the times.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

BALLS = range(1, 91)


@dataclass(frozen=True, slots=True)
class GameNumbers:
    """One game as far as it was played.

    Attributes:
        no: the game's number as announced (1 for the first).
        label: its title.
        numbers: the numbers drawn, in order (after corrections).
        seconds: how long it lasted, from its start to its end (or its last number while it
            runs); None when its times are not known.
    """

    no: int
    label: str
    numbers: tuple[int, ...]
    seconds: int | None

    @property
    def draws(self) -> int:
        """How many numbers were drawn."""
        return len(self.numbers)

    @property
    def duration(self) -> str:
        """The duration in French ("24 min", "1 h 05"), "—" when unknown."""
        return duration_text(self.seconds)


@dataclass(frozen=True, slots=True)
class EveningNumbers:
    """The games played and the frequency of each number 1-90 over them."""

    games: tuple[GameNumbers, ...]
    frequency: tuple[int, ...]  # frequency[n - 1]: how many games drew n

    @property
    def draws(self) -> int:
        """Numbers drawn over the evening."""
        return sum(g.draws for g in self.games)

    @property
    def highest(self) -> int:
        """The largest frequency (0 before the first number)."""
        return max(self.frequency, default=0)

    def most_drawn(self, k: int = 5) -> list[tuple[int, int]]:
        """The `k` numbers drawn most often, (number, times), the most frequent first and, at
        equal frequency, the smaller number first; never a number that did not come out."""
        ranked = sorted(BALLS, key=lambda n: (-self.frequency[n - 1], n))
        return [(n, self.frequency[n - 1]) for n in ranked[:k] if self.frequency[n - 1]]

    def never_drawn(self) -> list[int]:
        """The numbers that never came out."""
        return [n for n in BALLS if not self.frequency[n - 1]]

    def summary(self) -> str:
        """One sentence for the hall and the report: how many numbers in how many games, the
        number(s) drawn most often, how many never came out."""
        if not self.draws:
            return "Aucun numéro tiré."
        games = sum(1 for g in self.games if g.draws)
        said = f"{self.draws} numéros tirés en {games} partie{'s' if games > 1 else ''}."
        times = self.highest
        if times > 1:
            leaders = [str(n) for n, c in self.most_drawn(90) if c == times]
            many = len(leaders) > 1
            shown = ", ".join(leaders[:6]) + (" …" if len(leaders) > 6 else "")
            said += f" {'Les plus sortis' if many else 'Le plus sorti'} : {shown} ({times} fois)."
        else:
            said += " Aucun numéro n'est sorti deux fois."
        never = len(self.never_drawn())
        if never:
            s = "s" if never > 1 else ""
            said += f" {never} numéro{s} jamais sorti{s}."
        return said


def duration_text(seconds: int | float | None) -> str:
    """A duration as the hall says it: "45 s", "24 min", "1 h 05"; "—" when unknown."""
    if seconds is None or seconds < 0:
        return "—"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    minutes = (s + 30) // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d}"


def evening_numbers(
    games: Iterable[tuple[str, Sequence[int], float | None, float | None]],
) -> EveningNumbers:
    """The numbers of the evening from its games, in program order.

    Args:
        games: for each game started, (title, numbers drawn in order, start and end as POSIX
            seconds; end None while it runs: its last number's time then, given by the caller
            as the end, or None when unknown).

    Returns:
        Each game's numbers and duration, and the frequency of each number over them.
    """
    out: list[GameNumbers] = []
    frequency = [0] * 90
    for i, (label, numbers, start, end) in enumerate(games):
        drawn = tuple(int(n) for n in numbers)
        for n in drawn:
            if 1 <= n <= 90:
                frequency[n - 1] += 1
        seconds = None if start is None or end is None else max(0, round(end - start))
        out.append(GameNumbers(i + 1, label, drawn, seconds))
    return EveningNumbers(tuple(out), tuple(frequency))


def of_report(report: Any) -> EveningNumbers:
    """The numbers of an `EveningReport` (records/report.py): its games that started, each
    timed from its start to its end, or to its last number while it runs."""
    games = []
    for g in report.games:
        if g.started_at is None:
            continue
        end = g.ended_at or (g.draws[-1].at if g.draws else None)
        games.append(
            (g.label, g.numbers, g.started_at.timestamp(), end.timestamp() if end else None)
        )
    return evening_numbers(games)


class _Doc(Protocol):
    """What the report's PDF writer offers (records/export.py)."""

    pdf: Any

    def heading(self, text: str, size: float = 13) -> None: ...
    def para(self, text: str, size: float = 9, bold: bool = False) -> None: ...
    def font(self, size: float, bold: bool = False) -> None: ...
    def t(self, text: Any) -> str: ...
    def table(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        size: float = 8,
        align: Sequence[str] | None = None,
    ) -> None: ...


def pdf_section(doc: _Doc, numbers: EveningNumbers) -> None:
    """ "Les numéros de la soirée" in the report's PDF: a table of the games (draws, duration,
    the numbers in order) and a bar chart of each number's frequency over the evening."""
    doc.heading("Les numéros de la soirée")
    doc.para(numbers.summary(), 9, True)
    doc.pdf.ln(1)
    doc.table(
        ("Partie", "Tirages", "Durée", "Numéros dans l'ordre"),
        [
            (str(g.no), str(g.draws), g.duration, " ".join(map(str, g.numbers)) or "—")
            for g in numbers.games
        ],
        (16, 16, 18, 136),
        7.5,
    )
    if not numbers.draws:
        return
    pdf = doc.pdf
    height, bar_w, left = 38.0, 2.0, pdf.l_margin + 6
    if pdf.get_y() > pdf.h - (height + 35):
        pdf.add_page()
    doc.para("Fréquence de chaque numéro (combien de parties l'ont tiré)", 9, True)
    top = pdf.get_y() + 2
    base = top + height
    highest = max(numbers.highest, 1)
    doc.font(6)
    # the scale: a line and its value at each whole frequency (at most 6 lines)
    step = max(1, -(-highest // 6))
    pdf.set_draw_color(200, 200, 200)
    for v in range(0, highest + 1, step):
        y = base - height * v / highest
        pdf.line(left, y, left + 90 * bar_w, y)
        pdf.set_xy(left - 6, y - 1.5)
        pdf.cell(5, 3, str(v), align="R")
    pdf.set_fill_color(179, 0, 27)
    for n in BALLS:
        times = numbers.frequency[n - 1]
        if times:
            h = height * times / highest
            pdf.rect(left + (n - 1) * bar_w + 0.2, base - h, bar_w - 0.4, h, style="F")
    # the numbers under the bars: 1, 10, 20 ... 90
    for n in (1, *range(10, 91, 10)):
        pdf.set_xy(left + (n - 1) * bar_w - 2, base + 0.5)
        pdf.cell(bar_w + 4, 3, str(n), align="C")
    pdf.set_draw_color(0, 0, 0)
    pdf.set_xy(pdf.l_margin, base + 5)
    never = numbers.never_drawn()
    if never:
        doc.para(f"Jamais sortis ({len(never)}) : {' '.join(map(str, never))}", 8)


__all__ = [
    "EveningNumbers",
    "GameNumbers",
    "duration_text",
    "evening_numbers",
    "of_report",
    "pdf_section",
]
