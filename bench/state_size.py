"""What one client's Reflex state weighs on the server, state class by state class.

Reflex keeps, for every connected client (each phone), an instance of every state class of the
app, and materialises each var from a deep copy of its default when the hydrate reads it. This
builds that tree as a phone's hydrate leaves it (`State.dict()`), twice, and prints the deep size
of the second client's objects (what the first one shares with it, class-level defaults and
interned values, is not counted), per state class, with the hydrate's JSON size:

    .venv/bin/python bench/state_size.py

2026-12-04: 8.1 KB of hydrate JSON instead of 11.4, the organiser's form no longer
in every client. A connected phone's whole server memory is measured by bench/load.py
(`rss_per_player_kb`); docs/ARCHITECTURE.md says where the rest goes.
"""

from __future__ import annotations

import gc
import sys
import types
from typing import Any

SKIP = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.CodeType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
)


def reachable(root: Any, stop: set[int]) -> dict[int, Any]:
    """The objects reachable from `root` (modules, classes and functions excluded), but those
    in `stop`."""
    found: dict[int, Any] = {}
    todo = [root]
    while todo:
        o = todo.pop()
        i = id(o)
        if i in found or i in stop or isinstance(o, SKIP):
            continue
        found[i] = o
        todo.extend(gc.get_referents(o))
    return found


def main() -> None:
    import reflex as rx
    from reflex.utils import format as rx_format

    import loto_app.loto_app  # noqa: F401  (registers the app's states)

    def client() -> Any:
        root = rx.State(_reflex_internal_init=True)
        root.dict()  # what the hydrate reads: every var materialised
        return root

    first = client()
    shared = set(reachable(first, set()))
    second = client()

    def states(s: Any) -> list[Any]:
        out = [s]
        for child in s.substates.values():
            out += states(child)
        return out

    tree = states(second)
    fence = shared | {id(s) for s in tree}
    total = 0
    rows = []
    for s in tree:
        own = reachable(s.__dict__, fence) | {id(s): s}
        size = sum(sys.getsizeof(o) for o in own.values())
        total += size
        rows.append((size, len(own), type(s).get_full_name().rsplit(".", 1)[-1]))
    print(f"{'bytes':>7} {'objects':>7}  state class")
    for size, n, name in sorted(rows, reverse=True):
        print(f"{size:7d} {n:7d}  {name}")
    print(f"{total:7d} {'':>7}  one client's state ({len(tree)} classes)")
    print(f"hydrate JSON: {len(rx_format.json_dumps(second.dict()))} bytes")


if __name__ == "__main__":
    main()
