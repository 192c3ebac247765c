"""Where a connected phone's server memory goes: the websocket server's own buffers.

Serves a bare ASGI websocket app (no Reflex, no socket.io: it answers each message with one
short message, as the engine.io handshake does) with Granian (what `reflex run --env prod`
uses) or Uvicorn + wsproto, opens N websockets that each send and receive one message, and
prints the server's RSS growth per connection:

    .venv/bin/python bench/ws_memory.py --server granian --conns 1000
    .venv/bin/python bench/ws_memory.py --server uvicorn --conns 1000
    .venv/bin/python bench/ws_memory.py --server granian --conns 1000 --silent  # none sent

Measured on a 2-core machine (Granian 2.8.9): ~150 KB per connection with
Granian, ~18 KB with Uvicorn + wsproto. The Python side (engine.io socket, socket.io session) is
a small part of what a phone costs (tracemalloc: ~6 KB per socket.io connection; Reflex's state
~23 KB): most of the ~280 KB per phone is the websocket server's native buffers.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

APP = """
async def app(scope, receive, send):
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        if SILENT:
            while (await receive())["type"] == "websocket.receive":
                pass
            return
        await send({"type": "websocket.send", "text": "0{}"})
        while (await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": "40/_event,{}"})
    elif scope["type"] == "lifespan":
        while True:
            m = await receive()
            if m["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
"""


def rss(pid: int) -> int:
    """RSS of a process and its children, bytes."""
    p = psutil.Process(pid)
    return sum(x.memory_info().rss for x in [p, *p.children(recursive=True)])


def frame(text: str) -> bytes:
    """A masked websocket text frame (client to server)."""
    b, mask = text.encode(), os.urandom(4)
    n = len(b)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0xFE]) + struct.pack(">H", n))
    return head + mask + bytes(x ^ mask[i % 4] for i, x in enumerate(b))


async def connect(port: int, silent: bool) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """One websocket: the upgrade, then (unless `silent`) one message each way."""
    r, w = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    w.write(
        f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await w.drain()
    await r.readuntil(b"\r\n\r\n")
    if not silent:
        await r.read(2)
        w.write(frame("40/_event,"))
        await w.drain()
        await r.read(2)
    return r, w


async def measure(port: int, pid: int, n: int, silent: bool) -> float:
    """KB of server RSS per connection."""
    await asyncio.sleep(1.0)
    before, conns = rss(pid), []
    for _ in range(0, n, 50):
        conns += await asyncio.gather(*(connect(port, silent) for _ in range(50)))
    await asyncio.sleep(2.0)
    per = (rss(pid) - before) / len(conns) / 1024
    for _, w in conns:
        w.close()
    return per


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", choices=("granian", "uvicorn"), default="granian")
    ap.add_argument("--conns", type=int, default=1000)
    ap.add_argument("--port", type=int, default=0, help="default: a free port")
    ap.add_argument("--silent", action="store_true", help="no message on the websockets")
    ap.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more server option, e.g. --server-arg=--runtime-mode=st (repeatable)",
    )
    args = ap.parse_args()
    if not args.port:  # a free port: a server left over from another run cannot share it
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "wsapp.py").write_text(f"SILENT = {args.silent}\n{APP}")
        bin_ = Path(sys.executable).parent
        if args.server == "granian":
            cmd = [str(bin_ / "granian"), "--interface", "asgi", "--workers", "1"]
        else:
            cmd = [sys.executable, "-m", "uvicorn", "--ws", "wsproto", "--log-level", "warning"]
        cmd += ["--host", "127.0.0.1", "--port", str(args.port), *args.server_arg, "wsapp:app"]
        srv = subprocess.Popen(
            cmd,
            cwd=tmp,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as one
        )
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # until it listens
                try:
                    socket.create_connection(("127.0.0.1", args.port), 1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            per = asyncio.run(measure(args.port, srv.pid, args.conns, args.silent))
        finally:
            os.killpg(srv.pid, signal.SIGTERM)
            try:
                srv.wait(10)
            except subprocess.TimeoutExpired:  # Granian can wait on open sockets
                os.killpg(srv.pid, signal.SIGKILL)
                srv.wait(10)
    extra = " ".join(args.server_arg)
    print(
        f"server={args.server} conns={args.conns} silent={args.silent} args=[{extra}] "
        f"kb_per_conn={per:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
