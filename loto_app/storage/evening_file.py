"""One evening as a file, to move it to another server or keep it: `export_evening` writes its
hash-chained log and what is needed to rebuild it; `import_evening` replays and verifies it
into another database.

The file is JSON Lines (UTF-8), one object per line, so that a problem is named by its line:

1. the header: `{"format": "loto-evening", "version": 1, "evening": {...}, "series": {...},
   "staff": [...], "players": [...], "entries": N}`: the evening's name, date, join code,
   program and creation time, the série and its secret key, the hashes of the animateur's and
   the organiser's secrets, the invitation tokens, the desk's members (name, role, secret hash,
   access) and each player's secret hash (how a phone finds its cartons again);
2. N lines, one per entry of the audit log, in order: `{"seq", "at", "type", "payload",
   "prev_hash", "hash"}` exactly as stored, each hash covering the previous one;
3. the trailer: `{"end": true, "entries": N, "last_hash": ..., "digest": ...}`, the digest
   being SHA-256 over the header line and every entry's hash (an edited header shows).

Importing reads and checks the whole file before writing anything: every line is the JSON it
should be, sequence numbers follow, every hash matches its entry and links to the previous one,
the digest matches, the events replay through the engine and the replayed evening keeps every
rule (`Evening.check_invariants`). Then, in one transaction, the evening is created afresh
(new id, same join code: refused if the target database already has that code), its log is
appended with its original times and hashes, and the query tables are rebuilt from it the way
every commit builds them. A file that fails a check is refused with the line that breaks it;
nothing is written.

The file holds the série's secret key (it signs carton and lot codes) and the invitation
token: keep it as private as the database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlmodel import Session, select

from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.program import Program
from loto_app.storage import models as m
from loto_app.storage import projections
from loto_app.storage.audit import GENESIS, canonical_time, entry_hash
from loto_app.storage.eventlog import amended, evening_rows
from loto_app.storage.projections import project
from loto_app.storage.repository import EveningStore

FORMAT = "loto-evening"
VERSION = 1
MAX_LINE = 1_000_000  # characters: an entry is a few hundred


class EveningFileError(ValueError):
    """A file that cannot be imported; `line` is the line that breaks it (0: the file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True, slots=True)
class Imported:
    """What `import_evening` created."""

    evening_id: int
    join_code: str
    name: str
    entries: int


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _time(at: datetime | None) -> str | None:
    return None if at is None else canonical_time(at)


def _parse_time(text: Any, line: int, what: str) -> datetime:
    if not isinstance(text, str):
        raise EveningFileError(line, f"{what}: {text!r:.40} is not a time")
    try:
        at = datetime.fromisoformat(text)
    except ValueError as exc:
        raise EveningFileError(line, f"{what}: {text!r:.40} is not a time") from exc
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


# ---------------------------------------------------------------------- export


def export_lines(store: EveningStore, evening_id: int) -> Iterator[str]:
    """The file's lines (without newlines) of one evening.

    Raises:
        KeyError: no such evening.
    """
    with Session(store.engine) as s:
        row, series = evening_rows(s, evening_id)
        staff = s.exec(
            select(m.StaffRow).where(m.StaffRow.evening_id == evening_id).order_by(m.StaffRow.id)
        ).all()
        players = s.exec(
            select(m.PlayerRow.player_id, m.PlayerRow.secret_hash)
            .where(m.PlayerRow.evening_id == evening_id)
            .order_by(m.PlayerRow.id)
        ).all()
        invitations = s.exec(
            select(m.InvitationRow)
            .where(m.InvitationRow.evening_id == evening_id)
            .order_by(m.InvitationRow.no)
        ).all()
        count = len(s.exec(select(m.AuditRow.seq).where(m.AuditRow.evening_id == evening_id)).all())
        header = {
            "format": FORMAT,
            "version": VERSION,
            "evening": {
                "name": row.name,
                "date": row.date,
                "join_code": row.join_code,
                "program": row.program,
                "created_at": _time(row.created_at),
                "animateur_secret_hash": row.animateur_secret_hash,
                "organiser_secret_hash": row.organiser_secret_hash,
                "invitation_token": row.invitation_token,
            },
            "series": {"code": series.code, "key_hex": series.key_hex},
            "staff": [
                {
                    "name": r.name,
                    "role": r.role,
                    "secret_hash": r.secret_hash,
                    "active": r.active,
                    "created_at": _time(r.created_at),
                }
                for r in staff
            ],
            "players": [{"player_id": p, "secret_hash": h} for p, h in players],
            # the remote players' personal links (remote play): their tokens, by number
            "invitations": [
                {"no": i.no, "name": i.name, "token": i.token, "created_at": _time(i.created_at)}
                for i in invitations
            ],
            "entries": count,
        }
        head = _dump(header)
        yield head
        digest = hashlib.sha256(head.encode())
        last = GENESIS
        n = 0
        rows = s.exec(
            select(m.AuditRow)
            .where(m.AuditRow.evening_id == evening_id)
            .order_by(m.AuditRow.seq)
            .execution_options(yield_per=1000)
        )
        for r in rows:
            n += 1
            digest.update(r.hash.encode())
            last = r.hash
            yield _dump(
                {
                    "seq": r.seq,
                    "at": _time(r.at),
                    "type": r.type,
                    "payload": r.payload,
                    "prev_hash": r.prev_hash,
                    "hash": r.hash,
                }
            )
    yield _dump({"end": True, "entries": n, "last_hash": last, "digest": digest.hexdigest()})


