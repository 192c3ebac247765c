"""Fan-out: one ready-made delta per change, emitted to a socket.io room.

Every browser of an evening joins the room `loto:<evening id>` when its page loads (and again
after every reconnect, since membership follows the socket). A change is published as one
`event` message `{"delta": {HallView: {...}}}`: the frontend applies it like any Reflex update.
This is the mechanism the fan-out probe measured best (docs/ARCHITECTURE.md, "Why one delta to a
socket.io room"): one serialisation per
change, whatever the number of phones. The server never reads the per-client copies of these
vars: they are display slots; the truth is the engine.

A player's private data changes rarely because of others (a consolation carton, a lot ticket,
a share offer): the player's own sockets, in the room `loto:<evening>:<player>`, are then
asked to run their `refresh` handler, which reloads the private view the ordinary Reflex way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from loto_app import shared_redis
from loto_app.domain import events as ev
from loto_app.live import compat
from loto_app.live.present.snapshot import public_snapshot
from loto_app.live.runtime import fanout, registry
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.storage.db import database_url

if TYPE_CHECKING:
    import reflex as rx

    from loto_app.domain.engine import Evening

log = logging.getLogger(__name__)

_app: rx.App | None = None
#: The sequence number of the last picture sent to everyone, per live evening.
_pictured: weakref.WeakKeyDictionary[LiveEvening, int] = weakref.WeakKeyDictionary()
#: The last player count sent to the animateur's tablets, per live evening.
_counted: weakref.WeakKeyDictionary[LiveEvening, int] = weakref.WeakKeyDictionary()
_hall_state: str = ""
_hall_cls: type | None = None
_refresh_event: str = ""


def room(evening_id: int) -> str:
    """The socket.io room of everyone following an evening."""
    return f"loto:{evening_id}"


def player_room(evening_id: int, player_id: str) -> str:
    """The socket.io room of one player's sockets (phone, second tab)."""
    return f"loto:{evening_id}:{player_id}"


#: The last part of the staff's, the desk's and the hall screens' room names (a player's room
#: ends with the player's id, 16 hex digits: live/runtime/presence.py counts them).
STAFF, DESK, SCREEN = "staff", "desk", "screen"


def staff_room(evening_id: int) -> str:
    """The socket.io room of the animateur's tablets (they see joins as they happen)."""
    return f"loto:{evening_id}:{STAFF}"


def desk_room(evening_id: int) -> str:
    """The socket.io room of the desk (vendeurs and caissiers at /caisse)."""
    return f"loto:{evening_id}:{DESK}"


def screen_room(evening_id: int) -> str:
    """The socket.io room of the hall screens (/ecran) showing an evening."""
    return f"loto:{evening_id}:{SCREEN}"


async def poke_rooms(rooms: list[str], handler: str) -> None:
    """Make every browser in these rooms send the event `handler` (the check before the doors
    open asks who is there: live/runtime/roll_call.py)."""
    for name in rooms:
        await _emit(compat.poke(compat.event(handler)), name)


async def run_script(to: str, javascript: str) -> None:
    """Make every browser in a room (or one socket) run this script."""
    await _emit(compat.poke(compat.call_script(javascript)), to)


_desk_refresh_event: str = ""
_tasks: set[asyncio.Task] = set()  # resyncs in flight (a task needs a strong reference)

#: Events that change what the desk sees (sales, orders, lots to hand over). Not joins: a
#: join storm must not make every desk reload its lists a thousand times.
DESK_EVENTS = (
    ev.SaleRecorded,
    ev.PaymentConfirmed,
    ev.SaleCancelled,
    ev.TillClosed,
    ev.StageAwarded,
    ev.LotHandedOver,
    ev.VoucherIssued,
    ev.LotGiven,
    ev.AwardWithdrawn,
    ev.ProgramAmended,  # (the tariff may have changed)
    ev.EveningClosed,
)


_staff_recheck_event: str = ""


def bind_staff(recheck_handler: str) -> None:
    """The animateur's re-check handler, poked when the animateur's secret was renewed."""
    global _staff_recheck_event
    _staff_recheck_event = recheck_handler


async def recheck_staff(evening_id: int) -> None:
    """Make every animateur tablet of the evening check its secret again now (a renewed secret
    signs out the tablets that used the old one; other processes' tablets find out at their
    next action)."""
    if _app is None or not _staff_recheck_event:
        return
    await _emit(compat.poke(compat.event(_staff_recheck_event)), staff_room(evening_id))


