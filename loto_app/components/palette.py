"""Every colour the app paints with, and the contrast rule they obey.

Pure Python (no Reflex): `tests/components/test_palette.py` computes the WCAG contrast of every
text/background pair from these values, so no pair depends on the fonts a browser renders (a
pair that passes only as "large text" fails on the next machine). The rule: **every text colour
reaches 4.5:1 on every background it may sit on**, as normal text.

Two families of pairs:

- The Radix Themes colour scales the app uses (`SCALES`: red is the accent, gray, green, orange,
  indigo). Their steps are overridden (`radix_css()`, put in the page head by `loto_app.py`):
  steps 1-5 are light backgrounds, 9-10 solid fills under white text, 11-12 text, 8 the text of a
  disabled control (and borders). The translucent "a" steps are made opaque (equal to the steps),
  so that what the test computes is what the browser paints. With these, every Radix variant is
  safe: solid (white on 9, hover 10), soft (11 on 3, hover 4, pressed 5), outline/ghost/surface
  (11 on the page or a box), high contrast (12), disabled (8 on 3, or on the page).
- The app's own tokens below (pages, the carton, the hall screen). Pages import them: no colour
  literal elsewhere (a test scans the sources).
"""

from __future__ import annotations

from collections.abc import Iterator

#: Radix Themes scales, light appearance: steps 1..12. Steps 1-8 keep Radix 3.3's values (gray 8
#: darkened: it is the text of disabled controls); 9-12 are darker than Radix's so that text and
#: white-on-fill reach 4.5:1 (Radix's red 9, #e5484d, gives white 3.9:1).
SCALES: dict[str, tuple[str, ...]] = {
    "red": (
        "#fffcfc", "#fff7f7", "#feebec", "#ffdbdc", "#ffcdce", "#fdbdbe",
        "#f4a9aa", "#eb8e90", "#b3001b", "#9d0018", "#a3001a", "#5a0f18",
    ),
    "gray": (
        "#fcfcfc", "#f9f9f9", "#f0f0f0", "#e8e8e8", "#e0e0e0", "#d9d9d9",
        "#cecece", "#595959", "#5e5e5e", "#525252", "#555555", "#1f1f1f",
    ),
    "green": (
        "#fbfefc", "#f4fbf6", "#e6f6eb", "#d6f1df", "#c4e8d1", "#adddc0",
        "#8eceaa", "#5bb98b", "#1e7d32", "#186b2a", "#17632a", "#143a22",
    ),
    "orange": (
        "#fefcfb", "#fff7ed", "#ffefd6", "#ffdfb5", "#ffd19a", "#ffc182",
        "#f5ae73", "#ec9455", "#a84400", "#923b00", "#8f3c00", "#4a2410",
    ),
    "indigo": (
        "#fdfdfe", "#f7f9ff", "#edf2fe", "#e1e9ff", "#d2deff", "#c1d0ff",
        "#abbdf9", "#8da4ef", "#3949ab", "#2f3d91", "#34439e", "#1c2659",
    ),
}  # fmt: skip
ON_SOLID = "#ffffff"  # text on step 9/10 of every scale (Radix `--<scale>-contrast`)


def step(scale: str, n: int) -> str:
    """Step `n` (1..12) of a scale."""
    return SCALES[scale][n - 1]


# ---------------------------------------------------------------------- the app's tokens

WHITE = "#ffffff"
INK = "#1a1a1a"  # body text
PAPER = "#fffdf7"  # page background
MUTED = step("gray", 11)  # secondary text, hints
ACCENT = step("red", 9)  # loto red: headings' numbers, marked pions, the hall's drawn numbers
SUCCESS = step("green", 9)
WARNING = step("orange", 9)
INFO = step("indigo", 9)
BANNER = "#3d3d3d"  # the "connection lost" banner (white text)

# the carton
DRAWN = "#ffd54a"  # a drawn number not yet marked (ink on it)
MARKED = ACCENT  # a pion (white on it)
CELL_EMPTY = "#d9d4c7"  # a blank cell of the grid (no text)
CELL_BORDER = "#999999"  # (no text)
ANNULLED_BG = "#ecebe8"  # an annulled carton (ink on it)

# boxes: a light background with a coloured left border (the border carries no text)
WIN_BG = "#e6f4ea"
CHECK_BG = "#fff4d6"
TIE_BG = "#e8eaff"
FALSE_BG = "#fde7e9"
INFO_BG = "#f2f2f2"
ORDER_BG = "#fff8e6"
NOTICE_BG = "#fff8e1"
LINE = "#dddddd"  # separators (no text)
SECTION_LINE = "#d8d2c4"  # frames of form sections (no text)
FIELD_LINE = "#8a8a8a"  # borders of input fields: 3:1 on white (WCAG 1.4.11)
WIN_LINE = step("green", 9)
CHECK_LINE = "#c98a00"
TIE_LINE = step("indigo", 9)
FALSE_LINE = ACCENT
INFO_LINE = "#888888"

