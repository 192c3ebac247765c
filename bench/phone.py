"""The player page on a mid-range phone over slow 4G: time until the cartons can be touched, and
the bytes it costs, cold (empty cache) and warm.

Run from the repository root with the project's virtualenv:

    .venv/bin/python bench/phone.py --start
    .venv/bin/python bench/phone.py --url http://127.0.0.1:3000 --code DEMO42

`--start` serves the app itself, as `bench/load.py --start` does: a temp dir with a fresh SQLite
file (migrated with `python -m loto_app.storage.cli migrate`), an evening of the demo program with
a known animateur secret, Reflex's disk states and its own frontend directory
(`REFLEX_WEB_WORKDIR`, so the checkout's `.web/` is left alone), then
`scripts/with-env.sh reflex run --env prod` on a free port of 127.0.0.1, stopped (its whole
process group) at the end. With `--url`, the server must serve the evening of `--code`.

The phone: Debian's Chromium driven by Playwright with the "Pixel 7" profile (412x915 viewport,
DPR 2.625, touch, Android user agent) and, through the Chrome DevTools Protocol,
`Emulation.setCPUThrottlingRate` (4: a mid-range phone) and `Network.emulateNetworkConditions`
(150 ms latency, 1.6 Mbit/s down, 750 kbit/s up: Lighthouse's "slow 4G").

A player joins once without throttling (the join page, a pseudonym, a pack of 3 cartons; with
`--secret`, or with `--start`, the animateur also starts the first game and draws a few numbers),
and the browser storage holding the player's secret is kept. Then, `--runs` times:

* cold: a new browser context (empty HTTP cache) with that storage opens `/jouer`;
* warm: a second tab of the same context opens `/jouer` again (HTTP cache filled).

Measured in the page from the navigation's start (`performance.now()`): first contentful paint,
DOMContentLoaded, load, and "usable": a carton cell is visible and the last number is shown,
which needs the websocket hydrated and the server's `resume` answered (the cells come from it).
Bytes: every `Network.loadingFinished` encodedDataLength (what crossed the network, headers
included) split by type (JS, CSS, HTML, fonts, images, other), plus the websocket frames' payload.
"cached" counts the requests answered by the HTTP cache without asking, "304" those revalidated
(a round trip each). The runs and their medians are printed, then the heaviest resources of a
cold load and, with `--start` (or `--web`), the biggest JS chunks of the build. The last line is
machine-readable.

Caveat: Chromium's network emulation delays HTTP, not websocket frames (measured: 150 -> 600 ms
latency leaves the load -> usable gap at ~0.8 s), so on a real 4G link "usable" comes a few round
trips later (socket.io connect, hydrate, `resume`): about +0.5 s at 150 ms.

Only 127.0.0.1 is contacted; every wait has a timeout.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import serving
from serving import ROOT, VENV, free_port

CHROMIUM = os.environ.get("LOTO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SECRET = "phone-bench-secret"
KINDS = ("js", "css", "html", "fonts", "images", "other")

# Installed before the app's scripts: the moment the cartons can be used.
USABLE_JS = """
(() => {
  window.__usableAt = null;
  const check = () => {
    if (window.__usableAt !== null) return;
    const cell = document.querySelector('[data-testid^="cell-"]');
    const last = document.querySelector('[data-testid="last-number"]');
    if (!cell || !last) return;
    const r = cell.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.top < window.innerHeight) {
      window.__usableAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true});
})();
"""

TIMINGS_JS = """
() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    usable: window.__usableAt,
    fcp: fcp ? fcp.startTime : null,
    dcl: nav ? nav.domContentLoadedEventEnd : null,
    load: nav ? nav.loadEventEnd : null,
  };
}
"""


class BenchError(RuntimeError):
    """The benchmark cannot go on."""


class Started:
    """`--start`: a fresh database and a production server of the app, stopped on exit."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.tmp = Path(tempfile.mkdtemp(prefix="loto-phone-bench-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = self.tmp / "server.log"
        self.web = self.tmp / "web"
        self.env = dict(os.environ)
        self.env["LOTO_DB_URL"] = f"sqlite:///{self.tmp / 'loto.db'}"
        self.env["REFLEX_STATES_WORKDIR"] = str(self.tmp / "states")
        self.env["REFLEX_WEB_WORKDIR"] = str(self.web)  # not the checkout's .web/
        self.env["VENV"] = str(VENV)
        self.env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        self.code = ""

    def start(self) -> None:
        """Migrate, create the evening, serve; returns once /ping answers."""
        t0 = time.monotonic()
        python = str(VENV / "bin" / "python")
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
            "from loto_app.domain.program import demo_program\n"
            "from loto_app.storage.db import make_engine\n"
            "from loto_app.storage.repository import EveningStore\n"
            "c = EveningStore(make_engine(sys.argv[1])).create_evening(\n"
            "    'Banc téléphone', demo_program('P').with_settings(free_cartons=True),\n"
            "    animateur_secret=sys.argv[2])\n"
            "print(c.join_code)\n"
        )
        out = subprocess.run(
            [python, "-c", make, self.env["LOTO_DB_URL"], SECRET],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=60,
            capture_output=True,
            text=True,
        )
        self.code = out.stdout.strip().splitlines()[-1]
        self.proc = serving.spawn(self.port, self.env, self.log)
        serving.wait_up(self.proc, self.url, self.timeout, self.log, BenchError)
        print(f"server: {self.url} up in {time.monotonic() - t0:.0f} s", flush=True)

    def tail(self, n: int = 30) -> str:
        """The end of the server's log."""
        return serving.tail(self.log, n)

    def stop(self, keep: bool) -> None:
        """Stop the server's process group; remove the temp dir unless `keep`."""
        serving.stop(self.proc)
        if keep:
            print(f"kept: {self.tmp}", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------- measuring


def kind_of(url: str, rtype: str, mime: str) -> str:
    """JS, CSS, HTML, fonts, images or other, from the CDP resource type, MIME type and URL."""
    path = url.split("?")[0].lower()
    if rtype == "Script" or "javascript" in mime or path.endswith((".js", ".mjs")):
        return "js"
    if rtype == "Stylesheet" or "css" in mime or path.endswith(".css"):
        return "css"
    if rtype == "Document" or "html" in mime:
        return "html"
    if rtype == "Font" or "font" in mime or path.endswith((".woff", ".woff2", ".ttf", ".otf")):
        return "fonts"
    if rtype == "Image" or mime.startswith("image/"):
        return "images"
    return "other"


class Load:
    """One navigation to /jouer on a throttled tab: network log and in-page timings."""

    def __init__(self, context: Any, args: argparse.Namespace) -> None:
        self.page = context.new_page()
        self.page.set_default_timeout(args.timeout * 1000)
        self.page.add_init_script(USABLE_JS)
        self.requests: dict[str, dict[str, Any]] = {}
        self.socket_bytes = 0
        cdp = context.new_cdp_session(self.page)
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.requestServedFromCache", self._from_cache)
        cdp.on("Network.responseReceivedExtraInfo", self._raw)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketFrameSent", self._frame)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": args.latency,
                "downloadThroughput": args.down * 1000 / 8,
                "uploadThroughput": args.up * 1000 / 8,
                "connectionType": "cellular4g",
            },
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
        self.cdp = cdp

    def _sent(self, e: dict[str, Any]) -> None:
        self.requests.setdefault(e["requestId"], {})["url"] = e["request"]["url"]
        self.requests[e["requestId"]]["type"] = e.get("type", "")

    def _response(self, e: dict[str, Any]) -> None:
        r = self.requests.setdefault(e["requestId"], {})
        r["url"] = e["response"]["url"]
        r["type"] = e.get("type", r.get("type", ""))
        r["mime"] = e["response"].get("mimeType", "")
        r["status"] = e["response"].get("status", 0)
        r["cached"] = r.get("cached") or bool(e["response"].get("fromDiskCache"))

    def _raw(self, e: dict[str, Any]) -> None:  # the status on the wire: 304 = revalidated
        self.requests.setdefault(e["requestId"], {})["raw_status"] = e.get("statusCode", 0)

    def _from_cache(self, e: dict[str, Any]) -> None:
        self.requests.setdefault(e["requestId"], {})["cached"] = True

    def _finished(self, e: dict[str, Any]) -> None:
        self.requests.setdefault(e["requestId"], {})["bytes"] = e["encodedDataLength"]

    def _frame(self, e: dict[str, Any]) -> None:
        self.socket_bytes += len(e["response"].get("payloadData", "").encode())

    def run(self, url: str, timeout: float) -> dict[str, Any]:
        """Navigate, wait until the cartons are usable and the page has loaded; the figures."""
        self.page.goto(f"{url}/jouer", wait_until="commit")
        self.page.wait_for_function(
            "() => window.__usableAt !== null && document.readyState === 'complete'",
            timeout=timeout * 1000,
            polling=100,
        )
        self.page.wait_for_timeout(500)  # late responses (loadingFinished) and socket frames
        t = self.page.evaluate(TIMINGS_JS)
        by_kind = dict.fromkeys(KINDS, 0)
        done = [r for r in self.requests.values() if "bytes" in r and "url" in r]
        for r in done:
            by_kind[kind_of(r["url"], r.get("type", ""), r.get("mime", ""))] += r["bytes"]
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        return {
            **t,
            "bytes": sum(by_kind.values()),
            **by_kind,
            "socket": self.socket_bytes,
            "requests": len(done),
            # from the HTTP cache without asking (memory, disk), or revalidated (a 304 round trip)
            "cached": sum(1 for r in done if r.get("cached") or r["bytes"] == 0),
            "revalidated": sum(1 for r in done if r.get("raw_status") == 304),
            "resources": sorted(
                ((r["bytes"], r["url"].split("/")[-1] or r["url"]) for r in done), reverse=True
            ),
        }


