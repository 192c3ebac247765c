"""Room messages queued on each socket at once, without one asyncio task per recipient.

python-socketio 5.18's `AsyncManager.emit` encodes a message once, then creates one asyncio task
per recipient (`_send_eio_packet` -> `send_packet` -> `AsyncSocket.send` -> `queue.put`) and
gathers them: for a draw's picture to 1,000 phones, a thousand tasks created, scheduled and
awaited (10-15 % of the broadcast's server CPU, measured: the rest is each socket's writer and
Granian). A socket's `send` only checks that its client
still answers pings and puts the packet on the socket's queue (its writer task sends it), so the
same can be done for every recipient in one loop, synchronously: `FastEmit.emit`. Same packet,
same per-socket order (the queue), same checks; a socket whose client stopped answering goes the
library's way (`send` closes it).

With the lean server (the default, loto_app/lean_server.py), an idle websocket does not even
need its writer: the message's frame, built once, is written on the connection right away
(`queue_all`).

Installed on the process's manager (`install`), and mixed into the Redis manager of several
workers (broadcast.py), whose relayed messages end in `AsyncManager.emit` on each worker.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import socketio
from engineio import packet as eio_packet
from socketio import packet as sio_packet

_tasks: set[asyncio.Task] = set()  # the slow sends in flight (a task needs a strong reference)


class FastEmit(socketio.AsyncManager):
    """`AsyncManager` whose callback-less `emit` queues the packet on each recipient's socket in
    one loop (see the module's docstring)."""

    async def emit(  # type: ignore[override]
        self,
        event: str,
        data: Any,
        namespace: str,
        room: Any = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: Any = None,
        **kwargs: Any,
    ) -> None:
        room = to or room
        kwargs.pop("ignore_queue", None)  # (AsyncServer.emit always passes it; no queue here)
        if callback is not None or kwargs or namespace not in self.rooms:
            await super().emit(
                event, data, namespace, room=room, skip_sid=skip_sid, callback=callback, **kwargs
            )
            return
        if isinstance(data, tuple):
            data = list(data)
        elif data is not None:
            data = [data]
        else:
            data = []
        skip = skip_sid if isinstance(skip_sid, list) else [skip_sid]
        pkt = self.server.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, *data])
        encoded = pkt.encode()
        eio_pkts = [
            eio_packet.Packet(eio_packet.MESSAGE, p)
            for p in (encoded if isinstance(encoded, list) else [encoded])
        ]
        queue_all(
            self.server,
            (eio_sid for sid, eio_sid in self.get_participants(namespace, room) if sid not in skip),
            eio_pkts,
        )


#: Where a websocket's ASGI scope holds its `write_frame(frame) -> bool`, when the server offers
#: one (loto_app/lean_server.py: gunicorn + uvicorn, the default server).
SCOPE_KEY = "loto.write_frame"

#: Messages written straight on the connection (`queue_all`), and the ones queued (the tests
#: read them).
counts = {"direct": 0, "queued": 0}


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


def writer_idle(sock: Any) -> bool:
    """The socket's writer task waits for its next packet: none is queued or being sent."""
    q = sock.queue
    return q.empty() and any(not g.done() for g in q._getters)


def queue_all(server: socketio.AsyncServer, eio_sids: Any, eio_pkts: list[Any]) -> None:
    """Put the packets on each socket's queue; or, on a websocket whose writer is idle and whose
    server offers it (`SCOPE_KEY`), write their frames, built once, on the connection now.

    A draw's picture to 2,000 phones then costs a write each, instead of waking each socket's
    writer task, which takes the packet off its queue (engine.io's `poll` starts a task and a
    timer for it), encodes it and sends it through three ASGI `send` wrappers to the server's
    protocol, which frames it. Same bytes on the wire, same order: the direct path is taken only
    when nothing is queued or being sent on that socket."""
    eio = server.eio
    sockets = eio.sockets
    environs = server.environ
    timeout = eio.ping_timeout
    wall = time.time()
    frames: list[bytes] | None = None
    direct = queued = 0
    for eio_sid in eio_sids:
        sock = sockets.get(eio_sid)
        if sock is None or sock.closed:
            continue  # (gone: `send_packet` would only log it)
        last = sock.last_ping
        if last and wall - last > timeout:  # the client is gone: the library closes the socket
            for p in eio_pkts:
                task = asyncio.get_running_loop().create_task(server._send_eio_packet(eio_sid, p))
                _tasks.add(task)
                task.add_done_callback(_tasks.discard)
            continue
        done = 0  # packets written (one, but for a message with binary attachments)
        if sock.upgraded and not sock.upgrading and writer_idle(sock):
            environ = environs.get(eio_sid)
            write = environ.get("asgi.scope", {}).get(SCOPE_KEY) if environ else None
            if write is not None:
                if frames is None:
                    frames = [ws_frame(p.encode()) for p in eio_pkts]
                while done < len(frames) and write(frames[done]):
                    done += 1  # (a write that fills the buffer: the rest waits in the queue)
        if done == len(eio_pkts):
            direct += 1
            continue
        for p in eio_pkts[done:]:
            sock.queue.put_nowait(p)
        queued += 1
    counts["direct"] += direct
    counts["queued"] += queued


def install(server: socketio.AsyncServer) -> None:
    """Make the server's (single-process) manager a `FastEmit`."""
    manager = server.manager
    if isinstance(manager, FastEmit):
        return
    if type(manager) is not socketio.AsyncManager:
        raise TypeError(f"unexpected socket.io manager {type(manager).__name__}")
    manager.__class__ = FastEmit  # (no state of its own: only `emit` differs)
