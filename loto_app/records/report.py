"""The end-of-evening report: what was played, claimed, won, sold and handed over, with times.

`build_report` reads an evening's audit log (the source of truth, with the time of every entry)
and checks it: the hash chain (`EveningStore.verify_audit`), a replay through the engine, and
the query tables against the log. Everything else is made of small pure functions over
`(seq, at, event)` entries, so the report can be built and tested without a database.

All times in the report are timezone-aware UTC datetimes; `local_time` turns them into the
hall's time (Europe/Paris) for display.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session, select

from loto_app.domain import commitment as draws
from loto_app.domain import events as ev
from loto_app.domain.own_cartons import carton_label
from loto_app.domain.program import KIND_LABELS, Kind, Program
from loto_app.domain.serial import lot_ticket_code
from loto_app.domain.settings_catalog import BY_NAME as SETTING_SPECS
from loto_app.domain.till import METHOD_LABELS, SaleStatus, refunded, totals
from loto_app.domain.verdicts import VERDICT_LABELS, Verdict
from loto_app.records.reconciliation import Reconciliation, reconcile
from loto_app.storage import models as m
from loto_app.storage.eventlog import evening_rows
from loto_app.storage.repository import EveningStore
from loto_app.wording import SHARE_LABELS, VOUCHER, euros

#: One audit log entry: its sequence number, its time (UTC) and its event.
Entry = tuple[int, datetime, ev.Event]

try:
    REPORT_TZ: tzinfo = ZoneInfo("Europe/Paris")
except ZoneInfoNotFoundError:  # pragma: no cover - a system without tz data
    REPORT_TZ = UTC

ORIGIN_LABELS: dict[str, str] = {
    "hall": "Dans la salle (téléphone)",
    "remote": "À distance (invitation)",
    "paper": "Cartons papier (comptoir)",
}
VIA_LABELS: dict[str, str] = {"app": "Téléphone", "desk": "Comptoir"}
TIE_METHOD_LABELS: dict[str, str] = {
    "draw": "Tirage des jetons",
    "share": "Partage du lot",
    "each": "Chacun un lot identique",
    "sudden": "Mort subite",
}
#: Why a stage was not played to its end (`StageLapsed.why`).
LAPSED_LABELS: dict[str, str] = {
    "within": "non gagné dans le nombre de numéros",
    "jackpot_won": "non joué (jackpot gagné)",
}
BAG_LABEL = "Jetons tirés du sac"
#: Where a lot ticket comes from.
TICKET_ORIGIN_LABELS: dict[str, str] = {
    "award": "Attribution",
    "decision": "Décision (litige)",
    "tie": "Carton offert (ex aequo)",
    "dispute": "Carton offert (litige)",
}
DECIDER_LABELS: dict[str, str] = {"animateur": "Animateur", "organisateur": "Organisateur"}
GAME_STATUS_LABELS: dict[str, str] = {
    "not_played": "Non jouée",
    "running": "En cours",
    "awaiting_unmark": "Lots attribués, démarquage non annoncé",
    "finished": "Terminée",
}
SALE_STATUS_LABELS: dict[SaleStatus, str] = {
    SaleStatus.PAID: "Payée",
    SaleStatus.PENDING: "À régler",
    SaleStatus.CANCELLED: "Annulée",
}
#: A cancelled sale that gave its money back (`till.refunded`).
REFUNDED_LABEL = "Remboursée"
#: The name shown for a claim made at the desk on a carton nobody holds.
PAPER_NAME = "Carton papier"


# ---------------------------------------------------------------------- the report's values


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A player: pseudonym, how they joined, when, and the cartons they hold."""

    player_id: str
    name: str
    origin: str
    origin_label: str
    joined_at: datetime
    cartons: int
    free_cartons: int


@dataclass(frozen=True, slots=True)
class StageLine:
    """A stage of a game and its lot."""

    index: int
    pattern: str
    label: str
    lot: str
    lot_value_cents: int
    divisible: bool
    awarded_at: datetime | None
    lapsed: str = ""  # why it was not played to its end (`LAPSED_LABELS`), "" when it was


@dataclass(frozen=True, slots=True)
class DrawLine:
    """A number drawn: `number` is the final one; `replaced` the mistyped balls it corrected."""

    game: int
    seq: int
    number: int
    at: datetime
    source: str
    replaced: tuple[int, ...] = ()
    corrected_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ClaimLine:
    """A claim and its verdict."""

    no: int
    game: int
    stage: int
    stage_label: str
    at: datetime
    player_id: str | None
    player_name: str
    carton_no: int
    unit_nos: tuple[int, ...]
    number: int | None
    verdict: str
    verdict_label: str
    via: str
    via_label: str
    decided: str = ""  # the verdict a decision of the association gave instead (French)
    carton: str = ""  # how the carton is named (« ROUGE n° 347 »: an own série's)


@dataclass(frozen=True, slots=True)
class DecisionLine:
    """A decision of the association on a dispute (art. 8): who, what, for whom, why."""

    game: int
    at: datetime
    by: str
    by_label: str
    what: str  # in French
    player_name: str
    reason: str
    claim_no: int | None = None
    ticket_no: int | None = None