def bind_desk(refresh_handler: str) -> None:
    """The desk's refresh handler, poked after every change of the till or the lots."""
    global _desk_refresh_event
    _desk_refresh_event = refresh_handler


def bind(app: rx.App, hall_state: type, refresh_handler: str) -> None:
    """Wire the broadcast to the app, the public state class and the private refresh handler."""
    global _app, _hall_state, _hall_cls, _refresh_event
    _app = app
    _hall_state, _hall_cls = hall_state.get_full_name(), hall_state
    _refresh_event = refresh_handler
    registry.on_change(publish)
    redis_url = shared_redis.redis_url()
    if redis_url:
        app.register_lifespan_task(_rooms_across_workers(app, redis_url))
    elif app.sio is not None:
        fanout.install(app.sio)  # every message queued on its sockets in one loop


def _rooms_across_workers(app: rx.App, redis_url: str):
    """Several workers: socket.io room emits go through Redis pub/sub to every worker."""

    @contextlib.asynccontextmanager
    async def task() -> AsyncIterator[None]:
        assert app.sio is not None
        # (before any connection: its listener starts on the first one)
        compat.assign_manager(app.sio, _redis_manager(redis_url, channel=rooms_channel()))
        log.info("socket.io rooms relayed through Redis at %s", redis_url)
        yield

    return task


def rooms_channel(db_url: str | None = None) -> str:
    """The Redis pub/sub channel of this deployment's room messages: one per database, so that
    two apps sharing a Redis server (two associations on one host, two test runs on one machine)
    never hear each other's rooms, whose names (`loto:<evening id>`) repeat across databases.
    `LOTO_REDIS_CHANNEL` overrides it."""
    explicit = os.environ.get("LOTO_REDIS_CHANNEL")
    if explicit:
        return explicit
    digest = hashlib.sha256((db_url or database_url()).encode()).hexdigest()[:16]
    return f"loto-rooms:{digest}"


class _RedisManager(compat.RedisManager, fanout.FastEmit):
    """python-socketio's Redis manager, plus: when its connection comes back (Redis restarted),
    this worker's sockets get the current picture of every evening again, since what other
    workers published meanwhile never reached them. The messages it relays are queued on this
    worker's sockets by `fanout.FastEmit`.

    A message to one socket of this worker is sent here only, not through Redis
    (`compat.RedisManager`): Reflex answers every event of a phone on the socket that sent it (a
    join's hydrate, the marks' acks), and python-socketio publishes every emit, which each other
    worker decoded only to find the socket was not its own (a JSON round trip per reply and per
    worker, and Redis traffic). A socket of another worker, a room, everyone: through Redis."""

    def reconnected(self) -> None:
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to resync
            task = asyncio.get_running_loop().create_task(resync_local_rooms())
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)


def _redis_manager(url: str, channel: str) -> Any:
    """A socket.io Redis manager that resyncs this worker's rooms after a Redis outage."""
    return _RedisManager(url, channel=channel)


async def resync_local_rooms() -> None:
    """Send the current public picture of every evening this worker serves to its own
    sockets (not through Redis): after a Redis outage, room messages may have been lost. The
    pages' states are not in Redis (rxconfig.py: in each worker's memory): a Redis restarted
    without its data costs them nothing."""
    await asyncio.sleep(0.5)  # let the other workers reconnect and commit what was in flight
    for evening_id in list(registry.served()):
        try:
            # (a full picture: were a move's broadcast to overtake it, the next one repairs it)
            lv = await registry.live(evening_id)
            snap = delta(picture(lv))
            assert _app is not None
            await compat.send(_app, snap, room(evening_id), here_only=True)
            log.warning("evening %s: public picture re-sent after a Redis reconnect", evening_id)
        except Exception:
            log.exception("evening %s: resync after a Redis reconnect failed", evening_id)


def delta(values: dict[str, Any]) -> dict[str, Any]:
    """A frontend update that sets HallView vars."""
    return compat.delta(_hall_state, values)


async def _emit(message: dict[str, Any], to: str, skip_sid: str | None = None) -> None:
    assert _app is not None, "broadcast.bind() was not called"
    await compat.send(_app, message, to, skip_sid=skip_sid)


async def enter(
    sid: str,
    evening_id: int,
    player_id: str | None = None,
    *,
    staff: bool = False,
    desk: bool = False,
    screen: bool = False,
) -> None:
    """Put a socket in the evening's rooms."""
    assert _app is not None and _app.sio is not None
    ns = compat.event_namespace(_app)
    await _app.sio.enter_room(sid, room(evening_id), namespace=ns)
    if desk:
        await _app.sio.enter_room(sid, desk_room(evening_id), namespace=ns)
    if player_id:
        await _app.sio.enter_room(sid, player_room(evening_id, player_id), namespace=ns)
    if staff:
        await _app.sio.enter_room(sid, staff_room(evening_id), namespace=ns)
    if screen:
        await _app.sio.enter_room(sid, screen_room(evening_id), namespace=ns)


