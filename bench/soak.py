"""Soak: a long evening compressed, phones leaving and coming back all along, server memory
sampled, to see whether it reaches a plateau.

    .venv/bin/python bench/soak.py --players 400 --games 6                   # the app as shipped
    .venv/bin/python bench/soak.py --players 400 --games 6 --idle-minutes 0  # reaper off

It serves a fresh production app (as `bench/load.py --start` does: a temp dir with its own
SQLite file and frontend directory, `reflex run --env prod` on a free port of 127.0.0.1),
with an evening of `--games` classique games (quine, double quine, carton plein; ties settled
by tokens; a free loto, so each phone takes 3 cartons in the app). The phones are
`bench/load.py`'s emulated tabs (the app's real websocket protocol). Then:

- the animateur (a tab that never leaves) starts each game and draws a number every
  `--draw-every` seconds; after each draw the bench finds the connected phones whose carton
  completes the stage's pattern on that number, and one or two of them claim (the app never
  claims for anyone); the animateur breaks a tie by tokens, awards, and after the last stage
  allows the démarquage; then the next game;
- every phone, all along, leaves and comes back after a random time (exponential, mean
  `--reconnect-every` seconds): half of the time as a closed tab reopened (a *new* client
  token: the old one's state is left behind on the server), half as a phone that slept: its
  socket stops answering without being closed (the server notices only at its ping timeout)
  and the phone wakes up on the same token, which the server may refuse and replace
  (`new_token`, upstream issue 6252). It is away `--away LO HI` seconds. A return is *served*
  when the page is back on /jouer with its cartons (identity from local storage);
- the server's RSS (its whole process tree) is sampled every `--sample-every` seconds.

After the last game the phones stop leaving, and the bench waits `--tail` seconds (the
reaper's idle time and a sweep) before the last sample. Printed: RSS at the start (every phone
in, first game started), after each game, at the end, its maximum; returns served / failed;
new tokens; draws; the CPU other processes used meanwhile; the load average. The last line is
machine-readable:

    players=N games=.. reconnects=.. served=.. failed=.. rss_start_mb=.. ... errors=..

`--json FILE` also writes every sample. Only 127.0.0.1 is contacted. The exit status is 1 when
a return failed or the phones met any error (`errors`, its kinds in `error_kinds`).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import serving
from emulator import SPACING_S, Bench, BenchError, Frontend, PlayerRun, Tab, animateur_tab, now
from load_scenario import run_player
from metering import Server, foreign_cpu, git_commit

SECRET = "soak-animateur-" + uuid.uuid4().hex[:8]


# ---------------------------------------------------------------------- the server


class Served:
    """A fresh production app (`serving.FreshApp`) with the soak's evening, stopped on exit."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        idle = args.idle_minutes
        self.app = serving.FreshApp(
            "loto-soak-",
            server_env=[f"LOTO_STATE_IDLE_MINUTES={idle}"] if idle is not None else [],
            start_timeout=args.start_timeout,
            error=BenchError,
        )
        self.url, self.port, self.log, self.web = (
            self.app.url,
            self.app.port,
            self.app.log,
            self.app.web,
        )
        self.db = self.app.env["LOTO_DB_URL"]
        self.code = ""

    @property
    def proc(self) -> subprocess.Popen | None:
        return self.app.proc

    def start(self) -> None:
        self.app.migrate()
        from loto_app.domain.program import (
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

        stages = (
            Stage(Pattern.ONE_LINE, Lot("Panier garni", 3000)),
            Stage(Pattern.TWO_LINES, Lot("Bon d'achat", 5000)),
            Stage(Pattern.FULL_CARD, Lot("Téléviseur", 30000)),
        )
        program = Program(
            "S",
            tuple(GameSpec(Kind.CLASSIQUE, stages) for _ in range(self.args.games)),
            Settings(tie_method=TieMethod.DRAW, free_cartons=True),
        )
        engine = make_engine(self.db)
        creds = EveningStore(engine).create_evening(
            "Soirée d'endurance", program, animateur_secret=SECRET
        )
        engine.dispose()
        self.code = creds.join_code
        self.app.serve()

    def stop(self, keep: bool) -> None:
        self.app.stop(keep)


# ---------------------------------------------------------------------- the phones


@dataclass
class Stats:
    """Returns of the phones."""

    attempted: int = 0
    served: int = 0
    failed: int = 0
    new_tab: int = 0
    slept: int = 0
    fail_sample: list[str] = field(default_factory=list)


def ready(tab: Tab) -> bool:
    return tab.player.get("ready") is True and len(tab.player.get("cartons") or ()) >= 3


async def come_back(b: Bench, tab: Tab, st: Stats, rng: random.Random) -> None:
    """One phone leaving and coming back (see the module docstring)."""
    args = b.args
    st.attempted += 1
    tab.marking = False
    if rng.random() < 0.5:  # the tab is closed; a new one opens later: a new client token
        st.new_tab += 1
        tab.close()
        await asyncio.sleep(rng.uniform(*args.away))
        tab.token = str(uuid.uuid4())
        first = True
    else:  # the phone sleeps: its socket stops answering but stays open
        st.slept += 1
        zombie, tab._ws = tab._ws, None
        if zombie is not None:
            zombie.on_text = lambda _t: None
            zombie.on_close = lambda _w: None
            asyncio.get_running_loop().call_later(args.zombie_linger, zombie.close)
        await asyncio.sleep(rng.uniform(*args.away))
        first = False
    tab.player.pop("ready", None)
    tab.player["cartons"] = []
    try:
        await tab.open("/jouer", first=first)
        ok = await tab.until(lambda: ready(tab), args.step_timeout)
    except Exception as exc:  # a refused connection counts as a failed return
        ok = False
        tab.errors.append(f"{type(exc).__name__}: {exc}")
    if ok:
        st.served += 1
        tab.marking = args.mark
    else:
        st.failed += 1
        if len(st.fail_sample) < 5:
            st.fail_sample.append(f"{tab.label}: {tab.player.get('message')!r} {tab.errors[-2:]}")


async def wander(b: Bench, tab: Tab, st: Stats, stop: asyncio.Event, seed: int) -> None:
    """A phone's evening: leave and come back until `stop`."""
    rng = random.Random(seed)
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), rng.expovariate(1 / b.args.reconnect_every))
        if stop.is_set():
            return
        await come_back(b, tab, st, rng)


