"""The staff session (`loto_app.live.states.session`): one mixin for every staff state, the
credential checks in `AccessStore.signs_in`, the rate limit's staff exemption by class, and the
lost-state rule in the event gate. Real state classes of the app, a real SQLite file, no server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import reflex as rx
from reflex.event import Event

from loto_app.domain.program import demo_program
from loto_app.domain.till import desk_code
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


@pytest.fixture
def live_app(tmp_path, monkeypatch):
    """The app's states and registry on a fresh SQLite file; the page reloads the gate asks
    for, recorded (there is no browser to reload)."""
    import loto_app.loto_app  # noqa: F401  (builds the state tree, binds the broadcast)
    from loto_app.live.runtime import broadcast, registry

    url = f"sqlite:///{tmp_path / 'loto.db'}"
    upgrade(url)
    store = EveningStore(make_engine(url))
    monkeypatch.setattr(registry, "_store", store)
    registry.forget_all()
    reloads: list[str] = []

    async def reload_page(sid: str) -> None:
        reloads.append(sid)

    monkeypatch.setattr(broadcast, "reload_page", reload_page)
    store.reloads = reloads  # type: ignore[attr-defined]
    yield store
    registry.forget_all()
    store.engine.dispose()


def root_on(path: str) -> Any:
    root = rx.State(_reflex_internal_init=True)
    root.router_data = root._update_router_vars({"pathname": path, "asPath": path}, {})
    return root


def sub(root: Any, cls: type) -> Any:
    return root.get_substate(cls.get_full_name().split(".")[1:])


def staff_classes() -> list[type]:
    from loto_app.live.states.animateur import AnimateurState
    from loto_app.live.states.caisse import CaisseState
    from loto_app.live.states.controle import ControleState
    from loto_app.live.states.organisation import OrganisationState

    return [AnimateurState, CaisseState, ControleState, OrganisationState]


# ---------------------------------------------------------------------------- one mixin


def test_every_staff_state_is_one_staff_session() -> None:
    import loto_app.loto_app  # noqa: F401
    from loto_app.live.states.player import PlayerState
    from loto_app.live.states.session import BrowserSession, StaffSession

    for cls in staff_classes():
        assert issubclass(cls, StaffSession)
        for name in ("login", "resume", "logout"):  # the mixin's handlers, bound to the class
            assert cls.event_handlers[name].fn.__qualname__ == f"{cls.__name__}.{name}"
        backend = {n for n, f in cls.__fields__.items() if f._backend and f._owner is cls}
        assert {"_authorized", "_secret", "_evening_id"} <= backend  # the client cannot set them
        assert cls.ROUTE and cls.KIND in ("animateur", "desk", "organiser")
    assert issubclass(PlayerState, BrowserSession) and not issubclass(PlayerState, StaffSession)


def test_the_browser_storage_names_are_kept() -> None:
    """Signed-in devices stay signed in: the local storage keys are the ones they have."""
    import loto_app.loto_app  # noqa: F401
    from loto_app.live.states.animateur import AnimateurState
    from loto_app.live.states.caisse import CaisseState
    from loto_app.live.states.organisation import OrganisationState
    from loto_app.live.states.player import PlayerState

    expected = {
        PlayerState: ("loto_player_code", "loto_player_secret"),
        AnimateurState: ("loto_animateur_code", "loto_animateur_secret"),
        CaisseState: ("loto_caisse_code", "loto_caisse_secret"),
        OrganisationState: ("loto_organiser_code", "loto_organiser_secret"),
    }
    for cls, names in expected.items():
        got = tuple(cls.__fields__[v].default.name for v in ("code", "secret"))
        assert got == names, cls.__name__


def test_the_organisers_tasks_are_substates_of_the_signed_in_parent() -> None:
    import loto_app.loto_app  # noqa: F401
    from loto_app.live.states.organisation import OrganisationState
    from loto_app.live.states.organisation_books import EveningBooks
    from loto_app.live.states.organisation_invitations import EveningInvitations
    from loto_app.live.states.organisation_media import EveningMedia
    from loto_app.live.states.organisation_own import OwnCartons
    from loto_app.live.states.organisation_records import EveningRecords
    from loto_app.live.states.organisation_rehearsal import EveningRehearsal
    from loto_app.live.states.organisation_setup import EveningSetup
    from loto_app.live.states.organisation_staff import EveningStaff

    tasks = {
        EveningSetup,
        EveningStaff,
        EveningRecords,
        EveningMedia,
        EveningBooks,
        EveningInvitations,
        OwnCartons,
        EveningRehearsal,
    }
    assert set(OrganisationState.get_substates()) == tasks
    for task in tasks:
        assert task.get_parent_state() is OrganisationState
        assert "login" not in task.event_handlers  # one sign-in, the parent's


# ---------------------------------------------------------------------------- one store


def test_signs_in_checks_every_kind_against_the_database_now(live_app: EveningStore) -> None:
    creds = live_app.create_evening("Clés", demo_program("KEY"))
    eid = creds.evening_id
    access = AccessStore(live_app.engine)
    desk = access.add_staff(eid, "Marie", "caissier")
    assert access.signs_in("animateur", eid, creds.animateur_secret).role == "animateur"
    assert access.signs_in("organiser", eid, creds.organiser_secret).role == "organiser"
    member = access.signs_in("desk", eid, desk)
    assert (member.name, member.role) == ("Marie", "caissier")
    assert access.signs_in("animateur", eid, creds.organiser_secret) is None  # not theirs
    assert access.signs_in("desk", eid, creds.animateur_secret) is None
    assert access.signs_in("organiser", eid, "") is None
    assert access.signs_in("organiser", eid, "x" * 65) is None
    access.reset_animateur_secret(eid)
    assert access.signs_in("animateur", eid, creds.animateur_secret) is None, "renewed"
    access.set_active(eid, access.staff(eid)[0].id, False)
    assert access.signs_in("desk", eid, desk) is None, "withdrawn"
    with pytest.raises(ValueError, match="unknown kind"):
        access.signs_in("player", eid, creds.animateur_secret)


def test_a_phone_identity_resolves_in_the_same_store(live_app: EveningStore) -> None:
    from loto_app.live.runtime import registry

    creds = live_app.create_evening("Joueurs", demo_program("PHN"))
    pid, secret = asyncio.run(registry.join(creds.evening_id, "Pépé"))
    access = AccessStore(live_app.engine)
    assert access.player_for_secret(creds.evening_id, secret) == pid
    assert access.player_for_secret(creds.evening_id, secret + "x") is None
    assert access.player_for_secret(creds.evening_id, "") is None


def test_a_found_player_is_kept_an_unknown_secret_is_asked_again(live_app: EveningStore) -> None:
    """A player's secret is never renewed: once found, no more queries; an unknown secret may
    be a join another process is committing: the database is asked each time."""
    import sqlalchemy as sa

    from loto_app.live.runtime import registry

    creds = live_app.create_evening("Joueurs", demo_program("PHK"))
    eid = creds.evening_id
    access = AccessStore(live_app.engine)
    queries: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        queries.append(statement)

    sa.event.listen(live_app.engine, "before_cursor_execute", count)
    try:
        pid, secret = asyncio.run(registry.join(eid, "Mémé"))
        queries.clear()
        assert access.player_for_secret(eid, secret) == pid
        assert len(queries) == 1
        assert access.player_for_secret(eid, secret) == pid
        assert len(queries) == 1, "found once: kept"
        assert access.player_for_secret(eid + 1, secret) is None, "another evening's"
        # an unknown secret is asked each time; a player who joined since is then found
        queries.clear()
        assert access.player_for_secret(eid, secret + "x") is None
        assert access.player_for_secret(eid, secret + "x") is None
        assert len(queries) == 2, "an unknown secret is not kept"
        late_pid, late = asyncio.run(registry.join(eid, "Pépé"))
        assert access.player_for_secret(eid, late) == late_pid
        assert access.player_for_secret(eid, secret) == pid
    finally:
        sa.event.remove(live_app.engine, "before_cursor_execute", count)


# ---------------------------------------------------------------------------- the staff session


def test_the_organiser_signs_in_once_and_is_checked_before_every_task(
    live_app: EveningStore,
) -> None:
    """Sign in through the mixin's `login`; a task (a substate) acts on the parent's sign-in; a
    secret reset in the database refuses the next action and signs the page out."""
    from loto_app.live.states.organisation import OrganisationState
    from loto_app.live.states.organisation_records import EveningRecords
    from loto_app.live.states.organisation_staff import EveningStaff

    creds = live_app.create_evening("Orga", demo_program("ORG"))
    AccessStore(live_app.engine).add_staff(creds.evening_id, "Paul", "vendeur")

    async def scenario() -> tuple[Any, Any, Any]:
        root = root_on("/organisation")
        org, staff, records = (
            sub(root, c) for c in (OrganisationState, EveningStaff, EveningRecords)
        )
        login = OrganisationState.event_handlers["login"].fn
        await login(org, {"code": creds.join_code.lower(), "secret": "guess"})
        assert not org.signed_in and org.login_message == OrganisationState.WRONG
        await login(org, {"code": creds.join_code, "secret": creds.organiser_secret})
        assert org.signed_in and org.login_message == ""
        assert org.evening_code == creds.join_code
        assert [m.name for m in staff.staff] == ["Paul"]  # the task loaded with the evening
        assert await records._signed_in_now("show_report")
        AccessStore(live_app.engine).reset_organiser_secret(creds.evening_id)
        assert not await records._signed_in_now("show_report")
        return org, staff, records

    org, _staff, _records = asyncio.run(scenario())
    assert not org.signed_in and org.code == "" and org.secret == ""
    assert "n'est plus valable" in org.login_message and org.tab == "signin"


def test_a_desk_member_withdrawn_is_refused_at_the_next_sale(live_app: EveningStore) -> None:
    from loto_app.live.runtime import broadcast
    from loto_app.live.states.caisse import CaisseState

    creds = live_app.create_evening("Caisse", demo_program("DSK"))
    access = AccessStore(live_app.engine)
    secret = access.add_staff(creds.evening_id, "Marie", "vendeur")

    async def scenario() -> Any:
        entered: list[Any] = []

        async def enter(sid: str, evening_id: int, **rooms: Any) -> None:
            entered.append((evening_id, rooms))

        broadcast_enter, broadcast.enter = broadcast.enter, enter
        try:
            desk = sub(root_on("/caisse"), CaisseState)
            await CaisseState.event_handlers["login"].fn(
                desk, {"code": creds.join_code, "secret": secret}
            )
        finally:
            broadcast.enter = broadcast_enter
        assert entered == [(creds.evening_id, {"desk": True})]
        assert desk.signed_in and (desk.staff_name, desk.role) == ("Marie", "vendeur")
        assert await desk._allowed("sell", ("vendeur", "caissier"))
        assert not await desk._allowed("close_till", ("caissier",))
        assert desk.message == "Réservé au caissier."
        access.set_active(creds.evening_id, access.staff(creds.evening_id)[0].id, False)
        assert not await desk._allowed("sell", ("vendeur", "caissier"))
        return desk

    desk = asyncio.run(scenario())
    assert not desk.signed_in and desk.message_kind == "error"
    assert desk.message == "Réservé à la caisse : connectez-vous avec votre secret."


# ---------------------------------------------------------------------------- the event gate


def test_staff_is_exempt_from_the_rate_limit_by_class_substates_too(live_app) -> None:
    from loto_app.live.gate.ratelimit import _signed_in_staff
    from loto_app.live.states.organisation import OrganisationState
    from loto_app.live.states.organisation_records import EveningRecords
    from loto_app.live.states.player import PlayerState

    root = rx.State(_reflex_internal_init=True)
    event = Event(name=f"{EveningRecords.get_full_name()}.show_report")
    assert asyncio.run(_signed_in_staff(root, event)) is False
    sub(root, OrganisationState)._authorized = True  # signed in on the parent
    assert asyncio.run(_signed_in_staff(root, event)) is True
    player = Event(name=f"{PlayerState.get_full_name()}.refresh")
    assert asyncio.run(_signed_in_staff(root, player)) is False  # a phone: never


def gate_says(root: Any, cls: type, handler: str, payload: dict | None = None) -> Any:
    from loto_app import loto_app as entry
    from loto_app.live.gate.ratelimit import EventGate

    event = Event(name=f"{cls.get_full_name()}.{handler}", payload=payload or {})
    return asyncio.run(EventGate().preprocess(entry.app, root, event))


def lost_cases() -> list[tuple[str, str, str, dict]]:
    return [
        (
            "loto_app.live.states.player.PlayerState",
            "/jouer",
            "toggle",
            {"carton_no": 1, "number": 5},
        ),
        ("loto_app.live.states.player.PlayerState", "/jouer", "refresh", {}),
        ("loto_app.live.states.player.PlayerState", "/", "refresh", {}),  # (the same page)
        ("loto_app.live.states.animateur.AnimateurState", "/animateur", "draw", {}),
        ("loto_app.live.states.caisse.CaisseState", "/caisse", "refresh", {}),
        (
            "loto_app.live.states.organisation_records.EveningRecords",
            "/organisation",
            "show_report",
            {},
        ),
        (
            "loto_app.live.states.organisation_invitations.EveningInvitations",
            "/organisation",
            "refresh_invitations",
            {},
        ),
    ]


def state_class(path: str) -> type:
    import importlib

    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize(("state_path", "route", "handler", "payload"), lost_cases())
def test_a_lost_state_on_its_own_page_is_reloaded(
    live_app: EveningStore, state_path: str, route: str, handler: str, payload: dict
) -> None:
    """No identity on the server nor in the state, on the session's page: the event is dropped
    and the page told to load again (which sends its stored identity)."""
    from loto_app.live.states.session import RECONNECTING

    cls = state_class(state_path)
    root = root_on(route)
    update = gate_says(root, cls, handler, payload)
    assert update is not None, "the event is dropped"
    assert live_app.reloads == [root.router.session.session_id]
    # the phone says so; a staff page reloads without a word (its message would outlive the load)
    assert sub(root, cls).message == (RECONNECTING if cls.__name__ == "PlayerState" else "")


@pytest.mark.parametrize(("state_path", "route", "handler", "payload"), lost_cases())
def test_a_state_with_an_identity_or_on_another_page_is_not_reloaded(
    live_app: EveningStore, state_path: str, route: str, handler: str, payload: dict
) -> None:
    cls = state_class(state_path)
    # another page (`/` is the player's page too: the join form, then the cartons)
    elsewhere = "/caisse" if route != "/caisse" else "/jouer"
    assert gate_says(root_on(elsewhere), cls, handler, payload) is None  # refused by the handler
    with_code = root_on(route)
    sub(with_code, cls).code = "ABC123"  # a signed-out device that stores a code: not lost
    assert gate_says(with_code, cls, handler, payload) is None
    signed_in = root_on(route)
    target = sub(signed_in, cls)
    if hasattr(target, "_authorized"):
        target._authorized = True
    else:
        target._player_id = "p1"
    assert gate_says(signed_in, cls, handler, payload) is None
    assert live_app.reloads == []


def test_open_handlers_and_the_new_evening_form_never_reload(live_app: EveningStore) -> None:
    """A page with no identity is a new visitor too: its sign-in form, its on-load handler and
    the organiser's new-evening form must work (a reload there would loop)."""
    from loto_app.live.states.animateur import AnimateurState
    from loto_app.live.states.organisation import OrganisationState
    from loto_app.live.states.organisation_setup import EveningSetup
    from loto_app.live.states.player import PlayerState

    form = {"form_data": {"code": "X", "secret": "y"}}
    assert gate_says(root_on("/animateur"), AnimateurState, "login", form) is None
    assert gate_says(root_on("/animateur"), AnimateurState, "resume") is None
    assert gate_says(root_on("/jouer"), PlayerState, "resume") is None
    assert gate_says(root_on("/jouer"), PlayerState, "forget_me") is None
    assert gate_says(root_on("/organisation"), OrganisationState, "show_tab", {"tab": "x"}) is None
    for handler, payload in [
        ("set_field", {"field": "name", "value": "Soirée"}),
        ("add_offer", {}),
        ("create_evening", {}),
    ]:
        assert gate_says(root_on("/organisation"), EveningSetup, handler, payload) is None
    assert live_app.reloads == []


