"""A BIFF8 (.xls, Excel 97-2003) writer for :class:`~.book.Book`: what the clubs' desktop tool
writes and the ranking's upload converts. Text goes to the shared-string table (LABELSST),
numbers and dates to NUMBER records (dates with the built-in date format 14), nothing else:
no formulas, no styles beyond that. The container is an OLE2 compound document.

The clubs' validator opens the file with Apache POI and writes it back after every check, so
the globals carry what POI needs to add its own styles and formats in place (the built-in FORMAT
records); ``tests/workbook/test_poi.py`` runs Apache POI on every kind of exported event.

Hand-written because the one library for BIFF8 (xlwt) has had no release since 2017; the
format needed here is a small, fixed subset, read back by ``xlrd`` and by Apache POI in the tests
(docs/workbook.md says why).
"""

from __future__ import annotations

import struct

from .book import DATE, NUMBER, TEXT, Book

XF_CELL, XF_DATE = 15, 16  # after the 15 style XFs Excel expects
MAX_RECORD = 8224
SECTOR = 512
ENDOFCHAIN, FREESECT, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF


def _rec(rtype: int, data: bytes) -> bytes:
    return struct.pack("<HH", rtype, len(data)) + data


def _bof(kind: int) -> bytes:
    return _rec(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0x00000041, 0x00000006))


def _ustr(value: str, length_bytes: int) -> bytes:
    """XLUnicodeString (2-byte length) or ShortXLUnicodeString (1-byte): Latin-1 when it fits."""
    try:
        body, flag = value.encode("latin-1"), 0
    except UnicodeEncodeError:
        body, flag = value.encode("utf-16-le"), 1
    count = len(value) if flag == 0 else len(body) // 2
    return struct.pack("<H" if length_bytes == 2 else "<B", count) + bytes([flag]) + body


def _xf(font: int, fmt: int, style: bool) -> bytes:
    prot = 0xFFF5 if style else 0x0001
    used = 0x00 if style else 0xFC
    return _rec(0x00E0, struct.pack("<HHHBBBBIIH", font, fmt, prot, 0x20, 0, 0, used, 0, 0, 0x20C0))


# The number formats Excel (and Apache POI) always list in the globals, whatever the cells use.
# Without any FORMAT record Apache POI cannot place the one it adds when a program asks for a data
# format: it appends it after the globals' EOF, and the file it writes back has no sheets.
BUILTIN_FORMATS = (
    (5, '"$"#,##0_);("$"#,##0)'), (6, '"$"#,##0_);[Red]("$"#,##0)'), (7, '"$"#,##0.00_);("$"#,##0.00)'),
    (8, '"$"#,##0.00_);[Red]("$"#,##0.00)'), (0x2A, '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)'),
    (0x29, '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)'),
    (0x2C, '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)'),
    (0x2B, '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)'),
)


def _formats() -> list[bytes]:
    return [_rec(0x041E, struct.pack("<H", index) + _ustr(code, 2)) for index, code in BUILTIN_FORMATS]


def _sst(strings: list[str]) -> bytes:
    """SST, split into CONTINUE records at string boundaries (every string is short)."""
    head = struct.pack("<II", len(strings), len(strings))
    records, current, rtype = [], head, 0x00FC
    for s in strings:
        piece = _ustr(s, 2)
        if len(current) + len(piece) > MAX_RECORD:
            records.append(_rec(rtype, current))
            current, rtype = b"", 0x003C
        current += piece
    records.append(_rec(rtype, current))
    return b"".join(records)


def _sheet(sheet_rows: dict[int, dict[int, object]], first: bool, sst: dict[str, int]) -> bytes:
    rows = {r: c for r, c in sheet_rows.items() if c}
    last_row = max(rows, default=-1) + 1
    last_col = max((max(c) for c in rows.values()), default=-1) + 1
    out = [_bof(0x0010), _rec(0x0200, struct.pack("<IIHHH", 0, last_row, 0, last_col, 0))]
    for r in sorted(rows):
        out.append(_rec(0x0208, struct.pack("<HHHHHHHH", r, min(rows[r]), max(rows[r]) + 1, 0x00FF, 0, 0,
                                            0x0100, 0x000F)))
    for r in sorted(rows):
        for c in sorted(rows[r]):
            cell = rows[r][c]
            kind, value = cell.kind, cell.value  # type: ignore[attr-defined]
            if kind == TEXT:
                out.append(_rec(0x00FD, struct.pack("<HHHI", r, c, XF_CELL, sst[str(value)])))
            elif kind in (NUMBER, DATE):
                out.append(_rec(0x0203, struct.pack("<HHHd", r, c, XF_DATE if kind == DATE else XF_CELL,
                                                    float(value))))
    grbit = 0x06B6 if first else 0x00B6
    out.append(_rec(0x023E, struct.pack("<HHHHHHHI", grbit, 0, 0, 0x40, 0, 0, 0, 0)))
    out.append(_rec(0x000A, b""))
    return b"".join(out)


