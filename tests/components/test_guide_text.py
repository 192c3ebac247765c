"""The volunteers' guide (docs/GUIDE.md) as the `/aide` page reads it (pages/guide_text.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loto_app.components.help_link import SECTIONS
from loto_app.pages import guide_text
from loto_app.pages.guide_text import NBSP, NNBSP, french, parse, runs

PLAIN_BEFORE = re.compile(r"[ \t][:;!?»]|«[ \t]")


def texts(guide: guide_text.Guide) -> list[str]:
    out = [guide.title]
    for part in (guide.intro, *(s.blocks for s in guide.sections)):
        for b in part:
            out += b.lines if b.kind != "picture" else b.lines[:1]
    return out + [s.title for s in guide.sections]


def test_the_guide_has_the_evening_in_order_and_each_staff_page_its_section() -> None:
    guide = guide_text.load()
    anchors = [s.anchor for s in guide.sections]
    assert anchors[:4] == ["avant", "caisse", "parties", "apres"]
    assert set(SECTIONS.values()) <= set(anchors)  # every help link lands on a section


def test_the_guide_is_typed_the_french_way() -> None:
    for line in texts(guide_text.load()):
        assert not PLAIN_BEFORE.search(line), line
        assert "**" not in "".join(t for t, _ in runs(line)), line


def test_the_guide_has_no_part_left_to_complete() -> None:
    """Every feature's section is written: no "À compléter" placeholder left."""
    guide = guide_text.load()
    texts = [line for s in guide.sections for b in s.blocks for line in b.lines]
    assert texts and not [t for t in texts if "À compléter" in t]


def test_every_picture_is_named_once() -> None:
    names = guide_text.load().pictures()
    assert names and len(names) == len(set(names))


def test_blocks_of_the_markdown_subset() -> None:
    guide = parse(
        "# Titre\n\nIntro **gras** ici.\n\n## Un {#un}\n\n### Sous\n\n1. premier\n   suite\n"
        "2. second\n\n- point : un\n\n> note\n> encore\n\n![Légende](une-image.png)\n"
    )
    assert guide.title == "Titre"
    assert runs(guide.intro[0].lines[0]) == [("Intro ", False), ("gras", True), (" ici.", False)]
    (section,) = guide.sections
    assert (section.anchor, section.title) == ("un", "Un")
    assert [(b.kind, b.lines) for b in section.blocks] == [
        ("h3", ("Sous",)),
        ("ol", ("premier suite", "second")),
        ("ul", (f"point{NBSP}: un",)),
        ("note", ("note encore",)),
        ("picture", ("Légende", "une-image.png")),
    ]
    assert guide.pictures() == ["une-image.png"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Pas de titre\n", "starts with"),
        ("# T\n## Sans ancre\n", "needs its anchor"),
        ("# T\n## A {#a}\n## B {#a}\n", "share an anchor"),
        ("# T\n# Deux\n", "one '# Title'"),
        ("# T\n\nun **gras sans fin\n", "unbalanced"),
    ],
)
def test_a_malformed_guide_is_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        parse(text)


def test_french_spacing() -> None:
    assert french("Oui : « QUINE ! » ; non ?") == (
        f"Oui{NBSP}: «{NBSP}QUINE{NNBSP}!{NBSP}»{NNBSP}; non{NNBSP}?"
    )
    assert french("20:30, http://x") == "20:30, http://x"


@given(st.text(alphabet=" ab:;!?«»", max_size=30))
def test_french_spacing_leaves_no_plain_space_and_is_stable(text: str) -> None:
    once = french(text)
    assert not PLAIN_BEFORE.search(once)
    assert french(once) == once
    kept = once.replace(NBSP, "").replace(NNBSP, "").replace(" ", "")
    assert kept == text.replace(" ", "")  # only spaces change
