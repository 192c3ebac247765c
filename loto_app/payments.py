"""The boundary to a payment provider, for orders placed from phones ("à régler").

No provider is wired in: orders are settled by a caissier who received the money (cash or card
at the desk, or a bank transfer for remote players). A provider (a payment link, a terminal)
plugs in here: it implements `PaymentProvider`, and its confirmation calls the same engine move
a caissier does (`Evening.confirm_payment(sale_no, method=provider.name, cashier=...)`), so the
record and the rules stay the same.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PaymentRequest:
    """What a player is shown to pay an order."""

    sale_no: int
    amount_cents: int
    instructions: str
    link: str = ""  # a provider's payment page; empty for manual settlement


class PaymentProvider(Protocol):
    """A way to collect the money of an order."""

    name: str
    instructions: str

    def request(self, sale_no: int, amount_cents: int, player_name: str) -> PaymentRequest:
        """Start collecting an order's money."""
        ...


class ManualProvider:
    """Settled by hand: the desk confirms each order once the money is received (a transfer:
    the caissier)."""

    name = "manual"
    instructions = (
        "Règlement manuel : la caisse confirme chaque commande après avoir reçu l'argent "
        "(espèces ou carte à la caisse ; virement, vérifié par le caissier, pour les joueurs "
        "à distance)."
    )

    def request(self, sale_no: int, amount_cents: int, player_name: str) -> PaymentRequest:
        """Nothing to start: the order waits for the caissier."""
        return PaymentRequest(sale_no, amount_cents, self.instructions)


_PROVIDERS: dict[str, type] = {"manual": ManualProvider}


def provider() -> PaymentProvider:
    """The configured provider (`LOTO_PAYMENT_PROVIDER`, default and only one: manual)."""
    name = os.environ.get("LOTO_PAYMENT_PROVIDER", "manual")
    cls = _PROVIDERS.get(name)
    if cls is None:
        log.error("unknown LOTO_PAYMENT_PROVIDER %r: orders are settled by hand", name)
        cls = ManualProvider
    return cls()
