"""Room messages queued on each socket at once, without one asyncio task per recipient.

python-socketio 5.18's `AsyncManager.emit` encodes a message once, then creates one asyncio task
per recipient (`_send_eio_packet` -> `eio.send_packet` -> `AsyncSocket.send` -> `queue.put`) and
gathers them: for a draw's picture to 1,000 phones, a thousand tasks created, scheduled and
awaited (10-15 % of the broadcast's server CPU, measured: the rest is each socket's writer and
Granian). A socket's `send` only checks that its client still answers pings and puts the packet
on the socket's queue (its writer task sends it), so the same can be done for every recipient
in one loop, synchronously: `FastEmit` (the packets built by `compat.PacketManager`). Same packet,
same per-socket order (the queue), same checks; a socket whose client stopped answering goes the
library's way (`send` closes it).

With the lean server (the default, loto_app/lean_server.py), an idle websocket does not even
need its writer: the message's frame, built once, is written on the connection right away
(`queue_all`).

Installed as the process's manager (`install`, before any client connects), and a base of the
Redis manager of several workers (broadcast.py), whose relayed messages end in
`AsyncManager.emit` on each worker.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import socketio

from loto_app.live import compat

log = logging.getLogger(__name__)

_tasks: set[asyncio.Task] = set()  # the slow sends in flight (a task needs a strong reference)


class FastEmit(compat.PacketManager):
    """The manager whose callback-less `emit` queues the packet on each recipient's socket in
    one loop (see the module's docstring): python-socketio's manager encodes the message and
    names its recipients (`compat.PacketManager`), `queue_all` sends it."""

    def deliver(self, eio_sids: list[str], eio_pkts: list[Any]) -> None:
        queue_all(self.server, eio_sids, eio_pkts)

    def failed(self, exc: Exception, where: str) -> None:
        _failed(exc, where)


#: Where a websocket's ASGI scope holds its `write_frame(frame) -> bool`, when the server offers
#: one (loto_app/lean_server.py: gunicorn + uvicorn, the default server).
SCOPE_KEY = "loto.write_frame"

#: Messages written straight on the connection (`queue_all`), the ones queued, and the sockets
#: for which the fast path failed (sent the library's way instead); the tests read them.
counts = {"direct": 0, "queued": 0, "failed": 0}


def ws_frame(data: str | bytes) -> bytes:
    """A complete, unmasked websocket frame (RFC 6455, section 5.2: a server's frames are not
    masked), text for `str`, binary for `bytes`."""
    if isinstance(data, str):
        first, payload = 0x81, data.encode()
    else:
        first, payload = 0x82, bytes(data)
    n = len(payload)
    if n < 126:
        head = bytes((first, n))
    elif n < 1 << 16:
        head = bytes((first, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 127)) + n.to_bytes(8, "big")
    return head + payload


def queue_all(server: socketio.AsyncServer, eio_sids: Any, eio_pkts: list[Any]) -> None:
    """Put the packets on each socket's queue; or, on a websocket whose writer is idle and whose
    server offers it (`SCOPE_KEY`), write their frames, built once, on the connection now.

    A draw's picture to 2,000 phones then costs a write each, instead of waking each socket's
    writer task, which takes the packet off its queue (engine.io's `poll` starts a task and a
    timer for it), encodes it and sends it through three ASGI `send` wrappers to the server's
    protocol, which frames it. Same bytes on the wire, same order: the direct path is taken only
    when nothing is queued or being sent on that socket.

    Whatever goes wrong with one socket (a library upgrade that renamed what this reads, a
    connection that fails on write) never stops the message for the others: that socket's
    packets not yet written go the library's way (`send_the_library_way`), and the first such
    failure of the process is logged with its traceback."""
    eio_sids = list(eio_sids)
    try:
        sockets, environs, timeout = compat.eio_server(server)
    except Exception as exc:  # nothing can be read: every recipient the library's way
        _failed(exc, "the server's sockets")
        for eio_sid in eio_sids:
            send_the_library_way(server, eio_sid, eio_pkts)
        return
    wall = time.time()
    frames: list[bytes] | None = None
    direct = queued = 0
    for eio_sid in eio_sids:
        done = 0  # packets written or queued (one, but for a message with binary attachments)
        try:
            sock = compat.live_socket(sockets, eio_sid)
            if sock is None:
                continue  # (gone: `send_packet` would only log it)
            if compat.socket_gone(sock, wall, timeout):  # the library closes it
                send_the_library_way(server, eio_sid, eio_pkts)
                continue
            if compat.writer_idle(sock):
                environ = environs.get(eio_sid)
                write = environ.get(compat.ASGI_SCOPE, {}).get(SCOPE_KEY) if environ else None
                if write is not None:
                    if frames is None:
                        frames = [ws_frame(p.encode()) for p in eio_pkts]
                    while done < len(frames) and write(frames[done]):
                        done += 1  # (a write that fills the buffer: the rest waits in the queue)
            if done == len(eio_pkts):
                direct += 1
                continue
            for p in eio_pkts[done:]:
                compat.queue_packet(sock, p)
                done += 1
            queued += 1
        except Exception as exc:
            _failed(exc, f"socket {eio_sid}")
            send_the_library_way(server, eio_sid, eio_pkts[done:])
    counts["direct"] += direct
    counts["queued"] += queued


def send_the_library_way(server: socketio.AsyncServer, eio_sid: str, eio_pkts: list[Any]) -> None:
    """Send the packets to one socket as python-socketio's own `emit` does, through engine.io's
    public `send_packet` (which checks the client's pings and queues them, or closes the
    socket), in order, in a task of their own."""
    if not eio_pkts:
        return

    async def send() -> None:
        for p in eio_pkts:
            await server.eio.send_packet(eio_sid, p)

    task = asyncio.get_running_loop().create_task(send())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


_logged_failure = False


def _failed(exc: Exception, where: str) -> None:
    """Count a failure of the fast path; log the process's first one, with its traceback."""
    global _logged_failure
    counts["failed"] += 1
    if not _logged_failure:
        _logged_failure = True
        log.error(
            "fan-out: the fast path failed on %s (%s: %s); this socket and any other that "
            "fails from now on get their messages the library's way (logged once)",
            where,
            type(exc).__name__,
            exc,
            exc_info=exc,
        )


def install(server: socketio.AsyncServer) -> None:
    """Make a `FastEmit` the server's (single-process) manager, in place of the plain one it was
    given, before any client connected: python-socketio takes any manager (its
    `client_manager`), and one is handed its server as the server does (`compat.assign_manager`)."""
    manager = server.manager
    if isinstance(manager, FastEmit):
        return
    if type(manager) is not socketio.AsyncManager:
        raise TypeError(f"unexpected socket.io manager {type(manager).__name__}")
    if compat.serving(server):
        raise RuntimeError("the socket.io server already serves clients: too late for FastEmit")
    compat.assign_manager(server, FastEmit())