@dataclass(frozen=True, slots=True)
class TokenDraw:
    """One tied player's token."""

    player_id: str
    player_name: str
    token: int
    won: bool


@dataclass(frozen=True, slots=True)
class TieLine:
    """An ex aequo and how it was settled (tokens, or an agreed share)."""

    game: int
    stage: int
    stage_label: str
    at: datetime
    method: str
    method_label: str
    tokens: tuple[TokenDraw, ...]
    winners: tuple[str, ...]  # names
    share_answers: tuple[tuple[str, bool], ...]  # (name, accepted)
    consolations: tuple[tuple[str, tuple[int, ...]], ...]  # (name, free carton nos)
    vouchers: tuple[tuple[str, int], ...] = ()  # (name, voucher ticket no): no game left
    balls: tuple[int, ...] = ()  # a mort subite's extra balls, in order


@dataclass(frozen=True, slots=True)
class AwardLine:
    """A lot ticket: the lot, its winner and whether the desk handed it over."""

    ticket_no: int
    game: int
    stage: int
    stage_label: str
    lot: str
    lot_value_cents: int
    player_id: str
    player_name: str
    share: str
    share_label: str
    code: str
    at: datetime
    handed_over: bool
    handed_by: str
    handed_at: datetime | None
    kind: str = "lot"  # "lot" | "voucher" (a "carton offert" voucher)
    origin: str = "award"  # "award" | "decision" | "tie" | "dispute"
    voided: bool = False  # withdrawn by a decision: the desk must not hand it over
    voided_reason: str = ""

    @property
    def origin_label(self) -> str:
        """Where the ticket comes from, in French."""
        return TICKET_ORIGIN_LABELS.get(self.origin, self.origin)


@dataclass(frozen=True, slots=True)
class DrawCheck:
    """A game's committed draw: the commitment published before its first number, what it
    binds, the seed once revealed, and the check of the numbers drawn against it."""

    commitment: str
    evening: str
    series: str
    seed: str  # "" until the game's end
    ok: bool | None  # None: not revealed yet
    verdict: str  # in French

    @property
    def short(self) -> str:
        """The commitment as the hall screen showed it."""
        return draws.short(self.commitment)


@dataclass(frozen=True, slots=True)
class GameReport:
    """One game of the program, played or not."""

    index: int
    kind: str
    kind_label: str
    label: str
    status: str
    status_label: str
    started_at: datetime | None
    ended_at: datetime | None
    stages: tuple[StageLine, ...]
    draws: tuple[DrawLine, ...]
    claims: tuple[ClaimLine, ...]
    ties: tuple[TieLine, ...]
    awards: tuple[AwardLine, ...]
    decisions: tuple[DecisionLine, ...] = ()
    draw: DrawCheck | None = None  # the electronic boulier's commitment (None: physical)
    interrupted: bool = False  # the evening was closed while it was in play

    @property
    def number(self) -> int:
        """The game's number as announced (1 for the first)."""
        return self.index + 1

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbers drawn, in order (after corrections)."""
        return tuple(d.number for d in self.draws)


@dataclass(frozen=True, slots=True)
class SaleRecord:
    """A sale of a pack of cartons, as it ended up: paid, à régler, or cancelled (refunded
    when it gave money back, `till.refunded`)."""

    no: int
    at: datetime
    player_id: str
    player_name: str
    offer: int
    pack_label: str
    kind: str
    kind_label: str
    quantity: int
    planche: bool
    amount_cents: int
    method: str
    method_label: str
    seller: str
    cashier: str
    status: SaleStatus
    settled_at: datetime | None
    purchase_no: int
    carton_nos: tuple[int, ...]
    cancelled_at: datetime | None
    cancelled_by: str
    cancel_reason: str
    refunded_cents: int

    def __post_init__(self) -> None:
        # one vocabulary, the domain's: a status named otherwise is refused, not miscounted
        object.__setattr__(self, "status", SaleStatus(self.status))

    @property
    def status_label(self) -> str:
        """The status in French: "Remboursée" for a cancelled sale that gave money back."""
        return REFUNDED_LABEL if refunded(self) else SALE_STATUS_LABELS[self.status]


@dataclass(frozen=True, slots=True)
class TillSummary:
    """The till's totals, as the caissier counts them (`till.totals`), sorted and labelled."""

    collected_cents: int  # every payment received, before refunds
    refunded_cents: int
    received_cents: int  # what stays in the till: collected minus refunds
    pending_cents: int  # orders still "à régler"
    sales: int  # paid sales (not cancelled)
    cartons: int  # cartons (vitrine: units) in those sales
    cancelled: int  # sales cancelled or refunded
    free_cartons: int  # consolation cartons handed after a token draw
    by_seller: tuple[tuple[str, int], ...]
    by_kind: tuple[tuple[str, str, int], ...]  # (kind, label, cents)
    by_method: tuple[tuple[str, str, int], ...]  # (method, label, cents)
    closed: bool
    closed_by: str
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class AuditCheck:
    """The check of the audit log.

    `problems` are the hash chain's findings (`EveningStore.verify_audit`, as it words them);
    `consistency` lists, in French, where the replay or the query tables disagree with the log.
    """

    entries: int
    last_seq: int
    last_hash: str
    first_at: datetime | None
    last_at: datetime | None
    problems: tuple[str, ...]
    consistency: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Nothing found."""
        return not self.problems and not self.consistency

    @property
    def problems_fr(self) -> tuple[str, ...]:
        """The chain's problems in French, for the printed report."""
        return tuple(problem_fr(p) for p in self.problems)


