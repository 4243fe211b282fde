"""Files as they arrive: real-shaped .xls and .xlsx, and bad ones (not a workbook, damaged, a
bomb, an older format, an unknown type, a seat not in Iscritti, a formula where a value is
required). Each bad file gets one clear message with its sheet and cell, nothing of it is saved,
and the rest of the folder is still imported."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.models import Player, Tournament
from workbook import biff, importer
from workbook.book import number, text
from workbook.event import to_book
from workbook.files import WorkbookFileError, open_book, write, write_xlsx

from .helpers import book, event


def _refusal(content: bytes, name: str = "x.xls") -> str:
    report = importer.import_workbook(content, name)
    assert report.status == "refused"
    return "\n".join(i.line() for i in report.errors)


def test_a_real_shaped_xls_with_the_templates_extra_sheets_imports(db: Any) -> None:
    b = book()
    for extra in ("Dati", "GIOCATORI", "Log", "Classifica"):
        b.add(extra).put(0, 0, text("=SUM(A1:A3)"))  # text: never a formula
    iscritti = b.get("Iscritti")
    assert iscritti is not None
    for r in range(12, 303):
        iscritti.put(r, 0, number(r - 2))  # the template's pre-filled ids
    report = importer.import_workbook(write(b), "Open.xls")
    assert report.status == "imported", [i.line() for i in report.issues]
    assert report.players_new == 8 and Tournament.objects.get().event_type == "OPN"


def test_an_xlsx_with_the_templates_national_id_formula_reads_its_cached_value(db: Any) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(write_xlsx(book())))
    wb["Iscritti"]["I4"] = '=IFERROR(VLOOKUP(B4&" "&C4,GIOCATORI!A:B,2,0),"")'
    out = io.BytesIO()
    wb.save(out)
    b = open_book(out.getvalue(), "x.xlsx")
    cell = b.get("Iscritti").cell(3, 8)  # type: ignore[union-attr]
    assert cell.formula
    report = importer.import_workbook(out.getvalue(), "x.xlsx")
    assert report.status == "imported"  # a formula is allowed there (the template has one)


def test_not_a_workbook_and_damaged_files(db: Any) -> None:
    assert "not an Excel workbook" in _refusal(b"Nome;Cognome\nMario;Rossi\n", "x.csv")
    good = write(book())
    assert "damaged" in _refusal(good[:1500])
    assert "damaged" in _refusal(biff.OLE2 if hasattr(biff, "OLE2") else b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 600)
    xlsx = write_xlsx(book())
    assert "damaged" in _refusal(xlsx[: len(xlsx) // 2], "x.xlsx")
    assert Tournament.objects.count() == 0 and Player.objects.count() == 0


def test_bombs_are_refused_before_they_are_read(db: Any) -> None:
    # a sheet part that unpacks to 50 MB of nothing
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(write_xlsx(book()))) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in src.infolist():
            zf.writestr(i, src.read(i))
        zf.writestr("xl/media/padding.xml", b" " * (50 * 2**20))
    assert "compressed suspiciously" in _refusal(out.getvalue(), "x.xlsx")
    # a declared dimension of a million rows
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(write_xlsx(book()))) as src, zipfile.ZipFile(out, "w") as zf:
        for i in src.infolist():
            data = src.read(i)
            if i.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]*"\s*/>', b'<dimension ref="A1:XFD1048576"/>', data)
                assert b"XFD1048576" in data
            zf.writestr(i, data)
    assert "more rows than the 10.000 allowed" in _refusal(out.getvalue(), "x.xlsx")  # one set of limits
    # a row far down, and a huge cell, in .xls
    b = book()
    b.get("Iscritti").put(30000, 1, text("x"))  # type: ignore[union-attr]
    assert "Iscritti" in _refusal(write(b))
    b = book()
    b.get("TORNEO").put(6, 3, text("x" * 1200))  # type: ignore[union-attr]
    assert "more than 1000 characters" in _refusal(write(b))
    # XML entities
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(write_xlsx(book()))) as src, zipfile.ZipFile(out, "w") as zf:
        for i in src.infolist():
            data = src.read(i)
            if i.filename == "xl/workbook.xml":
                data = b'<!DOCTYPE x [<!ENTITY a "aaaa">]>' + data.split(b"?>", 1)[-1]
            zf.writestr(i, data)
    assert "XML entities" in _refusal(out.getvalue(), "x.xlsx")


def test_an_older_format_an_unknown_type_and_an_unknown_seat(db: Any) -> None:
    b = book()
    b.sheets = [s for s in b.sheets if s.name != "TORNEO"]
    assert "WB-LEGACY" in _refusal(write(b))
    assert "E4 [TORNEO!D5]" in _refusal(write(book(replace(event(), type_label="Torneo Estivo"))))
    b = book()
    b.get("2° Turno").put(1, 0, number(77))  # type: ignore[union-attr]
    assert "ID 77 is not in Iscritti" in _refusal(write(b))


def _formula_xls(row: int, col: int, cached: float) -> bytes:
    """The clean workbook with a FORMULA (=1+1, cached ``cached``) in the last sheet's cell."""
    stream = biff.workbook_stream(book())
    plain = struct.pack("<HHHHHd", 0x0203, 14, row, col, biff.XF_CELL, cached)
    assert plain in stream
    rgce = b"\x1E\x01\x00\x1E\x01\x00\x03"  # 1 + 1
    data = struct.pack("<HHHdHIH", row, col, biff.XF_CELL, cached, 0, 0, len(rgce)) + rgce
    formula = struct.pack("<HH", 0x0006, len(data)) + data
    return biff.compound(stream.replace(plain, formula))


