"""The layout of the clubs' event workbook as the national ranking reads it, as data.

Sheets: ``TORNEO`` (event data in column D), ``Iscritti`` (registrants from row 4),
``1° Turno`` … ``N° Turno`` (one per round: two rows per table, seat triplets ID / name / raw
table points), ``Classifica Ridotta`` (position, name, surname, points, registrant id). Fixed
sheet names are matched ignoring case; round sheets are ``<n>`` + DEGREE SIGN (U+00B0) + space +
``Turno``, exactly. IDs, scores and dates are numeric cells, never formulas; dates are 1900-system
serials with a date format (K-RANKING).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from django.utils.translation import gettext_lazy as _

from tournaments.spreadsheets import LIMITS as LIMITS_ALL

TORNEO, ISCRITTI, CLASSIFICA = "TORNEO", "Iscritti", "Classifica Ridotta"
ROUND_SUFFIX = "\u00b0 Turno"
TEMPLATE_TITLE = "SCHEDA DATI TORNEO (V. 2025.2)"


def round_sheet(n: int) -> str:
    return f"{n}{ROUND_SUFFIX}"


# TORNEO: labels in column C, values in column D (0-based rows)
COL_LABEL, COL_VALUE = 2, 3
VENUE, ORGANIZER, NAME, TYPE, ROUNDS, NOTE = 1, 2, 3, 4, 5, 6
FIRST_DATE_ROW, MAX_ROUNDS = 7, 30  # "Data Turno 1" … "Data Turno 30": rows 8–37
TORNEO_LABELS = {VENUE: "Sede Torneo", ORGANIZER: "Organizzatore", NAME: "Nome Torneo",
                 TYPE: "Tipologia di Torneo", ROUNDS: "Numero Turni Previsti", NOTE: "Note"}

# Iscritti: header on row 3, data from row 4
ISCRITTI_HEADER_ROW, ISCRITTI_FIRST_ROW = 2, 3
I_ID, I_NOME, I_COGNOME, I_NICK, I_CLUB, I_PARTECIPA, I_REGIONE, I_NASCITA, I_NAZIONALE = range(9)
ISCRITTI_HEADERS = ("ID", "Nome", "Cognome", "Nickname", "Club", "Partecipa Torneo", "Regione",
                    "Data di Nascita (gg/mm/aaaa)", "ID NAZIONALE")
MAX_ID = 32767  # ids are read as a short
GHOST_ID = -1
GHOST_NAME = "The Ghost"
ANONYMOUS = ("anonimo", "anonimo")

# Round sheets: up to five seat triplets (ID, "Nome Cognome", raw table points)
MAX_SEATS = 5
TABLE_HEADER = "Tavolo N\u00b0{n}"

# Classifica Ridotta: A position, B name, C surname, D points, E registrant id
CLASSIFICA_HEADERS = ("Pos.", "Nome", "Cognome", "pt_tot", "id")
C_POS, C_NOME, C_COGNOME, C_POINTS, C_ID = range(5)

# Tipologia: the allowed labels (matched trimmed, ignoring case) and their codes
TYPES: Mapping[str, str] = MappingProxyType({
    "CNI": "Campionato Nazionale", "RDN": "Raduno Nazionale", "MST": "Torneo Master", "OPN": "Torneo Open",
    "ITC": "Torneo Interclub", "CPP": "Campionato Periodico", "SQD": "Torneo a Squadre", "2V2": "Torneo 2VS2",
    "IVT": "Torneo a Inviti", "AMC": "Amichevoli",
})
NO_STANDINGS = frozenset({"SQD", "2V2", "AMC"})  # types published without a standings sheet


def type_code(label: str) -> str | None:
    wanted = label.strip().casefold()
    return next((code for code, name in TYPES.items() if name.casefold() == wanted), None)


# Limits on what a file may declare or hold before it is read any further: the app's one set of
# spreadsheet limits (tournaments.spreadsheets.LIMITS), the stricter where the workbook's own were
# stricter (characters in a cell); sheets and the compression ratio are the workbook's only.
LIMITS = replace(LIMITS_ALL, cell_chars=min(LIMITS_ALL.cell_chars, 1000))
MAX_FILE_BYTES = LIMITS.upload_bytes
MAX_UNCOMPRESSED_BYTES = LIMITS.uncompressed_bytes  # .xlsx: the sum of its parts once unzipped
MAX_RATIO = 200  # .xlsx: uncompressed / compressed size of one part
MAX_SHEETS = 80
MAX_ROWS = LIMITS.rows  # the national registry sheet of the template has about 3,000 rows
MAX_COLS = LIMITS.columns  # an .xls sheet's own maximum is 256
MAX_CELL_CHARS = LIMITS.cell_chars

ERROR, WARNING = "error", "warning"

# Every check, by code: E1–E20, W1–W3 and R1 are the ranking pipeline's own (R1 only reported:
# the national registry it needs is the federation's); WB-* are this app's
# (what would crash the pipeline, or what a reader of past files must not let through).
ISSUES: Mapping[str, tuple[str, object]] = MappingProxyType({
    "E1": (ERROR, _("The file name contains an apostrophe (')")),
    "E2": (ERROR, _("The sheet TORNEO is missing")),
    "E3": (ERROR, _("%(what)s is empty: fill it in (%(cell)s)")),
    "E4": (ERROR, _("Tipologia “%(value)s” is not one of: %(allowed)s")),
    "E5": (ERROR, _("Numero Turni Previsti must be a number other than 0")),
    "E6": (ERROR, _("The date in %(cell)s is earlier than the previous round's")),
    "E7": (ERROR, _("The sheet Iscritti is missing or has no registrant with an ID and a Nome")),
    "E8": (ERROR, _("ID %(id)s is used by more than one registrant (Iscritti row %(row)s)")),
    "E9": (ERROR, _("Iscritti row %(row)s: %(what)s")),
    "E10": (ERROR, _("Registrant %(id)s played but has no %(what)s")),
    "W1": (WARNING, _("Registrant %(id)s (%(name)s) played but has neither a date of birth nor a national id: "
                      "the ranking will record them as anonymous")),
    "E11": (ERROR, _("Registrants %(id)s and %(other)s have the same name, surname and date of birth")),
    "E12": (ERROR, _("There is no round sheet “1° Turno”")),
    "E13": (ERROR, _("Sheet %(sheet)s holds no table with a player")),
    "E14": (ERROR, _("%(what)s")),
    "E15": (ERROR, _("%(what)s")),
    "E16": (ERROR, _("Round %(round)s was played but TORNEO has only %(dates)s round dates: fill in D8, D9, … "
                     "in order")),
    "E17": (ERROR, _("The event is finished but the sheet Classifica Ridotta is missing")),
    "E18": (ERROR, _("Classifica Ridotta: %(what)s")),
    "E19": (ERROR, _("Classifica Ridotta lists ID %(id)s, %(what)s")),
    "W2": (WARNING, _("Registrant %(id)s (%(name)s) played but is not in Classifica Ridotta (disqualified?)")),
    "W3": (WARNING, _("Final table: registrant %(id)s finished %(table)s at the table but %(position)s in the "
                      "standings")),
    "E20": (ERROR, _("Final table: registrant %(id)s is not in Classifica Ridotta")),
    "R1": (WARNING, _("Not checked here: the national ids of registrants %(ids)s (who played with a national id "
                      "and no date of birth) are checked against the national registry, name included, only by "
                      "the federation when the file is uploaded: this app has no registry")),
    "WB-FILE": (ERROR, _("%(what)s")),
    "WB-LIMIT": (ERROR, _("%(what)s")),
    "WB-LEGACY": (ERROR, _("This is an older workbook (no TORNEO sheet): the ranking no longer accepts it")),
    "WB-FORMULA": (ERROR, _("%(cell)s holds a formula where a plain value is required: type the value itself")),
    "WB-GAP": (ERROR, _("Round sheets must run 1, 2, 3… without gaps: %(round)s is missing")),
    "WB-TWICE": (ERROR, _("Registrant %(id)s sits twice in round %(round)s (tables drawn twice?)")),
    "WB-TEXTDATE": (WARNING, _("%(cell)s holds text, not a date: the ranking skips it and moves every later "
                               "round date up")),
    "WB-RESULT": (ERROR, _("Round %(round)s, table %(table)s has no confirmed result")),
    "WB-SEATS": (ERROR, _("Table %(table)s has more than %(max)s seats: the workbook holds at most %(max)s")),
    "WB-ROUNDS": (ERROR, _("This app runs at most %(max)s rounds per event; the workbook has %(rounds)s")),
})