def workbook_stream(book: Book) -> bytes:
    strings: dict[str, int] = {}
    for sheet in book.sheets:
        for r in sorted(sheet.rows):
            for c in sorted(sheet.rows[r]):
                cell = sheet.rows[r][c]
                if cell.kind == TEXT and str(cell.value) not in strings:
                    strings[str(cell.value)] = len(strings)
    sheets = [_sheet(s.rows, k == 0, strings) for k, s in enumerate(book.sheets)]  # type: ignore[arg-type]
    font = _rec(0x0031, struct.pack("<HHHHHBBBB", 200, 0, 0x7FFF, 400, 0, 0, 0, 0, 0) + _ustr("Arial", 1))
    head = [_bof(0x0005), _rec(0x0042, struct.pack("<H", 1200)),
            _rec(0x003D, struct.pack("<HHHHHHHHH", 0, 0, 0x4000, 0x2000, 0x0038, 0, 0, 1, 0x0258)),
            font * 5]
    head += _formats()
    head += [_xf(0, 0, True) for _ in range(15)] + [_xf(0, 0, False), _xf(0, 14, False)]
    head.append(_rec(0x0293, struct.pack("<HBB", 0x8000, 0, 0xFF)))
    tail = _sst(list(strings)) + _rec(0x000A, b"")
    names = [s.name for s in book.sheets]
    bound_len = sum(4 + 6 + len(_ustr(n, 1)) for n in names)
    offset = len(b"".join(head)) + bound_len + len(tail)
    bounds = []
    for name, body in zip(names, sheets, strict=True):
        bounds.append(_rec(0x0085, struct.pack("<IBB", offset, 0, 0) + _ustr(name, 1)))
        offset += len(body)
    return b"".join(head) + b"".join(bounds) + tail + b"".join(sheets)


def compound(stream: bytes, name: str = "Workbook") -> bytes:
    """An OLE2 compound document with one stream (at least 4096 bytes: no mini stream)."""
    stream = stream.ljust(max(4096, -(-len(stream) // SECTOR) * SECTOR), b"\0")
    n = len(stream) // SECTOR
    fats = 1
    while fats * 128 < n + 1 + fats:
        fats += 1
    if fats > 109:
        raise ValueError("workbook too large")
    fat = [FATSECT] * fats + [ENDOFCHAIN] + [fats + 2 + i for i in range(n - 1)] + [ENDOFCHAIN]
    fat += [FREESECT] * (fats * 128 - len(fat))
    difat = list(range(fats)) + [FREESECT] * (109 - fats)
    header = (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 16
              + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + b"\0" * 6
              + struct.pack("<IIIIIIIII", 0, fats, fats, 0, 4096, ENDOFCHAIN, 0, ENDOFCHAIN, 0)
              + struct.pack("<109I", *difat))

    def entry(label: str, kind: int, child: int, start: int, size: int) -> bytes:
        encoded = (label + "\0").encode("utf-16-le") if label else b""
        return (encoded.ljust(64, b"\0") + struct.pack("<HBBIII", len(encoded), kind, 1, NOSTREAM, NOSTREAM, child)
                + b"\0" * 16 + struct.pack("<I", 0) + b"\0" * 16 + struct.pack("<III", start, size, 0))

    directory = (entry("Root Entry", 5, 1, ENDOFCHAIN, 0) + entry(name, 2, NOSTREAM, fats + 1, len(stream))
                 + entry("", 0, NOSTREAM, 0, 0) * 2)
    return header + struct.pack(f"<{len(fat)}I", *fat) + directory + stream


def write_xls(book: Book) -> bytes:
    return compound(workbook_stream(book))
