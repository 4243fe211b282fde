"""Registrations as CSV: export, and import with tolerant headers (a row's error names its line)."""

from __future__ import annotations

import csv
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.errors import DomainError

from .. import audit, spreadsheets
from ..dates import format_date
from ..models import Registration, Tournament
from .guards import require_organizer
from .players import PlayerData
from .registration import register

CSV_COLUMNS = ["first_name", "last_name", "nickname", "club", "email", "birth_date", "national_id",
               "status"]


# Headers naming the national ranking's id of a player (also read by the Iscritti import).
NATIONAL_ID_HEADERS = ("national_id", "national id", "id nazionale", "codice", "codice nazionale",
                       "codice giocatore")


_HEADER_ALIASES = {
    "first name": "first_name", "last name": "last_name", "date of birth": "birth_date",
    "status": "status",
    "nome": "first_name", "cognome": "last_name", "soprannome": "nickname",
    "nickname": "nickname", "circolo": "club", "club": "club", "email": "email",
    "e-mail": "email", "data di nascita": "birth_date", "stato": "status",
    **{h: "national_id" for h in NATIONAL_ID_HEADERS},
}


class CsvImportError(DomainError):
    def __init__(self, message: str, *, line: int, field: str | None):
        super().__init__(message, field=field, rule="CSV")
        self.line = line

    def as_dict(self) -> dict[str, object]:
        data = super().as_dict()
        data["line"] = self.line
        return data


# the columns in words, as the registrations page exports them (the import reads them back)
CSV_HEADINGS = {
    "first_name": gettext_lazy("First name"), "last_name": gettext_lazy("Last name"),
    "nickname": gettext_lazy("Nickname"), "club": gettext_lazy("Club"), "email": gettext_lazy("E-mail"),
    "birth_date": gettext_lazy("Date of birth"), "national_id": gettext_lazy("National id"),
    "status": gettext_lazy("Status"),
}


def export_rows(tournament: Tournament, *, actor: Any, words: bool = False) -> list[list[Any]]:
    """All registrations (with e-mail and birth date: organizers only). ``words``: headings and
    states in the page's language (the page's download); else the column codes and state codes
    the API has always given."""
    require_organizer(actor, tournament)
    states = dict(Registration.STATE_CHOICES)
    rows: list[list[Any]] = [[str(CSV_HEADINGS[c]) for c in CSV_COLUMNS] if words else list(CSV_COLUMNS)]
    for reg in tournament.registrations.with_state().select_related("player__club").order_by("created_at", "id"):
        p = reg.player  # personal data: as entered for this tournament (the registration's)
        rows.append([
            p.first_name, p.last_name, p.nickname, p.club.name if p.club else "", reg.email,
            format_date(reg.birth_date), reg.national_id, str(states[reg.state]) if words else reg.state,
        ])
    return rows


def export_csv(tournament: Tournament, *, actor: Any) -> str:
    """The registrations as the API gives them: column codes, commas, no byte-order mark."""
    return spreadsheets.csv_text(export_rows(tournament, actor=actor))  # every cell neutralised


def _decode(content: bytes | str) -> str:
    if isinstance(content, str):
        return content.removeprefix("\ufeff")  # the byte-order mark of our own Excel-friendly export
    try:
        spreadsheets.check_upload_size(len(content))
    except spreadsheets.SheetError as exc:
        raise CsvImportError(exc.message, line=1, field=None) from None
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):  # "Unicode text" as Excel saves it
        try:
            if content.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
                return content.decode("utf-32")
            return content.decode("utf-16")
        except UnicodeDecodeError:
            raise CsvImportError(_("The file is not a text (CSV) file."), line=1, field=None) from None
    if b"\x00" in content:  # UTF-16 without its mark, or a binary file
        raise CsvImportError(_("The file holds NUL bytes: it is not CSV text. Save it as "
                               "“CSV UTF-8” and try again."), line=1, field=None)
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CsvImportError(_("The file is not a text (CSV) file."), line=1, field=None)


def import_csv(tournament: Tournament, content: bytes | str, *, actor: Any) -> list[Registration]:
    """Register every row of a CSV file in ONE transaction: a bad row (reported by line and
    field) imports nothing. Columns (first line): first_name, last_name, nickname, club, email,
    birth_date (DD/MM/YYYY or YYYY-MM-DD), national_id — Italian headers (nome, cognome, circolo, codice…) are
    accepted too;
    comma or semicolon separated."""
    require_organizer(actor, tournament)
    text = _decode(content)
    try:
        dialect: Any = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:  # within the spreadsheet limits: lines, columns, characters per cell, no NUL
        rows = list(spreadsheets.csv_rows(text, dialect))
    except spreadsheets.SheetError as exc:
        raise CsvImportError(exc.message, line=exc.line or 1, field=None) from None
    if not rows:
        raise CsvImportError(_("The file is empty."), line=1, field=None)
    header = [_HEADER_ALIASES.get(h.strip().lower(), h.strip().lower()) for h in rows[0]]
    for required in ("first_name", "last_name"):
        if required not in header:
            raise CsvImportError(
                _("Missing column “%(column)s” in the first line.") % {"column": required},
                line=1, field=required,
            )
    unknown = [h for h in header if h and h not in CSV_COLUMNS]
    if unknown:
        raise CsvImportError(
            _("Unknown column “%(column)s”.") % {"column": unknown[0]}, line=1, field=unknown[0]
        )
    created: list[Registration] = []
    try:
        with transaction.atomic():
            for line, row in enumerate(rows[1:], start=2):
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) > len(header):
                    raise CsvImportError(_("Too many values in this line."), line=line,
                                         field=None)
                values = dict(zip(header, row, strict=False))
                data = PlayerData(
                    first_name=values.get("first_name", ""),
                    last_name=values.get("last_name", ""),
                    nickname=values.get("nickname", ""),
                    club=values.get("club", ""),
                    email=values.get("email", ""),
                    birth_date=values.get("birth_date", "") or None,  # type: ignore[arg-type]
                    national_id=values.get("national_id", ""),
                )
                try:
                    created.append(
                        register(tournament, data, actor=actor, audit_action="registration.import")
                    )
                except DomainError as exc:
                    raise CsvImportError(exc.message, line=line, field=exc.field) from None
    except IntegrityError:  # pragma: no cover - a concurrent write; nothing was imported
        raise CsvImportError(_("The file could not be imported; try again."), line=1,
                             field=None) from None
    audit.record(actor=actor, action="registration.import_csv", obj=tournament,
                 tournament=tournament, after={"rows": len(created)})
    return created