async def reload_page(sid: str) -> None:
    """Make one browser reload its page. Used when Reflex's per-client state was lost (the
    process that held it in memory restarted, or dropped it once idle): the identity kept in the
    browser's local storage is sent again by a page load, and the page's on_load handler signs
    it back in."""
    # The state that lost its identity may still send its (empty) local-storage vars: this
    # page stops writing local storage before it reloads, so the identity survives.
    script = "Storage.prototype.setItem = function () {}; window.location.reload()"
    await _emit(compat.poke(compat.call_script(script)), sid)


async def reload_room(evening_id: int) -> None:
    """Make every page of an evening load again (the evening was deleted: a rehearsal); each
    then finds its code unknown and says so (`reload_page`'s script: the stored identity is
    left to the page's own sign-in, which drops it)."""
    script = "Storage.prototype.setItem = function () {}; window.location.reload()"
    await _emit(compat.poke(compat.call_script(script)), room(evening_id))


#: The public picture of each live evening, with the sequence number it was made at.
_pictures: weakref.WeakKeyDictionary[LiveEvening, tuple[int, dict[str, Any]]] = (
    weakref.WeakKeyDictionary()
)


def picture(lv: LiveEvening) -> dict[str, Any]:
    """The evening's public picture as it stands (made once per committed state: every page
    that loads, or reconnects after a restart, asks for it)."""
    cached = _pictures.get(lv)
    if cached is not None and cached[0] == lv.seq:
        return cached[1]
    values = public_snapshot(
        lv.evening, lv.name, lv.join_code, lv.drawn_at, lv.game_times, lv.rehearsal
    )
    _pictures[lv] = (lv.seq, values)
    return values


async def send_snapshot(sid: str, lv: LiveEvening) -> None:
    """The whole public picture to one socket (a page that just loaded)."""
    await _emit(delta(picture(lv)), sid)


async def fill_hall(state: rx.State, lv: LiveEvening) -> None:
    """Put the public picture in this client's own HallView, so that the next snapshot Reflex
    sends of the whole state (a page's hydrate) shows the evening as it is, not an empty one."""
    assert _hall_cls is not None, "broadcast.bind() was not called"
    hall = await state.get_state(_hall_cls)
    for name, value in picture(lv).items():
        setattr(hall, name, value)


#: A tie of more players than this tells the others with whom no more (each valid claim would
#: poke every earlier one); their verdict already says "ex aequo".
MAX_TIE_POKES = 10

#: Events that change what everyone sees (marks, sales and joins are private).
PUBLIC_EVENTS = (
    ev.GameStarted,
    ev.NumberDrawn,
    ev.DrawCorrected,
    ev.ClaimMade,
    ev.ShareOffered,
    ev.ShareAnswered,
    ev.TieBroken,
    ev.StageAwarded,
    ev.UnmarkAllowed,
    ev.LastCallOpened,
    ev.LastCallClosed,
    ev.VoucherIssued,
    ev.ProgramAmended,  # the lots, the games to come and the settings everyone reads
    ev.PauseStarted,  # the hall screen's entracte
    ev.PauseEnded,
    ev.LotPhotoSet,  # the pictures the hall screen and the phones show
    ev.PartnerAdded,
    ev.PartnerRemoved,
    ev.DrawCommitted,  # (with GameStarted: the commitment everyone is shown)
    ev.DrawRevealed,
    ev.EveningClosed,
    ev.StageLapsed,  # a jackpot gone: the stage in play changed
    ev.SuddenDeathBall,  # the mort subite's balls, on the tablet and the hall screen
    *ev.DISPUTE_EVENTS,
)


def _knocked_out(e: Evening, x: ev.NumberDrawn | ev.DrawCorrected) -> set[str]:
    """A partie inversée: the owners of the cartons this number put out (their phones say
    "Éliminé"); nobody in any other game (a number changes no private view there)."""
    if x.game >= len(e.games) or e.games[x.game].spec.game_type.claimed:
        return set()
    numbers = (x.number,) if isinstance(x, ev.NumberDrawn) else (x.old, x.new)
    g = e.games[x.game]
    return {
        p
        for n in numbers
        for no in e.cartons_with(n)
        if e.plays(no, g) and (p := e.owner(no)) is not None
    }