@pytest.mark.parametrize("fmt", ["xls", "xlsx"])
def test_a_formula_where_a_value_is_required(db: Any, fmt: str) -> None:
    if fmt == "xls":
        points = book().get("Classifica Ridotta").cell(1, 3).value  # type: ignore[union-attr]
        content = _formula_xls(1, 3, points)
        assert "WB-FORMULA [Classifica Ridotta!D2]" in _refusal(content)
    else:
        from openpyxl import load_workbook

        wb = load_workbook(io.BytesIO(write_xlsx(book())))
        wb["1° Turno"]["C2"] = "=30+30"
        out = io.BytesIO()
        wb.save(out)
        assert "WB-FORMULA [1° Turno!C2]" in _refusal(out.getvalue(), "x.xlsx")


def test_open_book_is_the_one_gate(db: Any) -> None:
    with pytest.raises(WorkbookFileError) as refused:
        open_book(b"", "empty.xls")
    assert refused.value.issue.code == "WB-FILE"


def test_a_folder_and_a_zip_import_what_is_good_and_report_the_rest(db: Any, tmp_path: Any, capsys: Any) -> None:
    folder = tmp_path / "anno"
    folder.mkdir()
    for k in range(3):
        ev = replace(event(), organizer=f"CLUB {k}")
        (folder / f"evento {k}.xls").write_bytes(write(to_book(ev)))
    bad = book()
    bad.get("2° Turno").put(1, 0, number(77))  # type: ignore[union-attr]
    (folder / "rotto.xls").write_bytes(write(bad))
    (folder / "note.txt").write_text("not a workbook")
    archive = tmp_path / "altri.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("dentro/evento.xlsx", write_xlsx(to_book(replace(event(), organizer="CLUB ZIP"))))
        zf.writestr("dentro/vuoto.xls", b"nothing")
    with pytest.raises(SystemExit) as stop:
        call_command("import_workbooks", str(folder), str(archive))
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert "[1] evento 0.xls: imported (20250301 - CLUB 0)" in out
    assert "rotto.xls: refused" in err and "2° Turno!A2" in err and "vuoto.xls: refused" in err
    assert "6 file(s): 4 imported, 2 refused." in out
    assert Tournament.objects.count() == 4
    # the refused file left nothing behind: every player sat in an imported event
    assert Player.objects.filter(registrations__isnull=True).count() == 0
    # and again: nothing changes
    with pytest.raises(SystemExit):
        call_command("import_workbooks", str(folder), str(archive))
    assert "6 file(s): 2 refused, 4 unchanged." in capsys.readouterr().out


def test_players_are_matched_not_merged(db: Any) -> None:
    from tests.factories.tournaments import PlayerFactory

    ev = event()
    known = PlayerFactory(first_name="Nome1", last_name="Cognome1", birth_date=ev.registrants[0].birth_date)
    by_id = PlayerFactory(first_name="Altro", last_name="Nome", national_id="4242")
    near = PlayerFactory(first_name="Nome2", last_name="Cognomi2", birth_date=ev.registrants[1].birth_date)
    regs = [replace(r, national_id=4242) if r.id == 3 else r for r in ev.registrants]
    report = importer.import_workbook(write(to_book(replace(ev, registrants=regs))), "x.xls")
    assert report.status == "imported" and report.players_matched == 2 and report.players_new == 6
    t = Tournament.objects.get()
    seated = set(t.registrations.values_list("player_id", flat=True))
    assert known.pk in seated and by_id.pk in seated and near.pk not in seated
    assert [d["candidates"] for d in report.duplicates] == [[near.pk]]
    from tournaments.merge import flagged

    assert any(fl.player.last_name == "Cognome2" for fl in flagged(t))  # on the merge page for a person to decide


def test_a_large_workbook_with_accents_and_symbols_reads_back_exactly() -> None:
    """Thousands of shared strings (split over several records) and a stream over many sectors."""
    from workbook.event import Registrant
    from workbook.validate import check

    ev = event(8, 2)
    extra = [Registrant(i, f"Nicolò{i}", f"D’Alessandro-Łukasz{i}", club=f"Club “{i}”") for i in range(9, 3000)]
    ev = replace(ev, registrants=[*ev.registrants, *extra])
    data = write(to_book(ev))
    assert len(data) > 64 * 1024
    back = check(open_book(data, "big.xls")).event
    assert back is not None and back.registrants == ev.registrants


@pytest.mark.parametrize("fmt", ["xls", "xlsx"])
def test_the_apps_one_set_of_spreadsheet_limits_holds_for_workbooks(db: Any, fmt: str) -> None:
    from tournaments.spreadsheets import LIMITS

    def content(b: Any) -> bytes:
        return write(b, fmt) if fmt == "xls" else write_xlsx(b)

    # rows: the stricter of the two (the app's 10,000), with the sheet named
    b = book()
    b.get("Iscritti").put(LIMITS.rows + 500, 1, text("x"))  # type: ignore[union-attr]
    refusal = _refusal(content(b), f"x.{fmt}")
    assert "WB-LIMIT" in refusal and "10.000" in refusal
    assert fmt == "xlsx" or "Iscritti" in refusal  # an .xlsx is measured whole before any sheet is read
    # a NUL is not text, in a workbook as in any spreadsheet (an .xlsx cannot even hold one)
    if fmt == "xls":
        b = book()
        b.get("TORNEO").put(6, 3, text("Note\x00"))  # type: ignore[union-attr]
        assert "NUL" in _refusal(content(b), f"x.{fmt}")
    assert Tournament.objects.count() == 0
