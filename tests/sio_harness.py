"""A python-socketio server served by uvicorn (the lean server's settings, or h11 and wsproto),
and engine.io 4 / socket.io 5 clients on real websockets (the load generator's own): the fan-out
tests and the compatibility tests run the libraries' real classes on it."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import socketio
import uvicorn
from emulator import WebSocket

from loto_app import lean_server
from loto_app.live.runtime import fanout


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
        if d == "2":
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
        # connect the namespace, with the room as auth (right away, as bench/load.py does: the
        # server's engine.io OPEN may already be in, taken before `connect` returned)
        self.ws.send("40" + json.dumps({"room": self.room}))
        await asyncio.wait_for(self.connected.wait(), 5)


async def until(cond, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.01)
    return True


async def serve(
    fast: bool,
    rooms: list[str],
    direct: bool = False,
    manager: socketio.AsyncManager | None = None,
):
    """A server (its manager `manager`, else a `FastEmit` if `fast`, else the library's) and a
    connected client in each of `rooms`."""
    sio = socketio.AsyncServer(async_mode="asgi", ping_timeout=5, client_manager=manager)
    if fast and manager is None:
        fanout.install(sio)

    @sio.event
    async def connect(sid, _environ, auth):
        await sio.enter_room(sid, (auth or {}).get("room", "none"))

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    if direct:  # the lean server's settings (lean_server.LeanWorker)
        config = uvicorn.Config(
            socketio.ASGIApp(sio),
            **lean_server.LeanWorker.CONFIG_KWARGS,
            log_level="warning",
            lifespan="off",
        )
    else:
        config = uvicorn.Config(
            socketio.ASGIApp(sio), ws="wsproto", log_level="warning", lifespan="off"
        )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    await until(lambda: server.started)
    clients = [Client(r) for r in rooms]
    for c in clients:
        await c.open(port)
    return sio, server, task, clients


async def stop(server, task, clients) -> None:
    for c in clients:
        if c.ws is not None:
            c.ws.close()
    server.should_exit = True
    await task
