"""The load benchmark's evening, made through the storage API: the demo program (série "B"),
its draws electronic or typed in (the claim storm chooses the numbers), a free loto when the
phones take their cartons in the app; a known animateur secret, and vendeurs when the desk
sells the cartons.

`create_evening(db_url, ...)` makes it in a migrated database (`load.py --start`, before the
server starts). The app's modules are imported there, not when this module is.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

NAME = "Banc d'essai"


@dataclass(frozen=True)
class BenchEvening:
    """What the bench needs of the evening: its join code, the tariff line of the pack the
    phones get (-1: none of that size), the vendeurs' secrets (desk sales)."""

    code: str
    offer: int
    vendeur_secrets: tuple[str, ...]


def create_evening(
    db_url: str,
    animateur_secret: str,
    *,
    draw_source: str = "electronic",
    cartons: int = 3,
    vendeurs: int = 1,
    cartons_via: str = "desk",
) -> BenchEvening:
    """Create the bench's evening in the (migrated) database at `db_url`.

    Args:
        draw_source: "electronic" draws, or "physical" balls the bench types in (the claim
            storm).
        cartons: the classique pack each phone gets (its tariff line is `offer`).
        vendeurs: vendeurs added when the desk sells (`cartons_via` "desk").
        cartons_via: "desk" (sold at /caisse) or "app" (the in-app order: a free loto).
    """
    from loto_app.domain.program import DrawSource, Settings, demo_program
    from loto_app.storage.access import AccessStore
    from loto_app.storage.db import make_engine
    from loto_app.storage.repository import EveningStore

    settings = Settings(DrawSource(draw_source), free_cartons=cartons_via == "app")
    program = dataclasses.replace(demo_program("B"), settings=settings)
    engine = make_engine(db_url)
    try:
        made = EveningStore(engine).create_evening(NAME, program, animateur_secret=animateur_secret)
        offer = next(
            (
                i
                for i, o in enumerate(program.offers)
                if o.kind.value == "classique" and o.quantity == cartons
            ),
            -1,
        )
        staff: list[str] = []
        if cartons_via == "desk":
            access = AccessStore(engine)
            staff = [
                access.add_staff(made.evening_id, f"Vendeur {i + 1}", "vendeur")
                for i in range(vendeurs)
            ]
    finally:
        engine.dispose()
    return BenchEvening(made.join_code, offer, tuple(staff))