@dataclass(frozen=True, slots=True)
class RemoteSummary:
    """The players at a distance, counted apart from the hall (remote play, `domain/remote.py`):
    the association's invitations, the players they let in, their cartons and their money (as
    the till counts it, `till.totals`)."""

    cap: int
    invited: int
    players: int
    cartons: int
    sales: int
    received_cents: int
    pending_cents: int

    def lines(self) -> tuple[tuple[str, str], ...]:
        """(French label, value) of each count, as the CSV, the PDF and the page say them."""
        return (
            ("À distance : invitations", str(self.invited)),
            ("À distance : joueurs", f"{self.players} (au plus {self.cap})"),
            ("À distance : cartons", str(self.cartons)),
            ("À distance : ventes réglées", str(self.sales)),
            ("À distance : en caisse", euros(self.received_cents)),
            ("À distance : à régler", euros(self.pending_cents)),
        )


@dataclass(frozen=True, slots=True)
class EveningReport:
    """Everything the organisers keep of an evening."""

    evening_id: int
    name: str
    date: str
    join_code: str
    series: str
    settings: tuple[tuple[str, str], ...]  # (French label, French value)
    players: tuple[PlayerLine, ...]
    origins: tuple[tuple[str, str, int], ...]  # (origin, label, players)
    games: tuple[GameReport, ...]
    sales: tuple[SaleRecord, ...]
    till: TillSummary
    audit: AuditCheck
    paper: Reconciliation | None = None
    remote: RemoteSummary | None = None  # (None: no remote play, nobody at a distance)
    closed_at: datetime | None = None  # the organiser closed the evening's books
    closed_by: str = ""
    close_reason: str = ""


# ---------------------------------------------------------------------- small helpers


def as_utc(at: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite returns naive UTC times)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def local_time(at: datetime) -> datetime:
    """A report time in the hall's time zone (Europe/Paris)."""
    return as_utc(at).astimezone(REPORT_TZ)


def problem_fr(problem: str) -> str:
    """A hash-chain problem (`verify_chain`'s English wording) in French."""
    head, sep, what = problem.partition(": ")
    if not sep or not head.startswith("entry "):
        return problem
    n = head.removeprefix("entry ")
    if what == "content does not match its hash":
        return f"Entrée {n} : contenu modifié après coup (l'empreinte ne correspond plus)"
    if what == "previous-hash link broken":
        return f"Entrée {n} : lien avec l'entrée précédente rompu"
    if what.startswith("expected sequence number "):
        expected = what.removeprefix("expected sequence number ")
        return f"Entrée {n} : numéro attendu {expected} (entrée manquante ou ajoutée)"
    return f"Entrée {n} : {what}"


def _kind_label(kind: str) -> str:
    try:
        return KIND_LABELS[Kind(kind)]
    except ValueError:
        return kind


def _verdict_label(verdict: str) -> str:
    try:
        return VERDICT_LABELS[Verdict(verdict)]
    except ValueError:
        return verdict


def _stage_label(program: Program, game: int, stage: int) -> str:
    try:
        return program.games[game].stages[stage].label
    except IndexError:
        return f"Lot {stage + 1}"


def _of(entries: Iterable[Entry], cls: type[ev.Event]) -> Iterable[tuple[int, datetime, Any]]:
    return ((q, at, e) for q, at, e in entries if isinstance(e, cls))


# ---------------------------------------------------------------------- pure builders


def decode_entries(
    rows: Iterable[tuple[int, datetime, dict[str, Any]]],
) -> tuple[list[Entry], list[str]]:
    """Turn audit rows (seq, at, payload) into entries, in seq order.

    Returns:
        The entries, and one French message per payload that is not a known event (such an
        entry is left out of the report).
    """
    entries: list[Entry] = []
    problems: list[str] = []
    for seq, at, payload in sorted(rows, key=lambda r: r[0]):
        try:
            entries.append((seq, as_utc(at), ev.event_from_dict(payload)))
        except (ValueError, TypeError, KeyError) as exc:
            problems.append(f"Entrée {seq} : événement illisible ({exc})")
    return entries, problems


def player_names(entries: Iterable[Entry]) -> dict[str, str]:
    """Player id -> pseudonym."""
    return {e.player_id: e.name for _, _, e in _of(entries, ev.PlayerJoined)}


