"""Registrations as CSV: export, and import with tolerant headers (a row's error names its line)."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import DomainError

from .. import audit, spreadsheets
from ..dates import format_date
from ..models import Registration, Tournament, normalise_name
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


# The columns as the organizer reads them: a problem row names its column in these words, and
# the registrations page's download has them as headings (the import reads them back).
COLUMN_LABELS = {
    "first_name": gettext_lazy("First name"), "last_name": gettext_lazy("Last name"),
    "nickname": gettext_lazy("Nickname"), "club": gettext_lazy("Club"),
    "email": gettext_lazy("E-mail"), "birth_date": gettext_lazy("Date of birth"),
    "national_id": gettext_lazy("National id"), "status": gettext_lazy("Status"),
}


@dataclass(frozen=True)
class RowProblem:
    """One line of the file that cannot be imported: its number, its column, why."""

    line: int
    field: str | None
    message: str

    @property
    def column(self) -> str:
        """The column in the organizer's words ("Cognome"), or "" for the whole line."""
        return str(COLUMN_LABELS.get(self.field or "", self.field or ""))

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "field": self.field, "column": self.column,
                "message": self.message}


class CsvImportError(DomainError):
    """The file cannot be imported as it is: ``problems`` holds every problem line (the first
    one is also the error's own line, field and message)."""

    def __init__(self, message: str, *, line: int, field: str | None,
                 problems: tuple[RowProblem, ...] = (), importable: int = 0):
        super().__init__(message, field=field, rule="CSV")
        self.line = line
        self.problems = problems or (RowProblem(line, field, message),)
        self.importable = importable  # the good rows, registered if the bad ones are left out

    def as_dict(self) -> dict[str, object]:
        data = super().as_dict()
        data["line"] = self.line
        data["problems"] = [p.as_dict() for p in self.problems]
        data["importable"] = self.importable
        return data


@dataclass
class CsvImport:
    """What an import did: who was registered, and the lines left out (with why)."""

    created: list[Registration] = field(default_factory=list)
    left_out: list[RowProblem] = field(default_factory=list)


def export_rows(tournament: Tournament, *, actor: Any, words: bool = False) -> list[list[Any]]:
    """All registrations (with e-mail and birth date: organizers only). ``words``: headings and
    states in the page's language (the page's download); else the column codes and state codes
    the API has always given."""
    require_organizer(actor, tournament)
    states = dict(Registration.STATE_CHOICES)
    rows: list[list[Any]] = [[str(COLUMN_LABELS[c]) for c in CSV_COLUMNS] if words else list(CSV_COLUMNS)]
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
    """Register every row of a CSV file in ONE transaction: a file with bad rows imports nothing
    and its error lists every one of them (line, column, why). Columns (first line):
    first_name, last_name, nickname, club, email, birth_date (DD/MM/YYYY or YYYY-MM-DD),
    national_id — Italian headers (nome, cognome, circolo, codice…) are accepted too; comma or
    semicolon separated."""
    return import_csv_rows(tournament, content, actor=actor).created


def import_csv_rows(tournament: Tournament, content: bytes | str, *, actor: Any,
                    leave_out_bad_rows: bool = False) -> CsvImport:
    """Import a CSV file (see :func:`import_csv`). With ``leave_out_bad_rows`` the good rows are
    registered and the bad ones listed in the result's ``left_out``; without it a bad row
    raises :class:`CsvImportError` naming all of them and nothing is registered. A file whose
    first line (its columns) is wrong is refused either way."""
    require_organizer(actor, tournament)
    header, rows = _read_table(content)
    outcome = CsvImport()
    try:
        with transaction.atomic():
            _register_rows(tournament, header, rows, actor, outcome)
            if outcome.left_out and not leave_out_bad_rows:
                first = outcome.left_out[0]
                raise CsvImportError(first.message, line=first.line, field=first.field,
                                     problems=tuple(outcome.left_out),
                                     importable=len(outcome.created))
    except IntegrityError:  # pragma: no cover - a concurrent write; nothing was imported
        raise CsvImportError(_("The file could not be imported; try again."), line=1,
                             field=None) from None
    audit.record(actor=actor, action="registration.import_csv", obj=tournament,
                 tournament=tournament, after={"rows": len(outcome.created),
                                               "left_out": [p.line for p in outcome.left_out]})
    return outcome


def _read_table(content: bytes | str) -> tuple[list[str], list[list[str]]]:
    """The file's columns (as ``CSV_COLUMNS`` keys) and its rows; a problem with the file or its
    first line is a :class:`CsvImportError`."""
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
    return header, rows[1:]


def _register_rows(tournament: Tournament, header: list[str], rows: list[list[str]], actor: Any,
                   outcome: CsvImport) -> None:
    """Register each row in its own savepoint: a refused row is noted and the others go on."""
    seen: dict[str, int] = {}  # a name registered by this file -> its line
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            outcome.left_out.append(RowProblem(line, None, _("Too many values in this line.")))
            continue
        values = dict(zip(header, row, strict=False))
        data = PlayerData(
            first_name=values.get("first_name", ""), last_name=values.get("last_name", ""),
            nickname=values.get("nickname", ""), club=values.get("club", ""),
            email=values.get("email", ""),
            birth_date=values.get("birth_date", "") or None,  # type: ignore[arg-type]
            national_id=values.get("national_id", ""),
        )
        name = normalise_name(data.first_name, data.last_name)
        try:
            with transaction.atomic():
                created = register(tournament, data, actor=actor, audit_action="registration.import")
        except DomainError as exc:
            message = exc.message
            if exc.rule == "DUPLICATE" and name in seen:  # the file names the player twice
                message = _("%(name)s is already on line %(line)s of this file.") % {
                    "name": " ".join(f"{data.first_name} {data.last_name}".split()),
                    "line": seen[name]}
            outcome.left_out.append(RowProblem(line, exc.field, message))
        else:
            seen.setdefault(name, line)
            outcome.created.append(created)
