"""Crash and restart: SIGKILL the server (or Redis) at random points of a game, many times.

Run from the repository root with the project's virtualenv:

    .venv/bin/python bench/crash.py --cycles 50 --seed 1234
    .venv/bin/python bench/crash.py --scale-out --cycles 20 --redis-every 2 --seed 1234

A fresh app is served from this tree as in production (`scripts/with-env.sh reflex run --env
prod` in a temp dir: its own SQLite file, or with `--scale-out` a new PostgreSQL database, a
private Redis server and `GRANIAN_WORKERS=2`). An evening of 30 classique games (quine, double
quine, carton plein; free cartons, electronic boulier) is played by emulated clients speaking
the real websocket protocol (the emulator of bench/load.py: `Tab`, `Frontend`): the animateur's
tablet and a few phones that join, take 3 cartons, mark drawn numbers and claim.

Each cycle plays a few random moves, then picks a fault point -- during a draw (a burst of
draws), a claim storm (every claimable carton at once, plus a false claim), marks, or an award
(the lot or the token draw of an ex aequo) -- sends those events and SIGKILLs the whole server
process group 0-250 ms later (`--scale-out --redis-every K`: every K-th cycle SIGKILLs the
private Redis server instead, and starts it again, while the app keeps running). Then:

- with the server down, the database: the audit chain verifies (`EveningStore.verify_audit`),
  its sequence numbers are 1..N, the replayed engine (`EveningStore.load`) passes
  `check_invariants`, and the projections (draws, claims, lot tickets, marks) hold exactly what
  the log says, once each, in order;
- what the clients were told was committed is all there, once, in the same order: every list
  of drawn numbers the animateur was shown is a prefix of the game's draws in the database,
  every claim it was shown (number, carton, ball, verdict) is there under the same number,
  every lot ticket a phone was shown belongs to that player with the same code, every mark a
  phone was shown and every carton it holds;
- the server is started again on the same port, every tab reconnects (same browser token and
  local storage): the tablet is signed in again by itself, every phone finds its cartons, its
  marks of the running game and its lot tickets, and sees the board of the database;
- the game goes on: the lists shown after the restart extend the ones shown before (no number
  drawn twice, none reordered), and everything is checked again at the next fault.

The seed is printed first: `--seed S` replays the same choices (the server's own randomness,
the CSPRNG boulier, and thread timing differ between runs). Exit status 0 when every check
held. Nothing here asserts a duration.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))
import serving  # noqa: E402  (bench/serving.py: the server process, shared by the benches)
from serving import VENV, free_port  # noqa: E402

PG_URL = os.environ.get("LOTO_TEST_PG_URL", "postgresql+psycopg://root@127.0.0.1:5432/test")
SECRET = "crash-animateur-" + uuid.uuid4().hex[:8]
PHASES = ("draw", "claims", "marks", "award")
LINES_NEEDED = {"one_line": 1, "two_lines": 2, "full_card": 3}  # HallView `pattern`


class CrashError(AssertionError):
    """Something committed was lost, duplicated or reordered, or the game did not resume."""


def emulator() -> Any:
    """The phone emulator (bench/emulator.py)."""
    import emulator as module

    return module


# ---------------------------------------------------------------------- the processes


class PrivateRedis:
    """A Redis server of our own (no persistence, like the machine's): SIGKILLed and started
    again at will without disturbing the machine's Redis, which other tests use."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self.tmp = tmp
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start it and wait for PONG."""
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        log = (self.tmp / "redis.log").open("ab")
        argv = [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.tmp)]
        self.proc = subprocess.Popen(
            [*argv, "--save", "", "--appendonly", "no"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        end = time.monotonic() + 30
        while time.monotonic() < end:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as s,
            ):
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server on port {self.port} did not answer")

    def kill(self) -> None:
        """SIGKILL: every key is gone (no persistence)."""
        serving.killpg(self.proc)
        if self.proc is not None:
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """Stop it for good."""
        self.kill()


class AppServer:
    """The app served from this tree as in production, in a temp dir; killed and restarted
    on the same port with the same database, states dir and frontend dir."""

    def __init__(
        self,
        *,
        scale_out: bool = False,
        workers: int = 2,
        keep: bool = False,
        built: serving.Build | None = None,
    ) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="loto-crash-"))
        self.keep = keep
        # `built`: a frontend already built for its port (tests/conftest.py `prod_build`),
        # served as it is from the first start; otherwise the first start builds one here
        self.built = built
        self.port = built.port if built is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.web = built.web if built is not None else self.tmp / "web"
        self.log = self.tmp / "server.log"
        self.proc: subprocess.Popen | None = None
        self.redis: PrivateRedis | None = None
        self.env = dict(os.environ)
        self.env.update(
            VENV=str(VENV),
            PYTHONPATH=str(ROOT),
            REFLEX_WEB_WORKDIR=str(self.web),
            REFLEX_STATES_WORKDIR=str(self.tmp / "states"),
        )
        self.pg_db = ""
        if scale_out:
            self.pg_db = f"loto_crash_{uuid.uuid4().hex[:8]}"
            self.db_url = PG_URL.rsplit("/", 1)[0] + f"/{self.pg_db}"
            self.redis = PrivateRedis(self.tmp)
            self.env.update(REFLEX_REDIS_URL=self.redis.url, GRANIAN_WORKERS=str(workers))
        else:
            self.db_url = f"sqlite:///{self.tmp / 'loto.db'}"
            self.env.pop("REFLEX_REDIS_URL", None)
            self.env.pop("LOTO_REDIS_URL", None)
            self.env.pop("GRANIAN_WORKERS", None)
        self.env["LOTO_DB_URL"] = self.db_url
        self.starts = 0

    def _pg(self, sql: str) -> None:
        serving.pg_execute(PG_URL, sql)

    def prepare(self) -> tuple[int, str]:
        """Create the database and the evening; returns (evening id, join code)."""
        from loto_app.domain.program import (
            DrawSource,
            GameSpec,
            Kind,
            Lot,
            Pattern,
            Program,
            Settings,
            Stage,
            TieMethod,
        )
        from loto_app.storage.db import make_engine
        from loto_app.storage.repository import EveningStore

        if self.pg_db:
            self._pg(f'CREATE DATABASE "{self.pg_db}"')
        if self.redis is not None:
            self.redis.start()
        serving.migrate(self.env)
        game = GameSpec(
            Kind.CLASSIQUE,
            (
                Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),
                Stage(Pattern.TWO_LINES, Lot("Bon d'achat", 5000, divisible=True)),
                Stage(Pattern.FULL_CARD, Lot("Téléviseur", 30000)),
            ),
        )
        # (no last call and ties by tokens only: the harness's animateur awards at once)
        settings = Settings(
            DrawSource.ELECTRONIC, False, TieMethod.DRAW, free_cartons=True, last_call_seconds=0
        )
        program = Program("CRASH", (game,) * 30, settings)
        engine = make_engine(self.db_url)
        try:
            creds = EveningStore(engine).create_evening("Pannes", program, animateur_secret=SECRET)
        finally:
            engine.dispose()
        return creds.evening_id, creds.join_code

    def start(self, timeout: float = 600.0) -> None:
        """`reflex run --env prod` on our port (a restart: the same build served again, see
        bench/serve_built.py); returns once /ping answers."""
        serving.wait_port_free(self.port)  # the killed server's sockets gone before we bind
        # (a restart serves the build of the first start again, as a restarted hall server
        # would: rebuilding the same frontend tests nothing about the crash)
        self.proc = serving.spawn(
            self.port,
            self.env,
            self.log,
            f"start {self.starts + 1}",
            rebuild=self.starts == 0 and self.built is None,
        )
        took = serving.wait_up(self.proc, self.url, timeout, self.log)
        self.starts += 1
        print(f"server start {self.starts}: up in {took:.1f} s", flush=True)

    def kill(self) -> None:
        """SIGKILL the whole process group (the `reflex run` process and its workers)."""
        serving.killpg(self.proc)
        if self.proc is not None:
            self.proc.wait(30)

    def tail(self, n: int = 40) -> str:
        """The end of the server's log."""
        return serving.tail(self.log, n)

    def stop(self, keep: bool | None = None) -> None:
        """Stop everything; drop the PostgreSQL database and the temp dir unless kept."""
        serving.stop(self.proc)
        if self.redis is not None:
            self.redis.stop()
        keep = self.keep if keep is None else keep
        if keep:
            print(f"kept: {self.tmp} (database {self.db_url})", flush=True)
            return
        if self.pg_db:
            with contextlib.suppress(Exception):
                self._pg(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------- what clients were told


@dataclass
class Ledger:
    """What the clients were shown as committed: all of it must be in the database."""

    draws: dict[int, list[int]] = field(default_factory=dict)  # game -> longest list shown
    claims: dict[int, tuple[int, int, int, str]] = field(default_factory=dict)  # no -> ...
    tickets: dict[int, tuple[str, str]] = field(default_factory=dict)  # no -> (secret, code)
    marks: set[tuple[str, int, int, int]] = field(default_factory=set)  # secret, game, carton, n
    cartons: dict[str, dict[int, list[list[int]]]] = field(default_factory=dict)  # secret -> ..
    problems: list[str] = field(default_factory=list)  # contradictions seen live

    def saw_hall(self, hall: dict[str, Any]) -> None:
        """A HallView picture shown to the animateur."""
        g = int(hall.get("game_no") or 0) - 1
        if g < 0:
            return
        drawn = list(hall.get("drawn") or [])
        told = self.draws.get(g, [])
        if drawn[: len(told)] != told[: len(drawn)]:
            self.problems.append(f"game {g}: draws shown {drawn} contradict {told} shown before")
        if len(drawn) > len(told):
            self.draws[g] = drawn
        for c in hall.get("claims") or ():
            seen = (g, int(c["carton"]), int(c["number"]), str(c["verdict"]))
            old = self.claims.setdefault(int(c["no"]), seen)
            if old != seen:
                self.problems.append(f"claim {c['no']} shown as {seen}, earlier as {old}")

    def saw_player(self, secret: str, player: dict[str, Any]) -> None:
        """A PlayerState delta shown to a phone."""
        for t in player.get("tickets") or ():
            seen = (secret, str(t.get("code")))
            old = self.tickets.setdefault(int(t["no"]), seen)
            if old != seen:
                self.problems.append(f"lot ticket {t['no']} shown as {seen}, earlier as {old}")
        mine = self.cartons.setdefault(secret, {})
        for c in player.get("cartons") or ():
            rows = [[int(n or 0) for n in row] for row in c.get("rows") or ()]
            old = mine.setdefault(int(c["no"]), rows)
            if old != rows:
                self.problems.append(f"carton {c['no']} shown with other numbers")


def _rows(carton: Any) -> list[list[int]]:
    return [[int(n or 0) for n in row] for row in carton.carton.grid]


def check_database(db_url: str, evening_id: int, ledger: Ledger) -> dict[str, Any]:
    """Everything about the stored evening; raises CrashError. Returns its fingerprint."""
    import sqlalchemy as sa
    from sqlmodel import Session, select

    from loto_app.storage import models as m
    from loto_app.storage.db import make_engine
    from loto_app.storage.repository import EveningStore
    from loto_app.storage.secrets import hash_secret

    problems = list(ledger.problems)
    engine = make_engine(db_url)
    try:
        store = EveningStore(engine)
        problems += [f"audit: {p}" for p in store.verify_audit(evening_id)]
        evening, _, _ = store.load(evening_id)
        try:
            evening.check_invariants()
        except AssertionError as exc:
            problems.append(f"replayed engine breaks an invariant: {exc}")
        eid = evening_id
        with Session(engine) as s:

            def rows(*cols: Any, order: Any = ()) -> list[Any]:
                q = select(*cols).where(cols[0].class_.evening_id == eid)
                return list(s.exec(q.order_by(*order)).all())

            seqs = list(s.exec(select(m.AuditRow.seq).where(m.AuditRow.evening_id == eid)))
            if sorted(seqs) != list(range(1, len(seqs) + 1)):
                problems.append("audit sequence numbers are not 1..N")
            draws: dict[int, list[tuple[int, int]]] = {}
            for g, q, n in rows(
                m.DrawRow.game_idx, m.DrawRow.seq, m.DrawRow.number, order=(m.DrawRow.seq,)
            ):
                draws.setdefault(g, []).append((q, n))
            claims = rows(m.ClaimRow.no, m.ClaimRow.game_idx, m.ClaimRow.verdict)
            awards = rows(m.AwardRow.ticket_no, m.AwardRow.player_id, m.AwardRow.code)
            marks = set(
                rows(m.MarkRow.game_idx, m.MarkRow.carton_no, m.MarkRow.number, m.MarkRow.player_id)
            )
            players = {h: p for p, h in rows(m.PlayerRow.player_id, m.PlayerRow.secret_hash)}
            n_audit = s.exec(select(sa.func.count()).where(m.AuditRow.evening_id == eid)).one()
        if n_audit != len(evening.history):
            problems.append(f"{n_audit} audit rows, {len(evening.history)} events replayed")
        # the projections hold what the log says, once each, in order
        for g in evening.games:
            got = draws.get(g.index, [])
            if [n for _, n in got] != g.drawn or [q for q, _ in got] != list(
                range(1, len(got) + 1)
            ):
                problems.append(f"game {g.index}: draw rows {got} != log {g.drawn}")
        log_claims = [c for g in evening.games for c in g.claims]
        if sorted(c[0] for c in claims) != [c.claim_no for c in log_claims]:
            problems.append("claim rows differ from the log (lost, duplicated or reordered)")
        if [c.claim_no for c in log_claims] != list(range(1, len(log_claims) + 1)):
            problems.append("claim numbers are not 1..N in log order")
        log_tickets = {t: p for g in evening.games for a in g.awards for t, p, _ in a.tickets}
        if sorted(a[0] for a in awards) != sorted(log_tickets) or len(awards) != len(log_tickets):
            problems.append("lot ticket rows differ from the log")
        if any(log_tickets.get(t) != p for t, p, _ in awards):
            problems.append("a lot ticket row names another player than the log")
        codes = {t: c for t, _, c in awards}
        log_marks = {
            (g.index, no, n, evening.owner(no))
            for g in evening.games
            for no, ns in g.marks.items()
            for n in ns
        }
        if marks != log_marks:
            problems.append(f"mark rows differ from the log: {sorted(marks ^ log_marks)[:6]}")
        # what the clients were told is all there
        for g, told in sorted(ledger.draws.items()):
            have = evening.games[g].drawn if g < len(evening.games) else []
            if have[: len(told)] != told:
                problems.append(f"game {g}: draws shown {told}, stored {have}")
        by_no = {c.claim_no: c for c in log_claims}
        for no, (g, carton, number, verdict) in sorted(ledger.claims.items()):
            c = by_no.get(no)
            if c is None or (c.game, c.carton_no, c.number or 0, c.verdict) != (
                g,
                carton,
                number,
                verdict,
            ):
                problems.append(f"claim {no} shown as {(g, carton, number, verdict)}, stored {c}")
        for no, (secret, code) in sorted(ledger.tickets.items()):
            pid = players.get(hash_secret(secret))
            if log_tickets.get(no) != pid or codes.get(no) != code:
                problems.append(f"lot ticket {no} shown to {pid}: stored for {log_tickets.get(no)}")
        for _secret, g, carton, n in sorted(ledger.marks):
            if n not in evening.games[g].marks.get(carton, ()):
                problems.append(f"mark {carton}-{n} of game {g} shown, not stored")
        for secret, cartons in ledger.cartons.items():
            pid = players.get(hash_secret(secret))
            have = {c.no: _rows(c) for c in evening.player_cartons(pid or "")}
            for no, rows_ in cartons.items():
                if have.get(no) != rows_:
                    problems.append(f"carton {no} shown to a phone is not its stored carton")
    finally:
        engine.dispose()
    if problems:
        raise CrashError("; ".join(problems[:12]))
    return evening.fingerprint()


# ---------------------------------------------------------------------- the hall


class Hall:
    """The animateur's tablet and the phones, emulated; the moves; the checks."""

    def __init__(
        self, srv: AppServer, evening_id: int, code: str, rng: random.Random, players: int
    ) -> None:
        self.srv, self.evening_id, self.code, self.rng = srv, evening_id, code, rng
        self.n_players = players
        self.ledger = Ledger()
        self.mod = emulator()
        self.fe = self.mod.Frontend.read(srv.web)
        args = argparse.Namespace(step_timeout=60.0, after_join="nav", mark_delay=(0.0, 0.0))
        self.bench = self.mod.Bench(args, self.fe, "127.0.0.1", srv.port, code, SECRET)
        self.anim = self._tab("animateur")
        self.phones = [self._tab(f"joueur {i + 1}") for i in range(players)]
        self.last_rx = time.monotonic()
        self.hall_updates = 0
        self.kills = dict.fromkeys((*PHASES, "redis"), 0)

    # -- tabs

    def _tab(self, label: str) -> Any:
        tab = self.mod.Tab(self.bench, label)
        tab.track_hall = True
        inner = tab._frame

        def frame(d: str) -> None:
            inner(d)
            self.last_rx = time.monotonic()
            if tab is self.anim:
                self.ledger.saw_hall(tab.hall)
                self.hall_updates += self.fe.hall in d
            elif tab.storage.get("loto_player_secret"):
                self.ledger.saw_player(tab.storage["loto_player_secret"], tab.player)

        tab._frame = frame
        return tab

    def _emit(self, tab: Any, handler: str, payload: dict[str, Any] | None = None) -> None:
        state = self.fe.animateur if tab is self.anim else self.fe.player
        tab.emit(f"{state}.{handler}", payload)

    def _loading(self) -> list[Any]:
        """The tabs in the middle of a page load: a reload the server asked for (it had lost
        their state: Redis restarted) not yet hydrated, or a phone on /jouer not yet ready."""
        return [
            t
            for t in (self.anim, *self.phones)
            if not t.hydrated
            or (t is not self.anim and t.path == "/jouer" and t.player.get("ready") is not True)
        ]

    async def settle(self, quiet: float = 0.4, limit: float = 30.0) -> None:
        """Wait until no tab received anything for `quiet` seconds and no tab is reloading its
        page (at most `limit`: what a player waits for after a reload is the page back)."""
        t0 = time.monotonic()
        while time.monotonic() < t0 + limit and (
            time.monotonic() - max(self.last_rx, t0) < quiet or self._loading()
        ):
            await asyncio.sleep(0.05)

    async def animateur(self, move: str) -> None:
        """An animateur's move, waited for: the board it changes, or a refusal."""
        a = self.anim
        for _ in range(3):
            before, reloads = self.hall_updates, a.reloads
            drawn = len(a.hall.get("drawn") or ())
            a.animateur.pop("message", None)
            self._emit(a, move)
            await self._need(
                a,
                lambda b=before, r=reloads, d=drawn: (
                    a.animateur.get("message")  # a refusal (a page load sends message="")
                    or a.reloads > r
                    # a draw is answered by the new number on the board, anything else by a
                    # change of the board
                    or (
                        len(a.hall.get("drawn") or ()) > d
                        if move == "draw"
                        else self.hall_updates > b
                    )
                ),
                f"{move}: no answer",
            )
            if a.reloads == reloads:
                break
            # The server had lost this tablet's state (Redis restarted) and reloaded the page:
            # once it is signed in again and shows the board, the animateur taps again.
            a.animateur.pop("signed_in", None)
            shown = self.hall_updates
            await self._need(
                a,
                lambda s=shown: (
                    a.hydrated and a.animateur.get("signed_in") is True and self.hall_updates > s
                ),
                "no sign-in after the page reloaded",
            )
            # (with Redis, the page's snapshot is relayed through pub/sub and can come after
            # the sign-in: wait for it so that it is not taken for the answer to the new tap)
        await self.settle()

    async def _need(self, tab: Any, cond: Callable[[], Any], what: str, t: float = 60.0) -> None:
        if not await tab.until(cond, t):
            raise CrashError(f"{tab.label}: {what} (errors {tab.errors[-2:]})")

    async def join(self) -> None:
        """The animateur signs in, the phones join and take 3 cartons each."""
        a = self.anim
        await a.open("/animateur")
        await self._need(a, lambda: a.hydrated, "no hydration of /animateur")
        self._emit(a, "login", {"form_data": {"code": self.code, "secret": SECRET}})
        await self._need(a, lambda: a.animateur.get("signed_in") is True, "sign-in failed")
        for p in self.phones:
            await p.open(f"/?code={self.code}")
            await self._need(p, lambda p=p: p.hydrated, "no hydration of /")
            name = p.label.title()
            self._emit(p, "join_evening", {"form_data": {"code": self.code, "name": name}})
            await self._need(p, lambda p=p: p.player.get("ready") is True, "no /jouer after join")
            self._emit(p, "buy", {"kind": "classique", "quantity": 3})
            await self._need(p, lambda p=p: len(p.player.get("cartons") or ()) >= 3, "no cartons")
        await self.settle()

    async def reconnect(self) -> None:
        """Every tab reloads its page after the restart (same token, same local storage) and
        must find what it had."""
        if self.mod.Frontend.read(self.srv.web) != self.fe:  # rebuilt from a changed tree
            self.fe = self.bench.fe = self.mod.Frontend.read(self.srv.web)
            for t in (self.anim, *self.phones):
                t.fe = self.fe
        for t in (self.anim, *self.phones):
            t.close()
            t.player.clear()
            t.animateur.clear()
            t.hall.clear()
            t.errors.clear()
        a = self.anim
        await a.open("/animateur")
        await self._need(
            a,
            lambda: a.animateur.get("signed_in") is True and a.hall.get("game_no") is not None,
            "the tablet is not signed in again after the restart",
        )
        for p in self.phones:
            await p.open("/jouer")
            await self._need(
                p,
                lambda p=p: p.player.get("ready") is True and p.hall.get("game_no") is not None,
                "the phone did not find its player again after the restart",
            )
        await self.settle()

    def check_views(self, fp: dict[str, Any]) -> None:
        """What the reconnected tabs show is what the database holds."""
        problems = []
        games = fp["games"]
        g = games[-1] if games else None
        shown = self.anim.hall.get("drawn") or []
        if g is not None and shown != g["drawn"]:
            problems.append(f"the tablet shows {shown}, the database {g['drawn']}")
        for p in self.phones:
            secret = p.storage.get("loto_player_secret", "")
            cartons = {int(c["no"]) for c in p.player.get("cartons") or ()}
            told = set(self.ledger.cartons.get(secret, {}))
            if not told <= cartons:
                problems.append(f"{p.label} lost cartons {sorted(told - cartons)}")
            tickets = {int(t["no"]) for t in p.player.get("tickets") or ()}
            mine = {no for no, (s, _) in self.ledger.tickets.items() if s == secret}
            if not mine <= tickets:
                problems.append(f"{p.label} lost lot tickets {sorted(mine - tickets)}")
            if g is not None and g["status"] != "finished":
                want = {f"{no}-{n}" for no, ns in g["marks"].items() if no in cartons for n in ns}
                if set(p.player.get("marks") or ()) != want:
                    problems.append(f"{p.label} shows marks {p.player.get('marks')}, stored {want}")
            if (p.hall.get("drawn") or []) != shown:
                problems.append(f"{p.label} shows another board than the tablet")
        if problems:
            raise CrashError("; ".join(problems[:8]))

    # -- moves

    def _claimable(self, p: Any) -> list[int]:
        """My playing cartons whose stage pattern is complete with the numbers drawn."""
        need = LINES_NEEDED.get(p.hall.get("pattern", ""), 9)
        drawn = set(p.hall.get("drawn") or ())
        out = []
        for c in p.player.get("cartons") or ():
            if c.get("plays") and not c.get("annulled"):
                full = sum(1 for row in c["rows"] if {n for n in row if n} <= drawn)
                if full >= need:
                    out.append(int(c["no"]))
        return out

    def _unmarked(self, p: Any) -> list[tuple[int, int]]:
        drawn = set(p.hall.get("drawn") or ())
        marks = set(p.player.get("marks") or ())
        return [
            (int(c["no"]), n)
            for c in p.player.get("cartons") or ()
            if c.get("plays") and not c.get("annulled")
            for row in c["rows"]
            for n in row
            if n in drawn and f"{c['no']}-{n}" not in marks
        ]

    def send_claims(self, storm: bool) -> int:
        """Every phone claims its claimable cartons at once; with `storm`, one false claim too."""
        sent = 0
        for p in self.phones:
            for no in self._claimable(p):
                self._emit(p, "claim", {"carton_no": no})
                sent += 1
        if storm and self.anim.hall.get("drawn"):
            p = self.rng.choice(self.phones)
            playing = [c["no"] for c in p.player.get("cartons") or () if c.get("plays")]
            if playing:
                self._emit(p, "claim", {"carton_no": self.rng.choice(playing)})
                sent += 1
        return sent

    def send_marks(self, k: int = 6) -> list[tuple[Any, int, int, int]]:
        """Every phone marks up to `k` drawn numbers of its cartons."""
        g = int(self.anim.hall.get("game_no") or 0) - 1
        out = []
        for p in self.phones:
            todo = self._unmarked(p)
            for no, n in self.rng.sample(todo, min(k, len(todo))):
                self._emit(p, "toggle", {"carton_no": no, "number": n})
                out.append((p, g, no, n))
        return out

    def animateur_move(self) -> str | None:
        """The move the state calls for (None: draw, mark or claim at will)."""
        h = self.anim.hall
        if h.get("status") == "over":
            raise EOFError("the evening is over")
        if h.get("can_start"):
            return "start_game"
        if h.get("awaiting_unmark") or (h.get("count") == 90 and not h.get("entries")):
            return "allow_unmark"
        entries = h.get("entries") or []
        if len(entries) > 1 and not h.get("tie_tokens"):
            return "tie_draw"
        if entries:
            return "award"
        return None

    async def step(self) -> str:
        """One ordinary move, waited for."""
        move = self.animateur_move()
        if move is None:
            move = self.rng.choices(["draw", "marks", "claims"], weights=[5, 2, 2])[0]
        if move == "marks":
            sent = self.send_marks()
            await self.settle()
            for p, g, no, n in sent:
                if f"{no}-{n}" in (p.player.get("marks") or ()):
                    self.ledger.marks.add((p.storage["loto_player_secret"], g, no, n))
        elif move == "claims":
            self.send_claims(storm=self.rng.random() < 0.2)
            await self.settle()
        else:
            if move == "draw" and not self.anim.hall.get("can_draw"):
                return "idle"
            before = len(self.anim.hall.get("drawn") or ())
            await self.animateur(move)
            if move == "draw":  # the phones see it and claim when they can
                if len(self.anim.hall.get("drawn") or ()) != before + 1:
                    raise CrashError(
                        f"a draw did not come out: {before} numbers before, now "
                        f"{len(self.anim.hall.get('drawn') or ())}; tablet {self.anim.animateur}, "
                        f"reloads {self.anim.reloads}, errors {self.anim.errors[-3:]}"
                    )
                if self.send_claims(storm=False):
                    await self.settle()
        return move

    async def fault_point(self, phase: str) -> str:
        """Play until `phase` can happen, then send its events (not waited for)."""
        for _ in range(400):
            move = self.animateur_move()
            if phase == "award" and move in ("award", "tie_draw"):
                self._emit(self.anim, move)
                if move == "tie_draw" and self.rng.random() < 0.5:
                    self._emit(self.anim, "award")
                return move
            if move is None and self.anim.hall.get("can_draw"):
                if phase == "draw":
                    for _ in range(self.rng.randint(1, 4)):
                        self._emit(self.anim, "draw")
                    return "draw"
                if phase == "claims" and self.send_claims(storm=True):
                    return "claims"
                if phase == "marks" and self.send_marks(k=15):
                    return "marks"
            await self.step()
        raise CrashError(f"no way to reach a {phase} in 400 moves")


# ---------------------------------------------------------------------- the run


class Loop:
    """One asyncio loop in a thread of its own, so that sync callers (Playwright) can drive
    the emulated tabs between their own steps."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 900.0) -> Any:
        """Run a coroutine there and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class Crash:
    """A server, an evening, the hall, and the kill/restart cycles (usable from a test)."""

    def __init__(
        self,
        *,
        seed: int,
        players: int = 4,
        scale_out: bool = False,
        keep: bool = False,
        built: serving.Build | None = None,
    ):
        self.seed = seed
        self.rng = random.Random(seed)
        self.srv = AppServer(scale_out=scale_out, keep=keep, built=built)
        self.loop = Loop()
        self.hall: Hall | None = None
        self.players = players
        self.cycles = 0
        self.ok = False

    def start(self) -> None:
        """Database, evening, server, the tablet and the phones in the hall."""
        self.evening_id, self.code = self.srv.prepare()
        self.srv.start()
        self.hall = Hall(self.srv, self.evening_id, self.code, self.rng, self.players)
        self.loop.run(self.hall.join())

    def play(self, moves: int) -> None:
        """Ordinary moves."""
        assert self.hall is not None

        async def go() -> None:
            for _ in range(moves):
                await self.hall.step()

        self.loop.run(go())

    def check(self) -> dict[str, Any]:
        """The database against the log and against what the clients were told."""
        assert self.hall is not None
        return check_database(self.srv.db_url, self.evening_id, self.hall.ledger)

    def cycle(self, what: str = "server", on_down: Callable[[], None] | None = None) -> str:
        """Moves, a fault at a random point, the checks, the restart, the reconnect checks.

        Args:
            what: "server" (SIGKILL the app's process group) or "redis" (SIGKILL Redis).
            on_down: called while the server is down (a browser test looks at its page).

        Returns:
            A one-line account of the cycle.
        """
        h = self.hall
        assert h is not None
        rng = self.rng
        self.play(rng.randint(2, 8))
        phase = rng.choice(PHASES)
        delay = rng.uniform(0.0, 0.25)
        t0 = time.monotonic()
        sent = self.loop.run(h.fault_point(phase))
        time.sleep(max(0.0, delay - (time.monotonic() - t0)))
        if what == "redis":
            assert self.srv.redis is not None
            self.srv.redis.kill()
            self.srv.redis.start()
            h.kills["redis"] += 1
        else:
            self.srv.kill()
            h.kills[phase] += 1
        self.cycles += 1
        before = self.check()
        if what == "server":
            if on_down is not None:
                on_down()
            self.srv.start()
        if what == "server":
            self.loop.run(h.reconnect())
        else:  # the pages stay open on their sockets, as in a hall: play on without a reload
            self.loop.run(h.settle())
            self.play(3)
            self.loop.run(h.settle())  # (a phone reloaded by its last move has its page back)
            before = self.check()
        after = self.check()
        if after != before:
            raise CrashError("the restart (or a reconnect) changed the stored evening")
        h.check_views(after)
        g = after["games"][-1] if after["games"] else {"index": -1, "drawn": []}
        line = (
            f"cycle {self.cycles}: {what} killed {delay * 1000:.0f} ms after {sent!r} "
            f"(phase {phase}); game {g['index'] + 1}, {len(g['drawn'])} drawn, "
            f"{len(h.ledger.claims)} claims, {len(h.ledger.tickets)} lot tickets, "
            f"{len(h.ledger.marks)} marks checked"
        )
        print(line, flush=True)
        return line

    def close(self) -> None:
        """Stop the server; the temp dir stays when something failed."""
        if self.hall is not None:
            for t in (self.hall.anim, *self.hall.phones):
                with contextlib.suppress(Exception):
                    self.loop.loop.call_soon_threadsafe(t.close)
        self.loop.close()
        self.srv.stop(keep=self.srv.keep or not self.ok)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cycles", type=int, default=50)
    ap.add_argument("--seed", type=int, default=None, help="replay the choices of a run")
    ap.add_argument("--players", type=int, default=4, help="emulated phones")
    ap.add_argument("--scale-out", action="store_true", help="PostgreSQL, Redis, 2 workers")
    ap.add_argument(
        "--redis-every", type=int, default=0, help="with --scale-out: every K-th fault kills Redis"
    )
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--json", type=Path, help="write the cycles' account to this file")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    print(f"crash: seed {seed} (replay with --seed {seed})", flush=True)
    c = Crash(seed=seed, players=args.players, scale_out=args.scale_out, keep=args.keep_tmp)
    lines: list[str] = []
    t0 = time.monotonic()
    try:
        c.start()
        c.check()
        for i in range(args.cycles):
            redis = args.scale_out and args.redis_every and (i + 1) % args.redis_every == 0
            try:
                lines.append(c.cycle("redis" if redis else "server"))
            except EOFError:
                print("the evening is over: stopping", flush=True)
                break
        c.ok = True
        assert c.hall is not None
        print(
            f"crash: OK seed={seed} cycles={c.cycles} kills={c.hall.kills} "
            f"claims={len(c.hall.ledger.claims)} tickets={len(c.hall.ledger.tickets)} "
            f"marks={len(c.hall.ledger.marks)} elapsed_s={time.monotonic() - t0:.0f}",
            flush=True,
        )
        return 0
    except (CrashError, RuntimeError, TimeoutError) as exc:
        print(f"crash: FAILED seed={seed} after {c.cycles} cycles: {exc}", file=sys.stderr)
        print(c.srv.tail(30), file=sys.stderr)
        return 1
    finally:
        if args.json:
            args.json.write_text(json.dumps({"seed": seed, "cycles": lines}, indent=1))
        c.close()


if __name__ == "__main__":
    sys.exit(main())
