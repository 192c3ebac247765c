"""The state reaper (`loto_app.live.runtime.reaper`) on Reflex's real in-memory state manager and
token manager: gone clients' states are dropped (and freed), connected ones never, busy ones wait.
bench/soak.py measures it on the running app over hundreds of reconnecting phones."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State
from reflex.utils.token_manager import LocalTokenManager

import loto_app.loto_app  # noqa: F401 - the app's state tree, as the server builds it
from loto_app.live import compat
from loto_app.live.runtime import reaper
from loto_app.live.states.player import PlayerState


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def token(ident: str) -> BaseStateToken:
    return BaseStateToken(ident=ident, cls=State)


def test_gone_clients_are_dropped_connected_and_busy_ones_kept() -> None:
    async def scenario() -> None:
        manager = StateManagerMemory(token_expiration=3600)
        sockets = LocalTokenManager()
        clock = Clock()
        r = reaper.Reaper(
            compat.MemoryStates(manager), sockets.token_to_socket, idle=300, clock=clock
        )
        states = {i: await manager.get_state(token(i)) for i in ("here", "gone", "busy")}
        await sockets.link_token_to_sid("here", "sid-here")
        player = await states["gone"].get_state(PlayerState)
        player.name = "Mamie Jo"
        freed = weakref.ref(states["gone"])
        freed_player = weakref.ref(player)
        del player

        assert r.sweep() == reaper.Sweep(dropped=0, kept=1, waiting=2, states=3)
        clock.t += 299
        assert r.sweep().dropped == 0
        clock.t += 1
        async with manager.modify_state(token("busy")):  # an event is being handled for it
            s = r.sweep()
        assert s == reaper.Sweep(dropped=1, kept=1, waiting=1, states=2)
        assert set(manager.states) == {"here", "busy"}
        assert "gone" not in manager._token_expires_at and "gone" not in manager._states_locks
        del states["gone"]
        gc.collect()
        assert freed() is None and freed_player() is None, "the dropped state is still referenced"
        assert r.sweep().dropped == 1  # the busy one, once its event is done
        assert set(manager.states) == {"here"}

        # the connected phone is never dropped, and Reflex's own expiry never reaches it
        clock.t += 10 * 3600
        manager._token_expires_at["here"] = (time.time() - 1, token("here"))
        assert r.sweep().kept == 1
        assert manager._token_expires_at["here"][0] > time.time() + 3000
        # once it leaves, it goes after the idle time too
        await sockets.disconnect_token("here", "sid-here")
        r.sweep()
        clock.t += 300
        assert r.sweep().dropped == 1 and manager.states == {}
        assert r.dropped_total == 3 and r.gone_since == {}

        # a client that comes back under a dropped token gets a fresh state (it hydrates again)
        back = await manager.get_state(token("gone"))
        assert (await back.get_state(PlayerState)).name == ""
        await manager.close()

    asyncio.run(scenario())


def test_a_client_back_before_the_idle_time_is_not_dropped() -> None:
    async def scenario() -> None:
        manager = StateManagerMemory(token_expiration=3600)
        sockets = LocalTokenManager()
        clock = Clock()
        r = reaper.Reaper(
            compat.MemoryStates(manager), sockets.token_to_socket, idle=300, clock=clock
        )
        await manager.get_state(token("phone"))
        r.sweep()  # gone (asleep)
        clock.t += 200
        await sockets.link_token_to_sid("phone", "sid-2")  # wakes up on the same token
        r.sweep()
        clock.t += 200
        await sockets.disconnect_token("phone", "sid-2")
        assert r.sweep().dropped == 0  # 400 s after it first left, but its socket just went
        clock.t += 299
        assert r.sweep().dropped == 0
        clock.t += 1
        assert r.sweep().dropped == 1
        await manager.close()

    asyncio.run(scenario())


def test_the_idle_time_comes_from_the_environment() -> None:
    assert reaper.idle_seconds({}) == reaper.DEFAULT_IDLE_MINUTES * 60
    assert reaper.idle_seconds({"LOTO_STATE_IDLE_MINUTES": "2"}) == 120
    assert reaper.idle_seconds({"LOTO_STATE_IDLE_MINUTES": "0"}) == 0
    assert reaper.idle_seconds({"LOTO_STATE_IDLE_MINUTES": "soon"}) == 300
