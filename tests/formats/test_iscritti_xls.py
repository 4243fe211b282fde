"""The clubs' existing registration sheets are .xls files written by the desktop tool: the
Iscritti import reads them (xlrd) exactly like the .xlsx ones."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from openpyxl import Workbook

from common.errors import DomainError
from tests.factories import scoring as f
from tournaments.iscritti import import_iscritti

from .xls import workbook

HEADER = ["ID", "Nome", "Cognome", "Nick", "Club", "Partecipa", "Regione", "Data di nascita", "e-mail"]
ROWS = [
    [1, "Niccolò", "Bianchi", "Nicco", "RCU Milano", "SI", "Lombardia", dt.date(1985, 3, 14), "n@example.org"],
    [2, "Anna", "D'Amico", "", "Eagles Palermo", "SI", "Sicilia", "02/11/1992", ""],
    [3, "Luca", "Verdi", "", "RCU Milano", "NO", "Lombardia", dt.date(1979, 7, 1), ""],
    [4, "Sara", "Neri", "", "", "SI", "", None, ""],
]
SHEET = [["SCHEDA DATI TORNEO"], [], HEADER, *ROWS]


def xlsx() -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Iscritti"
    for row in SHEET:
        ws.append([dt.datetime.combine(v, dt.time()) if isinstance(v, dt.date) else v for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def imported(content: bytes, filename: str) -> list[tuple[Any, ...]]:
    t = f.ScoringTournamentFactory()
    report = import_iscritti(t, content, filename, actor=f.role(t, "organizer"))
    assert report.skipped == [6]  # Luca Verdi: Partecipa = NO
    return [(r.player.first_name, r.player.last_name, r.player.nickname, r.player.birth_date,
             r.player.club.name if r.player.club else "", r.player.email) for r in report.registered]


def test_xls_and_xlsx_import_the_same_players(db: Any) -> None:
    from_xls = imported(workbook("Iscritti", SHEET), "torneo.xls")
    assert from_xls == [
        ("Niccolò", "Bianchi", "Nicco", dt.date(1985, 3, 14), "RCU Milano", "n@example.org"),
        ("Anna", "D'Amico", "", dt.date(1992, 11, 2), "Eagles Palermo", ""),
        ("Sara", "Neri", "", None, "", ""),
    ]
    assert imported(xlsx(), "torneo.xlsx") == from_xls


def test_an_unreadable_xls_is_refused_not_a_crash(db: Any) -> None:
    t = f.ScoringTournamentFactory()
    with pytest.raises(DomainError) as exc:
        import_iscritti(t, b"not an excel file at all", "torneo.xls", actor=f.role(t, "organizer"))
    assert (exc.value.field, exc.value.rule) == ("file", "FORMAT")


def test_a_bad_date_in_an_xls_names_its_row(db: Any) -> None:
    t = f.ScoringTournamentFactory()
    bad = [["ID", "Nome", "Cognome", "Data di nascita"], [1, "Mario", "Rossi", "31/02/1990"]]
    with pytest.raises(DomainError) as exc:
        import_iscritti(t, workbook("Iscritti", bad), "torneo.xls", actor=f.role(t, "organizer"))
    assert exc.value.field == "birth_date" and exc.value.line == 2  # type: ignore[attr-defined]


def test_every_bad_row_of_a_sheet_is_named_on_the_page_in_italian(db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from tournaments.models import Registration

    t = f.ScoringTournamentFactory()
    organizer = f.role(t, "organizer")
    bad = [["ID", "Nome", "Cognome", "Club", "Data di nascita"],
           [1, "Mario", "Rossi", "RCU Milano", "31/02/1990"],      # row 2: no such date
           [2, "Anna", "Verdi", "RCU Milano", ""],
           [3, "Anna", "Verdi", "RCU Milano", ""]]                 # row 4: Anna again
    client = Client()
    client.force_login(organizer)
    page = client.post(f"/t/{t.slug}/registrations/iscritti/",
                       {"file": SimpleUploadedFile("torneo.xls", workbook("Iscritti", bad))},
                       HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 400
    html = page.content.decode()
    assert "Riga 2 (Data di nascita): " in html and "Riga 4 (Cognome): " in html
    assert "Non è stato importato nulla." in html and ".." not in html.replace("...", "")
    assert not Registration.objects.filter(tournament=t).exists()
