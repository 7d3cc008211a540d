"""Money: Decimal dollars rounded to the cent half-up, the way a bill is written."""

from __future__ import annotations

from decimal import Decimal

import pytest

from outfall.kernel.money import to_cents, usd


@pytest.mark.parametrize(
    ("raw", "dollars"),
    [
        ("300", "300.00"),
        (100, "100.00"),
        ("12.345", "12.35"),
        ("12.344", "12.34"),
        ("0.005", "0.01"),
        ("-0.005", "-0.01"),
        (Decimal("1E+3"), "1000.00"),
    ],
)
def test_an_amount_is_rounded_to_the_cent_half_up(raw, dollars):
    assert usd(raw) == Decimal(dollars)
    assert usd(raw).as_tuple().exponent == -2


def test_a_float_is_read_by_its_shortest_repr_not_its_binary_expansion():
    # 2.675 is 2.67499999… in binary; a bill written from it says $2.68.
    assert usd(2.675) == Decimal("2.68")
    assert usd(0.1 + 0.2) == Decimal("0.30")


@pytest.mark.parametrize("bad", ["three hundred", "", "NaN", "Infinity", None, "1,000"])
def test_what_is_not_a_dollar_amount_is_refused(bad):
    with pytest.raises(ValueError, match="not a dollar amount"):
        usd(bad)


def test_interest_computed_exactly_is_rounded_only_at_the_end():
    # $1,000 at 14% a year for 45 days on a 365-day year is $17.2602…, billed $17.26.
    exact = Decimal("1000") * Decimal("0.14") * Decimal(45) / Decimal(365)
    assert to_cents(exact) == Decimal("17.26")
    assert to_cents(Decimal("2.345")) == Decimal("2.35")
