"""Every check the national ranking applies to an event workbook (E1–E20, W1–W3; R1 reported as
not checked, the national registry being the federation's), plus this
app's own (``WB-*``: what would crash the ranking's reader, or what a reader of past files must
not let through), each with the sheet and cell to fix. Pure Python.

:func:`check` returns the issues and, when there is no error, the :class:`~.event.Event` the
workbook describes (what an import stores).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from . import spec
from .book import BLANK, TEXT, Book, Cell, Sheet, a1
from .event import Event, Registrant, RoundEntry, SeatEntry, StandingEntry, TableEntry

ROUND_LIKE = re.compile(r"^\s*(.*?)\s*[\u00b0\u00ba]\s*turno\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Issue:
    code: str
    sheet: str = ""
    cell: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return spec.ISSUES[self.code][0]

    @property
    def is_error(self) -> bool:
        return self.severity == spec.ERROR

    @property
    def where(self) -> str:
        return f"{self.sheet}!{self.cell}" if self.sheet and self.cell else self.sheet

    def message(self) -> str:
        """The explanation in the active language."""
        params = {"cell": self.where, "sheet": self.sheet, **{k: str(v) for k, v in self.params.items()}}
        try:
            return str(spec.ISSUES[self.code][1]) % params
        except (KeyError, TypeError, ValueError):
            return str(spec.ISSUES[self.code][1])

    def line(self) -> str:
        where = f" [{self.where}]" if self.where else ""
        return f"{self.code}{where}: {self.message()}"

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "sheet": self.sheet, "cell": self.cell,
                "message": self.message()}


@dataclass
class Checked:
    issues: list[Issue]
    event: Event | None

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.is_error]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if not i.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors


def _int(cell: Cell) -> int | None:
    """A cell read as an integer the way the clubs' tool reads Pos./id (text or number)."""
    if cell.numeric:
        value = float(cell.value)
    elif cell.kind == TEXT:
        try:
            value = float(str(cell.value).strip().replace(",", "."))
        except ValueError:
            return None
    else:
        return None
    return int(value) if math.isfinite(value) else None


def _float(cell: Cell) -> float | None:
    if cell.numeric:
        return float(cell.value)
    if cell.kind == TEXT:
        try:
            value = float(str(cell.value).strip().replace(",", "."))
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    return None


def _text(cell: Cell) -> str:
    return cell.text().strip() if cell.kind == TEXT else ("" if cell.blank else cell.text().strip())


