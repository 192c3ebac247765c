"""Command line: `python -m loto_app.storage.cli COMMAND`.

- `migrate` brings the configured database (LOTO_DB_URL, default sqlite:///loto.db) to the
  latest schema;
- `demo` makes sure a demo evening exists and prints its join code and fresh secrets (the
  animateur's, the organiser's and a caissier's), so that a newcomer can play at once;
- `address [--port P] [--code CODE]` prints the address the phones must open (the LAN address,
  or LOTO_PUBLIC_URL) and a QR code of the join link, in the terminal;
- `backup FILE` / `restore FILE`: the whole database (`loto_app.storage.backup`);
- `export-evening CODE FILE` / `import-evening FILE`: one evening as a file, to move it to
  another server (`loto_app.storage.evening_file`);
- `verify-draw [CODE | --file FILE | --seed ... --commitment ...]`: recompute each committed
  game's commitment and order from its revealed seed and compare them with what was published
  and drawn (README, "Vérifier un tirage"); exit status 1 when one does not match.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import segno
from sqlalchemy.exc import SQLAlchemyError

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


def verify_draw(args: argparse.Namespace) -> int:
    """`verify-draw`: 0 when every revealed game checks, 1 when one does not, 2 on bad input."""
    from loto_app.domain import commitment as draws
    from loto_app.domain import draw_check

    numbers = None
    if args.numbers is not None:
        try:
            numbers = tuple(int(n) for n in args.numbers.replace(",", " ").split())
        except ValueError:
            print("Les numéros : des nombres séparés par des espaces.", file=sys.stderr)
            return 2
    if args.seed:
        if not (args.commitment and args.code and args.series and args.game and numbers):
            print(
                "À la main : --seed, --commitment, --series, --game, --numbers et le code.",
                file=sys.stderr,
            )
            return 2
        try:
            seed = draws.parse_seed(args.seed)
        except ValueError as exc:
            print(f"Graine illisible : {exc}", file=sys.stderr)
            return 2
        code = args.code.strip().upper()
        check = draws.verify(seed, code, args.series, args.game, args.commitment, numbers)
        print(f"Partie {args.game} : {draw_check.describe(check, len(numbers))}.")
        print("Ordre engagé : " + " ".join(map(str, check.order)))
        return 0 if check.ok else 1
    if args.file:
        try:
            with args.file.open(encoding="utf-8") as f:
                parsed = evening_file.read_evening_file(f)
        except evening_file.EveningFileError as exc:
            print(f"Fichier refusé : {exc}", file=sys.stderr)
            return 2
        except (OSError, UnicodeDecodeError) as exc:
            print(f"Fichier illisible : {exc}", file=sys.stderr)
            return 2
        events = [e.event for e in parsed.entries]
    elif args.code:
        store = EveningStore(make_engine())
        try:
            eid = store.evening_id_for_code(args.code)
            events = [e for _, e, _ in store.events_after(eid, 0)] if eid is not None else []
        except SQLAlchemyError as exc:
            print(
                f"Base de données illisible (migrée ?) : {database_url()} ({exc})", file=sys.stderr
            )
            return 2
        if eid is None:
            print(f"Aucune soirée avec le code « {args.code} ».", file=sys.stderr)
            return 2
    else:
        print("Donnez le code d'une soirée, --file ou --seed.", file=sys.stderr)
        return 2
    lines, ok = draw_check.report_lines(draw_check.game_draws(events), args.game, numbers)
    for line in lines or ["Aucune partie commencée."]:
        print(line)
    return 0 if ok else 1


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
    p = sub.add_parser("verify-draw", help="check the committed draws (database, file or hand)")
    p.add_argument("code", nargs="?", default="", help="the evening's join code (database)")
    p.add_argument("--file", type=Path, help="an evening file (export-evening)")
    p.add_argument("--game", type=int, help="only this game (1 for the first)")
    p.add_argument("--numbers", help="the numbers drawn, as noted (with --game, or by hand)")
    p.add_argument("--seed", help="by hand: the revealed seed (64 hex digits)")
    p.add_argument("--commitment", help="by hand: the commitment published before the game")
    p.add_argument("--series", help="by hand: the série")
    args = parser.parse_args(argv)
    if args.command == "verify-draw":
        return verify_draw(args)
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
        eid = store.evening_id_for_code(args.code)
        g = store.load(eid)[0].game if eid is not None else None
        if g is not None and g.commitment is not None and not g.revealed:
            print(
                f"Attention : la partie {g.index + 1} est en cours ; la graine de son tirage "
                "reste secrète et n'est pas dans le fichier : importée ailleurs, cette partie ne "
                "pourra pas continuer au boulier électronique. Exportez entre deux parties.",
                file=sys.stderr,
            )
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
