"""The phone emulator: browser tabs on the app's real websocket protocol, without a browser.

`WebSocket` is a minimal RFC 6455 client; `Tab` speaks engine.io 4 / socket.io 5 and Reflex's
event protocol over it as Chromium does (the boot event in the CONNECT packet, the server's
pokes sent back, redirects followed, local storage kept, marks batched as assets/loto.js
batches them); `Frontend` is what a browser has compiled in (read from `.web/`); `Bench` holds
what every tab of a run shares. bench/load.py (the load generator), bench/soak.py and
bench/crash.py drive it; the tests import it as they import any module (pytest's `pythonpath`,
pyproject.toml).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import json
import math
import os
import random
import re
import time
import urllib.parse
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EV = "42/_event,"  # socket.io EVENT packet on the /_event namespace
RE_LAST = re.compile(r'"last_rx_state_":\s*(\d+)')
RE_GAME = re.compile(r'"game_no_rx_state_":\s*(\d+)')
ACK = "marks_ack_rx_state_"  # the answer to a batch of marks (loto_app/live/gate/marks_path.py)
FLUSH_S = 1.0  # a batch of marks never goes sooner than this after the touch (assets/loto.js)
SPACING_S = 180.0  # a page's batches go in slots this far apart (assets/loto.js SPACING_MS), the
# first one at random within the spacing after the page's first touch
RESEND_S = 20.0  # ... and the batch again when it had no answer this long (a lost ack)
HYDRATED = '"is_hydrated_rx_state_":true'


class BenchError(Exception):
    """The benchmark cannot go on (reported in one line, exit status 2)."""


def now() -> float:
    """Monotonic clock, seconds."""
    return time.perf_counter()


async def until(cond: Callable[[], bool], timeout: float, step: float = 0.005) -> bool:
    """Poll `cond` until it holds or `timeout` seconds pass; returns whether it held."""
    end = now() + timeout
    while not cond():
        if now() >= end:
            return False
        await asyncio.sleep(step)
    return True


# ---------------------------------------------------------------------- the compiled frontend


def _by_name(local_storage: dict[str, dict[str, object]]) -> dict[str, tuple[str, ...]]:
    """The frontend's clientStorage, by storage name: the state keys kept under each."""
    out: dict[str, list[str]] = {}
    for key, spec in local_storage.items():
        out.setdefault(str(spec["name"]), []).append(key)
    return {name: tuple(keys) for name, keys in out.items()}


@dataclass(frozen=True)
class Frontend:
    """What a browser has compiled in: the state schema, initial hashes and state names."""

    schema: str
    hashes: list[str]
    root: str  # "reflex___state____state"
    player: str  # full name of PlayerState
    animateur: str
    hall: str
    caisse: str  # "" when the app has no sales desk
    update_vars: str  # handler names of the client-side navigation events
    on_load: str
    # storage name -> the state keys ("<state>.<var>_rx_state_") kept under it: two pages
    # may read one name (the animateur's code: /animateur and /verification), and the
    # browser sends it to each
    local_storage: dict[str, tuple[str, ...]]

    @classmethod
    def read(cls, web: Path) -> Frontend:
        """Parse `.web/utils/context.jsx` (Reflex 0.10.1 layout)."""
        text = (web / "utils" / "context.jsx").read_text()

        def grab(pattern: str) -> str:
            m = re.search(pattern, text)
            if m is None:
                raise BenchError(f"{web}/utils/context.jsx: no match for {pattern!r}")
            return m.group(1)

        initial = json.loads(grab(r"export const initialState = (\{.*\})\n"))
        storage = json.loads(grab(r"export const clientStorage = (\{.*\})\n"))
        root = grab(r'export const state_name = "([^"]+)"')

        def state(suffix: str, *, optional: bool = False) -> str:
            names = [k for k in initial if k.endswith(suffix)]
            if len(names) != 1:
                if optional:
                    return ""
                raise BenchError(f"context.jsx: state *{suffix} not found (is .web built?)")
            return names[0]

        return cls(
            schema=grab(r'export const stateSchema = "([0-9a-f]+)"'),
            hashes=json.loads(grab(r"export const initialStateHashes = (\[.*?\])")),
            root=root,
            player=state("___player____player_state"),
            animateur=state("___animateur____animateur_state"),
            hall=state("___hall____hall_view"),
            caisse=state("___caisse____caisse_state", optional=True),
            update_vars=f"{state('update_vars_internal_state')}.update_vars_internal",
            on_load=f"{state('on_load_internal_state')}.on_load_internal",
            local_storage=_by_name(storage["local_storage"]),
        )


