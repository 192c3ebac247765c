"""The check before the doors open: which line is green or red, and the French of what to do
(live/present/preflight.py); the roll call's book in one process (live/runtime/roll_call.py)."""

from __future__ import annotations

import asyncio
import re

from hypothesis import given
from hypothesis import strategies as st

from loto_app.live.present import preflight as p
from loto_app.live.runtime.roll_call import SEEN_FOR, MemoryRollCall

URL = "http://192.168.1.20:3000/?code=ABCD"
READY = p.Facts(
    screens=1,
    sound=p.Sound(asked_ago=3.0, answers=(p.PLAYED,)),
    tablets=1,
    desk=(("Paul", "vendeur"), ("Marie", "caissier")),
    pdf_seconds=0.42,
    phones=2,
    address=p.Address(URL, result="ok"),
)


def _line(f: p.Facts, key: str) -> p.Line:
    return next(x for x in p.lines(f) if x.key == key)


def test_everything_ready_is_all_green_and_says_open_the_doors() -> None:
    found = p.lines(READY)
    assert [x.key for x in found] == [
        "screen",
        "sound",
        "tablet",
        "desk",
        "address",
        "phones",
        "pdf",
    ]
    assert {x.status for x in found} == {p.OK}
    assert p.summary(found) == "Tout est prêt\u00a0: vous pouvez ouvrir les portes\u202f!"
    assert _line(READY, "desk").said == (
        "2 téléphones connectés\u00a0: Paul (vendeur), Marie (caissier)."
    )
    assert "0,4\u00a0s" in _line(READY, "pdf").said


def test_no_hall_screen_is_red_and_says_how_to_connect_one() -> None:
    f = p.Facts(address=p.Address(URL, result="ok"))
    screen = _line(f, "screen")
    assert screen.status == p.BAD
    assert "192.168.1.20:3000/ecran" in screen.todo
    assert "Relier l'écran de la salle" in screen.todo
    sound = _line(f, "sound")
    assert sound.status == p.BAD and "Reliez d'abord l'écran" in sound.todo
    # just after the first roll call: nobody answered yet is not red yet
    asking = p.Facts(asking=True, address=p.Address(URL, result="ok"))
    assert {_line(asking, k).status for k in ("screen", "sound", "tablet", "desk")} == {p.WAIT}


def test_the_sound_test_blocked_untried_silent_or_voiceless() -> None:
    def sound(**kw) -> p.Line:
        return _line(p.Facts(screens=1, sound=p.Sound(**kw)), "sound")

    untried = sound()
    assert untried.status == p.BAD and "Essayer le son de l'écran" in untried.todo
    blocked = sound(asked_ago=1.0, answers=(p.BLOCKED,))
    assert blocked.status == p.BAD and "Activer le son" in blocked.todo
    assert sound(asked_ago=1.0).status == p.WAIT  # sent, no answer yet
    silent = sound(asked_ago=p.SOUND_TIMEOUT + 1)
    assert silent.status == p.BAD and "F5" in silent.todo
    assert sound(asked_ago=2.0, answers=(p.NO_VOICE,)).status == p.BAD
    # two TVs, one blocked: red
    assert sound(asked_ago=2.0, answers=(p.PLAYED, p.BLOCKED)).status == p.BAD
    played = sound(asked_ago=2.0, answers=(p.PLAYED,), voice_off=True)
    assert played.status == p.OK and "La voix est coupée" in played.said


def test_the_tablet_the_desk_and_the_phones() -> None:
    assert _line(p.Facts(), "tablet").status == p.BAD
    assert "/animateur" in _line(p.Facts(address=p.Address(URL)), "tablet").todo
    here = _line(p.Facts(here_is_tablet=True), "tablet")
    assert here.status == p.OK and here.said.startswith("Cette tablette")
    assert _line(p.Facts(tablets=2), "tablet").said == "2 tablettes connectées comme animateur."
    assert "/caisse" in _line(p.Facts(address=p.Address(URL)), "desk").todo
    assert _line(p.Facts(phones=0), "phones").status == p.BAD
    assert _line(p.Facts(phones=None), "phones").status == p.BAD
    assert _line(p.Facts(phones=1), "phones").said == "1 téléphone de joueur connecté en ce moment."


