"""Every spreadsheet the app reads or writes goes through here.

Writing (CSV and XLSX exports, public or not)
    A CSV downloaded from a page is in the form an Italian Excel opens with a double click
    (:func:`csv_download`): semicolons between cells and a decimal comma in numbers (Italian
    Excel reads "," as the decimal mark), and a UTF-8 byte-order mark (without it Excel reads the file as Windows-1252 and
    "Niccolò" becomes "NiccolÃ²"). ``?plain=1`` gives the plain form, commas and no mark, which
    the API and the command line keep.

    A text cell that a spreadsheet program would read as a formula is neutralised the OWASP way:
    a leading apostrophe makes it plain text. That covers text starting with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return (CSV injection). In XLSX every text cell is written as a
    string, never a formula, whatever it starts with (:func:`xlsx_bytes`). Numbers, dates and
    booleans pass through untouched.

Reading (CSV, .xlsx, .xls imports)
    A spreadsheet is a tiny file that may *declare* an enormous sheet: a 1.5 KB .xlsx can claim a
    million rows by 16,000 columns, and a reader that trusts it builds billions of empty cells.
    :func:`open_workbook` and :func:`csv_rows` read within :data:`LIMITS` whatever the file says:

    - .xlsx: the zip is checked member by member while it is decompressed (count, uncompressed
      bytes, a DTD or entity declaration refused), every worksheet is scanned as a stream
      (declared dimension, row and column numbers, cells per row, characters per cell) and every
      other XML part is bounded in elements, *before* openpyxl (read-only mode) reads anything;
    - .xls: xlrd reads ragged rows (it would otherwise pad every row to the widest), then the
      sheet's rows, columns and cells are checked before a row is handed out;
    - CSV: rows, columns and cell lengths as they are read.

    A refusal is a :class:`SheetError` (HTTP 400, rule ``LIMIT`` or ``FORMAT``, field ``file``)
    that says which limit and where. A NUL character in a cell is refused too (PostgreSQL cannot
    store it). Memory stays well under 200 MB for any input (tests/hardening/test_spreadsheet_bombs.py).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from xml.etree.ElementTree import XMLPullParser

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from common.errors import DomainError, Refusal

BOM = "\ufeff"
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def safe_cell(value: Any) -> Any:
    """``value`` as it may be written to a CSV or XLSX cell without being run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    return [safe_cell(v) for v in values]


def csv_text(rows: Iterable[Iterable[Any]], *, excel: bool = False) -> str:
    """A CSV document of ``rows`` (the first is the header), every cell through :func:`safe_cell`;
    ``excel``: semicolon-separated with a byte-order mark (see the module's docstring)."""
    out = io.StringIO()
    if excel:
        out.write(BOM)
    writer = csv.writer(out, delimiter=";" if excel else ",")
    for row in rows:
        writer.writerow([_decimal_comma(v) for v in safe_row(row)] if excel else safe_row(row))
    return out.getvalue()


def _decimal_comma(value: Any) -> Any:
    """A decimal number as an Italian Excel reads it (7,2875): with a point it would be text."""
    if isinstance(value, (float, Decimal)):
        return str(value).replace(".", ",")
    return value


def wants_plain_csv(request: HttpRequest) -> bool:
    """``?plain=1``: the comma-separated form without byte-order mark instead of Excel's."""
    return request.GET.get("plain", "") not in ("", "0")


