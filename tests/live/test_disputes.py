"""The animateur's and the organiser's forms for ties and disputes, and the public picture of a
claim's control (last call, read-back): pure, on the engine."""

from __future__ import annotations

import random

import pytest

from loto_app.domain import errors as err
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
    TokenSource,
)
from loto_app.domain.serial import check_code
from loto_app.live.input.disputes import (
    decision_move,
    read_decision,
    read_tokens,
    read_withdrawal,
    tokens_for,
)
from loto_app.live.input.guards import BadInput
from loto_app.live.present.snapshot import public_snapshot
from loto_app.live.present.views import private_view

CHAINED = GameSpec(
    Kind.CLASSIQUE,
    (
        Stage(Pattern.ONE_LINE, Lot("Jambon")),
        Stage(Pattern.TWO_LINES, Lot("Bon d'achat", divisible=True)),
    ),
)


def tied(last_call: int = 5, paper: bool = False) -> tuple[Evening, dict[str, int], int]:
    """Ana and Bob (a paper player, with `paper`) each hold a carton whose first row
    completes on the same number x."""
    e = Evening(
        Program(
            "A",
            (CHAINED,),
            Settings(
                DrawSource.PHYSICAL, last_call_seconds=last_call, token_source=TokenSource.BAG
            ),
        ),
        b"k",
    )
    rng = random.Random(11)
    mine: dict[str, int] = {}
    x = None
    for p in ("ana", "bob"):
        e.join(p, p.title(), "paper" if paper and p == "bob" else "hall")
        while p not in mine:
            e.sell(p, Kind.CLASSIQUE, 1, rng=rng)
            c = e.player_cartons(p)[-1]
            x = x or max(c.carton.rows[0])
            if x in c.carton.rows[0]:
                mine[p] = c.no
    assert x is not None
    e.start_game()
    rows = set().union(*(e.cartons[n].carton.rows[0] for n in mine.values()))
    for n in sorted(rows - {x}):
        e.enter_ball(n)
    e.enter_ball(x)
    return e, mine, x


def snap(e: Evening) -> dict:
    return public_snapshot(e, "Loto", "ABCDEF")


def test_the_last_call_is_public_in_the_word_of_the_stage_then_the_award_opens():
    e, mine, x = tied()
    e.claim("ana", mine["ana"])
    s = snap(e)
    assert s["last_call"] and s["last_call_text"] == "Pas d'autre quine ?"
    assert s["last_call_seconds"] == 5 and s["last_call_key"] == f"0-0-{x}"
    assert not s["award_allowed"] and not s["draw_allowed"]
    e.close_last_call()
    s = snap(e)
    assert not s["last_call"] and s["award_allowed"]


def test_the_read_back_shows_the_claimed_carton_the_winning_line_and_the_last_number():
    e, mine, x = tied()
    e.claim("ana", mine["ana"])
    s = snap(e)
    assert s["readback_on"] and s["readback_cols"] == 9
    assert s["readback_title"] == f"Contrôle — carton n° {mine['ana']}"
    assert s["readback_caption"] == f"Ana — Quine sur le {x} : Annonce valide"
    (cells,) = s["readback_cartons"]
    assert len(cells) == 27
    row0 = e.cartons[mine["ana"]].carton.rows[0]
    assert {c["n"] for c in cells if c["win"]} == set(row0)
    assert [c["n"] for c in cells if c["last"]] == [x]
    bob = e.cartons[mine["bob"]].carton.numbers
    assert not ({c["n"] for c in cells} - {0}) & (bob - e.cartons[mine["ana"]].carton.numbers)


def test_after_the_award_the_button_says_the_next_stage_and_a_quine_claim_is_a_reclamation():
    e, mine, x = tied(last_call=0)
    e.claim("ana", mine["ana"])
    assert private_view(e, "ana").claimed and not private_view(e, "bob").claimed
    e.award()
    s = snap(e)
    # the word of the stage now in play, at once (docs/RULES.md, Claims)
    assert s["claim_word"] == "DOUBLE QUINE !"
    assert s["claim_confirm"] == "Confirmer : DOUBLE QUINE ?"
    assert s["stage_label"] == "Double quine" and s["claim_open"]
    # the winner has nothing more to claim on this number: her phone does not invite her
    assert private_view(e, "ana").claimed
    # before the next number a claim is still judged on the quine: Bob's genuine quine is a
    # réclamation, never a fausse annonce
    e.claim("bob", mine["bob"])
    s = snap(e)
    assert s["reclamations"] == 1
    assert "après l'attribution" in s["announcement"]
    bob = private_view(e, "bob")
    assert "réclamation est transmise" in bob.verdict
    assert f"bon pour la quine sur le {x}" in bob.verdict and not bob.claimed


