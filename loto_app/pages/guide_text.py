"""The volunteers' guide (docs/GUIDE.md) read into plain values for the `/aide` page.

docs/GUIDE.md is the one source of the guide's words: the page renders it, the browser test
(tests/e2e/test_guide.py) takes the pictures it names. A small subset of Markdown, read here
rather than by a Markdown component (which would add a dozen npm packages to every build):

- `# Title` once, first; `## Section {#anchor}` a section (its anchor: `/aide#anchor`);
  `### Heading` inside one;
- paragraphs (lines joined until a blank line), `- ` bullets, `1. ` numbered steps;
- `> ` a note in a box (the parts other work will complete are such notes);
- `![Caption](name.png)` alone on its line: a picture of test-results/guide/ (the test
  writes it; `make guide-pictures` copies them to assets/guide/, which git ignores);
- inline `**bold**` only.

French spacing is applied here, once: a no-break space before ":" and inside « », a narrow one
before ";", "!" and "?" (the source is typed with ordinary spaces).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCE = ROOT / "docs" / "GUIDE.md"
#: Where the page finds the pictures (served from /guide/ by the build: Reflex's assets/).
PICTURES = ROOT / "assets" / "guide"

NBSP, NNBSP = "\u00a0", "\u202f"
_SECTION = re.compile(r"^## (.+?)\s*\{#([a-z0-9-]+)\}\s*$")
_PICTURE = re.compile(r"^!\[([^\]]+)\]\(([a-z0-9-]+\.png)\)\s*$")
_STEP = re.compile(r"^\d+\. (.*)$")


@dataclass(frozen=True)
class Block:
    """One block of a section: `kind` is "p", "h3", "ul", "ol", "note" or "picture"; `lines`
    its text (one per item for a list; the caption, then the file name, for a picture)."""

    kind: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Guide:
    title: str
    intro: tuple[Block, ...]
    sections: tuple[Section, ...]

    def pictures(self) -> list[str]:
        """Every picture the guide names, in order (file names)."""
        return [
            b.lines[1]
            for part in (self.intro, *(s.blocks for s in self.sections))
            for b in part
            if b.kind == "picture"
        ]


def french(text: str) -> str:
    """French spacing: no-break space before ":" and inside « », narrow before ; ! ?."""
    text = re.sub(r" +([:»])", NBSP + r"\1", text)
    text = re.sub(r"« +", "«" + NBSP, text)
    return re.sub(r" +([;!?])", NNBSP + r"\1", text)


def runs(text: str) -> list[tuple[str, bool]]:
    """A line cut into (text, bold) runs at its `**` marks."""
    parts = text.split("**")
    if len(parts) % 2 == 0:
        raise ValueError(f"unbalanced ** in the guide: {text!r}")
    return [(p, i % 2 == 1) for i, p in enumerate(parts) if p]


def _blocks(lines: list[str]) -> tuple[Block, ...]:
    out: list[Block] = []
    para: list[str] = []
    items: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal kind
        if para:
            out.append(Block(kind or "p", (french(" ".join(para)),)))
            para.clear()
        if items:
            out.append(Block(kind, tuple(french(i) for i in items)))
            items.clear()
        kind = ""

    for raw in lines:
        line = raw.strip()
        step = _STEP.match(line)
        picture = _PICTURE.match(line)
        if not line:
            flush()
        elif picture:
            flush()
            out.append(Block("picture", (french(picture[1]), picture[2])))
        elif line.startswith("### "):
            flush()
            out.append(Block("h3", (french(line[4:]),)))
        elif line.startswith("> "):
            if kind != "note":
                flush()
                kind = "note"
            para.append(line[2:])
        elif line.startswith("- ") or step:
            wanted = "ul" if line.startswith("- ") else "ol"
            if kind != wanted:
                flush()
                kind = wanted
            items.append(line[2:] if wanted == "ul" else step[1])  # type: ignore[index]
        elif items:  # a list item's next line
            items[-1] += " " + line
        else:
            para.append(line)
    flush()
    for b in out:
        for line in b.lines if b.kind != "picture" else b.lines[:1]:
            runs(line)  # raises on an unbalanced **
    return tuple(out)


def parse(text: str) -> Guide:
    """The guide from its Markdown (the subset above); raises ValueError on a malformed one."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError("the guide starts with its '# Title'")
    title = french(lines[0][2:].strip())
    chunks: list[tuple[str, str, list[str]]] = [("", "", [])]
    for line in lines[1:]:
        if line.startswith("## "):
            head = _SECTION.match(line)
            if not head:
                raise ValueError(f"a section needs its anchor, '## Title {{#anchor}}': {line!r}")
            chunks.append((head[2], french(head[1]), []))
        elif line.startswith("# "):
            raise ValueError(f"one '# Title' only: {line!r}")
        else:
            chunks[-1][2].append(line)
    anchors = [a for a, _, _ in chunks[1:]]
    if len(set(anchors)) != len(anchors):
        raise ValueError(f"two sections share an anchor: {anchors}")
    return Guide(
        title,
        _blocks(chunks[0][2]),
        tuple(Section(a, t, _blocks(body)) for a, t, body in chunks[1:]),
    )


def load() -> Guide:
    """docs/GUIDE.md, parsed."""
    return parse(SOURCE.read_text(encoding="utf-8"))


__all__ = ["NBSP", "NNBSP", "PICTURES", "SOURCE", "Block", "Guide", "Section", "french", "load"]