# ---------------------------------------------------------------------------- one way to play


def test_every_page_plays_its_moves_as_its_socket(
    live_app: EveningStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The animateur, the desk and a player each play through the mixin's one `_play`: the
    engine's move is made with the socket as the actor (the room messages that follow skip
    it), once the session is checked; a refusal of the engine is told in French."""
    from loto_app.live.runtime import broadcast, registry
    from loto_app.live.states.animateur import AnimateurState
    from loto_app.live.states.caisse import CaisseState
    from loto_app.live.states.player import PlayerState

    creds = live_app.create_evening("Acteurs", demo_program("ACT"))
    vendeur = AccessStore(live_app.engine).add_staff(creds.evening_id, "Marie", "vendeur")
    actors: list[tuple[str, str | None]] = []
    play = registry.play

    async def recorded(evening_id: int, move: Any, extra: Any = None, actor: Any = None) -> Any:
        actors.append((getattr(move, "__qualname__", "?"), actor))
        return await play(evening_id, move, extra, actor)

    async def no_room(*_args: Any, **_rooms: Any) -> None:
        pass

    monkeypatch.setattr(registry, "play", recorded)
    monkeypatch.setattr(broadcast, "enter", no_room)
    monkeypatch.setattr(broadcast, "send_snapshot", no_room)

    def call(state: Any, cls: type, handler: str, *args: Any) -> Any:
        return cls.event_handlers[handler].fn(state, *args)

    def socket(state: Any) -> str:
        return state.router.session.session_id

    def on(path: str, sid: str) -> Any:
        root = rx.State(_reflex_internal_init=True)
        router = {"pathname": path, "asPath": path, "sid": sid}
        root.router_data = root._update_router_vars(router, {})
        return root

    async def scenario() -> None:
        tablet = sub(on("/animateur", "sid-tablet"), AnimateurState)
        await call(tablet, AnimateurState, "draw")  # not signed in: nothing played
        assert actors == [] and "connectez-vous" in tablet.message
        await call(tablet, AnimateurState, "login", {"code": creds.join_code, "secret": "x"})
        assert not tablet.signed_in
        secret = creds.animateur_secret
        await call(tablet, AnimateurState, "login", {"code": creds.join_code, "secret": secret})
        await call(tablet, AnimateurState, "draw")  # no game started: the engine refuses
        assert tablet.message and actors[-1][1] == socket(tablet)
        await call(tablet, AnimateurState, "start_game")
        assert tablet.message == ""
        await call(tablet, AnimateurState, "draw")
        await call(tablet, AnimateurState, "paper_claim", {"carton": "1", "check": "AAAA"})
        assert tablet.paper_verdict  # (a carton not sold: a verdict all the same)

        phone = sub(on("/jouer", "sid-phone"), PlayerState)
        pid, phone.secret = await registry.join(creds.evening_id, "Mamie Jo")
        phone.code = creds.join_code
        await call(phone, PlayerState, "order", 0)
        assert actors[-1][1] == socket(phone)

        desk = sub(on("/caisse", "sid-desk"), CaisseState)
        await call(desk, CaisseState, "login", {"code": creds.join_code, "secret": vendeur})
        await call(desk, CaisseState, "lookup", {"code": desk_code(pid)})
        await call(desk, CaisseState, "sell", {"offer": "0", "method": "cash"})
        assert "vendre" in desk.extra_ask.lower()  # (over the order à régler: asked first)
        await call(desk, CaisseState, "sell_extra")
        assert desk.message.startswith("Vendu en plus") and actors[-1][1] == socket(desk)

    asyncio.run(scenario())
    assert [a for _, a in actors] == ["sid-tablet"] * 4 + ["sid-phone"] + ["sid-desk"] * 2


def test_a_stored_sign_in_warms_through_the_one_sign_in(
    live_app: EveningStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before its snapshot, a rebuilt animateur state signs in from what the tablet stores by
    the mixin's `_sign_in`: a right secret signs the socket in (the page's `resume` enters the
    rooms), a wrong or renewed one does not and is not counted against the address (`resume`
    counts it, once), and a locked-out address is not let in this way either."""
    from loto_app.live.runtime import broadcast, signin_limit
    from loto_app.live.states.animateur import AnimateurState

    creds = live_app.create_evening("Chaud", demo_program("HOT"))
    counted: list[str] = []
    entered: list[str] = []

    async def failed(_router: Any, kind: str) -> None:
        counted.append(kind)

    async def enter(sid: str, *_a: Any, **_k: Any) -> None:
        entered.append(sid)

    monkeypatch.setattr(signin_limit, "failed", failed)
    monkeypatch.setattr(broadcast, "enter", enter)

    async def warm(secret: str) -> Any:
        tablet = sub(root_on("/animateur"), AnimateurState)
        stored = {"code": creds.join_code.lower(), "secret": secret}
        assert await tablet._warm(stored) is False  # (`resume` always follows)
        return tablet

    async def scenario() -> None:
        ok = await warm(creds.animateur_secret)
        assert ok._authorized and ok.signed_in and ok._evening_id == creds.evening_id
        assert entered == []  # (no room before `resume`)
        wrong = await warm("devine")
        assert not wrong._authorized and not wrong.signed_in
        assert counted == []
        assert not (await warm("x" * 65))._authorized  # (longer than a secret: not tried)

        async def locked(_router: Any) -> None:
            raise signin_limit.TooManyAttempts("127.0.0.1", 600)

        monkeypatch.setattr(signin_limit, "check", locked)
        assert not (await warm(creds.animateur_secret))._authorized

    asyncio.run(scenario())


