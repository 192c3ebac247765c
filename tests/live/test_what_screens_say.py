"""What the screens say is true at that moment (pure, on the engine): the claim button's word
after every award, nobody invited to claim what they cannot, the tie told in full (with whom,
which lot, both cartons read back, the share named), the games a carton bought now plays, and
the tie's players told when it grows (loto_app/live/present/, broadcast.touched_players)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.games import TieRule
from loto_app.domain.program import (
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Pattern,
    Program,
    Settings,
    Stage,
    TieMethod,
    TokenSource,
)
from loto_app.live.present.snapshot import CLAIM_WORDS, claim_word, public_snapshot
from loto_app.live.present.views import CLAIM_IN, JUST_WON, kind_games, private_view
from loto_app.live.runtime.broadcast import touched_players

THREE = GameSpec(
    Kind.CLASSIQUE,
    (
        Stage(Pattern.ONE_LINE, Lot("Jambon")),
        Stage(Pattern.TWO_LINES, Lot("Bons d'achat de 40 €", divisible=True)),
        Stage(Pattern.FULL_CARD, Lot("Vélo")),
    ),
)
LAST = GameSpec(Kind.CLASSIQUE, (Stage(Pattern.FULL_CARD, Lot("Téléviseur")),))


def snap(e: Evening) -> dict:
    return public_snapshot(e, "Loto", "ABCDEF")


def evening(seconds: int = 0, tie: TieMethod = TieMethod.SHARE_OR_DRAW) -> Evening:
    settings = Settings(
        DrawSource.PHYSICAL, last_call_seconds=seconds, tie_method=tie, token_source=None
    )
    return Evening(Program("A", (THREE, LAST), settings), b"k")


def seated(e: Evening, players: tuple[str, ...], rng: random.Random) -> dict[str, int]:
    """Each player joins with one classique carton."""
    out = {}
    for p in players:
        e.join(p, p.title())
        e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
        out[p] = e.player_cartons(p)[-1].no
    return out


def complete(e: Evening, carton: int, rows: int) -> None:
    """Type the balls that complete the first `rows` rows of a carton (those not out yet)."""
    c = e.cartons[carton].carton
    for row in c.rows[:rows]:
        for n in sorted(row - set(e.game.drawn)):
            e.enter_ball(n)


def test_the_claim_word_follows_every_award_at_once_and_nothing_is_left_to_claim_after():
    e = evening()
    mine = seated(e, ("ana", "bob"), random.Random(2))
    assert snap(e)["claim_word"] == "QUINE !" and not snap(e)["claim_open"]  # before the game
    e.start_game()
    for rows, word in ((1, "DOUBLE QUINE !"), (2, "CARTON PLEIN !"), (3, "")):
        complete(e, mine["ana"], rows)
        e.claim("ana", mine["ana"])
        e.award()
        s = snap(e)
        assert s["claim_word"] == word  # the next stage, before the next number
        assert private_view(e, "ana").claimed  # the winner is not invited on this number
        assert not private_view(e, "bob").claimed
    # every lot awarded: no invitation to claim on any phone, the game waits for démarquage
    assert not snap(e)["claim_open"] and snap(e)["claim_confirm"] == ""
    e.allow_unmark()
    assert snap(e)["claim_word"] == "CARTON PLEIN !"  # the next game's first stage


@given(st.integers(0, 10_000), st.lists(st.sampled_from(["draw", "claim", "award"]), max_size=60))
def test_the_claim_word_is_always_the_stage_in_play(seed: int, moves: list[str]):
    """Whatever happens, the button's word is the stage in play (none once all are awarded),
    and a phone invites to claim only while a stage is left and a number is out."""
    rng = random.Random(seed)
    e = evening()
    players = seated(e, ("ana", "bob", "cleo"), rng)
    e.start_game()
    for move in moves:
        g = e.game
        try:
            if move == "draw":
                e.enter_ball(rng.choice([n for n in range(1, 91) if n not in g.drawn]))
            elif move == "claim":
                p = rng.choice(list(players))
                e.claim(p, players[p])
            else:
                e.award()
        except Exception:
            continue
        g = e.game
        s = snap(e)
        if g.stage < len(g.spec.stages):
            assert s["claim_word"] == f"{CLAIM_WORDS[g.spec.stages[g.stage].pattern]}\u202f!"
            assert s["claim_open"] == bool(g.drawn)
        else:
            assert s["claim_word"] == "" and not s["claim_open"]
        assert claim_word(e) == s["claim_word"]
        for p in players:
            v = private_view(e, p)
            mine = [c for c in g.claims if c.player_id == p and c.number == g.last and g.drawn]
            if v.claimed:  # a valid claim of theirs on the last number, judged on its stage
                assert any(c.verdict == "valid" and c.stage == g.claim_stage for c in mine)


def tied(settings: Settings) -> tuple[Evening, dict[str, int]]:
    """Ana's and Bob's cartons, whose first rows complete on the same number, just drawn: a
    quine on a lot that can be shared."""
    shared = GameSpec(
        Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Bons d'achat de 40 €", divisible=True)),)
    )
    e = Evening(Program("A", (shared,), settings), b"k")
    rng = random.Random(5)
    x, mine = None, {}
    for p in ("ana", "bob"):
        e.join(p, p.title())
        while p not in mine:
            e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(p)[-1]
            x = x or max(c.carton.rows[0])
            if x in c.carton.rows[0]:
                mine[p] = c.no
    e.start_game()
    rows = set().union(*(e.cartons[n].carton.rows[0] for n in mine.values()))
    for n in sorted(rows - {x}):
        e.enter_ball(n)
    e.enter_ball(x)
    return e, mine


def test_a_tie_is_told_in_full_on_each_phone_the_tablet_and_the_hall():
    e, mine = tied(Settings(DrawSource.PHYSICAL, last_call_seconds=0))
    e.claim("ana", mine["ana"])
    assert "l'animateur va attribuer le lot" in private_view(e, "ana").verdict  # alone so far
    claimed = e.claim("bob", mine["bob"])
    # Ana's phone learns that Bob joined her (she made no move): her view is refreshed
    assert touched_players(claimed, _live(e)) == {"ana"}
    ana, bob = private_view(e, "ana"), private_view(e, "bob")
    assert "ex aequo avec Bob" in ana.verdict and "ex aequo avec Ana" in bob.verdict
    assert "proposer de partager le lot (moitié chacun)" in ana.verdict
    assert "attribuer le lot" not in ana.verdict
    s = snap(e)
    assert s["readback_title"] == "Contrôle — ex aequo : 2 cartons gagnants"
    assert len(s["readback_cartons"]) == 2
    assert s["readback_labels"] == [
        f"Ana — carton n° {mine['ana']}",
        f"Bob — carton n° {mine['bob']}",
    ]
    assert {c["n"] for c in s["readback_cartons"][1] if c["win"]} == set(
        e.cartons[mine["bob"]].carton.rows[0]
    )
    assert "divisible" not in repr(s)
    e.offer_share()
    ana = private_view(e, "ana")
    assert ana.share_offer and ana.share_with == "Bob" and ana.share_lot == "Bons d'achat de 40 €"
    assert "Répondez ci-dessous" in ana.verdict
    answered = e.answer_share("ana", True)
    assert "bob" in touched_players(answered, _live(e))
    assert "en attente de l'autre joueur" in private_view(e, "ana").verdict
    e.answer_share("bob", True)
    assert snap(e)["announcement"] == (
        "Lot partagé\u00a0: Bons d'achat de 40 € — moitié pour Ana, moitié pour Bob."
    )


def test_a_draw_only_evening_says_the_tokens_decide():
    e, mine = tied(Settings(DrawSource.PHYSICAL, last_call_seconds=0, tie_method=TieMethod.DRAW))
    for p, no in mine.items():
        e.claim(p, no)
    assert "tirage au sort des jetons désigne le gagnant" in private_view(e, "ana").verdict
    assert not snap(e)["share_first"]


def test_the_games_a_carton_plays_change_for_every_phone_with_the_first_number():
    e = evening()
    seated(e, ("ana",), random.Random(1))
    assert kind_games(e) == {"classique": "Joue les parties 1 et 2."}
    e.start_game()
    assert kind_games(e) == snap(e)["kind_games"] == {"classique": "Joue les parties 1 et 2."}
    e.enter_ball(7)  # the first number: a carton bought now plays the next game
    assert snap(e)["kind_games"] == {"classique": "Joue la partie 2\u00a0: Téléviseur."}
    # the offers are no phone's private data any more
    assert not hasattr(private_view(e, "ana"), "offer_groups")


def test_a_carton_for_the_next_game_is_not_in_play_and_an_annulled_one_cannot_be_claimed():
    e = evening()
    mine = seated(e, ("ana",), random.Random(9))
    e.start_game()
    first = sorted(e.cartons[mine["ana"]].carton.rows[0])
    e.enter_ball(first[0])
    e.sell("ana", Kind.CLASSIQUE, 1, rng=random.Random(4))  # after the first number
    e.claim("ana", mine["ana"])  # a false claim: annulled for the game
    v = private_view(e, "ana")
    annulled, later = v.cartons
    assert annulled.annulled and annulled.plays and not later.plays
    assert not v.in_play  # nothing of hers can claim now: the last call does not invite her
    assert e.game.status is GameStatus.RUNNING


def _live(e: Evening):
    """A stand-in for the registry's LiveEvening: what touched_players reads of it."""

    class Live:
        evening = e

    return Live()


