"""axe-core in a Playwright page: fetched once from the npm registry (major version pinned,
cached outside git), injected, run on the whole document (WCAG 2.x A/AA and best practices)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE_SPEC = "axe-core@4"  # the major version is pinned; npm picks its latest 4.x
AXE_CACHE = Path(
    os.environ.get("LOTO_AXE_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "loto-axe"
)
BLOCKING = ("serious", "critical")


def axe_script() -> Path:
    """axe.min.js from the npm registry (`npm pack`), fetched once into a cache outside git."""
    target = AXE_CACHE / "axe-core-4" / "axe.min.js"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    npm = Path(sys.executable).parent / "npm"
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        out = subprocess.run(
            [str(npm), "pack", AXE_SPEC, "--silent", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            timeout=300,
        )
        tarballs = list(Path(tmp).glob("axe-core-*.tgz"))
        if out.returncode != 0 or not tarballs:
            pytest.fail(f"`npm pack {AXE_SPEC}` failed ({out.returncode}): {out.stderr[-2000:]}")
        with tarfile.open(tarballs[0]) as tar:
            member = tar.extractfile("package/axe.min.js")
            assert member is not None, f"{tarballs[0].name} has no package/axe.min.js"
            data = member.read()
        partial = Path(tmp) / "axe.min.js"
        partial.write_bytes(data)
        (target.parent / "VERSION").write_text(tarballs[0].name.removesuffix(".tgz") + "\n")
        partial.replace(target)  # atomic: a concurrent session never reads half a file
    return target


def run_axe(page: Page, axe: Path) -> list[dict[str, Any]]:
    """axe.run() on the whole document (WCAG 2.x A/AA rules and best practices)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe))
    return page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
            nodes: v.nodes.map((n) => ({
              target: n.target.join(' '), html: n.html.slice(0, 300),
              summary: n.failureSummary,
            })),
          }));
        }"""
    )


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for n in v["nodes"]:
            lines.append(f"    at {n['target']}")
            lines.append(f"       {n['html']}")
            for s in (n["summary"] or "").splitlines():
                lines.append(f"       | {s}")
    return "\n".join(lines)


def blocking_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical axe findings of a page (empty when none)."""
    return [v for v in run_axe(page, axe_script()) if v["impact"] in BLOCKING]
