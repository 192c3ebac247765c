"""The public and private pictures built from the engine (no Reflex, no database)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

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
from loto_app.live.present.snapshot import (
    STEADY_PACE_SECONDS,
    embed_url,
    public_snapshot,
    rhythm,
)
from loto_app.live.present.views import private_view

QUINE = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),))


def test_embed_url_turns_youtube_links_into_embeds_and_keeps_others():
    embed = "https://www.youtube-nocookie.com/embed/abc_DEF-123?autoplay=1&mute=1"
    assert embed_url("https://www.youtube.com/watch?v=abc_DEF-123") == embed
    assert embed_url("https://youtu.be/abc_DEF-123") == embed
    assert embed_url("https://m.youtube.com/live/abc_DEF-123") == embed
    assert embed_url("https://player.example.org/live/1") == "https://player.example.org/live/1"
    assert embed_url("") == ""


def test_rhythm_says_the_pace_the_way_the_hall_says_it():
    assert rhythm([]) == ""
    assert rhythm([10.0]) == ""
    assert rhythm([0.0, 12.0, 24.0]) == "Environ un numéro toutes les 10 secondes"
    assert rhythm([0.0, 6.0]) == "Environ un numéro toutes les 6 secondes"
    assert rhythm([0.0, 80.0]) == "Environ un numéro toutes les 80 secondes"
    assert rhythm([0.0, 61.0]) == "Environ un numéro par minute"
    assert rhythm([0.0, 90.0]) == "Environ un numéro toutes les 90 secondes"
    assert rhythm([0.0, 300.0]) == "Environ un numéro toutes les 5 minutes"
    # balls typed in a burst (or a catch-up): no pace worth telling the hall
    assert rhythm([0.0, 0.4]) == ""
    assert rhythm([0.0, 1.0, 2.0, 3.0]) == ""


@given(st.lists(st.floats(0, 600), min_size=2, max_size=12).map(sorted))
def test_rhythm_is_shown_only_for_a_steady_pace_and_always_in_words(times: list[float]):
    said = rhythm(times)
    recent = times[-6:]
    gap = (recent[-1] - recent[0]) / (len(recent) - 1)
    assert (said == "") == (gap < STEADY_PACE_SECONDS - 0.5)
    if said:
        assert said.startswith("Environ un numéro ")
        assert said.endswith(("secondes", "minute", "minutes"))
        assert "par seconde" not in said


def _evening() -> Evening:
    e = Evening(Program("A", (QUINE,), Settings(DrawSource.PHYSICAL, last_call_seconds=0)), b"k")
    for p in ("ana", "bob"):
        e.join(p, p.title())
        e.sell(p, Kind.CLASSIQUE, 1, rng=random.Random(7))
    return e


def test_public_snapshot_tells_the_hall_what_happens_and_nothing_private():
    e = _evening()
    snap = public_snapshot(e, "Loto du foot", "ABCDEF")
    assert snap["status"] == "waiting" and snap["can_start"] and not snap["can_draw"]
    e.start_game()
    ana = e.player_cartons("ana")[0]
    first = sorted(ana.carton.rows[0])
    e.enter_ball(first[0])
    e.claim("ana", ana.no)  # too early: a false claim
    snap = public_snapshot(e, "Loto du foot", "ABCDEF")
    assert snap["announcement_kind"] == "false"
    assert "Fausse annonce de Ana" in snap["announcement"]
    assert snap["claims"][0]["verdict"] == "false"
    assert snap["last"] == first[0] and snap["count"] == 1 and snap["claim_open"]
    # no carton is public but the claimed one, read back to the hall (seed 002)
    bob = e.player_cartons("bob")[0]
    text = repr(snap)
    assert "rows" not in text and str(sorted(bob.carton.numbers)) not in text
    shown = {c["n"] for c in snap["readback_cartons"][0]} - {0}
    assert snap["readback_on"] and shown == set(ana.carton.numbers)
    view = private_view(e, "ana")
    assert view.cartons[0].annulled and "Fausse annonce" in view.verdict
    assert private_view(e, "bob").verdict == ""


def test_end_of_evening_is_announced():
    e = _evening()
    e.start_game()
    bob = e.player_cartons("bob")[0]
    for n in sorted(bob.carton.rows[1]):
        e.enter_ball(n)
    e.claim("bob", bob.no)
    e.award()
    e.allow_unmark()
    snap = public_snapshot(e, "Loto", "ABCDEF")
    assert snap["status"] == "over" and not snap["can_start"]
    assert "soirée est terminée" in snap["announcement"]
    assert private_view(e, "bob").tickets[0].lot == "Jambon"


def test_the_commitment_is_public_the_seed_is_not_until_the_game_ends():
    import json

    e = Evening(
        Program("A", (QUINE,), Settings(DrawSource.ELECTRONIC, last_call_seconds=0)), b"k", "ABC"
    )
    e.join("ana", "Ana")
    e.start_game()
    seed = e.sealed[0].hex()
    snap = public_snapshot(e, "Loto", "ABC")
    c = e.game.commitment.commitment
    assert snap["commitment"] == c and snap["commitment_short"] == c[:4].upper() + " " + (
        c[4:8].upper() + " " + c[8:12].upper() + " " + c[12:16].upper()
    )
    assert "avant le premier numéro" in snap["draw_note"] and not snap["draw_revealed"]
    while e.can_draw():
        e.draw()
        assert seed not in json.dumps(public_snapshot(e, "Loto", "ABC"))
    e.allow_unmark()
    after = public_snapshot(e, "Loto", "ABC")
    assert after["draw_revealed"] and "vérifie" in after["draw_note"]
    assert seed not in json.dumps(after)  # (the page /verifier shows it, not every screen)


def test_the_physical_boulier_says_nothing_is_committed_and_a_closed_evening_says_so():
    e = _evening()
    assert public_snapshot(e, "Loto", "ABC")["draw_note"] == ""
    e.start_game()
    snap = public_snapshot(e, "Loto", "ABC")
    assert snap["commitment"] == "" and "rien n'est engagé" in snap["draw_note"]
    e.close_evening("organisateur", "Coupure de courant")
    closed = public_snapshot(e, "Loto", "ABC")
    assert closed["closed"] and closed["status"] == "over"
    assert not closed["can_start"] and not closed["can_draw"] and not closed["claim_open"]
    assert "close" in closed["announcement"]