def touched_players(events: list[ev.Event], lv: LiveEvening | None = None) -> set[str]:
    """Players whose private view changed: cartons received, orders recorded or cancelled,
    lot tickets and vouchers, share offers, token draws, the decisions that concern them, and
    everyone's cartons when a game starts or ends (playing / annulled)."""
    out: set[str] = set()
    for x in events:
        match x:
            case ev.CartonsSold() | ev.SaleRecorded():
                out.add(x.player_id)
            case ev.SaleCancelled() if lv is not None and x.sale_no in lv.evening.sales:
                out.add(lv.evening.sales[x.sale_no].player_id)
            case ev.StageAwarded():
                out.update(t.player_id for t in ev.issued_tickets(x))
            case ev.ShareOffered():
                out.update(x.players)
            case ev.ShareAnswered() if lv is not None and x.game < len(lv.evening.games):
                out.update(lv.evening.games[x.game].tie.share_offered_to)
            case ev.ClaimMade() if lv is not None and x.verdict == "valid":
                # a tie forms or grows: the players already in it read with whom (a few)
                entries = lv.evening.games[x.game].valid.get(x.stage, {})
                if 1 < len(entries) <= MAX_TIE_POKES:
                    out.update(p for p in entries if p != x.player_id)
            case ev.TieBroken():
                out.update(p for p, _ in x.tokens)
                out.update(x.winners)
            case ev.SuddenDeathBall() if lv is not None and x.game < len(lv.evening.games):
                out.update(lv.evening.games[x.game].entries())  # who is still in
            case ev.NumberDrawn() | ev.DrawCorrected() if lv is not None:
                out |= _knocked_out(lv.evening, x)
            case ev.VoucherIssued() | ev.LotGiven() | ev.ConsolationGiven() | ev.AwardWithdrawn():
                out.add(x.player_id)
            case ev.CartonReinstated() if x.player_id:
                out.add(x.player_id)
            case ev.VerdictOverturned() if lv is not None and x.game < len(lv.evening.games):
                claim = lv.evening.games[x.game].claim(x.claim_no)
                if claim is not None and claim.player_id:
                    out.add(claim.player_id)
    return out


@dataclass(frozen=True, slots=True)
class Emit:
    """One socket.io message of a publication: to a room (or a socket), maybe not to the
    socket that made the move."""

    to: str
    message: dict[str, Any]
    skip_sid: str | None = None


def routes(
    evening_id: int, lv: LiveEvening, events: list[ev.Event], actor: str | None = None
) -> list[Emit]:
    """What to send, and to whom, once a move's events are committed: the public picture to
    everyone (once per committed state), the player count to the animateur's tablets, a poke
    to the desk and to each player whose private view changed."""
    out: list[Emit] = []
    if any(isinstance(x, PUBLIC_EVENTS) for x in events):
        # One picture per committed state: the moves of one batch (a claim storm) are published
        # after their common commit, and all would send the same picture.
        if _pictured.get(lv) != lv.seq:
            _pictured[lv] = lv.seq
            out.append(Emit(room(evening_id), delta(picture(lv))))
    elif any(isinstance(x, ev.PlayerJoined) for x in events):
        # One count per count: the joins of one batch (a storm: a dozen per commit) are
        # published after their common commit, and each would send the same number (with
        # several workers, each a message through Redis that every worker decodes).
        players = len(lv.evening.players)
        if _counted.get(lv) != players:
            _counted[lv] = players
            out.append(Emit(staff_room(evening_id), delta({"players": players})))
    if _desk_refresh_event and any(isinstance(x, DESK_EVENTS) for x in events):
        desk_poke = compat.poke(compat.event(_desk_refresh_event))
        out.append(Emit(desk_room(evening_id), desk_poke, skip_sid=actor))
    poke = compat.poke(compat.event(_refresh_event))
    if any(isinstance(x, (ev.GameStarted, ev.UnmarkAllowed)) for x in events):
        # which cartons play, marks and annulments reset: everyone's private view
        return [*out, Emit(room(evening_id), poke)]
    out += [
        Emit(player_room(evening_id, pid), poke, skip_sid=actor)
        for pid in sorted(touched_players(events, lv))
    ]
    return out


async def publish(
    evening_id: int, lv: LiveEvening, events: list[ev.Event], actor: str | None = None
) -> None:
    """The registry's publisher: send a committed move's `routes`."""
    if _app is None:
        return
    for r in routes(evening_id, lv, events, actor):
        await _emit(r.message, r.to, skip_sid=r.skip_sid)
