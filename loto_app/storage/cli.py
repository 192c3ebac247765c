"""Command line: `python -m loto_app.storage.cli COMMAND`.

- `migrate` brings the configured database (LOTO_DB_URL, default sqlite:///loto.db) to the
  latest schema;
- `demo` makes sure a demo evening exists and prints its join code and fresh secrets (the
  animateur's, the organiser's and a caissier's), so that a newcomer can play at once;
- `address [--port P] [--code CODE]` prints the address the phones must open (the LAN address,
  or LOTO_PUBLIC_URL) and a QR code of the join link, in the terminal;
- `backup FILE` / `restore FILE`: the whole database (`loto_app.storage.backup`);
- `export-evening CODE FILE` / `import-evening FILE`: one evening as a file, to move it to
  another server (`loto_app.storage.evening_file`).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import segno

from loto_app import network
from loto_app.domain.program import demo_program
from loto_app.storage import backup as backups
from loto_app.storage import evening_file
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


def phones_address(port: int) -> tuple[str, bool]:
    """The origin phones open (`network.public_origin` as a request to this machine on `port`
    would get it) and whether other devices can reach it (False: only loopback)."""
    origin = network.public_origin({"host": f"localhost:{port}"}, "")
    host = network.split_host(origin.partition("://")[2])
    return origin, not (host and network.is_loopback_host(host[0]))


def print_address(port: int, code: str = "", out=sys.stdout) -> str:
    """Print the phones' address and a terminal QR code of the join link; returns the link."""
    origin, reachable = phones_address(port)
    link = f"{origin}/?code={code}" if code else f"{origin}/"
    print("=" * 66, file=out)
    if reachable:
        print(f"  Adresse pour les téléphones (même Wi-Fi) : {origin}", file=out)
    else:
        print(f"  Aucun réseau : seul cet ordinateur ouvre {origin}", file=out)
        print("  (connectez-le au Wi-Fi de la salle, puis relancez `make run`)", file=out)
    print(f"  Lien pour rejoindre : {link}", file=out)
    print(f"  Écran de la salle : {origin}/ecran" + (f"?code={code}" if code else ""), file=out)
    print("=" * 66, file=out, flush=True)
    segno.make(link, error="m").terminal(out=out, compact=True)
    return link


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="loto_app.storage.cli")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="bring the database to the latest schema")
    sub.add_parser("demo", help="the demo evening and fresh secrets")
    p = sub.add_parser("address", help="the phones' address and a QR code of the join link")
    p.add_argument("--port", type=int, default=3000)
    p.add_argument("--code", default="", help="an evening's join code, for the link")
    p = sub.add_parser("backup", help="back the whole database up to FILE")
    p.add_argument("file", type=Path)
    p.add_argument("--logical", action="store_true", help="the app's own format (any database)")
    p = sub.add_parser("restore", help="put a backup back (stop the app first)")
    p.add_argument("file", type=Path)
    p = sub.add_parser("export-evening", help="one evening (by join code) as a file")
    p.add_argument("code")
    p.add_argument("file", type=Path)
    p = sub.add_parser("import-evening", help="an evening file into this database")
    p.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.command == "migrate":
        upgrade()
        print(f"Base de données à jour : {database_url()}")
        return 0
    if args.command == "address":
        print_address(args.port, args.code.strip().upper())
        return 0
    if args.command in ("backup", "restore"):
        try:
            if args.command == "backup":
                done = backups.backup(args.file, logical=args.logical)
                print(f"Sauvegarde ({done.method}) écrite : {done.path}")
            else:
                done = backups.restore(args.file)
                print(f"Sauvegarde ({done.method}) restaurée dans {database_url()}")
        except (backups.BackupError, OSError) as exc:
            print(f"Échec : {exc}", file=sys.stderr)
            return 1
        return 0
    store = EveningStore(make_engine())
    if args.command == "export-evening":
        try:
            n = evening_file.export_to_path(store, args.code.strip().upper(), args.file)
        except KeyError:
            print(f"Aucune soirée avec le code « {args.code} ».", file=sys.stderr)
            return 1
        print(f"Soirée {args.code.upper()} exportée ({n} entrées du journal) : {args.file}")
        return 0
    if args.command == "import-evening":
        try:
            done = evening_file.import_from_path(store, args.file)
        except evening_file.EveningFileError as exc:
            where = f" à la ligne {exc.line}" if exc.line else ""
            print(f"Fichier refusé{where}, rien n'a été importé : {exc}", file=sys.stderr)
            return 1
        except (OSError, UnicodeDecodeError) as exc:
            print(f"Fichier illisible : {exc}", file=sys.stderr)
            return 1
        print(
            f"Soirée « {done.name} » importée (code {done.join_code}, {done.entries} entrées "
            "du journal vérifiées)"
        )
        return 0
    demo = ensure_demo(store)
    print("=" * 66)
    print(f"  Soirée de démonstration prête : {DEMO_NAME}")
    print(f"  Code pour rejoindre (joueurs)      : {demo.join_code}")
    print(f"  Secret de l'animateur (/animateur) : {demo.animateur_secret}")
    print(f"  Secret de l'organisateur (/organisation) : {demo.organiser_secret}")
    print(f"  Secret du caissier « {DEMO_CASHIER} » (/caisse) : {demo.cashier_secret}")
    print("=" * 66)
    return 0


if __name__ == "__main__":
    sys.exit(main())
