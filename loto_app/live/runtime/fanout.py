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


def queue_all(server: socketio.AsyncServer, eio_sids: Any, eio_pkts: list[Any]) -> None:
    """Put the packets on each socket's queue."""
    eio = server.eio
    sockets = eio.sockets
    timeout = eio.ping_timeout
    wall = time.time()
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
        for p in eio_pkts:
            sock.queue.put_nowait(p)


def install(server: socketio.AsyncServer) -> None:
    """Make the server's (single-process) manager a `FastEmit`."""
    manager = server.manager
    if isinstance(manager, FastEmit):
        return
    if type(manager) is not socketio.AsyncManager:
        raise TypeError(f"unexpected socket.io manager {type(manager).__name__}")
    manager.__class__ = FastEmit  # (no state of its own: only `emit` differs)
