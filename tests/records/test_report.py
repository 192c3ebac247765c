"""The evening report says what the database says: draws in order with their times, claims and
verdicts, the token draw, the lots, every sale and the till's totals, and the audit check."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import sqlalchemy as sa
from evening_scenario import EVENING_DATE, EVENING_NAME, Played
from sqlmodel import Session, select

from loto_app.domain.program import demo_program
from loto_app.domain.serial import lot_ticket_code
from loto_app.domain.till import SaleStatus, totals
from loto_app.domain.verdicts import VERDICT_LABELS, Verdict
from loto_app.records.export import read_report_csv, report_csv
from loto_app.records.paper import paper_pdf_for
from loto_app.records.report import PAPER_NAME, as_utc, build_report
from loto_app.storage import models as m
from loto_app.storage.evening_file import export_lines
from loto_app.storage.repository import EveningStore


def rows(p: Played, model) -> list:
    with Session(p.store.engine) as s:
        return list(s.exec(select(model).where(model.evening_id == p.evening_id)).all())


def test_header_names_the_evening(played: Played) -> None:
    r = played.report
    assert (r.name, r.date, r.series) == (EVENING_NAME, EVENING_DATE, "A")
    assert r.join_code == played.live.join_code
    labels = dict(r.settings)
    assert labels["Tirage"].startswith("boulier électronique (chaque partie engagée")
    assert "Planche de 6 (classique) : 15 €" in labels["Tarifs"]


def test_numbers_drawn_are_the_draw_table_in_order_with_their_times(played: Played) -> None:
    table = sorted(rows(played, m.DrawRow), key=lambda d: (d.game_idx, d.seq))
    report = [(g.index, d.seq, d.number, d.at) for g in played.report.games for d in g.draws]
    assert report == [(d.game_idx, d.seq, d.number, as_utc(d.at)) for d in table]
    first = played.report.games[0]
    assert list(first.numbers) == played.live.evening.games[0].drawn
    assert all(a.at <= b.at for a, b in zip(first.draws, first.draws[1:], strict=False))
    assert first.started_at <= first.draws[0].at and first.ended_at >= first.draws[-1].at


def test_games_not_played_are_listed_without_draws(played: Played) -> None:
    later = played.report.games[1:]
    assert later and all(g.status == "not_played" and not g.draws for g in later)
    assert played.report.games[0].status_label == "Terminée"


def test_claims_carry_time_player_carton_number_and_french_verdict(played: Played) -> None:
    table = {c.no: c for c in rows(played, m.ClaimRow)}
    claims = played.report.games[0].claims
    assert [c.no for c in claims] == sorted(table)
    names = played.live.evening.players
    for c in claims:
        row = table[c.no]
        assert (c.carton_no, c.number, c.verdict, c.via) == (
            row.carton_no,
            row.number,
            row.verdict,
            row.via,
        )
        assert c.at == as_utc(row.at)
        assert c.verdict_label == VERDICT_LABELS[Verdict(row.verdict)]
        assert c.player_name == (names[row.player_id] if row.player_id else PAPER_NAME)
    verdicts = Counter(c.verdict for c in claims)
    assert verdicts[Verdict.FALSE] == 1 and verdicts[Verdict.WRONG_SERIES] == 1
    assert verdicts[Verdict.VALID] >= 3
    false = next(c for c in claims if c.verdict == Verdict.FALSE)
    assert (false.player_name, false.carton_no) == ("Ana", played.info["false_claim_carton"])
    assert false.verdict_label.startswith("Fausse annonce")
    other = next(c for c in claims if c.verdict == Verdict.WRONG_SERIES)
    assert (other.player_name, other.via_label) == (PAPER_NAME, "Comptoir")


def test_the_token_draw_says_who_drew_which_token(played: Played) -> None:
    table = rows(played, m.TieBreakRow)
    ties = played.report.games[0].ties
    assert len(ties) == len(table) >= 1
    names = played.live.evening.players
    for tie, row in zip(ties, sorted(table, key=lambda t: t.stage_idx), strict=True):
        assert tie.method == row.method == "draw"
        assert [(t.player_id, t.token) for t in tie.tokens] == [tuple(t) for t in row.tokens]
        best = max(tie.tokens, key=lambda t: t.token)
        assert [t.player_name for t in tie.tokens if t.won] == [best.player_name]
        assert tie.winners == tuple(names[p] for p in row.winners)
        losers = {t.player_name for t in tie.tokens if not t.won}
        assert {name for name, _ in tie.consolations} == losers
    free = {
        n for p in rows(played, m.PurchaseRow) if p.reason == "consolation" for n in p.carton_nos
    }
    assert {n for t in ties for _, nos in t.consolations for n in nos} == free
    assert played.report.till.free_cartons == len(free)


def test_lots_match_the_award_table_and_the_engine(played: Played) -> None:
    table = {a.ticket_no: a for a in rows(played, m.AwardRow)}
    awards = [a for g in played.report.games for a in g.awards]
    assert (
        sorted(a.ticket_no for a in awards)
        == sorted(table)
        == sorted(played.live.evening.tickets())
    )
    key = played.live.evening.key
    for a in awards:
        row = table[a.ticket_no]
        assert (a.player_id, a.share, a.code) == (row.player_id, row.share, row.code)
        assert a.code == lot_ticket_code(key, "A", a.ticket_no, a.player_id)
        assert (a.handed_over, a.handed_by) == (row.handed_over, row.handed_by)
        stage = played.live.evening.program.games[a.game].stages[a.stage]
        assert (a.lot, a.stage_label) == (stage.lot.description, stage.label)
    handed = [a for a in awards if a.handed_over]
    assert [(a.ticket_no, a.handed_by) for a in handed] == [(1, "Paul")]
    assert handed[0].handed_at is not None and handed[0].handed_at >= handed[0].at


def test_every_sale_line_matches_the_sale_table(played: Played) -> None:
    table = {s.no: s for s in rows(played, m.SaleRow)}
    sales = played.report.sales
    assert [s.no for s in sales] == sorted(table)
    for s in sales:
        row = table[s.no]
        assert (s.status, s.amount_cents, s.method, s.seller, s.cashier) == (
            row.status,
            row.amount_cents,
            row.method,
            row.seller,
            row.cashier,
        )
        assert (s.cancelled_by, s.cancel_reason, s.refunded_cents) == (
            row.cancelled_by,
            row.cancel_reason,
            row.refunded_cents,
        )
        assert s.at == as_utc(row.at)
    by_no = {s.no: s for s in sales}
    confirmed = by_no[played.info["confirmed"]]
    assert (confirmed.status_label, confirmed.method_label, confirmed.cashier) == (
        "Payée",
        "Carte",
        "Jeanne",
    )
    assert confirmed.settled_at > confirmed.at and confirmed.carton_nos
    cancelled = by_no[played.info["cancelled"]]
    assert (cancelled.status_label, cancelled.refunded_cents, cancelled.carton_nos) == (
        "Annulée",
        0,
        (),
    )
    refunded = by_no[played.info["refunded"]]
    assert refunded.status_label == "Remboursée"
    assert refunded.refunded_cents == refunded.amount_cents > 0
    assert refunded.cancel_reason == "Erreur de type de carton"


def test_totals_are_paid_sales_minus_refunds_and_match_the_engine(played: Played) -> None:
    t = played.report.till
    sales = rows(played, m.SaleRow)
    ever_paid = [s for s in sales if s.status == "paid" or s.refunded_cents]
    assert t.collected_cents == sum(s.amount_cents for s in ever_paid)
    assert t.refunded_cents == sum(s.refunded_cents for s in sales) > 0
    assert t.received_cents == t.collected_cents - t.refunded_cents
    assert t.pending_cents == 0
    engine = totals(list(played.live.evening.sales.values()))
    assert (t.received_cents, t.refunded_cents, t.pending_cents, t.sales, t.cartons) == (
        engine.received_cents,
        engine.refunded_cents,
        engine.pending_cents,
        engine.sales,
        engine.cartons,
    )
    assert dict(t.by_seller) == engine.by_seller
    assert {k: c for k, _, c in t.by_kind} == engine.by_kind
    assert {k: c for k, _, c in t.by_method} == engine.by_method
    assert sum(c for _, c in t.by_seller) == t.received_cents
    assert (t.closed, t.closed_by) == (True, "Jeanne")
    assert t.cancelled == sum(
        s.status is SaleStatus.CANCELLED for s in played.live.evening.sales.values()
    )


def test_players_are_counted_by_origin(played: Played) -> None:
    table = Counter(p.origin for p in rows(played, m.PlayerRow))
    assert {o: n for o, _, n in played.report.origins if n} == dict(table)
    assert len(played.report.players) == sum(table.values())
    held = {p.name: p.cartons for p in played.report.players}
    e = played.live.evening
    assert held == {
        e.players[pid]: len([c for c in e.player_cartons(pid) if c.no not in e.voided])
        for pid in e.players
    }


def test_the_audit_check_of_an_intact_log(played: Played) -> None:
    a = played.report.audit
    assert a.ok, (a.problems, a.consistency)
    assert a.entries == len(rows(played, m.AuditRow)) == played.live.seq == a.last_seq
    assert a.last_hash == played.live.last_hash


def test_a_tampered_log_is_reported(tmp_path, drivers) -> None:
    from loto_app.storage.db import make_engine
    from loto_app.storage.migrations import upgrade

    url = f"sqlite:///{tmp_path / 'tampered.db'}"
    upgrade(url)
    engine = make_engine(url)
    store = EveningStore(engine)
    eid = store.create_evening("Loto truqué", demo_program("T")).evening_id
    live = drivers(store).on(eid)
    live.run(lambda e: e.join("p1", "Paul"))
    live.run(lambda e: e.desk_sale("p1", 0, "cash", "Marie", rng=random.Random(1)))
    live.run(lambda e: e.start_game())
    rng = random.Random(2)
    for _ in range(5):
        live.run(lambda e: e.draw(rng))
    assert build_report(store, eid).audit.ok
    with engine.begin() as c:
        seq, payload = c.execute(
            sa.text(
                "SELECT seq, payload FROM audit_log WHERE evening_id = :e AND type = 'number_drawn'"
                " ORDER BY seq LIMIT 1"
            ),
            {"e": eid},
        ).one()
        payload = json.loads(payload) if isinstance(payload, str) else payload
        drawn = live.evening.games[0].drawn
        payload["number"] = next(n for n in range(1, 91) if n not in drawn)
        c.execute(
            sa.text("UPDATE audit_log SET payload = :p WHERE evening_id = :e AND seq = :s"),
            {"p": json.dumps(payload), "e": eid, "s": seq},
        )
    report = build_report(store, eid)
    assert not report.audit.ok
    assert report.audit.problems == tuple(store.verify_audit(eid))
    assert f"entry {seq}: content does not match its hash" in report.audit.problems
    assert any(p.startswith(f"Entrée {seq} : contenu modifié") for p in report.audit.problems_fr)
    # the log now says another number than the draw table: the report shows the log, and says so
    assert report.games[0].numbers[0] == payload["number"]
    assert any("table des tirages" in p for p in report.audit.consistency)
    audit_rows = read_report_csv(report_csv(report))["audit"]
    assert {"champ": "Vérification", "valeur": "ANOMALIES"} in audit_rows
    assert any(r["champ"] == "Anomalie" and f"Entrée {seq}" in r["valeur"] for r in audit_rows)
    engine.dispose()


def test_a_dispute_is_on_the_report_with_who_decided_and_why(played: Played) -> None:
    """The scenario's decision (art. 8): ana's false claim judged valid by the organiser."""
    (game, *_) = played.report.games
    false = next(c for c in game.claims if c.verdict == Verdict.FALSE)
    assert false.decided == VERDICT_LABELS[Verdict.VALID]  # the app's verdict stays, beside it
    (decision,) = game.decisions
    assert (decision.by, decision.by_label, decision.player_name) == (
        "organisateur",
        "Organisateur",
        "Ana",
    )
    assert decision.claim_no == false.no and "devient « Annonce valide »" in decision.what
    assert decision.reason == "Boule mal lue par l'animateur"
    tables = read_report_csv(report_csv(played.report))
    (row,) = tables["litiges"]
    assert (row["décidé par"], row["joueur"], row["motif"]) == (
        "Organisateur",
        "Ana",
        "Boule mal lue par l'animateur",
    )
    (claim_row,) = [a for a in tables["annonces"] if int(a["annonce"]) == false.no]
    assert claim_row["décision"] == VERDICT_LABELS[Verdict.VALID]


def test_an_unknown_evening_is_a_key_error_wherever_it_is_read(played: Played) -> None:
    """One read of the evening's row and série (`eventlog.evening_rows`) for the report, the
    evening file, the paper cartons and the program: an evening that is not there is a
    KeyError, as their docstrings say."""
    unknown = played.evening_id + 1000
    reads = [
        lambda: build_report(played.store, unknown),
        lambda: list(export_lines(played.store, unknown)),
        lambda: paper_pdf_for(played.store, unknown, [1]),
        lambda: EveningStore(played.store.engine).current_program(unknown),
    ]
    for read in reads:
        with pytest.raises(KeyError, match=f"no evening {unknown}"):
            read()
    assert build_report(played.store, played.evening_id).evening_id == played.evening_id