def test_no_staff_state_repeats_the_mixins_who() -> None:
    """`_who` is the mixin's (`<kind>? evening N (sid S)`), but where a state says more."""
    import loto_app.loto_app  # noqa: F401
    from loto_app.live.states.caisse import CaisseState
    from loto_app.live.states.session import StaffSession

    for cls in staff_classes():
        if cls is not CaisseState:  # (the desk names the member and the role)
            assert cls._who is StaffSession._who, cls.__name__


def test_the_join_form_never_shows_an_earlier_refusal(
    live_app: EveningStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal of the player's page ("Ce carton n'est pas à vous.") is not the join form's:
    the form says only what its own last try got, and nothing once it shows again (the
    browser's identity gone, the phone's Reflex state kept across the reload)."""
    from loto_app.domain.errors import NotYourCarton
    from loto_app.live.runtime import broadcast
    from loto_app.live.states.player import PlayerState

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(broadcast, "enter", nothing)
    monkeypatch.setattr(broadcast, "send_snapshot", nothing)
    creds = live_app.create_evening("Salle", demo_program("JNM").with_settings(free_cartons=True))
    join = PlayerState.event_handlers["join_evening"].fn
    resume = PlayerState.event_handlers["resume"].fn

    async def scenario() -> None:
        for path in ("/", "/jouer"):
            player = sub(root_on(path), PlayerState)
            # a refusal on the player's page, then the browser forgets its identity
            player.message = NotYourCarton.default_user_message
            if path == "/":  # (no on_load handler: the hydrate loads the page)
                await player._warm({}, whole=True)
            else:
                await player._warm({})
                await resume(player)
            assert player.secret == "" and player.message == "" and player.join_message == ""
            # the form's own refusal, then a new try: the first is gone
            await join(player, {"code": "NOPE42", "name": "Ana"})
            assert player.join_message.startswith("Aucune soirée avec le code")
            await join(player, {"code": creds.join_code, "name": ""})
            assert player.join_message.startswith("Entrez un pseudo")
            await player._warm({}, whole=True)  # the form shown again (a reload of `/`)
            assert player.join_message == ""
            await join(player, {"code": creds.join_code, "name": "Ana"})
            assert player.secret and player.join_message == "" and player.message == ""

    asyncio.run(scenario())