def prepare(browser: Any, device: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """A player who joined and bought cartons (no throttling); the browser storage to reuse."""
    ctx = browser.new_context(**device, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(args.timeout * 1000)
    page.goto(f"{args.url}/?code={args.code}")
    page.wait_for_function(
        "c => document.querySelector('[data-testid=\"join-code\"]')?.value === c", arg=args.code
    )
    page.get_by_test_id("join-name").fill("Mamie Jo")
    page.get_by_test_id("join-submit").click()
    page.wait_for_url("**/jouer")
    page.get_by_test_id("buy-classique-3").click()  # asks "Commander … ?" once
    page.get_by_test_id("buy-confirm").click()
    page.locator('[data-testid^="carton-"]').nth(2).wait_for()
    if args.secret:  # the animateur starts the game and draws: a page as it is mid-game
        tablet_ctx = browser.new_context(locale="fr-FR")
        tablet = tablet_ctx.new_page()
        tablet.set_default_timeout(args.timeout * 1000)
        tablet.goto(f"{args.url}/animateur")
        tablet.get_by_test_id("animateur-code").fill(args.code)
        tablet.get_by_test_id("animateur-secret").fill(args.secret)
        tablet.get_by_test_id("animateur-login").click()
        tablet.get_by_test_id("start-game").click()
        for i in range(args.draws):
            tablet.get_by_test_id("draw").click()
            tablet.locator('[data-testid^="board-"][data-drawn="true"]').nth(i).wait_for()
        tablet_ctx.close()
    state = ctx.storage_state()
    ctx.close()
    return state


def median_of(runs: list[dict[str, Any]]) -> dict[str, float]:
    keys = ("usable", "fcp", "dcl", "load", "bytes", *KINDS, "socket", "requests")
    keys += ("cached", "revalidated")
    return {k: statistics.median(r[k] or 0 for r in runs) for k in keys}


def kb(n: float) -> str:
    return f"{n / 1024:.0f}"


def row(label: str, r: dict[str, Any]) -> str:
    return (
        f"{label:<12} {r['usable'] / 1000:6.2f} {r['fcp'] / 1000:6.2f} {r['dcl'] / 1000:6.2f} "
        f"{r['load'] / 1000:6.2f} {kb(r['bytes']):>7} "
        + " ".join(f"{kb(r[k]):>6}" for k in KINDS)
        + f" {kb(r['socket']):>6} {r['requests']:>5.0f} {r['cached']:>6.0f}"
        + f" {r['revalidated']:>4.0f}"
    )


def chunks(web: Path, loaded: set[str], top: int) -> list[str]:
    """The biggest JS files of the build (raw and gzip), marked when /jouer loads them."""
    assets = web / "build" / "client" / "assets"
    if not assets.is_dir():
        return [f"(no build in {assets})"]
    out = []
    files = sorted(assets.glob("*.js"), key=lambda p: p.stat().st_size, reverse=True)
    total = sum(p.stat().st_size for p in files)
    out.append(f"{len(files)} JS files, {kb(total)} KiB raw in {assets}")
    for p in files[:top]:
        raw = p.read_bytes()
        gz = len(gzip.compress(raw, 9))
        mark = "loaded by /jouer" if p.name in loaded else ""
        out.append(f"  {kb(len(raw)):>5} KiB raw {kb(gz):>4} KiB gz  {p.name}  {mark}")
    return out


def bench(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        device = dict(pw.devices["Pixel 7"])
        state = prepare(browser, device, args)
        cold, warm = [], []
        for i in range(args.runs):
            ctx = browser.new_context(**device, locale="fr-FR", storage_state=state)
            cold.append(Load(ctx, args).run(args.url, args.timeout))
            warm.append(Load(ctx, args).run(args.url, args.timeout))
            ctx.close()
            print(
                f"run {i + 1}/{args.runs}: cold {cold[-1]['usable'] / 1000:.2f} s "
                f"{kb(cold[-1]['bytes'])} KiB, warm {warm[-1]['usable'] / 1000:.2f} s "
                f"{kb(warm[-1]['bytes'])} KiB",
                flush=True,
            )
        browser.close()
    return {"cold": cold, "warm": warm}


def report(args: argparse.Namespace, res: dict[str, Any], web: Path | None) -> dict[str, Any]:
    cold, warm = median_of(res["cold"]), median_of(res["warm"])
    print()
    print("command:", shlex.join([sys.executable, *sys.argv]))
    print(
        f"phone: Pixel 7 profile, CPU {args.cpu}x slower, {args.latency} ms latency, "
        f"{args.down} kbit/s down, {args.up} kbit/s up; median of {args.runs} runs"
    )
    print("times in s from navigation start; sizes in KiB transferred (headers included)")
    print(
        f"{'':<12} {'usable':>6} {'FCP':>6} {'DCL':>6} {'load':>6} {'bytes':>7} "
        + " ".join(f"{k:>6}" for k in KINDS)
        + f" {'socket':>6} {'reqs':>5} {'cached':>6} {'304':>4}"
    )
    for i, r in enumerate(res["cold"]):
        print(row(f"cold #{i + 1}", r))
    print(row("cold median", cold))
    for i, r in enumerate(res["warm"]):
        print(row(f"warm #{i + 1}", r))
    print(row("warm median", warm))
    first = res["cold"][0]["resources"]
    print(f"\nheaviest resources of a cold load ({len(first)} in all):")
    for n, name in first[: args.top]:
        print(f"  {kb(n):>5} KiB  {name}")
    if web is not None:
        print()
        print("\n".join(chunks(web, {name for _, name in first}, args.top)))
    line = {
        "cold_usable_s": round(cold["usable"] / 1000, 2),
        "warm_usable_s": round(warm["usable"] / 1000, 2),
        "cold_kib": round(cold["bytes"] / 1024),
        "warm_kib": round(warm["bytes"] / 1024),
        "cold_js_kib": round(cold["js"] / 1024),
        "cold_css_kib": round(cold["css"] / 1024),
        "cold_requests": int(cold["requests"]),
        "warm_revalidated": int(warm["revalidated"]),
    }
    print("\n" + " ".join(f"{k}={v}" for k, v in line.items()))
    return {"median_cold": cold, "median_warm": warm, **res, "summary": line}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="", help="a running server (else --start)")
    ap.add_argument("--start", action="store_true", help="serve a fresh app on a free port")
    ap.add_argument("--code", default="", help="join code of an evening on --url")
    ap.add_argument("--secret", default="", help="its animateur secret: draw a few numbers")
    ap.add_argument("--draws", type=int, default=8, help="numbers drawn before measuring")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu", type=float, default=4, help="CPU slowdown factor")
    ap.add_argument("--latency", type=float, default=150, help="added latency, ms")
    ap.add_argument("--down", type=float, default=1600, help="download, kbit/s")
    ap.add_argument("--up", type=float, default=750, help="upload, kbit/s")
    ap.add_argument("--web", type=Path, help="the server's .web/ (to list the JS chunks)")
    ap.add_argument("--top", type=int, default=10, help="how many resources/chunks to list")
    ap.add_argument("--timeout", type=float, default=120, help="each wait, s")
    ap.add_argument("--start-timeout", type=float, default=600)
    ap.add_argument("--json", type=Path, help="write every figure there")
    ap.add_argument("--keep-tmp", action="store_true")
    args = ap.parse_args(argv)
    if not args.start and not args.url:
        args.start = True
    if not args.start and not args.code:
        ap.error("--url needs --code (the join code of an evening it serves)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = Started(args.start_timeout) if args.start else None
    failed = True
    try:
        web = args.web
        if started is not None:
            started.start()
            args.url, args.code, args.secret = started.url, started.code, SECRET
            web = started.web
        args.url = args.url.rstrip("/")
        res = report(args, bench(args), web)
        if args.json:
            args.json.write_text(json.dumps(res, indent=2, default=str))
        failed = False
    except BenchError as exc:
        print(f"phone bench: {exc}", file=sys.stderr)
    finally:
        if started is not None:
            started.stop(keep=args.keep_tmp or failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