def player_lines(entries: Sequence[Entry]) -> tuple[PlayerLine, ...]:
    """Every player, in joining order, with the cartons they hold (refunded ones excluded)."""
    held: Counter[str] = Counter()
    free: Counter[str] = Counter()
    by_purchase: dict[int, tuple[str, int]] = {}
    for _, _, e in _of(entries, ev.CartonsSold):
        by_purchase[e.purchase_no] = (e.player_id, len(e.carton_nos))
        held[e.player_id] += len(e.carton_nos)
        if e.reason == "consolation":
            free[e.player_id] += len(e.carton_nos)
    purchase_of_sale: dict[int, int] = {}
    for _, _, e in entries:
        if isinstance(e, ev.SaleRecorded | ev.PaymentConfirmed) and e.purchase_no:
            purchase_of_sale[e.sale_no] = e.purchase_no
        elif isinstance(e, ev.SaleCancelled) and e.sale_no in purchase_of_sale:
            pid, n = by_purchase[purchase_of_sale[e.sale_no]]
            held[pid] -= n
    return tuple(
        PlayerLine(
            e.player_id,
            e.name,
            e.origin,
            ORIGIN_LABELS.get(e.origin, e.origin),
            at,
            held[e.player_id],
            free[e.player_id],
        )
        for _, at, e in _of(entries, ev.PlayerJoined)
    )


def origin_counts(entries: Iterable[Entry]) -> tuple[tuple[str, str, int], ...]:
    """Players per origin: (origin, French label, count), every known origin listed."""
    counts = Counter(e.origin for _, _, e in _of(entries, ev.PlayerJoined))
    keys = [*ORIGIN_LABELS, *sorted(set(counts) - set(ORIGIN_LABELS))]
    return tuple((k, ORIGIN_LABELS.get(k, k), counts[k]) for k in keys)


def remote_summary(
    entries: Sequence[Entry], program: Program, sales: Iterable[SaleRecord]
) -> RemoteSummary | None:
    """The remote players counted apart (None when remote play is off and nobody joined at a
    distance)."""
    remote = {e.player_id for _, _, e in _of(entries, ev.PlayerJoined) if e.origin == "remote"}
    if not remote and not program.settings.remote_play:
        return None
    invited = sum(1 for _ in _of(entries, ev.PlayerInvited))
    cartons = sum(
        len(e.carton_nos) for _, _, e in _of(entries, ev.CartonsSold) if e.player_id in remote
    )
    t = totals([s for s in sales if s.player_id in remote])
    return RemoteSummary(
        program.settings.remote_cap,
        invited,
        len(remote),
        cartons,
        t.sales,
        t.received_cents,
        t.pending_cents,
    )


def settings_lines(program: Program) -> tuple[tuple[str, str], ...]:
    """The evening's announced settings, in French (each as its `settings_catalog` entry
    reports it, in the order of `Settings`' fields), then the program's size and tariff."""
    st = program.settings
    return (
        *(
            (spec.report.label, spec.report.say(getattr(st, f.name)))
            for f in fields(st)
            if (spec := SETTING_SPECS[f.name]).report is not None
        ),
        ("Parties au programme", str(len(program.games))),
        (
            "Tarifs",
            " ; ".join(f"{o.name} : {euros(o.price_cents)}" for o in program.offers),
        ),
    )


def draw_lines(entries: Iterable[Entry], game: int) -> tuple[DrawLine, ...]:
    """The numbers drawn in a game, in order, with their times; corrections applied."""
    lines: dict[int, DrawLine] = {}
    for _, at, e in entries:
        if isinstance(e, ev.NumberDrawn) and e.game == game:
            lines[e.seq] = DrawLine(game, e.seq, e.number, at, e.source)
        elif isinstance(e, ev.DrawCorrected) and e.game == game and e.seq in lines:
            old = lines[e.seq]
            lines[e.seq] = DrawLine(
                game, e.seq, e.new, old.at, old.source, (*old.replaced, e.old), at
            )
    return tuple(lines[s] for s in sorted(lines))


def claim_lines(
    entries: Iterable[Entry], game: int, program: Program, names: Mapping[str, str]
) -> tuple[ClaimLine, ...]:
    """The claims of a game, in order, with their verdicts in French (and the verdict a
    decision of the association gave instead, if any)."""
    entries = list(entries)
    own = {e.base: e.series for _, _, e in _of(entries, ev.OwnCartonsRegistered)}
    decided = {
        e.claim_no: _verdict_label(e.verdict)
        for _, _, e in _of(entries, ev.VerdictOverturned)
        if e.game == game
    }
    return tuple(
        ClaimLine(
            e.claim_no,
            game,
            e.stage,
            _stage_label(program, game, e.stage),
            at,
            e.player_id,
            names.get(e.player_id, e.player_id) if e.player_id else PAPER_NAME,
            e.carton_no,
            e.unit_nos,
            e.number,
            e.verdict,
            _verdict_label(e.verdict),
            e.via,
            VIA_LABELS.get(e.via, e.via),
            decided.get(e.claim_no, ""),
            carton_label(e.carton_no, own),
        )
        for _, at, e in _of(entries, ev.ClaimMade)
        if e.game == game
    )


