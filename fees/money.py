"""Euros as people type and read them, to and from whole cents (pure: no Django).

``"6"``, ``"6,5"``, ``"6.50"``, ``"6,50 €"`` are 650 cents; more than two decimals, a sign, or
anything but digits is refused (``None``), never rounded: a cashier's sum must be exact."""

from __future__ import annotations

import re
from decimal import Decimal

MAX_CENTS = 99_999_99  # 99 999,99 €: far above any entry fee or annual card
_EUROS = re.compile(r"^(\d{1,5})(?:[.,](\d{1,2}))?$")


def parse(text: str | Decimal | int | None) -> int | None:
    """Cents of ``text`` (euros), or None when it is not an amount of euros with at most two
    decimals between 0 and :data:`MAX_CENTS`."""
    if text is None:
        return None
    if isinstance(text, Decimal):
        if not text.is_finite() or text < 0 or text != text.quantize(Decimal("0.01")):
            return None
        cents = int(text * 100)
        return cents if cents <= MAX_CENTS else None
    if isinstance(text, int):
        return text * 100 if 0 <= text * 100 <= MAX_CENTS else None
    match = _EUROS.match(text.replace("€", "").strip())
    if match is None:
        return None
    euros, decimals = match.groups()
    return int(euros) * 100 + int((decimals or "0").ljust(2, "0"))


def decimal(cents: int | None) -> Decimal | None:
    """``650`` → ``Decimal("6.50")`` (the API's and the forms' value)."""
    return None if cents is None else (Decimal(cents) / 100).quantize(Decimal("0.01"))


def shown(cents: int, comma: bool = True) -> str:
    """``650`` → ``"6,50"`` (Italian pages and Excel's CSV) or ``"6.50"`` (``comma=False``)."""
    text = f"{cents // 100}.{cents % 100:02d}"
    return text.replace(".", ",") if comma else text
