"""An event as the workbook describes it, and the workbook written from it (pure Python).

:func:`to_book` lays an :class:`Event` out exactly as the ranking reads it: plain values, the
required cell types (ids, scores and dates numeric; dates as serials with a date format), two
rows per table with no spacer rows, the Ghost as id −1, and a ``Classifica Ridotta`` of the
players who sat at a table. Free text goes through :func:`tournaments.spreadsheets.safe_cell`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict, dataclass, field

from tournaments.spreadsheets import safe_cell

from . import spec
from .book import Book, Cell, date, number, text


@dataclass(frozen=True)
class Registrant:
    id: int
    first_name: str
    last_name: str
    nickname: str = ""
    club: str = ""
    region: str = ""
    birth_date: dt.date | None = None
    national_id: int | None = None
    takes_part: bool = True

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass(frozen=True)
class SeatEntry:
    seat: int  # 1-based triplet position
    id: int  # registrant id; −1 = the Ghost
    score: float


@dataclass(frozen=True)
class TableEntry:
    number: int  # position of the table in its sheet (1-based)
    seats: tuple[SeatEntry, ...]


@dataclass(frozen=True)
class RoundEntry:
    number: int
    tables: tuple[TableEntry, ...]


@dataclass(frozen=True)
class StandingEntry:
    position: int
    id: int
    points: float
    first_name: str = ""
    last_name: str = ""


@dataclass
class Event:
    organizer: str
    name: str
    type_label: str
    planned_rounds: int
    dates: list[dt.date]
    venue: str = ""
    note: str = ""
    registrants: list[Registrant] = field(default_factory=list)
    rounds: list[RoundEntry] = field(default_factory=list)
    standings: list[StandingEntry] = field(default_factory=list)

    @property
    def type_code(self) -> str | None:
        return spec.type_code(self.type_label)

    @property
    def event_id(self) -> str:
        """The ranking's key of the event: first round date ``yyyyMMdd``, " - ", Organizzatore."""
        from ranking.formula import event_id

        return event_id(self.dates[0], self.organizer.strip()) if self.dates else ""

    @property
    def year(self) -> int | None:
        return self.dates[-1].year if self.dates else None

    def played_ids(self) -> set[int]:
        return {s.id for r in self.rounds for t in r.tables for s in t.seats if s.id > 0}


def content_digest(event: Event) -> str:
    """What an event says, as one hash: its export remembers it, its import compares it."""
    data = json.dumps(asdict(event), default=str, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()


def file_name(event: Event, ext: str = ".xls") -> str:
    """The file's name: the event id, without what a file name or the ranking refuses (')."""
    base = event.event_id or event.name or "torneo"
    bad = "'\"/\\:*?<>|\u2019"
    clean = "".join(" " if c in bad else c for c in base)
    return " ".join(clean.split())[:120] + ext


def _free(value: str) -> Cell | None:
    value = value.strip()
    return text(safe_cell(value)[: spec.MAX_CELL_CHARS]) if value else None


def to_book(event: Event) -> Book:
    book = Book()
    t = book.add(spec.TORNEO)
    t.put(0, spec.COL_LABEL, text(spec.TEMPLATE_TITLE))
    for row, label in spec.TORNEO_LABELS.items():
        t.put(row, spec.COL_LABEL, text(label))
    t.put(spec.VENUE, spec.COL_VALUE, _free(event.venue))
    t.put(spec.ORGANIZER, spec.COL_VALUE, _free(event.organizer))
    t.put(spec.NAME, spec.COL_VALUE, _free(event.name))
    t.put(spec.TYPE, spec.COL_VALUE, text(event.type_label))
    t.put(spec.ROUNDS, spec.COL_VALUE, number(event.planned_rounds))
    t.put(spec.NOTE, spec.COL_VALUE, _free(event.note))
    for k, day in enumerate(event.dates[: spec.MAX_ROUNDS]):
        t.put(spec.FIRST_DATE_ROW + k, 1, number(k + 1))
        t.put(spec.FIRST_DATE_ROW + k, spec.COL_LABEL, text(f"Data Turno {k + 1}"))
        t.put(spec.FIRST_DATE_ROW + k, spec.COL_VALUE, date(day))

    i = book.add(spec.ISCRITTI)
    i.put(0, 0, text("Elenco Partecipanti"))
    for col, head in enumerate(spec.ISCRITTI_HEADERS):
        i.put(spec.ISCRITTI_HEADER_ROW, col, text(head))
    for k, r in enumerate(event.registrants):
        row = spec.ISCRITTI_FIRST_ROW + k
        i.put(row, spec.I_ID, number(r.id))
        i.put(row, spec.I_NOME, _free(r.first_name))
        i.put(row, spec.I_COGNOME, _free(r.last_name))
        i.put(row, spec.I_NICK, _free(r.nickname))
        i.put(row, spec.I_CLUB, _free(r.club))
        i.put(row, spec.I_PARTECIPA, text("SI" if r.takes_part else "NO"))
        i.put(row, spec.I_REGIONE, _free(r.region))
        i.put(row, spec.I_NASCITA, date(r.birth_date) if r.birth_date else None)
        i.put(row, spec.I_NAZIONALE, number(r.national_id) if r.national_id else None)

    names = {r.id: r for r in event.registrants}
    for rnd in event.rounds:
        s = book.add(spec.round_sheet(rnd.number))
        for k, table in enumerate(rnd.tables):
            s.put(2 * k, 0, text(spec.TABLE_HEADER.format(n=k + 1)))
            for seat in table.seats:
                col = 3 * (seat.seat - 1)
                who = names.get(seat.id)
                label = spec.GHOST_NAME if seat.id == spec.GHOST_ID else (who.name if who else "")
                if who is not None and who.club:
                    label += "\n" + who.club
                s.put(2 * k + 1, col, number(seat.id))
                s.put(2 * k + 1, col + 1, _free(label))
                s.put(2 * k + 1, col + 2, number(seat.score))

    if event.standings:
        c = book.add(spec.CLASSIFICA)
        for col, head in enumerate(spec.CLASSIFICA_HEADERS):
            c.put(0, col, text(head))
        for k, st in enumerate(event.standings, start=1):
            c.put(k, spec.C_POS, text(str(st.position)))
            c.put(k, spec.C_NOME, _free(st.first_name))
            c.put(k, spec.C_COGNOME, _free(st.last_name))
            c.put(k, spec.C_POINTS, number(st.points))
            c.put(k, spec.C_ID, text(str(st.id)))
    return book