def csv_download(request: HttpRequest, rows: Iterable[Iterable[Any]], filename: str) -> HttpResponse:
    """``rows`` as a CSV file to download from a page: Excel's form unless ``?plain=1``."""
    excel = not wants_plain_csv(request)
    response = HttpResponse(csv_text(rows, excel=excel), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def xlsx_bytes(sheets: Iterable[tuple[str, Iterable[Iterable[Any]]]]) -> bytes:
    """An .xlsx workbook with one sheet per ``(title, rows)``; every cell through
    :func:`safe_cell`, and every text cell typed as a string (``t="s"``), never a formula."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    wb = Workbook(write_only=True)
    for title, rows in sheets:
        ws = wb.create_sheet(title=title[:31] or "Sheet")
        for row in rows:
            cells = []
            for value in safe_row(row):
                cell = WriteOnlyCell(ws, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"  # openpyxl would make any "=..." text a live formula
                cells.append(cell)
            ws.append(cells)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# --- reading within limits -----------------------------------------------------------------
@dataclass(frozen=True)
class Limits:
    """What an imported spreadsheet may hold (docs/security.md "Limits")."""

    upload_bytes: int = 5 * 1024 * 1024  # the file as uploaded
    rows: int = 10_000  # rows of one sheet (or lines of a CSV), header included
    columns: int = 256  # columns (the highest column any cell or dimension names)
    cell_chars: int = 2_000  # characters in one cell
    zip_members: int = 500  # files inside an .xlsx
    uncompressed_bytes: int = 32 * 1024 * 1024  # all the members of an .xlsx, decompressed
    part_elements: int = 100_000  # XML elements of a part openpyxl reads whole (styles, workbook)
    shared_string_elements: int = 400_000  # XML elements of the shared strings table


LIMITS = Limits()


class SheetError(DomainError):
    """A spreadsheet refused: over a limit (rule ``LIMIT``) or unreadable (rule ``FORMAT``).
    ``line`` is the sheet row (or CSV line) when the refusal concerns one."""

    def __init__(self, message: str, *, rule: str = "LIMIT", line: int | None = None):
        super().__init__(message, field="file", rule=rule)
        self.line = line

    def as_dict(self) -> dict[str, object]:
        data = super().as_dict()
        if self.line is not None:
            data["line"] = self.line
        return data


class UploadTooLarge(SheetError):
    """An uploaded file over ``Limits.upload_bytes``: HTTP 413 on the API (forms show it, 400)."""

    kind = Refusal.TOO_LARGE


def _too_big(what: str, limit: int, line: int | None = None) -> SheetError:
    return SheetError(_("The spreadsheet has more %(what)s than the %(limit)s allowed.")
                      % {"what": what, "limit": f"{limit:,}".replace(",", ".")}, line=line)


def check_upload_size(size: int | None, limits: Limits = LIMITS) -> None:
    """Refuse an upload of ``size`` bytes over the limit (before reading it)."""
    if size is not None and size > limits.upload_bytes:
        raise UploadTooLarge(_("The file is larger than %(mb)s MB.")
                             % {"mb": limits.upload_bytes // (1024 * 1024)})


def check_text(value: str, line: int | None, limits: Limits = LIMITS) -> str:
    if len(value) > limits.cell_chars:
        raise SheetError(_("A cell holds more than %(limit)s characters.") % {"limit": limits.cell_chars},
                         line=line)
    if "\x00" in value:
        raise SheetError(_("A cell holds a NUL character (\\0), which is not text."), rule="FORMAT",
                         line=line)
    return value


class _Quiet(io.StringIO):
    def write(self, s: str) -> int:
        return len(s)


_QUIET = _Quiet()

_REF = re.compile(r"([A-Za-z]{1,4})(\d{1,9})$")


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def _ref(ref: str) -> tuple[int, int]:
    """(row, column) of an A1 reference, or (0, 0) when it is not one."""
    m = _REF.match(ref.strip().replace("$", ""))
    return (int(m.group(2)), _column_number(m.group(1))) if m else (0, 0)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_DTD = (b"<!DOCTYPE", b"<!ENTITY")
CHUNK = 64 * 1024


class _Budget:
    def __init__(self, limits: Limits):
        self.limits = limits
        self.left = limits.uncompressed_bytes

    def read(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The member's bytes in chunks, counted against the whole archive's budget (the declared
        size is not trusted: what is decompressed is counted)."""
        tail = b""
        with zf.open(info) as stream:
            while chunk := stream.read(CHUNK):
                self.left -= len(chunk)
                if self.left < 0:
                    raise _too_big(_("uncompressed bytes"), self.limits.uncompressed_bytes)
                if any(marker in tail + chunk for marker in _DTD):
                    raise SheetError(_("The workbook declares XML entities; it is refused."), rule="FORMAT")
                tail = chunk[-16:]
                yield chunk


def _scan_sheet(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget) -> None:
    """Stream a worksheet's XML: declared dimension, row and column numbers, cells, cell text."""
    limits = budget.limits
    parser = XMLPullParser(events=("start", "end"))
    rows = 0
    row_number = 0
    cells_in_row = 0
    for chunk in budget.read(zf, info):
        parser.feed(chunk)
        for event, elem in parser.read_events():
            tag = _local(elem.tag)  # type: ignore[union-attr]
            if event == "start":
                if tag == "dimension":
                    last = str(elem.get("ref", "")).split(":")[-1]  # type: ignore[union-attr]
                    r, c = _ref(last)
                    if r > limits.rows:
                        raise _too_big(_("rows"), limits.rows)
                    if c > limits.columns:
                        raise _too_big(_("columns"), limits.columns)
                elif tag == "row":
                    rows += 1
                    declared = str(elem.get("r", "") or "")  # type: ignore[union-attr]
                    row_number = int(declared) if declared.isdigit() and len(declared) < 10 else row_number + 1
                    if rows > limits.rows or row_number > limits.rows:
                        raise _too_big(_("rows"), limits.rows)
                    cells_in_row = 0
                elif tag == "c":
                    cells_in_row += 1
                    r, c = _ref(str(elem.get("r", "") or ""))  # type: ignore[union-attr]
                    if cells_in_row > limits.columns or c > limits.columns:
                        raise _too_big(_("columns"), limits.columns, line=row_number)
                    if r > limits.rows:
                        raise _too_big(_("rows"), limits.rows)
            else:
                if tag in ("v", "t", "f") and elem.text and len(elem.text) > limits.cell_chars:  # type: ignore[union-attr]
                    check_text(elem.text, row_number, limits)  # type: ignore[union-attr]
                if tag == "row":
                    elem.clear()  # type: ignore[union-attr]
    parser.close()


def _scan_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: _Budget, max_elements: int) -> None:
    """Any other XML part openpyxl reads whole: bounded in elements and in text per element."""
    limits = budget.limits
    parser = XMLPullParser(events=("end",))
    count = 0
    for chunk in budget.read(zf, info):
        parser.feed(chunk)
        for _event, elem in parser.read_events():
            count += 1
            if count > max_elements:
                raise _too_big(_("XML elements in one part"), max_elements)
            if elem.text and len(elem.text) > limits.cell_chars:  # type: ignore[union-attr]
                check_text(elem.text, None, limits)  # type: ignore[union-attr]
    parser.close()


