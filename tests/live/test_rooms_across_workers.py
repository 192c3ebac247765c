"""Two workers' socket.io servers (the lean server's settings) joined by the app's Redis manager
on a real Redis: a room message reaches the sockets of both, a message to a socket of the other
worker goes through Redis, and one to a socket of the same worker (Reflex's answer to each
event a phone sends) is written on its connection right away, never published."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
import redis.asyncio as aioredis
from local_servers import REDIS_MISSING, REDIS_URL, redis_up
from sio_harness import serve, stop, until

from loto_app.live.runtime import broadcast, fanout


async def _scenario() -> None:
    channel = f"loto-test-rooms-{uuid.uuid4().hex}"
    spy = aioredis.Redis.from_url(REDIS_URL)
    pubsub = spy.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    published: list[dict] = []

    async def listen() -> None:
        async for message in pubsub.listen():
            published.append(json.loads(message["data"]))

    listener = asyncio.get_running_loop().create_task(listen())
    a = await serve(False, ["hall"], True, broadcast._redis_manager(REDIS_URL, channel))
    b = await serve(False, ["hall"], True, broadcast._redis_manager(REDIS_URL, channel))
    (sio_a, _, _, (here,)), (_, _, _, (there,)) = a, b
    try:
        # both workers' listeners, and the spy, on the channel
        async def subscribers() -> int:
            return dict(await spy.pubsub_numsub(channel))[channel.encode()]

        for _ in range(500):
            if await subscribers() == 3:
                break
            await asyncio.sleep(0.01)
        assert await subscribers() == 3

        direct = fanout.counts["direct"]
        await sio_a.emit("event", {"to": "here"}, to=here.sid)
        await sio_a.emit("event", {"to": "there"}, to=there.sid)
        await sio_a.emit("event", {"to": "hall"}, to="hall")
        assert await until(lambda: len(here.events) == 2 and len(there.events) == 2)
        assert await until(lambda: len(published) == 2)
        await asyncio.sleep(0.2)  # (anything else published would be in by now)

        assert [json.loads(e[2:]) for e in here.events] == [
            ["event", {"to": "here"}],
            ["event", {"to": "hall"}],
        ]
        assert [json.loads(e[2:]) for e in there.events] == [
            ["event", {"to": "there"}],
            ["event", {"to": "hall"}],
        ]
        # the socket of this worker was never published to; the others were, in order
        assert [m["room"] for m in published] == [there.sid, "hall"]
        # all four written straight on their connections, the relayed ones too
        assert fanout.counts["direct"] - direct == 4
    finally:
        for srv in (a, b):
            await stop(*srv[1:])
        listener.cancel()
        await pubsub.aclose()
        await spy.aclose()


@pytest.mark.skipif(not redis_up(), reason=REDIS_MISSING)
def test_a_socket_of_this_worker_is_answered_here_and_others_through_redis() -> None:
    asyncio.run(_scenario())
