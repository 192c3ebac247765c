"""Every text/background pair of the app reaches 4.5:1 as normal text, computed from the colour
values themselves (no browser, no fonts: whether a text counts as "large" depends on the fonts a
machine renders, so no pair may lean on the large-text exemption). The browser tests also run
axe on the real pages; this test makes the palette itself the thing that is checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loto_app.components import palette
from loto_app.components.palette import (
    DARK_TEXTS,
    FILLS,
    LIGHT_BACKGROUNDS,
    ON_SOLID,
    SCALES,
    contrast,
    pairs,
    radix_css,
    step,
)

APP = Path(__file__).resolve().parents[2] / "loto_app"
NORMAL_TEXT = 4.5


def test_contrast_matches_the_wcag_reference_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)
    # the two failures axe reported with Radix's own red (issue: 4.17 and 3.9)
    assert contrast("#ce262b", "#ffdbdc") == pytest.approx(4.17, abs=0.01)
    assert contrast("#ffffff", "#e5484d") == pytest.approx(3.91, abs=0.01)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_every_pair_reaches_4_5_to_1() -> None:
    checked = list(pairs())
    low = [
        f"{what}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"
        for what, fg, bg in checked
        if contrast(fg, bg) < NORMAL_TEXT
    ]
    assert len(checked) > 300 and not low, "\n".join(low)


# What Radix Themes 3.3 paints for each variant (components.css), in steps of the scale: the
# text step on the background steps, hover and pressed states included.
RADIX_VARIANTS = {
    "solid": [("contrast", 9), ("contrast", 10)],
    "solid, high contrast": [("gray-1", 12)],
    "soft": [(11, 3), (11, 4), (11, 5)],
    "soft, high contrast": [(12, 3), (12, 4), (12, 5)],
    "outline / ghost / surface": [(11, "page"), (11, 2), (11, 3), (11, 4)],
    "disabled": [("gray-8", "gray-3"), ("gray-8", "page")],
}


def _colour(scale: str, ref: int | str) -> list[str]:
    if ref == "contrast":
        return [ON_SOLID]
    if ref == "page":
        return [palette.PAPER, palette.WHITE]
    if isinstance(ref, str):
        name, n = ref.split("-")
        return [step(name, int(n))]
    return [step(scale, ref)]


@pytest.mark.parametrize("scale", sorted(SCALES))
@pytest.mark.parametrize("variant", sorted(RADIX_VARIANTS))
def test_every_radix_variant_of_every_scale_reads(scale: str, variant: str) -> None:
    for fg_ref, bg_ref in RADIX_VARIANTS[variant]:
        for fg in _colour(scale, fg_ref):
            for bg in _colour(scale, bg_ref):
                assert contrast(fg, bg) >= NORMAL_TEXT, (
                    f"{scale} {variant}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"
                )


def test_the_families_are_not_empty_and_cover_the_scales() -> None:
    assert len(LIGHT_BACKGROUNDS) >= 5 * len(SCALES)
    for scale in SCALES:
        assert step(scale, 11) in DARK_TEXTS and step(scale, 9) in FILLS


def test_the_css_overrides_every_step_with_the_tested_values() -> None:
    css = radix_css()
    assert css.startswith("html .radix-themes{")  # beats Radix's `:root, .light` (0,1,0)
    declared = dict(re.findall(r"--([\w-]+):([^;]+);", css))
    for scale, steps in SCALES.items():
        assert len(steps) == 12
        for n, value in enumerate(steps, start=1):
            # the translucent "a" steps are opaque: what the test computes is what is painted
            assert declared[f"{scale}-{n}"] == value
            assert declared[f"{scale}-a{n}"] == value
        assert declared[f"{scale}-contrast"] == ON_SOLID


def _sources() -> list[Path]:
    return [p for p in APP.rglob("*.py") if p.name != "palette.py"]


def test_no_colour_literal_outside_the_palette() -> None:
    """Pages and components paint with the palette's tokens: a new colour is added there, where
    the test above checks it."""
    found = [
        f"{p.relative_to(APP)}:{i}: {m.group(0)}"
        for p in _sources()
        for i, line in enumerate(p.read_text().splitlines(), start=1)
        for m in re.finditer(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(", line)
    ]
    assert not found, "colours typed outside components/palette.py:\n" + "\n".join(found)


RADIX_COLOURS = frozenset(
    [
        "tomato", "red", "ruby", "crimson", "pink", "plum", "purple", "violet", "iris",
        "indigo", "blue", "cyan", "teal", "jade", "green", "grass", "brown", "orange", "sky",
        "mint", "lime", "yellow", "amber", "gold", "bronze", "gray", "mauve", "slate", "sage",
        "olive", "sand",
    ]
)  # fmt: skip


def test_only_the_palette_scales_are_used() -> None:
    """A Radix colour named anywhere in the app (a `color_scheme`, in a `cond` or a `match`) is
    one of the tested scales."""
    named = {
        (p.relative_to(APP), name)
        for p in _sources()
        for name in re.findall(r'"(\w+)"', p.read_text())
        if name in RADIX_COLOURS
    }
    assert {n for _, n in named} >= {"red", "green"}
    unknown = sorted((str(p), n) for p, n in named if n not in SCALES)
    assert not unknown, f"colour schemes without tested values: {unknown}"