def _check_xlsx(content: bytes, limits: Limits) -> None:
    try:
        zf = zipfile.ZipFile(io.BytesIO(content))
        infos = zf.infolist()
        if len(infos) > limits.zip_members:
            raise _too_big(_("files inside the workbook"), limits.zip_members)
        if sum(i.file_size for i in infos) > limits.uncompressed_bytes:
            raise _too_big(_("uncompressed bytes"), limits.uncompressed_bytes)
        budget = _Budget(limits)
        for info in infos:
            name = info.filename.lower()
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                _scan_sheet(zf, info, budget)
            elif name.endswith(("sharedstrings.xml",)):
                _scan_part(zf, info, budget, limits.shared_string_elements)
            elif name.endswith((".xml", ".rels")):
                _scan_part(zf, info, budget, limits.part_elements)
            else:  # images, binaries: counted, not parsed
                for _chunk in budget.read(zf, info):
                    pass
    except SheetError:
        raise
    except Exception:  # noqa: BLE001 - BadZipFile, zlib.error, ParseError…: the user's file, never a 500
        raise SheetError(_("This file is not an Excel workbook (.xlsx)."), rule="FORMAT") from None


class Workbook:
    """A workbook opened within limits: ``sheet_names`` and ``rows(name)``."""

    def __init__(self, sheet_names: list[str], reader: Any, limits: Limits):
        self.sheet_names = sheet_names
        self._reader = reader
        self.limits = limits

    def rows(self, name: str | None = None) -> Iterator[list[Any]]:
        """The rows of sheet ``name`` (the first sheet without one), each a list of cell values
        (text, numbers, datetimes or None), trailing empty cells dropped."""
        if not self.sheet_names:
            raise SheetError(_("The workbook has no sheet."), rule="FORMAT")
        sheet = name if name is not None else self.sheet_names[0]
        count = 0
        for raw in self._reader(sheet):
            count += 1
            if count > self.limits.rows:
                raise _too_big(_("rows"), self.limits.rows)
            row = list(raw)
            if len(row) > self.limits.columns:
                raise _too_big(_("columns"), self.limits.columns, line=count)
            while row and row[-1] in (None, ""):
                row.pop()
            for value in row:
                if isinstance(value, str):
                    check_text(value, count, self.limits)
            yield row


