"""The group-commit writer (loto_app/live/runtime/registry.py): the moves queued while a batch
commits are played in order and committed in one transaction, a refused move changes nothing, a
failed commit undoes the whole batch and tells nothing, and a committed move is told in commit
order, even when a publisher fails. A real SQLite file, a recording publisher; no Reflex."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from loto_app.domain import events as ev
from loto_app.domain.errors import LotoError
from loto_app.domain.program import DrawSource, demo_program
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.live.runtime.registry import Registry
from loto_app.storage import models as m
from loto_app.storage.access import AccessStore
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

PROGRAM = demo_program("R").with_settings(draw_source=DrawSource.ELECTRONIC, last_call_seconds=0)


class Recorder:
    """A publisher that keeps what it is told: (evening, events, actor, log position)."""

    def __init__(self) -> None:
        self.told: list[tuple[int, list[ev.Event], str | None, int]] = []

    async def __call__(
        self, evening_id: int, lv: LiveEvening, events: list[ev.Event], actor: str | None
    ) -> None:
        self.told.append((evening_id, events, actor, lv.seq))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EveningStore]:
    url = f"sqlite:///{tmp_path / 'loto.db'}"
    upgrade(url)
    engine = make_engine(url)
    yield EveningStore(engine)
    engine.dispose()


def commit_times(store: EveningStore, evening_id: int) -> list[object]:
    """The commit time of each logged event, in log order (one transaction: one time)."""
    with Session(store.engine) as s:
        return list(
            s.exec(
                select(m.AuditRow.at)
                .where(m.AuditRow.evening_id == evening_id)
                .order_by(m.AuditRow.seq)
            ).all()
        )


def test_a_burst_of_moves_is_one_transaction_told_in_commit_order(store: EveningStore) -> None:
    eid = store.create_evening("Soirée", PROGRAM).evening_id
    reg, told = Registry(store), Recorder()
    reg.on_change(told)
    names = [f"Joueur {i}" for i in range(20)]

    async def burst() -> list[object]:
        await reg.live(eid)  # loaded: the burst below queues behind nothing
        moves = [reg.join(eid, n) for n in names[:10]]
        moves.append(reg.play(eid, lambda e: e.draw(), actor="tablette"))  # no game yet
        moves += [reg.join(eid, n) for n in names[10:]]
        return await asyncio.gather(*moves, return_exceptions=True)

    out = asyncio.run(burst())
    refused = out.pop(10)
    assert isinstance(refused, LotoError)  # told to its caller alone
    joined = [pid for pid, _ in out]
    assert len(commit_times(store, eid)) == 20
    assert len(set(commit_times(store, eid))) == 1, "one transaction for the whole burst"
    # each caller got their own player, whose secret was written in the same transaction
    players = AccessStore(store.engine)
    for (pid, secret), name in zip(out, names, strict=True):
        assert players.player_for_secret(eid, secret) == pid
        assert store.load(eid)[0].players[pid] == name
    # told once each, in the order queued, after the commit (the log already holds them all)
    assert [e[0].player_id for _, e, _, _ in told.told] == joined
    assert {(evening, actor, seq) for evening, _, actor, seq in told.told} == {(eid, None, 20)}


def test_a_failed_commit_undoes_the_whole_batch_and_tells_nothing(store: EveningStore) -> None:
    eid = store.create_evening("Soirée", PROGRAM).evening_id
    reg, told = Registry(store), Recorder()
    reg.on_change(told)

    def disk_full(_s: Session) -> None:
        raise RuntimeError("disk full")

    async def batch() -> tuple[list[object], str, str]:
        await reg.join(eid, "Ana")
        lv = await reg.live(eid)
        before = lv.evening.fingerprint()
        out = await asyncio.gather(
            reg.play(eid, lambda e: e.join("bob", "Bob")),
            reg.play(eid, lambda e: e.join("chloe", "Chloé"), disk_full),
            return_exceptions=True,
        )
        return out, before, (await reg.live(eid)).evening.fingerprint()

    out, before, after = asyncio.run(batch())
    assert [str(x) for x in out] == ["disk full", "disk full"], "both moves failed"
    assert after == before  # the evening in memory was reloaded: neither move happened
    assert store.load(eid)[0].fingerprint() == before
    assert len(commit_times(store, eid)) == 1
    assert len(told.told) == 1  # Ana's join only


def test_a_failing_publisher_does_not_undo_a_committed_move(store: EveningStore) -> None:
    eid = store.create_evening("Soirée", PROGRAM).evening_id
    reg, told = Registry(store), Recorder()

    async def broken(*_args: object) -> None:
        raise ConnectionError("socket.io down")

    reg.on_change(broken)
    reg.on_change(told)

    async def evening() -> list[ev.Event]:
        return await reg.play(eid, lambda e: e.join("ana", "Ana"), actor="sid-1")

    (joined,) = asyncio.run(evening())
    assert isinstance(joined, ev.PlayerJoined)
    assert [e for _, e, _ in store.events_after(eid, 0)] == [joined]
    assert told.told == [(eid, [joined], "sid-1", 1)]  # the next publisher still ran


def test_another_process_commits_are_caught_up_before_a_move(store: EveningStore) -> None:
    eid = store.create_evening("Soirée", PROGRAM).evening_id
    a, b = Registry(store), Registry(EveningStore(store.engine))  # two workers, one database

    async def evening() -> tuple[str, str]:
        await a.play(eid, lambda e: e.join("ana", "Ana"))
        await b.play(eid, lambda e: e.join("bob", "Bob"))  # b first catches up with ana
        rng = random.Random(5)
        await a.play(eid, lambda e: e.sell("ana", PROGRAM.games[0].kind, 1, rng=rng))
        return (await a.live(eid)).evening.fingerprint(), (await b.live(eid)).evening.fingerprint()

    fa, fb = asyncio.run(evening())
    assert fa == fb == store.load(eid)[0].fingerprint()
    assert store.verify_audit(eid) == []


def test_the_only_writer_never_asks_the_database_whether_another_process_committed(
    store: EveningStore, caplog: pytest.LogCaptureFixture
) -> None:
    """One process (no Redis) is its database's only writer: its page loads and batches read
    nothing back. Should a second writer commit all the same, the race it loses replays the
    evening from the database, and it catches up before every move from then on."""
    eid = store.create_evening("Soirée", PROGRAM).evening_id
    alone = Registry(store, sole_writer=True)
    other = Registry(EveningStore(store.engine))
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    async def evening() -> tuple[list[str], list[str], str, str]:
        await alone.play(eid, lambda e: e.join("ana", "Ana"))
        sa.event.listen(store.engine, "before_cursor_execute", count)
        try:
            await alone.live(eid)  # a page load
            await alone.play(eid, lambda e: e.join("bob", "Bob"))
        finally:
            sa.event.remove(store.engine, "before_cursor_execute", count)
        reads = [q for q in statements if q.lstrip().upper().startswith("SELECT")]
        await other.play(eid, lambda e: e.join("chloe", "Chloé"))  # a second writer
        await alone.play(eid, lambda e: e.join("dede", "Dédé"))  # races it: replayed
        before_move = sorted((await alone.live(eid)).evening.players)
        await other.play(eid, lambda e: e.join("eve", "Ève"))
        return (
            reads,
            before_move,
            (await alone.live(eid)).evening.fingerprint(),
            (await other.live(eid)).evening.fingerprint(),
        )

    reads, players, fa, fb = asyncio.run(evening())
    assert reads == []  # the join's commit wrote; nothing was read
    assert players == ["ana", "bob", "chloe", "dede"]
    assert alone.sole_writer is False
    assert "another process commits to this database" in caplog.text
    assert fa == fb == store.load(eid)[0].fingerprint()  # eve's join caught up on a page load
    assert store.verify_audit(eid) == []
