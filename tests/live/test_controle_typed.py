"""The control page's "Carton hors liste" handlers (live/states/controle.py): the lines typed
for a carton in no list are read, judged by `Evening.typed_claim` and recorded; bad text is told
in French and records nothing; nobody but the desk's members may check. Real state classes, a
real SQLite file, no server."""

from __future__ import annotations

import asyncio
from typing import Any

from test_controle import PROGRAM, call, quiet_rooms  # noqa: F401  (a fixture)
from test_session import live_app, root_on, sub  # noqa: F401  (a fixture)

from loto_app.domain import events as ev
from loto_app.storage.access import AccessStore
from loto_app.storage.repository import EveningStore

LINE = [5, 12, 23, 47, 81]


def test_a_typed_line_is_checked_from_the_phone_and_recorded(
    live_app: EveningStore,  # noqa: F811
    quiet_rooms: None,  # noqa: F811
) -> None:
    from loto_app.live.runtime import registry
    from loto_app.live.states.controle import ControleState

    creds = live_app.create_evening("Contrôle", PROGRAM)
    eid = creds.evening_id
    claire = AccessStore(live_app.engine).add_staff(eid, "Claire", "controleur")

    async def scenario() -> None:
        phone = sub(root_on("/controle"), ControleState)
        await call(phone, "check_typed_lines", {"line1": "5 12 23 47 81"})
        assert "connectez-vous" in phone.message
        await call(phone, "login", {"code": creds.join_code, "secret": claire})
        await call(phone, "open_typed")
        assert phone.typed_needed == 0 and "Pas d'annonce" in phone.typed_hint
        await registry.play(eid, lambda e: e.start_game())
        for n in [2, *LINE]:
            await registry.play(eid, lambda e, n=n: e.enter_ball(n))
        await call(phone, "open_typed")
        assert phone.typed_needed == 1
        before = len((await registry.live(eid)).evening.history)
        bad: list[Any] = [{"line1": "5 12 x"}, {"line1": ""}, "nope", {"line1": 5}]
        for data in bad:
            await call(phone, "check_typed_lines", data)
            assert phone.message and phone.verdict == ""
        await call(phone, "check_typed_lines", {"line1": "5 12 23 47 49"})
        assert "même colonne" in phone.message
        assert len((await registry.live(eid)).evening.history) == before

        await call(phone, "check_typed_lines", {"line1": "81,5,12,23,47", "name": "M. Roux"})
        assert phone.verdict.startswith("M. Roux — Annonce valide sur le 81")
        assert phone.verdict_kind == "valid" and phone.readback_on
        assert "hors liste" in phone.readback_title
        e = (await registry.live(eid)).evening
        (claim,) = e.game.claims
        assert claim.via == "typed" and e.game.entries() == (claim.player_id,)
        typed = [x for x in e.history if isinstance(x, ev.LinesTyped)]
        assert typed[0].lines == (tuple(LINE),) and typed[0].by == "Claire"

    asyncio.run(scenario())
