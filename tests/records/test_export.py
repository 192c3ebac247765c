"""The report's files: a CSV a treasurer opens in LibreOffice or Excel (and that reads back), a
readable, deterministic PDF in French."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pypdf
from evening_scenario import EVENING_NAME, Played

from loto_app.domain.engine import Evening
from loto_app.domain.program import demo_program
from loto_app.records._pdf import fold_cp1252
from loto_app.records.export import SECTIONS, amount, read_report_csv, report_csv, report_pdf
from loto_app.records.report import report_from_entries
from loto_app.wording import euros


def pdf_text(data: bytes) -> str:
    """Every page's text, with spaces (incl. narrow no-break ones) folded to one space."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() for page in reader.pages)
    return re.sub(r"\s+", " ", text.replace("\u202f", " "))


def test_csv_is_utf8_with_bom_semicolons_and_reads_back(played: Played) -> None:
    data = report_csv(played.report)
    assert data.startswith("\ufeff".encode())
    first = data.decode("utf-8-sig").splitlines()[0]
    assert first == "section;champ;valeur"
    tables = read_report_csv(data)
    assert set(tables) == set(SECTIONS)
    # every data row of the raw file has the section column and as many cells as its header
    header: list[str] = []
    for row in csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"):
        if row and row[0] == "section":
            header = row
        elif row:
            assert row[0] in SECTIONS and len(row) == len(header)
    soiree = {r["champ"]: r["valeur"] for r in tables["soiree"]}
    assert soiree["Soirée"] == EVENING_NAME and soiree["Série"] == "A"


def test_csv_tables_hold_the_report(played: Played) -> None:
    r = played.report
    tables = read_report_csv(report_csv(r))
    assert [(int(t["partie"]), int(t["ordre"]), int(t["numéro"])) for t in tables["tirages"]] == [
        (g.number, d.seq, d.number) for g in r.games for d in g.draws
    ]
    assert [int(v["vente"]) for v in tables["ventes"]] == [s.no for s in r.sales]
    assert [v["montant (€)"] for v in tables["ventes"]] == [amount(s.amount_cents) for s in r.sales]
    assert {v["état"] for v in tables["ventes"]} == {"Payée", "Annulée", "Remboursée"}
    totaux = {(t["rubrique"], t["détail"]): t["montant (€)"] for t in tables["totaux"]}
    assert totaux["Net en caisse", ""] == amount(r.till.received_cents)
    assert totaux["Remboursé", ""] == amount(r.till.refunded_cents)
    assert totaux["Par vendeur", "Marie"] == amount(dict(r.till.by_seller)["Marie"])
    verdicts = {a["verdict"] for a in tables["annonces"]}
    assert any(v.startswith("Fausse annonce") for v in verdicts)
    tokens = [(t["joueur"], int(t["jeton"]), t["gagnant"]) for t in tables["ex_aequo"]]
    assert tokens == [
        (k.player_name, k.token, "oui" if k.won else "non")
        for g in r.games
        for t in g.ties
        for k in t.tokens
    ]
    lots = {int(t["ticket"]): t for t in tables["lots"]}
    assert (lots[1]["remis"], lots[1]["remis par"]) == ("oui", "Paul")
    assert {"champ": "Vérification", "valeur": "journal intact"} in tables["audit"]


def test_csv_never_hands_a_formula_to_the_spreadsheet() -> None:
    e = Evening(demo_program("A"))
    e.join("p1", '=HYPERLINK("x")')
    e.desk_sale("p1", 0, "cash", "+Marie")
    t0 = datetime(2025, 3, 1, 19, tzinfo=UTC)
    entries = [(i + 1, t0 + timedelta(seconds=i), x) for i, x in enumerate(e.history)]
    tables = read_report_csv(report_csv(report_from_entries(entries, e.program, name="@soirée")))
    assert tables["joueurs"][0]["joueur"] == '\'=HYPERLINK("x")'
    assert tables["ventes"][0]["vendeur"] == "'+Marie"
    assert tables["soiree"][0]["valeur"] == "'@soirée"


def test_report_pdf_has_the_numbers_the_totals_and_the_verdicts(played: Played) -> None:
    r = played.report
    data = report_pdf(r)
    assert data.startswith(b"%PDF-")
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert reader.pages[0].mediabox.width == 595.28 or round(reader.pages[0].mediabox.width) == 595
    text = pdf_text(data)
    assert EVENING_NAME in text
    for g in r.games:
        for d in g.draws:
            assert f"{d.seq}. {d.number} (" in text
    t = r.till
    for cents in (t.collected_cents, t.refunded_cents, t.received_cents):
        assert euros(cents).replace("\u202f", " ") in text
    assert "Litiges : décisions de l'association (art. 8)" in text
    assert "Boule mal lue par l'animateur" in text
    for word in ("Fausse annonce", "Annonce valide", "Carton d'une autre série", "Remboursée"):
        assert word in text
    for k in (k for g in r.games for tie in g.ties for k in tie.tokens):
        assert f"{k.player_name} {k.token}" in text
    assert "fermée par Jeanne" in text and "journal intact" in text.lower()
    assert r.audit.last_hash in text.replace(" ", "")


def test_report_pdf_is_deterministic(played: Played) -> None:
    assert report_pdf(played.report) == report_pdf(played.report)


def test_report_pdf_with_core_fonts_still_prints_euros_and_accents(played: Played) -> None:
    text = pdf_text(report_pdf(played.report, unicode_font=False))
    assert euros(played.report.till.received_cents).replace("\u202f", " ") in text
    assert "Série" in text and "Remboursée" in text
    assert "Partie 1 — Partie classique : Quine -> Double quine -> Carton plein" in text


def test_fold_cp1252_keeps_french_and_euro() -> None:
    assert fold_cp1252("Élodie paie 1\u202f234,50 € → œuf") == "Élodie paie 1 234,50 € -> œuf"
    assert fold_cp1252("ĉ ✓ 中") == "c v ?"
