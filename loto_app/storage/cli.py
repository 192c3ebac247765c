"""Command line: `python -m loto_app.storage.cli migrate|demo`.

`migrate` brings the configured database (LOTO_DB_URL, default sqlite:///loto.db) to the latest
schema; `demo` makes sure a demo evening exists and prints its join code and a fresh animateur
secret, so that a newcomer can play at once.
"""

from __future__ import annotations

import argparse
import sys

from loto_app.domain.program import demo_program
from loto_app.storage.db import database_url, make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

DEMO_JOIN_CODE = "DEMO42"
DEMO_NAME = "Soirée de démonstration"


def ensure_demo(store: EveningStore) -> tuple[int, str, str]:
    """The demo evening (created if missing) with a newly issued animateur secret."""
    evening_id = store.evening_id_for_code(DEMO_JOIN_CODE)
    if evening_id is None:
        creds = store.create_evening(DEMO_NAME, demo_program("DEMO"), join_code=DEMO_JOIN_CODE)
        return creds.evening_id, creds.join_code, creds.animateur_secret
    return evening_id, DEMO_JOIN_CODE, store.reset_animateur_secret(evening_id)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="loto_app.storage.cli")
    parser.add_argument("command", choices=["migrate", "demo"])
    args = parser.parse_args(argv)
    if args.command == "migrate":
        upgrade()
        print(f"Base de données à jour : {database_url()}")
        return 0
    _, code, secret = ensure_demo(EveningStore(make_engine()))
    print("=" * 60)
    print(f"  Soirée de démonstration prête : {DEMO_NAME}")
    print(f"  Code pour rejoindre (joueurs) : {code}")
    print(f"  Secret de l'animateur        : {secret}")
    print("  Ouvrez http://localhost:3000")
    print("=" * 60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
