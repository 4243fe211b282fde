"""Cells for every spreadsheet the app writes (CSV and XLSX exports, public or not).

A text cell that a spreadsheet program would read as a formula is neutralised the OWASP way:
a leading apostrophe makes it plain text. That covers text starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return (CSV injection). In XLSX every text cell is written as a string,
never a formula, whatever it starts with. Numbers, dates and booleans pass through untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as it may be written to a CSV or XLSX cell without being run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    return [safe_cell(v) for v in values]
