"""fanout.FastEmit on real sockets: a python-socketio server served by uvicorn, real websocket
clients (the load generator's own), the same messages as the library's emit, in the same order,
to the same sockets; a socket whose client stopped answering pings is closed (and leaves its
rooms) as the library closes it. With the lean server's direct writes (uvicorn's sans-I/O
websockets, `lean_server.DirectWriteProtocol`), the same again, written on the connection
without the socket's writer, except where something is queued or the connection's buffer is
full: then it waits its turn in the queue. A socket on which the fast path fails gets its
messages the library's way, and the others are served as if nothing happened."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import socketio
from hypothesis import given
from hypothesis import strategies as st
from sio_harness import Client, serve, stop, until
from websockets.frames import Frame, Opcode

from loto_app import lean_server
from loto_app.live import compat
from loto_app.live.runtime import fanout


async def _scenario(fast: bool, direct: bool = False) -> tuple[bool, list[list[str]], int]:
    """Messages to a room (one socket skipped), to one socket, to a list of rooms, with a tuple
    of arguments and with none; what each client received, and how many packets went the
    library's way (one task each)."""
    sio, server, task, clients = await serve(fast, ["hall", "hall", "hall", "desk"], direct)
    library_sends = _count_library_sends(sio)
    try:
        assert isinstance(sio.manager, fanout.FastEmit) is fast
        skipped = clients[1].sid
        for i in range(50):
            await sio.emit(
                "event", {"delta": {"n": i, "text": "é" * (i % 3)}}, to="hall", skip_sid=skipped
            )
        await sio.emit("event", ("a", 2), to=clients[3].sid)
        await sio.emit("poke", None, to=["hall", "desk"])
        await sio.emit("event", {"nobody": True}, to="empty-room")
        want = [51, 1, 51, 2]
        ok = await until(lambda: [len(c.events) for c in clients] == want)
        return ok, [c.events for c in clients], library_sends[0]
    finally:
        await stop(server, task, clients)


def _count_library_sends(sio: socketio.AsyncServer) -> list[int]:
    """Count the packets sent the library's way (engine.io's `send_packet`, which the
    library's emit calls once per packet and recipient, each in a task of its own)."""
    count = [0]
    send = sio.eio.send_packet

    async def counted(eio_sid, pkt):
        count[0] += 1
        await send(eio_sid, pkt)

    sio.eio.send_packet = counted  # type: ignore[method-assign]
    return count


def test_fast_emit_sends_what_the_library_sends_in_the_same_order() -> None:
    ok_lib, lib, lib_sends = asyncio.run(_scenario(fast=False))
    ok_fast, fast, fast_sends = asyncio.run(_scenario(fast=True))
    assert ok_lib and ok_fast, ([len(x) for x in lib], [len(x) for x in fast])
    assert fast == lib
    assert lib_sends == 50 * 2 + 1 + 4  # one task per packet and recipient
    assert fast_sends == 0  # all queued in the loop
    # (decoded: the JSON encoder is the one the process installed, Reflex's once it is imported)
    hall = [json.loads(x[2:]) for x in fast[0][:2]]
    assert hall == [
        ["event", {"delta": {"n": 0, "text": ""}}],
        ["event", {"delta": {"n": 1, "text": "é"}}],
    ]
    assert [json.loads(x[2:]) for x in fast[1]] == [["poke"]]  # skipped by the room messages
    assert [json.loads(x[2:]) for x in fast[3]] == [["event", "a", 2], ["poke"]]


def test_direct_writes_send_what_the_library_sends_in_the_same_order() -> None:
    ok_lib, lib, _ = asyncio.run(_scenario(fast=False))
    before = dict(fanout.counts)
    ok, direct, library_sends = asyncio.run(_scenario(fast=True, direct=True))
    assert ok_lib and ok, ([len(x) for x in lib], [len(x) for x in direct])
    assert direct == lib
    assert library_sends == 0
    written = fanout.counts["direct"] - before["direct"]
    queued = fanout.counts["queued"] - before["queued"]
    assert written > 0 and written + queued == 50 * 2 + 1 + 4  # each message and recipient