def tie_lines(
    entries: Sequence[Entry], game: int, program: Program, names: Mapping[str, str]
) -> tuple[TieLine, ...]:
    """The ex aequo of a game: who drew which token, or who agreed to share; and the free
    cartons handed to the players who lost the draw (sold in the same move)."""
    out = []
    answers: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    balls: dict[int, list[int]] = defaultdict(list)
    for i, (_, at, e) in enumerate(entries):
        if isinstance(e, ev.ShareAnswered) and e.game == game:
            answers[e.stage].append((names.get(e.player_id, e.player_id), e.accepted))
        if isinstance(e, ev.SuddenDeathBall) and e.game == game:
            balls[e.stage].append(e.number)
        if not (isinstance(e, ev.TieBroken) and e.game == game):
            continue
        consolations = []
        vouchers = []
        for _, _, x in entries[i + 1 :]:
            if isinstance(x, ev.CartonsSold) and x.reason == "consolation":
                consolations.append((names.get(x.player_id, x.player_id), x.carton_nos))
            elif isinstance(x, ev.VoucherIssued):
                vouchers.append((names.get(x.player_id, x.player_id), x.ticket_no))
            elif not isinstance(x, ev.CartonsPrinted):
                break
        out.append(
            TieLine(
                game,
                e.stage,
                _stage_label(program, game, e.stage),
                at,
                e.method,
                BAG_LABEL
                if e.method == "draw" and e.source == "bag"
                else TIE_METHOD_LABELS.get(e.method, e.method),
                tuple(
                    TokenDraw(pid, names.get(pid, pid), token, pid in e.winners)
                    for pid, token in e.tokens
                ),
                tuple(names.get(p, p) for p in e.winners),
                tuple(answers[e.stage]),
                tuple(consolations),
                tuple(vouchers),
                tuple(balls[e.stage]),
            )
        )
    return tuple(out)


def award_lines(
    entries: Iterable[Entry],
    game: int,
    program: Program,
    names: Mapping[str, str],
    key: bytes | None = None,
) -> tuple[AwardLine, ...]:
    """The lot tickets of a game, by number: lots awarded, lots given by a decision and
    "carton offert" vouchers, with their codes (when the série key is given), whether the
    desk handed them over, and whether a decision withdrew them."""
    entries = list(entries)
    handed = {e.ticket_no: (e.by, at) for _, at, e in _of(entries, ev.LotHandedOver)}
    voided = {e.ticket_no: e.reason for _, _, e in _of(entries, ev.AwardWithdrawn)}
    issued = sorted(
        ((t, at) for _, at, e in entries for t in ev.issued_tickets(e) if t.game == game),
        key=lambda x: x[0].no,
    )
    out = []
    for t, at in issued:
        try:
            lot = program.games[game].stages[t.stage].lot
            description, value = lot.description, lot.value_cents
        except IndexError:
            description, value = "?", 0
        if t.kind == "voucher":
            description, value = VOUCHER, 0
        by, when = handed.get(t.no, ("", None))
        out.append(
            AwardLine(
                t.no,
                game,
                t.stage,
                _stage_label(program, game, t.stage),
                description,
                value,
                t.player_id,
                names.get(t.player_id, t.player_id),
                t.share,
                SHARE_LABELS.get(t.share, t.share),
                lot_ticket_code(key, program.series, t.no, t.player_id) if key else "",
                at,
                t.no in handed,
                by,
                when,
                t.kind,
                t.origin,
                t.no in voided,
                voided.get(t.no, ""),
            )
        )
    return tuple(out)


def decision_lines(
    entries: Iterable[Entry], game: int, program: Program, names: Mapping[str, str]
) -> tuple[DecisionLine, ...]:
    """The association's decisions on the disputes of a game (art. 8), in order."""
    entries = list(entries)
    claims = {e.claim_no: e for _, _, e in _of(entries, ev.ClaimMade)}
    ticket_game = {}
    for _, _, e in entries:
        ticket_game.update({t.no: t.game for t in ev.issued_tickets(e)})

    def name(pid: str | None) -> str:
        return names.get(pid, pid) if pid else PAPER_NAME

    out = []
    for _, at, e in entries:
        claim_no: int | None = None
        ticket_no: int | None = None
        match e:
            case ev.CartonReinstated() if e.game == game:
                what, who = f"Carton {e.carton_no} rétabli dans la partie", e.player_id
            case ev.VerdictOverturned() if e.game == game:
                claim_no, who = e.claim_no, claims[e.claim_no].player_id
                what = (
                    f"Annonce n° {e.claim_no} : « {_verdict_label(e.old)} » devient "
                    f"« {_verdict_label(e.verdict)} »"
                    + (" (compte pour le lot)" if e.entry else "")
                )
            case ev.LotGiven() if e.game == game:
                claim_no, ticket_no, who = e.claim_no, e.ticket_no, e.player_id
                what = (
                    f"Lot « {_stage_label(program, game, e.stage)} » donné "
                    f"(ticket n° {e.ticket_no})"
                )
            case ev.ConsolationGiven() if e.game == game:
                claim_no, who = e.claim_no, e.player_id
                what = f"Consolation donnée pour l'annonce n° {e.claim_no}"
            case ev.AwardWithdrawn() if ticket_game.get(e.ticket_no) == game:
                ticket_no, who = e.ticket_no, e.player_id
                what = f"Ticket n° {e.ticket_no} retiré (lot à ne pas remettre)"
            case _:
                continue
        out.append(
            DecisionLine(
                game,
                at,
                e.by,
                DECIDER_LABELS.get(e.by, e.by),
                what,
                name(who),
                e.reason,
                claim_no,
                ticket_no,
            )
        )
    return tuple(out)


