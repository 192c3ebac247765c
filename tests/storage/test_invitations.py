"""The remote players' invitations through the registry and the database: the engine's move
and its links' tokens committed together, a link resolved to its invitation, used once; an
evening file carries the tokens (exported, imported: the links still work)."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_driver import Driver

from loto_app.domain import errors as err
from loto_app.domain.program import demo_program
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.evening_file import export_to_path, import_from_path
from loto_app.storage.invitations import NewInvitations
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


def test_invitations_committed_with_their_links_used_once_and_carried_by_the_file(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    upgrade(url)
    store = EveningStore(make_engine(url))
    program = demo_program().with_settings(remote_play=True, remote_cap=1, remote_confirmed=True)
    creds = store.create_evening("Loto", program)
    eid = creds.evening_id
    access = AccessStore(store.engine)
    with Driver(store) as driver:
        batch = NewInvitations(eid, ["Marie", "Paul"])
        driver.run(eid, batch.move, batch.extra)
        tokens = access.invitations(eid)
        assert tokens == batch.tokens and sorted(tokens) == [1, 2]
        refused = NewInvitations(eid, ["Luc", "marie"])  # (refused whole: nothing written)
        with pytest.raises(err.InvitationRefused):
            driver.run(eid, refused.move, refused.extra)
        assert access.invitations(eid) == tokens
        no = access.invitation_no(eid, tokens[1])
        driver.call(driver.registry.join(eid, "Marie", "remote", no))
        with pytest.raises(err.InvitationAlreadyUsed):
            driver.call(driver.registry.join(eid, "Autre", "remote", no))
        with pytest.raises(err.RemoteCapReached):
            driver.call(driver.registry.join(eid, "Paul", "remote", 2))
    path = tmp_path / "soiree.jsonl"
    export_to_path(store, creds.join_code, path)
    store.engine.dispose()

    url2 = f"sqlite:///{tmp_path / 'b.db'}"
    upgrade(url2)
    other = EveningStore(make_engine(url2))
    done = import_from_path(other, path)
    moved = AccessStore(other.engine)
    assert moved.invitations(done.evening_id) == tokens
    assert moved.invitation_no(done.evening_id, tokens[2]) == 2
    evening, _, _ = other.load(done.evening_id)
    assert [(i.no, bool(i.player_id)) for i in evening.invitations.values()] == [
        (1, True),
        (2, False),
    ]
    other.engine.dispose()