def export_evening(store: EveningStore, evening_id: int, out: IO[str]) -> int:
    """Write one evening's file; returns the number of log entries written."""
    n = -2
    for line in export_lines(store, evening_id):
        out.write(line + "\n")
        n += 1
    return n


def export_to_path(store: EveningStore, join_code: str, path: Path) -> int:
    """`export_evening` of the evening a join code opens, to a file (written atomically).

    Raises:
        KeyError: no evening has that code.
    """
    eid = store.evening_id_for_code(join_code)
    if eid is None:
        raise KeyError(f"no evening with the join code {join_code!r}")
    tmp = path.with_name(path.name + ".part")
    with tmp.open("w", encoding="utf-8", newline="\n") as f:
        n = export_evening(store, eid, f)
    tmp.replace(path)
    return n


# ---------------------------------------------------------------------- reading and checking


@dataclass(frozen=True, slots=True)
class _Entry:
    line: int
    seq: int
    at: datetime
    type: str
    payload: dict[str, Any]
    prev_hash: str
    hash: str
    event: ev.Event


@dataclass(frozen=True, slots=True)
class _Parsed:
    header: dict[str, Any]
    program: Program
    key: bytes
    entries: list[_Entry]


def _object(text: str, line: int) -> dict[str, Any]:
    if len(text) > MAX_LINE:
        raise EveningFileError(line, f"a line of {len(text)} characters")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EveningFileError(line, f"not JSON ({exc.msg})") from exc
    if not isinstance(obj, dict):
        raise EveningFileError(line, "not a JSON object")
    return obj


def _field(obj: dict[str, Any], name: str, kind: type | tuple[type, ...], line: int) -> Any:
    value = obj.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise EveningFileError(line, f"{name!r}: {value!r:.60} is not what this field holds")
    return value


