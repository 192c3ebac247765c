"""PlayerState: one phone's private state. Identity is a server-issued secret kept in the
browser's local storage and resolved against the database on every (re)load; Reflex's client
token is never trusted for it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, ClassVar

import reflex as rx

from loto_app.domain import events as ev
from loto_app.domain.engine import MAX_NAME, Evening
from loto_app.domain.errors import LotoError, UnknownInvitation
from loto_app.domain.program import Kind
from loto_app.domain.till import desk_code
from loto_app.limits import MAX_CARTON_NO, MAX_CODE, MAX_OFFER_INDEX, MAX_SALE_NO, MAX_SECRET
from loto_app.live.input.guards import BadInput, as_bool, as_int, as_text, form, log, refuse
from loto_app.live.present.views import (
    CartonView,
    OfferGroup,
    OfferView,
    OrderView,
    games_text,
    offer_groups,
    offer_views,
    order_views,
    private_view,
)
from loto_app.live.runtime import broadcast, identity, marks, registry
from loto_app.live.states.session import RECONNECTING, BrowserSession, access
from loto_app.wording import TicketView

#: The player's page's title (pages/player.py; set by SHOW_JOUER after a join on `/`).
TITLE = "Loto — mes cartons"

#: Joined on the join page (`/`), or back on it with my cartons: the address bar says /jouer
#: and the tab the player's title, without a navigation (the page is the same; React Router's
#: own idea of the path stays `/`, which the server also serves).
SHOW_JOUER = (
    "if (window.location.pathname !== '/jouer')"
    " window.history.replaceState(window.history.state, '', '/jouer');"
    f" document.title = {json.dumps(TITLE)}"
)


class PlayerState(BrowserSession, rx.State):
    """My cartons, my marks, my verdicts, my lot tickets."""

    ROUTE: ClassVar[str] = "/jouer"
    ALSO_AT: ClassVar[tuple[str, ...]] = ("/",)  # the join page: the same page (pages/player.py)
    OPEN: ClassVar[frozenset[str]] = frozenset({"resume", "join_evening", "forget_me"})
    RELOAD_MESSAGE: ClassVar[str] = RECONNECTING

    secret: str = rx.LocalStorage("", name="loto_player_secret")
    code: str = rx.LocalStorage("", name="loto_player_code")
    name: str = ""
    cartons: list[CartonView] = []
    marks: list[str] = []
    marks_ack: str = ""  # the answer to my last batch of marks (a display slot: marks_path.py)
    tickets: list[TicketView] = []
    consolations: int = 0
    verdict: str = ""
    verdict_kind: str = ""
    # the verdict holds while the hall shows this game and count (see `PrivateView`)
    verdict_game: int = 0
    verdict_count: int = 0
    message: str = ""
    # a message answers my last action: it holds until the next number (game, count)
    message_game: int = 0
    message_count: int = 0
    # the join form's own message: the refusal of its last try (never one of the player's
    # page, and gone whenever the form shows again: `_clear_messages`)
    join_message: str = ""
    share_offer: bool = False
    share_answered: bool = False
    share_with: str = ""  # the share question: the other player(s), the lot
    share_lot: str = ""
    # a valid claim of mine on the last number (until the next one: verdict_game/_count)
    claimed: bool = False
    in_play: bool = False  # a carton of mine plays this game, not annulled
    may_claim: bool = False  # ... and holds for nothing on the last number (verdict_count)
    decisions: list[str] = []  # the association's decisions that concern me (art. 8)
    ready: bool = False
    offers: list[OfferView] = []
    offer_groups: list[OfferGroup] = []
    orders: list[OrderView] = []
    # the tariff line tapped, waiting for "Oui, commander" (-1: none)
    chosen: int = -1
    chosen_what: str = ""
    chosen_price: str = ""
    chosen_games: str = ""
    desk_code: str = ""
    remote: bool = False
    _player_id: str = ""
    _warmed: tuple[int, int] = (0, -1)  # (evening, seq) shown by `_warm` before the hydrate

    # ------------------------------------------------------------------ identity

    @rx.event
    async def join_evening(self, form_data: dict):
        """The join form: evening code and pseudonym -> a new player (or mine again). Its
        refusals go in the form's own message (`join_message`), cleared at each new try."""
        self.join_message = ""
        try:
            data = form(form_data)
            # A field left empty takes the link's value (`/?code=...&invitation=...`): on a
            # slow phone the form can be sent before the page's first snapshot prefilled it
            # (JoinPrefill), and the player scanned a code they should not retype.
            link = self.router.url.query_parameters
            code = as_text(data.get("code", "") or link.get("code", ""), "code", MAX_CODE)
            code = code.upper()
            name = as_text(data.get("name", ""), "name", 80)
            invitation = as_text(
                data.get("invitation", "") or link.get("invitation", ""), "invitation", MAX_SECRET
            )
        except BadInput as exc:
            refuse(self._who(), "join_evening", exc)
            self.join_message = exc.user_message
            return
        if not code:
            self.join_message = "Entrez le code de la soirée (annoncé dans la salle)."
            return
        if not name or len(name) > MAX_NAME:
            self.join_message = f"Entrez un pseudo de 1 à {MAX_NAME} caractères."
            return
        store = registry.store()
        evening_id = store.known_code(code)  # (memory: no hop to a thread once found)
        if evening_id is None:
            evening_id = await asyncio.to_thread(store.evening_id_for_code, code)
        if evening_id is None:
            self.join_message = f"Aucune soirée avec le code « {code} ». Vérifiez le code annoncé."
            return
        if self.secret and self.code == code and await self._identify():
            return await self._open_page()  # (mine again)
        origin, invitation_no = "hall", 0
        if invitation:  # (a personal invitation: the engine admits one phone with it)
            found = await asyncio.to_thread(access().invitation_no, evening_id, invitation)
            if found is None:
                refuse(self._who(), "join_evening", f"bad invitation for evening {evening_id}")
                self.join_message = UnknownInvitation.default_user_message
                return
            origin, invitation_no = "remote", found
        try:
            pid, secret = await registry.join(evening_id, name, origin, invitation_no)
        except LotoError as exc:
            refuse(self._who(), "join_evening", exc)
            self.join_message = exc.user_message
            return
        access().remember_player(evening_id, secret, pid)  # (committed: found at once)
        self.secret, self.code, self.message = secret, code, ""
        self._evening_id, self._player_id = evening_id, pid
        return await self._open_page(fresh=False)  # (my join's commit is the latest I need)

    async def _open_page(self, *, fresh: bool = True) -> Any:
        """Joined: this same event fills the player's page in (the join form and the player's
        page are one page, pages/player.py), rather than a redirect whose navigation costs the
        server two more events per phone; the address bar then says /jouer, where a reload or
        the installed app lands."""
        await self._enter_room(fresh=fresh)
        return rx.call_script(SHOW_JOUER)

    @rx.event
    async def resume(self):
        """On load of /jouer (and after every reconnect; on `/`, after the hydrate when it could
        not do it all, live/gate/rehydrate.py): find me, my cartons, the room; nobody (no
        identity stored, or not one of this evening's players): the join form."""
        self.ready = False
        if not await self._identify():
            if self.secret:
                log.info("no valid player secret on %s: the join form", self.router.url.path)
            self.secret = ""
            self._clear_messages()
            return
        await self._enter_room()
        if (self.router.url.path.rstrip("/") or "/") in self.ALSO_AT:  # (the QR code again)
            return rx.call_script(SHOW_JOUER)
        return None

    async def _enter_room(self, *, fresh: bool = True) -> None:
        """I am identified: my cartons, the hall's picture, the broadcast rooms (`fresh`:
        first catch up with other processes' commits; not needed right after my own move,
        whose commit caught up before it)."""
        lv = await registry.live(self._evening_id, fresh=fresh)
        warmed, self._warmed = self._warmed, (0, -1)
        if warmed != (self._evening_id, lv.seq):  # (the hydrate's snapshot showed it already)
            self._show(lv.evening)
        sid = self.router.session.session_id
        await broadcast.enter(sid, self._evening_id, self._player_id)
        if warmed != (self._evening_id, lv.seq):
            await broadcast.send_snapshot(sid, lv)
        self.ready = True

    async def _warm(self, stored: dict[str, Any], *, whole: bool = False) -> bool:
        """Before Reflex's snapshot of a rebuilt state (a restart, a new client token): my
        cartons and the board, from the identity this browser stores (live/gate/rehydrate.py), so
        that the page never shows them empty; `resume` then only joins the rooms.

        `whole`: the page has no on_load handler (the join page `/`, at every load and every
        reconnect of its socket): this is its whole load. A browser without an identity has
        nothing more to do (the join form); a player's socket joins the broadcast rooms here.
        An identity that is no player's returns False: `resume` runs after the hydrate, as on
        `/jouer` (the join form, the stored identity forgotten)."""
        secret, code = stored.get("secret", ""), stored.get("code", "")
        if not secret:
            self._clear_messages()
            return True  # (nobody: the join form)
        if not code or len(secret) > MAX_SECRET or len(code) > MAX_CODE:
            return False
        self.secret, self.code = secret, code  # (the hydrate sets them again, to the same)
        if not await self._identify():
            return False
        lv = await registry.live(self._evening_id)
        self._show(lv.evening)
        await broadcast.fill_hall(self, lv)
        self.ready = True
        if whole:
            sid = self.router.session.session_id
            await broadcast.enter(sid, self._evening_id, self._player_id)
        else:
            self._warmed = (self._evening_id, lv.seq)
        return True

    async def _identify(self) -> bool:
        """Resolve the secret kept by this browser to a player (every handler may need to:
        with several workers, an event can reach a state that has not seen `resume`)."""
        who = await identity.player_of(self.code, self.secret)
        if who is None:
            self._player_id = ""
            return False
        self._evening_id, self._player_id = who
        return True

    @rx.event
    async def refresh(self):
        """Reload my private view (asked by the server after someone else's move)."""
        if not self._player_id and not await self._identify():
            return  # (a lost state: the event gate reloads the page, live/states/session.py)
        lv = await registry.live(self._evening_id)
        self._show(lv.evening)

    async def _show_my_move(self) -> None:
        """My view after a move of mine: the evening in memory is at least as recent as my
        move's commit (the writer caught up with other processes before it), so no database
        read; later moves of others come with their own broadcast."""
        lv = await registry.live(self._evening_id, fresh=False)
        self._show(lv.evening)

    @rx.event
    def forget_me(self):
        """Leave the evening on this phone (the player stays in the record)."""
        self.secret, self.code, self._player_id, self.cartons = "", "", "", []
        self._clear_messages()
        return rx.redirect("/")

    def _clear_messages(self) -> None:
        """No identity (any more): the join form shows, with nothing said of an earlier action
        (a refusal of the player's page, or of a join tried before, is no news to it)."""
        if self.join_message:
            self.join_message = ""
        if self.message:
            self.message = ""

    # ------------------------------------------------------------------ moves

    @rx.event
    async def toggle(self, carton_no: int, number: int):
        """Touch a cell: mark or unmark it."""

        def move(no: int, n: int) -> Callable[[Evening], list[ev.Event]]:
            return lambda e: e.toggle_mark(self._player_id, no, n)

        try:
            no = as_int(carton_no, 1, MAX_CARTON_NO, "carton")
            n = as_int(number, 1, 90, "number")
        except BadInput as exc:
            return self._refused("toggle", exc)
        events = await self._play("toggle", move(no, n))
        for x in events or ():
            key = f"{no}-{n}"
            if isinstance(x, ev.CellMarked) and key not in self.marks:
                self.marks = [*self.marks, key]
            elif isinstance(x, ev.CellUnmarked):
                self.marks = [k for k in self.marks if k != key]

    @rx.event
    async def save_marks(self, form_data: dict):
        """A batch of the pions this phone keeps (assets/loto.js), for safekeeping. Answered on
        the socket by live/gate/marks_path.py before it gets here; this is the same answer,
        should an event reach Reflex (the batch carries the identity it is checked against)."""
        try:
            batch = marks.read({"form_data": form_data})
        except BadInput as exc:
            return self._refused("save_marks", exc)
        ack = await marks.answer(batch)
        if ack is not None:
            self.marks_ack = marks.ack_text(ack)

    @rx.event
    async def claim(self, carton_no: int):
        """The big button: "QUINE !" on one of my cartons."""
        try:
            no = as_int(carton_no, 1, MAX_CARTON_NO, "carton")
        except BadInput as exc:
            return self._refused("claim", exc)
        events = await self._play("claim", lambda e: e.claim(self._player_id, no))
        if any(isinstance(x, ev.ClaimMade) for x in events or ()):
            await self._show_my_move()  # (my verdict, with the number and stage it holds for)

    @rx.event
    async def unmark_all(self):
        """ "Démarquer": clear all my cartons, once the animateur allowed it."""
        events = await self._play("unmark_all", lambda e: e.unmark_all(self._player_id))
        if events is not None:
            self.marks = []

    @rx.event
    async def order(self, offer: int):
        """Order a pack of the tariff from the phone: "à régler" at the desk (or handed at once
        on a free loto)."""
        try:
            index = as_int(offer, 0, MAX_OFFER_INDEX, "offer")
        except BadInput as exc:
            return self._refused("order", exc)
        await self._order(index)

    async def _order(self, index: int) -> None:
        """(The order waiting shows at the top of the page, with the desk code, until it is
        paid or cancelled; on a free loto the cartons show at once: no message to clear.)"""
        self.chosen = -1
        if await self._play("order", lambda e: e.order(self._player_id, index)) is not None:
            await self._show_my_move()

    @rx.event
    async def choose(self, offer: int):
        """A tap on a tariff line: ask "Commander … ?" first (nothing is ordered yet)."""
        try:
            index = as_int(offer, 0, MAX_OFFER_INDEX, "offer")
        except BadInput as exc:
            return self._refused("choose", exc)
        if not self._player_id and not await self._identify():
            return self._refused("choose", BadInput("not identified"))
        lv = await registry.live(self._evening_id, fresh=False)
        self.offer_groups = offer_groups(lv.evening)  # (the games left, as of now)
        group = next((g for g in self.offer_groups for o in g.offers if o.index == index), None)
        if group is None:
            return self._refused("choose", BadInput(f"no offer {index} on sale"))
        o = next(o for o in group.offers if o.index == index)
        self.chosen, self.chosen_what, self.chosen_price = index, o.what, o.price
        self.chosen_games = games_text(lv.evening, Kind(group.kind))

    @rx.event
    def unchoose(self):
        """ "Non": back to the tariff, nothing ordered."""
        self.chosen = -1

    @rx.event
    async def confirm_order(self):
        """ "Oui, commander": order the tariff line chosen by `choose`."""
        if self.chosen < 0:
            return self._refused("confirm_order", BadInput("no offer chosen"))
        await self._order(self.chosen)

    @rx.event
    async def cancel_order(self, sale_no: int):
        """Cancel one of my orders not paid yet (the engine checks that it is mine)."""
        try:
            no = as_int(sale_no, 1, MAX_SALE_NO, "sale")
        except BadInput as exc:
            return self._refused("cancel_order", exc)
        if await self._play("cancel_order", lambda e: e.cancel_order(self._player_id, no)):
            await self._show_my_move()

    @rx.event
    async def buy(self, kind: str, quantity: int):
        """Order by kind and pack size (the tariff line that matches), as `order` does."""
        try:
            kind = as_text(kind, "kind", 12)
            qty = as_int(quantity, 1, 36, "quantity")
        except BadInput as exc:
            return self._refused("buy", exc)
        if not self._player_id and not await self._identify():
            return self._refused("buy", BadInput("not identified"))
        lv = await registry.live(self._evening_id, fresh=False)
        match = [
            i
            for i, o in enumerate(lv.evening.program.offers)
            if o.kind.value == kind and o.quantity == qty
        ]
        if not match:
            self.message = "Ce tarif n'existe pas ce soir."
            return self._refused("buy", BadInput(f"no offer of {qty} {kind!r}"))
        await self._order(match[0])

    @rx.event
    async def answer_share(self, accept: bool):
        """Accept or refuse to share the lot with the other ex aequo."""
        try:
            yes = as_bool(accept, "accept")
        except BadInput as exc:
            return self._refused("answer_share", exc)
        if await self._play("answer_share", lambda e: e.answer_share(self._player_id, yes)):
            await self._show_my_move()

    # ------------------------------------------------------------------ helpers

    def _tell(self, text: str) -> None:
        """A refusal's message, kept until the next number (the page compares the stamp)."""
        self.message = text
        lv = registry.loaded(self._evening_id) if self._player_id else None
        g = lv.evening.game if lv else None
        self.message_game, self.message_count = (g.index + 1, len(g.drawn)) if g else (0, 0)

    def _identified(self) -> bool:
        return bool(self._player_id)

    def _who(self) -> str:
        return f"player {self._player_id or '?'} (sid {self.router.session.session_id})"

    async def _may_play(self, handler: str) -> bool:
        """I am a player of the evening (my browser's identity, checked in the database)."""
        if not self._player_id and not await self._identify():
            self._refused(handler, BadInput("not identified"))
            return False
        return True

    def _show(self, e: Evening) -> None:
        """My view of the evening. Only what changed is assigned: Reflex sends every var
        assigned, changed or not, and after a move most of the page (the tariff, the other
        cartons) is as it was."""
        v = private_view(e, self._player_id)
        self._put(
            name=v.name,
            cartons=v.cartons,
            marks=v.marks,
            tickets=v.tickets,
            consolations=v.consolations,
            verdict=v.verdict,
            verdict_kind=v.verdict_kind,
            verdict_game=v.verdict_game,
            verdict_count=v.verdict_count,
            share_offer=v.share_offer,
            share_answered=v.share_answered,
            share_with=v.share_with,
            share_lot=v.share_lot,
            claimed=v.claimed,
            in_play=v.in_play,
            may_claim=v.may_claim,
            decisions=v.decisions,
            offers=offer_views(e),
            offer_groups=offer_groups(e),
            orders=order_views(e, self._player_id),
            remote=e.origins.get(self._player_id) == "remote",
        )
        code = desk_code(self._player_id)
        if code != self.desk_code:
            self.desk_code = code  # its QR code is drawn by the phone (components/qr.py)

    def _put(self, **values: Any) -> None:
        for key, value in values.items():
            if getattr(self, key) != value:
                setattr(self, key, value)