def test_the_address_local_only_untried_failed_or_open() -> None:
    local = _line(p.Facts(address=p.Address("http://localhost:3000/?code=A", True)), "address")
    assert local.status == p.BAD and "Wi-Fi" in local.todo
    assert _line(p.Facts(address=p.Address(URL)), "address").status == p.WAIT
    failed = _line(p.Facts(address=p.Address(URL, result="timeout")), "address")
    assert failed.status == p.BAD and "pas de réponse" in failed.said
    assert "même Wi-Fi" in failed.todo


def test_a_failed_pdf_is_red() -> None:
    assert _line(p.Facts(pdf_seconds=None), "pdf").status == p.BAD
    assert _line(p.Facts(pdf_tried=False), "pdf").status == p.WAIT


facts = st.builds(
    p.Facts,
    screens=st.integers(0, 3),
    sound=st.builds(
        p.Sound,
        asked_ago=st.none() | st.floats(0, 100),
        answers=st.lists(st.sampled_from(p.SOUND_RESULTS), max_size=3).map(tuple),
        voice_off=st.booleans(),
    ),
    tablets=st.integers(0, 3),
    here_is_tablet=st.booleans(),
    desk=st.lists(
        st.tuples(st.sampled_from(["Paul", "Marie"]), st.sampled_from(list(p.ROLES))),
        max_size=3,
    ).map(tuple),
    pdf_seconds=st.none() | st.floats(0, 10),
    pdf_tried=st.booleans(),
    phones=st.none() | st.integers(0, 500),
    address=st.builds(
        p.Address,
        url=st.sampled_from(["", URL, "http://localhost:3000/?code=A"]),
        local_only=st.booleans(),
        result=st.sampled_from(["", "ok", *p.ADDRESS_FAILURES]),
    ),
    asking=st.booleans(),
)


@given(facts)
def test_every_line_is_coloured_says_what_it_found_and_a_red_one_what_to_do(f: p.Facts) -> None:
    found = p.lines(f)
    assert len({x.key for x in found}) == len(found) == 7
    for x in found:
        assert x.status in (p.OK, p.BAD, p.WAIT)
        assert x.said and x.title
        if x.status == p.BAD:
            assert x.todo, x
        for text in (x.said, x.todo):
            # French typography: no plain space before : ; ! ?
            assert not re.search(r" [:;!?]", text), text
    bad = [x for x in found if x.status == p.BAD]
    assert (p.summary(found).startswith("Tout est prêt")) == (
        not bad and all(x.status == p.OK for x in found)
    )


def test_the_roll_call_forgets_who_stopped_answering_and_takes_only_the_open_test() -> None:
    now = [100.0]
    book = MemoryRollCall(clock=lambda: now[0])

    async def run() -> None:
        await book.seen(1, "screen", "tv1")
        await book.seen(2, "desk", "p1", "vendeur|Paul")
        assert await book.present(1, "screen") == {"tv1": ""}
        assert await book.present(1, "desk") == {}  # (another evening's)
        now[0] += SEEN_FOR + 0.1
        assert await book.present(1, "screen") == {}
        assert await book.sound(1) == (None, {})
        nonce = await book.ask_sound(1)
        assert not await book.sound_answer(2, nonce, "tv2", "played")  # another evening
        assert not await book.sound_answer(1, "stale", "tv1", "played")
        assert await book.sound_answer(1, nonce, "tv1", "blocked")
        now[0] += 2
        assert await book.sound(1) == (2.0, {"tv1": "blocked"})
        again = await book.ask_sound(1)  # a new test forgets the old answers
        assert not await book.sound_answer(1, nonce, "tv1", "played")
        assert await book.sound(1) == (0.0, {})
        assert await book.sound_answer(1, again, "tv1", "played")

    asyncio.run(run())
