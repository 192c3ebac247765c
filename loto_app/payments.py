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

from loto_app.refusal import Refusal

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


class OnlinePaymentRefused(Refusal, ValueError):
    """An online payment provider with remote play on: refused (QE 17-2417: no loto online)."""

    default_user_message = (
        "Jeu à distance\u00a0: pas de paiement en ligne. La caisse confirme chaque règlement "
        "à la main (règlement manuel)."
    )


def check_provider(name: str, *, remote_play: bool) -> None:
    """With remote play on, only the manual settlement (`manual`): a caissier confirms each
    order. Anything else is refused.

    Raises:
        OnlinePaymentRefused: another provider with remote play on.
    """
    if remote_play and name != ManualProvider.name:
        raise OnlinePaymentRefused(f"payment provider {name!r:.30} with remote play on")


def provider(*, remote_play: bool = False) -> PaymentProvider:
    """The configured provider (`LOTO_PAYMENT_PROVIDER`, default and only one: manual). With
    remote play on, any other is refused (logged) and the manual one used (`check_provider`)."""
    name = os.environ.get("LOTO_PAYMENT_PROVIDER", "manual")
    try:
        check_provider(name, remote_play=remote_play)
    except OnlinePaymentRefused as exc:
        log.error("%s: orders are settled by hand", exc)
        return ManualProvider()
    cls = _PROVIDERS.get(name)
    if cls is None:
        log.error("unknown LOTO_PAYMENT_PROVIDER %r: orders are settled by hand", name)
        cls = ManualProvider
    return cls()
