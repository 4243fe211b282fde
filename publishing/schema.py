"""What a published tournament may carry: ONE allow-list of every key, its type, its size and its
range (docs/security.md, "Publishing and clubs: threat model"; docs/publishing.md).

The instance checks every publish against :data:`DOCUMENT` before storing anything
(``publishing.validate``): a key not listed here, a value of the wrong type, a text too long, a
number or a date out of range, a list too long or two games (tables, seats, players) with the same
number is refused with HTTP 400, rule ``PUBLISH`` and the field's path
(``content.standings.rows[3].email``). What is stored is therefore only what is listed, and
``GET /api/publish/tournaments/<slug>/`` shows a copy filtered by the same list (:meth:`Spec.public`),
so a copy stored before this list existed shows nothing else either.

**Adding a field the laptop sends** (``publishing.content_of``) is one line in the record it
belongs to, e.g. in :data:`TOURNAMENT`::

    "scoring_system": Text(20),

A field is optional unless wrapped in :class:`Required`; an older laptop that does not send it is
still heard. Everything listed here is shown to anyone by the public GET: never list personal data.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from common.errors import DomainError
from engine import ENTERED, ClubFormat, RuleSet
from tournaments.formats.choice import MAX_GAMES
from tournaments.models import Club, Player, Tournament

FORMAT = "risiko-publish/1"

# Bounds of what a real event holds (a generous margin, never a limit an event reaches).
MAX_PLAYERS = 10_000  # as the knock-out plan's entrants (K-KO)
MAX_GAME_NUMBER = 100  # games of an event, rehearsals included
MAX_TABLES = 2_500  # tables of one game (10,000 players at 4)
MAX_SEATS = 10  # seats of a table (T-SIZE: 3 to 6)
MAX_POINTS = 10**6  # any score, total or count of armies, in absolute value
MAX_DECIMALS = 10  # exact scores have few decimals (engine.exact)
KEY_MAX = 2**63 - 1  # the laptop's player ids
FIRST_DAY, LAST_DAY = dt.date(1970, 1, 1), dt.date(2100, 12, 31)

# Values of the apps above tournaments, which it may not import (tests/publishing keep them equal
# to tables.models and scoring.models).
GAME_STATUSES = ("planned", "running", "finished")
TABLE_STATUSES = ("waiting", "running", "time_expired", "finished")
RESULT_KINDS = ("board", "short", "record")


def refused(path: str, message: str) -> DomainError:
    return DomainError(message, field=path or "body", rule="PUBLISH")


class Spec:
    """One value of the document: :meth:`check` refuses it naming ``path``; :meth:`public` is
    the value as the public GET shows it (only what is listed, within its bounds)."""

    def check(self, value: Any, path: str) -> None:
        raise NotImplementedError

    def public(self, value: Any) -> Any:
        try:
            self.check(value, "")
        except DomainError:
            return None
        return value

    def json_schema(self) -> dict[str, Any]:
        """The same rule for the OpenAPI schema (the publish endpoint's request body)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Text(Spec):
    max_length: int
    min_length: int = 0

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str):
            raise refused(path, _("Expected a text."))
        if len(value.strip()) < self.min_length:
            raise refused(path, _("This field may not be empty."))
        if len(value) > self.max_length:
            raise refused(path, _("At most %(n)d characters.") % {"n": self.max_length})

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "minLength": self.min_length, "maxLength": self.max_length}

    def public(self, value: Any) -> Any:
        return value[:self.max_length] if isinstance(value, str) else None


@dataclass(frozen=True)
class Choice(Spec):
    values: tuple[str, ...]

    def check(self, value: Any, path: str) -> None:
        if value not in self.values or not isinstance(value, str):
            raise refused(path, _("Expected one of: %(values)s.") % {
                "values": ", ".join(repr(v) for v in self.values)})

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}


@dataclass(frozen=True)
class Whole(Spec):
    low: int
    high: int

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise refused(path, _("Expected a whole number."))
        if not self.low <= value <= self.high:
            raise refused(path, _("Expected a whole number from %(low)s to %(high)s.")
                          % {"low": self.low, "high": self.high})

    def json_schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Number(Spec):
    """A score: whole or exact decimal (never NaN or infinite), within ±:data:`MAX_POINTS`."""

    bound: int = MAX_POINTS

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise refused(path, _("Expected a number."))
        exponent = value.as_tuple().exponent if isinstance(value, Decimal) else 0
        if (not isinstance(exponent, int) or exponent < -MAX_DECIMALS
                or not -self.bound <= value <= self.bound):
            raise refused(path, _("Expected a number from %(low)s to %(high)s.")
                          % {"low": -self.bound, "high": self.bound})

    def json_schema(self) -> dict[str, Any]:
        return {"type": "number", "minimum": -self.bound, "maximum": self.bound}


