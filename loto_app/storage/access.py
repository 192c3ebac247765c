"""Who may do what on an evening: the players' identities, the animateur, the organiser, the
desk's vendeurs and caissiers, and the remote players' personal invitations. Secrets are stored
hashed. Every sign-in of the app is checked here (`signs_in` for the staff, `player_for_secret`
for a phone).

Every check reads the database as it stands now: a secret that was renewed, or a member whose
access was withdrawn, is refused from the next action on, in every process (a primary-key read,
cheap next to the move it guards). A player's secret is the exception: it is never renewed, so
the player it resolves to is kept in memory once found (`player_for_secret`: every page load
and every action of a phone asks)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from loto_app.limits import MAX_SECRET, MAX_STAFF_NAME
from loto_app.refusal import Refusal
from loto_app.storage import models as m
from loto_app.storage.secrets import hash_secret

#: The desk's roles: a vendeur sells, a caissier also settles and closes the till (/caisse); a
#: contrôleur checks paper cartons at the tables (/controle, where vendeurs and caissiers may
#: check too).
ROLES = {"vendeur": "Vendeur", "caissier": "Caissier", "controleur": "Contrôleur"}
#: The kinds of staff sign-in (`AccessStore.signs_in`): the desk is a vendeur or a caissier.
KINDS = ("animateur", "organiser", "desk")
MAX_STAFF = 50
MAX_KNOWN_PLAYERS = 50_000  # (evening, secret digest) -> player kept in memory


class AccessError(Refusal, ValueError):
    """A refused change, with a French message for the organiser."""


CLOSED = "La soirée est close : l'équipe ne change plus (seul un accès peut encore être retiré)."


def _still_open(s: Session, evening_id: int) -> None:
    """A closed evening is read-only: no new member, access or invitation (`EveningClosed`)."""
    row = s.get(m.EveningRow, evening_id)
    if row is not None and row.closed_at is not None:
        raise AccessError(f"evening {evening_id} is closed", CLOSED)


@dataclass(frozen=True, slots=True)
class StaffMember:
    """A member of the desk."""

    id: int
    name: str
    role: str
    active: bool


class AccessStore:
    """Organiser, staff and invitation checks on one SQLAlchemy engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._players: OrderedDict[tuple[int, str], str] = OrderedDict()
        self._players_lock = threading.Lock()  # (asked from worker threads)

    # ------------------------------------------------------------------ any sign-in

    def signs_in(self, kind: str, evening_id: int, secret: str) -> StaffMember | None:
        """Who this secret signs in as on the evening, now, for a kind of staff page ("animateur",
        "organiser", "desk"); None when it does not (a wrong, renewed or withdrawn secret)."""
        if kind == "desk":
            return self.staff_for_secret(evening_id, secret)
        check = {"animateur": self.check_animateur, "organiser": self.check_organiser}.get(kind)
        if check is None:
            raise ValueError(f"unknown kind of sign-in {kind!r}")
        return StaffMember(0, kind, kind, True) if check(evening_id, secret) else None

    def known_player(self, evening_id: int, secret: str) -> str | None:
        """The player of a secret already found by this process (memory only: no database
        read, so the event loop may ask without a thread hop); None: not known here."""
        if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
            return None
        key = (evening_id, hash_secret(secret))
        with self._players_lock:
            known = self._players.get(key)
            if known is not None:
                self._players.move_to_end(key)
            return known

    def remember_player(self, evening_id: int, secret: str, player_id: str) -> None:
        """A join this process has just committed: its secret resolves to `player_id` from now
        on without a database read (the page that joined asks at once)."""
        self._keep((evening_id, hash_secret(secret)), player_id)

    def _keep(self, key: tuple[int, str], player_id: str) -> None:
        with self._players_lock:
            self._players[key] = player_id
            self._players.move_to_end(key)
            while len(self._players) > MAX_KNOWN_PLAYERS:
                self._players.popitem(last=False)

    def forget_evening(self, evening_id: int) -> None:
        """Drop the players remembered of a deleted evening (a rehearsal)."""
        with self._players_lock:
            for key in [k for k in self._players if k[0] == evening_id]:
                del self._players[key]

    def player_for_secret(self, evening_id: int, secret: str) -> str | None:
        """The player a phone's secret identity resolves to (from memory once found: a
        player's secret is never renewed; an unknown one is looked up again each time, it may
        be a join that another process is committing)."""
        known = self.known_player(evening_id, secret)
        if known is not None:
            return known
        if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
            return None
        key = (evening_id, hash_secret(secret))
        with Session(self.engine) as s:
            pid = s.exec(
                select(m.PlayerRow.player_id).where(
                    m.PlayerRow.evening_id == evening_id, m.PlayerRow.secret_hash == key[1]
                )
            ).first()
        if pid is not None:
            self._keep(key, pid)
        return pid

    # ------------------------------------------------------------------ animateur

    def check_animateur(self, evening_id: int, secret: str) -> bool:
        """Does this secret sign in as the evening's animateur (now)?"""
        if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
            return False
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
        return bool(row) and secrets.compare_digest(row.animateur_secret_hash, hash_secret(secret))

    def reset_animateur_secret(self, evening_id: int) -> str:
        """Issue a new animateur secret: the old one stops working, on every tablet that used
        it, at its next action."""
        secret = secrets.token_urlsafe(9)
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
            if row is None:
                raise KeyError(evening_id)
            row.animateur_secret_hash = hash_secret(secret)
            s.add(row)
            s.commit()
        return secret

    # ------------------------------------------------------------------ organiser

    def check_organiser(self, evening_id: int, secret: str) -> bool:
        """Does this secret sign in as the evening's organiser?"""
        if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
            return False
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
        return bool(row and row.organiser_secret_hash) and secrets.compare_digest(
            row.organiser_secret_hash, hash_secret(secret)
        )

    def reset_organiser_secret(self, evening_id: int) -> str:
        """Issue a new organiser secret (the old one stops working)."""
        secret = secrets.token_urlsafe(12)
        with Session(self.engine) as s:
            row = s.get(m.EveningRow, evening_id)
            if row is None:
                raise KeyError(evening_id)
            row.organiser_secret_hash = hash_secret(secret)
            s.add(row)
            s.commit()
        return secret

    # ------------------------------------------------------------------ invitations

    def invitations(self, evening_id: int) -> dict[int, str]:
        """The tokens of the evening's personal invitations, by invitation number."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.InvitationRow.no, m.InvitationRow.token).where(
                    m.InvitationRow.evening_id == evening_id
                )
            ).all()
        return dict(rows)  # type: ignore[arg-type]

    def invitation_no(self, evening_id: int, token: str) -> int | None:
        """Which of the evening's invitations this link's token is (None: none of them). Used
        or not is the engine's question (`Evening.join`)."""
        if not isinstance(token, str) or not token or len(token) > MAX_SECRET:
            return None
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.InvitationRow.no, m.InvitationRow.token).where(
                    m.InvitationRow.evening_id == evening_id, m.InvitationRow.token == token
                )
            ).all()
        for no, stored in rows:  # (the index found it; compared in constant time all the same)
            if secrets.compare_digest(stored.encode(), token.encode()):
                return no
        return None

    # ------------------------------------------------------------------ staff

    def add_staff(self, evening_id: int, name: str, role: str) -> str:
        """A new vendeur, caissier or contrôleur; returns their secret (shown once to the
        organiser).

        Raises:
            AccessError: bad name or role, a name already used, too many members.
        """
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not 1 <= len(clean) <= MAX_STAFF_NAME or not clean.isprintable():
            raise AccessError(
                f"staff name {name!r:.40}", f"Le nom doit faire de 1 à {MAX_STAFF_NAME} caractères."
            )
        if role not in ROLES:
            raise AccessError(
                f"staff role {role!r}", "Rôle inconnu : vendeur, caissier ou contrôleur."
            )
        secret = secrets.token_urlsafe(9)
        with Session(self.engine) as s:
            _still_open(s, evening_id)
            count = s.exec(
                select(sa.func.count())
                .select_from(m.StaffRow)
                .where(m.StaffRow.evening_id == evening_id)
            ).one()
            if count >= MAX_STAFF:
                raise AccessError(
                    f"evening {evening_id} has {count} staff", "Trop de membres pour la caisse."
                )
            s.add(
                m.StaffRow(
                    evening_id=evening_id, name=clean, role=role, secret_hash=hash_secret(secret)
                )
            )
            try:
                s.commit()
            except IntegrityError as exc:
                raise AccessError(
                    f"staff name {clean!r} already used", f"« {clean} » existe déjà."
                ) from exc
        return secret

    def reset_staff_secret(self, evening_id: int, name: str) -> str:
        """A new secret for a member (a lost one); the old one stops working."""
        secret = secrets.token_urlsafe(9)
        with Session(self.engine) as s:
            row = s.exec(
                select(m.StaffRow).where(
                    m.StaffRow.evening_id == evening_id, m.StaffRow.name == name
                )
            ).first()
            if row is None:
                raise AccessError(f"no staff {name!r} in evening {evening_id}", "Membre inconnu.")
            row.secret_hash = hash_secret(secret)
            row.active = True
            s.add(row)
            s.commit()
        return secret

    def staff(self, evening_id: int) -> list[StaffMember]:
        """The desk's members, in creation order."""
        with Session(self.engine) as s:
            rows = s.exec(
                select(m.StaffRow)
                .where(m.StaffRow.evening_id == evening_id)
                .order_by(m.StaffRow.id)
            ).all()
        return [StaffMember(r.id or 0, r.name, r.role, r.active) for r in rows]

    def set_active(self, evening_id: int, staff_id: int, active: bool) -> None:
        """Withdraw (or give back) a member's access; their past sales stay theirs."""
        with Session(self.engine) as s:
            row = s.get(m.StaffRow, staff_id)
            if row is None or row.evening_id != evening_id:
                raise AccessError(f"no staff {staff_id} in evening {evening_id}", "Membre inconnu.")
            if active:  # (withdrawing an access stays possible on a closed evening)
                _still_open(s, evening_id)
            row.active = active
            s.add(row)
            s.commit()

    def staff_for_secret(self, evening_id: int, secret: str) -> StaffMember | None:
        """The active member this secret signs in as."""
        if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
            return None
        with Session(self.engine) as s:
            r = s.exec(
                select(m.StaffRow).where(
                    m.StaffRow.evening_id == evening_id,
                    m.StaffRow.secret_hash == hash_secret(secret),
                    m.StaffRow.active == sa.true(),
                )
            ).first()
        return StaffMember(r.id or 0, r.name, r.role, r.active) if r else None
