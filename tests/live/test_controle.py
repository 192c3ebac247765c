"""The control page's handler (`loto_app.live.states.controle`): a paper carton's claim from a
phone at the table is the control desk's move (same verdicts, recorded as a paper claim), a QR
code that is not a carton's is said so and plays nothing, and nobody but the desk's members may
check. Real state classes, a real SQLite file, no server."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from test_session import live_app, root_on, sub  # noqa: F401  (live_app: a fixture)

from loto_app.domain import events as ev
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
from loto_app.records.paper import cartons_for, qr_text
from loto_app.storage.access import AccessStore
from loto_app.storage.repository import EveningStore

PROGRAM = Program(
    "CTL",
    (GameSpec(Kind.CLASSIQUE, (Stage(Pattern.ONE_LINE, Lot("Jambon", 2500)),)),),
    Settings(DrawSource.PHYSICAL, last_call_seconds=0),
)


def call(state: Any, handler: str, *args: Any) -> Any:
    from loto_app.live.states.controle import ControleState

    return ControleState.event_handlers[handler].fn(state, *args)


@pytest.fixture
def quiet_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    """No socket.io server here: entering the evening's room does nothing."""
    from loto_app.live.runtime import broadcast

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(broadcast, "enter", nothing)
    monkeypatch.setattr(broadcast, "send_snapshot", nothing)


def test_a_carton_scanned_at_the_table_is_the_desks_claim_with_its_read_back(
    live_app: EveningStore,  # noqa: F811
    quiet_rooms: None,
) -> None:
    from loto_app.live.runtime import registry
    from loto_app.live.states.caisse import CONTROLEUR, CaisseState
    from loto_app.live.states.controle import NOT_A_CARTON, ControleState

    creds = live_app.create_evening("Contrôle", PROGRAM)
    eid = creds.evening_id
    claire = AccessStore(live_app.engine).add_staff(eid, "Claire", "controleur")

    async def scenario() -> None:
        pid, _ = await registry.join(eid, "Mme Martin", "paper")
        sold = await registry.play(
            eid, lambda e: e.desk_sale(pid, 0, "cash", "Paul", random.Random(2))
        )
        (no,) = next(x.carton_nos for x in sold if isinstance(x, ev.CartonsSold))
        carton = cartons_for(live_app, eid, [no])[0]
        row = sorted(n for n in carton.rows[0] if n)

        phone = sub(root_on("/controle"), ControleState)
        # not signed in: refused, nothing played
        await call(phone, "check_carton", {"qr": qr_text("CTL", no, carton.check_code)})
        assert "connectez-vous" in phone.message
        await call(phone, "login", {"code": creds.join_code, "secret": claire})
        assert phone.signed_in and phone.role_label == "Contrôleur"

        await registry.play(eid, lambda e: e.start_game())
        for n in row:
            await registry.play(eid, lambda e, n=n: e.enter_ball(n))
        before = len((await registry.live(eid)).evening.history)
        # a QR code that is not a carton's: said so, nothing played
        for text in ("LOTO-JOUEUR:ABCD1234", "https://example.org", "LOTO:CTL:x:y"):
            await call(phone, "check_carton", {"qr": text})
            assert phone.message == NOT_A_CARTON and phone.verdict == ""
        # malformed forms: refused in French, nothing played
        for data in ({"carton": "abc", "check": "X"}, {"qr": 7}, "nope", {"carton": "1"}):
            await call(phone, "check_carton", data)
            assert phone.message == "Tapez le numéro du carton et son code de contrôle."
        assert len((await registry.live(eid)).evening.history) == before

        # the carton's QR code: a valid quine, as at the desk (via "desk"), read back
        await call(phone, "check_carton", {"qr": qr_text("CTL", no, carton.check_code)})
        assert phone.verdict.startswith("Mme Martin — Annonce valide sur le")
        assert phone.verdict_kind == "valid" and phone.readback_on
        cells = [c for grid in phone.readback_cartons for c in grid]
        assert sorted(c["n"] for c in cells if c["win"]) == row
        e = (await registry.live(eid)).evening
        (claim,) = e.game.claims
        assert (claim.via, claim.carton_no, claim.player_id) == ("desk", no, pid)
        assert e.game.entries() == (pid,)
        # the same carton again on the same number: refused (already judged), said
        await call(phone, "check_carton", {"carton": str(no), "check": carton.check_code})
        assert phone.message and phone.verdict == ""
        # a carton of another série, typed: judged, recorded, no read-back
        await call(phone, "check_carton", {"qr": qr_text("AUTRE", no, carton.check_code)})
        assert "autre série" in phone.verdict and not phone.readback_on
        call(phone, "clear")
        assert phone.verdict == "" and not phone.readback_on

        # a contrôleur sells nothing at the desk
        desk = sub(root_on("/caisse"), CaisseState)
        await CaisseState.event_handlers["login"].fn(
            desk, {"code": creds.join_code, "secret": claire}
        )
        assert desk.message == CONTROLEUR
        await CaisseState.event_handlers["sell_paper"].fn(
            desk, {"name": "X", "offer": "0", "method": "cash"}
        )
        assert desk.message == CONTROLEUR

    asyncio.run(scenario())
