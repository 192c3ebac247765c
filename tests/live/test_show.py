"""The hall screen's scenes around the draw (live/present/show.py), played on the engine: the
welcome with the program, the game with its lot's photo, the winners and the next game between
games, the entracte, and the end with the evening's winners and numbers. No Reflex, no database.
"""

from __future__ import annotations

import json
import random

from loto_app.domain.engine import Evening
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
)
from loto_app.live.present.snapshot import public_snapshot

HAM, BIKE = "a" * 64, "b" * 64
PROGRAM = Program(
    "S",
    (
        GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),)),
        GameSpec(
            Kind.CLASSIQUE,
            (
                Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),
                Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),
            ),
        ),
    ),
    Settings(DrawSource.PHYSICAL, last_call_seconds=0),
)


def _win_quine(e: Evening, who: str) -> None:
    c = e.player_cartons(who)[0]
    for n in sorted(c.carton.rows[0]):
        if n not in e.game.drawn:
            e.enter_ball(n)
    e.claim(who, c.no)
    e.award()


def test_the_scenes_of_an_evening_and_what_each_carries() -> None:
    e = Evening(PROGRAM, b"k" * 32)
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 1, rng=random.Random(3))
    e.set_lot_photo("Jambon", HAM)
    e.add_partner("Boulangerie Martin", BIKE)

    snap = public_snapshot(e, "Comité des fêtes", "ABCDEF")
    assert snap["scene"] == "welcome"
    assert [(g["no"], g["kind"], g["title"]) for g in snap["program"]] == [
        (1, "Classique", ""),
        (2, "Classique", ""),
    ]
    assert snap["program"][1]["stages"] == [
        {"label": "Quine", "lot": "Jambon", "photo": f"/media/{HAM}.webp"},
        {"label": "Carton plein", "lot": "Vélo", "photo": ""},
    ]
    assert snap["next_game"][0]["no"] == 1
    assert snap["partners"] == [{"name": "Boulangerie Martin", "src": f"/media/{BIKE}.webp"}]

    e.start_pause("Ouverture des portes", 1_900_000_000)
    snap = public_snapshot(e, "Comité des fêtes", "ABCDEF")
    assert (snap["scene"], snap["pause_message"], snap["pause_until"], snap["pause_at"]) == (
        "pause",
        "Ouverture des portes",
        1_900_000_000,
        "18 h 46",  # 2030-03-17 17:46:40 UTC, in the hall's time (Paris)
    )

    # the phones read it in the announcement
    assert snap["announcement"] == "Entracte : Ouverture des portes — reprise à 18 h 46."
    e.start_game()
    e.enter_ball(90 if 90 not in e.player_cartons("ana")[0].carton.numbers else 89)
    snap = public_snapshot(e, "Comité des fêtes", "ABCDEF")
    assert snap["scene"] == "game"
    assert snap["lot_photo"] == f"/media/{HAM}.webp"  # the lot in play, on the TV and phones
    # a draw's message carries none of the other scenes' parts
    assert not {"program", "next_game", "game_winners", "pause_message"} & set(snap)

    _win_quine(e, "ana")
    e.allow_unmark()
    snap = public_snapshot(e, "Comité des fêtes", "ABCDEF")
    assert snap["scene"] == "between"
    assert snap["game_winners"] == [
        {
            "game": "Partie 1",
            "label": "Quine",
            "lot": "Jambon",
            "photo": f"/media/{HAM}.webp",
            "names": "Ana",
        }
    ]
    assert snap["next_game"][0]["no"] == 2 and len(snap["next_game"][0]["stages"]) == 2
    e.start_pause("Entracte : buvette ouverte", 1_900_000_900)
    assert public_snapshot(e, "C", "ABCDEF")["scene"] == "pause"  # the entracte comes first

    e.start_game()
    _win_quine(e, "ana")
    ana = e.player_cartons("ana")[0]
    for n in sorted(ana.carton.numbers - set(e.game.drawn)):
        e.enter_ball(n)
    e.claim("ana", ana.no)
    e.award()
    e.allow_unmark()
    times = {0: (1000.0, 1000.0 + 20 * 60), 1: (3000.0, 3000.0 + 35 * 60)}
    snap = public_snapshot(e, "Comité des fêtes", "ABCDEF", game_times=times)
    assert snap["scene"] == "end"
    assert [(w["game"], w["lot"], w["names"]) for w in snap["evening_winners"]] == [
        ("Partie 1", "Jambon", "Ana"),
        ("Partie 2", "Jambon", "Ana"),
        ("Partie 2", "Vélo", "Ana"),
    ]
    assert [(g["no"], g["duration"]) for g in snap["numbers_games"]] == [
        (1, "20 min"),
        (2, "35 min"),
    ]
    bars = {b["n"]: b for b in snap["numbers_bars"]}
    assert len(bars) == 90 and snap["numbers_highest"] >= 1
    both = set(e.games[0].drawn) & set(e.games[1].drawn)
    assert all(bars[n]["times"] == 2 and bars[n]["height"] == 100 for n in both)
    assert snap["numbers_summary"].startswith(
        f"{len(e.games[0].drawn) + len(e.games[1].drawn)} numéros tirés en 2 parties."
    )


def test_a_draws_message_stays_small_with_partners_and_photos() -> None:
    """The picture of every draw goes to every phone: the show adds a few short keys to it
    (twelve partners' names and addresses at most), not the program nor the winners."""
    e = Evening(PROGRAM, b"k" * 32)
    plain_e = Evening(PROGRAM, b"k" * 32)
    for x in (e, plain_e):
        x.start_game()
        x.enter_ball(7)
    for i in range(12):
        e.add_partner(f"Partenaire numéro {i}", f"{i:064x}")
    e.set_lot_photo("Jambon", HAM)
    size = len(json.dumps(public_snapshot(e, "Comité", "ABCDEF")))
    plain = len(json.dumps(public_snapshot(plain_e, "Comité", "ABCDEF")))
    assert size - plain < 12 * 130 + 60, (size, plain)
