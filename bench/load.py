"""Load generator: N emulated phones on the app's real websocket protocol, no browser.

Run from the repository root with the project's virtualenv:

    .venv/bin/python bench/load.py --players 1000 --draws 20 --start
    .venv/bin/python bench/load.py --players 200 --draws 10 --claim-storm 200 --start
    .venv/bin/python bench/load.py --players 3000 --draws 20 --start --scale-out
    .venv/bin/python bench/load.py --players 400 --draws 20 --url http://127.0.0.1:3000 \\
        --code DEMO42 --secret <animateur secret>

`--start` serves the app itself: a fresh SQLite file, Reflex state directory and frontend
directory (REFLEX_WEB_WORKDIR: built there, the checkout's .web/ is left alone) in a temp dir,
`python -m loto_app.storage.cli migrate`, an evening with a known animateur secret (the demo
program; electronic draws, or balls typed in with `--claim-storm` so that the bench chooses the
numbers), then `scripts/with-env.sh .venv/bin/reflex run --env prod` on a free port of 127.0.0.1,
stopped (its whole process group) at the end. `--scale-out` does the same on a fresh PostgreSQL
database with Redis and 2 workers (REFLEX_REDIS_URL, GRANIAN_WORKERS=2). Without
`--start` the server at `--url` must serve the evening of `--code` (and `--secret` signs in as its
animateur), and the compiled frontend in `.web/` must be the one it serves (the state schema and
initial hashes are read from `.web/utils/context.jsx`, as a browser has them compiled in).

Each emulated tab speaks the frames Chromium sends on `/_event/?EIO=4&transport=websocket`
(engine.io 4 / socket.io 5 over a minimal websocket client of its own, see
../shared/tools/fanout-probe/storm.py): the boot
event `hydrate_and_load` rides in the socket.io CONNECT packet with the route, the initial state
hashes and the local-storage values; events pushed by the server (`refresh`) are sent back as the
browser would; `_redirect` is followed like React Router does (a client-side navigation sends
`update_vars_internal` with the local-storage values, then `on_load_internal` for the new route).

A player: opens `/?code=CODE` (the QR code), waits for hydration, submits `join_evening`, reads its
secret from the PlayerState delta (LocalStorage), follows the redirect to `/jouer` so that
`resume` runs (or, with `--after-join reload`, reconnects with the same token as a reloaded page),
gets its cartons (`get_cartons`: today the in-app `buy("classique", 3)`), then listens; once a
game runs it marks every drawn number found on its cartons (after a human delay, `--mark-delay`;
sent a second later in one `save_marks` batch, as assets/loto.js does), and in a claim storm
it claims (`claim`). The animateur opens `/animateur`, signs in (`login`), and once every
player is ready starts the first game and draws.

Measured: the join storm (first connect to last player holding its cartons; per-player join time
and its phases), the start of the game (every phone re-reads its cartons after the server's
`refresh` poke), then D draws with N connected: draw event sent -> each player receiving the new
`last` in the HallView delta (p50/p95/p99/max, missed updates; per draw, the first phone's time,
the server's work before its fan-out began, and the last one's), the marks (sent -> acknowledged),
the server's RSS (whole process tree) and CPU per draw (marks included), split into the broadcast
(until every phone holds the number) and the marks after it (`mark_cpu_server_ms`: the server CPU
per mark), and the server CPU per joining phone (`join_cpu_per_player_ms`). The server is left to
go idle (< 5 % of a core over a window) between phases and draws. `--claim-storm K`: the bench then
types the balls so that a few of K players (`--claim-valid`) complete a line on the last number,
and the K players claim within one second (the others on a carton with no complete line); every
verdict must be the one the rules give (valid / fausse annonce) and the hall must show one tie with
exactly the valid claimants. The last line is machine-readable:

    players=N p50_ms=.. p95_ms=.. p99_ms=.. max_ms=.. missed=.. join_s=.. ...

Only 127.0.0.1 is contacted; every wait has a timeout and `--time-limit` bounds the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import math
import os
import random
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

if str(Path(__file__).resolve().parent) not in sys.path:  # loaded by path (crash.py, tests)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import serving
from emulator import (
    SPACING_S,
    Bench,
    BenchError,
    Frontend,
    PlayerRun,
    Tab,
    now,
    until,
)
from serving import ROOT, VENV, free_port, ping

SECRET = "bench-animateur-" + secrets.token_hex(8)
IDLE_CPU = 0.05  # "idle": the server used less than 5 % of a core over a window


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile of a sorted list (inf for missing values sorts last)."""
    if not values:
        return math.nan
    return values[max(0, math.ceil(q * len(values)) - 1)]


def ms(x: float) -> float:
    """Seconds to milliseconds, rounded (inf stays inf)."""
    return round(x * 1000, 1) if math.isfinite(x) else math.inf


# ---------------------------------------------------------------------- the server


class Server:
    """The Reflex server's processes (the whole tree under the `reflex run` process)."""

    def __init__(self, root_pid: int) -> None:
        self.root = psutil.Process(root_pid)
        self.idle_cpu = IDLE_CPU  # cores: below this over a window, the server is idle
        self._procs: list[psutil.Process] = []
        self._listed = -math.inf

    def procs(self) -> list[psutil.Process]:
        """The root and all its descendants (listed again every 5 s: a scan of /proc)."""
        if now() - self._listed > 5:
            try:
                self._procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                self._procs = []
            self._listed = now()
        return self._procs

    def cpu(self) -> float:
        """User + system CPU seconds of the tree."""
        total = 0.0
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def kind(self) -> str:
        """Which server serves: "gunicorn" (rxconfig.py's LOTO_SERVER=uvicorn) or "granian"."""
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                if "gunicorn" in p.cmdline():
                    return "gunicorn"
        return "granian"

    def rss(self) -> int:
        """Resident memory of the tree, bytes."""
        total = 0
        for p in self.procs():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    @classmethod
    def listening_on(cls, port: int) -> Server:
        """The server listening on `port`, climbing to the top `reflex` process."""
        pid = next(
            (
                c.pid
                for c in psutil.net_connections("tcp")
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid
            ),
            None,
        )
        if pid is None:
            raise BenchError(f"no process listens on port {port} (or not visible to this user)")
        p = psutil.Process(pid)
        while (parent := p.parent()) is not None and "reflex" in " ".join(parent.cmdline()):
            p = parent
        return cls(p.pid)

    async def wait_idle(self, limit: float, window: float = 1.0) -> tuple[float, float] | None:
        """Wait until the tree used < 5 % of a core over `window` s.

        Returns:
            When that idle window began and the tree's CPU seconds then; None on timeout.
        """
        end = now() + limit
        while now() < end:
            c0, t0 = self.cpu(), now()
            await asyncio.sleep(window)
            if (self.cpu() - c0) / (now() - t0) < self.idle_cpu:
                return t0, c0
        return None


