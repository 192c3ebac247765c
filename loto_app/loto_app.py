"""Reflex entry module: builds the app, registers every page and wires the room broadcast."""

import reflex as rx

from loto_app import media_http, network
from loto_app.components.palette import ACCENT, radix_css
from loto_app.live import compat
from loto_app.live.gate import admission, frame_guard, marks_path
from loto_app.live.gate.ratelimit import EventGate
from loto_app.live.gate.rehydrate import WarmHydrate
from loto_app.live.runtime import broadcast, presence, reaper
from loto_app.live.states.animateur import AnimateurState
from loto_app.live.states.caisse import CaisseState
from loto_app.live.states.controle import ControleState
from loto_app.live.states.hall import HallView
from loto_app.live.states.join import JoinPrefill
from loto_app.live.states.organisation import OrganisationState
from loto_app.live.states.player import PlayerState
from loto_app.live.states.reglement import ReglementState
from loto_app.live.states.screen import ScreenState
from loto_app.live.states.verification import VerificationState
from loto_app.live.states.verifier import VerifierState
from loto_app.pages import (
    aide,
    animateur,
    caisse,
    controle,
    join,
    organisation,
    player,
    reglement,
    screen,
    verification,
    verifier,
)

app = rx.App(
    # Installable PWA: assets/manifest.webmanifest, assets/icons/, assets/sw.js (served from /).
    head_components=[
        rx.el.link(rel="manifest", href="/manifest.webmanifest"),
        rx.el.meta(name="theme-color", content=ACCENT),
        rx.el.link(rel="icon", type="image/png", sizes="32x32", href="/icons/favicon-32.png"),
        rx.el.link(rel="apple-touch-icon", sizes="180x180", href="/icons/apple-touch-icon.png"),
        rx.el.meta(name="apple-mobile-web-app-title", content="Loto"),
        # The colour scales, darkened so that every text reaches 4.5:1 (components/palette.py).
        rx.el.style(radix_css()),
        # The service worker's URL carries the build: the hash of the production build's
        # router manifest (/assets/manifest-<hash>.js), new with every change of JS or CSS, so
        # a new build installs the worker again and renews its cache (see assets/sw.js).
        # `reflex run` dev mode has no such file: no service worker there.
        # A first install that fails (a file dropped by the hall's Wi-Fi) is tried again
        # while the page stays open, rather than at the next page load only: after 5 s, then
        # 30, 90 and 180 s.
        # A page left without a controller while the worker is active asks it to take over:
        # the worker's own clients.claim() at activation misses a page whose navigation was
        # still in flight (Chromium; seen in CI: a phone opened while the hall screen's tab
        # installed the worker stayed uncontrolled, so without its offline shell).
        rx.el.script(
            "window.addEventListener('load', function () {"
            " var rr = window.__reactRouterManifest;"
            r" var m = rr && /^\/assets\/manifest-([\w-]+)\.js$/.exec(rr.url);"
            " if (!m || !('serviceWorker' in navigator)) return;"
            " var url = '/sw.js?v=' + m[1], waits = [5, 30, 90, 180];"
            " function again(why) {"
            "  console.warn('service worker:', why);"
            "  var s = waits.shift(); if (s) setTimeout(register, s * 1000);"
            " }"
            " function register() {"
            "  navigator.serviceWorker.register(url, {scope: '/'}).then(function (reg) {"
            "   var w = reg.installing || reg.waiting;"
            "   if (!w && !reg.active) again('no worker');"
            "   if (w) w.addEventListener('statechange', function () {"
            "    if (w.state === 'redundant' && !reg.active) again('install failed');"
            "   });"
            "  }, again);"
            " }"
            " register();"
            " navigator.serviceWorker.ready.then(function (reg) {"
            "  if (!navigator.serviceWorker.controller && reg.active)"
            "   reg.active.postMessage('claim');"
            " });"
            " });"
        ),
    ],
    html_lang="fr",
    # The evening's pictures at /media/<digest>.webp and the upload's size limit
    # (loto_app/media_http.py); behind the HTTPS proxy, the server's own redirects say https://
    # (loto_app/network.py).
    api_transformer=[media_http.wrap, network.forwarded_scheme],
    # the armed claim button, countdown bars (assets/loto.css); "Activer le son" and the chime's
    # toggle (assets/sound.css); the hall screen's entracte (assets/screen.css)
    # and the camera's QR code reader (assets/scan.css)
    stylesheets=["/loto.css", "/sound.css", "/screen.css", "/scan.css"],
)
# No Reflex connection toast ("Cannot connect to server: websocket error. Check if server is
# reachable at ws://…", in English, over the cartons for two minutes): every page has its own
# French banner while the connection is lost (components/ui.py `connection_banner`).
compat.drop_connection_overlay(app)

