"""Hostile input over the real websocket protocol, without a browser.

A player's connection (the emulated tab of bench/room.py: the frames Chromium sends on
`/_event`) sends every public event handler of every app state (enumerated from the state
classes, so a new handler is covered automatically) random and malformed arguments: wrong types,
huge strings, deep and wide dicts, negative and out-of-range numbers, other players' carton
numbers and ids, private handlers, `setvar`, replayed claims, malformed frames; then a flood of
thousands of events as fast as the socket takes them.

What must hold: the server stays up and still serves a normal player; no move the rules forbid
reaches the database (the audit log after the fuzz holds only the attacker's own marks, claims
and purchases, nothing for the victim, no draw, no award; its hash chain is intact; no carton
without a sale); every refusal is a French message to the client and a precise warning in the
server log (no handler raises: no "[Reflex Backend Exception]"); the per-client rate limit
(loto_app/live/gate/ratelimit.py) cuts the flood down to its burst + rate, while a normal player
marking during the flood is never refused.

`LOTO_FUZZ_SEED` picks the random cases (fixed by default: CI replays the same ones) and
`LOTO_FUZZ_CASES` the number per handler (default 30).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextvars
import dataclasses
import inspect
import json
import logging
import math
import os
import random
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import emulator
import pytest
from sqlmodel import Session, func, select

from loto_app.domain import events as ev
from loto_app.domain.program import demo_program
from loto_app.live.gate import ratelimit
from loto_app.live.gate.frame_guard import MAX_FRAME_BYTES
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.repository import EveningStore

if TYPE_CHECKING:
    from reflex.testing import AppHarnessProd

SECRET = "fuzz-test-secret"
SEED = int(os.environ.get("LOTO_FUZZ_SEED", "6"))
CASES = int(os.environ.get("LOTO_FUZZ_CASES", "30"))
FLOOD = 3000
STEP = 20.0  # seconds: timeout of one protocol step
FORBIDDEN_TO_PLAYERS = (
    ev.GameStarted,
    ev.NumberDrawn,
    ev.DrawCorrected,
    ev.ShareOffered,
    ev.TieBroken,
    ev.StageAwarded,
    ev.UnmarkAllowed,
)


# ---------------------------------------------------------------------- the app's handlers


def app_handlers() -> dict[str, list[str]]:
    """Every public event handler of every state defined in loto_app: full name -> params."""
    from reflex.state import State

    def walk(cls: type) -> list[type]:
        out = []
        for sub in cls.get_substates():
            out += [sub, *walk(sub)]
        return out

    found: dict[str, list[str]] = {}
    for cls in walk(State):
        if not cls.__module__.startswith("loto_app."):
            continue
        for name, handler in cls.event_handlers.items():
            params = list(inspect.signature(handler.fn).parameters)[1:]
            found[f"{cls.get_full_name()}.{name}"] = params
    return found


def hostile_value(rng: random.Random, others: list[Any], depth: int = 0) -> Any:
    """One random hostile argument value."""
    choices = [
        lambda: rng.choice([0, -1, -(2**31), 2**31, 2**63, 10**30, -(10**30), 91, 100_001]),
        lambda: rng.randint(-1000, 100_000),
        lambda: rng.choice([0.5, -2.5, 1e308, -1e308, math.inf, -math.inf, math.nan]),
        lambda: rng.choice([True, False, None]),
        lambda: "x" * rng.choice([0, 1, 65, 1000, 100_000]),
        lambda: rng.choice(
            [
                "",
                " ",
                "7",
                "007",
                "-3",
                "1e3",
                "١٢",  # Arabic-Indic digits: isdigit() is True
                "²",
                "1; DROP TABLE audit_log; --",
                "../../etc/passwd",
                "<script>alert(1)</script>",
                "\x00\x01\u202e",
                "🎱" * 40,
                "classique",
                "maxiquine",
                "vitrine",
                "ÉCRAN",
            ]
        ),
        lambda: rng.choice(others),
        lambda: (
            [hostile_value(rng, others, depth + 1) for _ in range(rng.randint(0, 5))]
            if depth < 3
            else [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]
        ),
        lambda: (
            {
                rng.choice(
                    ["code", "name", "ball", "secret", "__proto__", "x" * 80]
                ): hostile_value(rng, others, depth + 1)
                for _ in range(rng.randint(0, 4))
            }
            if depth < 3
            else {"a": {"b": {"c": {"d": {"e": {}}}}}}
        ),
        lambda: {f"k{i}": i for i in range(rng.choice([11, 500]))},
    ]
    return rng.choice(choices)()


def hostile_payload(rng: random.Random, params: list[str], others: list[Any]) -> Any:
    """A payload for a handler taking `params`: right keys with bad values, or wrong keys; one
    frame stays under the socket's frame limit (a larger frame closes the socket before anything
    reads it: tests/e2e/test_log_flood.py checks that), so that every case reaches the app."""
    while True:
        payload = _hostile_payload(rng, params, others)
        if len(json.dumps(payload, default=str)) < MAX_FRAME_BYTES - 4096:
            return payload


def _hostile_payload(rng: random.Random, params: list[str], others: list[Any]) -> Any:
    r = rng.random()
    if r < 0.6 or not params:
        payload = {p: hostile_value(rng, others) for p in params}
        if not params and r < 0.3:
            payload = {"x": hostile_value(rng, others)}
        return payload
    if r < 0.7:  # a key missing
        return {p: hostile_value(rng, others) for p in params[1:]}
    if r < 0.8:  # an extra key: someone else's id
        return {**{p: hostile_value(rng, others) for p in params}, "player_id": rng.choice(others)}
    if r < 0.9:
        return rng.choice([[1, 2], "payload", 7, None, True])
    return {p: {"$gt": ""} for p in params}


# ---------------------------------------------------------------------- the scenario


#: PlayerState's vars that tell the player in French why something was refused.
MESSAGES = ("message", "join_message")


class Recorder:
    """Every value the messages of PlayerState took on one tab (the page's and the join
    form's)."""

    def __init__(self, tab: Any) -> None:
        self.tab, self.messages = tab, []
        inner = tab._message

        def hook(d: str) -> None:
            before = [tab.player.get(k) for k in MESSAGES]
            inner(d)
            for was, key in zip(before, MESSAGES, strict=True):
                after = tab.player.get(key)
                if after != was and after:
                    self.messages.append(after)

        tab._message = hook


def crash_site(message: str) -> str:
    """The app's deepest frame and the exception of a "[Reflex Backend Exception]" record."""
    lines = [x for x in message.splitlines() if x.strip()]
    frames = [x.strip() for x in lines if x.strip().startswith('File "')]
    mine = [f for f in frames if "/loto_app/" in f] or frames[-1:] or ["?"]
    return f"{mine[-1]}: {lines[-1].strip()[:160] if lines else '?'}"


def french(text: str) -> bool:
    """A user message in French (accents or French words), never Reflex's English toast."""
    words = ("le ", "la ", "de ", "du ", "vous", "votre", "est ", "pas", "invalide", "à ", "é")
    return isinstance(text, str) and any(w in text.lower() for w in words)


def cells(tab: Any, carton_no: int) -> list[int]:
    (c,) = [c for c in tab.player["cartons"] if c["no"] == carton_no]
    return [n for row in c["rows"] for n in row if n]


def audit_seq(engine: Any, evening_id: int) -> int:
    with Session(engine) as s:
        return s.exec(
            select(func.coalesce(func.max(m.AuditRow.seq), 0)).where(
                m.AuditRow.evening_id == evening_id
            )
        ).one()


class Scenario:
    def __init__(self, emu: Any, harness: AppHarnessProd, db_url: str, web: Path) -> None:
        self.emu = emu
        self.harness = harness
        self.engine = make_engine(db_url)
        self.store = EveningStore(self.engine)
        host, port = harness.backend.servers[0].sockets[0].getsockname()[:2]
        fe = emu.Frontend.read(web)  # (the compiled frontend the in-process app serves)
        args = argparse.Namespace(step_timeout=STEP, after_join="nav", cartons=1)
        program = demo_program("FZ")
        if hasattr(program.settings, "free_cartons"):  # cartons handed at once on an order
            program = dataclasses.replace(
                program, settings=dataclasses.replace(program.settings, free_cartons=True)
            )
        creds = self.store.create_evening("Fuzz", program, animateur_secret=SECRET)
        self.eid, self.code = creds.evening_id, creds.join_code
        self.b = emu.Bench(args=args, fe=fe, host=host, port=port, code=self.code, secret=SECRET)
        self.fe = fe
        self.report: dict[str, Any] = {}

    def tab(self, label: str) -> Any:
        return self.emu.Tab(self.b, label)

    async def must(self, tab: Any, cond: Any, what: str) -> None:
        if not await tab.until(cond, STEP):
            raise AssertionError(f"{tab.label}: {what} (errors {tab.errors[-3:]})")

    async def player(self, label: str) -> Any:
        """A phone: scan the QR code, join, land on /jouer, buy one carton."""
        tab = self.tab(label)
        tab.recorder = Recorder(tab)
        sent0 = tab.sent
        await tab.open(f"/?code={self.code}")
        await self.must(tab, lambda: tab.hydrated, "no hydration")
        form = {"code": self.code, "name": label}
        tab.emit(f"{self.fe.player}.join_evening", {"form_data": form})
        await self.must(tab, lambda: tab.player.get("ready") is True, "not on /jouer")
        tab.emit(f"{self.fe.player}.buy", {"kind": "classique", "quantity": 1})
        await self.must(tab, lambda: len(tab.player.get("cartons") or ()) == 1, "no carton")
        self.report.setdefault("events_to_join_and_buy", tab.sent - sent0)
        return tab

    async def animateur(self) -> Any:
        tab = self.tab("animateur")
        tab.track_hall = True
        await tab.open("/animateur")
        await self.must(tab, lambda: tab.hydrated, "no hydration")
        form = {"code": self.code, "secret": SECRET}
        tab.emit(f"{self.fe.animateur}.login", {"form_data": form})
        await self.must(tab, lambda: tab.animateur.get("signed_in") is True, "not signed in")
        return tab

    async def toggle(self, tab: Any, no: int, n: int) -> None:
        """Touch a cell and wait until the server answered (mark or unmark)."""
        key = f"{no}-{n}"
        was = key in (tab.player.get("marks") or ())
        tab.emit(f"{self.fe.player}.toggle", {"carton_no": no, "number": n})
        await self.must(tab, lambda: (key in (tab.player.get("marks") or ())) != was, "no mark")

    def owner(self, carton_no: int) -> str | None:
        evening, _, _ = self.store.load(self.eid)
        return evening.owner(carton_no)

    def events_since(self, seq: int) -> list[ev.Event]:
        return [e for _, e, _ in self.store.events_after(self.eid, seq)]

    def gate(self) -> ratelimit.EventGate:
        app = self.harness.app_instance
        gates = [x for x in app._middlewares if isinstance(x, ratelimit.EventGate)]
        assert len(gates) == 1, "the app must register one ratelimit.EventGate middleware"
        return gates[0]


async def scenario(s: Scenario, caplog: pytest.LogCaptureFixture) -> dict[str, Any]:
    rng = random.Random(SEED)
    fe = s.fe
    anim = await s.animateur()
    victim = await s.player("Victime")
    attacker = await s.player("Pirate")
    players = AccessStore(s.store.engine)
    victim_pid = players.player_for_secret(s.eid, victim.storage["loto_player_secret"])
    attacker_pid = players.player_for_secret(s.eid, attacker.storage["loto_player_secret"])
    assert victim_pid and attacker_pid and victim_pid != attacker_pid

    anim.emit(f"{fe.animateur}.start_game")
    await s.must(anim, lambda: anim.hall.get("can_draw") is True, "game not started")
    (victim_no,) = [c["no"] for c in victim.player["cartons"]]
    (mine,) = [c["no"] for c in attacker.player["cartons"]]
    i = 0
    while i < 10 or not (
        set(cells(attacker, mine)) & set(anim.hall["drawn"])
        and set(cells(victim, victim_no)) & set(anim.hall["drawn"])
    ):  # (a valid quine stops the draw: the test never claims one)
        i += 1
        anim.emit(f"{fe.animateur}.draw")
        await s.must(anim, lambda i=i: anim.hall.get("count") == i, f"draw {i}")
    drawn = list(anim.hall["drawn"])
    mine_drawn = [n for n in cells(attacker, mine) if n in drawn]
    victim_drawn = [n for n in cells(victim, victim_no) if n in drawn]
    await s.toggle(victim, victim_no, victim_drawn[0])

    seq0 = audit_seq(s.engine, s.eid)
    handlers = app_handlers()
    assert {"toggle", "claim", "buy", "draw", "award", "watch"} <= {
        h.rpartition(".")[2] for h in handlers
    }
    others: list[Any] = [
        victim_no,
        victim_pid,
        victim_drawn[0],
        s.code,
        "wrong-" + SECRET,
        max(victim_no, mine) + 1,  # an unsold carton (victim_no + 1 was mine: 1 and 2)
        attacker_pid,
    ]  # (not my own carton: a false claim on it would annul it, and the marks below need it)

    # ---- 1. malformed calls of every handler, below the rate limit (the test lifts it so that
    # every case reaches the handlers: the limit has its own phase below)
    identity = dict(attacker.storage)
    s.b.args.after_join = "stay"  # redirects of fuzzed calls are not followed
    gate = s.gate()
    real_limiter = gate.limiter
    gate.limiter = ratelimit.RateLimiter(burst=10**9, rate=10**9)
    caplog.clear()
    sent = Counter()
    try:
        raw = [
            "42/_event,not json",
            '42/_event,["event", "a string"]',
            '42/_event,["event", {"payload": {}}]',
            '42/_event,["event", {"name": 12}]',
            '42/_event,["event", {"name": null, "payload": null}]',
            '42/_event,["event", {"name": "x.y", "router_data": "not a dict"}]',
            '42/_event,["event", {"name": "' + fe.player + '.toggle", "payload": [1, 2]}]',
            '42/_event,["nope", {}]',
            "42/_event," + json.dumps(["event", {"name": "a" * 100_000}]),
            '42/_event,["event", {"name": "'
            + fe.player
            + '.claim", "payload": {"carton_no": '
            + "[" * 2000
            + "]" * 2000
            + "}}]",
        ]
        for frame in raw:
            attacker._send(frame)
        private = [
            f"{fe.player}._play",
            f"{fe.player}._identify",
            f"{fe.player}._show",
            f"{fe.animateur}._sign_in",
            f"{fe.root}.nope",
            "reflex___state____state.loto_app___live___nope.x",
        ]
        for name in private:
            attacker.emit(name, {"handler": "draw"})
        # identity theft: the victim's player id (not its secret) as my stored secret
        attacker.emit(
            fe.update_vars,
            {"vars": dict.fromkeys(fe.local_storage["loto_player_secret"], victim_pid)},
        )
        attacker.emit(f"{fe.player}.toggle", {"carton_no": victim_no, "number": victim_drawn[0]})
        attacker.emit(fe.update_vars, {"vars": attacker._storage_vars()})
        for name in sorted(handlers):
            if name.endswith((".forget_me", ".logout")):
                continue  # they only forget this phone's own sign-in; played last
            for _ in range(CASES):
                attacker.emit(name, hostile_payload(rng, handlers[name], others))
                sent[name] += 1
            attacker.emit(name, {"var_name": "secret", "value": victim_pid})
        # A fuzzed join_evening may have made me a new player: back to the first identity,
        # then a legitimate mark as the last event (a client's events are handled in order).
        attacker.storage = dict(identity)
        attacker.emit(fe.update_vars, {"vars": attacker._storage_vars()})
        attacker.emit(f"{fe.player}.resume")
        await s.toggle(attacker, mine, mine_drawn[0])
    finally:
        gate.limiter = real_limiter
        s.b.args.after_join = "nav"
    assert not attacker.errors, attacker.errors[-3:]

    fuzz_records = list(caplog.records)
    crashes = Counter(
        crash_site(r.getMessage())
        for r in fuzz_records
        if r.levelno >= logging.ERROR and "Backend Exception" in r.getMessage()
    )  # asserted at the end, once every other check has run
    refused = [r.getMessage() for r in fuzz_records if r.levelno == logging.WARNING]
    for name in handlers:
        short = name.rpartition(".")[2]
        if short in ("forget_me", "logout"):
            continue
        assert any(short in msg for msg in refused), f"no warning names a refused {short}"
    told = [x for x in attacker.recorder.messages if x != ratelimit.TOO_MANY]
    assert told and all(french(x) for x in told), told[:5]

    # ---- 2. the flood: thousands of events as fast as the socket takes them, real limits
    caplog.clear()
    seq1 = audit_seq(s.engine, s.eid)
    t0 = time.monotonic()
    for i in range(FLOOD):
        attacker.emit(f"{fe.player}.toggle", {"carton_no": mine, "number": mine_drawn[0]})
        if i % 200 == 0:
            await asyncio.sleep(0)  # let the victim's events interleave
            n = victim_drawn[0]
            await s.toggle(victim, victim_no, n)  # a normal player, during the flood
    for _ in range(10):
        await asyncio.sleep(0.25)  # a quick, steady player: 4 marks a second
        await s.toggle(victim, victim_no, victim_drawn[0])
    await asyncio.sleep(ratelimit.BURST / ratelimit.RATE + 0.5)  # the bucket refills
    await s.toggle(attacker, mine, mine_drawn[0])  # the attacker is served again
    elapsed = time.monotonic() - t0
    flood_events = s.events_since(seq1)
    mine_moves = [
        e
        for e in flood_events
        if isinstance(e, ev.CellMarked | ev.CellUnmarked) and e.player_id == attacker_pid
    ]
    victim_moves = [
        e
        for e in flood_events
        if isinstance(e, ev.CellMarked | ev.CellUnmarked) and e.player_id == victim_pid
    ]
    flood_records = [r.getMessage() for r in caplog.records]
    assert len(victim_moves) == FLOOD // 200 + 10, "the normal player lost moves"
    victim_refused = [msg for msg in victim.recorder.messages if msg == ratelimit.TOO_MANY]
    assert not victim_refused, "the normal player was rate-limited"
    limit = ratelimit.BURST + ratelimit.RATE * elapsed + 1
    assert ratelimit.BURST <= len(mine_moves) <= limit, (len(mine_moves), elapsed)
    assert ratelimit.TOO_MANY in attacker.recorder.messages, attacker.recorder.messages[-5:]
    assert any("rate limit: dropped" in msg for msg in flood_records)
    assert not attacker.errors, attacker.errors[-3:]

    # ---- 3. the rules held: only the attacker's own moves, nothing for the victim
    after = s.events_since(seq0)
    attackers = {attacker_pid} | {e.player_id for e in after if isinstance(e, ev.PlayerJoined)}
    assert not [e for e in after if isinstance(e, FORBIDDEN_TO_PLAYERS)]
    for e in after:
        match e:
            case ev.CellMarked() | ev.CellUnmarked() | ev.ClaimMade() | ev.CartonsCleared():
                if e.player_id != victim_pid:
                    assert e.player_id in attackers, e
                    if not isinstance(e, ev.CartonsCleared):
                        assert s.owner(e.carton_no) == e.player_id, e
            case ev.CartonsSold():
                assert e.player_id in attackers and e.reason in ("sale", "planche"), e
            case ev.PlayerJoined():
                assert 1 <= len(e.name) <= 30, e
            case _:
                pass
    victim_own = [
        e
        for e in after
        if getattr(e, "player_id", None) == victim_pid
        and not isinstance(e, ev.CellMarked | ev.CellUnmarked)
    ]
    assert not victim_own, victim_own[:3]
    evening, _, _ = s.store.load(s.eid)
    assert evening.game is not None and list(evening.game.drawn) == drawn
    assert [c.no for c in evening.player_cartons(victim_pid)] == [victim_no]
    for p in evening.purchases:  # no carton without a sale
        assert p.reason in ("sale", "planche"), p
    assert s.store.verify_audit(s.eid) == []

    # ---- 4. replayed claims, on my carton and on the victim's: one verdict at most per
    # carton and number, none for the victim's carton
    seq2 = audit_seq(s.engine, s.eid)
    for _ in range(3):
        for _ in range(15):
            attacker.emit(f"{fe.player}.claim", {"carton_no": rng.choice([mine, victim_no])})
        await asyncio.sleep(ratelimit.BURST / ratelimit.RATE)
    await s.must(
        attacker,
        lambda: audit_seq(s.engine, s.eid) > seq2 or attacker.player.get("message"),
        "no answer to the claims",
    )
    attacker.emit(f"{fe.player}.refresh")
    await asyncio.sleep(1.0)
    claims = [e for e in s.events_since(seq2) if isinstance(e, ev.ClaimMade)]
    assert all(c.carton_no == mine and c.player_id == attacker_pid for c in claims), claims
    assert len(claims) == len({(c.carton_no, c.number) for c in claims}) <= 1, claims
    assert s.store.verify_audit(s.eid) == []

    # ---- 5. the server still serves a new, normal player
    newcomer = await s.player("Nouveau")
    (new_no,) = [c["no"] for c in newcomer.player["cartons"]]
    assert new_no not in (mine, victim_no)
    for t in (anim, victim, attacker, newcomer):
        t.close()
    assert not crashes, "handlers raised on hostile input (count, where, what):\n" + "\n".join(
        f"{n} x {site}" for site, n in crashes.most_common()
    )
    s.report.update(
        handlers=len(handlers),
        malformed_events=sum(sent.values()),
        flood=FLOOD,
        flood_elapsed_s=round(elapsed, 2),
        attacker_moves_through=len(mine_moves),
        victim_moves=len(victim_moves),
        refusal_warnings=len(refused),
    )
    return s.report


@pytest.mark.timeout(600)
def test_hostile_events_are_refused_and_rate_limited(
    app_harness: AppHarnessProd, app_web: Path, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    emu = emulator
    s = Scenario(emu, app_harness, db_url, app_web)
    # The emulator runs its own event loop, in a thread of its own (no clash with Playwright's).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        ctx = contextvars.copy_context()  # Reflex's registration context (the state tree)
        report = pool.submit(ctx.run, asyncio.run, scenario(s, caplog)).result(timeout=540)
    print("fuzz report:", json.dumps(report))
    s.engine.dispose()
