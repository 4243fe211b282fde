"""A workbook as plain data: sheets of typed cells, whatever file they came from (or go to).

A cell keeps the *type* a spreadsheet program stores, because the ranking pipeline reads cells by
type (a number stored as text is not a number to it), and whether it is a formula (its cached
value is kept in ``value``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

TEXT, NUMBER, DATE, BOOL, ERROR, BLANK = "text", "number", "date", "bool", "error", "blank"
EPOCH = dt.date(1899, 12, 30)  # the 1900 date system (serial 1 = 1900-01-01, with Excel's 1900 leap day)


@dataclass(frozen=True)
class Cell:
    kind: str
    value: Any = None  # str (TEXT), float (NUMBER), float serial (DATE), bool, str (ERROR), None
    formula: bool = False

    @property
    def blank(self) -> bool:
        return self.kind == BLANK or (self.kind == TEXT and not str(self.value).strip())

    @property
    def numeric(self) -> bool:
        return self.kind in (NUMBER, DATE)

    def text(self) -> str:
        """How the clubs' tool reads a cell as text (a number reads "4.0", like Java)."""
        if self.kind == TEXT:
            return str(self.value)
        if self.kind in (NUMBER, DATE):
            return repr(float(self.value))
        if self.kind == BOOL:
            return "true" if self.value else "false"
        return ""

    def date(self) -> dt.date | None:
        if not self.numeric:
            return None
        try:
            return EPOCH + dt.timedelta(days=int(float(self.value)))
        except (OverflowError, ValueError):
            return None


BLANK_CELL = Cell(BLANK)


def text(value: str) -> Cell:
    return Cell(TEXT, value)


def number(value: float) -> Cell:
    return Cell(NUMBER, float(value))


def date(value: dt.date) -> Cell:
    return Cell(DATE, float((value - EPOCH).days))


def col_name(col: int) -> str:
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(65 + rest) + name
    return name


def a1(row: int, col: int) -> str:
    """Excel's A1 name of a 0-based (row, column)."""
    return f"{col_name(col)}{row + 1}"


@dataclass
class Sheet:
    name: str
    rows: dict[int, dict[int, Cell]] = field(default_factory=dict)

    def cell(self, row: int, col: int) -> Cell:
        return self.rows.get(row, {}).get(col, BLANK_CELL)

    def put(self, row: int, col: int, cell: Cell | None) -> None:
        if cell is not None:
            self.rows.setdefault(row, {})[col] = cell

    def physical_rows(self) -> Iterator[tuple[int, dict[int, Cell]]]:
        """Rows holding at least one cell, top to bottom (what a row iterator walks)."""
        for r in sorted(self.rows):
            if self.rows[r]:
                yield r, self.rows[r]

    @property
    def size(self) -> tuple[int, int]:
        rows = max(self.rows, default=-1) + 1
        cols = max((max(c, default=-1) for c in self.rows.values()), default=-1) + 1
        return rows, cols


@dataclass
class Book:
    sheets: list[Sheet] = field(default_factory=list)

    def get(self, name: str) -> Sheet | None:
        """A sheet by name, ignoring case (as the clubs' tool looks up its fixed sheets)."""
        wanted = name.casefold()
        return next((s for s in self.sheets if s.name.casefold() == wanted), None)

    def exact(self, name: str) -> Sheet | None:
        return next((s for s in self.sheets if s.name == name), None)

    def add(self, name: str) -> Sheet:
        sheet = Sheet(name)
        self.sheets.append(sheet)
        return sheet
