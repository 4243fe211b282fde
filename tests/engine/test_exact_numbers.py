"""Exact scores of any size: a score, a total or a sent number is turned into its decimal (at most
DECIMALS places, rounded half up once) whatever its length; Python's default decimal context
(28 digits) used to trap on a whole number of 29 digits or more (``1E+28``), so a publish or an
export carrying one failed."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as s

from engine import exact


@given(s.integers(min_value=-(10**60), max_value=10**60), s.integers(min_value=0, max_value=40))
def test_a_terminating_decimal_of_any_size_is_kept_exactly(whole: int, places: int) -> None:
    value = Decimal(whole).scaleb(-places)
    got = exact.decimal(value)
    assert Fraction(got) == Fraction(value)  # a terminating decimal is never rounded
    assert exact.loads(exact.dumps({"n": value}))["n"] == got


@given(s.integers(min_value=1, max_value=60))
def test_a_power_of_ten_past_the_contexts_precision_is_a_whole_number(exponent: int) -> None:
    assert exact.decimal(Decimal(f"1E+{exponent}")) == 10**exponent
    assert exact.text(Decimal(f"1E+{exponent}")) == str(10**exponent)


@given(s.integers(min_value=-(10**50), max_value=10**50), s.integers(min_value=1, max_value=10**6))
def test_a_fraction_of_any_size_is_rounded_half_up_to_its_places(numerator: int, denominator: int) -> None:
    value = Fraction(numerator, denominator)
    got = Fraction(exact.decimal(value))
    assert abs(got - value) <= Fraction(1, 2 * 10**exact.DECIMALS)