def draw_check(entries: Iterable[Entry], game: int) -> DrawCheck | None:
    """A game's commitment and, once its seed is revealed, the check of its numbers (the
    numbers as drawn: a committed draw has no correction)."""
    committed: ev.DrawCommitted | None = None
    seed = ""
    drawn: list[int] = []
    for _, _, e in entries:
        if getattr(e, "game", None) != game:
            continue
        if isinstance(e, ev.DrawCommitted):
            committed = e
        elif isinstance(e, ev.DrawRevealed):
            seed = e.seed
        elif isinstance(e, ev.NumberDrawn):
            drawn.append(e.number)
    if committed is None:
        return None
    c = committed
    if not seed:
        secret = "graine secrète jusqu'à la fin de la partie"
        return DrawCheck(c.commitment, c.evening, c.series, "", None, secret)
    try:
        check = draws.verify(
            bytes.fromhex(seed), c.evening, c.series, game + 1, c.commitment, tuple(drawn)
        )
    except ValueError:
        return DrawCheck(c.commitment, c.evening, c.series, seed, False, "graine illisible")
    if check.ok:
        verdict = f"conforme : les {len(drawn)} numéros tirés suivent l'ordre engagé"
    elif not check.commitment_ok:
        verdict = "NON CONFORME : la graine ne correspond pas à l'empreinte publiée"
    else:
        verdict = (
            f"NON CONFORME : au {check.position}e numéro, {check.got} au lieu de {check.expected}"
        )
    return DrawCheck(c.commitment, c.evening, c.series, seed, check.ok, verdict)


def game_reports(
    entries: Sequence[Entry], program: Program, names: Mapping[str, str], key: bytes | None = None
) -> tuple[GameReport, ...]:
    """Every game of the program, played or not, with its draws, claims, ties and awards."""
    started: dict[int, datetime] = {}
    ended: dict[int, datetime] = {}
    awarded: dict[tuple[int, int], datetime] = {}
    lapsed: dict[tuple[int, int], str] = {}
    interrupted: int | None = None
    for _, at, e in entries:
        if isinstance(e, ev.GameStarted):
            started[e.game] = at
        elif isinstance(e, ev.UnmarkAllowed):
            ended[e.game] = at
        elif isinstance(e, ev.StageAwarded):
            awarded[e.game, e.stage] = at
        elif isinstance(e, ev.StageLapsed):
            lapsed[e.game, e.stage] = LAPSED_LABELS.get(e.why, e.why)
        elif isinstance(e, ev.EveningClosed):
            interrupted = e.interrupted
    out = []
    for i, spec in enumerate(program.games):
        if i in ended:
            status = "finished"
        elif all((i, s) in awarded or (i, s) in lapsed for s in range(len(spec.stages))):
            status = "awaiting_unmark"
        elif i in started:
            status = "running"
        else:
            status = "not_played"
        out.append(
            GameReport(
                index=i,
                kind=spec.kind.value,
                kind_label=KIND_LABELS[spec.kind],
                label=spec.label,
                status=status,
                status_label=GAME_STATUS_LABELS[status],
                started_at=started.get(i),
                ended_at=ended.get(i),
                stages=tuple(
                    StageLine(
                        s,
                        st.pattern.value,
                        st.label,
                        st.lot.description,
                        st.lot.value_cents,
                        st.lot.divisible,
                        awarded.get((i, s)),
                        lapsed.get((i, s), ""),
                    )
                    for s, st in enumerate(spec.stages)
                ),
                draws=draw_lines(entries, i),
                claims=claim_lines(entries, i, program, names),
                ties=tie_lines(entries, i, program, names),
                awards=award_lines(entries, i, program, names, key),
                decisions=decision_lines(entries, i, program, names),
                draw=draw_check(entries, i),
                interrupted=interrupted == i,
            )
        )
    return tuple(out)


def _pack_label(program: Program, offer: int, kind: str, quantity: int, planche: bool) -> str:
    if 0 <= offer < len(program.offers):
        o = program.offers[offer]
        if (o.kind.value, o.quantity, o.planche) == (kind, quantity, planche):
            return o.label  # (a line of a tariff amended since names another pack)
    return "Planche de 6" if planche else f"{quantity} × {_kind_label(kind)}"


