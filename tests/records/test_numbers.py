"""The numbers of the evening: each game's numbers, draws and duration, the frequency of each
number over the evening, in the report's CSV and PDF (with its chart)."""

from __future__ import annotations

from collections import Counter

from evening_scenario import Played
from hypothesis import given
from hypothesis import strategies as st
from test_export import pdf_text

from loto_app.records.export import read_report_csv, report_csv, report_pdf
from loto_app.records.numbers import duration_text, evening_numbers, of_report

games_st = st.lists(
    st.tuples(
        st.text(max_size=10),
        st.lists(st.integers(1, 90), unique=True, max_size=90),
        st.none() | st.floats(0, 1e6),
        st.none() | st.floats(0, 1e6),
    ),
    max_size=8,
)


@given(games_st)
def test_frequencies_count_every_draw_once_and_the_leaders_come_first(games: list) -> None:
    nums = evening_numbers(games)
    every = Counter(n for _, drawn, _, _ in games for n in drawn)
    assert nums.frequency == tuple(every[n] for n in range(1, 91))
    assert nums.draws == sum(len(d) for _, d, _, _ in games) == sum(nums.frequency)
    assert [g.numbers for g in nums.games] == [tuple(d) for _, d, _, _ in games]
    top = nums.most_drawn(5)
    assert [c for _, c in top] == sorted((c for _, c in top), reverse=True)
    assert all(c == every[n] > 0 for n, c in top)
    assert set(nums.never_drawn()) == {n for n in range(1, 91) if not every[n]}
    for g, (_, _, start, end) in zip(nums.games, games, strict=True):
        assert g.seconds is None if start is None or end is None else g.seconds >= 0


def test_the_summary_and_the_durations_are_said_as_the_hall_says_them() -> None:
    nums = evening_numbers(
        [
            ("Partie 1", [17, 42, 3], 1000.0, 1000.0 + 24 * 60 + 10),
            ("Partie 2", [42, 17, 5], 5000.0, 5000.0 + 3600 + 5 * 60),
            ("Partie 3", [42], 9000.0, None),
        ]
    )
    assert [g.duration for g in nums.games] == ["24 min", "1 h 05", "—"]
    assert nums.most_drawn(2) == [(42, 3), (17, 2)]
    assert nums.summary() == (
        "7 numéros tirés en 3 parties. Le plus sorti : 42 (3 fois). 86 numéros jamais sortis."
    )
    assert duration_text(45) == "45 s" and duration_text(None) == "—"
    assert evening_numbers([]).summary() == "Aucun numéro tiré."
    once = evening_numbers([("P", [1, 2], None, None)])
    assert "Aucun numéro n'est sorti deux fois" in once.summary()


def test_the_report_gives_the_numbers_of_the_evening_in_csv_and_pdf(played: Played) -> None:
    r = played.report
    nums = of_report(r)
    played_games = [g for g in r.games if g.started_at]
    assert [g.numbers for g in nums.games] == [g.numbers for g in played_games]
    assert all(g.seconds is not None and g.seconds >= 0 for g in nums.games)
    table = read_report_csv(report_csv(r))["numeros"]
    frequency = {int(t["n°"]): int(t["tirages / sorties"]) for t in table if t["quoi"] == "numéro"}
    drawn = Counter(n for g in played_games for n in g.numbers)
    assert frequency == {n: drawn[n] for n in range(1, 91)}
    games = [t for t in table if t["quoi"] == "partie"]
    assert [int(t["tirages / sorties"]) for t in games] == [len(g.draws) for g in played_games]
    text = pdf_text(report_pdf(r))
    assert "Les numéros de la soirée" in text
    assert "Fréquence de chaque numéro" in text  # the chart's title
    assert nums.summary().split(".")[0] in text
