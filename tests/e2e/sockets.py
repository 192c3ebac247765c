"""Raw frames on a real page's own websocket (Playwright routes the page's socket through the
test): what a hostile or broken phone could send, and a socket dropped under a live page."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gestures import buy
from playwright.sync_api import expect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

ROOT = "reflex___state____state"
PLAYER = f"{ROOT}.loto_app___live___states___player____player_state"
ANIMATEUR = f"{ROOT}.loto_app___live___states___animateur____animateur_state"
HALL = f"{ROOT}.loto_app___live___states___hall____hall_view"
EVENT_PREFIX = "42/_event,"
#: A page script that makes assets/loto.js send each pion's batch a second after the touch, for
#: tests that check the server stored a pion at once (a phone otherwise sends one batch every three
#: minutes in slots of its own, at once when hidden: test_marks_offline.py).
SHORT_MARKS_SPACING = "window.__lotoMarksSpacingMs = 1000;"
#: ... or only the page's first batch a second after its first touch (the next ones in its slots,
#: three minutes apart) instead of at a random moment within the three minutes.
FIRST_MARKS_AT_ONCE = "window.__lotoMarksFirstMs = 1000;"
#: How long a touched pion may take to be committed, with SHORT_MARKS_SPACING: its batch goes a
#: second after the touch and is committed with the others of the same 5 s (live/runtime/marks.py
#: GATHER_S). A page has one batch in flight at a time (assets/loto.js): a pion touched while the
#: previous batch waits for its commit goes after it, in the next 5 s (measured on a quiet
#: machine: 11.9 s after the touch); and a batch cut off with its socket never gets its answer,
#: so it goes again 20 s after it went (RESEND_MS), and the next pion with it.
MARK_COMMITTED_S = 1 + 20 + 5 + 14


class Injector:
    """Sends raw socket.io frames on a page's own websocket, and can cut the page off its socket
    while the server side stays open (what a phone sees when its network drops before the server
    notices: Reflex then hands the reconnecting page a new client token, upstream issue 6252)."""

    def __init__(self, page: Page) -> None:
        self.server: WebSocketRoute | None = None
        self.page_side: WebSocketRoute | None = None
        self.router_data: dict[str, Any] = {}
        self.sockets = 0  # sockets the page opened
        self.new_tokens: list[str] = []  # `new_token` messages the server sent the page
        self.held: list[WebSocketRoute] = []  # server sides kept open after the page was cut
        page.route_web_socket(re.compile(r".*/_event/.*"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.server, self.page_side = server, ws
        self.sockets += 1

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith(EVENT_PREFIX):
                event = json.loads(message[len(EVENT_PREFIX) :])[1]
                self.router_data = event.get("router_data") or self.router_data
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith('42/_event,["new_token"'):
                self.new_tokens.append(json.loads(message[len(EVENT_PREFIX) :])[1])
            ws.send(message)

        def page_closed(code: int | None, reason: str | None) -> None:
            # a closed page closes its server side too, unless the test cut it off on purpose
            if server not in self.held:
                server.close(code=code or 1000, reason=reason or "")

        ws.on_message(from_page)
        server.on_message(from_server)
        ws.on_close(page_closed)  # (an on_close handler turns Playwright's forwarding off)

    def send(self, handler: str, payload: Any) -> None:
        """One event, as the page's Reflex client would send it."""
        assert self.server is not None, "the page has no websocket yet"
        event = {"name": handler, "payload": payload, "router_data": self.router_data}
        self.server.send(EVENT_PREFIX + json.dumps(["event", event]))

    def send_raw(self, frame: str) -> None:
        """Any frame at all."""
        assert self.server is not None, "the page has no websocket yet"
        self.server.send(frame)

    def cut_page_off(self) -> None:
        """Close the page's side of its socket and keep the server's side open: the page
        reconnects at once while the server still holds its old connection."""
        assert self.page_side is not None and self.server is not None
        self.held.append(self.server)
        self.page_side.close(code=4000, reason="network lost")


def player_count(engine: Any, evening_id: int) -> int:
    """Players registered on an evening (a reconnect must not make a second one)."""
    from sqlmodel import Session, func, select

    from loto_app.storage import models as m

    with Session(engine) as s:
        return s.exec(
            select(func.count())
            .select_from(m.PlayerRow)
            .where(m.PlayerRow.evening_id == evening_id)
        ).one()


def marks(engine: Any, evening_id: int) -> set[tuple[int, int]]:
    """The pions committed for an evening: (carton, number)."""
    from sqlmodel import Session, select

    from loto_app.storage import models as m

    with Session(engine) as s:
        rows = s.exec(select(m.MarkRow).where(m.MarkRow.evening_id == evening_id)).all()
    return {(r.carton_no, r.number) for r in rows}


