"""Workbook files in and out. :func:`open_book` is the one place a file is opened: it sniffs the
format (.xls by its OLE2 signature, .xlsx by its zip signature, whatever the name says), applies
the limits of :mod:`.spec` (file size, uncompressed size and ratio, sheets, rows, columns, cell
size) before and while reading, and turns anything unreadable into :class:`WorkbookFileError`
with a sentence for the user. Nothing else in the app needs to know how a file is parsed.
"""

from __future__ import annotations

import datetime as dt
import io
import struct
import zipfile
from typing import Any

from django.utils.translation import gettext as _

from . import spec
from .biff import write_xls
from .book import BLANK, BOOL, DATE, EPOCH, ERROR, NUMBER, TEXT, Book, Cell, a1
from .validate import Issue

OLE2 = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"


class WorkbookFileError(Exception):
    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.line())
        self.issue = issue


def _refuse(code: str, what: str, sheet: str = "", cell: str = "") -> WorkbookFileError:
    return WorkbookFileError(Issue(code, sheet, cell, {"what": what}))


def _limit_cell(sheet: str, row: int, col: int, value: Any) -> None:
    if row >= spec.MAX_ROWS or col >= spec.MAX_COLS:
        raise _refuse("WB-LIMIT", _("the sheet %(sheet)s goes beyond %(rows)s rows or %(cols)s columns")
                      % {"sheet": sheet, "rows": spec.MAX_ROWS, "cols": spec.MAX_COLS}, sheet, a1(row, col))
    if isinstance(value, str) and len(value) > spec.MAX_CELL_CHARS:
        raise _refuse("WB-LIMIT", _("a cell holds more than %(n)s characters") % {"n": spec.MAX_CELL_CHARS},
                      sheet, a1(row, col))


