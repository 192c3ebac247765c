"""The evening's constants and the state of its games."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from loto_app.domain import events as ev
from loto_app.domain.cartons import (
    Carton,
)
from loto_app.domain.program import (
    GameSpec,
    Kind,
    Stage,
)
from loto_app.domain.verdicts import Verdict
from loto_app.limits import MAX_PLAYER_NAME

MAX_NAME = MAX_PLAYER_NAME
MAX_PER_SALE = 36  # cartons (or vitrine units) in one sale
MAX_PAPER_SHEETS = 50  # sheets (6 cartons each) printed on paper in one go
#: why the desk refused a pre-printed carton (`PaperCartonRefused`)
PAPER_REFUSALS = ("unknown", "sold")
BALLS = range(1, 91)
TOKEN_BAG = 90  # tokens numbered 1..90 in the tie-break bag
#: verdicts of a claim checked on the grid (one such claim per unit, stage and number)
JUDGED = (Verdict.VALID, Verdict.LATE, Verdict.FALSE, Verdict.ANNULLED, Verdict.AFTER_AWARD)
ORIGINS = ("hall", "remote", "paper")
#: how an order cancelled by its player from the phone is recorded (`cancel_order`)
PLAYER_CANCEL_BY = "joueur"
PLAYER_CANCEL_REASON = "Annulée par le joueur sur son téléphone"
#: who settles a dispute (art. 8): the signed-in animateur or the organiser
DECIDERS = ("animateur", "organisateur")
MAX_DECISION_REASON = 200
#: settings the game in play depends on: changed only between games
PLAY_SETTINGS = (
    "draw_source",
    "auto_marking",
    "tie_method",
    "token_source",
    "last_call_seconds",
    "claim_hint",
    "one_to_go",
)
#: a decision may overturn these verdicts, to "valid" or "false"
OVERTURNABLE = (Verdict.VALID, Verdict.FALSE, Verdict.LATE, Verdict.AFTER_AWARD)


class GameStatus(StrEnum):
    """Where a game stands."""

    RUNNING = "running"  # numbers are drawn, a stage is in play
    AWAITING_UNMARK = "awaiting_unmark"  # every lot awarded; waiting for "vous pouvez démarquer"
    FINISHED = "finished"  # démarquage allowed: the game is over


@dataclass(frozen=True, slots=True)
class IssuedCarton:
    """A carton of the série: its number, kind, unit (vitrine: 3 cartons share one) and grid."""

    no: int
    kind: Kind
    unit: int
    carton: Carton


@dataclass(frozen=True, slots=True)
class Purchase:
    """Cartons handed to a player, and the first game they play."""

    no: int
    player_id: str
    kind: Kind
    carton_nos: tuple[int, ...]
    first_game: int
    reason: str


@dataclass(slots=True)
class Tie:
    """The settling of an ex aequo on the stage in play."""

    share_offered_to: tuple[str, ...] = ()
    answers: dict[str, bool] = field(default_factory=dict)
    broken: ev.TieBroken | None = None
    sudden: list[ev.SuddenDeathBall] = field(default_factory=list)  # the mort subite's balls

    @property
    def closed(self) -> bool:
        """Claims are closed once the animateur started settling the tie."""
        return bool(self.share_offered_to) or self.broken is not None or bool(self.sudden)

    @property
    def share_refused(self) -> bool:
        """One of the two players said no."""
        return any(a is False for a in self.answers.values())


@dataclass(slots=True)
class Game:
    """One game being played (or played)."""

    index: int
    spec: GameSpec
    status: GameStatus = GameStatus.RUNNING
    stage: int = 0  # index of the stage in play (== len(stages) once all are awarded)
    drawn: list[int] = field(default_factory=list)
    marks: dict[int, set[int]] = field(default_factory=dict)  # carton no -> marked numbers
    annulled: set[int] = field(default_factory=set)  # unit nos annulled after a false claim
    claims: list[ev.ClaimMade] = field(default_factory=list)
    awards: list[ev.StageAwarded] = field(default_factory=list)
    tie_breaks: list[ev.TieBroken] = field(default_factory=list)
    corrections: list[ev.DrawCorrected] = field(default_factory=list)
    tie: Tie = field(default_factory=Tie)
    # the stage in play when the last number came out: claims are judged on it until the next
    # number (art. 2), even once its lot is awarded
    claim_stage: int = 0
    last_call: ev.LastCallOpened | None = None  # "Pas d'autre quine ?" running
    called: set[tuple[int, int]] = field(default_factory=set)  # (stage, number) given a last call
    overturned: dict[int, ev.VerdictOverturned] = field(default_factory=dict)  # claim no ->
    # the electronic boulier's commitment to the game's whole order, and its seed once revealed
    commitment: ev.DrawCommitted | None = None
    revealed: str = ""
    # indexes kept by `Evening.apply`: judged claims by (stage, number, unit), and the players
    # with a valid claim on each stage (the entries), in claim order
    judged: set[tuple[int, int | None, tuple[int, ...]]] = field(default_factory=set)
    valid: dict[int, dict[str, None]] = field(default_factory=dict)
    lapsed: list[ev.StageLapsed] = field(default_factory=list)  # stages no longer in play
    # the partie inversée: units out (a number of theirs drawn)
    knocked: set[int] = field(default_factory=set)

    @property
    def stage_spec(self) -> Stage | None:
        """The stage in play, or None once every lot is awarded."""
        return self.spec.stages[self.stage] if self.stage < len(self.spec.stages) else None

    @property
    def last(self) -> int | None:
        """The last number drawn."""
        return self.drawn[-1] if self.drawn else None

    def stage_claims(self, stage: int | None = None) -> list[ev.ClaimMade]:
        """The claims made on a stage (default: the one in play)."""
        s = self.stage if stage is None else stage
        return [c for c in self.claims if c.stage == s]

    def entries(self) -> tuple[str, ...]:
        """The players with a valid claim on the stage in play, once each, in claim order."""
        return tuple(self.valid.get(self.stage, ()))

    def settled(self, stage: int) -> bool:
        """Has the animateur settled this stage (awarded it, offered the share, drawn tokens)?
        A valid claim on a settled stage is no entry any more ("valide après l'attribution")."""
        return stage < self.stage or (stage == self.stage and self.tie.closed)

    def verdict_of(self, claim: ev.ClaimMade) -> str:
        """A claim's verdict now: the app's, or the one a decision put instead (art. 8)."""
        o = self.overturned.get(claim.claim_no)
        return o.verdict if o is not None else claim.verdict

    def claim(self, claim_no: int) -> ev.ClaimMade | None:
        """A claim of this game by its number."""
        return next((c for c in self.claims if c.claim_no == claim_no), None)

    def is_entry(self, claim: ev.ClaimMade) -> bool:
        """Does this claim make its player an entry of its stage: valid, or made one by a
        decision (art. 8)?"""
        o = self.overturned.get(claim.claim_no)
        return o.entry if o is not None else claim.verdict == Verdict.VALID

    def recount(self, stage: int) -> None:
        """Rebuild the entries of a stage from its claims (after a decision changed one)."""
        players: dict[str, None] = {}
        for c in self.claims:
            if c.stage == stage and c.player_id is not None and self.is_entry(c):
                players.setdefault(c.player_id, None)
        if players:
            self.valid[stage] = players
        else:
            self.valid.pop(stage, None)