# ---------------------------------------------------------------------- the games


def winners(tabs: list[Tab], pattern: str, drawn: list[int]) -> list[tuple[Tab, int]]:
    """(phone, carton) pairs whose carton completes `pattern` on the last number drawn."""
    if not drawn:
        return []
    seen, last = set(drawn), drawn[-1]
    before = seen - {last}
    out = []
    for tab in tabs:
        if not ready(tab):
            continue
        for c in tab.player.get("cartons") or ():
            if not c.get("plays") or c.get("annulled"):
                continue
            lines = tab.lines(c["no"])
            full = [line for line in lines if line <= seen]
            was = [line for line in lines if line <= before]
            if pattern == "one_line":
                ok = any(last in line for line in full) and not was
            elif pattern == "two_lines":
                ok = len(full) >= 2 and any(last in line for line in full) and len(was) < 2
            else:  # full_card
                ok = len(full) == len(lines) and len(was) < len(lines)
            if ok:
                out.append((tab, c["no"]))
                break
    return out


async def play_games(b: Bench, anim: Tab, tabs: list[Tab], res: dict[str, Any], on_game) -> None:
    args, fe = b.args, b.fe
    tmo = args.step_timeout
    draws = 0
    rng = random.Random(args.seed)
    for game in range(args.games):
        if not await anim.until(lambda: anim.hall.get("can_start"), tmo):
            raise BenchError(f"game {game + 1}: cannot start ({anim.hall.get('announcement')})")
        anim.emit(f"{fe.animateur}.start_game")
        if not await anim.until(lambda g=game: anim.hall.get("game_no") == g + 1, tmo):
            raise BenchError(f"game {game + 1} did not start")
        while True:
            h = anim.hall
            if h.get("awaiting_unmark"):
                anim.emit(f"{fe.animateur}.allow_unmark")
                await anim.until(
                    lambda: anim.hall.get("can_start") or anim.hall.get("status") == "over", tmo
                )
                break
            if h.get("entries"):
                if h.get("tie"):
                    anim.emit(f"{fe.animateur}.tie_draw")
                    await anim.until(lambda: not anim.hall.get("tie"), tmo)
                stage = anim.hall.get("stage_label")
                anim.emit(f"{fe.animateur}.award")
                await anim.until(
                    lambda s=stage: (
                        anim.hall.get("stage_label") != s or anim.hall.get("awaiting_unmark")
                    ),
                    tmo,
                )
                continue
            await asyncio.sleep(args.draw_every)
            count = h.get("count") or 0
            anim.emit(f"{fe.animateur}.draw")
            if not await anim.until(lambda c=count: (anim.hall.get("count") or 0) > c, tmo):
                raise BenchError(f"game {game + 1}: draw {count + 1} not seen")
            draws += 1
            found = winners(tabs, anim.hall.get("pattern") or "", list(anim.hall["drawn"]))
            for tab, no in rng.sample(found, min(len(found), rng.choice((1, 1, 2)))):
                tab.emit(f"{fe.player}.claim", {"carton_no": no})
            if found:  # the verdicts reach the hall (or the claims came too late)
                await anim.until(lambda: anim.hall.get("entries"), 5)
        res["draws"] = draws
        on_game(game + 1)