# ---------------------------------------------------------------------- one browser tab


def route(path: str) -> dict[str, Any]:
    """router_data as the frontend's withRouterData() builds it."""
    parts = urllib.parse.urlsplit(path)
    data: dict[str, Any] = {"pathname": parts.path, "asPath": path}
    if parts.query:
        data["query"] = dict(urllib.parse.parse_qsl(parts.query))
    return data


class WebSocket(asyncio.Protocol):
    """A minimal RFC 6455 client (text frames, no extensions), cheap per frame so that the
    emulator, not the server, is never what is measured: each frame is handled right in
    `data_received`, without waking a task."""

    def __init__(self, on_text: Callable[[str], None], on_close: Callable[[str], None]) -> None:
        self.on_text, self.on_close = on_text, on_close
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.buf = bytearray()
        self.parts: list[bytes] = []
        self.key = base64.b64encode(os.urandom(16)).decode()

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        target: str,
        on_text: Callable[[str], None],
        on_close: Callable[[str], None],
        timeout: float,
    ) -> WebSocket:
        """Open the TCP connection and do the HTTP upgrade."""
        loop = asyncio.get_running_loop()
        _, ws = await asyncio.wait_for(
            loop.create_connection(lambda: cls(on_text, on_close), host, port), timeout
        )
        ws.transport.write(
            (
                f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {ws.key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        try:
            await asyncio.wait_for(ws.opened, timeout)
        except BaseException:
            ws.close()
            raise
        return ws

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed during the handshake ({exc})"))
        self.on_close(f"connection lost ({exc})" if exc else "")

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1")
            del buf[: end + 4]
            if not head.startswith("HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head.split("\r\n")[0]))
                self.transport.close()
                return
            self.opened.set_result(True)
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, i = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, i = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, i = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < i + n:
                return
            payload = bytes(buf[i : i + n])
            del buf[: i + n]
            op = b0 & 0x0F
            if op in (0, 1, 2):
                self.parts.append(payload)
                if b0 & 0x80:  # FIN
                    text = b"".join(self.parts).decode()
                    self.parts.clear()
                    self.on_text(text)
            elif op == 9:  # ping -> pong
                self._frame(10, payload)
            elif op == 8:  # close
                self.close()
                return

    def _frame(self, op: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | op, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | op, 0x80 | 127)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        body = (int.from_bytes(payload, "big") ^ key).to_bytes(n, "big")
        self.transport.write(head + mask + body)

    def send(self, text: str) -> bool:
        """Send a text message; False when the socket is closed."""
        if self.transport is None or self.transport.is_closing():
            return False
        self._frame(1, text.encode())
        return True

    def close(self) -> None:
        """Send a close frame and drop the connection."""
        if self.transport is not None and not self.transport.is_closing():
            self._frame(8, (1000).to_bytes(2, "big"))
            self.transport.close()


class Tab:
    """One emulated browser tab: a websocket speaking engine.io 4 / socket.io 5 like Chromium."""

    def __init__(self, bench: Bench, label: str) -> None:
        self.b = bench
        self.fe = bench.fe
        self.label = label
        self.token = str(uuid.uuid4())  # sessionStorage token: kept across a reload
        self.path = "/"
        self.storage: dict[str, str] = {}  # localStorage: storage name -> value
        self.seen: dict[int, float] = {}  # HallView `last` -> first time received
        self.errors: list[str] = []
        self.hydrated = False
        self.player: dict[str, Any] = {}  # latest PlayerState vars (without the marker)
        self.animateur: dict[str, Any] = {}
        self.caisse: dict[str, Any] = {}
        self.hall: dict[str, Any] = {}  # HallView vars, kept only when `track_hall`
        self.track_hall = False
        self.cartons_at: list[float] = []  # times a PlayerState delta with cartons arrived
        self.redirects: list[str] = []
        self.new_tokens = 0
        self.changed = asyncio.Event()  # set after every received message
        self.sent = 0  # events sent (boot events included)
        self.pokes = 0  # events pushed by the server and sent back
        self.reloads = 0  # page reloads the server asked for (its state of this tab was lost)
        self.storage_frozen = False  # a reload was asked: no local-storage write until it
        self.marking = False  # mark drawn numbers found on my playing cartons
        self.where: dict[int, list[int]] = {}  # number -> my playing cartons holding it
        self.mark_sent: dict[str, float] = {}  # "<carton>-<number>" -> touched, unconfirmed
        self.mark_ops: dict[str, int] = {}  # ops not yet confirmed, as assets/loto.js keeps them
        self.mark_batch: tuple[int, dict[str, int], float] | None = None  # (id, ops, sent)
        self.batches = 0  # batches of marks sent
        self.slot = 0.0  # this page's next batch slot (0: not drawn yet: no touch yet)
        self.game_no = 0  # HallView.game_no, as the last picture said
        self._flush: asyncio.TimerHandle | None = None
        self.marks_due = 0  # numbers of mine that came out and that I have yet to touch
        self.verdict_at = 0.0  # when a PlayerState delta with a verdict last arrived
        self._ws: WebSocket | None = None

    # -- transport

    async def open(self, path: str, *, first: bool = True) -> None:
        """Open the socket and send the boot event for `path` (a page load)."""
        self.close()
        self.path, self.hydrated, self.storage_frozen = path, False, False
        target = f"/_event/?EIO=4&transport=websocket&token={self.token}"
        self._ws = await WebSocket.connect(
            self.b.host, self.b.port, target, self._frame, self._lost, self.b.args.step_timeout
        )
        payload: dict[str, Any] = {}
        if self.storage:
            payload["vars"] = self._storage_vars()
        if first:
            payload["hashes"] = self.fe.hashes
        boot = {"name": f"{self.fe.root}.hydrate_and_load", "router_data": route(path)}
        if payload:
            boot["payload"] = payload
        self._send("40/_event," + json.dumps({"event": boot, "state_schema": self.fe.schema}))

    def close(self) -> None:
        """Close the socket (a tab closed or reloaded)."""
        ws, self._ws = self._ws, None
        if ws is not None:
            ws.close()

    async def until(self, cond: Callable[[], Any], timeout: float) -> bool:
        """Wait, without polling, until `cond` holds after some message (or `timeout`)."""
        end = now() + timeout
        while not cond():
            left = end - now()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    def _lost(self, why: str) -> None:
        if why and self._ws is not None:
            self.errors.append(why)

    def _send(self, text: str) -> None:
        if self._ws is None or not self._ws.send(text):
            self.errors.append("send on a closed socket")
            return
        self.sent += 1

    def emit(self, handler: str, payload: dict[str, Any] | None = None) -> None:
        """Send an event (full handler name) with the current route, as applyEvent does."""
        event: dict[str, Any] = {"name": handler, "router_data": route(self.path)}
        if payload:
            event["payload"] = payload
        self._send(EV + json.dumps(["event", event]))

    # -- protocol

    def _frame(self, d: str) -> None:
        self._message(d)
        self.changed.set()

    def _message(self, d: str) -> None:
        if d == "2":  # engine.io ping -> pong
            if self._ws is not None:
                self._ws.send("3")
            return
        if not d.startswith(EV):
            if d.startswith(("44", "41")):
                self.errors.append(d[:200])
            return
        t = now()
        body = d[len(EV) :]
        if '"last_rx_state_"' in body:  # the fast path: every draw, every phone
            m = RE_LAST.search(body)
            if g := RE_GAME.search(body):
                self.game_no = int(g.group(1))
            if m and (x := int(m.group(1))) not in self.seen:
                self.seen[x] = t
                self.b.arrivals[x] += 1
                if self.marking and x in self.where:
                    lo, hi = self.b.args.mark_delay
                    self.marks_due += 1
                    asyncio.get_running_loop().call_later(random.uniform(lo, hi), self._mark, x)
            if not (
                self.track_hall or self.fe.player in body or '"events"' in body or HYDRATED in body
            ):
                return
        if HYDRATED in body:
            self.hydrated = True
        if body.startswith('["new_token"'):  # the token was still linked: the browser obeys
            self.token = json.loads(body)[1]
            self.new_tokens += 1
            return
        if not body.startswith('["event"'):  # state_mismatch, reload, ...
            self.errors.append(body[:200])
            return
        msg = json.loads(body)[1]
        delta = msg.get("delta") or {}
        marker = len("_rx_state_")
        for state, mine in (
            (self.fe.player, self.player),
            (self.fe.animateur, self.animateur),
            (self.fe.caisse, self.caisse),
        ):
            vars_ = delta.get(state)
            if vars_:
                mine.update({k[:-marker]: v for k, v in vars_.items()})
                if state == self.fe.player and vars_.get("cartons_rx_state_"):
                    self.cartons_at.append(t)
                    self._index()
                if state == self.fe.player and vars_.get("verdict_kind_rx_state_"):
                    self.verdict_at = t
                if state == self.fe.player and vars_.get(ACK):
                    self._ack(vars_[ACK], t)
        if self.track_hall and (vars_ := delta.get(self.fe.hall)):
            self.hall.update({k[:-marker]: v for k, v in vars_.items()})
        roots = [v for k, v in delta.items() if "." not in k]
        unhydrated = len(roots) == 1 and roots[0].get("is_hydrated_rx_state_") is False
        for state, vars_ in () if unhydrated or self.storage_frozen else delta.items():
            # what the frontend saves to localStorage (not from the delta of a state that is
            # not hydrated: a fresh server-side state after a lost one; state.js skips it too)
            for key, value in vars_.items():
                name = self.b.storage_names.get(f"{state}.{key}")
                if name is not None:
                    self.storage[name] = value
        for event in msg.get("events") or ():
            name = event.get("name", "")
            if name == "_redirect":
                path = event.get("payload", {}).get("path", "/")
                self.redirects.append(path)
                if self.b.args.after_join == "nav":
                    self._navigate(path)
            elif name == "_call_script" and "replaceState" in str(
                (event.get("payload") or {}).get("javascript_code", "")
            ):  # joined on `/`: the address bar now says /jouer, where a reload lands
                self.path = "/jouer"
            elif name == "_call_script" and "location.reload()" in str(
                (event.get("payload") or {}).get("javascript_code", "")
            ):  # the server lost this tab's state: reload the page (same token, new socket)
                self.reloads += 1
                self.storage_frozen = True  # the page stops writing local storage (see app)
                asyncio.get_running_loop().create_task(self.open(self.path))
            elif not name.startswith("_"):  # a backend event (the `refresh` poke): send it
                self.pokes += 1
                self.emit(name, event.get("payload") or None)

    def _index(self) -> None:
        where: dict[int, list[int]] = {}
        for c in self.player.get("cartons") or ():
            if c.get("plays") and not c.get("annulled"):
                for row in c.get("rows") or ():
                    for n in row:
                        if n:
                            where.setdefault(n, []).append(c["no"])
        self.where = where

    def lines(self, carton_no: int) -> list[frozenset[int]]:
        """The numbers of each line of one of my cartons."""
        for c in self.player.get("cartons") or ():
            if c.get("no") == carton_no:
                return [frozenset(n for n in row if n) for row in c["rows"]]
        return []

    def _mark(self, x: int) -> None:
        """A human touching the drawn number on each of my cartons that holds it: the pion is
        the phone's at once; the batch goes as assets/loto.js sends it (`_delay`)."""
        self.marks_due -= 1
        if not self.marking:  # (stopped marking, or left, since the number arrived)
            return
        marks = set(self.player.get("marks") or ())
        for no in self.where.get(x, ()):
            key = f"{no}-{x}"
            if key not in marks and key not in self.mark_sent:
                self.mark_sent[key] = now()
                self.mark_ops[key] = 1
                self.b.touches += 1
        if self.mark_ops and self._flush is None:
            self._later(self._delay())

    def _delay(self) -> float:
        """How long the ops now pending wait (assets/loto.js mkDelay): until this page's next
        slot at least FLUSH_S away; the first slot drawn at random within the spacing after the
        first touch (`--first-batch aligned`: FLUSH_S after it, as before)."""
        t = now()
        spacing = self.b.args.marks_spacing
        if spacing <= FLUSH_S:
            return FLUSH_S
        if not self.slot:
            first = FLUSH_S
            if self.b.args.first_batch == "random":
                first += random.random() * (spacing - FLUSH_S)
            self.slot = t + first
        soonest = t + FLUSH_S
        if self.slot < soonest:
            self.slot += math.ceil((soonest - self.slot) / spacing) * spacing
        return self.slot - t

    def _later(self, delay: float) -> None:
        if self._flush is not None:
            self._flush.cancel()
        self._flush = asyncio.get_running_loop().call_later(delay, self.flush_marks)

    def flush_now(self) -> None:
        """What is pending goes now (assets/loto.js mkFlushNow: the page hidden)."""
        if self.mark_ops:
            self.flush_marks()

    def flush_marks(self) -> None:
        """Send the ops not yet confirmed in one batch (`PlayerState.save_marks`, with the
        identity the browser stores); one in flight at a time, again when unanswered."""
        self._flush = None
        if not self.mark_ops:
            return
        if self._ws is None:  # away (a closed tab, a sleeping phone): the page keeps its
            self._later(FLUSH_S)  # unconfirmed pions and sends them once it is back
            return
        if self.mark_batch is not None and (left := self.mark_batch[2] + RESEND_S - now()) > 0:
            self._later(left + 0.01)
            return
        self.batches += 1
        ops = dict(self.mark_ops)
        self.mark_batch = (self.batches, ops, now())
        wire = [[int(k.split("-")[0]), int(k.split("-")[1]), v] for k, v in ops.items()]
        batch = {
            "id": self.batches,
            "game": self.game_no,
            "code": self.storage.get("loto_player_code", ""),
            "secret": self.storage.get("loto_player_secret", ""),
            "ops": wire,
        }
        form = {"__reflex_form_data__": [["batch", json.dumps(batch)]]}  # the hidden form
        self.emit(f"{self.fe.player}.save_marks", {"form_data": form})
        self._later(RESEND_S + 0.01)  # unanswered: again

    def _ack(self, text: str, t: float) -> None:
        """The server's answer to a batch: what it now holds for me."""
        ack = json.loads(text)
        if self.mark_batch is None or ack.get("id") != self.mark_batch[0]:
            return
        ops = self.mark_batch[1]
        self.mark_batch = None
        ok = ack.get("ok") and ack.get("game") == self.game_no
        skipped = set(ack.get("skipped") or ())
        stored = set(self.player.get("marks") or ())
        for key, v in ops.items():
            if self.mark_ops.get(key) == v:
                del self.mark_ops[key]
            if key in self.mark_sent:
                self.b.mark_lat.append(t - self.mark_sent.pop(key))
            if ok and key not in skipped:
                (stored.add if v else stored.discard)(key)
        if not ok:
            for key in self.mark_ops:  # moot: another game, or a finished one
                self.mark_sent.pop(key, None)
            self.mark_ops.clear()
        self.player["marks"] = sorted(stored)
        if self.mark_ops:
            self._later(self._delay())
        elif self._flush is not None:
            self._flush.cancel()
            self._flush = None

    def _storage_vars(self) -> dict[str, str]:
        return {k: v for name, v in self.storage.items() for k in self.fe.local_storage[name]}

    def _navigate(self, path: str) -> None:
        """React Router's client-side navigation: onLoadInternalEvent() for the new route."""
        self.path = path
        self.hydrated = False
        if self.storage:
            self.emit(self.fe.update_vars, {"vars": self._storage_vars()})
        self.emit(self.fe.on_load)


# ---------------------------------------------------------------------- the phones of a run


@dataclass
class PlayerRun:
    """One emulated phone and its join timings (seconds, perf_counter)."""

    tab: Tab
    t_start: float = 0.0
    t_hydrated: float = 0.0
    t_secret: float = 0.0
    t_resumed: float = 0.0
    t_ready: float = 0.0
    failed: str = ""


@dataclass
class Bench:
    """Settings shared by every tab."""

    args: argparse.Namespace
    fe: Frontend
    host: str
    port: int
    code: str
    secret: str
    storage_names: dict[str, str] = field(default_factory=dict)  # state key -> storage name
    arrivals: collections.Counter = field(default_factory=collections.Counter)  # `last` -> tabs
    mark_lat: list[float] = field(default_factory=list)  # touched -> the batch's ack, seconds
    touches: int = 0  # pions put by the phones (each drawn number on each carton holding it)
    vendeur_secrets: list[str] = field(default_factory=list)
    offer: int = -1  # the tariff line sold at the desk (classique x --cartons)
    vendeurs: list[Tab] = field(default_factory=list)  # signed in at /caisse
    desk_locks: list[asyncio.Lock] = field(default_factory=list)  # one player at a time
    desk_last: list[float] = field(default_factory=list)  # each vendeur's last sale sent
    sales: int = 0

    def __post_init__(self) -> None:
        self.storage_names = {k: n for n, keys in self.fe.local_storage.items() for k in keys}


async def animateur_tab(b: Bench) -> Tab:
    """The animateur's tablet at /animateur (following the hall), signed in with `b.secret`.

    Raises:
        BenchError: the page did not hydrate, or the sign-in failed (the page's message).
    """
    anim = Tab(b, "animateur")
    anim.track_hall = True
    await anim.open("/animateur")
    if not await anim.until(lambda: anim.hydrated, b.args.step_timeout):
        raise BenchError(f"animateur: no hydration ({anim.errors[:2]})")
    anim.emit(f"{b.fe.animateur}.login", {"form_data": {"code": b.code, "secret": b.secret}})
    await anim.until(
        lambda: anim.animateur.get("signed_in") is True or anim.animateur.get("message"),
        b.args.step_timeout,
    )
    if anim.animateur.get("signed_in") is not True:
        raise BenchError(f"animateur: sign-in failed ({anim.animateur.get('message')!r})")
    return anim
