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

This file is the command line and the report. The rest, one concept a module: the server's
lifecycle (`serving.FreshApp`), the bench's evening (`load_evening.py`), what is measured of the
server and the machine (`metering.py`), the scenario (`load_scenario.py`), the claim storm
(`claim_storm.py`); the emulated phones are `emulator.py`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
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
    now,
)
from load_evening import BenchEvening, create_evening
from load_scenario import bench_main
from metering import IDLE_CPU, Server, git_commit
from serving import ROOT, ping

SECRET = "bench-animateur-" + secrets.token_hex(8)


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The emulator's event loop: uvloop (a dependency of the app) or asyncio's own."""
    if name == "asyncio":
        return None
    import uvloop

    return uvloop.new_event_loop


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
    ap.add_argument(
        "--built",
        nargs=2,
        metavar=("WEB", "PORT"),
        help="with --start: serve the frontend already built in WEB for PORT as it is"
        " (bench/serve_built.py, on PORT) instead of building one (~30 s of CPU)",
    )
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
    if args.built and not args.start:
        ap.error("--built needs --start")
    if not args.start and not (args.code and args.secret):
        ap.error("without --start, give --code and --secret of an existing evening")
    if args.marks_spacing is None:  # (each draw waiting for its marks: a batch per touch)
        args.marks_spacing = SPACING_S if args.draw_every else 0.0
    if args.idle_window is None:
        args.idle_window = 50.0 if args.draw_every else 0.0
    return args


def fresh_app(args: argparse.Namespace) -> serving.FreshApp:
    """`--start`: a fresh app (`--scale-out`: on PostgreSQL, with Redis and --workers)."""
    return serving.FreshApp(
        "loto-load-bench-",
        pg_url=args.pg_url if args.scale_out else "",
        redis_url=args.redis_url,
        workers=args.workers,
        server_env=args.server_env,
        start_timeout=args.start_timeout,
        error=BenchError,
        built=serving.Build(Path(args.built[0]), int(args.built[1])) if args.built else None,
    )


def start(app: serving.FreshApp, args: argparse.Namespace) -> BenchEvening:
    """Migrate, create the bench's evening (`load_evening.py`), serve; returns once /ping
    answers."""
    t0 = now()
    app.migrate()
    evening = create_evening(
        app.env["LOTO_DB_URL"],
        SECRET,
        draw_source="physical" if args.claim_storm else "electronic",
        cartons=args.cartons,
        vendeurs=args.vendeurs,
        cartons_via=args.cartons_via,
    )
    app.serve()
    print(f"server: {app.url} up in {now() - t0:.1f}s (log {app.log})", flush=True)
    return evening


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * args.players + 256))
    if want > soft:  # the server started below inherits it too
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    started = fresh_app(args) if args.start else None
    evening: BenchEvening | None = None
    ok = False
    try:
        if started:
            evening = start(started, args)
            url, code, secret = started.url, evening.code, SECRET
        else:
            url, code, secret = args.url, args.code.upper(), args.secret
        parts = urllib.parse.urlsplit(url)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            raise BenchError("this benchmark only talks to 127.0.0.1")
        host, port = "127.0.0.1", parts.port or 80
        if not ping(f"http://{host}:{port}"):
            raise BenchError(f"{url}/ping does not answer")
        srv = Server(started.proc.pid) if started else Server.listening_on(port)
        # (several workers with Redis are never quite idle: bench/README.md, "Figures behind")
        srv.idle_cpu = args.idle_cpu or (0.3 if args.scale_out else IDLE_CPU)
        fe = Frontend.read(started.web if started else args.web)
        b = Bench(args, fe, host, port, code, secret)
        if evening:
            b.vendeur_secrets, b.offer = list(evening.vendeur_secrets), evening.offer
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