def two_on_one_number(e: Evening, rng: random.Random) -> tuple[int, int, int, int]:
    """Ana's cartons: two whose rows complete on one same number x (from two planches: the
    cartons of one planche share no number) and a third, of the first planche, that cannot
    complete a row on those numbers: (first, second, other, x)."""
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 7, rng=rng)  # a planche of 6, and one of the next
    cartons = [c.no for c in e.player_cartons("ana")]
    second = cartons[6]
    for first in cartons[:6]:
        for row in e.cartons[first].carton.rows:
            shared = row & e.cartons[second].carton.rows[0]
            if shared:
                other = next(n for n in cartons[:6] if n != first)
                return first, second, other, max(shared)
    raise AssertionError("no shared number")  # (each planche holds every number once)


def type_rows(e: Evening, rows: list[frozenset[int]], x: int) -> None:
    """The balls of these rows, x last."""
    for n in sorted(set().union(*rows) - {x}):
        e.enter_ball(n)
    e.enter_ball(x)


def test_each_carton_says_its_own_claim_and_a_second_winner_of_one_number_stays_claimable():
    e = evening()
    first, second, other, x = two_on_one_number(e, random.Random(3))
    e.start_game()
    rows = [r for r in e.cartons[first].carton.rows if x in r] + [e.cartons[second].carton.rows[0]]
    type_rows(e, rows, x)
    e.claim("ana", first)
    v = private_view(e, "ana")
    holds = {c.no: c.hold for c in v.cartons}
    assert holds[first] == CLAIM_IN  # the carton that claimed, and that one only
    assert holds[second] == holds[other] == ""
    assert v.claimed and v.may_claim  # the last call still invites her, for another carton
    s = snap(e)
    assert s["claim_open"] and s["claim_word"] == "QUINE\u202f!"
    # the second winning carton's claim is taken, and valid (one entry for her, still)
    (made,) = [x for x in e.claim("ana", second) if isinstance(x, ev.ClaimMade)]
    assert made.verdict == "valid" and e.game.entries() == ("ana",)
    v = private_view(e, "ana")
    assert {c.no: c.hold for c in v.cartons}[second] == CLAIM_IN
    assert "Annonce valide sur le" in v.verdict and "ex aequo" not in v.verdict
    s = snap(e)
    # both read back, as her two winning cartons: no ex aequo of her with herself
    assert s["readback_title"] == "Contrôle — 2 cartons gagnants"
    assert s["readback_caption"].startswith("Ana — Quine sur le")
    assert len(s["readback_cartons"]) == 2
    # the lot awarded: she has just won, none of her cartons invites her on this number
    e.award()
    v = private_view(e, "ana")
    holds = {c.no: c.hold for c in v.cartons}
    assert holds[first] == holds[second] == CLAIM_IN and holds[other] == JUST_WON
    assert not v.may_claim and v.in_play
    # the next number: nothing holds any more
    e.enter_ball(next(n for n in range(1, 91) if n not in e.game.drawn))
    v = private_view(e, "ana")
    assert all(c.hold == "" for c in v.cartons) and v.may_claim


