"""Decompression bombs and oversized sheets: tiny files that declare or decompress into enormous
sheets. Each is built here, then read in a separate Python process (the Iscritti import of
``tournaments.iscritti``, which reads through ``tournaments.spreadsheets``) whose address space is
capped at 1 GB; the test requires a clear refusal (rule LIMIT or FORMAT) and a peak resident
memory under 200 MB. A reader that trusts the declared sizes runs out of memory instead.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from common.errors import DomainError
from tests.formats.xls import _bof, _record, _xf, compound
from tournaments import spreadsheets
from tournaments.spreadsheets import LIMITS, open_workbook

ROOT = Path(__file__).resolve().parents[2]
PEAK_MB = 200


def _xlsx(rows: list[list[Any]] | None = None) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Iscritti"
    for row in rows or [["Nome", "Cognome"], ["Mario", "Rossi"]]:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _with_member(content: bytes, name: str, data: bytes) -> bytes:
    """The workbook ``content`` with member ``name`` replaced (or added), maximally compressed."""
    src = zipfile.ZipFile(io.BytesIO(content))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        for info in src.infolist():
            if info.filename != name:
                dst.writestr(info.filename, src.read(info.filename))
        dst.writestr(name, data)
    return out.getvalue()


NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def _sheet(body: bytes, dimension: bytes = b"A1:B2") -> bytes:
    return (b'<?xml version="1.0" encoding="UTF-8"?><worksheet ' + NS + b'><dimension ref="'
            + dimension + b'"/><sheetData>' + body + b"</sheetData></worksheet>")


HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Nome</t></is></c><c r="B1" t="inlineStr"><is><t>Cognome</t></is></c></row>'


def declared_dimension_bomb() -> bytes:
    """1.5 KB that declares a million rows by 16,000 columns (the last cell really there)."""
    body = HEADER_ROW + b'<row r="1000000"><c r="WCH1000000"><v>1</v></c></row>'
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", _sheet(body, b"A1:WCH1000000"))


def undeclared_far_cell_bomb() -> bytes:
    """No dimension at all: one cell in the sheet's last row and column."""
    body = HEADER_ROW + b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'
    sheet = _sheet(body).replace(b'<dimension ref="A1:B2"/>', b"")
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", sheet)


def wide_rows_bomb() -> bytes:
    """Rows with 16,000 real cells each (small declared dimension: the declaration lies)."""
    row = b"".join(b"<c><v>1</v></c>" for _ in range(16_000))
    body = HEADER_ROW + b"".join(b'<row r="%d">' % r + row + b"</row>" for r in range(2, 40))
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", _sheet(body))


def many_rows_bomb() -> bytes:
    body = HEADER_ROW + b"".join(b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (r, r) for r in range(2, 200_000))
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", _sheet(body))


def huge_cell_bomb() -> bytes:
    """One cell of 200 MB of text (compresses to about 200 KB)."""
    body = (HEADER_ROW + b'<row r="2"><c r="A2" t="inlineStr"><is><t>' + b"A" * (200 * 1024 * 1024)
            + b"</t></is></c></row>")
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", _sheet(body))


def styles_bomb() -> bytes:
    """A million cell formats in styles.xml, which openpyxl reads whole."""
    xfs = b"<xf/>" * 1_000_000
    styles = (b'<?xml version="1.0"?><styleSheet ' + NS + b'><cellXfs count="1000000">' + xfs
              + b"</cellXfs></styleSheet>")
    return _with_member(_xlsx(), "xl/styles.xml", styles)


def shared_strings_bomb() -> bytes:
    strings = b"<si><t>x</t></si>" * 2_000_000
    table = b'<?xml version="1.0"?><sst ' + NS + b">" + strings + b"</sst>"
    return _with_member(_xlsx(), "xl/sharedStrings.xml", table)


def entity_bomb() -> bytes:
    lol = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
           + b"".join(b'<!ENTITY lol%d "%s">' % (i, b"&lol%d;" % (i - 1) * 10 if i > 1 else b"&lol;" * 10)
                      for i in range(1, 10))
           + b"]><worksheet " + NS + b"><sheetData><row r=\"1\"><c t=\"inlineStr\"><is><t>&lol9;</t></is></c>"
           + b"</row></sheetData></worksheet>")
    return _with_member(_xlsx(), "xl/worksheets/sheet1.xml", lol)


def xls_last_cell_bomb() -> bytes:
    """An .xls whose only cell sits in the last row and column BIFF8 allows (65,536 x 256):
    xlrd pads every row to the widest one unless asked not to."""
    name = b"Iscritti"
    globals_ = _bof(0x0005) + _xf(0) + _xf(14)
    sheet_at = len(globals_) + 4 + 8 + len(name) + 4
    globals_ += _record(0x0085, struct.pack("<IHBB", sheet_at, 0, len(name), 0) + name) + _record(0x000A, b"")
    sheet = _bof(0x0010) + _record(0x0200, struct.pack("<IIHHH", 0, 65536, 0, 256, 0))
    sheet += _record(0x0203, struct.pack("<HHHd", 0, 0, 0, 1.0))
    sheet += _record(0x0203, struct.pack("<HHHd", 65535, 255, 0, 1.0))
    return compound(globals_ + sheet + _record(0x000A, b""))


