"""Money as Decimal dollars, rounded to the cent half-up (the way a bill is written)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


def usd(value: object) -> Decimal:
    """Parse a dollar amount (str, int, float or Decimal) and round it to the cent."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError) as exc:
        raise ValueError(f"not a dollar amount: {value!r}") from exc
    if not amount.is_finite():
        raise ValueError(f"not a dollar amount: {value!r}")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def to_cents(amount: Decimal) -> Decimal:
    """Round an already-computed Decimal to the cent, half-up."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)