def test_direct_writes_wait_behind_what_is_queued_and_a_full_buffer() -> None:
    """A packet already queued for a socket (a ping, a message of the library's way) goes out
    first; a connection whose write buffer is full gets its messages through the queue, in
    order, once the buffer drains."""

    async def run() -> tuple[list[str], int, int]:
        sio, server, task, clients = await serve(True, ["hall"], direct=True)
        try:
            (client,) = clients
            eio_sid = sio.manager.eio_sid_from_sid(client.sid, "/")
            proto = sio.environ[eio_sid]["asgi.scope"][fanout.SCOPE_KEY].__self__
            assert isinstance(proto, lean_server.DirectWriteProtocol)
            before = dict(fanout.counts)
            expected = []
            sock = sio.eio.sockets[eio_sid]
            for i in range(30):
                if i == 10:  # the transport's buffer is full, the writer idle: queued
                    assert await until(lambda: compat.writer_idle(sock))
                    proto.pause_writing()
                    queued_before = fanout.counts["queued"]
                    await sio.emit("n", i, to="hall")
                    expected.append(f'42["n",{i}]')
                    assert fanout.counts["queued"] == queued_before + 1
                    continue
                if i == 20:
                    proto.resume_writing()
                if i % 3 == 0:  # queued the library's way, just before a room message
                    await sio.eio.send(eio_sid, f'2["queued",{i}]')
                    expected.append(f'42["queued",{i}]')
                elif i % 3 == 2 and not 10 <= i < 20:  # the writer is idle
                    assert await until(lambda: compat.writer_idle(sock))
                await sio.emit("n", i, to="hall")
                expected.append(f'42["n",{i}]')
            await until(lambda: len(client.events) >= len(expected))
            direct = fanout.counts["direct"] - before["direct"]
            queued = fanout.counts["queued"] - before["queued"]
            return client.events, direct, queued, expected
        finally:
            await stop(server, task, clients)

    events, direct, queued, expected = asyncio.run(run())
    assert events == expected
    assert direct >= 7  # (2, 5, 8, 20, 23, 26, 29 at least, the writer idle)
    assert queued >= 10  # (10 to 19 at least: while the buffer was full, or behind a packet)


@given(
    st.integers(0, 70_000) | st.sampled_from([125, 126, 127, 65_535, 65_536, 65_537]),
    # (no lone surrogate: it is no UTF-8 text, for the websockets library either; the app's
    # texts are checked printable by the rules, and a surrogate is not)
    st.characters(exclude_categories=["Cs"]),
    st.booleans(),
)
def test_a_frame_is_what_the_websockets_library_frames(n: int, char: str, text: bool) -> None:
    """Text and binary frames of every size class (7-bit, 16-bit and 64-bit lengths)."""
    data: str | bytes = char * n if text else bytes([n % 256]) * n
    if isinstance(data, str):
        opcode, payload = Opcode.TEXT, data.encode()
    else:
        opcode, payload = Opcode.BINARY, data
    assert fanout.ws_frame(data) == Frame(opcode, payload).serialize(mask=False, extensions=[])


def test_a_socket_whose_client_stopped_answering_is_closed_and_the_others_served() -> None:
    async def run() -> tuple[Client, Client, bool, bool]:
        sio, server, task, clients = await serve(True, ["hall", "hall"])
        try:
            gone, alive = clients
            eio_sid = sio.manager.eio_sid_from_sid(gone.sid, "/")
            server_side = sio.eio.sockets[eio_sid]
            server_side.last_ping = time.time() - 60  # no pong for a minute
            library_sends = _count_library_sends(sio)
            await sio.emit("event", {"n": 1}, to="hall")
            closed = await until(lambda: server_side.closed)
            assert library_sends == [1]  # that socket's: the library closes it
            await until(lambda: len(alive.events) == 1)
            in_room = [sid for sid, _ in sio.manager.get_participants("/", "hall")]
            return gone, alive, closed, in_room == [alive.sid]
        finally:
            await stop(server, task, clients)

    gone, alive, closed, left_the_room = asyncio.run(run())
    assert closed and left_the_room
    assert gone.events == []
    assert [json.loads(x[2:]) for x in alive.events] == [["event", {"n": 1}]]


