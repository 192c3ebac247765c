"""Command line: `python -m loto_app.storage.cli migrate|demo`.

`migrate` brings the configured database (LOTO_DB_URL, default sqlite:///loto.db) to the latest
schema; `demo` makes sure a demo evening exists and prints its join code and fresh secrets (the
animateur's, the organiser's and a caissier's), so that a newcomer can play at once.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from loto_app.domain.program import demo_program
from loto_app.storage.access import AccessError, AccessStore
from loto_app.storage.db import database_url, make_engine
from loto_app.storage.migrations import upgrade
from loto_app.storage.repository import EveningStore

DEMO_JOIN_CODE = "DEMO42"
DEMO_NAME = "Soirée de démonstration"


DEMO_CASHIER = "Caisse démo"


@dataclass(frozen=True, slots=True)
class DemoAccess:
    """The demo evening's code and freshly issued secrets."""

    evening_id: int
    join_code: str
    animateur_secret: str
    organiser_secret: str
    cashier_secret: str


def ensure_demo(store: EveningStore) -> DemoAccess:
    """The demo evening (created if missing) with newly issued secrets: animateur, organiser
    and a caissier for the desk."""
    access = AccessStore(store.engine)
    evening_id = store.evening_id_for_code(DEMO_JOIN_CODE)
    if evening_id is None:
        creds = store.create_evening(DEMO_NAME, demo_program("DEMO"), join_code=DEMO_JOIN_CODE)
        cashier = access.add_staff(creds.evening_id, DEMO_CASHIER, "caissier")
        return DemoAccess(
            creds.evening_id,
            creds.join_code,
            creds.animateur_secret,
            creds.organiser_secret,
            cashier,
        )
    try:
        cashier = access.reset_staff_secret(evening_id, DEMO_CASHIER)
    except AccessError:
        cashier = access.add_staff(evening_id, DEMO_CASHIER, "caissier")
    return DemoAccess(
        evening_id,
        DEMO_JOIN_CODE,
        access.reset_animateur_secret(evening_id),
        access.reset_organiser_secret(evening_id),
        cashier,
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="loto_app.storage.cli")
    parser.add_argument("command", choices=["migrate", "demo"])
    args = parser.parse_args(argv)
    if args.command == "migrate":
        upgrade()
        print(f"Base de données à jour : {database_url()}")
        return 0
    demo = ensure_demo(EveningStore(make_engine()))
    print("=" * 66)
    print(f"  Soirée de démonstration prête : {DEMO_NAME}")
    print(f"  Code pour rejoindre (joueurs)      : {demo.join_code}")
    print(f"  Secret de l'animateur (/animateur) : {demo.animateur_secret}")
    print(f"  Secret de l'organisateur (/organisation) : {demo.organiser_secret}")
    print(f"  Secret du caissier « {DEMO_CASHIER} » (/caisse) : {demo.cashier_secret}")
    print("  Ouvrez http://localhost:3000")
    print("=" * 66)
    return 0


if __name__ == "__main__":
    sys.exit(main())
