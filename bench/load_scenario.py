"""The load benchmark's scenario (`load.py` runs it): the animateur signs in, N phones join
(the join storm), get their cartons (in the app, or sold at the desk by vendeurs), the first
game starts, D draws reach every phone while they mark, then the claim storm if asked
(`claim_storm.py`); returns the measurements."""

from __future__ import annotations

import asyncio
import gc
import math
import random
import statistics
from typing import Any

import psutil
from claim_storm import claim_storm
from emulator import Bench, BenchError, PlayerRun, Tab, animateur_tab, now, until
from metering import Server, foreign_cpu, ms, pct, summary


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
    anim = await animateur_tab(b)
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
