"""fanout.FastEmit on real sockets: a python-socketio server served by uvicorn, real websocket
clients (the load generator's own), the same messages as the library's emit, in the same order,
to the same sockets; a socket whose client stopped answering pings is closed (and leaves its
rooms) as the library closes it."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from pathlib import Path

import pytest
import socketio
import uvicorn

from loto_app.live.runtime import fanout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load import WebSocket


class Client:
    """An engine.io 4 / socket.io 5 client on the default namespace, in one room."""

    def __init__(self, room: str) -> None:
        self.room = room
        self.sid = ""
        self.events: list[str] = []  # the EVENT packets received, as sent on the wire
        self.closed = False
        self.ws: WebSocket | None = None
        self.connected = asyncio.Event()

    def _text(self, d: str) -> None:
        if d.startswith("0"):  # engine.io open: connect the namespace, with the room as auth
            assert self.ws is not None
            self.ws.send("40" + json.dumps({"room": self.room}))
        elif d == "2":
            assert self.ws is not None
            self.ws.send("3")
        elif d.startswith("40"):
            self.sid = json.loads(d[2:])["sid"]
            self.connected.set()
        elif d.startswith("42"):
            self.events.append(d)
        elif d == "1":  # engine.io CLOSE: the server closed this session
            self.closed = True

    def _close(self, _why: str) -> None:
        self.closed = True

    async def open(self, port: int) -> None:
        self.ws = await WebSocket.connect(
            "127.0.0.1", port, "/socket.io/?EIO=4&transport=websocket", self._text, self._close, 5
        )
        await asyncio.wait_for(self.connected.wait(), 5)


async def _until(cond, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.01)
    return True


async def _serve(fast: bool, rooms: list[str]):
    sio = socketio.AsyncServer(async_mode="asgi", ping_timeout=5)
    if fast:
        fanout.install(sio)

    @sio.event
    async def connect(sid, _environ, auth):
        await sio.enter_room(sid, (auth or {}).get("room", "none"))

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        socketio.ASGIApp(sio), ws="wsproto", log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    await _until(lambda: server.started)
    clients = [Client(r) for r in rooms]
    for c in clients:
        await c.open(port)
    return sio, server, task, clients


async def _stop(server, task, clients) -> None:
    for c in clients:
        if c.ws is not None:
            c.ws.close()
    server.should_exit = True
    await task


async def _scenario(fast: bool) -> tuple[bool, list[list[str]], int]:
    """Messages to a room (one socket skipped), to one socket, to a list of rooms, with a tuple
    of arguments and with none; what each client received, and how many packets went the
    library's way (one task each)."""
    sio, server, task, clients = await _serve(fast, ["hall", "hall", "hall", "desk"])
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
        ok = await _until(lambda: [len(c.events) for c in clients] == want)
        return ok, [c.events for c in clients], library_sends[0]
    finally:
        await _stop(server, task, clients)


def _count_library_sends(sio: socketio.AsyncServer) -> list[int]:
    """Count the packets sent the library's way (`_send_eio_packet`, one task each)."""
    count = [0]
    send = sio._send_eio_packet

    async def counted(eio_sid, pkt):
        count[0] += 1
        await send(eio_sid, pkt)

    sio._send_eio_packet = counted  # type: ignore[method-assign]
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


def test_a_socket_whose_client_stopped_answering_is_closed_and_the_others_served() -> None:
    async def run() -> tuple[Client, Client, bool, bool]:
        sio, server, task, clients = await _serve(True, ["hall", "hall"])
        try:
            gone, alive = clients
            eio_sid = sio.manager.eio_sid_from_sid(gone.sid, "/")
            server_side = sio.eio.sockets[eio_sid]
            server_side.last_ping = time.time() - 60  # no pong for a minute
            library_sends = _count_library_sends(sio)
            await sio.emit("event", {"n": 1}, to="hall")
            closed = await _until(lambda: server_side.closed)
            assert library_sends == [1]  # that socket's: the library closes it
            await _until(lambda: len(alive.events) == 1)
            in_room = [sid for sid, _ in sio.manager.get_participants("/", "hall")]
            return gone, alive, closed, in_room == [alive.sid]
        finally:
            await _stop(server, task, clients)

    gone, alive, closed, left_the_room = asyncio.run(run())
    assert closed and left_the_room
    assert gone.events == []
    assert [json.loads(x[2:]) for x in alive.events] == [["event", {"n": 1}]]


def test_install_only_takes_the_plain_manager() -> None:
    sio = socketio.AsyncServer(async_mode="asgi")
    fanout.install(sio)
    fanout.install(sio)  # (twice: no change)
    assert type(sio.manager) is fanout.FastEmit
    other = socketio.AsyncServer(
        async_mode="asgi",
        client_manager=socketio.AsyncRedisManager("redis://127.0.0.1:6379", write_only=True),
    )
    with pytest.raises(TypeError, match="AsyncRedisManager"):
        fanout.install(other)