def test_the_tablet_says_who_lost_the_tie_and_the_consolation_the_engine_gave():
    # two games: the loser's consolation is a free carton for game 2
    e = evening()
    rng = random.Random(5)
    mine: dict[str, int] = {}
    x = None
    for p in ("ana", "bob"):
        e.join(p, p.title())
        while p not in mine:
            e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(p)[-1]
            x = x or max(c.carton.rows[0])
            if x in c.carton.rows[0]:
                mine[p] = c.no
    e.start_game()
    type_rows(e, [e.cartons[n].carton.rows[0] for n in mine.values()], x)
    for p, no in mine.items():
        e.claim(p, no)
    rows = {r["name"]: r for r in snap(e)["claims"]}
    assert not rows["Ana"]["tie_lost"] and rows["Ana"]["label"] == "Annonce valide"
    e.break_tie_with_tokens({"ana": 12, "bob": 47}, rng=rng)
    rows = {r["name"]: r for r in snap(e)["claims"]}
    assert rows["Ana"]["tie_lost"] and rows["Ana"]["verdict"] == "valid"
    assert rows["Ana"]["label"] == (
        "Ex aequo perdu au tirage des jetons\u00a0: carton offert pour la partie 2"
    )
    assert not rows["Bob"]["tie_lost"] and rows["Bob"]["label"] == "Annonce valide"
    assert private_view(e, "bob").verdict.endswith(  # (not "un tirage ... désigne le gagnant")
        "Tirage des jetons gagné\u00a0: l'animateur va vous attribuer le lot."
    )
    e.award()
    assert {r["name"]: r["tie_lost"] for r in snap(e)["claims"]} == {"Ana": True, "Bob": False}
    assert private_view(e, "ana").verdict == (
        "Ex aequo perdu au tirage des jetons\u00a0: un carton vous est offert."
    )

    # one game only: no game left for a free carton, a "carton offert" voucher
    e, mine = tied(Settings(DrawSource.PHYSICAL, last_call_seconds=0, tie_method=TieMethod.DRAW))
    for p, no in mine.items():
        e.claim(p, no)
    e.break_tie_with_tokens({"ana": 47, "bob": 12})
    rows = {r["name"]: r for r in snap(e)["claims"]}
    assert rows["Bob"]["tie_lost"] and not rows["Ana"]["tie_lost"]
    assert rows["Bob"]["label"] == (
        "Ex aequo perdu au tirage des jetons\u00a0: bon «\u00a0carton offert\u00a0»"
    )