@dataclass(frozen=True)
class Flag(Spec):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise refused(path, _("Expected true or false."))

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Day(Spec):
    """A date written YYYY-MM-DD (``with_time``: a date and time in ISO 8601, a game's start or
    end), between :data:`FIRST_DAY` and :data:`LAST_DAY`."""

    with_time: bool = False

    def check(self, value: Any, path: str) -> None:
        read = dt.datetime.fromisoformat if self.with_time else dt.date.fromisoformat
        size_ok = isinstance(value, str) and (len(value) <= 40 if self.with_time else len(value) == 10)
        try:
            moment = read(value) if size_ok else None
        except ValueError:
            moment = None
        day = moment.date() if isinstance(moment, dt.datetime) else moment
        if day is None or not FIRST_DAY <= day <= LAST_DAY:
            message = (_("Expected a date and time (ISO 8601) from %(first)s to %(last)s.") if self.with_time
                       else _("Expected a date (YYYY-MM-DD) from %(first)s to %(last)s."))
            raise refused(path, message % {"first": FIRST_DAY.isoformat(), "last": LAST_DAY.isoformat()})

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date-time" if self.with_time else "date"}


@dataclass(frozen=True)
class Settings(Spec):
    """Settings the engine checks itself when they are used (a rule set's overrides, a club
    format's changed numbers): only the setting names the engine has (``names``), each a plain
    value of bounded size: a number, a short text, true/false, null, or a short list or object
    of those (two levels at most)."""

    names: frozenset[str]

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise refused(path, _("Expected an object."))
        if len(value) > len(self.names):
            raise refused(path, _("At most %(n)d items.") % {"n": len(self.names)})
        for key, item in value.items():
            if key not in self.names:
                raise refused(f"{path}.{key}", _("Unknown field: a published tournament carries no such field."))
            _plain(item, f"{path}.{key}", depth=2)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "properties": {n: {} for n in sorted(self.names)}}


def _plain(value: Any, path: str, depth: int) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int | Decimal):
        Number().check(value, path)
    elif isinstance(value, str):
        Text(40).check(value, path)
    elif isinstance(value, list | dict) and depth > 0:
        if len(value) > 20:
            raise refused(path, _("At most %(n)d items.") % {"n": 20})
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            Text(20).check(str(key), path)
            _plain(item, f"{path}.{key}" if isinstance(value, dict) else f"{path}[{key}]", depth - 1)
    else:
        raise refused(path, _("Expected a number, a short text, true or false."))


@dataclass(frozen=True)
class Uuid(Spec):
    def check(self, value: Any, path: str) -> None:
        try:
            uuid.UUID(value if isinstance(value, str) else "")
        except ValueError:
            raise refused(path, _("A stable tournament id (UUID) is required.")) from None

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "uuid"}


@dataclass(frozen=True)
class Maybe(Spec):
    """``inner`` or null."""

    inner: Spec

    def check(self, value: Any, path: str) -> None:
        if value is not None:
            self.inner.check(value, path)

    def public(self, value: Any) -> Any:
        return None if value is None else self.inner.public(value)

    def json_schema(self) -> dict[str, Any]:
        return {**self.inner.json_schema(), "nullable": True}