def test_install_only_takes_the_plain_manager() -> None:
    sio = socketio.AsyncServer(async_mode="asgi")
    plain = sio.manager
    fanout.install(sio)
    fast = sio.manager
    fanout.install(sio)  # (twice: no change)
    assert type(sio.manager) is fanout.FastEmit and sio.manager is fast
    assert type(plain) is socketio.AsyncManager  # (a new manager, assigned: not a class swap)
    assert fast.server is sio
    serving = socketio.AsyncServer(async_mode="asgi")
    serving.manager_initialized = True  # (a client connected already)
    with pytest.raises(RuntimeError, match="too late"):
        fanout.install(serving)
    other = socketio.AsyncServer(
        async_mode="asgi",
        client_manager=socketio.AsyncRedisManager("redis://127.0.0.1:6379", write_only=True),
    )
    with pytest.raises(TypeError, match="AsyncRedisManager"):
        fanout.install(other)


class _RenamedAttribute:
    """An engine.io socket as a library upgrade might leave it: `last_ping` renamed (reading it
    raises); everything else, the library's own `send` included, is the real socket's."""

    def __init__(self, real: object) -> None:
        self._real = real

    def __getattr__(self, name: str) -> object:
        if name == "last_ping":
            raise AttributeError("'AsyncSocket' object has no attribute 'last_ping'")
        return getattr(self._real, name)


def test_a_socket_that_fails_the_fast_path_gets_its_messages_the_library_way(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One connection whose direct write raises, one socket an upgrade changed: both still get
    every room message, in order, through engine.io's `send_packet`; the two others are
    written to directly as ever; one log line for the lot."""
    monkeypatch.setattr(fanout, "_logged_failure", False)

    def broken_write(_frame: bytes) -> bool:
        raise ConnectionResetError("the write failed")

    async def run() -> tuple[list[Client], int, int]:
        sio, server, task, clients = await serve(True, ["hall"] * 4, direct=True)
        try:
            eio_sids = [sio.manager.eio_sid_from_sid(c.sid, "/") for c in clients]
            sio.environ[eio_sids[0]]["asgi.scope"][fanout.SCOPE_KEY] = broken_write
            real = sio.eio.sockets[eio_sids[1]]
            sio.eio.sockets[eio_sids[1]] = _RenamedAttribute(real)
            before = dict(fanout.counts)
            library_sends = _count_library_sends(sio)
            for i in range(5):
                for eio_sid in eio_sids[2:]:
                    sock = sio.eio.sockets[eio_sid]
                    assert await until(lambda s=sock: compat.writer_idle(s))
                await sio.emit("n", i, to="hall")
            await until(lambda: all(len(c.events) == 5 for c in clients))
            sio.eio.sockets[eio_sids[1]] = real
            failed = fanout.counts["failed"] - before["failed"]
            direct = fanout.counts["direct"] - before["direct"]
            assert library_sends[0] >= 2  # (at least the first message of each broken socket)
            return clients, failed, direct
        finally:
            await stop(server, task, clients)

    with caplog.at_level("ERROR", logger=fanout.__name__):
        clients, failed, direct = asyncio.run(run())
    expected = [f'42["n",{i}]' for i in range(5)]
    assert [c.events for c in clients] == [expected] * 4
    assert failed >= 2  # (both broken sockets; later messages may find them queued)
    assert direct >= 2 * 5  # the two sound sockets: every message written directly
    logged = [r for r in caplog.records if r.name == fanout.__name__]
    assert len(logged) == 1 and "logged once" in logged[0].getMessage()
