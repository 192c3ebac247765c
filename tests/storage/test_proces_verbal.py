"""The procès-verbal and the paper cartons' reconciliation, read from an evening committed to
SQLite and to PostgreSQL (the records' scripted evening: committed draws, claims and verdicts,
an ex aequo drawn with tokens, awards, a decision with its reason, paper cartons printed in
advance and sold by number, one sold twice and one unknown refused at the desk, a carton of
another série at the control desk), then closed by the organiser."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from played_evening import play
from sqlmodel import Session

from loto_app.domain import errors as err
from loto_app.domain.program import Kind
from loto_app.live.runtime.live_evening import LiveEvening
from loto_app.records.export import hour
from loto_app.records.proces_verbal import evening_pv, game_pv
from loto_app.records.report import build_report
from loto_app.storage import models as m


def pdf_text(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() for page in reader.pages)
    return re.sub(r"\s+", " ", text.replace("\u202f", " "))


@pytest.fixture(params=["sqlite", "postgresql"])
def closed(request, drivers):
    """The scripted evening on each database, closed by the organiser (game 2 never started)."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    evening = play(url)
    live = drivers(evening.store).on(evening.evening_id)
    live.run(lambda e: e.close_evening("organisateur"))
    yield evening, live
    evening.store.engine.dispose()


def test_the_paper_cartons_of_the_serie_are_reconciled(closed):
    evening, _ = closed
    paper = build_report(evening.store, evening.evening_id).paper
    assert paper is not None and paper.series == "A"
    (classique,) = paper.lines  # the paper players' cartons are classique ones tonight
    assert classique.kind == Kind.CLASSIQUE.value
    assert classique.in_advance == 6  # one planche printed in advance
    assert classique.unsold == 3  # 3 of it sold to Émile
    assert classique.printed == 3 + 6 + classique.given  # Dédé's 3 printed at the sale
    assert classique.sold == 6 and classique.cancelled == 0
    assert paper.balanced
    assert paper.count("sold") == 1  # the same carton offered twice
    assert paper.count("unknown") == 1  # a made-up number and code
    assert paper.count("wrong_series") == 1  # série Z at the control desk


def test_the_evening_procès_verbal_holds_the_record(closed):
    evening, _ = closed
    report = build_report(evening.store, evening.evening_id)
    text = pdf_text(evening_pv(report))
    assert "Procès-verbal de la soirée" in text and "Programme annoncé" in text
    g = report.games[0]
    # numbers in order with their times
    for d in g.draws[:5]:
        assert f"{d.seq}. {d.number} ({hour(d.at)})" in text
    # the commitment, the seed and the check
    assert g.draw is not None and g.draw.ok
    assert g.draw.commitment in text.replace(" ", "")
    assert g.draw.seed in text.replace(" ", "")
    assert "conforme" in text
    # claims and verdicts, the tie with its tokens, awards, the decision with its reason
    assert "Fausse annonce" in text
    tie = next(t for t in g.ties)
    for tok in tie.tokens:
        assert tok.player_name in text
    assert "Jeton tiré" in text
    assert all(w.lot in text for w in g.awards)
    assert "Boule mal lue par l'animateur" in text
    # the paper cartons, the refusals, the closing, the journal, the signatures
    assert "Cartons papier de la série A" in text
    assert "vendu deux fois" in text and "inconnu de la série" in text
    assert "Soirée close le" in text and "organisateur" in text
    assert report.audit.last_hash in text.replace(" ", "")
    assert "Signatures" in text and "Le trésorier" in text
    # the other game was never played: it is in the program, not among the games played
    assert "Parties jouées : 1 sur" in text


def test_a_game_procès_verbal(closed):
    evening, _ = closed
    report = build_report(evening.store, evening.evening_id)
    text = pdf_text(game_pv(report, 1))
    assert "Procès-verbal de la partie 1" in text
    assert report.games[0].draw.seed in text.replace(" ", "")
    with pytest.raises(ValueError, match="not been played"):
        game_pv(report, 2)


def test_a_closed_evening_accepts_nothing_more(closed):
    evening, live = closed
    with Session(evening.store.engine) as s:
        row = s.get(m.EveningRow, evening.evening_id)
        assert row.closed_at is not None and row.closed_by == "organisateur"
    seq = live.live.seq
    for move in (
        lambda e: e.join("late", "Late"),
        lambda e: e.start_game(),
        lambda e: e.hand_over(2, "Paul"),
        lambda e: e.overturn(1, "false", "organisateur", "encore"),
    ):
        with pytest.raises(err.EveningIsClosed) as refused:
            live.run(move)
        assert "close" in refused.value.user_message
    assert live.live.seq == seq
    # a restart reads it closed too
    assert LiveEvening(evening.store, evening.evening_id).evening.closed is not None
    report = build_report(evening.store, evening.evening_id)
    assert report.closed_at is not None and report.audit.ok