def test_the_phones_of_a_mort_subite_say_the_mort_subite_not_the_tokens():
    """A partie rapide settled by mort subite: the tied players' phones said "Un tirage au sort
    des jetons désigne le gagnant", and the loser's "Ex aequo perdu au tirage des jetons",
    though no token was drawn (the tablet said the mort subite)."""
    rapide = GameSpec(
        Kind.CLASSIQUE,
        (Stage(Pattern.ONE_LINE, Lot("Jambon")),),
        type="rapide",
        tie=TieRule.SUDDEN_DEATH,
    )
    settings = Settings(DrawSource.PHYSICAL, last_call_seconds=0, token_source=TokenSource.BAG)
    e = Evening(Program("A", (rapide, LAST), settings), b"k")
    rng = random.Random(5)
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 1, rng=rng)
    e.join("bob", "Bob")
    e.sell("bob", Kind.CLASSIQUE, planche=True, rng=rng)  # every number once: one shares
    a = e.player_cartons("ana")[0]
    x = max(a.carton.rows[0])
    b = next(c for c in e.player_cartons("bob") if any(x in r for r in c.carton.rows))
    e.start_game()
    type_rows(e, [a.carton.rows[0], next(r for r in b.carton.rows if x in r)], x)
    e.claim("ana", a.no)
    e.claim("bob", b.no)
    assert e.game.entries() == ("ana", "bob")
    # while it is settled, the phones say the mort subite, not the tokens
    for p, other in (("ana", "Bob"), ("bob", "Ana")):
        said = private_view(e, p).verdict
        assert f"ex aequo avec {other}." in said and "Mort subite" in said, said
        assert "jetons" not in said, said
    # the hall screen says the game's rule with the tie, and each extra ball as one
    assert snap(e)["announcement"].endswith(
        "Départage par mort subite\u00a0: des boules en plus, une à la fois."
    )
    drawn = set(e.game.drawn)
    neither = min(set(range(1, 91)) - drawn - a.carton.numbers - b.carton.numbers)
    e.sudden_death_ball(neither)
    assert snap(e)["announcement"] == (
        f"Mort subite, boule en plus\u00a0: le {neither}. Encore en lice\u00a0: Ana, Bob."
    )
    said = private_view(e, "ana").verdict
    assert said.endswith(f"Boules en plus\u00a0: {neither} — vous restez en lice avec Bob."), said
    decisive = min(b.carton.numbers - a.carton.numbers - drawn)
    e.sudden_death_ball(decisive)
    assert snap(e)["announcement"] == (
        f"Mort subite\u00a0: Bob gagne avec le {decisive}\u202f! "
        f"Boules en plus\u00a0: {neither}, {decisive}."
    )
    assert e.game.tie.broken is not None and e.game.tie.broken.winners == ("bob",)
    # the winner, before the award (this raised: nobody else left to name)
    assert private_view(e, "bob").verdict.endswith(
        "Mort subite gagnée\u00a0: l'animateur va vous attribuer le lot."
    )
    rows = {r["name"]: r for r in snap(e)["claims"]}
    assert rows["Ana"]["label"] == (
        "Ex aequo perdu à la mort subite\u00a0: carton offert pour la partie 2"
    )
    lost = "Ex aequo perdu à la mort subite\u00a0: un carton vous est offert."
    assert private_view(e, "ana").verdict == lost
    e.award()
    assert private_view(e, "ana").verdict == lost
    assert private_view(e, "bob").verdict.startswith("Gagné\u202f! Jambon")


