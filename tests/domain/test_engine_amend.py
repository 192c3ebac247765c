"""The organiser amends the program: only the games not started yet, the tariff, and
the settings no game in play depends on; the legal checks are the program's own; cartons
already sold keep their price and their games; the amendment is an event that replays."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening, GameStatus
from loto_app.domain.program import (
    LEGAL_CASH_MESSAGE,
    LEGAL_PRICE_MESSAGE,
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Offer,
    Pattern,
    Program,
    Settings,
    Stage,
    demo_program,
)

KEY = b"k" * 32


def fresh() -> Evening:
    program = demo_program("A").with_settings(draw_source=DrawSource.PHYSICAL)
    e = Evening(program, KEY)
    e.join("p1", "Paul")
    e.sell("p1", Kind.CLASSIQUE, 2, rng=random.Random(1))
    return e


def refusal(e: Evening, program: Program) -> str:
    """The French reason an amendment is refused for (the evening unchanged)."""
    before = e.fingerprint()
    with pytest.raises(err.AmendmentRefused) as refused:
        e.amend_program(program)
    assert e.fingerprint() == before
    return refused.value.user_message


def finish_game(e: Evening) -> None:
    """Nobody claims: all 90 numbers out, then démarquage ends the game."""
    for n in range(1, 91):
        e.enter_ball(n)
    e.allow_unmark()


def with_game(program: Program, i: int, game: GameSpec) -> Program:
    games = list(program.games)
    games[i] = game
    return dataclasses.replace(program, games=tuple(games))


def relot(program: Program, i: int, description: str) -> Program:
    """Game i with the lot of its first stage described anew."""
    g = program.games[i]
    first = dataclasses.replace(g.stages[0], lot=Lot(description, 1234))
    return with_game(program, i, dataclasses.replace(g, stages=(first, *g.stages[1:])))


def test_a_later_game_is_amended_while_game_1_is_in_play_and_game_1_is_refused():
    e = fresh()
    base = e.program
    e.start_game()
    e.enter_ball(5)
    # game 2: a new lot for its quine, a double quine added between quine and carton plein
    g2 = GameSpec(
        Kind.CLASSIQUE,
        (
            Stage(Pattern.ONE_LINE, Lot("Cafetière", 4000)),
            Stage(Pattern.TWO_LINES, Lot("Bouteilles", 3000)),
            Stage(Pattern.FULL_CARD, Lot("Vélo", 20000)),
        ),
    )
    out = e.amend_program(with_game(base, 1, g2), "organisateur")
    assert [type(x) for x in out] == [ev.ProgramAmended]
    assert out[0].from_game == 1
    assert e.program.games[1] == g2
    # game 1 is in play: its lots stay
    with pytest.raises(err.AmendmentRefused) as refused:
        e.amend_program(relot(e.program, 0, "Autre lot"))
    assert refused.value.user_message == "La partie 1 a commencé : elle ne peut plus être modifiée."
    assert e.program.games[1] == g2
    # the amended game is the one played
    for n in range(1, 91):
        if n != 5:
            e.enter_ball(n)
    e.allow_unmark()
    e.start_game()
    assert e.game is not None and e.game.spec == g2
    # the log replays to the same evening
    again = Evening.replay(base, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
    assert again.fingerprint() == e.fingerprint()
    assert again.program == e.program


def test_a_finished_game_stays_as_played_and_the_next_is_open_until_it_starts():
    e = fresh()
    e.start_game()
    finish_game(e)
    assert "La partie 1 a commencé" in refusal(e, relot(e.program, 0, "Trop tard"))
    e.amend_program(relot(e.program, 1, "Jambon sec"))
    assert e.program.games[1].stages[0].lot.description == "Jambon sec"
    e.start_game()
    with pytest.raises(err.AmendmentRefused) as refused:
        e.amend_program(relot(e.program, 1, "Encore"))
    assert "La partie 2 a commencé" in refused.value.user_message


def test_settings_of_the_game_in_play_wait_for_its_end_and_the_stream_does_not():
    e = fresh()
    e.start_game()
    assert "en cours" in refusal(e, e.program.with_settings(auto_marking=True))
    assert "en cours" in refusal(e, e.program.with_settings(last_call_seconds=10))
    e.amend_program(e.program.with_settings(stream_url="https://video.example.org/loto"))
    assert e.program.settings.stream_url == "https://video.example.org/loto"
    finish_game(e)
    e.amend_program(e.program.with_settings(auto_marking=True, last_call_seconds=10))
    assert e.program.settings.auto_marking


def test_the_serie_and_free_cartons_after_a_sale_do_not_change():
    e = fresh()
    assert "série" in refusal(e, dataclasses.replace(e.program, series="B"))
    e.desk_sale("p1", 0, "cash", "Alice")
    assert "gratuit" in refusal(e, e.program.with_settings(free_cartons=True))


def test_a_tariff_change_leaves_the_cartons_sold_at_their_price():
    e = fresh()
    e.desk_sale("p1", 0, "cash", "Alice")
    before = e.sales[1].amount_cents
    offers = (Offer(Kind.CLASSIQUE, 1, 400), *e.program.offers[1:])
    e.amend_program(dataclasses.replace(e.program, offers=offers))
    assert e.sales[1].amount_cents == before == 300
    e.desk_sale("p1", 0, "cash", "Alice")
    assert e.sales[2].amount_cents == 400


def test_sold_cartons_keep_a_game_of_their_kind():
    e = fresh()
    e.sell("p1", Kind.SPECIAL, 1, rng=random.Random(2))
    without_special = dataclasses.replace(
        e.program,
        games=tuple(g for g in e.program.games if g.kind is not Kind.SPECIAL),
        offers=tuple(o for o in e.program.offers if o.kind is not Kind.SPECIAL),
    )
    assert "spéciale" in refusal(e, without_special)
    # a kind nobody bought may go
    no_vitrine = dataclasses.replace(
        e.program,
        games=tuple(g for g in e.program.games if g.kind is not Kind.VITRINE),
        offers=tuple(o for o in e.program.offers if o.kind is not Kind.VITRINE),
    )
    e.amend_program(no_vitrine)
    assert Kind.VITRINE not in e.program.kinds()


def test_the_legal_checks_are_those_of_creation():
    with pytest.raises(err.InvalidProgram) as cash:
        Lot("100 €", cash=True)
    assert cash.value.user_message == LEGAL_CASH_MESSAGE
    with pytest.raises(err.InvalidProgram) as price:
        Offer(Kind.CLASSIQUE, 1, 2000)
    assert price.value.user_message == LEGAL_PRICE_MESSAGE


def test_no_change_and_not_a_program_and_an_evening_over_are_refused():
    e = fresh()
    assert "Aucun changement" in refusal(e, e.program)
    with pytest.raises(err.InvalidArgument):
        e.amend_program(e.program.to_dict())  # type: ignore[arg-type]
    one = (demo_program().games[0],)
    short = Evening(Program("A", one, Settings(DrawSource.PHYSICAL)), KEY)
    short.start_game()
    finish_game(short)
    assert short.is_over
    assert "terminée" in refusal(short, relot(short.program, 0, "x"))


@given(
    played=st.integers(0, 3),
    running=st.booleans(),
    target=st.integers(0, 5),
    words=st.text("abcdefghij ", min_size=1, max_size=20).filter(str.strip),
)
def test_an_amendment_is_accepted_exactly_for_the_games_not_started(
    played: int, running: bool, target: int, words: str
):
    """Whatever the point of the evening: a lot of game `target` may change iff that game has
    not started; a refusal changes nothing; an accepted amendment replays."""
    e = fresh()
    base = e.program
    for _ in range(played):
        e.start_game()
        finish_game(e)
    if running:
        e.start_game()
        e.enter_ball(1)
    started = len(e.games)
    before = e.fingerprint()
    wanted = relot(e.program, target, words.strip())
    if target < started:
        with pytest.raises(err.AmendmentRefused):
            e.amend_program(wanted)
        assert e.fingerprint() == before
    else:
        e.amend_program(wanted)
        assert e.program == wanted
        assert e.program.games[:started] == base.games[:started]
        again = Evening.replay(base, [ev.event_from_dict(x.to_dict()) for x in e.history], KEY)
        assert again.fingerprint() == e.fingerprint()
    if e.game is not None and e.game.status is not GameStatus.FINISHED:
        assert e.game.spec == base.games[e.game.index]
