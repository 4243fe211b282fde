"""A tiny .xls writer for tests: a BIFF8 workbook (one sheet of text, numbers and dates) in an
OLE2 compound document, as Excel 97-2003 and the clubs' desktop tool write them. No xlwt or
LibreOffice is needed; xlrd reads the result like any club's file."""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Sequence
from typing import Any

ENDOFCHAIN, FREESECT, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF
SECTOR = 512
XF_GENERAL, XF_DATE = 0, 1  # cell formats: General, builtin date format 14 (d/m/yyyy)


def _record(rtype: int, data: bytes) -> bytes:
    return struct.pack("<HH", rtype, len(data)) + data


def _bof(kind: int) -> bytes:
    return _record(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0, 0x0006))


def _xf(fmt: int) -> bytes:
    # font 0, format ``fmt``, cell XF (not a style), parent style 0; no borders, no fill
    return _record(0x00E0, struct.pack("<HHHBBBBIIH", 0, fmt, 0x0001, 0x20, 0, 0, 0, 0, 0, 0x20C0))


def _cell(row: int, col: int, value: Any) -> bytes:
    if value is None or value == "":
        return b""
    if isinstance(value, dt.date):
        serial = (value - dt.date(1899, 12, 30)).days  # the 1900 date system
        return _record(0x0203, struct.pack("<HHHd", row, col, XF_DATE, float(serial)))
    if isinstance(value, (int, float)):
        return _record(0x0203, struct.pack("<HHHd", row, col, XF_GENERAL, float(value)))
    text = str(value).encode("utf-16-le")
    return _record(0x0204, struct.pack("<HHHHB", row, col, XF_GENERAL, len(str(value)), 1) + text)


def biff8(sheet_name: str, rows: Sequence[Sequence[Any]]) -> bytes:
    """The BIFF8 "Workbook" stream: globals (two XFs, one sheet), then the sheet's cells."""
    name = sheet_name.encode("latin-1")
    boundsheet_len = 4 + 8 + len(name)  # header + offset, flags, length, high-byte flag + name
    globals_ = _bof(0x0005) + _xf(0) + _xf(14)
    sheet_at = len(globals_) + boundsheet_len + 4  # + EOF
    globals_ += _record(0x0085, struct.pack("<IHBB", sheet_at, 0, len(name), 0) + name)
    globals_ += _record(0x000A, b"")
    cols = max((len(r) for r in rows), default=0)
    sheet = _bof(0x0010) + _record(0x0200, struct.pack("<IIHHH", 0, len(rows), 0, cols, 0))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet += _cell(r, c, value)
    return globals_ + sheet + _record(0x000A, b"")


def compound(stream: bytes, name: str = "Workbook") -> bytes:
    """An OLE2 compound document holding one stream (padded to 4096 bytes so it lives in
    ordinary sectors, not the mini stream)."""
    stream = stream.ljust(max(4096, -(-len(stream) // SECTOR) * SECTOR), b"\0")
    n = len(stream) // SECTOR
    fat = [FATSECT, ENDOFCHAIN] + [3 + i for i in range(n - 1)] + [ENDOFCHAIN]
    fat += [FREESECT] * (SECTOR // 4 - len(fat))
    header = (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 16
              + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + b"\0" * 6
              + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, ENDOFCHAIN, 0, ENDOFCHAIN, 0)
              + struct.pack("<I", 0) + struct.pack("<I", FREESECT) * 108)

    def entry(label: str, kind: int, child: int, start: int, size: int) -> bytes:
        encoded = (label + "\0").encode("utf-16-le") if label else b""
        return (encoded.ljust(64, b"\0") + struct.pack("<HBBIII", len(encoded), kind, 1, NOSTREAM, NOSTREAM, child)
                + b"\0" * 16 + struct.pack("<I", 0) + b"\0" * 16 + struct.pack("<III", start, size, 0))

    directory = (entry("Root Entry", 5, 1, ENDOFCHAIN, 0) + entry(name, 2, NOSTREAM, 2, len(stream))
                 + entry("", 0, NOSTREAM, 0, 0) * 2)
    return header + struct.pack(f"<{len(fat)}I", *fat) + directory + stream


def workbook(sheet_name: str, rows: Sequence[Sequence[Any]]) -> bytes:
    return compound(biff8(sheet_name, rows))