def open_book(content: bytes, filename: str = "") -> Book:
    """The workbook in ``content`` (.xls or .xlsx), or :class:`WorkbookFileError`."""
    if len(content) > spec.MAX_FILE_BYTES:
        raise _refuse("WB-LIMIT", _("the file is larger than %(mb)s MB") % {"mb": spec.MAX_FILE_BYTES // 2**20})
    if content.startswith(OLE2):
        _bounded(content, "book.xls")
        return _read_xls(content)
    if content.startswith(b"PK\x03\x04"):
        _ratio(content)
        _bounded(content, "book.xlsx")
        return _read_xlsx(content)
    raise _refuse("WB-FILE", _("this file is not an Excel workbook (.xls or .xlsx)"))


def _ratio(content: bytes) -> None:
    """An .xlsx part compressed suspiciously well, or declaring XML entities, is refused before
    anything is unpacked (with the workbook's own sentences)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(content))
        infos = zf.infolist()
        for i in infos:
            if i.file_size > 2**20 and i.file_size > spec.MAX_RATIO * max(i.compress_size, 1):
                raise _refuse("WB-LIMIT", _("the workbook is compressed suspiciously well (%(part)s)")
                              % {"part": i.filename})
            if i.filename.endswith((".xml", ".rels")):
                with zf.open(i) as fh:
                    if b"<!DOCTYPE" in fh.read(4096).upper():
                        raise _refuse("WB-FILE", _("the workbook declares XML entities, which are refused"))
    except WorkbookFileError:
        raise
    except Exception:  # noqa: BLE001 - a damaged file is the user's input: say so, never crash
        raise _refuse("WB-FILE", _("the file is damaged or not an Excel workbook (.xlsx)")) from None


def _bounded(content: bytes, name: str) -> None:
    """Every sheet read once through the app's bounded spreadsheet reader (its limits: rows,
    columns, characters, NUL, and for .xlsx zip members, unpacked size, XML elements, no entity
    declarations) before the workbook's own reading (cell types, formulas, declared dimensions)."""
    from tournaments.spreadsheets import SheetError, open_workbook

    current = ""
    try:
        wb = open_workbook(content, name, spec.LIMITS)
        if len(wb.sheet_names) > spec.MAX_SHEETS:
            raise _refuse("WB-LIMIT", _("the workbook has more than %(n)s sheets") % {"n": spec.MAX_SHEETS})
        for current in wb.sheet_names:
            for _row in wb.rows(current):
                pass
    except SheetError as exc:
        if exc.rule == "LIMIT" or exc.line is not None:  # a limit, or a cell that is not text (NUL)
            cell = a1(exc.line - 1, 0) if exc.line else ""
            raise _refuse("WB-LIMIT" if exc.rule == "LIMIT" else "WB-FILE", str(exc.message).rstrip("."),
                          current, cell) from None
        if name.endswith(".xls"):
            raise _refuse("WB-FILE", _("the file is damaged or not an Excel 97-2003 workbook (.xls)")) from None
        raise _refuse("WB-FILE", _("the file is damaged or not an Excel workbook (.xlsx)")) from None


# ------------------------------------------------------------------ .xls
CELL_RECORDS = {0x0203, 0x00FD, 0x0204, 0x027E, 0x0201, 0x0205, 0x0006, 0x00D6, 0x0208}
MULTI_RECORDS = {0x00BD, 0x00BE}  # MULRK, MULBLANK: row, first column, …, last column


def _scan(content: bytes) -> dict[str, set[tuple[int, int]]]:
    """One pass over the workbook stream before anything is parsed: refuses declared dimensions
    and cells beyond the limits, and finds the FORMULA records per sheet (xlrd keeps only values)."""
    from xlrd import compdoc

    doc = compdoc.CompDoc(content, logfile=io.StringIO())
    mem, base, length = doc.locate_named_stream("Workbook")
    if mem is None:
        mem, base, length = doc.locate_named_stream("Book")
    stream = bytes(mem[base:base + length]) if mem is not None else b""
    pos, names, current = 0, {}, None
    out: dict[str, set[tuple[int, int]]] = {}
    sheets = 0
    while pos + 4 <= len(stream):
        rtype, size = struct.unpack_from("<HH", stream, pos)
        data = stream[pos + 4:pos + 4 + size]
        if rtype == 0x0085 and len(data) >= 8:  # BOUNDSHEET: the offset of a sheet's BOF
            sheets += 1
            if sheets > spec.MAX_SHEETS:
                raise _refuse("WB-LIMIT", _("the workbook has more than %(n)s sheets") % {"n": spec.MAX_SHEETS})
            cch, high = data[6], data[7]
            raw = data[8:8 + (cch * 2 if high & 1 else cch)]
            names[struct.unpack_from("<I", data)[0]] = raw.decode("utf-16-le" if high & 1 else "latin-1", "replace")
        elif rtype == 0x0809:
            current = names.get(pos)
        elif current is not None and rtype == 0x0200 and len(data) >= 12:  # DIMENSIONS, as declared
            rows, cols = struct.unpack_from("<I", data, 4)[0], struct.unpack_from("<H", data, 10)[0]
            if rows > spec.MAX_ROWS or cols > spec.MAX_COLS:
                _limit_cell(current, rows, cols, None)
        elif current is not None and (rtype in CELL_RECORDS or rtype in MULTI_RECORDS) and len(data) >= 4:
            row, col = struct.unpack_from("<HH", data)
            if rtype in MULTI_RECORDS and len(data) >= 6:
                col = struct.unpack_from("<H", data, len(data) - 2)[0]
            if rtype != 0x0208:
                _limit_cell(current, row, col, None)
            if rtype == 0x0006:
                out.setdefault(current, set()).add((row, struct.unpack_from("<H", data, 2)[0]))
        pos += 4 + size
    return out


def _read_xls(content: bytes) -> Book:
    import xlrd

    try:
        formulas = _scan(content)
        wb = xlrd.open_workbook(file_contents=content, ragged_rows=True, on_demand=True, logfile=io.StringIO())
    except WorkbookFileError:
        raise
    except Exception:  # noqa: BLE001 - a damaged file is the user's input: say so, never crash
        raise _refuse("WB-FILE", _("the file is damaged or not an Excel 97-2003 workbook (.xls)")) from None
    if wb.nsheets > spec.MAX_SHEETS:
        raise _refuse("WB-LIMIT", _("the workbook has more than %(n)s sheets") % {"n": spec.MAX_SHEETS})
    book = Book()
    try:
        for index, name in enumerate(wb.sheet_names()):
            ws = wb.sheet_by_index(index)
            sheet = book.add(name)
            marked = formulas.get(name, set())
            if ws.nrows > spec.MAX_ROWS:
                _limit_cell(name, ws.nrows, 0, None)
            for r in range(ws.nrows):
                row = ws.row(r)
                if len(row) > spec.MAX_COLS:
                    _limit_cell(name, r, len(row), None)
                for c, x in enumerate(row):
                    formula = (r, c) in marked
                    if x.ctype == xlrd.XL_CELL_EMPTY and not formula:
                        continue
                    _limit_cell(name, r, c, x.value)
                    kind = {xlrd.XL_CELL_TEXT: TEXT, xlrd.XL_CELL_NUMBER: NUMBER, xlrd.XL_CELL_DATE: DATE,
                            xlrd.XL_CELL_BOOLEAN: BOOL, xlrd.XL_CELL_ERROR: ERROR}.get(x.ctype, BLANK)
                    value = bool(x.value) if kind == BOOL else x.value
                    if kind == DATE and wb.datemode == 1:
                        value = float(value) + 1462  # 1904 system → 1900 serial
                    sheet.put(r, c, Cell(kind, value if kind != BLANK else None, formula))
            wb.unload_sheet(index)
    except WorkbookFileError:
        raise
    except Exception:  # noqa: BLE001
        raise _refuse("WB-FILE", _("the file is damaged (a sheet cannot be read)")) from None
    return book


# ------------------------------------------------------------------ .xlsx
def _read_xlsx(content: bytes) -> Book:
    try:
        zf = zipfile.ZipFile(io.BytesIO(content))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise _refuse("WB-FILE", _("the file is damaged or not an Excel workbook (.xlsx)")) from None
    if sum(i.file_size for i in infos) > spec.MAX_UNCOMPRESSED_BYTES:
        raise _refuse("WB-LIMIT", _("the workbook unpacks to more than %(mb)s MB")
                      % {"mb": spec.MAX_UNCOMPRESSED_BYTES // 2**20})
    for i in infos:
        if i.file_size > 2**20 and i.file_size > spec.MAX_RATIO * max(i.compress_size, 1):
            raise _refuse("WB-LIMIT", _("the workbook is compressed suspiciously well (%(part)s)") % {"part": i.filename})
        if i.filename.endswith((".xml", ".rels")):
            with zf.open(i) as fh:
                if b"<!DOCTYPE" in fh.read(4096).upper():
                    raise _refuse("WB-FILE", _("the workbook declares XML entities, which are refused"))
    from openpyxl import load_workbook

    def load(data_only: bool) -> Any:
        return load_workbook(io.BytesIO(content), read_only=True, data_only=data_only)

    try:
        wb = load(False)
        if len(wb.sheetnames) > spec.MAX_SHEETS:
            raise _refuse("WB-LIMIT", _("the workbook has more than %(n)s sheets") % {"n": spec.MAX_SHEETS})
        book = Book()
        formulas: list[tuple[str, int, int]] = []
        for ws in wb.worksheets:
            sheet = book.add(ws.title)
            if not hasattr(ws, "iter_rows"):
                continue  # a chart sheet
            if (ws.max_row or 0) > spec.MAX_ROWS or (ws.max_column or 0) > spec.MAX_COLS:
                _limit_cell(ws.title, ws.max_row or 0, ws.max_column or 0, None)
            for r, row in enumerate(ws.iter_rows()):
                for c, x in enumerate(row):
                    value = getattr(x, "value", None)
                    if value is None:
                        continue
                    _limit_cell(ws.title, r, c, value)
                    if x.data_type == "f":
                        formulas.append((ws.title, r, c))
                        sheet.put(r, c, Cell(BLANK, None, True))
                    else:
                        sheet.put(r, c, _xlsx_cell(value, x.data_type))
        if formulas:  # their cached values, from a second pass
            cached = load(True)
            for title, r, c in formulas:
                value = cached[title].cell(row=r + 1, column=c + 1).value
                cell = _xlsx_cell(value, "n") if value is not None else Cell(BLANK)
                book.exact(title).put(r, c, Cell(cell.kind, cell.value, True))  # type: ignore[union-attr]
        return book
    except WorkbookFileError:
        raise
    except Exception:  # noqa: BLE001 - a damaged file is the user's input: say so, never crash
        raise _refuse("WB-FILE", _("the file is damaged or not an Excel workbook (.xlsx)")) from None


def _xlsx_cell(value: Any, data_type: str) -> Cell:
    if isinstance(value, bool):
        return Cell(BOOL, value)
    if isinstance(value, dt.datetime):
        return Cell(DATE, float((value.date() - EPOCH).days))
    if isinstance(value, dt.date):
        return Cell(DATE, float((value - EPOCH).days))
    if isinstance(value, (int, float)):
        return Cell(NUMBER, float(value))
    if data_type == "e":
        return Cell(ERROR, str(value))
    return Cell(TEXT, str(value))


def write_xlsx(book: Book) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for sheet in book.sheets:
        ws = wb.create_sheet(sheet.name)
        for r, cells in sheet.rows.items():
            for c, cell in cells.items():
                target = ws.cell(row=r + 1, column=c + 1)
                if cell.kind == DATE:
                    target.value = EPOCH + dt.timedelta(days=int(cell.value))
                    target.number_format = "DD/MM/YYYY"
                elif cell.kind == NUMBER:
                    target.value = cell.value
                elif cell.kind == TEXT:
                    target.value = str(cell.value)
                    target.data_type = "s"  # never a formula, whatever it starts with
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def write(book: Book, fmt: str = "xls") -> bytes:
    return write_xlsx(book) if fmt == "xlsx" else write_xls(book)