def sale_lines(
    entries: Iterable[Entry], program: Program, names: Mapping[str, str]
) -> tuple[SaleRecord, ...]:
    """Every sale, in sale order, as it ended up: paid (at the desk, or an order settled at the
    caisse), still "à régler", cancelled, or refunded (with who and why)."""
    entries = list(entries)
    cartons = {e.purchase_no: e.carton_nos for _, _, e in _of(entries, ev.CartonsSold)}
    sales: dict[int, dict[str, Any]] = {}
    for _, at, e in entries:
        match e:
            case ev.SaleRecorded():
                pending = e.method == "pending"
                sales[e.sale_no] = {
                    "no": e.sale_no,
                    "at": at,
                    "player_id": e.player_id,
                    "offer": e.offer,
                    "kind": e.kind,
                    "quantity": e.quantity,
                    "planche": e.planche,
                    "amount_cents": e.amount_cents,
                    "method": e.method,
                    "seller": e.seller,
                    "cashier": "",
                    "status": SaleStatus.PENDING if pending else SaleStatus.PAID,
                    "settled_at": None if pending else at,
                    "purchase_no": e.purchase_no,
                    "cancelled_at": None,
                    "cancelled_by": "",
                    "cancel_reason": "",
                    "refunded_cents": 0,
                }
            case ev.PaymentConfirmed() if e.sale_no in sales:
                sales[e.sale_no].update(
                    status=SaleStatus.PAID,
                    method=e.method,
                    cashier=e.cashier,
                    settled_at=at,
                    purchase_no=e.purchase_no,
                )
            case ev.SaleCancelled() if e.sale_no in sales:
                sales[e.sale_no].update(
                    status=SaleStatus.CANCELLED,
                    cancelled_at=at,
                    cancelled_by=e.by,
                    cancel_reason=e.reason,
                    refunded_cents=e.refunded_cents,
                )
            case _:
                pass
    out = []
    for no in sorted(sales):
        s = sales[no]
        out.append(
            SaleRecord(
                **s,
                player_name=names.get(s["player_id"], s["player_id"]),
                pack_label=_pack_label(program, s["offer"], s["kind"], s["quantity"], s["planche"]),
                kind_label=_kind_label(s["kind"]),
                method_label=METHOD_LABELS.get(s["method"], s["method"]),
                carton_nos=tuple(cartons.get(s["purchase_no"], ())),
            )
        )
    return tuple(out)


def till_summary(lines: Iterable[SaleRecord], entries: Iterable[Entry] = ()) -> TillSummary:
    """The till's totals over the sale lines, as the desk adds them up (`till.totals`: a
    cancelled sale counts only by its refund; an order settled at the caisse counts for whoever
    settled it, by their one name), sorted and labelled; the till's closing and the free
    cartons read from the entries."""
    t = totals(lines)
    closed_by, closed_at, free = "", None, 0
    for _, at, e in entries:
        if isinstance(e, ev.TillClosed):
            closed_by, closed_at = e.by, at
        elif isinstance(e, ev.CartonsSold) and e.reason == "consolation":
            free += len(e.carton_nos)
    return TillSummary(
        collected_cents=t.collected_cents,
        refunded_cents=t.refunded_cents,
        received_cents=t.received_cents,
        pending_cents=t.pending_cents,
        sales=t.sales,
        cartons=t.cartons,
        cancelled=t.cancelled,
        free_cartons=free,
        by_seller=tuple(sorted(t.by_seller.items())),
        by_kind=tuple((k, _kind_label(k), t.by_kind[k]) for k in sorted(t.by_kind)),
        by_method=tuple((k, METHOD_LABELS.get(k, k), t.by_method[k]) for k in sorted(t.by_method)),
        closed=closed_at is not None,
        closed_by=closed_by,
        closed_at=closed_at,
    )


def amended_program(entries: Iterable[Entry], program: Program) -> Program:
    """The program as the organiser last amended it (`ProgramAmended`), or as created."""
    for _, _, e in entries:
        if isinstance(e, ev.ProgramAmended):
            program = Program.from_dict(json.loads(e.program))
    return program


def report_from_entries(
    entries: Sequence[Entry],
    program: Program,
    *,
    evening_id: int = 0,
    name: str = "",
    date: str = "",
    join_code: str = "",
    key: bytes | None = None,
    audit: AuditCheck | None = None,
) -> EveningReport:
    """The report of an evening from its entries alone (no database).

    Args:
        entries: the audit log's (seq, at, event), in seq order.
        program: the evening's program.
        evening_id: the evening's id, name, ISO date and join code, as stored.
        name: see `evening_id`.
        date: see `evening_id`; empty: the local date of the first entry.
        join_code: see `evening_id`.
        key: the série's secret key, to print the lot ticket codes (None: no codes).
        audit: the log's check (None: only counted from the entries, nothing verified).
    """
    program = amended_program(entries, program)
    names = player_names(entries)
    sales = sale_lines(entries, program, names)
    if not date and entries:
        date = local_time(entries[0][1]).date().isoformat()
    if audit is None:
        audit = AuditCheck(
            entries=len(entries),
            last_seq=entries[-1][0] if entries else 0,
            last_hash="",
            first_at=entries[0][1] if entries else None,
            last_at=entries[-1][1] if entries else None,
            problems=(),
            consistency=(),
        )
    closing = next(((at, e) for _, at, e in entries if isinstance(e, ev.EveningClosed)), None)
    return EveningReport(
        evening_id=evening_id,
        name=name,
        date=date,
        join_code=join_code,
        series=program.series,
        settings=settings_lines(program),
        players=player_lines(entries),
        origins=origin_counts(entries),
        games=game_reports(entries, program, names, key),
        sales=sales,
        till=till_summary(sales, entries),
        audit=audit,
        paper=reconcile(entries, program.series),
        remote=remote_summary(entries, program, sales),
        closed_at=closing[0] if closing else None,
        closed_by=closing[1].by if closing else "",
        close_reason=closing[1].reason if closing else "",
    )


