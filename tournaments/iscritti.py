"""Import of the clubs' registration sheet: the desktop tool's "Iscritti" sheet, columns ID, Nome,
Cognome, Nick, Club, Partecipa (SI/NO), Regione, Data di nascita,
e-mail, found by their header (the tool's template puts the header just above row 4), and an
optional national id column ("ID nazionale", "Codice", "national_id").

One transaction: bad rows (every one reported by its sheet row and column) import nothing. Rows with
Partecipa = NO are skipped. Every new player is compared with the players already known
(:mod:`tournaments.identity`); probable duplicates are listed for the organizer to merge, never
merged silently. The workbook is read within the limits of :mod:`tournaments.spreadsheets`
(.xlsx with openpyxl, .xls with xlrd).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import DomainError

from . import audit
from .identity import Candidate, ProbableDuplicate, probable_duplicates
from .models import Player, Registration, Tournament
from .services import (
    NATIONAL_ID_HEADERS,
    CsvImportError,
    PlayerData,
    RowProblem,
    register,
    require_organizer,
)
from .spreadsheets import open_workbook

COLUMNS = {
    "id": "id", "nome": "first_name", "cognome": "last_name", "nick": "nickname", "club": "club",
    "partecipa": "takes_part", "regione": "region", "data di nascita": "birth_date",
    "e-mail": "email", "email": "email", "mail": "email",
    # The national ranking's id (not the sheet's progressive "ID"), when the club added the column.
    **{h: "national_id" for h in NATIONAL_ID_HEADERS},
}
SHEET = "Iscritti"


@dataclass
class ImportReport:
    registered: list[Registration] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)  # sheet rows with Partecipa = NO
    duplicates: list[tuple[int, Player, list[ProbableDuplicate]]] = field(default_factory=list)


def _rows(content: bytes, filename: str) -> list[list[Any]]:
    """The "Iscritti" sheet (or the first one), read within the spreadsheet limits."""
    book = open_workbook(content, filename)
    return list(book.rows(SHEET if SHEET in book.sheet_names else None))


def _date(value: Any, row: int) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    for fmt in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise CsvImportError(_("“%(value)s” is not a date (DD/MM/YYYY).") % {"value": text}, line=row, field="birth_date")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def import_iscritti(tournament: Tournament, content: bytes, filename: str, *, actor: Any) -> ImportReport:
    require_organizer(actor, tournament)
    rows = _rows(content, filename)
    header_at = next((i for i, r in enumerate(rows[:10])
                      if {"nome", "cognome"} <= {_text(c).lower() for c in r if c is not None}), None)
    if header_at is None:
        raise CsvImportError(_("No header row with Nome and Cognome in the first ten rows."), line=1, field=None)
    header = [COLUMNS.get(_text(c).lower(), "") for c in rows[header_at]]
    report = ImportReport()
    known = [Candidate(p.pk, p.first_name, p.last_name, p.birth_date) for p in Player.objects.all()]
    problems: list[RowProblem] = []  # every bad row is reported; any of them imports nothing
    with transaction.atomic():
        for number, raw in enumerate(rows[header_at + 1:], start=header_at + 2):
            values = {key: raw[i] for i, key in enumerate(header) if key and i < len(raw)}
            if not _text(values.get("first_name")) and not _text(values.get("last_name")):
                continue
            if _text(values.get("takes_part")).upper() in ("NO", "N"):
                report.skipped.append(number)
                continue
            try:
                birth = _date(values.get("birth_date"), number)
                data = PlayerData(first_name=_text(values.get("first_name")), last_name=_text(values.get("last_name")),
                                  nickname=_text(values.get("nickname")), club=_text(values.get("club")),
                                  email=_text(values.get("email")), birth_date=birth,
                                  national_id=_text(values.get("national_id")), region=_text(values.get("region")))
                with transaction.atomic():
                    reg = register(tournament, data, actor=actor, audit_action="registration.import")
            except DomainError as exc:
                problems.append(RowProblem(number, exc.field, exc.message))
                continue
            report.registered.append(reg)
            player = reg.player
            others = [c for c in known if c.player_id != player.pk]
            found = probable_duplicates(player.first_name, player.last_name, player.birth_date, others)
            if found:
                report.duplicates.append((number, player, found))
            if all(c.player_id != player.pk for c in known):
                known.append(Candidate(player.pk, player.first_name, player.last_name, player.birth_date))
        if problems:
            raise CsvImportError(problems[0].message, line=problems[0].line, field=problems[0].field,
                                 problems=tuple(problems))
        audit.record(actor=actor, action="registration.import_iscritti", obj=tournament, tournament=tournament,
                     after={"registered": len(report.registered), "skipped": len(report.skipped),
                            "probable_duplicates": [(n, p.pk, [d.player_id for d in ds])
                                                    for n, p, ds in report.duplicates]})
    return report
