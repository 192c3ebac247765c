"""The organiser's program and media: lot photos, partners, the program amended between games."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.evening.base import EveningCore, applies
from loto_app.domain.evening.checks import check_digest, check_staff_name, is_int, lot_key
from loto_app.domain.evening.state import PLAY_SETTINGS, GameStatus
from loto_app.domain.program import (
    KIND_LABELS,
    GameSpec,
    Kind,
    Program,
    Stage,
    default_offers,
)
from loto_app.limits import MAX_PARTNER_NAME, MAX_PARTNERS


class ProgramMoves(EveningCore):
    """The organiser's moves on the program and its media."""

    def set_lot_photo(self, lot: str, digest: str) -> list[ev.Event]:
        """Attach a photo to a lot of the program (every game that plays a lot of that
        description shows it), or remove it (`digest` "")."""
        key = lot_key(lot)
        if not key or key not in {lot_key(s.lot.description) for s in self._stages()}:
            raise err.PictureRefused(
                f"no lot {lot!r:.60} in the program", "Ce lot n'est pas au programme."
            )
        if digest == "":
            if key not in self.lot_photos:
                raise err.PictureRefused(
                    f"lot {lot!r:.60} has no photo", "Ce lot n'a pas de photo."
                )
        else:
            check_digest(digest)
        return self._emit(ev.LotPhotoSet(lot.strip(), digest))

    def add_partner(self, name: str, digest: str) -> list[ev.Event]:
        """A partner's logo for the hall screen (at most `MAX_PARTNERS`)."""
        clean = " ".join(name.split()) if isinstance(name, str) else ""
        if not clean or len(clean) > MAX_PARTNER_NAME or not clean.isprintable():
            raise err.InvalidArgument(
                f"partner name {name!r:.50}",
                f"Le nom du partenaire doit faire de 1 à {MAX_PARTNER_NAME} caractères.",
            )
        check_digest(digest)
        if any(d == digest for _, d in self.partners):
            raise err.PictureRefused(f"logo {digest[:12]} given twice", "Ce logo est déjà là.")
        if len(self.partners) >= MAX_PARTNERS:
            raise err.PictureRefused(
                f"{len(self.partners)} partners already",
                f"{MAX_PARTNERS} partenaires au plus : retirez-en un d'abord.",
            )
        return self._emit(ev.PartnerAdded(clean, digest))

    def remove_partner(self, digest: str) -> list[ev.Event]:
        """Take a partner's logo off the hall screen."""
        if not isinstance(digest, str) or all(d != digest for _, d in self.partners):
            raise err.PictureRefused(
                f"no partner logo {digest!r:.20}", "Ce partenaire n'est plus là."
            )
        return self._emit(ev.PartnerRemoved(digest))

    def _stages(self) -> list[Stage]:
        return [s for g in self.program.games for s in g.stages]

    @property
    def first_amendable_game(self) -> int:
        """The first game the organiser may still change: every earlier one has started."""
        return len(self.games)

    def amend_program(self, program: Program, by: str = "organisateur") -> list[ev.Event]:
        """The organiser's new program, for the games not started yet.

        The games already started (the one in play included) stay as they were, and so does
        the série (cartons are printed in it); while a game is in play, the settings it
        depends on (`PLAY_SETTINGS`) stay too; free cartons cannot be switched once a sale is
        recorded. Cartons already sold keep their price (the sale recorded it) and play the
        games of their kind from their first game: an amendment that would leave sold cartons
        with no game of their kind to play is refused. The legal checks are the program's own
        (`Program` validates itself on construction).

        Raises:
            AmendmentRefused: with the French reason.
        """
        self._open()
        if self.is_over:
            raise err.AmendmentRefused("the evening is over", "La soirée est terminée.")
        return self._amend(program, by)

    def add_game(
        self, spec: GameSpec, by: str = "animateur", at: int | None = None
    ) -> list[ev.Event]:
        """A partie improvisée: a game added during the evening (a donor arrived with a lot),
        by the animateur or the organiser, at `at` (default: after the games already started;
        never before one of them), even once every announced game is played. It enters the
        program (`ProgramAmended`), so the règlement, the report and the replay know it; until
        it starts it is edited like any game not started.

        Raises:
            AmendmentRefused: a position among the games already started.
        """
        self._open()
        if not isinstance(spec, GameSpec):
            raise err.InvalidArgument(f"added game of {type(spec).__name__}, not a GameSpec")
        frozen = self.first_amendable_game
        games = self.program.games
        at = len(games) if at is None else at
        if not is_int(at) or not frozen <= at <= len(games):
            raise err.AmendmentRefused(
                f"improvised game at {at!r:.10}, not in {frozen}..{len(games)}",
                "Une partie ajoutée se joue après celles qui ont commencé.",
            )
        added = replace(spec, improvised=True)
        offers = self.program.offers
        if added.kind not in self.program.kinds():  # cartons of a kind not sold yet tonight
            offers = (*offers, *default_offers({added.kind}))
        program = replace(self.program, games=(*games[:at], added, *games[at:]), offers=offers)
        return self._amend(program, by)

    def _amend(self, program: Program, by: str) -> list[ev.Event]:
        if not isinstance(program, Program):
            raise err.InvalidArgument(f"amendment of {type(program).__name__}, not a Program")
        by = check_staff_name(by)
        old, frozen = self.program, self.first_amendable_game
        remote = sum(1 for o in self.origins.values() if o == "remote")
        if program.settings.remote_play and program.settings.remote_cap < remote:
            raise err.AmendmentRefused(
                f"remote cap {program.settings.remote_cap} below {remote} remote players",
                f"{remote} joueurs à distance ont déjà rejoint la soirée\u00a0: le nombre "
                "maximum ne peut pas descendre plus bas.",
            )
        if program.series != old.series:
            raise err.AmendmentRefused(
                f"series {old.series!r} -> {program.series!r:.20}",
                "Le code de série ne change plus : les cartons sont imprimés dans cette série.",
            )
        if len(program.games) < frozen or program.games[:frozen] != old.games[:frozen]:
            changed = next(
                (
                    i
                    for i in range(frozen)
                    if i >= len(program.games) or program.games[i] != old.games[i]
                ),
                frozen - 1,
            )
            raise err.AmendmentRefused(
                f"game {changed} has started: it cannot be amended",
                f"La partie {changed + 1} a commencé : elle ne peut plus être modifiée.",
            )
        g = self.game
        if g is not None and g.status is not GameStatus.FINISHED:
            for name in PLAY_SETTINGS:
                if getattr(program.settings, name) != getattr(old.settings, name):
                    raise err.AmendmentRefused(
                        f"setting {name} changed while game {g.index} is in play",
                        f"La partie {g.index + 1} est en cours : ce réglage (tirage, marquage, "
                        "ex aequo, dernier appel, aide) attendra la fin de la partie.",
                    )
        if program.settings.free_cartons != old.settings.free_cartons and self.sales:
            raise err.AmendmentRefused(
                "free_cartons changed after a sale",
                "Des ventes sont enregistrées : le loto gratuit ne peut plus changer.",
            )
        for kind in sorted({p.kind for p in self.purchases}, key=list(Kind).index):
            still_sold = any(
                p.kind is kind and not self.voided.issuperset(p.carton_nos) for p in self.purchases
            )
            was = any(s.kind is kind for s in old.games[frozen:])
            now = any(s.kind is kind for s in program.games[frozen:])
            if still_sold and was and not now:
                raise err.AmendmentRefused(
                    f"sold {kind} cartons would have no game left",
                    f"Des cartons « {KIND_LABELS[kind].lower()} » sont vendus : gardez au "
                    "moins une partie de ce type à venir.",
                )
        if program == old:
            raise err.AmendmentRefused("no change", "Aucun changement à enregistrer.")
        text = json.dumps(program.to_dict(), ensure_ascii=False, sort_keys=True)
        return self._emit(ev.ProgramAmended(text, frozen, by))


@applies(ev.LotPhotoSet)
def _lot_photo_set(self: Any, e: ev.LotPhotoSet) -> None:
    if e.digest:
        self.lot_photos[lot_key(e.lot)] = e.digest
    else:
        self.lot_photos.pop(lot_key(e.lot), None)


@applies(ev.PartnerAdded)
def _partner_added(self: Any, e: ev.PartnerAdded) -> None:
    self.partners.append((e.name, e.digest))


@applies(ev.PartnerRemoved)
def _partner_removed(self: Any, e: ev.PartnerRemoved) -> None:
    self.partners = [(n, d) for n, d in self.partners if d != e.digest]


@applies(ev.ProgramAmended)
def _program_amended(self: Any, e: ev.ProgramAmended) -> None:
    self.program = Program.from_dict(json.loads(e.program))