BOMBS = {
    "declared_dimension.xlsx": declared_dimension_bomb,
    "undeclared_far_cell.xlsx": undeclared_far_cell_bomb,
    "wide_rows.xlsx": wide_rows_bomb,
    "many_rows.xlsx": many_rows_bomb,
    "huge_cell.xlsx": huge_cell_bomb,
    "styles.xlsx": styles_bomb,
    "shared_strings.xlsx": shared_strings_bomb,
    "entities.xlsx": entity_bomb,
    "last_cell.xls": xls_last_cell_bomb,
}

CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1024 * 1024 * 1024, 1024 * 1024 * 1024))
import django
django.setup()
from django.db import connection
from tournaments.iscritti import _rows
from common.errors import DomainError
content = open(sys.argv[1], "rb").read()
outcome = {}
try:
    rows = _rows(content, sys.argv[2])
    outcome["rows"] = len(rows)
except DomainError as exc:
    outcome["refused"] = exc.rule
    outcome["message"] = exc.message
except MemoryError:
    outcome["memory_error"] = True
try:  # this process's own high-water mark (ru_maxrss would include the parent's, kept across exec)
    hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
    outcome["peak_mb"] = int(hwm.split()[1]) // 1024
except OSError:
    outcome["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps(outcome))
"""


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_spreadsheet_bomb_is_refused_within_200_mb(name: str, tmp_path: Path) -> None:
    content = BOMBS[name]()
    assert len(content) < 2 * 1024 * 1024  # they are small files
    path = tmp_path / name
    path.write_bytes(content)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": "", "REDIS_URL": "",
           "DEBUG": "true"}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), name], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    outcome = json.loads(proc.stdout.strip().splitlines()[-1])
    assert outcome.get("refused") in ("LIMIT", "FORMAT"), outcome
    assert outcome["peak_mb"] < PEAK_MB, outcome


def test_the_refusal_names_the_limit(db: Any) -> None:
    with pytest.raises(DomainError) as exc:
        list(open_workbook(declared_dimension_bomb(), "torneo.xlsx").rows())
    assert exc.value.rule == "LIMIT" and exc.value.field == "file"
    assert "10" in exc.value.message  # the limit, as a number


def test_a_sheet_at_the_limits_still_imports() -> None:
    limits = spreadsheets.Limits(rows=50, columns=5)
    rows = [["Nome", "Cognome", "Club", "Nick", "e-mail"]] + [["Mario", f"Rossi {i}", "RCU", "", ""] for i in range(49)]
    assert len(list(open_workbook(_xlsx(rows), "t.xlsx", limits).rows())) == 50
    with pytest.raises(DomainError):
        list(open_workbook(_xlsx([*rows, ["Anna", "Neri"]]), "t.xlsx", limits).rows())
    with pytest.raises(DomainError):
        list(open_workbook(_xlsx([[*rows[0], "sixth"]]), "t.xlsx", limits).rows())


def test_csv_rows_are_bounded_too() -> None:
    text = "first_name,last_name\n" + "Mario,Rossi\n" * LIMITS.rows
    with pytest.raises(DomainError) as exc:
        list(spreadsheets.csv_rows(text))
    assert exc.value.rule == "LIMIT"
    with pytest.raises(DomainError):
        list(spreadsheets.csv_rows("a," * (LIMITS.columns + 1)))
    with pytest.raises(DomainError):
        list(spreadsheets.csv_rows("x" * (LIMITS.cell_chars + 1)))


@pytest.mark.parametrize("name", ["declared_dimension.xlsx", "last_cell.xls"])
def test_the_page_and_the_api_answer_400_for_a_bomb(name: str, db: Any) -> None:
    from django.test import Client

    from tests.factories import scoring as f

    t = f.ScoringTournamentFactory()
    client = Client()
    client.force_login(f.role(t, "organizer"))
    content = BOMBS[name]()
    api = client.post(f"/api/tournaments/{t.slug}/registrations/iscritti/", {"file": SimpleUploadedFile(name, content)})
    assert api.status_code == 400 and api.json()["rule"] == "LIMIT", api.content
    page = client.post(f"/t/{t.slug}/registrations/iscritti/", {"file": SimpleUploadedFile(name, content)})
    assert page.status_code == 400 and b"</html>" in page.content


def test_damaged_workbooks_are_refused_never_an_exception() -> None:
    """Random byte flips and cuts of a valid .xlsx and .xls (seeded): a SheetError or rows, never
    another exception (a flipped .xls once left a workbook with no sheet: IndexError, a 500)."""
    import random

    from tests.formats.xls import workbook

    rng = random.Random(1)
    bases = ((_xlsx(), "t.xlsx"), (workbook("Iscritti", [["Nome", "Cognome"], ["A", "B"]]), "t.xls"))
    unexpected = []
    for _ in range(3000):
        for base, name in bases:
            raw = bytearray(base)
            for _flip in range(rng.randint(1, 20)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            if rng.random() < 0.3:
                raw = raw[:rng.randrange(len(raw))]
            try:
                list(open_workbook(bytes(raw), name).rows())
            except spreadsheets.SheetError:
                pass
            except Exception as exc:  # noqa: BLE001 - collected, reported below
                unexpected.append(f"{name}: {exc.__class__.__name__}: {exc}")
    assert unexpected == []