# Routes are added here rather than with @rx.page: Reflex 0.10 re-applies decorated pages on
# each compile and warns "Page ... is being redefined" in `reflex run --env prod`.
# `/` and `/jouer` are one page: the join form, the player's page once joined (pages/player.py).
# `/` has no on_load handler: its hydrate loads it (WarmHydrate below: the link's code in the form,
# a player's rooms), three events fewer for each phone scanning the QR code.
app.add_page(player.join_or_play, route="/", title=join.TITLE)
app.add_page(player.index, route=PlayerState.ROUTE, title=player.TITLE, on_load=PlayerState.resume)
app.add_page(
    animateur.index,
    route=AnimateurState.ROUTE,
    title=animateur.TITLE,
    on_load=AnimateurState.resume,
)
app.add_page(screen.index, route=ScreenState.ROUTE, title=screen.TITLE, on_load=ScreenState.watch)
app.add_page(
    reglement.index, route="/reglement", title=reglement.TITLE, on_load=ReglementState.load
)
# The volunteers' guide (docs/GUIDE.md): anyone, no sign-in, no state.
app.add_page(aide.index, route="/aide", title=aide.TITLE)
app.add_page(verifier.index, route="/verifier", title=verifier.TITLE, on_load=VerifierState.load)
app.add_page(
    verification.index,
    route=VerificationState.ROUTE,
    title=verification.TITLE,
    on_load=VerificationState.resume,
)
app.add_page(caisse.index, route=CaisseState.ROUTE, title=caisse.TITLE, on_load=CaisseState.resume)
app.add_page(
    controle.index, route=ControleState.ROUTE, title=controle.TITLE, on_load=ControleState.resume
)
app.add_page(
    organisation.index,
    route=OrganisationState.ROUTE,
    title=organisation.TITLE,
    on_load=OrganisationState.resume,
)

broadcast.bind(app, HallView, f"{PlayerState.get_full_name()}.refresh")
broadcast.bind_desk(f"{CaisseState.get_full_name()}.refresh")
broadcast.bind_staff(f"{AnimateurState.get_full_name()}.recheck")
# A phone's batch of marks is answered on the socket, not as a Reflex event
# (live/gate/marks_path.py); installed first, so that the frame guard checks its size before.
marks_path.install(app, f"{PlayerState.get_full_name()}.save_marks")
# Every event passes here first: oversized events and unknown handlers are refused on the socket
# (live/gate/frame_guard.py), then the per-client rate limit and payload shape
# (live/gate/ratelimit.py).
frame_guard.install(app)
# Several workers: each hands Reflex at most a few dozen of its phones' events at once, the
# others wait their turn, in order of arrival (live/gate/admission.py).
admission.install(app)
app.add_middleware(EventGate())
# A page whose Reflex state was rebuilt (a restart, a new client token) fills itself in before
# its first snapshot, so it never shows an empty evening (live/gate/rehydrate.py).
app.add_middleware(WarmHydrate(PlayerState, JoinPrefill, AnimateurState, ScreenState))
# Every process (one, or each of several workers): drop the in-memory states its gone clients
# left, keep its connected ones (live/runtime/reaper.py).
app.register_lifespan_task(reaper.run)
# The animateur's count of the phones connected, on every worker (live/runtime/presence.py).
app.register_lifespan_task(presence.run)
# Reachable from the internet without LOTO_CREATE_KEY: say so loudly (loto_app/network.py).
network.warn_if_open()