class _Checker:
    def __init__(self, book: Book, filename: str) -> None:
        self.book = book
        self.filename = filename
        self.issues: list[Issue] = []

    def add(self, code: str, sheet: str = "", cell: str = "", **params: Any) -> None:
        self.issues.append(Issue(code, sheet, cell, params))

    def formula(self, sheet: Sheet, row: int, col: int) -> bool:
        if sheet.cell(row, col).formula:
            self.add("WB-FORMULA", sheet.name, a1(row, col))
            return True
        return False

    # ------------------------------------------------------------------ TORNEO
    def torneo(self) -> tuple[dict[str, Any], list[dt.date]] | None:
        t = self.book.get(spec.TORNEO)
        if t is None:
            if self.book.get(spec.ISCRITTI) is not None:
                self.add("WB-LEGACY", spec.TORNEO)
            self.add("E2", spec.TORNEO)
            return None
        name = t.name
        for row in range(spec.VENUE, spec.NOTE + 1):
            self.formula(t, row, spec.COL_VALUE)
        value = {row: _text(t.cell(row, spec.COL_VALUE)) for row in range(spec.VENUE, spec.NOTE + 1)}
        for row, what in ((spec.ORGANIZER, "Organizzatore"), (spec.NAME, "Nome Torneo")):
            if not value[row]:
                self.add("E3", name, a1(row, spec.COL_VALUE), what=what)
        if spec.type_code(value[spec.TYPE]) is None:
            self.add("E4", name, a1(spec.TYPE, spec.COL_VALUE), value=value[spec.TYPE],
                     allowed=", ".join(spec.TYPES.values()))
        rounds_cell = t.cell(spec.ROUNDS, spec.COL_VALUE)
        planned = _float(rounds_cell) if not rounds_cell.formula else None
        rounds = int(planned) if planned is not None and abs(planned) < 1e6 else 0
        if rounds == 0:
            self.add("E5", name, a1(spec.ROUNDS, spec.COL_VALUE))
        dates: list[dt.date] = []
        for k in range(spec.MAX_ROUNDS):
            row = spec.FIRST_DATE_ROW + k
            cell = t.cell(row, spec.COL_VALUE)
            if self.formula(t, row, spec.COL_VALUE) or cell.blank:
                continue
            day = cell.date()
            if day is None:
                self.add("WB-TEXTDATE", name, a1(row, spec.COL_VALUE))
                continue
            if dates and day < dates[-1]:
                self.add("E6", name, a1(row, spec.COL_VALUE))
            dates.append(day)
        return {"venue": value[spec.VENUE], "organizer": value[spec.ORGANIZER], "name": value[spec.NAME],
                "type_label": value[spec.TYPE], "planned_rounds": rounds, "note": value[spec.NOTE]}, dates

    # ------------------------------------------------------------------ Iscritti
    def iscritti(self) -> dict[int, Registrant] | None:
        sheet = self.book.get(spec.ISCRITTI)
        if sheet is None:
            self.add("E7", spec.ISCRITTI)
            return None
        out: dict[int, Registrant] = {}
        for row, cells in sheet.physical_rows():
            if row < spec.ISCRITTI_FIRST_ROW or spec.I_ID not in cells:
                continue
            id_cell = cells[spec.I_ID]
            nome = _text(sheet.cell(row, spec.I_NOME))
            if self.formula(sheet, row, spec.I_ID):
                continue
            if id_cell.kind == TEXT and not id_cell.blank:
                self.add("E9", sheet.name, a1(row, spec.I_ID), row=row + 1, what=_("the ID is not a number"))
                continue
            if not nome:
                continue  # the template's pre-filled ids with no registrant
            ident = int(float(id_cell.value)) if id_cell.numeric else 0
            if id_cell.numeric and (float(id_cell.value) != ident or not 1 <= ident <= spec.MAX_ID):
                self.add("E9", sheet.name, a1(row, spec.I_ID), row=row + 1,
                         what=_("the ID must be a whole number from 1 to %(max)s") % {"max": spec.MAX_ID})
                continue
            birth_cell = sheet.cell(row, spec.I_NASCITA)
            birth = None
            if not self.formula(sheet, row, spec.I_NASCITA) and not birth_cell.blank:
                birth = birth_cell.date()
                if birth is None:
                    self.add("E9", sheet.name, a1(row, spec.I_NASCITA), row=row + 1,
                             what=_("the date of birth is not a date (type it as a date, not as text)"))
            nat_cell = sheet.cell(row, spec.I_NAZIONALE)
            national = int(float(nat_cell.value)) if nat_cell.numeric and float(nat_cell.value) >= 1 else None
            if ident in out:
                self.add("E8", sheet.name, a1(row, spec.I_ID), id=ident, row=row + 1)
                continue
            out[ident] = Registrant(
                id=ident, first_name=nome, last_name=_text(sheet.cell(row, spec.I_COGNOME)),
                nickname=_text(sheet.cell(row, spec.I_NICK)), club=_text(sheet.cell(row, spec.I_CLUB)),
                region=_text(sheet.cell(row, spec.I_REGIONE)), birth_date=birth, national_id=national,
                takes_part=_text(sheet.cell(row, spec.I_PARTECIPA)).upper() == "SI")
        if not out:
            self.add("E7", sheet.name)
        return out

    # ------------------------------------------------------------------ rounds
    def rounds(self, planned: int, dates: int, registrants: Mapping[int, Registrant]) -> list[RoundEntry]:
        found: dict[int, Sheet] = {}
        for sheet in self.book.sheets:
            match = ROUND_LIKE.match(sheet.name)
            if match is None:
                continue
            prefix = match.group(1)
            if not prefix.isdigit() or sheet.name != spec.round_sheet(int(prefix)):
                suggestion = spec.round_sheet(int(prefix)) if prefix.isdigit() else "1° Turno, 2° Turno, …"
                self.add("E15", sheet.name, what=_("rename the sheet “%(name)s” to “%(good)s” (a number, the "
                                                   "degree sign °, a space, Turno)") % {"name": sheet.name,
                                                                                      "good": suggestion})
                continue
            found[int(prefix)] = sheet
        if 1 not in found:
            self.add("E12", spec.round_sheet(1))
        if planned and len(found) > planned:
            self.add("E15", spec.TORNEO, "D6", what=_("there are %(n)s round sheets but Numero Turni Previsti is "
                                                      "%(planned)s") % {"n": len(found), "planned": planned})
        for n in sorted(found):
            if planned and n > planned:
                self.add("E15", found[n].name, what=_("round %(n)s is beyond Numero Turni Previsti (%(planned)s)")
                         % {"n": n, "planned": planned})
            if n > dates:
                self.add("E16", found[n].name, round=n, dates=dates)
        for n in range(1, max(found, default=0) + 1):
            if n not in found:
                self.add("WB-GAP", spec.round_sheet(n), round=spec.round_sheet(n))
        return [self.round(n, found[n], registrants) for n in sorted(found)]

    def round(self, n: int, sheet: Sheet, registrants: Mapping[int, Registrant]) -> RoundEntry:
        tables: list[TableEntry] = []
        seen: set[int] = set()
        rows = list(sheet.physical_rows())
        for k in range(1, len(rows), 2):
            row, cells = rows[k]
            seats: list[SeatEntry] = []
            for seat in range(spec.MAX_SEATS):
                col = 3 * seat
                id_cell, score_cell = cells.get(col), cells.get(col + 2)
                if id_cell is None or id_cell.kind == BLANK:
                    continue
                if self.formula(sheet, row, col):
                    continue
                if not id_cell.numeric:
                    if not id_cell.blank:
                        self.add("E14", sheet.name, a1(row, col),
                                 what=_("%(cell)s: the seat's ID must be a number") % {"cell": a1(row, col)})
                    continue
                ident = int(float(id_cell.value))
                if ident == 0:
                    continue  # an empty seat
                if ident != spec.GHOST_ID and ident not in registrants:
                    self.add("E14", sheet.name, a1(row, col),
                             what=_("%(cell)s: ID %(id)s is not in Iscritti") % {"cell": a1(row, col), "id": ident})
                    continue
                if self.formula(sheet, row, col + 2):
                    continue
                score = _float(score_cell) if score_cell is not None and score_cell.numeric else None
                if score is None:
                    self.add("E14", sheet.name, a1(row, col + 2),
                             what=_("%(cell)s: the score of ID %(id)s must be a number")
                             % {"cell": a1(row, col + 2), "id": ident})
                    continue
                if ident != spec.GHOST_ID:
                    if ident in seen:
                        self.add("WB-TWICE", sheet.name, a1(row, col), id=ident, round=n)
                    seen.add(ident)
                seats.append(SeatEntry(seat + 1, ident, score))
            if seats:
                tables.append(TableEntry(k // 2 + 1, tuple(seats)))
        if not tables:
            self.add("E13", sheet.name)
        return RoundEntry(n, tuple(tables))

    # ------------------------------------------------------------------ standings
    def classifica(self, needs: bool, finished: bool, registrants: Mapping[int, Registrant],
                   played: set[int]) -> list[StandingEntry]:
        sheet = self.book.get(spec.CLASSIFICA)
        if sheet is None:
            if needs and finished:
                self.add("E17", spec.CLASSIFICA)
            return []
        rows = list(sheet.physical_rows())[1:]
        out: list[StandingEntry] = []
        for row, _cells in rows:
            cols = (spec.C_POS, spec.C_POINTS, spec.C_ID)
            if all(sheet.cell(row, c).blank for c in cols):
                continue
            if any([self.formula(sheet, row, c) for c in cols]):
                continue
            pos, points, ident = (_int(sheet.cell(row, spec.C_POS)), _float(sheet.cell(row, spec.C_POINTS)),
                                  _int(sheet.cell(row, spec.C_ID)))
            missing = [(c, label) for c, label, v in ((spec.C_POS, "Pos.", pos), (spec.C_POINTS, "pt_tot", points),
                                                      (spec.C_ID, "id", ident)) if v is None]
            for c, label in missing:
                self.add("E18", sheet.name, a1(row, c),
                         what=_("%(cell)s: %(column)s is missing or not a number") % {"cell": a1(row, c),
                                                                                      "column": label})
            if missing:
                continue
            assert pos is not None and points is not None and ident is not None
            out.append(StandingEntry(pos, ident, points, _text(sheet.cell(row, spec.C_NOME)),
                                     _text(sheet.cell(row, spec.C_COGNOME))))
        if not out and not any(i.code == "E18" for i in self.issues):
            self.add("E18", sheet.name, what=_("the sheet has no rows"))
        for k, st in enumerate(out):
            if st.position > len(out) or st.position < 1:
                self.add("E18", sheet.name, a1(rows[k][0] if k < len(rows) else 0, spec.C_POS),
                         what=_("position %(pos)s is beyond the %(n)s rows of the standings")
                         % {"pos": st.position, "n": len(out)})
            if st.id not in registrants:
                self.add("E19", sheet.name, id=st.id, what=_("which is not in Iscritti"))
            elif st.id not in played:
                self.add("E19", sheet.name, id=st.id,
                         what=_("who never sat at a table: remove the row (a registrant who did not play)"))
        return out


def check(book: Book, filename: str = "") -> Checked:
    """Every rule, in the order the ranking applies them; the event when nothing is an error."""
    c = _Checker(book, filename)
    if "'" in filename or "\u2019" in filename:
        c.add("E1", cell="", what=filename)
    head = c.torneo()
    registrants = c.iscritti()
    if head is None or registrants is None:
        return Checked(c.issues, None)
    info, dates = head
    rounds = c.rounds(info["planned_rounds"], len(dates), registrants)
    played = {s.id for r in rounds for t in r.tables for s in t.seats if s.id > 0}
    for ident in sorted(played):
        reg = registrants[ident]
        if not reg.last_name:
            c.add("E10", spec.ISCRITTI, id=ident, what="Cognome")
        if reg.birth_date is None and not reg.national_id:
            c.add("W1", spec.ISCRITTI, id=ident, name=reg.name)
    unchecked = [ident for ident in sorted(played)
                 if registrants[ident].national_id and registrants[ident].birth_date is None]
    if unchecked:  # R1 needs the federation's registry: said, never silently passed
        c.add("R1", spec.ISCRITTI, ids=", ".join(map(str, unchecked[:20])) + (" …" if len(unchecked) > 20 else ""))
    groups: dict[tuple[str, str, dt.date | None], list[int]] = defaultdict(list)
    for ident in sorted(played):
        reg = registrants[ident]
        key = (reg.first_name.strip().casefold(), reg.last_name.strip().casefold(), reg.birth_date)
        if key[:2] == spec.ANONYMOUS and reg.birth_date is None:
            continue
        groups[key].append(ident)
    for same in groups.values():
        for ident in same[1:]:
            c.add("E11", spec.ISCRITTI, id=same[0], other=ident)
    code = spec.type_code(info["type_label"])
    needs = code is not None and code not in spec.NO_STANDINGS
    finished = any(r.number == info["planned_rounds"] for r in rounds)
    standings = c.classifica(needs, finished, registrants, played)
    listed = {s.id: s for s in standings}
    if standings:
        for ident in sorted(played - set(listed)):
            c.add("W2", spec.CLASSIFICA, id=ident, name=registrants[ident].name)
    if rounds and len(rounds[-1].tables) == 1 and standings:
        final = rounds[-1].tables[0].seats
        for s in final:
            if s.id <= 0:
                continue
            at_table = 1 + sum(1 for o in final if o.score > s.score)
            if s.id not in listed:
                c.add("E20", spec.CLASSIFICA, id=s.id)
            elif listed[s.id].position != at_table:
                c.add("W3", spec.CLASSIFICA, id=s.id, table=at_table, position=listed[s.id].position)
    event = Event(organizer=info["organizer"], name=info["name"], type_label=info["type_label"],
                  planned_rounds=info["planned_rounds"], dates=dates, venue=info["venue"], note=info["note"],
                  registrants=list(registrants.values()), rounds=rounds, standings=standings)
    checked = Checked(c.issues, None)
    if checked.ok:
        checked.event = event
    return checked