# the hall screen (TV): light text on a dark room-friendly background
TV_BG = "#111111"
TV_TEXT = WHITE
TV_HIGHLIGHT = DRAWN  # the last number, the stage in play
TV_MUTED = "#cccccc"
TV_PANEL = "#333333"  # buttons
TV_CELL = "#1f1f1f"  # an undrawn number of the board
TV_CELL_TEXT = "#b3b3b3"  # an undrawn number: 8.3:1 on TV_CELL, quieter than the drawn ones
TV_LAST_TEXT = "#000000"  # on TV_HIGHLIGHT
#: A rehearsal's banner (components/rehearsal.py): ink on yellow, edged with ink stripes, on
#: every screen of the copy; the same pair on the light pages and the hall screen.
REHEARSAL_BG = DRAWN
REHEARSAL_TEXT = TV_LAST_TEXT
#: The band of a coloured série's carton, by kind (`carton_kinds.CartonKind.band`), under
#: white text: the enfants' purple, and the hall's green, yellow, blue and pink séries.
CARTON_BANDS: dict[str, str] = {
    "enfant": "#6d28d9",
    "vert": "#15803d",
    "jaune": "#8a5a00",
    "bleu": "#1d4ed8",
    "rose": "#be185d",
}

#: Backgrounds text may sit on (light pages): the scales' steps 1-5 and the app's boxes.
LIGHT_BACKGROUNDS: tuple[str, ...] = (
    *(s[i] for s in SCALES.values() for i in range(5)),
    WHITE,
    PAPER,
    DRAWN,
    ANNULLED_BG,
    WIN_BG,
    CHECK_BG,
    TIE_BG,
    FALSE_BG,
    INFO_BG,
    ORDER_BG,
    NOTICE_BG,
)
#: Text colours of the light pages: every one must read on every light background.
DARK_TEXTS: tuple[str, ...] = (
    INK,
    MUTED,
    step("gray", 8),  # the text of a disabled control
    *(s[i] for s in SCALES.values() for i in (10, 11)),  # text, high-contrast text
)
#: Solid fills under white text: the scales' 9, 10 (hover) and 12 (high contrast), the app's.
FILLS: tuple[str, ...] = (
    *(s[i] for s in SCALES.values() for i in (8, 9, 11)),
    INK,
    BANNER,
    MARKED,
    TV_PANEL,
    *CARTON_BANDS.values(),
)
#: The hall screen's pairs (text, background).
TV_PAIRS: tuple[tuple[str, str], ...] = (
    (TV_TEXT, TV_BG),
    (TV_HIGHLIGHT, TV_BG),
    (TV_MUTED, TV_BG),
    (TV_TEXT, TV_PANEL),
    (TV_CELL_TEXT, TV_CELL),
    (TV_TEXT, ACCENT),
    (TV_LAST_TEXT, TV_HIGHLIGHT),
    (REHEARSAL_TEXT, REHEARSAL_BG),
)


def pairs() -> Iterator[tuple[str, str, str]]:
    """Every (what, text, background) pair the rule covers."""
    for t in DARK_TEXTS:
        for b in LIGHT_BACKGROUNDS:
            yield "text on a light background", t, b
    for f in FILLS:
        yield "white on a solid fill", ON_SOLID, f
    yield "high-contrast solid: gray 1 on step 12", step("gray", 1), INK
    for t, b in TV_PAIRS:
        yield "hall screen", t, b


def radix_css() -> str:
    """CSS that overrides the Radix scales on the theme root (more specific than Radix's own
    `:root, .light` and `[data-gray-color]` rules, in the sRGB and the P3 blocks alike)."""
    decls: list[str] = []
    for name, steps in SCALES.items():
        for n, value in enumerate(steps, start=1):
            decls.append(f"--{name}-{n}:{value};--{name}-a{n}:{value};")
        decls.append(
            f"--{name}-contrast:{ON_SOLID};--{name}-surface:{steps[1]};"
            f"--{name}-indicator:{steps[8]};--{name}-track:{steps[8]};"
        )
    decls.append(f"--focus-8:{step('indigo', 9)};")
    return "html .radix-themes{" + "".join(decls) + "}"


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance of an sRGB `#rrggbb` (or `#rgb`) colour."""
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        raise ValueError(f"not an opaque #rrggbb colour: {color!r}")

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(h[i : i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two opaque colours (1..21)."""
    a, b = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)