def _open_xlsx(content: bytes, limits: Limits) -> Workbook:
    _check_xlsx(content, limits)
    from openpyxl import load_workbook

    try:
        wb = load_workbook(io.BytesIO(content), read_only=True, data_only=True, keep_links=False)
    except Exception:  # noqa: BLE001 - any unreadable file is the user's input, never a 500
        raise SheetError(_("This file is not an Excel workbook (.xlsx)."), rule="FORMAT") from None

    def reader(sheet: str) -> Iterator[tuple[Any, ...]]:
        try:
            ws = wb[sheet]  # a chart sheet has no rows: refused below like any unreadable sheet
            ws.reset_dimensions()  # the cells were counted above; a wrong declared size cuts no row
            yield from ws.iter_rows(values_only=True)
        except SheetError:
            raise
        except Exception:  # noqa: BLE001
            raise SheetError(_("This file is not an Excel workbook (.xlsx)."), rule="FORMAT") from None

    return Workbook(list(wb.sheetnames), reader, limits)


def _open_xls(content: bytes, limits: Limits) -> Workbook:
    try:
        import xlrd  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        raise SheetError(_("Reading .xls files needs the xlrd package; save the sheet as .xlsx or install it."),
                         rule="FORMAT") from None
    try:
        # ragged_rows: without it xlrd pads every row to the widest one (65,536 x 256 cells for a
        # single cell in the last row); on_demand: a sheet is parsed only when asked for.
        book = xlrd.open_workbook(file_contents=content, on_demand=True, ragged_rows=True,
                                  logfile=_QUIET, verbosity=0)  # xlrd writes warnings to stdout
        names = list(book.sheet_names())
    except Exception:  # noqa: BLE001 - any unreadable file is the user's input, never a 500
        raise SheetError(_("This file is not an Excel 97-2003 workbook (.xls)."), rule="FORMAT") from None

    def reader(sheet_name: str) -> Iterator[list[Any]]:
        try:
            sheet = book.sheet_by_name(sheet_name)
        except Exception:  # noqa: BLE001
            raise SheetError(_("This file is not an Excel 97-2003 workbook (.xls)."), rule="FORMAT") from None
        if sheet.nrows > limits.rows:
            raise _too_big(_("rows"), limits.rows)
        if sheet.ncols > limits.columns:
            raise _too_big(_("columns"), limits.columns)
        for r in range(sheet.nrows):
            try:
                cells = sheet.row(r)
            except Exception:  # noqa: BLE001 - a damaged sheet is the user's input, never a 500
                raise SheetError(_("This file is not an Excel 97-2003 workbook (.xls)."), rule="FORMAT") from None
            row = []
            for cell in cells:
                value = cell.value
                if cell.ctype == xlrd.XL_CELL_DATE:
                    try:
                        value = xlrd.xldate.xldate_as_datetime(value, book.datemode)
                    except Exception:  # noqa: BLE001 - a serial out of range stays a number
                        pass
                elif cell.ctype == xlrd.XL_CELL_ERROR:
                    value = None
                row.append(value)
            yield row

    return Workbook(names, reader, limits)


def open_workbook(content: bytes, filename: str, limits: Limits = LIMITS) -> Workbook:
    """An uploaded .xlsx or .xls (by its name) opened within ``limits``; :class:`SheetError` if
    it is over a limit or not a workbook."""
    check_upload_size(len(content), limits)
    if filename.lower().endswith(".xls"):
        return _open_xls(content, limits)
    return _open_xlsx(content, limits)


def csv_rows(text: str, dialect: Any = csv.excel, limits: Limits = LIMITS) -> Iterator[list[str]]:
    """The rows of a CSV text within ``limits`` (lines, columns, characters, no NUL)."""
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        for row in reader:
            line = reader.line_num
            if line > limits.rows:
                raise _too_big(_("lines"), limits.rows)
            if len(row) > limits.columns:
                raise _too_big(_("columns"), limits.columns, line=line)
            for cell in row:
                check_text(cell, line, limits)
            yield row
    except csv.Error as exc:  # e.g. a stray carriage return, an over-long field
        raise SheetError(_("This line cannot be read as CSV (%(error)s).") % {"error": exc},
                         rule="CSV", line=max(reader.line_num, 1)) from None