def _objects(items: Iterable[Any], what: str) -> Iterator[dict[str, Any]]:
    """The header's list of `what`s, each an object, or the file is refused (its line 1)."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise EveningFileError(1, f"{what} {i + 1} is not an object")
        yield item


def _header(text: str) -> tuple[dict[str, Any], Program, bytes]:
    h = _object(text, 1)
    if h.get("format") != FORMAT:
        raise EveningFileError(1, f"not a Loto evening file (format {h.get('format')!r:.40})")
    if h.get("version") != VERSION:
        raise EveningFileError(1, f"version {h.get('version')!r:.20} (this app reads {VERSION})")
    evening = _field(h, "evening", dict, 1)
    series = _field(h, "series", dict, 1)
    for name in ("name", "join_code", "animateur_secret_hash"):
        _field(evening, name, str, 1)
    _field(h, "staff", list, 1)
    _field(h, "players", list, 1)
    _field(h, "entries", int, 1)
    try:
        program = Program.from_dict(_field(evening, "program", dict, 1))
        key = bytes.fromhex(_field(series, "key_hex", str, 1))
    except (ValueError, KeyError, TypeError) as exc:
        raise EveningFileError(1, f"the program or the série key cannot be read: {exc}") from exc
    if _field(series, "code", str, 1) != program.series:
        raise EveningFileError(1, "the série code differs from the program's")
    _parse_time(evening.get("created_at"), 1, "evening created_at")
    return h, program, key


def read_evening_file(lines: Iterable[str]) -> _Parsed:
    """Parse and verify a whole file (see the module docstring); nothing is written.

    Raises:
        EveningFileError: the first line that breaks it.
    """
    it = enumerate(lines, start=1)
    first = next(it, None)
    if first is None:
        raise EveningFileError(0, "empty file")
    header, program, key = _header(first[1].rstrip("\n"))
    digest = hashlib.sha256(first[1].rstrip("\n").encode())
    entries: list[_Entry] = []
    prev = GENESIS
    trailer: dict[str, Any] | None = None
    trailer_line = 0
    for no, raw in it:
        text = raw.rstrip("\n")
        if trailer is not None:
            if text.strip():
                raise EveningFileError(no, "content after the end of the file")
            continue
        obj = _object(text, no)
        if obj.get("end") is True:
            trailer, trailer_line = obj, no
            continue
        seq = _field(obj, "seq", int, no)
        if seq != len(entries) + 1:
            raise EveningFileError(no, f"entry {seq}: expected sequence number {len(entries) + 1}")
        at = _parse_time(obj.get("at"), no, f"entry {seq}")
        type_ = _field(obj, "type", str, no)
        payload = _field(obj, "payload", dict, no)
        prev_hash, hash_ = _field(obj, "prev_hash", str, no), _field(obj, "hash", str, no)
        if prev_hash != prev:
            raise EveningFileError(no, f"entry {seq}: previous-hash link broken")
        if entry_hash(prev_hash, seq, at, type_, payload) != hash_:
            raise EveningFileError(no, f"entry {seq}: content does not match its hash")
        if payload.get("type") != type_:
            raise EveningFileError(no, f"entry {seq}: its type differs from its payload's")
        try:
            event = ev.event_from_dict(payload)
        except (ValueError, TypeError) as exc:
            raise EveningFileError(no, f"entry {seq}: not an event ({exc})") from exc
        entries.append(_Entry(no, seq, at, type_, payload, prev_hash, hash_, event))
        digest.update(hash_.encode())
        prev = hash_
    if trailer is None:
        raise EveningFileError(0, "the file is cut short: no end line")
    if trailer.get("entries") != len(entries) or header["entries"] != len(entries):
        raise EveningFileError(
            trailer_line,
            f"{len(entries)} entries read, the file says {trailer.get('entries')!r:.20}",
        )
    if trailer.get("last_hash") != prev:
        raise EveningFileError(trailer_line, "the last hash differs from the last entry's")
    if trailer.get("digest") != digest.hexdigest():
        raise EveningFileError(1, "the header does not match the file's digest (edited?)")
    evening = Evening(program, key, str(header["evening"]["join_code"]))
    for e in entries:
        try:
            evening.apply(e.event)
        except Exception as exc:
            raise EveningFileError(e.line, f"entry {e.seq} does not replay: {exc!r:.200}") from exc
    try:
        evening.check_invariants()
    except AssertionError as exc:
        raise EveningFileError(0, f"the replayed evening breaks a rule: {exc}") from exc
    return _Parsed(header, program, key, entries)


# ---------------------------------------------------------------------- import


def import_evening(store: EveningStore, lines: Iterable[str]) -> Imported:
    """Check a file, then create its evening in this database (one transaction).

    Raises:
        EveningFileError: the file breaks (with the line), or its join code is already used
            here (line 1).
    """
    parsed = read_evening_file(lines)
    h = parsed.header["evening"]
    code = h["join_code"]
    if store.evening_id_for_code(code) is not None:
        raise EveningFileError(1, f"this database already has an evening with the code {code}")
    with Session(store.engine) as s:
        row = m.EveningRow(
            name=h["name"],
            date=h.get("date") or "",
            join_code=code,
            animateur_secret_hash=h["animateur_secret_hash"],
            program=parsed.program.to_dict(),
            created_at=_parse_time(h.get("created_at"), 1, "evening created_at"),
            organiser_secret_hash=h.get("organiser_secret_hash"),
            invitation_token=h.get("invitation_token"),
        )
        s.add(row)
        s.flush()
        assert row.id is not None
        eid = row.id
        s.add(m.SeriesRow(evening_id=eid, code=parsed.program.series, key_hex=parsed.key.hex()))
        for st in _objects(parsed.header["staff"], "staff member"):
            s.add(
                m.StaffRow(
                    evening_id=eid,
                    name=_field(st, "name", str, 1),
                    role=_field(st, "role", str, 1),
                    secret_hash=_field(st, "secret_hash", str, 1),
                    active=bool(st.get("active", True)),
                    created_at=_parse_time(st.get("created_at"), 1, "staff created_at"),
                )
            )
        for inv in _objects(parsed.header.get("invitations", []), "invitation"):  # (before: none)
            s.add(
                m.InvitationRow(
                    evening_id=eid,
                    no=_field(inv, "no", int, 1),
                    name=_field(inv, "name", str, 1),
                    token=_field(inv, "token", str, 1),
                    created_at=_parse_time(inv.get("created_at"), 1, "invitation created_at"),
                )
            )
        s.flush()
        program = parsed.program  # (as created, then as each amendment left it)
        for e in parsed.entries:
            if isinstance(e.event, ev.ProgramAmended):
                program = amended(e.payload)
            s.add(
                m.AuditRow(
                    evening_id=eid,
                    seq=e.seq,
                    at=e.at,
                    type=e.type,
                    payload=e.payload,
                    prev_hash=e.prev_hash,
                    hash=e.hash,
                )
            )
            # the query tables, as the original commit wrote them (at its time)
            project(s, eid, program, parsed.key, e.event, e.at)
            if e.seq % 500 == 0:
                projections.flush(s)
        projections.flush(s)
        secrets_by_player = {
            p.get("player_id"): p.get("secret_hash")
            for p in parsed.header["players"]
            if isinstance(p, dict)
        }
        for p in s.exec(select(m.PlayerRow).where(m.PlayerRow.evening_id == eid)).all():
            digest = secrets_by_player.get(p.player_id)
            if isinstance(digest, str):
                p.secret_hash = digest
                s.add(p)
        s.commit()
    return Imported(eid, code, h["name"], len(parsed.entries))


def import_from_path(store: EveningStore, path: Path) -> Imported:
    """`import_evening` of a file."""
    with path.open(encoding="utf-8") as f:
        return import_evening(store, f)