def each_or_draw(rule: TieRule) -> Evening:
    """Ana and Bob tied on the quine of a quine et carton with this tie rule, on a divisible
    lot of an evening that offers the share first (its own rule goes first)."""
    game = GameSpec(
        Kind.CLASSIQUE,
        (
            Stage(Pattern.ONE_LINE, Lot("Bons d'achat de 40 €", 4000, divisible=True)),
            Stage(Pattern.FULL_CARD, Lot("Bon d'achat de 200 €", 20000, divisible=True)),
        ),
        type="quine_et_carton",
        tie=rule,
    )
    settings = Settings(
        DrawSource.PHYSICAL, last_call_seconds=0, tie_method=TieMethod.SHARE_OR_DRAW
    )
    e = Evening(Program("A", (game, LAST), settings), b"k")
    rng = random.Random(7)
    e.join("ana", "Ana")
    e.sell("ana", Kind.CLASSIQUE, 1, rng=rng)
    e.join("bob", "Bob")
    e.sell("bob", Kind.CLASSIQUE, planche=True, rng=rng)
    a = e.player_cartons("ana")[0]
    x = max(a.carton.rows[0])
    b = next(c for c in e.player_cartons("bob") if any(x in r for r in c.carton.rows))
    e.start_game()
    type_rows(e, [a.carton.rows[0], next(r for r in b.carton.rows if x in r)], x)
    e.claim("ana", a.no)
    e.claim("bob", b.no)
    assert e.game.entries() == ("ana", "bob")
    return e


def test_the_phones_of_a_tie_where_each_wins_a_lot_say_so_and_then_each_ticket():
    e = each_or_draw(TieRule.EACH)
    for p in ("ana", "bob"):
        said = private_view(e, p).verdict
        assert said.endswith(
            "Chacun de vous gagne un lot identique\u00a0: l'animateur va l'attribuer."
        ), said
    s = snap(e)
    assert (
        s["tie"] and s["award_allowed"] and s["tie_rule_label"] == "Chacun gagne un lot identique"
    )
    e.award()
    assert snap(e)["announcement"] == (
        "Quine\u00a0: Bons d'achat de 40 € pour Ana et Bob, un lot chacun\u202f!"
    )
    for p in ("ana", "bob"):
        assert private_view(e, p).verdict.startswith(
            "Gagné\u202f! Bons d'achat de 40 €\u00a0: ticket"
        )


def test_a_games_own_token_draw_is_said_even_on_a_divisible_lot_of_a_share_first_evening():
    said = private_view(each_or_draw(TieRule.DRAW), "ana").verdict
    assert said.endswith("Un tirage au sort des jetons désigne le gagnant."), said


def test_a_tie_whose_game_shares_the_lot_says_so_on_the_phones_and_the_hall():
    e = each_or_draw(TieRule.SHARE)
    said = private_view(e, "ana").verdict
    assert said.endswith("Vous vous partagez le lot\u00a0: l'animateur va l'attribuer."), said
    e.award()
    assert snap(e)["announcement"] == (
        "Quine\u00a0: Bons d'achat de 40 € pour Ana et Bob, lot partagé\u202f!"
    )
