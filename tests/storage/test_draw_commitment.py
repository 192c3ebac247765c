"""The committed draw in the database (SQLite and PostgreSQL): the seed kept in its own table,
a restart continuing the same order, the seed nowhere to be read before the game's end (log,
evening file, report, the app's logs), revealed after it, and an evening file exported in
play that cannot continue a draw it does not hold."""

from __future__ import annotations

import io
import logging
import random

import pytest
from sqlmodel import Session, select

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.domain.errors import DrawSeedMissing
from loto_app.domain.program import DrawSource, Kind, Settings, demo_program
from loto_app.records.export import report_csv, report_pdf
from loto_app.records.report import build_report
from loto_app.storage import evening_file
from loto_app.storage import models as m
from loto_app.storage.db import make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore


def program():
    p = demo_program("S7")
    return type(p)(p.series, p.games[:2], Settings(DrawSource.ELECTRONIC, last_call_seconds=0))


def sealed_seed(store: EveningStore, evening_id: int, game: int) -> bytes:
    with Session(store.engine) as s:
        row = s.exec(
            select(m.DrawSeedRow).where(
                m.DrawSeedRow.evening_id == evening_id, m.DrawSeedRow.game_idx == game
            )
        ).one()
    return bytes.fromhex(row.seed_hex)


def log_payloads(store: EveningStore, evening_id: int) -> str:
    with Session(store.engine) as s:
        rows = s.exec(select(m.AuditRow.payload).where(m.AuditRow.evening_id == evening_id)).all()
    return repr(rows)


def readable_everywhere(store: EveningStore, evening_id: int) -> str:
    """Everything the app lets anyone read of an evening: its log, its evening file, its report
    as CSV and as PDF (the PDF's text)."""
    from pypdf import PdfReader

    out = io.StringIO()
    evening_file.export_evening(store, evening_id, out)
    report = build_report(store, evening_id)
    pdf = PdfReader(io.BytesIO(report_pdf(report)))
    text = "".join(page.extract_text() for page in pdf.pages)
    return "\n".join(
        [log_payloads(store, evening_id), out.getvalue(), report_csv(report).decode(), text]
    )


def started(store: EveningStore, drivers) -> tuple[int, str, object]:
    creds = store.create_evening("Loto du tirage", program())
    live = drivers(store).on(creds.evening_id)
    for p in ("ana", "bob"):
        live.run(lambda e, p=p: e.join(p, p.title()))
        live.run(lambda e, p=p: e.sell(p, Kind.CLASSIQUE, 2, rng=random.Random(p)))
    live.run(lambda e: e.start_game())  # the app's own fresh seed
    return creds.evening_id, creds.join_code, live


def test_a_restart_mid_game_continues_the_committed_order(db_engine, drivers):
    store = EveningStore(db_engine)
    eid, code, live = started(store, drivers)
    first = [live.run(lambda e: e.draw())[0].number for _ in range(12)]
    url = db_engine.url.render_as_string(hide_password=False)
    db_engine.dispose()  # the server stops; a new one starts on the same database

    engine = make_engine(url)
    store = EveningStore(engine)
    again = drivers(store).on(eid)
    second = [again.run(lambda e: e.draw())[0].number for _ in range(12)]
    seed = sealed_seed(store, eid, 0)
    assert first + second == list(draws.draw_order(seed)[:24])
    commitment = again.evening.game.commitment
    assert commitment.commitment == draws.commitment(seed, code, "S7", 1)
    while again.evening.can_draw():
        again.run(lambda e: e.draw())
    _, revealed = again.run(lambda e: e.allow_unmark())
    assert revealed == ev.DrawRevealed(0, seed.hex())
    drawn = tuple(again.evening.game.drawn)
    check = draws.verify(seed, code, "S7", 1, commitment.commitment, drawn)
    assert check.ok
    engine.dispose()


def test_the_seed_is_readable_nowhere_before_the_end_and_everywhere_after(
    db_engine, drivers, caplog
):
    caplog.set_level(logging.DEBUG)
    store = EveningStore(db_engine)
    eid, _, live = started(store, drivers)
    for _ in range(30):
        live.run(lambda e: e.draw())
    seed = sealed_seed(store, eid, 0).hex()
    assert seed not in readable_everywhere(store, eid)
    while live.evening.can_draw():
        live.run(lambda e: e.draw())
    assert seed not in readable_everywhere(store, eid)  # 90 numbers out, the game not ended
    assert seed not in caplog.text
    live.run(lambda e: e.allow_unmark())
    after = readable_everywhere(store, eid)
    assert seed in after
    assert after.count(seed) >= 4  # the log, the file, the CSV and the PDF


def test_a_file_exported_in_play_holds_no_seed_and_cannot_draw_on(db_engine, drivers, tmp_path):
    store = EveningStore(db_engine)
    eid, _, live = started(store, drivers)
    for _ in range(5):
        live.run(lambda e: e.draw())
    out = io.StringIO()
    evening_file.export_evening(store, eid, out)
    assert sealed_seed(store, eid, 0).hex() not in out.getvalue()

    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    upgrade(other_url)
    other = EveningStore(make_engine(other_url))
    done = evening_file.import_evening(other, out.getvalue().splitlines())
    moved = drivers(other).on(done.evening_id)
    assert moved.evening.game.commitment == live.evening.game.commitment
    with pytest.raises(DrawSeedMissing) as refused:
        moved.run(lambda e: e.draw())
    assert "serveur d'origine" in refused.value.user_message
    other.engine.dispose()
