"""Exact scores: every score is a decimal, never a binary float.

The clubs' formats produce values such as 7.2875 (S-GUFO: 17 × 1.25 ÷ 100 + 7) that a binary
float cannot hold, so rounding one prints 7.287 here and 7.288 there. The engine computes with
exact rationals (:class:`fractions.Fraction`) and hands out :class:`decimal.Decimal` values;
stored JSON, standings, pages and exports keep them as they are.

A value that has no finite decimal form (a place bonus shared three ways, 50 ÷ 3) is given to
:data:`DECIMALS` places, rounded half up, once, here: every later sum adds the same decimal.
"""

from __future__ import annotations

import json
import re
import uuid
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Any

DECIMALS = 4
_FAST_DIGITS = 28  # the default context's precision: normalize/quantize stay exact within it
Number = int | Decimal


def fraction(x: object) -> Fraction:
    """Any number the engine may meet (int, Decimal, Fraction, a decimal string, a legacy float)
    as an exact rational. A float is read by its shortest decimal spelling (0.1 → 1/10)."""
    if isinstance(x, bool):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | Decimal):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(repr(x))
    if isinstance(x, str):
        return Fraction(Decimal(x.strip().replace(",", ".")))
    raise TypeError(f"not a number: {x!r}")


def decimal(x: object) -> Decimal:
    """``x`` as a Decimal: exact when its decimal form ends, else to :data:`DECIMALS` places."""
    try:
        return _remembered(x)
    except TypeError:  # not hashable (or not a number): the plain conversion says which
        return _decimal(x)


# Standings convert the same few scores (45, 7.5, 12.25…) hundreds of thousands of times for a
# year's ranking. Keys are typed, so only values equal in value and type share a result, and
# those always convert alike; a Decimal is immutable, so handing out the same one is safe.
@lru_cache(maxsize=8192, typed=True)
def _remembered(x: object) -> Decimal:
    return _decimal(x)


def _decimal(x: object) -> Decimal:
    if isinstance(x, float):
        x = Decimal(repr(x))  # its shortest decimal spelling, as :func:`fraction` reads it
    if isinstance(x, int):
        return Decimal(x)
    if (isinstance(x, Decimal) and x.is_finite() and len(x.as_tuple().digits) <= _FAST_DIGITS
            and x.adjusted() < _FAST_DIGITS):  # its whole part fits the context too (1E+28 does not)
        # already a terminating decimal (the common case, thousands per standings): no Fraction
        if x.is_zero():
            return Decimal(0)
        return x.quantize(Decimal(1)) if x == x.to_integral_value() else x.normalize()
    q = fraction(x)
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    # beyond the default context's 28 digits quantize would trap: give it what the value needs
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, len(str(abs(q.numerator))) + DECIMALS + 2)
        if d != 1:
            unit = Decimal(1).scaleb(-DECIMALS)
            return (Decimal(q.numerator) / Decimal(q.denominator)).quantize(unit, rounding=ROUND_HALF_UP)
        # a terminating fraction: n / (2^a 5^b) has at most max(a, b) decimals
        places = 0
        den = q.denominator
        while den != 1:
            den //= 2 if den % 2 == 0 else 5
            places += 1
        value = Decimal(q.numerator * (10**places // q.denominator)).scaleb(-places)
        ctx.prec = max(ctx.prec, len(value.as_tuple().digits) + 2)
        return value.normalize() if value != value.to_integral_value() else value.quantize(Decimal(1))


def number(x: object) -> Number:
    """A score for output: a whole number as ``int`` (``"place": 1``), any other as Decimal."""
    try:
        return _remembered_number(x)
    except TypeError:
        return _number(x)


@lru_cache(maxsize=8192, typed=True)  # as _remembered: every standings cell goes through here
def _remembered_number(x: object) -> Number:
    return _number(x)


def _number(x: object) -> Number:
    value = decimal(x)
    return int(value) if value == value.to_integral_value() else value


def text(x: object) -> str:
    """The plain decimal spelling (no exponent): ``7.2875``, ``100``."""
    value = number(x)
    return str(value) if isinstance(value, int) else format(value, "f")


_MARK = re.compile(r'"\\u0000([0-9a-f]{32}):(-?[0-9.]+)\\u0000"')


class ExactEncoderMixin:
    """A :class:`json.JSONEncoder` mixin writing every Decimal as the JSON number it spells
    (``7.2875``, not the float 7.287499…, not a string)."""

    _token: str = ""

    def default(self, o: Any) -> Any:
        if isinstance(o, Decimal):
            return f"\0{self._token}:{text(o)}\0"
        if isinstance(o, Fraction):
            return f"\0{self._token}:{text(o)}\0"
        return super().default(o)  # type: ignore[misc]

    def encode(self, o: Any) -> str:
        self._token = uuid.uuid4().hex  # a fresh marker per document: no text can forge it
        out = "".join(super().iterencode(_decimals_marked(o, self._token), True))  # type: ignore[misc]
        token = self._token
        return _MARK.sub(lambda m: m.group(2) if m.group(1) == token else m.group(0), out)

    def iterencode(self, o: Any, _one_shot: bool = False) -> Any:
        return iter([self.encode(o)])


def _decimals_marked(o: Any, token: str) -> Any:
    # Decimals inside containers reach default() only when not already serialisable; they are
    # never, so they are marked up front (dict keys stay as they are).
    if isinstance(o, Decimal | Fraction):
        return f"\0{token}:{text(o)}\0"
    if isinstance(o, dict):
        return {k: _decimals_marked(v, token) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [_decimals_marked(v, token) for v in o]
    return o


class ExactJSONEncoder(ExactEncoderMixin, json.JSONEncoder):
    pass


def dumps(obj: Any, **kwargs: Any) -> str:
    return json.dumps(obj, cls=ExactJSONEncoder, **kwargs)


def loads(data: str | bytes) -> Any:
    """JSON with every non-integral number read as an exact Decimal."""
    return json.loads(data, parse_float=Decimal)