# ---------------------------------------------------------------------- from the database


def _consistency(
    store: EveningStore, evening_id: int, report: EveningReport, s: Session
) -> list[str]:
    """Where the engine's replay and the query tables disagree with the report (French)."""
    problems: list[str] = []
    try:
        evening, _, _ = store.load(evening_id)
    except Exception as exc:  # a tampered log may not even replay
        return [f"Le journal ne se rejoue pas : {exc!r:.200}"]
    t = totals(list(evening.sales.values()))
    mine = report.till
    if (t.received_cents, t.refunded_cents, t.pending_cents, t.sales, t.cartons) != (
        mine.received_cents,
        mine.refunded_cents,
        mine.pending_cents,
        mine.sales,
        mine.cartons,
    ):
        problems.append("Les totaux de caisse rejoués diffèrent de ceux du rapport.")
    for g in report.games:
        drawn = list(evening.games[g.index].drawn) if g.index < len(evening.games) else []
        if drawn != list(g.numbers):
            problems.append(f"Partie {g.number} : les numéros rejoués diffèrent du rapport.")
    rows = s.exec(
        select(m.DrawRow.game_idx, m.DrawRow.number)
        .where(m.DrawRow.evening_id == evening_id)
        .order_by(m.DrawRow.game_idx, m.DrawRow.seq)
    ).all()
    table: dict[int, list[int]] = defaultdict(list)
    for game, number in rows:
        table[game].append(number)
    for g in report.games:
        if table.get(g.index, []) != list(g.numbers):
            problems.append(f"Partie {g.number} : la table des tirages diffère du journal.")
    sale_rows = {
        r.no: r for r in s.exec(select(m.SaleRow).where(m.SaleRow.evening_id == evening_id)).all()
    }
    for line in report.sales:
        row = sale_rows.pop(line.no, None)
        if row is None or (row.status, row.amount_cents, row.refunded_cents) != (
            line.status.value,
            line.amount_cents,
            line.refunded_cents,
        ):
            problems.append(f"Vente {line.no} : la table des ventes diffère du journal.")
    problems += [f"Vente {no} : absente du journal." for no in sorted(sale_rows)]
    tickets = {t.ticket_no: t.handed_over for g in report.games for t in g.awards}
    award_rows = s.exec(
        select(m.AwardRow.ticket_no, m.AwardRow.handed_over).where(
            m.AwardRow.evening_id == evening_id
        )
    ).all()
    if dict(award_rows) != tickets:
        problems.append("La table des lots diffère du journal.")
    if set(evening.handed_over) != {no for no, handed in tickets.items() if handed}:
        problems.append("Les lots remis rejoués diffèrent du rapport.")
    return problems


def build_report(store: EveningStore, evening_id: int) -> EveningReport:
    """The report of an evening, read from its audit log and checked.

    Args:
        store: the database.
        evening_id: the evening.

    Returns:
        The report; its `audit` holds the hash chain's problems and any disagreement between
        the log, its replay through the engine and the query tables.

    Raises:
        KeyError: no such evening.
    """
    with Session(store.engine) as s:
        row, series = evening_rows(s, evening_id)
        program = Program.from_dict(row.program)
        audit_rows = s.exec(
            select(m.AuditRow.seq, m.AuditRow.at, m.AuditRow.payload, m.AuditRow.hash)
            .where(m.AuditRow.evening_id == evening_id)
            .order_by(m.AuditRow.seq)
        ).all()
        entries, unreadable = decode_entries((q, at, p) for q, at, p, _ in audit_rows)
        date = row.date or local_time(row.created_at).date().isoformat()
        report = report_from_entries(
            entries,
            program,
            evening_id=evening_id,
            name=row.name,
            date=date,
            join_code=row.join_code,
            key=bytes.fromhex(series.key_hex),
        )
        consistency = unreadable + _consistency(store, evening_id, report, s)
    last = audit_rows[-1] if audit_rows else None
    audit = AuditCheck(
        entries=len(audit_rows),
        last_seq=last[0] if last else 0,
        last_hash=last[3] if last else "",
        first_at=as_utc(audit_rows[0][1]) if audit_rows else None,
        last_at=as_utc(last[1]) if last else None,
        problems=tuple(store.verify_audit(evening_id)),
        consistency=tuple(consistency),
    )
    return replace(report, audit=audit)


__all__ = [
    "ORIGIN_LABELS",
    "PAPER_NAME",
    "REPORT_TZ",
    "AuditCheck",
    "AwardLine",
    "ClaimLine",
    "DecisionLine",
    "DrawCheck",
    "DrawLine",
    "Entry",
    "EveningReport",
    "GameReport",
    "PlayerLine",
    "SaleRecord",
    "StageLine",
    "TieLine",
    "TillSummary",
    "TokenDraw",
    "as_utc",
    "award_lines",
    "build_report",
    "claim_lines",
    "decision_lines",
    "decode_entries",
    "draw_check",
    "draw_lines",
    "game_reports",
    "local_time",
    "origin_counts",
    "player_lines",
    "player_names",
    "problem_fr",
    "report_from_entries",
    "sale_lines",
    "settings_lines",
    "till_summary",
]
