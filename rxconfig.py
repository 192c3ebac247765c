"""Reflex configuration for Loto.

Everything that could call home is off: telemetry here, the version check and the npm
registry probe through the environment (see the Makefile). Ports stay Reflex's defaults:
``reflex run --env prod`` serves frontend and backend on one port, 3000.
"""

import gc
import os

import reflex as rx

# The garbage collector's full passes walk every object of the process: with a thousand
# connected phones, hundreds of milliseconds during which no draw goes out, and under the default
# thresholds they came every few seconds during draws, collecting next to nothing (Reflex's
# per-client objects are long-lived, freed by reference counting). Larger thresholds make them
# rare (a few per evening); young collections stay cheap. Set here because this file is loaded
# by every server process before the app. (Figures: bench/README.md, "Figures behind the
# settings".)
gc.set_threshold(50_000, 20, 100)

# The socket refuses frames over 128 KB (Reflex's default is 1 MB): no real event comes near it,
# the largest, a long program in the organiser's form, is ~6 KB (loto_app/live/gate/frame_guard.py
# refuses events over 32 KB with one short log line).
os.environ.setdefault("REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE", "131072")

# engine.io's ping, every 60 s rather than Reflex's 25: with nothing drawn, the pings were most
# of what a thousand connected phones cost the server (bench/load.py `idle_cpu_server_ms_per_s`;
# figures: bench/README.md). A dead link was already noticed only after the
# interval plus Reflex's 120 s timeout (145 s, now 180 s): a phone that goes offline says so at
# once (the browser closes its socket), and a hall's NAT keeps a connection far longer than a
# minute without traffic. Set REFLEX_SOCKET_INTERVAL to change it.
os.environ.setdefault("REFLEX_SOCKET_INTERVAL", "60")


# Which server `reflex run --env prod` runs: the lean server, gunicorn running uvicorn
# (loto_app/lean_server.py, the default), or Granian with LOTO_SERVER=granian. The lean one
# keeps under half of Granian's memory per connected phone, and writes a draw's frame straight
# on each phone's connection: a fan-out a fraction of Granian's CPU (figures: bench/README.md
# and README "Capacité"). Reflex picks gunicorn by itself whenever it is
# installed, so the choice is always made here, and LOTO_SERVER wins over a REFLEX_USE_GRANIAN
# inherited from a parent process (one that loaded this file, say).
_server = os.environ.get("LOTO_SERVER", "uvicorn").strip().lower() or "uvicorn"
if _server not in ("granian", "uvicorn"):
    raise SystemExit(f"LOTO_SERVER={_server!r}: say uvicorn (the default) or granian")


# Redis (REFLEX_REDIS_URL, the operator's setting) is the app's, not Reflex's: handed on as
# LOTO_REDIS_URL (loto_app/shared_redis.py: the rooms, the phones' count, the sign-in limits,
# the screens' pairing) and hidden from Reflex, which would otherwise keep its token registry
# there (every connect and disconnect a few Redis commands and keyspace notifications that every
# worker decodes) to route updates between workers: none are, a page's state living with its
# socket (see `state_manager_mode` below). Done in every process that loads this file, before
# Reflex reads its settings; the processes it starts inherit the result.
if _operator_redis := os.environ.pop("REFLEX_REDIS_URL", ""):
    os.environ["LOTO_REDIS_URL"] = _operator_redis


def _workers() -> int:
    """Worker processes: one without Redis; with REFLEX_REDIS_URL (LOTO_REDIS_URL by now),
    GRANIAN_WORKERS (the name Reflex reads for Granian, and deploy/loto.service sets), else
    Reflex's own default for several workers (2 per core and one, at most 8)."""
    if not os.environ.get("LOTO_REDIS_URL"):
        return 1
    raw = os.environ.get("GRANIAN_WORKERS", "").strip()
    if not raw:
        return min((os.cpu_count() or 1) * 2 + 1, 8)
    if not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"GRANIAN_WORKERS={raw!r}: say a number of worker processes, 1 or more")
    return int(raw)


if _server == "uvicorn":
    os.environ["REFLEX_USE_GRANIAN"] = "false"
    # Reflex's gunicorn command passes no --workers (gunicorn's default is one): this line is
    # appended to it, and wins. The app is loaded once and forked (Reflex's --preload); each
    # worker opens its own Redis and database connections on first use, and accepts on the
    # listening socket gunicorn shares among all of them. gunicorn restarts a worker whose event
    # loop has not ticked for --timeout s (30 by default): one flooded by a join storm on a busy
    # machine was killed with its hundreds of phones (bench/README.md); 300 s still catches a
    # hung one (Granian never restarts a worker but a dead one).
    os.environ["GUNICORN_CMD_ARGS"] = (
        f"--worker-class loto_app.lean_server.LeanWorker --workers {_workers()} --timeout 300"
    )
else:
    os.environ["REFLEX_USE_GRANIAN"] = "true"


def _db_url() -> str:
    """LOTO_DB_URL, or the SQLite file; plain postgresql:// URLs get the psycopg 3 driver.

    Same rule as `loto_app.storage.db.database_url`, kept here so this file imports no app code.
    """
    url = os.environ.get("LOTO_DB_URL") or "sqlite:///loto.db"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


# Per-client states in memory, in every process: one process (the embedded default) and each of
# several workers alike. The database is the source of truth and a page re-identifies itself
# from its local storage whenever it (re)connects (Reflex re-hydrates every reconnect: see
# loto_app/live/gate/rehydrate.py), so nothing is lost when a phone's socket lands on another
# worker or a worker restarts: the state is rebuilt there, as after a restart of one process.
# Reflex's disk manager wrote every state to disk after every event, and its Redis manager
# (which it picked by itself when it saw REFLEX_REDIS_URL) loaded, locked and saved the state in
# Redis around every event: both cost a large share of the server's CPU in a join storm
# (figures: bench/README.md). Redis carries what the workers share (above).
config = rx.Config(
    app_name="loto_app",
    # SQLite file by default; e.g. postgresql://root@127.0.0.1:5432/test for a server.
    db_url=_db_url(),
    telemetry_enabled=False,
    # Brotli sidecars next to gzip ones: a cold /jouer over slow 4G is a fifth lighter
    # (bench/phone.py; figures: bench/README.md). Browsers ask for br only over HTTPS or
    # localhost; plain HTTP on a hall's LAN keeps getting gzip.
    frontend_compression_formats=["brotli", "gzip"],
    # No "Built with Reflex" badge (it links to reflex.dev).
    show_built_with_reflex=False,
    # Radix Themes, configured explicitly (0.10 deprecates enabling it implicitly or via
    # rx.App(theme=...)): light, red accent, everything a notch larger for the hall. The colour
    # scales are overridden in the page head (loto_app/components/palette.py: 4.5:1 everywhere).
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(
                appearance="light", accent_color="red", gray_color="gray", scaling="110%"
            ),
        ),
    ],
    # A hall app has nothing to index: no sitemap.xml, and no warning about the default plugin.
    disable_plugins=[rx.plugins.SitemapPlugin],
    state_manager_mode="memory",  # every process, with Redis or not: see above
)