# ---------------------------------------------------------------------- the soak


async def soak(b: Bench, srv: Server, served: Served) -> dict[str, Any]:
    args = b.args
    res: dict[str, Any] = {"players": args.players, "games": args.games}
    samples: list[dict[str, Any]] = []
    t0 = now()
    st = Stats()

    def sample(label: str = "") -> dict[str, Any]:
        s = {
            "t_s": round(now() - t0, 1),
            "rss_mb": round(srv.rss() / 2**20, 1),
            "reconnects": st.attempted,
            "served": st.served,
            "load1": round(os.getloadavg()[0], 2),
        }
        if label:
            s["at"] = label
        samples.append(s)
        return s

    anim = await animateur_tab(b)
    await srv.wait_idle(30)
    res["rss_empty_mb"] = sample("empty")["rss_mb"]

    # the hall fills (as in bench/load.py: join, /jouer, 3 cartons)
    players = [PlayerRun(Tab(b, f"{i + 1:04d}")) for i in range(args.players)]
    gate = asyncio.Semaphore(50)
    await asyncio.gather(
        *(run_player(b, p, gate, args.ramp * i / args.players) for i, p in enumerate(players))
    )
    failed = [p for p in players if p.failed]
    if failed:
        raise BenchError(f"{len(failed)} phones did not join: {failed[0].failed}")
    tabs = [p.tab for p in players]
    for t in tabs:
        t.marking = args.mark
    await srv.wait_idle(120)
    res["rss_joined_mb"] = sample("joined")["rss_mb"]

    stop = asyncio.Event()
    sampler_stop = asyncio.Event()

    async def sampler() -> None:
        while not sampler_stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(sampler_stop.wait(), args.sample_every)
            sample()

    cpu0, me0, sys0 = srv.cpu(), psutil.Process().cpu_times(), psutil.cpu_times()
    loads = [os.getloadavg()[0]]
    sampling = asyncio.create_task(sampler())
    wanderers = [
        asyncio.create_task(wander(b, t, st, stop, args.seed * 100_000 + i))
        for i, t in enumerate(tabs)
    ]
    per_game: list[dict[str, Any]] = []

    def on_game(g: int) -> None:
        s = sample(f"game {g} over")
        loads.append(os.getloadavg()[0])
        per_game.append({"game": g, **s})
        print(f"game {g}/{args.games} over: {s}", flush=True)

    try:
        await play_games(b, anim, tabs, res, on_game)
    finally:
        stop.set()
        await asyncio.gather(*wanderers, return_exceptions=True)
    res["games_played_s"] = round(now() - t0, 1)
    res["rss_games_over_mb"] = sample("games over")["rss_mb"]
    # the last returns settle, then the reaper's idle time and one sweep
    await asyncio.sleep(args.tail)
    gc_me = psutil.Process().cpu_times()
    sampler_stop.set()
    await sampling
    end = sample("end")
    own = srv.cpu() - cpu0 + (gc_me.user + gc_me.system - me0.user - me0.system)
    res.update(
        reconnects=st.attempted,
        served=st.served,
        failed=st.failed,
        fail_sample=st.fail_sample,
        new_tab_returns=st.new_tab,
        slept_returns=st.slept,
        new_tokens=sum(t.new_tokens for t in tabs),
        reloads_asked=sum(t.reloads for t in tabs),
        rss_start_mb=res["rss_joined_mb"],
        rss_end_mb=end["rss_mb"],
        rss_max_mb=max(s["rss_mb"] for s in samples),
        per_game=per_game,
        foreign_cores=round(foreign_cpu(sys0, psutil.cpu_times(), own), 2),
        load_avg_min_max=(round(min(loads), 2), round(max(loads), 2)),
        marks_touched=b.touches,  # (0 with marking on: the phones did not mark)
        mark_batches=sum(t.batches for t in tabs),
        errors=sum(len(t.errors) for t in [anim, *tabs]),
        error_kinds=dict(
            collections.Counter(e[:40] for t in [anim, *tabs] for e in t.errors).most_common(5)
        ),
        samples=samples,
    )
    for t in [anim, *tabs]:
        t.close()
    await asyncio.sleep(0.2)
    return res


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=400)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--draw-every", type=float, default=3.0, help="seconds between two draws")
    ap.add_argument("--reconnect-every", type=float, default=150.0, help="mean, seconds")
    ap.add_argument("--away", type=float, nargs=2, default=(2.0, 20.0), metavar=("LO", "HI"))
    ap.add_argument(
        "--zombie-linger", type=float, default=180.0, help="a slept socket is closed after S s"
    )
    ap.add_argument(
        "--idle-minutes",
        type=float,
        default=None,
        help="LOTO_STATE_IDLE_MINUTES for the server (default: the app's; 0: reaper off)",
    )
    ap.add_argument("--tail", type=float, default=420.0, help="seconds waited after the games")
    ap.add_argument("--sample-every", type=float, default=10.0)
    ap.add_argument("--no-mark", dest="mark", action="store_false")
    ap.add_argument("--mark-delay", type=float, nargs=2, default=(0.3, 1.5))
    ap.add_argument(
        "--marks-spacing",
        type=float,
        default=SPACING_S,
        metavar="S",
        help="a phone sends its batches of marks in slots S s apart, the first at random within"
        " S s after its first touch (assets/loto.js); 0: a batch a second after each touch",
    )
    ap.add_argument("--ramp", type=float, default=20.0, help="the hall fills over S seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--step-timeout", type=float, default=120.0)
    ap.add_argument("--start-timeout", type=float, default=600.0)
    ap.add_argument("--time-limit", type=float, default=4 * 3600.0)
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    # what bench/load.py's phones read from the shared settings (the emulator's Tab reads
    # marks_spacing and first_batch for its batches of marks: without them every mark raised)
    args.after_join, args.cartons_via, args.cartons = "nav", "app", 3
    args.first_batch = "random"
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 6 * args.players + 256))
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    served = Served(args)
    ok = False
    try:
        t0 = time.monotonic()
        served.start()
        print(f"server: {served.url} up in {time.monotonic() - t0:.0f}s (log {served.log})")
        srv = Server(served.proc.pid)
        fe = Frontend.read(served.web)
        b = Bench(args, fe, "127.0.0.1", served.port, served.code, SECRET)
        print(
            f"soak: {args.players} phones, {args.games} games, a return every"
            f" {args.reconnect_every:.0f} s per phone on average; load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        res = asyncio.run(asyncio.wait_for(soak(b, srv, served), args.time_limit))
        res.update(
            date=time.strftime("%Y-%m-%d %H:%M"),
            commit=git_commit(),
            idle_minutes=args.idle_minutes,
            cpus=psutil.cpu_count(),
        )
        if args.json:
            args.json.write_text(json.dumps(res, indent=1, default=str))
        show = {k: v for k, v in res.items() if k != "samples"}
        print(json.dumps(show, indent=1, default=str), flush=True)
        keys = [
            "players",
            "games",
            "draws",
            "reconnects",
            "served",
            "failed",
            "new_tokens",
            "rss_joined_mb",
            "rss_start_mb",
            "rss_games_over_mb",
            "rss_end_mb",
            "rss_max_mb",
            "games_played_s",
            "foreign_cores",
            "marks_touched",
            "errors",
        ]
        print(" ".join(f"{k}={res.get(k)}" for k in keys), flush=True)
        ok = res["failed"] == 0 and res["served"] == res["reconnects"] and res["errors"] == 0
        if res["errors"]:
            print(
                f"soak.py: the phones met {res['errors']} errors: {res['error_kinds']}",
                file=sys.stderr,
            )
        return 0 if ok else 1
    except BenchError as exc:
        print(f"soak.py: {exc}", file=sys.stderr)
        return 2
    except TimeoutError:
        print(f"soak.py: stopped by --time-limit ({args.time_limit:.0f}s)", file=sys.stderr)
        return 2
    finally:
        if not ok:
            print(serving.tail(served.log, 20), file=sys.stderr)
        served.stop(keep=args.keep_tmp or not ok)


if __name__ == "__main__":
    sys.exit(main())