@dataclass(frozen=True)
class AnyOf(Spec):
    """The first of ``specs`` that takes the value (a tie-break written as a word or as 0)."""

    specs: tuple[Spec, ...]

    def check(self, value: Any, path: str) -> None:
        first: DomainError | None = None
        for spec in self.specs:
            try:
                spec.check(value, path)
                return
            except DomainError as exc:
                first = first or exc
        assert first is not None
        raise first

    def json_schema(self) -> dict[str, Any]:
        return {"anyOf": [spec.json_schema() for spec in self.specs]}


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``item``, at most ``max_items``; ``unique``: the key two items may not share."""

    item: Spec
    max_items: int
    unique: str | None = None

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise refused(path, _("Expected a list."))
        if len(value) > self.max_items:
            raise refused(path, _("At most %(n)d items.") % {"n": self.max_items})
        seen: set[Any] = set()
        for i, item in enumerate(value):
            self.item.check(item, f"{path}[{i}]")
            if self.unique is not None and item.get(self.unique) is not None:
                if item[self.unique] in seen:
                    raise refused(f"{path}[{i}].{self.unique}",
                                  _("%(value)s appears twice.") % {"value": item[self.unique]})
                seen.add(item[self.unique])

    def public(self, value: Any) -> Any:
        return [self.item.public(v) for v in value[:self.max_items]] if isinstance(value, list) else []

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.json_schema(), "maxItems": self.max_items}


@dataclass(frozen=True)
class Required(Spec):
    """A field of a :class:`Record` that must be there."""

    inner: Spec

    def check(self, value: Any, path: str) -> None:
        self.inner.check(value, path)

    def public(self, value: Any) -> Any:
        return self.inner.public(value)

    def json_schema(self) -> dict[str, Any]:
        return self.inner.json_schema()


@dataclass(frozen=True)
class Record(Spec):
    """An object with only these keys."""

    fields: Mapping[str, Spec]

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise refused(path, _("Expected an object."))
        for key, spec in self.fields.items():
            where = f"{path}.{key}" if path else key
            if key in value:
                spec.check(value[key], where)
            elif isinstance(spec, Required):
                raise refused(where, _("This field is required."))
        for key in value:
            if key not in self.fields:
                where = f"{path}.{key}" if path else str(key)
                raise refused(where, _("Unknown field: a published tournament carries no such field."))

    def public(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return None
        return {key: spec.public(value[key]) for key, spec in self.fields.items() if key in value}

    def json_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": False,
                               "properties": {key: spec.json_schema() for key, spec in self.fields.items()}}
        required = [key for key, spec in self.fields.items() if isinstance(spec, Required)]
        return {**out, "required": required} if required else out


def _length(model: Any, field: str) -> int:
    return int(model._meta.get_field(field).max_length)


def _names(settings: Any) -> frozenset[str]:
    """The setting names of an engine dataclass (its id and description are not settings)."""
    return frozenset(f.name for f in dataclasses.fields(settings)) - {"id", "description"}


# --- the document -------------------------------------------------------------------------------

KEY = Whole(0, KEY_MAX)  # a player as the laptop numbers them: only inside the payload
GAME_NUMBER = Whole(1, MAX_GAME_NUMBER)
NAME = Text(3 * _length(Player, "first_name") + 4, min_length=1)  # "First Last (nickname)"
CLUB = Text(_length(Club, "name"))
GAME_NUMBERS = ListOf(GAME_NUMBER, MAX_GAME_NUMBER)

TOURNAMENT = Record({
    "name": Required(Text(_length(Tournament, "name"), min_length=1)),
    "format": Choice(tuple(Tournament.Format.values)),
    "status": Choice(tuple(Tournament.Status.values)),
    "date": Required(Day()),
    "venue": Text(_length(Tournament, "venue")),
    "games_count": Whole(1, MAX_GAMES),
    "event_type": Choice(("", *Tournament.EventType.values)),
    "scoring_system": Text(_length(Tournament, "scoring_system")),  # the engine's: checked when used
    "ruleset": Choice(tuple(Tournament.RuleSet.values)),
    "ruleset_overrides": Settings(_names(RuleSet)),
    "start_times": ListOf(Text(8), MAX_GAMES),
    "capacity": Maybe(Whole(0, MAX_PLAYERS)),
})

PLAYER = Record({  # a public name and a club: never an e-mail, a date of birth or a national id
    "key": Required(KEY),
    "name": Required(NAME),
    "club": CLUB,
})

SCORE = Record({  # the engine's score of one seat (scoring.models.ResultSubmission.scores)
    "seat": Required(Whole(1, MAX_SEATS)),
    "player": Maybe(KEY),
    "game_score": Required(Number()),  # the five numbers every standings reads
    "extra_objective": Required(Number()),
    "armies": Required(Number()),
    "place": Required(Number()),
    "tournament_points": Required(Number()),
    "tiebreak": Maybe(AnyOf((Text(40), Whole(0, 0)))),  # a workbook's import writes 0
    "eliminated": Maybe(Whole(0, MAX_SEATS)),
})

RESULT = Record({
    "version": Whole(1, 10**6),
    "kind": Choice(RESULT_KINDS),
    "ended_by": Choice(tuple(e.value for e in ENTERED)),
    "scores": ListOf(SCORE, MAX_SEATS, unique="seat"),
})

SEAT = Record({
    "number": Required(Whole(1, MAX_SEATS)),
    "player": Maybe(KEY),
    "colour": Text(10),
})

TABLE = Record({
    "number": Required(Whole(1, MAX_TABLES)),
    "status": Choice(TABLE_STATUSES),
    "seats": ListOf(SEAT, MAX_SEATS, unique="number"),
    "result": Maybe(RESULT),
})

GAME = Record({
    "number": Required(GAME_NUMBER),
    "status": Choice(GAME_STATUSES),
    "rehearsal": Flag(),
    "started_at": Maybe(Day(with_time=True)),
    "finished_at": Maybe(Day(with_time=True)),
    "tables": Required(ListOf(TABLE, MAX_TABLES, unique="number")),
})

CELL = Record({  # one game of a standings row (a cell without its game says nothing)
    "game": Required(GAME_NUMBER),
    "points": Number(),
    "counted": Flag(),
    "place": Number(),
    "table": Whole(0, MAX_TABLES),
    "extra": Number(),
    "armies": Number(),
    "game_score": Number(),
})

ROW = Record({  # a standings row: what the public standings page shows
    "player": Required(KEY),
    "rank": Required(Whole(0, MAX_PLAYERS)),
    "shared": Flag(),
    "total": Required(Number()),
    "extra": Number(),
    "armies": Number(),
    "played": Whole(0, MAX_GAME_NUMBER),
    "reached": Whole(0, MAX_GAME_NUMBER),
    "advanced": Flag(),
    "wins": Whole(0, MAX_GAME_NUMBER),
    "finalist": Flag(),
    "tiebreak": Maybe(Text(40)),
    "games": ListOf(CELL, MAX_GAME_NUMBER),
    "name": NAME,
    "club": CLUB,
    "pending_corrections": GAME_NUMBERS,
})

STANDINGS = Record({
    "method": Text(20),
    "preset": Text(30),
    "chain": ListOf(Text(40), 20),
    "best_n": Maybe(Whole(0, MAX_GAME_NUMBER)),
    "publish_unconfirmed": Flag(),
    "games": GAME_NUMBERS,
    "rehearsal_games": GAME_NUMBERS,
    "pending_correction_games": GAME_NUMBERS,
    "rows": Required(ListOf(ROW, MAX_PLAYERS, unique="player")),
})

SCORING = Record({  # the format chosen on the laptop (tournament.event_format())
    "preset": Text(30),
    "method": Text(20),
    "tiebreaks": ListOf(Text(40), 20),
    "best_n": Maybe(Whole(0, MAX_GAME_NUMBER)),
    "publish_unconfirmed": Flag(),
    "club_changes": Settings(_names(ClubFormat)),
})

RANKING = Record({  # the event's id in the national ranking
    "organizer": Text(150),
    "first_day": Day(),
})

CONTENT = Record({
    "tournament": Required(TOURNAMENT),
    "players": Required(ListOf(PLAYER, MAX_PLAYERS, unique="key")),
    "games": Required(ListOf(GAME, MAX_GAME_NUMBER, unique="number")),
    "standings": Required(STANDINGS),
    "scoring": SCORING,
    "ranking": RANKING,
})

DOCUMENT = Record({
    "format": Required(Choice((FORMAT,))),
    "source_id": Required(Uuid()),
    "slug": Required(Text(_length(Tournament, "slug"), min_length=1)),
    "club": Required(Text(_length(Club, "name"), min_length=1)),
    "sequence": Required(Whole(1, 2**31 - 1)),
    "content": Required(CONTENT),
})


def check_references(content: dict[str, Any]) -> None:
    """Every seat, score and standings row names a player of ``content["players"]`` (or nobody)."""
    keys = {p["key"] for p in content["players"]}

    def known(key: Any, path: str) -> None:
        if key is not None and key not in keys:
            raise refused(path, _("No player with this key is in the tournament's players."))

    for g, game in enumerate(content["games"]):
        for t, table in enumerate(game["tables"]):
            where = f"content.games[{g}].tables[{t}]"
            for s, seat in enumerate(table.get("seats", [])):
                known(seat.get("player"), f"{where}.seats[{s}].player")
            for s, score in enumerate((table.get("result") or {}).get("scores", [])):
                known(score.get("player"), f"{where}.result.scores[{s}].player")
    for r, row in enumerate(content["standings"]["rows"]):
        known(row["player"], f"content.standings.rows[{r}].player")
