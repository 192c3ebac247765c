"""The evening's règlement (domain/reglement.py): generated from the program and its settings,
it follows every setting and says what the engine enforces."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import TOGETHER, game_specs, setting_values, settings_values
from test_engine_claims import tie_on
from test_engine_rules import QUINE_DIVISIBLE

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.carton_kinds import KINDS
from loto_app.domain.games import DEFAULT_TYPES, TIE_MEANINGS, TieRule
from loto_app.domain.program import (
    KIND_LABELS,
    DrawSource,
    GameSpec,
    Kind,
    Lot,
    Offer,
    Pattern,
    Program,
    Settings,
    Stage,
    TieMethod,
    TokenSource,
    demo_program,
)
from loto_app.domain.reglement import PATTERN_MEANINGS, TITLE, reglement
from loto_app.domain.settings_catalog import BY_NAME as SETTING_SPECS
from loto_app.domain.settings_catalog import NOT_ANNOUNCED


def text_of(program: Program, association: str = "Comité des fêtes") -> str:
    return reglement(program, association).text()


def article(program: Program, title: str) -> str:
    (a,) = [a for a in reglement(program).articles if a.title == title]
    return " ".join(a.paragraphs)


def test_the_demo_evening_names_its_association_series_games_lots_and_prices():
    p = demo_program("B7")
    r = reglement(p, "Comité des fêtes de Lunel")
    text = r.text()
    assert r.title == f"{TITLE} — Comité des fêtes de Lunel"
    assert text.startswith(r.title)
    assert "l'association organisatrice (Comité des fêtes de Lunel)" in text
    assert "Série de ce soir : « B7 »" in text
    for i, g in enumerate(p.games, start=1):
        assert f"Partie {i} ({KIND_LABELS[g.kind].lower()})" in text
        for s in g.stages:
            assert f"{s.label}, {PATTERN_MEANINGS[s.pattern]} — {s.lot.description}" in text
    assert "planche de 6 : 15 €" in text and "1 vitrine : 5 €" in text
    assert "Carton classique" in text and "les parties 1 et 2" in text
    assert "Grille maxiquine" in text and "les parties 5 et 6" in text
    # the articles are numbered in order, each with something to say
    assert [a.no for a in r.articles] == list(range(1, len(r.articles) + 1))
    assert all(a.paragraphs and all(a.paragraphs) for a in r.articles)
    assert r.as_dicts()[0] == {
        "no": 1,
        "title": r.articles[0].title,
        "paragraphs": list(r.articles[0].paragraphs),
    }


def test_only_the_kinds_played_tonight_are_described():
    p = Program("A", (QUINE_DIVISIBLE,))
    text = text_of(p)
    assert "Carton classique" in text
    assert "Vitrine :" not in text and "maxiquine" not in text.lower()
    assert "Tarif classique" in text and "Tarif des vitrines" not in text


def test_the_last_call_follows_its_setting_and_the_engine_opens_it_for_that_long():
    for seconds in (1, 5, 12, 30):
        p = demo_program().with_settings(last_call_seconds=seconds)
        plural = "s" if seconds > 1 else ""
        assert f"pendant {seconds} seconde{plural}," in article(p, "Ex aequo")
        assert "Pas de dernier appel" not in text_of(p)
    assert "Pas de dernier appel ce soir" in text_of(
        demo_program().with_settings(last_call_seconds=0)
    )
    # what the text says is what the engine does
    e, mine, _ = tie_on(QUINE_DIVISIBLE, 2, last_call=12)
    opened = [x for x in e.claim("p0", mine["p0"]) if isinstance(x, ev.LastCallOpened)]
    assert [x.seconds for x in opened] == [12]
    assert "pendant 12 secondes" in text_of(e.program)
    e, mine, _ = tie_on(QUINE_DIVISIBLE, 2, last_call=0)
    assert not [x for x in e.claim("p0", mine["p0"]) if isinstance(x, ev.LastCallOpened)]
    assert "Pas de dernier appel ce soir" in text_of(e.program)


def test_the_tie_method_follows_its_setting_and_the_engine_refuses_a_share_it_does_not_announce():
    share = article(demo_program(), "Ex aequo")
    assert "proposé de le partager" in share and "Bons d'achat 100 €" in share
    assert "Panier garni" not in share  # not divisible
    # draw only: no share in the text, and the engine refuses one
    e, mine, _ = tie_on(QUINE_DIVISIBLE, 2, tie=TieMethod.DRAW)
    text = article(e.program, "Ex aequo")
    assert "pas de partage" in text and "partager" not in text
    for p, no in mine.items():
        e.claim(p, no)
    with pytest.raises(err.ShareNotAllowed):
        e.offer_share()
    # share or draw: the text offers the share of this divisible lot, and so does the engine
    e, mine, _ = tie_on(QUINE_DIVISIBLE, 2, tie=TieMethod.SHARE_OR_DRAW)
    assert "Bon d'achat 40 €" in article(e.program, "Ex aequo")
    for p, no in mine.items():
        e.claim(p, no)
    assert any(isinstance(x, ev.ShareOffered) for x in e.offer_share())
    # share allowed but nothing divisible tonight: the text says so
    solid = Program("A", (GameSpec(Kind.SPECIAL, (Stage(Pattern.FULL_CARD, Lot("Vélo")),)),))
    assert "Aucun lot n'est partageable ce soir" in article(solid, "Ex aequo")


def test_the_token_source_follows_its_setting():
    app = article(demo_program().with_settings(token_source=TokenSource.APP), "Ex aequo")
    bag = article(demo_program().with_settings(token_source=TokenSource.BAG), "Ex aequo")
    assert "l'application tire" in app and "dans le sac" not in app
    assert "dans le sac" in bag and "l'application tire" not in bag
    # a physical boulier takes its tokens from the bag by default, and says so
    physical = demo_program().with_settings(draw_source=DrawSource.PHYSICAL)
    assert "dans le sac" in article(physical, "Ex aequo")
    assert "boulier de la salle" in article(physical, "Le tirage")
    assert "rien n'est engagé à l'avance" in article(physical, "Le tirage")
    electronic = article(demo_program(), "Le tirage")
    assert "boulier électronique" in electronic
    assert "empreinte" in electronic and "graine est publiée" in electronic
    assert "engagé" not in article(physical, "L'achat des cartons")
    assert "tirage est alors engagé" in article(demo_program(), "L'achat des cartons")


def test_marking_demarquage_and_the_claim_hint_follow_their_settings():
    manual = article(demo_program(), "Marquer et démarquer")
    auto = article(demo_program().with_settings(auto_marking=True), "Marquer et démarquer")
    hint = article(demo_program().with_settings(claim_hint=True), "Marquer et démarquer")
    assert "Marquez vous-même" in manual and "d'eux-mêmes" not in manual
    assert "se marquent d'eux-mêmes" in auto and "Marquez vous-même" not in auto
    assert "ne signale pas" in manual and "signale quand" in hint
    for text in (manual, auto, hint):
        assert "« Démarquer » reste bloqué" in text
    one = article(demo_program().with_settings(one_to_go=True), "Marquer et démarquer")
    assert "combien de numéros il manque" in one
    assert "combien de numéros il manque" not in manual


def test_free_cartons_remote_play_and_the_tariff_follow_their_settings():
    tariff = (Offer(Kind.CLASSIQUE, 1, 250), Offer(Kind.CLASSIQUE, 4, 850))
    p = Program("A", (QUINE_DIVISIBLE,), offers=tariff)
    buying = article(p, "L'achat des cartons")
    assert "Tarif classique : 1 carton : 2,50 € ; 4 cartons : 8,50 €." in buying
    assert "uniquement dans la salle" in buying and "pas de jeu à distance" in buying
    free = article(p.with_settings(free_cartons=True), "L'achat des cartons")
    assert "cartons sont offerts" in free and "Tarif" not in free
    on = p.with_settings(remote_play=True, remote_cap=12, remote_confirmed=True)
    remote = article(on, "L'achat des cartons")
    assert "réservé aux personnes invitées par l'association" in remote
    assert "valable sur un seul téléphone" in remote
    assert "dans la limite de 12 joueurs à distance" in remote
    assert "tirage fait en direct dans la salle" in remote and "sans paiement en ligne" in remote
    one = article(on.with_settings(remote_cap=1), "L'achat des cartons")
    assert "dans la limite de 1 joueur à distance." in one


def test_without_an_association_name_the_text_says_the_association():
    r = reglement(demo_program(), "   ")
    assert r.title == TITLE
    assert "réglé par l'association." in r.text()


@st.composite
def programs(draw: st.DrawFn) -> Program:
    """A random valid program: 1-8 games of any type (`strategies.game_specs`), and random
    settings: every field of `Settings` (`strategies.settings_values`)."""
    games = draw(st.lists(game_specs(), min_size=1, max_size=8))
    s = draw(settings_values())
    return Program(draw(st.sampled_from(["A", "B7", "ZZ-2"])), tuple(games), s)


@settings(max_examples=60, deadline=None)
@given(programs(), st.sampled_from([f.name for f in dataclasses.fields(Settings)]))
def test_the_reglement_tells_apart_every_value_of_every_setting(p: Program, name: str):
    """Every field of `Settings` is mentioned: the règlement of two programs that differ in
    this one setting differs (a new setting fails here until the règlement says it), and
    says what its catalog entry says of each value, in its article."""
    texts: dict[object, str] = {}
    if name in NOT_ANNOUNCED:
        assert not SETTING_SPECS[name].reglement, name
        return
    for value in setting_values(name):
        q = p.with_settings(**{**TOGETHER.get(name, {}), name: value})
        r = reglement(q)
        texts.setdefault(getattr(q.settings, name), r.text())
        spec = SETTING_SPECS[name]
        assert spec.reglement, f"{name}: its catalog entry says nothing in the règlement"
        for said in spec.reglement:
            (article,) = [a for a in r.articles if a.no == said.article]
            for paragraph in said.say(q):
                assert paragraph in article.paragraphs, (name, value, paragraph)
    assert len(set(texts.values())) == len(texts), f"the règlement does not tell {name} apart"


@settings(max_examples=150, deadline=None)
@given(programs())
def test_every_game_stage_lot_and_setting_of_any_program_is_mentioned(p: Program):
    r = reglement(p, "Les Amis du Loto")
    text = r.text()
    lines = r.articles[1].paragraphs
    for i, g in enumerate(p.games, start=1):
        (line,) = [x for x in lines if x.startswith(f"Partie {i} ")]
        gt = g.game_type
        if gt is DEFAULT_TYPES[g.kind] and g.kind in KIND_CARTONS_START:
            assert f"({KIND_LABELS[g.kind].lower()})" in line
        else:
            assert f"({gt.label.lower()}, {KINDS[g.kind].many}, {gt.summary})" in line
        assert (f"Ex aequo : {TIE_MEANINGS[g.tie]}." in line) == (g.tie is not TieRule.EVENING)
        assert ("Partie ajoutée pendant la soirée." in line) == g.improvised
        if g.title:
            assert f"« {g.title} »" in line
        for s in g.stages:
            assert f"{s.label}, {PATTERN_MEANINGS[s.pattern]} — {s.lot.description}" in line
        assert line.count(" ; puis ") == len(g.stages) - 1
    for kind in p.kinds():
        nos = [str(i) for i, g in enumerate(p.games, start=1) if g.kind is kind]
        start = KINDS[kind].reglement.split(" :")[0]
        (para,) = [x for x in r.articles[0].paragraphs if x.startswith(start)]
        said = (
            f"la partie {nos[0]}"
            if len(nos) == 1
            else f"les parties {', '.join(nos[:-1])} et {nos[-1]}"
        )
        assert para.endswith(f" : {said}."), para
    lc = p.settings.last_call_seconds
    assert (f"pendant {lc} seconde" in text) == (lc > 0)
    assert ("pas de partage" in text) == (p.settings.tie_method is TieMethod.DRAW)
    assert ("dans le sac" in text) == (p.settings.token_source is TokenSource.BAG)
    assert ("cartons sont offerts" in text) == p.settings.free_cartons
    cap = p.settings.remote_cap
    said = f"dans la limite de {cap} joueur{'s' if cap > 1 else ''} à distance."
    assert (said in text) == p.settings.remote_play
    assert ("pas de jeu à distance" in text) == (not p.settings.remote_play)
    assert f"« {p.series} »" in text and "Les Amis du Loto" in text


KIND_CARTONS_START = {
    Kind.CLASSIQUE: "Carton classique",
    Kind.SPECIAL: "Carton spécial",
    Kind.VITRINE: "Vitrine",
    Kind.MAXIQUINE: "Grille maxiquine",
}