class Started:
    """`--start`: a fresh database and a production server of the app, stopped on exit."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="loto-load-bench-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = self.tmp / "server.log"
        self.env = dict(os.environ)
        self.env.setdefault("VENV", str(VENV))  # for scripts/with-env.sh
        self.env["LOTO_DB_URL"] = f"sqlite:///{self.tmp / 'loto.db'}"
        self.env["REFLEX_STATES_WORKDIR"] = str(self.tmp / "states")  # (reflex run empties it)
        # A private frontend directory: `reflex run` initialises it (npm install from npm's
        # cache, vite build: ~30 s) instead of rewriting the checkout's .web/, which other runs
        # of the app may be installing or building at the same moment (a copy of it can be
        # caught half-written).
        self.web = self.tmp / "web"
        self.env["REFLEX_WEB_WORKDIR"] = str(self.web)
        self.pg_db = ""
        for name in ("REFLEX_REDIS_URL", "LOTO_REDIS_URL"):  # (one process: none)
            self.env.pop(name, None)
        if args.scale_out:  # a fresh PostgreSQL database, Redis, 2 workers
            self.pg_db = f"loto_load_{uuid.uuid4().hex[:8]}"
            self.env["LOTO_DB_URL"] = args.pg_url.rsplit("/", 1)[0] + f"/{self.pg_db}"
            self.env["REFLEX_REDIS_URL"] = args.redis_url
            self.env["GRANIAN_WORKERS"] = str(args.workers)
        for kv in args.server_env:
            k, _, v = kv.partition("=")
            self.env[k] = v
        self.code = ""
        self.secret = SECRET
        self.offer = -1
        self.vendeur_secrets: list[str] = []

    def _pg(self, sql: str) -> None:
        import sqlalchemy as sa  # the project's venv has it (and psycopg 3)

        url = self.args.pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
        admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as c:
                c.execute(sa.text(sql))
        finally:
            admin.dispose()

    def start(self) -> None:
        """Migrate, create the evening, serve; returns once /ping answers."""
        python = str(VENV / "bin" / "python")
        t0 = now()
        if self.pg_db:
            self._pg(f'CREATE DATABASE "{self.pg_db}"')
        subprocess.run(
            [python, "-m", "loto_app.storage.cli", "migrate"],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=120,
            stdout=subprocess.DEVNULL,
        )
        make = (
            "import sys\n"
            "from loto_app.domain.program import DrawSource, Settings, demo_program\n"
            "from loto_app.storage.db import make_engine\n"
            "from loto_app.storage.repository import EveningStore\n"
            "p = demo_program('B')\n"
            "import dataclasses\n"
            "settings = Settings(DrawSource(sys.argv[3]), free_cartons=sys.argv[6] == 'app')\n"
            "p = dataclasses.replace(p, settings=settings)\n"
            "engine = make_engine(sys.argv[1])\n"
            "c = EveningStore(engine).create_evening(\n"
            "    'Banc d\\'essai', p, animateur_secret=sys.argv[2])\n"
            "offer = next((i for i, o in enumerate(p.offers)\n"
            "    if o.kind.value == 'classique' and o.quantity == int(sys.argv[4])), -1)\n"
            "staff = []\n"
            "if sys.argv[6] == 'desk':\n"
            "    from loto_app.storage.access import AccessStore\n"
            "    a = AccessStore(engine)\n"
            "    staff = [a.add_staff(c.evening_id, f'Vendeur {i + 1}', 'vendeur')\n"
            "             for i in range(int(sys.argv[5]))]\n"
            "print(c.join_code, offer, *staff)\n"
        )
        source = "physical" if self.args.claim_storm else "electronic"
        out = subprocess.run(
            [
                python,
                "-c",
                make,
                self.env["LOTO_DB_URL"],
                self.secret,
                source,
                str(self.args.cartons),
                str(self.args.vendeurs),
                self.args.cartons_via,
            ],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=60,
            capture_output=True,
            text=True,
        )
        self.code, offer, *self.vendeur_secrets = out.stdout.strip().splitlines()[-1].split()
        self.offer = int(offer)
        self.proc = serving.spawn(self.port, self.env, self.log)
        serving.wait_up(self.proc, self.url, self.args.start_timeout, self.log, BenchError)
        print(f"server: {self.url} up in {now() - t0:.1f}s (log {self.log})", flush=True)

    def tail(self, n: int = 30) -> str:
        """The end of the server's log."""
        return serving.tail(self.log, n)

    def stop(self, keep: bool) -> None:
        """Stop the server's process group; remove the temp dir unless `keep`."""
        serving.stop(self.proc)
        if self.pg_db and not keep:
            try:
                self._pg(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')
            except Exception as exc:  # reported; the run's figures still stand
                print(f"could not drop {self.pg_db}: {exc}", file=sys.stderr)
        if keep:
            print(f"kept: {self.tmp}", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------- the benchmark


async def run_player(b: Bench, p: PlayerRun, gate: asyncio.Semaphore, delay: float) -> None:
    """Scan the QR code, join, land on /jouer, buy cartons."""
    args, tab = b.args, p.tab
    tmo = args.step_timeout
    await asyncio.sleep(delay)
    try:
        async with gate:  # at most --batch handshakes at a time
            p.t_start = now()
            await tab.open(f"/?code={b.code}")
        if not await tab.until(lambda: tab.hydrated, tmo):
            raise TimeoutError("no hydration of /")
        p.t_hydrated = now()
        name = f"Joueur {tab.label}"
        tab.emit(f"{b.fe.player}.join_evening", {"form_data": {"code": b.code, "name": name}})
        # The app fills the player's page in on the join's own event (a redirect to /jouer, and
        # its navigation's two events, in older versions: followed, see _message).
        if not await tab.until(
            lambda: tab.player.get("secret") and (tab.redirects or tab.player.get("ready")), tmo
        ):
            raise TimeoutError(f"no secret/redirect after join ({tab.player.get('message')!r})")
        p.t_secret = now()
        if args.after_join == "reload":  # a reload of /jouer: same token, new socket
            tab.player.pop("ready", None)
            await tab.open("/jouer")
        if not await tab.until(lambda: tab.player.get("ready") is True, tmo):
            raise TimeoutError("resume did not finish (ready) on /jouer")
        p.t_resumed = now()
        if args.cartons_via == "app":
            p.t_ready = await get_cartons(b, tab, args.cartons, tmo)
        else:  # cartons come from the desk, after the storm
            p.t_ready = p.t_resumed
    except Exception as exc:
        p.failed = f"{type(exc).__name__}: {exc}"


async def open_desk(b: Bench) -> None:
    """The vendeurs sign in at /caisse (desk sales)."""
    for i, secret in enumerate(b.vendeur_secrets):
        v = Tab(b, f"vendeur {i + 1}")
        await v.open("/caisse")
        if not await v.until(lambda v=v: v.hydrated, b.args.step_timeout):
            raise BenchError(f"vendeur {i + 1}: no hydration of /caisse ({v.errors[:2]})")
        v.emit(f"{b.fe.caisse}.login", {"form_data": {"code": b.code, "secret": secret}})
        await v.until(
            lambda v=v: v.caisse.get("signed_in") is True or v.caisse.get("message"),
            b.args.step_timeout,
        )
        if v.caisse.get("signed_in") is not True:
            raise BenchError(f"vendeur {i + 1}: sign-in failed ({v.caisse.get('message')!r})")
        b.vendeurs.append(v)
        b.desk_locks.append(asyncio.Lock())
        b.desk_last.append(-math.inf)


async def get_cartons(b: Bench, tab: Tab, quantity: int, timeout: float) -> float:
    """How a player gets its cartons: the one place that knows.

    `--cartons-via desk` (default): a vendeur signed in at /caisse sells the pack (the tariff
    line classique x `quantity`, paid cash) to the code the player's app shows (`desk_code`);
    the player's phone is poked and re-reads its cartons. The vendeurs take the players in
    turn, one player at a time each (the next sale once the phone holds its cartons), at most
    `--sale-rate` sales per second each (the app's per-client rate limit is 10 events/s).
    `--cartons-via app`: the in-app `buy("classique", quantity)`, on the player's own socket
    (it delivers only on a free loto: otherwise it is an order "à régler").

    Returns:
        When the PlayerState delta holding the new cartons arrived (perf_counter seconds).

    Raises:
        TimeoutError: no cartons within `timeout`.
    """
    n_before = len(tab.cartons_at)
    if b.args.cartons_via == "desk":
        code = tab.player.get("desk_code")
        if not code:
            raise BenchError(f"player {tab.label}: no desk code shown (an app without a desk?)")
        i = b.sales % len(b.vendeurs)
        b.sales += 1
        vendeur = b.vendeurs[i]
        async with b.desk_locks[i]:
            await asyncio.sleep(max(0.0, b.desk_last[i] + 1 / b.args.sale_rate - now()))
            b.desk_last[i] = now()
            form_data = {"player": code, "offer": b.offer, "method": "cash"}
            vendeur.emit(f"{b.fe.caisse}.sell", {"form_data": form_data})
            return await _cartons_arrived(tab, n_before, quantity, timeout, vendeur.caisse)
    tab.emit(f"{b.fe.player}.buy", {"kind": "classique", "quantity": quantity})
    return await _cartons_arrived(tab, n_before, quantity, timeout, tab.player)


async def _cartons_arrived(
    tab: Tab, n_before: int, quantity: int, timeout: float, said: dict[str, Any]
) -> float:
    if not await tab.until(
        lambda: len(tab.cartons_at) > n_before and len(tab.player["cartons"]) >= quantity,
        timeout,
    ):
        raise TimeoutError(f"no cartons ({said.get('message')!r})")
    return tab.cartons_at[n_before]


@dataclass
class StormPlan:
    """The balls to type so that the claim storm has a known outcome, and who claims what."""

    last: int  # the number everyone claims on
    before: list[int]  # balls typed before it
    claims: list[tuple[PlayerRun, int, str]]  # player, carton, the verdict the rules give


def plan_storm(pool: list[PlayerRun], drawn: list[int], k: int, w: int) -> StormPlan | None:
    """Choose the last number X, the balls before it and K claimants: W whose carton completes a
    line on X (valid: the line holds X and no line was complete before X) and K - W whose
    claimed carton has no complete line at all (fausse annonce). None when no X fits."""
    rng = random.Random()
    seen = set(drawn)
    playing = {
        id(p): [
            (c["no"], p.tab.lines(c["no"]))
            for c in p.tab.player.get("cartons") or ()
            if c.get("plays") and not c.get("annulled")
        ]
        for p in pool
    }
    candidates = [n for n in range(1, 91) if n not in seen]
    rng.shuffle(candidates)
    for x in candidates:
        options = [
            (len(line - seen - {x}), rng.random(), p, no, line)
            for p in pool
            for no, lines in playing[id(p)]
            if not any(line <= seen for line in lines)
            for line in lines
            if x in line
        ]
        options.sort(key=lambda o: o[:2])
        winners: list[tuple[PlayerRun, int]] = []
        extra: set[int] = set()
        for _, _, p, no, line in options:
            if len(winners) == w:
                break
            if all(q is not p for q, _ in winners):
                winners.append((p, no))
                extra |= line - seen - {x}
        if len(winners) < w:
            continue
        final = seen | extra | {x}
        before = final - {x}
        if not all(
            any(x in line and line <= final for line in lines)
            and not any(line <= before for line in lines)
            for lines in (p.tab.lines(no) for p, no in winners)
        ):
            continue
        falses: list[tuple[PlayerRun, int]] = []
        others = [p for p in pool if all(q is not p for q, _ in winners)]
        rng.shuffle(others)
        for p in others:
            if len(falses) == k - w:
                break
            no = next(
                (no for no, lines in playing[id(p)] if not any(line <= final for line in lines)),
                None,
            )
            if no is not None:
                falses.append((p, no))
        if len(falses) < k - w:
            continue
        claims = [(p, no, "valid") for p, no in winners] + [(p, no, "false") for p, no in falses]
        return StormPlan(x, sorted(extra), claims)
    return None


def verdict(tab: Tab) -> str:
    """The verdict a phone shows: "valid", "false" (fausse annonce) or what else it says."""
    text, kind = tab.player.get("verdict") or "", tab.player.get("verdict_kind") or ""
    if kind == "valid" and text.startswith("Annonce valide"):
        return "valid"
    if kind == "false" and text.startswith("Fausse annonce"):
        return "false"
    return f"{kind}: {text[:40]}" if kind else "none"


async def claim_storm(
    b: Bench,
    anim: Tab,
    pool: list[PlayerRun],
    drawn: list[int],
    draw: Callable[[int | None], Awaitable[tuple[int | None, float]]],
    settle: Callable[[], Awaitable[Any]],
    res: dict[str, Any],
) -> None:
    """K players claim on the same number within `--claim-window` seconds; check the verdicts
    against the rules and the tie shown to the hall against the valid claimants."""
    args = b.args
    k = min(args.claim_storm, len(pool))
    w = min(args.claim_valid, k)
    plan = plan_storm(pool, drawn, k, w)
    if plan is None:
        res["claim_error"] = f"no number gives {w} valid and {k - w} false claims"
        return
    for n in [*plan.before, plan.last]:
        x, _ = await draw(n)
        if x != n:
            res["claim_error"] = f"typed ball {n} not seen by the animateur ({anim.hall})"
            return
        await settle()
    for p, _, _ in plan.claims:
        p.tab.player["verdict_kind"] = ""
    sent: dict[int, float] = {}

    def fire(p: PlayerRun, no: int) -> None:
        sent[id(p)] = now()
        p.tab.emit(f"{b.fe.player}.claim", {"carton_no": no})

    loop = asyncio.get_running_loop()
    for p, no, _ in plan.claims:
        loop.call_later(random.uniform(0, args.claim_window), fire, p, no)
    await until(
        lambda: (
            len(sent) == len(plan.claims)
            and all(p.tab.player.get("verdict_kind") for p, _, _ in plan.claims)
        ),
        args.step_timeout,
        0.01,
    )
    winners = sorted(f"Joueur {p.tab.label}" for p, _, want in plan.claims if want == "valid")
    await anim.until(
        lambda: (
            sorted(anim.hall.get("entries") or ()) == winners
            and anim.hall.get("tie") is (len(winners) > 1)
        ),
        args.step_timeout,
    )
    got = collections.Counter(verdict(p.tab) for p, _, _ in plan.claims)
    wrong = [
        f"{p.tab.label}/{no}: {p.tab.player.get('verdict')!r} instead of {want!r}"
        for p, no, want in plan.claims
        if verdict(p.tab) != want
    ]
    lat = sorted(
        p.tab.verdict_at - sent[id(p)] if p.tab.player.get("verdict_kind") else math.inf
        for p, _, _ in plan.claims
    )
    res.update(
        claim_storm=len(plan.claims),
        claim_number=plan.last,
        claim_balls_typed=len(plan.before) + 1,
        claim_expected_valid=w,
        claim_expected_false=len(plan.claims) - w,
        claim_valid=got["valid"],
        claim_false=got["false"],
        claim_other=sum(v for key, v in got.items() if key not in ("valid", "false")),
        claim_wrong=len(wrong),
        claim_wrong_sample=wrong[:3],
        claim_spread_s=round(max(sent.values()) - min(sent.values()), 2) if sent else None,
        claim_settled_s=round(
            max((p.tab.verdict_at for p, _, _ in plan.claims), default=0.0)
            - min(sent.values(), default=0.0),
            2,
        ),
        claim_verdict_p50_ms=ms(pct(lat, 0.5)),
        claim_verdict_p95_ms=ms(pct(lat, 0.95)),
        claim_verdict_max_ms=ms(lat[-1]) if lat else math.nan,
        claim_tie_entrants=sorted(anim.hall.get("entries") or ()),
        claim_tie_ok=sorted(anim.hall.get("entries") or ()) == winners
        and anim.hall.get("tie") is (len(winners) > 1),
    )


def summary(values: list[float]) -> dict[str, float]:
    """p50/p95/p99/max in ms of a list of seconds (inf = missing)."""
    v = sorted(values)
    return {
        "p50_ms": ms(pct(v, 0.50)),
        "p95_ms": ms(pct(v, 0.95)),
        "p99_ms": ms(pct(v, 0.99)),
        "max_ms": ms(v[-1]) if v else math.nan,
    }


def _busy(t: Any) -> float:
    return t.user + t.nice + t.system + t.irq + t.softirq + t.steal


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The emulator's event loop: uvloop (a dependency of the app) or asyncio's own."""
    if name == "asyncio":
        return None
    import uvloop

    return uvloop.new_event_loop


def foreign_cpu(total0: Any, total1: Any, own: float) -> float:
    """Average cores used by other processes (not the server, not us) over an interval."""
    cores = psutil.cpu_count() or 1
    wall = (sum(total1) - sum(total0)) / cores  # seconds elapsed
    return max(0.0, (_busy(total1) - _busy(total0) - own) / wall) if wall > 0 else 0.0


async def bench_main(b: Bench, srv: Server) -> dict[str, Any]:
    """The scenario; returns the measurements."""
    args = b.args
    n = args.players
    me = psutil.Process()
    res: dict[str, Any] = {"players": n, "draws": args.draws, "url": f"{b.host}:{b.port}"}
    res["server"] = srv.kind()

    def my_cpu() -> float:
        t = me.cpu_times()
        return t.user + t.system

    # The animateur signs in before the doors open.
    anim = Tab(b, "animateur")
    anim.track_hall = True
    await anim.open("/animateur")
    if not await anim.until(lambda: anim.hydrated, args.step_timeout):
        raise BenchError(f"animateur: no hydration ({anim.errors[:2]})")
    anim.emit(f"{b.fe.animateur}.login", {"form_data": {"code": b.code, "secret": b.secret}})
    await anim.until(
        lambda: anim.animateur.get("signed_in") is True or anim.animateur.get("message"),
        args.step_timeout,
    )
    if anim.animateur.get("signed_in") is not True:
        raise BenchError(f"animateur: sign-in failed ({anim.animateur.get('message')!r})")
    if args.cartons_via == "desk":
        await open_desk(b)
    await srv.wait_idle(30)
    rss0 = srv.rss()
    res["rss_before_mb"] = round(rss0 / 2**20, 1)

    # The join storm.
    players = [PlayerRun(Tab(b, f"{i + 1:04d}")) for i in range(n)]
    gate = asyncio.Semaphore(args.batch)
    cpu_s0, cpu_me0, sys0 = srv.cpu(), my_cpu(), psutil.cpu_times()
    t0 = now()
    tasks = [
        asyncio.create_task(run_player(b, p, gate, args.ramp * i / n))
        for i, p in enumerate(players)
    ]
    _, pending = await asyncio.wait(tasks, timeout=args.join_timeout)
    for t in pending:
        t.cancel()
    ok = [p for p in players if p.t_ready and not p.failed]
    failed = [p for p in players if p not in ok]
    t_last = max((p.t_ready for p in ok), default=t0)
    joins = sorted(p.t_ready - p.t_start for p in ok)
    idle = await srv.wait_idle(args.join_timeout)
    cpu_join = (idle[1] if idle else srv.cpu()) - cpu_s0
    cpu_me_join = my_cpu() - cpu_me0
    res.update(
        joined=len(ok),
        join_failed=len(failed),
        join_fail_sample=next((p.failed for p in failed if p.failed), "timeout" if failed else ""),
        join_s=round(t_last - t0, 2),
        join_p50_ms=ms(pct(joins, 0.5)),
        join_p95_ms=ms(pct(joins, 0.95)),
        join_max_ms=ms(joins[-1]) if joins else math.nan,
        join_phase_p50_ms={
            "connect_hydrate": ms(statistics.median(p.t_hydrated - p.t_start for p in ok)),
            "join_evening": ms(statistics.median(p.t_secret - p.t_hydrated for p in ok)),
            "resume": ms(statistics.median(p.t_resumed - p.t_secret for p in ok)),
            "buy": ms(statistics.median(p.t_ready - p.t_resumed for p in ok)),
        }
        if ok
        else {},
        join_events_per_player=round(statistics.mean(p.tab.sent for p in ok), 2) if ok else 0,
        join_pokes_per_player=round(statistics.mean(p.tab.pokes for p in ok), 2) if ok else 0,
        join_server_idle_s=round(idle[0] - t0, 2) if idle else None,
        join_cpu_server_s=round(cpu_join, 2),
        join_cpu_per_player_ms=round(cpu_join / len(ok) * 1000, 2) if ok else None,
        join_cpu_emulator_s=round(cpu_me_join, 2),
        join_foreign_cores=round(foreign_cpu(sys0, psutil.cpu_times(), cpu_join + cpu_me_join), 2),
    )
    rss1 = srv.rss()
    res["rss_after_join_mb"] = round(rss1 / 2**20, 1)
    res["rss_per_player_kb"] = round((rss1 - rss0) / max(1, len(ok)) / 1024, 1)
    tabs = [p.tab for p in ok]
    if not ok:
        return res

    # Desk sales: the vendeurs sell a pack to every player (their phones get the cartons).
    if args.cartons_via == "desk":
        c0, me0, sys0 = srv.cpu(), my_cpu(), psutil.cpu_times()
        t0 = now()
        got = await asyncio.gather(
            *(get_cartons(b, t, args.cartons, args.step_timeout) for t in tabs),
            return_exceptions=True,
        )
        done = [x for x in got if isinstance(x, float)]
        fails = [x for x in got if not isinstance(x, float)]
        idle = await srv.wait_idle(args.join_timeout)
        cpu = (idle[1] if idle else srv.cpu()) - c0
        span = max(done, default=t0) - t0
        res.update(
            sales_vendeurs=len(b.vendeurs),
            sales_ok=len(done),
            sales_failed=len(fails),
            sales_fail_sample=f"{type(fails[0]).__name__}: {fails[0]}" if fails else "",
            sales_s=round(span, 2),
            sales_per_s=round(len(done) / span, 1) if span > 0 else None,
            sales_cpu_server_s=round(cpu, 2),
            sales_foreign_cores=round(
                foreign_cpu(sys0, psutil.cpu_times(), cpu + my_cpu() - me0), 2
            ),
        )
        tabs = [t for t, x in zip(tabs, got, strict=True) if isinstance(x, float)]
        if not tabs:
            return res

    # The animateur starts the next game: every phone is poked to re-read its cartons.
    for t in tabs:
        t.marking = args.mark
    gc.collect()
    if anim.hall.get("can_start"):
        marks = [len(t.cartons_at) for t in tabs]
        c0 = srv.cpu()
        t_start = now()
        anim.emit(f"{b.fe.animateur}.start_game")
        got = await until(
            lambda: all(len(t.cartons_at) > m for t, m in zip(tabs, marks, strict=True)),
            args.step_timeout,
            0.01,
        )
        refreshed = [
            t.cartons_at[m] - t_start
            for t, m in zip(tabs, marks, strict=True)
            if len(t.cartons_at) > m
        ]
        idle = await srv.wait_idle(60)
        res["start_game_all_refreshed_s"] = round(max(refreshed), 2) if got else None
        res["start_game_refreshed"] = len(refreshed)
        res["start_game_cpu_server_s"] = round((idle[1] if idle else srv.cpu()) - c0, 2)
    elif not anim.hall.get("can_draw"):
        res["draw_error"] = f"the evening can neither start a game nor draw ({anim.hall})"
        return res

    # Draws with everyone connected (the phones mark what they find on their cartons).
    physical = bool(args.claim_storm)  # the bench types the balls: it chooses the numbers
    drawn: list[int] = [x for x in anim.hall.get("drawn") or () if x]

    seen_cpu: list[float] = []  # server CPU when every phone had the last number

    async def draw(number: int | None = None) -> tuple[int | None, float]:
        before = set(anim.seen)
        t = now()
        if physical:
            if number is None:
                number = random.choice([n for n in range(1, 91) if n not in drawn])
            anim.emit(f"{b.fe.animateur}.enter_ball", {"form_data": {"ball": number}})
        else:
            anim.emit(f"{b.fe.animateur}.draw")
        if not await anim.until(lambda: set(anim.seen) - before, args.draw_timeout):
            return None, t
        x = (set(anim.seen) - before).pop()
        drawn.append(x)
        await until(
            lambda: b.arrivals[x] > len(tabs) and all(x in tab.seen for tab in tabs),
            args.draw_timeout,
            0.002,
        )
        seen_cpu.append(srv.cpu())  # every phone has the number: the broadcast is done
        return x, t

    async def settle(limit: float = args.draw_timeout) -> tuple[float, float] | None:
        """Wait for the marks of the last draw to be answered, then for the server to idle."""
        await until(lambda: not any(t.mark_sent or t.marks_due for t in tabs), limit, 0.01)
        return await srv.wait_idle(30, window=0.5)

    every = args.draw_every  # 0: each draw once the last one's marks are in and the server idle

    x, _ = await draw()  # warm-up, not measured
    if x is None:
        res["draw_error"] = f"warm-up draw not seen by the animateur ({anim.errors[:2]})"
        return res
    await settle()
    gc.collect()
    gc.freeze()  # keep the emulator's own GC pauses out of the timings
    lat: list[float] = []
    per_draw_max: list[float] = []
    per_draw_first: list[float] = []  # the draw to the first phone: before the fan-out began
    cpu_draws = 0.0  # server CPU from each draw sent to the start of the idle window after it
    cpu_broadcast = 0.0  # ... of which up to every phone holding the number (marks come later)
    c_me, c_srv, sys0 = my_cpu(), srv.cpu(), psutil.cpu_times()
    if every:  # the hall's pace: the marks of a draw come in while the next ones are drawn
        # (the warm-up's batches in flight answered; its pions wait for their phone's slot)
        await until(lambda: not any(t.mark_batch for t in tabs), args.draw_timeout, 0.01)
        await srv.wait_idle(30, window=0.5)
    b.mark_lat.clear()
    batches0, touches0 = sum(t.batches for t in tabs), b.touches

    # What the server spends with every phone connected and nothing happening (engine.io's
    # pings, one per phone every 25 s, and their pongs; the reaper's pass every 30 s): counted
    # in each draw's CPU as long as the draw lasts, so also given apart
    # (`draw_cpu_above_idle_ms`), measured over a window before the draws and one after.
    async def idle_cpu() -> float:
        if not args.idle_window:
            return 0.0
        ci, ti = srv.cpu(), now()
        await asyncio.sleep(args.idle_window)
        return (srv.cpu() - ci) / (now() - ti)  # cores

    idle_before = await idle_cpu()
    c_start, t_start = srv.cpu(), now()
    window_s = 0.0  # the draws' measured time (each draw to its idle window; or the whole run)
    for _ in range(args.draws):
        c0 = srv.cpu()
        x, t = await draw()
        if x is None:
            res["draw_error"] = f"draw not seen by the animateur within {args.draw_timeout}s"
            break
        one = [tab.seen.get(x, math.inf) - t for tab in tabs]
        lat += one
        per_draw_max.append(ms(max(one)))
        per_draw_first.append(ms(min(one)))
        cpu_broadcast += seen_cpu[-1] - c0
        if every:
            await asyncio.sleep(max(0.0, t + every - now()))
            continue
        idle = await settle()
        cpu_draws += (idle[1] if idle else srv.cpu()) - c0
        window_s += (idle[0] if idle else now()) - t
    batches, touches = sum(t.batches for t in tabs) - batches0, b.touches - touches0
    if every:  # the hall's pace, as in an evening: the draws' time, each phone's batches in its
        # slots (one a spacing); the pions touched since a phone's last slot go at its next one
        cpu_draws, window_s = srv.cpu() - c_start, now() - t_start
        # ... then what is pending goes now (a phone put away), so that every pion is checked
        # stored; reported apart (`draw_cpu_with_flush_ms`): an evening has no such flush every
        # few draws (a finished game's pending pions are moot; the next slot takes the rest)
        for tab in tabs:
            tab.flush_now()
        idle = await settle(args.marks_spacing + 30)
        flushed = sum(t.batches for t in tabs) - batches0 - batches
        cpu_flush = (idle[1] if idle else srv.cpu()) - c_start - cpu_draws
    idle_after = await idle_cpu()
    idle_rate = (idle_before + idle_after) / 2
    res["idle_cpu_server_ms_per_s"] = round(idle_rate * 1000, 1)
    res["idle_cpu_before_after_ms_per_s"] = [
        round(idle_before * 1000, 1),
        round(idle_after * 1000, 1),
    ]
    gc.unfreeze()
    n_draws = len(per_draw_max)
    if n_draws:
        res.update(summary(lat))
        marks = sorted(b.mark_lat)
        marks_cpu = cpu_draws - idle_rate * window_s - cpu_broadcast
        res.update(
            missed=sum(1 for v in lat if not math.isfinite(v)),
            draws_done=n_draws,
            draw_max_per_draw_ms=per_draw_max,
            draw_first_per_draw_ms=per_draw_first,
            draw_cpu_server_ms=round(cpu_draws / n_draws * 1000, 1),
            draw_window_s=round(window_s / n_draws, 2),
            draw_cpu_above_idle_ms=round((cpu_draws - idle_rate * window_s) / n_draws * 1000, 1),
            draw_cpu_emulator_ms=round((my_cpu() - c_me) / n_draws * 1000, 1),
            draw_foreign_cores=round(
                foreign_cpu(sys0, psutil.cpu_times(), srv.cpu() - c_srv + my_cpu() - c_me), 2
            ),
            draw_broadcast_cpu_server_ms=round(cpu_broadcast / n_draws * 1000, 1),
            draw_every_s=every,
            marks_spacing_s=args.marks_spacing,
            first_batch=args.first_batch,
            batches_per_draw=round(batches / n_draws, 1),
            marks_per_draw=round(touches / n_draws, 1),
            # the server CPU after the broadcast (the marks, sent >= --mark-delay LO later),
            # above idle, per mark: what one more marking phone costs
            mark_cpu_server_ms=round(marks_cpu / touches * 1000, 3) if touches else None,
            # ... and per batch (one message and its ack, whatever it holds)
            batch_cpu_server_ms=round(marks_cpu / batches * 1000, 3) if batches else None,
            mark_p50_ms=ms(pct(marks, 0.5)),
            mark_p95_ms=ms(pct(marks, 0.95)),
            marks_unanswered=sum(len(t.mark_sent) for t in tabs),
        )
        if every:
            res.update(
                # with the final flush (one more batch per phone), as this bench counted before
                draw_cpu_with_flush_ms=round((cpu_draws + cpu_flush) / n_draws * 1000, 1),
                flush_batches=flushed,
            )
    if args.claim_storm and "draw_error" not in res:
        await claim_storm(b, anim, ok, drawn, draw, settle, res)
    rss2 = srv.rss()
    res["rss_after_draws_mb"] = round(rss2 / 2**20, 1)
    res["errors"] = sum(len(t.errors) for t in [anim, *tabs])
    res["error_sample"] = next((e for t in [anim, *tabs] for e in t.errors), "")
    res["new_tokens"] = sum(t.new_tokens for t in [anim, *tabs])
    for t in [anim, *b.vendeurs, *(p.tab for p in players)]:
        t.close()
    await asyncio.sleep(0.2)  # let the close frames go out
    return res


def report(res: dict[str, Any]) -> None:
    """Human-readable lines, then the machine-readable last line."""
    print(json.dumps(res, indent=1, default=str), flush=True)
    keys = [
        "players",
        "p50_ms",
        "p95_ms",
        "p99_ms",
        "max_ms",
        "missed",
        "join_s",
        "join_p95_ms",
        "joined",
        "rss_per_player_kb",
        "rss_after_join_mb",
        "draw_cpu_server_ms",
        "draw_cpu_above_idle_ms",
        "draw_cpu_with_flush_ms",
        "idle_cpu_server_ms_per_s",
        "draw_broadcast_cpu_server_ms",
        "marks_per_draw",
        "batches_per_draw",
        "mark_cpu_server_ms",
        "batch_cpu_server_ms",
        "join_cpu_per_player_ms",
        "join_events_per_player",
        "mark_p95_ms",
        "draw_foreign_cores",
        "join_foreign_cores",
        "sales_s",
        "sales_failed",
    ]
    if "claim_storm" in res or "claim_error" in res:
        keys += ["claim_storm", "claim_valid", "claim_false", "claim_other", "claim_wrong"]
        keys += ["claim_tie_ok", "claim_spread_s", "claim_settled_s"]
    print(" ".join(f"{k}={res.get(k, 'nan')}" for k in keys), flush=True)


def git_commit() -> str:
    """The checkout's commit, "+dirty" when files differ from it ("" without git)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return head + ("+dirty" if dirty else "")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--draws", type=int, default=20)
    ap.add_argument("--url", default="http://127.0.0.1:3000", help="server (without --start)")
    ap.add_argument("--start", action="store_true", help="serve a fresh app on a free port")
    ap.add_argument("--code", default="", help="join code of the evening (without --start)")
    ap.add_argument("--secret", default="", help="its animateur secret (without --start)")
    ap.add_argument("--cartons", type=int, choices=(1, 3, 6), default=3, help="pack bought")
    ap.add_argument(
        "--mark-delay",
        type=float,
        nargs=2,
        default=(0.3, 1.5),
        metavar=("LO", "HI"),
        help="a phone marks a drawn number LO..HI s after receiving it",
    )
    ap.add_argument("--no-mark", dest="mark", action="store_false", help="phones do not mark")
    ap.add_argument(
        "--marks-spacing",
        type=float,
        default=None,
        metavar="S",
        help="a phone sends its batches of marks in slots S s apart, the first at random within"
        " S s after its first touch (assets/loto.js; default with --draw-every: 180); 0: a batch"
        " a second after each touch (the default without --draw-every, whose next draw waits for"
        " every mark)",
    )
    ap.add_argument(
        "--first-batch",
        choices=("random", "aligned"),
        default="random",
        help="a page's first slot: at random within the spacing (assets/loto.js), or a second"
        " after the first touch, as before (every phone that began on the same number sends in"
        " the same second, every spacing)",
    )
    ap.add_argument(
        "--idle-window",
        type=float,
        default=None,
        metavar="S",
        help="before the draws and after, the server's CPU with every phone connected and idle,"
        " over S s (default with --draw-every: 50, two pings per phone; else 0, not measured)",
    )
    ap.add_argument(
        "--draw-every",
        type=float,
        default=0.0,
        metavar="S",
        help="draw a number every S s, as a hall does (the server CPU per draw is then the whole"
        " run's, marks stored at the end included); 0: each draw once the last one's marks are"
        " answered and the server is idle",
    )
    ap.add_argument(
        "--cartons-via",
        choices=("desk", "app"),
        default="desk",
        help="vendeurs sell at /caisse to each player's code, or the in-app buy (see get_cartons)",
    )
    ap.add_argument(
        "--vendeurs",
        type=int,
        default=1,
        help="vendeurs at the desk (--start). More than one: each sale pokes the other desks to"
        " refresh, and the app's rate limit (which does not exempt staff yet) drops events",
    )
    ap.add_argument("--sale-rate", type=float, default=8.0, help="sales/s of one vendeur, at most")
    ap.add_argument(
        "--vendeur-secret", action="append", default=[], help="without --start: a vendeur's secret"
    )
    ap.add_argument("--offer", type=int, default=-1, help="without --start: tariff line sold")
    ap.add_argument(
        "--claim-storm", type=int, default=0, metavar="K", help="K players claim on one number"
    )
    ap.add_argument("--claim-valid", type=int, default=3, help="how many of them are right")
    ap.add_argument("--claim-window", type=float, default=1.0, help="claims spread over S s")
    ap.add_argument(
        "--scale-out",
        action="store_true",
        help="with --start: PostgreSQL (a fresh database), Redis, --workers workers",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--idle-cpu", type=float, default=0.0, help="cores under which the server counts as idle"
    )
    ap.add_argument("--pg-url", default="postgresql://root@127.0.0.1:5432/test")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379")
    ap.add_argument(
        "--after-join",
        choices=("nav", "reload"),
        default="nav",
        help="after join: client-side navigation to /jouer (browser default) or a page reload",
    )
    ap.add_argument("--batch", type=int, default=50, help="simultaneous websocket handshakes")
    ap.add_argument("--ramp", type=float, default=0.0, help="spread the joins over S seconds")
    ap.add_argument("--join-timeout", type=float, default=300.0)
    ap.add_argument("--step-timeout", type=float, default=120.0, help="one step of one tab")
    ap.add_argument("--draw-timeout", type=float, default=30.0, help="all players see a draw")
    ap.add_argument("--start-timeout", type=float, default=600.0, help="build + server start")
    ap.add_argument("--time-limit", type=float, default=1800.0, help="the whole run")
    ap.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the emulator's event loop. With asyncio's own, the emulator spends more CPU taking"
        " a draw's messages in than the server spends sending them (py-spy, 2,000 phones): the"
        " latencies then measure the emulator's backlog, not the server",
    )
    ap.add_argument(
        "--web", type=Path, default=ROOT / ".web", help="the compiled frontend (without --start)"
    )
    ap.add_argument("--server-env", action="append", default=[], metavar="K=V", help="with --start")
    ap.add_argument("--keep-tmp", action="store_true", help="keep the --start temp dir")
    ap.add_argument("--json", type=Path, help="also write the results to this file")
    args = ap.parse_args(argv)
    if not 1 <= args.players <= 5000:
        ap.error("--players: 1..5000")
    if not 1 <= args.draws <= 85:
        ap.error("--draws: 1..85 (one game has 90 balls; one warm-up draw)")
    if args.claim_storm and not 1 <= args.claim_valid <= args.claim_storm <= args.players:
        ap.error("--claim-storm K: 1 <= --claim-valid <= K <= --players")
    if args.scale_out and not args.start:
        ap.error("--scale-out needs --start")
    if not args.start and not (args.code and args.secret):
        ap.error("without --start, give --code and --secret of an existing evening")
    if args.marks_spacing is None:  # (each draw waiting for its marks: a batch per touch)
        args.marks_spacing = SPACING_S if args.draw_every else 0.0
    if args.idle_window is None:
        args.idle_window = 50.0 if args.draw_every else 0.0
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * args.players + 256))
    if want > soft:  # the server started below inherits it too
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    started = Started(args) if args.start else None
    ok = False
    try:
        if started:
            started.start()
            url, code, secret = started.url, started.code, started.secret
        else:
            url, code, secret = args.url, args.code.upper(), args.secret
        parts = urllib.parse.urlsplit(url)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            raise BenchError("this benchmark only talks to 127.0.0.1")
        host, port = "127.0.0.1", parts.port or 80
        if not ping(f"http://{host}:{port}"):
            raise BenchError(f"{url}/ping does not answer")
        srv = Server(started.proc.pid) if started else Server.listening_on(port)
        # Several workers with Redis keep ~0.1 core each busy with nothing to do (1,000 sockets).
        srv.idle_cpu = args.idle_cpu or (0.3 if args.scale_out else IDLE_CPU)
        fe = Frontend.read(started.web if started else args.web)
        b = Bench(args, fe, host, port, code, secret)
        if started:
            b.vendeur_secrets, b.offer = started.vendeur_secrets, started.offer
        else:
            b.vendeur_secrets, b.offer = args.vendeur_secret, args.offer
        if args.cartons_via == "desk" and not (fe.caisse and b.vendeur_secrets and b.offer >= 0):
            raise BenchError("desk sales need /caisse, vendeur secrets and the tariff line")
        print(
            f"bench: {args.players} players, {args.draws} draws, evening {code} at {url}"
            f" (server pid {srv.root.pid}, {psutil.cpu_count()} cpus,"
            f" load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
        with asyncio.Runner(loop_factory=loop_factory(args.loop)) as runner:
            res = runner.run(asyncio.wait_for(bench_main(b, srv), args.time_limit))
        res["loop"] = args.loop
        res["date"] = time.strftime("%Y-%m-%d %H:%M")
        res["commit"] = git_commit()
        res["cpus"] = psutil.cpu_count()
        if args.json:
            args.json.write_text(json.dumps(res, indent=1, default=str))
        report(res)
        ok = res.get("joined") == args.players and res.get("missed") == 0
        ok = ok and not res.get("sales_failed")
        if args.claim_storm:
            ok = ok and res.get("claim_wrong") == 0 and res.get("claim_tie_ok") is True
        return 0 if ok else 1
    except BenchError as exc:
        print(f"load.py: {exc}", file=sys.stderr)
        return 2
    except TimeoutError:
        print(f"load.py: stopped by --time-limit ({args.time_limit:.0f}s)", file=sys.stderr)
        return 2
    except subprocess.SubprocessError as exc:
        print(f"load.py: {exc}", file=sys.stderr)
        return 2
    finally:
        if started:
            if not ok:
                print(started.tail(15), file=sys.stderr)
            started.stop(keep=args.keep_tmp or not ok)


if __name__ == "__main__":
    sys.exit(main())