def reconnect_with_a_new_token(
    page: Page, inject: Injector, timeout: float = 30.0, *, must_renew: bool = True
) -> str:
    """Cut the page off its socket while the server keeps the old connection, so that the page
    reconnects at once with a client token the server still sees in use: the server hands it a
    new token (upstream Reflex issue 6252) and a fresh, empty Reflex state. Returns the new
    token, once the page adopted it.

    Without `must_renew` (several workers, each with its own token registry), the reconnect may
    land on the other worker, which takes the token as it is (and builds the page's state from
    its stored identity): then the token in use, once the page is connected again."""
    before = page.evaluate("() => window.sessionStorage.getItem('token')")
    sockets, tokens = inject.sockets, len(inject.new_tokens)
    inject.cut_page_off()
    deadline = time.monotonic() + timeout
    while (inject.sockets == sockets or len(inject.new_tokens) == tokens) and (
        time.monotonic() < deadline
    ):
        if not must_renew and inject.sockets > sockets:
            expect(page.get_by_test_id("connection-banner")).to_have_count(0, timeout=15_000)
            page.wait_for_timeout(1000)  # (a new token comes with the connect, if at all)
            if len(inject.new_tokens) == tokens:
                return before
        page.wait_for_timeout(50)
    assert inject.sockets > sockets, "the page did not reconnect"
    assert len(inject.new_tokens) > tokens, "the server did not hand the page a new token"
    new = inject.new_tokens[-1]
    assert new != before
    while time.monotonic() < deadline:
        if page.evaluate("() => window.sessionStorage.getItem('token')") == new:
            return new
        page.wait_for_timeout(50)
    raise AssertionError("the page did not adopt its new token")


def new_token_round_trip(
    url: str,
    engine: Any,
    evening_id: int,
    code: str,
    secret: str,
    browser: Browser,
    phone: dict,
    results_dir: Path,
    *,
    must_renew: bool = True,
) -> None:
    """Shared by test_reconnect.py (one process) and test_scale_out.py (two workers, where the
    reconnect may land on the other worker and keep its token: `must_renew` False): a phone
    marks a pion, its socket is cut under it, it reconnects, with a new token on the worker
    that still holds the old socket; cartons, pion and board are back, the same player keeps
    playing, nobody new registered."""
    page = browser.new_context(**phone).new_page()
    # each pion's batch a second after the touch (not one every three minutes: see
    # test_marks_offline.py)
    page.add_init_script(SHORT_MARKS_SPACING)
    inject = Injector(page)
    page.goto(f"{url}/?code={code}")
    expect(page.get_by_test_id("join-code")).to_have_value(code)
    page.get_by_test_id("join-name").fill("Pépé Lucien")
    page.get_by_test_id("join-submit").click()
    page.wait_for_url("**/jouer")
    buy(page, "buy-classique-3")
    expect(page.locator("[data-testid^=carton-]")).to_have_count(3)
    cartons = sorted(
        page.locator("[data-testid^=carton-]").evaluate_all("els => els.map(e => e.dataset.testid)")
    )
    players = player_count(engine, evening_id)

    tablet = browser.new_context().new_page()
    tablet.goto(f"{url}/animateur")
    tablet.get_by_test_id("animateur-code").fill(code)
    tablet.get_by_test_id("animateur-secret").fill(secret)
    tablet.get_by_test_id("animateur-login").click()
    expect(tablet.locator("[data-testid=start-game], [data-testid=draw]").first).to_be_visible(
        timeout=30_000
    )
    if tablet.get_by_test_id("start-game").count():
        tablet.get_by_test_id("start-game").click()
    cells = page.locator("[data-testid^=cell-][data-drawn=true][data-marked=false]")
    for _ in range(40):
        expect(tablet.get_by_test_id("draw")).to_be_enabled()
        before = tablet.get_by_test_id("last-number").inner_text()
        tablet.get_by_test_id("draw").click()
        # (the tablet's own picture comes by the broadcast too: read it once it has changed)
        expect(tablet.get_by_test_id("last-number")).not_to_have_text(before)
        expect(page.get_by_test_id("last-number")).to_have_text(
            tablet.get_by_test_id("last-number").inner_text()
        )
        if cells.count() >= 2:
            break
    first = cells.first.get_attribute("data-testid")
    page.get_by_test_id(first).click()
    expect(page.get_by_test_id(first)).to_have_attribute("data-marked", "true")

    for round_ in range(2):  # twice: the second reconnect starts from an adopted new token
        reconnect_with_a_new_token(page, inject, must_renew=must_renew)
        expect(page.get_by_test_id("connection-banner")).to_have_count(0, timeout=15_000)
        expect(page.locator("[data-testid^=carton-]")).to_have_count(3, timeout=15_000)
        got = sorted(
            page.locator("[data-testid^=carton-]").evaluate_all(
                "els => els.map(e => e.dataset.testid)"
            )
        )
        assert got == cartons, "other cartons after the new token"
        expect(page.get_by_test_id(first)).to_have_attribute("data-marked", "true")
        expect(page.get_by_test_id("last-number")).to_have_text(
            tablet.get_by_test_id("last-number").inner_text()
        )
        page.screenshot(path=results_dir / f"nouveau-jeton-{round_ + 1}.png", full_page=True)

    # the same player goes on playing on the new token: a new pion is committed as theirs
    second = cells.first.get_attribute("data-testid")
    page.get_by_test_id(second).click()
    expect(page.get_by_test_id(second)).to_have_attribute("data-marked", "true")
    no, n = (int(x) for x in second.removeprefix("cell-").split("-"))
    deadline = time.monotonic() + MARK_COMMITTED_S  # (after the first pion's batch)
    while (no, n) not in marks(engine, evening_id) and time.monotonic() < deadline:
        # (a Playwright wait, not a sleep: the injector's route relays the page's socket only
        # while Playwright runs)
        page.wait_for_timeout(100)
    assert (no, n) in marks(engine, evening_id)
    assert player_count(engine, evening_id) == players, "a second player was created"