def test_the_tokens_form_maps_typed_tokens_to_the_tied_players_in_order():
    e, mine, _ = tied(last_call=0)
    for p, no in mine.items():
        e.claim(p, no)
    s = snap(e)
    assert [t["name"] for t in s["tied"]] == ["Ana", "Bob"] and s["draw_allowed"]
    key, numbers = read_tokens({"tie": s["tie_key"], "token-0": "12", "token-1": " 47 "})
    assert tokens_for(e, key, numbers) == {"ana": 12, "bob": 47}
    with pytest.raises(err.InvalidTokens):  # a form filled for another tie
        tokens_for(e, "0-0-1", numbers)
    with pytest.raises(err.InvalidTokens):
        tokens_for(e, key, [12])
    for bad in (
        {"tie": s["tie_key"], "token-0": "0"},
        {"tie": s["tie_key"], "token-0": "91"},
        {"tie": s["tie_key"], "token-0": "douze"},
        {"tie": s["tie_key"]},
        {"token-0": "12"},
    ):
        with pytest.raises(BadInput):
            read_tokens(bad)


def test_decision_forms_are_read_strictly():
    assert read_decision({"claim": "3", "decision": "lot", "reason": " Vu "}) == (3, "lot", "Vu")
    assert read_withdrawal({"ticket": "2", "reason": "Erreur"}) == (2, "Erreur")
    for bad in (
        {"claim": "3", "decision": "delete", "reason": "x"},
        {"claim": "3", "decision": "lot", "reason": "  "},
        {"claim": "x", "decision": "lot", "reason": "x"},
        {"claim": "3", "decision": ["lot"], "reason": "x"},
    ):
        with pytest.raises(BadInput) as refused:
            read_decision(bad)
        assert refused.value.user_message != BadInput.default_user_message  # told what is wrong
    with pytest.raises(BadInput):
        read_withdrawal({"ticket": "0", "reason": "x"})


def test_a_decision_reaches_the_player_concerned_and_the_hall():
    e, mine, _ = tied(last_call=0)
    made = e.claim("ana", mine["ana"])[0]
    e.award()
    decision_move(made.claim_no, "lot", "organisateur", "Deux lots prévus")(e)
    assert any("un lot vous est donné" in d for d in private_view(e, "ana").decisions)
    assert private_view(e, "bob").decisions == []
    assert "Décision de l'organisateur" in snap(e)["announcement"]
    (ticket,) = [t for t in private_view(e, "ana").tickets if t.no == 2]
    assert not ticket.voided
    e.withdraw_award(2, "animateur", "Erreur de saisie")
    (ticket,) = [t for t in private_view(e, "ana").tickets if t.no == 2]
    assert ticket.voided
    with pytest.raises(err.DisputeRefused):
        decision_move(99, "reinstate", "animateur", "x")(e)


def test_a_paper_claim_is_read_back_from_the_serie_too():
    e, mine, x = tied(last_call=0, paper=True)
    no = mine["bob"]
    e.paper_claim("A", no, check_code(b"k", "A", no))  # Bob's paper carton, at the desk
    s = snap(e)
    assert s["readback_on"]
    assert s["readback_title"] == f"Contrôle — carton n° {no} (carton papier)"
    assert s["readback_caption"] == f"Bob — Quine sur le {x} : Annonce valide"
    assert {c["n"] for c in s["readback_cartons"][0] if c["win"]} == set(
        e.cartons[no].carton.rows[0]
    )
    e.paper_claim("A", 9999, "XXXX")  # another série: not a carton to read back
    assert snap(e)["readback_title"] == f"Contrôle — carton n° {no} (carton papier)"
