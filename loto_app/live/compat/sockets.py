"""python-socketio 5.18 and python-engineio 4.15 (requirements.lock: python-socketio 5.18.1,
python-engineio 4.15.1): what the fan-out and the rooms of several workers use of the socket.io
managers, packets and engine.io sockets beyond the documented API. Imported through
`loto_app.live.compat`.

Documented, and used directly elsewhere: a server's `emit`, `enter_room`, `eio.send_packet`,
its `client_manager`, and `AsyncManager`/`AsyncRedisManager` as classes to give it.
"""

from __future__ import annotations

from typing import Any

import socketio
from engineio import packet as eio_packet
from socketio import packet as sio_packet

__all__ = [
    "ASGI_SCOPE",
    "HERE_ONLY",
    "PacketManager",
    "RedisManager",
    "assign_manager",
    "eio_server",
    "live_socket",
    "manager_rooms",
    "queue_packet",
    "serving",
    "socket_gone",
    "writer_idle",
]

# ================================================================== python-socketio 5.18

#: The environ key under which python-engineio's ASGI driver keeps a connection's ASGI scope.
ASGI_SCOPE = "asgi.scope"

#: The keyword of python-socketio's `emit` (the server's, passed on to its manager's) for "this
#: process's sockets only": a Redis manager then sends the message here without publishing it.
HERE_ONLY = "ignore_queue"


def manager_rooms(manager: socketio.AsyncManager) -> dict[str, Any]:
    """The manager's rooms, `{namespace: {room: {sid: eio_sid}}}` (`rooms`)."""
    return manager.rooms


def serving(server: socketio.AsyncServer) -> bool:
    """Has the server's manager served a client already (initialized on the first connection,
    `manager_initialized`, or holding rooms)?"""
    return bool(server.manager_initialized or manager_rooms(server.manager))


def assign_manager(server: socketio.AsyncServer, manager: socketio.AsyncManager) -> None:
    """Make `manager` the server's, as the server does with the one it is given (its
    `client_manager`): handed the server (`set_server`), initialized on the first connection
    (`manager`, `manager_initialized`). Before any client connected."""
    manager.set_server(server)
    server.manager = manager
    server.manager_initialized = False


class PacketManager(socketio.AsyncManager):
    """python-socketio's manager whose `emit` of a message without a callback, to a namespace
    with rooms, encodes the message once into its engine.io packets (a socket.io EVENT packet,
    `server.packet_class`, in engine.io MESSAGE packets) and hands them, with the engine.io sids
    of its recipients (`get_participants`, less `skip_sid`), to `deliver`. Anything else, or a
    failure to build them (then `failed` is told), goes the library's way (`AsyncManager.emit`).

    `emit` overrides the manager's (its signature: `event, data, namespace, room, skip_sid,
    callback, to, **kwargs`) and drops `HERE_ONLY`, which the server's `emit` always passes."""

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
        kwargs.pop(HERE_ONLY, None)  # (no queue here: the message is this process's anyway)
        if callback is not None or kwargs or namespace not in manager_rooms(self):
            await super().emit(
                event, data, namespace, room=room, skip_sid=skip_sid, callback=callback, **kwargs
            )
            return
        args = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        skip = skip_sid if isinstance(skip_sid, list) else [skip_sid]
        try:
            pkt = self.server.packet_class(
                sio_packet.EVENT, namespace=namespace, data=[event, *args]
            )
            encoded = pkt.encode()
            eio_pkts = [
                eio_packet.Packet(eio_packet.MESSAGE, p)
                for p in (encoded if isinstance(encoded, list) else [encoded])
            ]
            eio_sids = [
                eio_sid
                for sid, eio_sid in self.get_participants(namespace, room)
                if sid not in skip
            ]
        except Exception as exc:  # (an upgrade changed what this reads): the library's emit
            self.failed(exc, f"the message to {room!r}")
            await super().emit(event, data, namespace, room=room, skip_sid=skip_sid)
            return
        self.deliver(eio_sids, eio_pkts)

    def deliver(self, eio_sids: list[str], eio_pkts: list[Any]) -> None:
        """The hook: send these packets, in order, to each of these engine.io sockets."""
        raise NotImplementedError

    def failed(self, exc: Exception, where: str) -> None:
        """The hook: the packets or recipients of a message could not be built (`where`)."""


class RedisManager(socketio.AsyncRedisManager):
    """python-socketio's Redis manager (several workers), which

    - sends a message to one socket of this process here only (`HERE_ONLY`, when the sid is
      connected here: `is_connected`), since python-socketio publishes every other emit,
      which each other worker decodes only to find the socket is not its own;
    - calls `reconnected()` each time its connection to Redis is made again (after the first:
      `_redis_connect`, which its listener calls after every failure)."""

    _connections = 0

    async def emit(  # type: ignore[override]
        self,
        event: str,
        data: Any,
        namespace: str | None = None,
        room: Any = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: Any = None,
        **kwargs: Any,
    ) -> None:
        room = to or room
        ns = namespace or "/"
        if callback is None and isinstance(room, str) and self.is_connected(room, ns):
            kwargs[HERE_ONLY] = True
        await super().emit(
            event, data, namespace=ns, room=room, skip_sid=skip_sid, callback=callback, **kwargs
        )

    def _redis_connect(self) -> None:
        super()._redis_connect()
        self._connections += 1
        if self._connections > 1:
            self.reconnected()

    def reconnected(self) -> None:
        """The hook: the connection to Redis came back."""


# ================================================================== python-engineio 4.15


def eio_server(server: socketio.AsyncServer) -> tuple[dict[str, Any], dict[str, Any], float]:
    """A socket.io server's engine.io sockets (`eio.sockets`, by engine.io sid), their WSGI/ASGI
    environs (`environ`, by the same sid) and its ping timeout (s)."""
    eio = server.eio
    return eio.sockets, server.environ, eio.ping_timeout


def live_socket(sockets: dict[str, Any], eio_sid: str) -> Any | None:
    """The engine.io socket of a sid, unless it is gone or closed (`closed`)."""
    sock = sockets.get(eio_sid)
    return None if sock is None or sock.closed else sock


def socket_gone(sock: Any, wall: float, timeout: float) -> bool:
    """Has the client of this engine.io socket stopped answering pings (`last_ping`), as its
    `send` checks before it closes the socket?"""
    last = sock.last_ping
    return bool(last) and wall - last > timeout


def writer_idle(sock: Any) -> bool:
    """An upgraded websocket (`upgraded`, not `upgrading`) whose writer task waits for its next
    packet: none is queued or being sent (its `queue`, and the asyncio queue's `_getters`)."""
    if not sock.upgraded or sock.upgrading:
        return False
    q = sock.queue
    return q.empty() and any(not g.done() for g in q._getters)


def queue_packet(sock: Any, pkt: Any) -> None:
    """Put a packet on the socket's queue, which its writer task sends (`queue`), as `send`
    does once it checked the pings."""
    sock.queue.put_nowait(pkt)
