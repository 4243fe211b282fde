"""Table composition (K-TABLES, T-SIZE, T-ORDER): who sits at which table, in which seat.

Pure Python (no Django): the tables app's services call :func:`compose` and store the result.

How it works, and why it beats the clubs' desktop tool (an unseeded shuffle repaired by greedy
swaps one priority at a time):

* **One global objective.** A composition's cost is a vector with one entry per priority, in the
  organizer's order (K-TABLES): repeat seats at 5- (or 3-) player tables, previous winners
  together, same-club pairs, same-region pairs, repeated opponents (each pair weighted by how
  often it met before). Vectors compare lexicographically, so no amount of gain on a lower
  priority can buy a loss on a higher one.
* **A real search, not a repair.** Late-acceptance hill climbing over swaps of two players at
  different tables, from several seeded random starts. It accepts sideways and temporarily worse
  moves (compared with the cost it had a while ago), so it walks across the plateaus where a
  greedy "strictly better or stop" repair gets stuck. Only comparisons are used (no ``exp``), so
  the walk is bit-for-bit the same on every machine.
* **Knows when to stop.** A lower bound is computed for every priority (e.g. a club with 8
  players over 3 tables forces at least 7 same-club pairs); the search stops as soon as the cost
  reaches the bounds, and the report explains each priority left above zero.
* **Reproducible.** All randomness comes from :class:`engine.rng.SeededRng` with the given seed,
  players are handled in id order, and the iteration budget depends only on the input (never on
  the wall clock): same input + same seed → same tables and seats on any machine.

Seeding (``Options.seeding``):

* ``random``: seeded random start, full search.
* ``swiss`` (K-SWISS): players sorted by standing (1 = leader; unknown standings last, then by
  id) make the blocks — the tables straight fill would give them, the leaders at table 1 (tables
  of 4 come first, so any tables of 5 or 3, or a bye, hold the lowest standings). The tables are
  then the best there are with everyone at most one table from their own block: an exact plan
  table by table (:mod:`tables.swiss`), not a repair; the report lists who moved
  (``swiss_moves``).
* ``greca`` ("alla greca"): from each table of the last game (``History.previous_tables``, in
  finishing order) the winner stays at that table number, the 2nd moves one table on, the 3rd
  two… wrapping round; a full table passes the player on to the next one. Players who were not
  in the last game fill the free seats at random. Strictly improving swaps then repair any
  priority the pattern breaks.

Seat order inside each table is random (T-ORDER), from a seed derived per table.

Each priority is one small class (``PRIORITY_CLASSES``: key, label, unit, lower bound, reasons):
the search, the bounds and the quality report read them, so adding a priority is one class and
its tests. Reports explain unmet priorities with reason codes and parameters, plus the English
text; the pages translate them (tables/seating_text.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from engine import SeededRng, derive_seed
from tables.swiss import swiss_tables

SEEDINGS = ("random", "swiss", "greca")
ODD_COUNTS = (None, "ghost", "six")
PREFERENCES = ("fives", "fours")
# K-TABLES: the shape of a round's tables. "fours": 4 and 5 (T-SIZE); "threes": 4, with the
# tables of 3 a count needs placed last (the clubs' BGL); "pairs": one-versus-one, an odd count
# gives one table of 3; "pairs_bye": one-versus-one, an odd count gives one player a bye against
# a ghost seat (K-SWISS).
SHAPES = ("fours", "threes", "pairs", "pairs_bye")


def odd_sized(sizes: Sequence[int]) -> list[bool]:
    """Which tables are the odd ones whose seats rotate fairly (5-, 3-seats among tables of 4; a
    bye or a table of 3 among pairs): none when every table has the same size."""
    mixed = len(set(sizes)) > 1
    base = 4 if any(s >= 4 for s in sizes) else 2
    return [mixed and s != base for s in sizes]


@dataclass(frozen=True)
class SeatingPlayer:
    id: int
    club: str | None = None
    region: str | None = None
    standing: int | None = None  # 1 = leader; used by "swiss" seeding
    team: str | None = None  # team events: the player's team ("team_apart", "teams_meet_evenly")


@dataclass(frozen=True)
class History:
    """What the previous games of the tournament did."""

    tables: tuple[tuple[int, ...], ...] = ()  # every previous table (all games), player ids
    winners: frozenset[int] = frozenset()  # players who won a table earlier
    five_seaters: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    previous_tables: tuple[tuple[int, ...], ...] = ()  # last game, each in finishing order
    # team events: the team of every player of the earlier tables, substitutes sitting out this
    # game included (their team's earlier meetings still count for "teams_meet_evenly")
    teams: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))

    def after_game(self, finishing: Sequence[Sequence[int]]) -> History:
        """The history once a game is over: ``finishing`` is each table of that game (in table
        order) with its players in finishing order, the winner first."""
        fives = dict(self.five_seaters)
        odd = odd_sized([len(t) for t in finishing])
        for table, is_odd in zip(finishing, odd, strict=True):
            if is_odd:
                for pid in table:
                    fives[pid] = fives.get(pid, 0) + 1
        done = tuple(tuple(t) for t in finishing)
        return History(
            tables=self.tables + done,
            winners=self.winners | {t[0] for t in done if t},
            five_seaters=MappingProxyType(fives),
            previous_tables=done,
            teams=self.teams,
        )


@dataclass(frozen=True)
class Options:
    prefer: str = "fives"  # "fives" | "fours": which mix when several cover the count
    priorities: tuple[str, ...] = (
        "repeat_five",
        "winners_apart",
        "club_apart",
        "repeat_opponents",
    )
    seeding: str = "random"  # "random" | "swiss" | "greca"
    odd_count: str | None = None  # 6, 7, 11 players: None → refuse; "ghost"; "six"
    shape: str = "fours"  # SHAPES: tables of 4/5, 4/3, pairs, pairs with a bye
    # Scales the search budget (quick previews, tests); the same effort gives the same tables.
    effort: float = 1.0


@dataclass(frozen=True)
class Composition:
    tables: tuple[tuple[int, ...], ...]  # player ids in seat order (seat 1 first)
    seed: str
    report: Mapping[str, Any]


class SeatingError(Exception):
    """A composition the rules do not allow without an organizer's decision.

    ``message`` and ``options`` are English; when the refusal was made from reasons (``reason``,
    ``option_reasons``: codes of ``TEXTS`` and their parameters) a page says it in its own
    language from those (tables/seating_text.py)."""

    def __init__(self, rule: str, message: str, options: list[str] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.options = options or []
        self.reason: Reason | None = None
        self.option_reasons: list[Reason] = []

    @classmethod
    def coded(cls, rule: str, reason: Reason, options: Sequence[Reason] = ()) -> SeatingError:
        err = cls(rule, render_reason(reason), [render_reason(o) for o in options])
        err.reason, err.option_reasons = reason, list(options)
        return err

    def __str__(self) -> str:
        text = f"{self.rule}: {self.message}"
        if self.options:
            text += " Options: " + "; ".join(self.options)
        return text


# --------------------------------------------------------------------------------------------
# Priorities (K-TABLES): one small class each, in the registry below.


def gettext_noop(text: str) -> str:
    """Marks English text for the translation catalogue. This module returns codes and English;
    the pages translate both in one place (tables/seating_text.py)."""
    return text


class Priority:
    """One thing a composition keeps low, in the organizer's order of priorities (K-TABLES).

    A priority has a key (its id in options, the API and stored reports), a label, what its
    cost counts (``unit``), the report list of the seats or pairs that cost (``detail``), a
    lower bound, and the reason the bound is above zero. Its cost has one of three shapes the
    search knows: a cost per player seated at an odd-sized table (:class:`SeatPriority`), a pair
    of players of one group at one table (:class:`GroupPriority`), or a weight per pair of
    players (:class:`PairPriority`). Adding a priority is one subclass, listed in
    ``PRIORITY_CLASSES``, and its tests.
    """

    key: ClassVar[str]
    label: ClassVar[str]  # English; pages show its translation
    unit: ClassVar[str]  # "7 same-club pairs here"
    detail: ClassVar[str]  # key of the report's "details"
    texts: ClassVar[Mapping[str, str]] = MappingProxyType({})  # reason code → English template

    def cost(self, p: _Problem, tables: Sequence[Sequence[int]]) -> int:
        raise NotImplementedError

    def bound(self, p: _Problem) -> int:
        """The least cost possible for this priority alone."""
        raise NotImplementedError

    def rows(self, p: _Problem, t: int, members: Sequence[int],
             by_id: Mapping[int, SeatingPlayer]) -> list[list[Any]]:
        """The report's rows for table ``t`` (player ids, the table numbered from 1)."""
        raise NotImplementedError

    def summary(self, cost: int, rows: Sequence[Sequence[Any]]) -> dict[str, int]:
        """The report's counters for this priority."""
        raise NotImplementedError

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        """Why no composition gets below ``bound`` (None when the bound is 0)."""
        raise NotImplementedError


Reason = dict[str, Any]  # one sentence of an explanation: {"code": …, "params": {…}}


class SeatPriority(Priority):
    """Costs ``values(p)[x]`` for each player x at an odd-sized table."""

    def values(self, p: _Problem) -> list[int]:
        raise NotImplementedError

    def cost(self, p: _Problem, tables: Sequence[Sequence[int]]) -> int:
        values = self.values(p)
        return sum(values[x] for t, members in enumerate(tables) if p.odd_table[t] for x in members)

    def bound(self, p: _Problem) -> int:
        return sum(sorted(self.values(p))[:p.odd_seats()])

    def rows(self, p: _Problem, t: int, members: Sequence[int],
             by_id: Mapping[int, SeatingPlayer]) -> list[list[Any]]:
        if not p.odd_table[t]:
            return []
        values = self.values(p)
        return [[t + 1, x, values[p.index[x]]] for x in members if values[p.index[x]]]


class GroupPriority(Priority):
    """Costs one for each pair at one table whose ``groups(p)`` code is the same (−1: no group)."""

    def groups(self, p: _Problem) -> list[int]:
        raise NotImplementedError

    def extra(self, player: SeatingPlayer) -> list[Any]:
        """What a report row names besides the table and the pair (the club…)."""
        return []

    def cost(self, p: _Problem, tables: Sequence[Sequence[int]]) -> int:
        g = self.groups(p)
        return sum(g[x] >= 0 and g[x] == g[y]
                   for members in tables for pos, x in enumerate(members) for y in members[pos + 1:])

    def bound(self, p: _Problem) -> int:
        return sum(_spread_pairs(n, len(p.sizes)) for n in _group_sizes(self.groups(p)))

    def rows(self, p: _Problem, t: int, members: Sequence[int],
             by_id: Mapping[int, SeatingPlayer]) -> list[list[Any]]:
        g, out = self.groups(p), []
        for pos, x in enumerate(members):
            for y in members[pos + 1:]:
                gx = g[p.index[x]]
                if gx >= 0 and gx == g[p.index[y]]:
                    out.append([t + 1, *sorted((x, y)), *self.extra(by_id[x])])
        return out

    def summary(self, cost: int, rows: Sequence[Sequence[Any]]) -> dict[str, int]:
        return {self.detail: cost}


class PairPriority(Priority):
    """Costs ``weights(p)[x][y]`` for each pair x, y at one table."""

    def weights(self, p: _Problem) -> list[dict[int, int]]:
        raise NotImplementedError

    def cost(self, p: _Problem, tables: Sequence[Sequence[int]]) -> int:
        w = self.weights(p)
        return sum(w[x].get(y, 0)
                   for members in tables for pos, x in enumerate(members) for y in members[pos + 1:])

    def rows(self, p: _Problem, t: int, members: Sequence[int],
             by_id: Mapping[int, SeatingPlayer]) -> list[list[Any]]:
        w, out = self.weights(p), []
        for pos, x in enumerate(members):
            for y in members[pos + 1:]:
                weight = w[p.index[x]].get(p.index[y], 0)
                if weight:
                    out.append([t + 1, *sorted((x, y)), weight])
        return out


class RepeatFive(SeatPriority):
    key = "repeat_five"
    label = gettext_noop("fewest repeat seats at 5- (or 3-) player tables")
    unit = gettext_noop("earlier 5-seats of players at a 5-table")
    detail = "repeat_five_seats"
    texts = MappingProxyType({
        "repeat_five_unavoidable": gettext_noop(
            "%(odd_seats)s seats are at tables of 5 (or 3) but only %(fresh)s players have not "
            "sat at one yet, so some sit at one again (the fewest possible)."),
    })

    def values(self, p: _Problem) -> list[int]:
        return p.five

    def summary(self, cost: int, rows: Sequence[Sequence[Any]]) -> dict[str, int]:
        return {"repeat_five_seats": len(rows)}

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        if bound == 0:
            return None
        fresh = sum(1 for f in p.five if f == 0)
        return _reason("repeat_five_unavoidable", odd_seats=p.odd_seats(), fresh=fresh)


class WinnersApart(GroupPriority):
    key = "winners_apart"
    label = gettext_noop("previous winners apart")
    unit = gettext_noop("pairs of winners")
    detail = "winners_together"
    texts = MappingProxyType({
        "winners_unavoidable": gettext_noop(
            "%(winners)s previous winners for %(tables)s tables: at least %(bound)s pairs of "
            "winners must share a table."),
    })

    def groups(self, p: _Problem) -> list[int]:
        return p.winner_group

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        if bound == 0:
            return None
        return _reason("winners_unavoidable", winners=sum(p.winner), tables=tables, bound=bound)


class _SameGroupApart(GroupPriority):
    """Club or region: players of one are kept at different tables."""

    crowded: ClassVar[str]  # reason code of one group with more players than tables
    least: ClassVar[str]  # reason code of the bound

    def names(self, p: _Problem) -> list[str | None]:
        raise NotImplementedError

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        if bound == 0:
            return None
        codes = self.groups(p)
        names: dict[int, str] = {}
        for code, value in zip(codes, self.names(p), strict=True):
            if code >= 0:
                names.setdefault(code, value or "")
        crowded = [
            _reason(self.crowded, name=names[c], n=n, tables=tables)
            for c, n in sorted(Counter(x for x in codes if x >= 0).items()) if n > tables
        ]
        return _reason(self.least, items=crowded, bound=bound)


class ClubApart(_SameGroupApart):
    key = "club_apart"
    label = gettext_noop("same club apart")
    unit = gettext_noop("same-club pairs")
    detail = "same_club_pairs"
    crowded, least = "club_crowded", "club_unavoidable"
    texts = MappingProxyType({
        "club_crowded": gettext_noop("club %(name)s has %(n)s players for %(tables)s tables"),
        "club_unavoidable": gettext_noop("%(items)s: at least %(bound)s same-club pairs are unavoidable."),
    })

    def groups(self, p: _Problem) -> list[int]:
        return p.club

    def names(self, p: _Problem) -> list[str | None]:
        return [x.club for x in p.players]

    def extra(self, player: SeatingPlayer) -> list[Any]:
        return [player.club]


class RegionApart(_SameGroupApart):
    key = "region_apart"
    label = gettext_noop("same region apart")
    unit = gettext_noop("same-region pairs")
    detail = "same_region_pairs"
    crowded, least = "region_crowded", "region_unavoidable"
    texts = MappingProxyType({
        "region_crowded": gettext_noop("region %(name)s has %(n)s players for %(tables)s tables"),
        "region_unavoidable": gettext_noop(
            "%(items)s: at least %(bound)s same-region pairs are unavoidable."),
    })

    def groups(self, p: _Problem) -> list[int]:
        return p.region

    def names(self, p: _Problem) -> list[str | None]:
        return [x.region for x in p.players]

    def extra(self, player: SeatingPlayer) -> list[Any]:
        return [player.region]


class RepeatOpponents(PairPriority):
    key = "repeat_opponents"
    label = gettext_noop("fewest repeat opponents")
    unit = gettext_noop("repeated encounters")
    detail = "repeated_pairs"
    texts = MappingProxyType({
        "repeat_opponents_unavoidable": gettext_noop(
            "earlier tables of up to %(most)s players still playing, for %(tables)s tables: at "
            "least %(bound)s repeated encounters are unavoidable."),
    })

    def weights(self, p: _Problem) -> list[dict[int, int]]:
        return p.meet

    def bound(self, p: _Problem) -> int:
        # Repeated encounters add up over earlier tables, and the players of one earlier table
        # meet again at least as often as when they are spread evenly over the tables.
        return sum(_spread_pairs(n, len(p.sizes)) for n in p.earlier_present)

    def summary(self, cost: int, rows: Sequence[Sequence[Any]]) -> dict[str, int]:
        return {"repeated_pairs": len(rows), "repeated_encounters": cost}

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        if bound == 0:
            return None
        most = max(p.earlier_present, default=0)
        return _reason("repeat_opponents_unavoidable", most=most, tables=tables, bound=bound)


class TeamApart(GroupPriority):
    """Team events: players of one team never share a table (their results add up for the team,
    so a table of team-mates could decide its own order)."""

    key = "team_apart"
    label = gettext_noop("team-mates apart")
    unit = gettext_noop("pairs of team-mates")
    detail = "same_team_pairs"
    texts = MappingProxyType({
        "team_unavoidable": gettext_noop(
            "a team has %(most)s players in this game for %(tables)s tables: at least %(bound)s "
            "pairs of team-mates must share a table."),
    })

    def groups(self, p: _Problem) -> list[int]:
        return p.team

    def extra(self, player: SeatingPlayer) -> list[Any]:
        return [player.team]

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        if bound == 0:
            return None
        return _reason("team_unavoidable", most=max(_group_sizes(p.team), default=0), tables=tables,
                       bound=bound)


class TeamPairPriority(Priority):
    """Costs how unevenly pairs of teams meet: with ``m`` the meetings of teams A and B (a pair of
    their players at one table) in earlier games and ``k`` in this one, each pair of teams costs
    (m + k)² − m². Squares grow faster than the meetings, so two teams meeting twice in one game,
    or again after meeting often, cost more than meetings spread over other pairs of teams."""

    def cost(self, p: _Problem, tables: Sequence[Sequence[int]]) -> int:
        return _team_pair_cost(p.team_prior, _team_pair_counts(p.team, tables))

    def rows(self, p: _Problem, t: int, members: Sequence[int],
             by_id: Mapping[int, SeatingPlayer]) -> list[list[Any]]:
        return []


class TeamsMeetEvenly(TeamPairPriority):
    """Team events: two teams meet as evenly as possible, over the rounds and within one."""

    key = "teams_meet_evenly"
    label = gettext_noop("teams meet as evenly as possible")
    unit = gettext_noop("uneven meetings of teams (squares of their meetings)")
    detail = "repeated_team_meetings"

    def bound(self, p: _Problem) -> int:
        return 0

    def summary(self, cost: int, rows: Sequence[Sequence[Any]]) -> dict[str, int]:
        return {"uneven_team_meetings": cost}

    def why(self, p: _Problem, bound: int, tables: int) -> Reason | None:
        return None


def _team_pair_counts(teams: Sequence[int], tables: Sequence[Sequence[int]]) -> Counter[tuple[int, int]]:
    """Meetings of two teams (players of both at one table) in ``tables``, by pair of team codes."""
    out: Counter[tuple[int, int]] = Counter()
    for members in tables:
        for pos, x in enumerate(members):
            for y in members[pos + 1:]:
                a, b = teams[x], teams[y]
                if a >= 0 and b >= 0 and a != b:
                    out[(a, b) if a < b else (b, a)] += 1
    return out


def _team_pair_cost(prior: Mapping[tuple[int, int], int], counts: Mapping[tuple[int, int], int]) -> int:
    return sum((prior.get(k, 0) + n) ** 2 - prior.get(k, 0) ** 2 for k, n in counts.items())


PRIORITY_CLASSES: tuple[type[Priority], ...] = (
    RepeatFive, WinnersApart, ClubApart, RegionApart, RepeatOpponents, TeamApart, TeamsMeetEvenly,
)
PRIORITY_BY_KEY: Mapping[str, Priority] = MappingProxyType({c.key: c() for c in PRIORITY_CLASSES})
PRIORITIES = tuple(PRIORITY_BY_KEY)

# The sentences every priority shares; each priority adds its own (``Priority.texts``).
TEXTS: Mapping[str, str] = MappingProxyType({
    "above_bound": gettext_noop(
        "%(cost)s %(unit)s here; %(bound)s is the least possible for this priority alone."),
    "above_bound_higher_first": gettext_noop(
        "%(cost)s %(unit)s here; %(bound)s is the least possible for this priority alone, but "
        "higher priorities come first (%(labels)s)."),
    **{code: text for c in PRIORITY_CLASSES for code, text in c.texts.items()},
})


def _reason(code: str, **params: Any) -> Reason:
    return {"code": code, "params": params}


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render_reason(reason: Reason, translate: Callable[[str], str] = str,
                  ntranslate: Callable[[str, str, int], str] = _english_plural) -> str:
    """One sentence of an explanation in words. ``translate`` is gettext on the pages, and the
    identity for the English of the report (``ntranslate``: ngettext). Parameters: ``unit`` is a
    priority key (its unit is shown), ``labels`` a list of priority keys (their labels), ``items``
    a list of reasons (joined with "; "), ``sizes`` a list of [table size, how many]; any other is
    shown as it is."""
    params = dict(reason["params"])
    if "sizes" in params:
        params["sizes"] = ", ".join(
            ntranslate(TABLE_OF, TABLES_OF, n) % {"n": n, "size": size} for size, n in params["sizes"])
    if "unit" in params:
        params["unit"] = translate(PRIORITY_BY_KEY[params["unit"]].unit)
    if "labels" in params:
        params["labels"] = ", ".join(translate(PRIORITY_BY_KEY[k].label) for k in params["labels"])
    if "items" in params:
        params["items"] = "; ".join(render_reason(r, translate, ntranslate) for r in params["items"])
    code = reason["code"]
    return translate(TEXTS[code] if code in TEXTS else SIZE_TEXTS[code]) % params


def explain(reasons: Sequence[Reason], translate: Callable[[str], str] = str) -> str:
    return " ".join(render_reason(r, translate) for r in reasons)


# --------------------------------------------------------------------------------------------
# Table sizes (T-SIZE, K-TABLES)

UNCOVERABLE = (6, 7, 11)  # the counts ≥ 4 that no mix of tables of 4 and 5 adds up to


def _mixes(count: int) -> list[tuple[int, int]]:
    """All (fours, fives) with 4·fours + 5·fives = count."""
    return [((count - 5 * f) // 4, f) for f in range(count // 5 + 1) if (count - 5 * f) % 4 == 0]


# The refusals of table_sizes and the organizer's options, by code (English; pages translate).
TABLE_OF, TABLES_OF = "%(n)s table of %(size)s", "%(n)s tables of %(size)s"  # a plural: tables/seating_text.py
SIZE_TEXTS: Mapping[str, str] = MappingProxyType({
    "sizes.unknown_preference": gettext_noop("Unknown preference “%(choice)s”."),
    "sizes.unknown_odd_choice": gettext_noop("Unknown choice for odd counts “%(choice)s”."),
    "sizes.too_few": gettext_noop("%(count)s players cannot form a table: a table needs 4 or 5 players."),
    "sizes.no_mix": gettext_noop(
        "No mix of tables of 4 and 5 seats %(count)s players: the organizer must decide."),
    "sizes.no_six": gettext_noop(
        "No mix of tables of 4 and 5 seats %(count)s players, nor one with a table of 6: the organizer must "
        "decide."),
    "sizes.threes_impossible": gettext_noop(
        "%(count)s players cannot sit at tables of 4 and 3: add or leave out a player."),
    "sizes.pairs_too_few": gettext_noop("%(count)s players cannot play one-versus-one: at least 2 are needed."),
    "option.wait_for_more": gettext_noop("wait for more players"),
    "option.ghost": gettext_noop("a table of 3 with a ghost seat"),
    "option.wait_one": gettext_noop("wait for a late player or add a stand-in (%(count)s players: %(sizes)s)"),
    "option.wait_many": gettext_noop(
        "wait for %(more)s late players or add %(more)s stand-ins (%(count)s players: %(sizes)s)"),
    "option.leave_one": gettext_noop("leave one player out of this game (%(count)s players: %(sizes)s)"),
    "option.leave_many": gettext_noop(
        "leave %(fewer)s players out of this game (%(count)s players: %(sizes)s)"),
    "option.ghost_sizes": gettext_noop("a table of 3 with a ghost seat (%(sizes)s)"),
    "option.six_sizes": gettext_noop("a table of 6 (%(sizes)s)"),
    # knock-out plans (tables/knockout.py: K-KO, K-KO-RCU)
    "knockout.final_size": gettext_noop("A final has 4 or 5 players, not %(size)s."),
    "knockout.unknown_choice": gettext_noop("Unknown choice “%(choice)s”: one of %(known)s."),
    "knockout.too_many": gettext_noop("At most %(most)s players can be planned, not %(count)s."),
    "knockout.final_unfilled": gettext_noop("%(count)s players cannot fill a final of %(size)s."),
    "knockout.no_chain": gettext_noop(
        "No knock-out of tables of 4 and 5 leads %(count)s players to a final of %(size)s."),
    "knockout.no_next_round": gettext_noop("Round %(round)s has no next round in this plan."),
    "knockout.winners": gettext_noop(
        "Round %(round)s has %(tables)s tables, so exactly %(tables)s different winners go on; got %(got)s."),
    "knockout.runners_up": gettext_noop(
        "Round %(round)s sends %(due)s best runners-up on; only %(got)s given."),
    "knockout.too_few": gettext_noop("%(count)s players: a knock-out phase needs at least %(least)s."),
    "knockout.top_three": gettext_noop("The top three of the standings are needed."),
    "knockout.semifinal_players": gettext_noop("%(tables)s semifinals need %(need)s players, not %(count)s."),
    "option.final_of": gettext_noop("a final of %(count)s"),
    "option.more_players": gettext_noop("more players"),
    "option.other_final_size": gettext_noop("a different final size"),
    "option.qualifier_first": gettext_noop("a qualifying game first"),
})


def _odd_options(count: int) -> list[Reason]:
    """What the organizer can do when no mix of 4 and 5 seats ``count`` players."""
    more = next(k for k in range(1, 5) if _mixes(count + k))
    wait = "option.wait_one" if more == 1 else "option.wait_many"
    options = [_reason(wait, more=more, count=count + more, sizes=_sizes(_plain_sizes(count + more)))]
    fewer = next((k for k in range(1, 3) if count - k >= 4 and _mixes(count - k)), None)
    if fewer:
        leave = "option.leave_one" if fewer == 1 else "option.leave_many"
        options.append(_reason(leave, fewer=fewer, count=count - fewer, sizes=_sizes(_plain_sizes(count - fewer))))
    options.append(_reason("option.ghost_sizes", sizes=_sizes(_ghost_sizes(count))))
    six = _six_sizes(count)
    if six:
        options.append(_reason("option.six_sizes", sizes=_sizes(six)))
    return options


def _plain_sizes(count: int) -> list[int]:
    fours, fives = max(_mixes(count), key=lambda m: m[1])
    return [4] * fours + [5] * fives


def _sizes(sizes: list[int]) -> list[list[int]]:
    """[table size, how many] in size order: the ``sizes`` parameter of a reason."""
    return [[s, n] for s, n in sorted(Counter(sizes).items())]


def _ghost_sizes(count: int) -> list[int]:
    threes = (4 - count % 4) % 4  # 6 → 3+3, 7 → 4+3, 11 → 4+4+3
    return [4] * ((count - 3 * threes) // 4) + [3] * threes


def _six_sizes(count: int) -> list[int]:
    rest = count - 6  # 6 → 6, 11 → 5+6; 7 has no answer with one table of 6
    if rest == 0:
        return [6]
    if rest >= 4 and _mixes(rest):
        return _plain_sizes(rest) + [6]
    return []


def shaped_sizes(count: int, shape: str) -> list[int]:
    """Table sizes of the shapes other than "fours" (K-TABLES, K-SWISS): "threes" 4s with
    4 − count mod 4 tables of 3 last (5 players cannot be seated: 4 + 1, 3 + 2); "pairs" 2s and,
    with an odd count, a last table of 3; "pairs_bye" 2s and, with an odd count, a last table of
    1 (its player meets a ghost seat)."""
    if shape == "threes":
        if count < 3 or count == 5:
            raise SeatingError.coded("T-SIZE", _reason("sizes.threes_impossible", count=count))
        threes = (4 - count % 4) % 4
        return [4] * ((count - 3 * threes) // 4) + [3] * threes
    if count < 2:
        raise SeatingError.coded("T-SIZE", _reason("sizes.pairs_too_few", count=count))
    if shape == "pairs":
        return [2] * (count // 2 - count % 2) + ([3] if count % 2 else [])
    return [2] * (count // 2) + ([1] if count % 2 else [])


def table_sizes(count: int, prefer: str = "fives", odd_count: str | None = None, shape: str = "fours") -> list[int]:
    """Table sizes for ``count`` players: tables of 4 and 5 (T-SIZE), as equal as the count
    allows; when several mixes exist ``prefer`` picks the most fives (fewest tables) or the most
    fours. Tables of 4 come first, then 5, then any table of 3 or 6.

    6, 7 and 11 players (and 3) need an explicit organizer decision (K-TABLES): ``odd_count=
    "ghost"`` (tables of 3 with a ghost seat) or ``"six"`` (one table of 6); otherwise
    :class:`SeatingError` lists the options.
    """
    if shape != "fours":
        return shaped_sizes(count, shape)
    if prefer not in PREFERENCES:
        raise SeatingError.coded("K-TABLES", _reason("sizes.unknown_preference", choice=prefer))
    if odd_count not in ODD_COUNTS:
        raise SeatingError.coded("K-TABLES", _reason("sizes.unknown_odd_choice", choice=odd_count))
    if count < 3 or (count == 3 and odd_count != "ghost"):
        raise SeatingError.coded(
            "T-SIZE", _reason("sizes.too_few", count=count),
            [_reason("option.wait_for_more")] + ([_reason("option.ghost")] if count == 3 else []),
        )
    mixes = _mixes(count)
    if not mixes:
        if odd_count == "ghost":
            return _ghost_sizes(count)
        if odd_count == "six" and _six_sizes(count):
            return _six_sizes(count)
        code = "sizes.no_six" if odd_count == "six" else "sizes.no_mix"
        raise SeatingError.coded("K-TABLES", _reason(code, count=count), _odd_options(count))
    if prefer == "fives":
        return _plain_sizes(count)
    fours, fives = min(mixes, key=lambda m: m[1])
    return [4] * fours + [5] * fives


# --------------------------------------------------------------------------------------------
# The problem in index form: players 0..n-1 with integer attributes, for a fast search.


class _Problem:
    def __init__(
        self, players: Sequence[SeatingPlayer], history: History, sizes: Sequence[int]
    ) -> None:
        self.players = sorted(players, key=lambda p: p.id)
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            dup = sorted(i for i, c in Counter(ids).items() if c > 1)
            raise SeatingError("K-TABLES", f"Players listed twice: {dup}.")
        self.ids = ids
        self.index = {pid: i for i, pid in enumerate(ids)}
        self.n = len(ids)
        self.sizes = list(sizes)
        self.club = _codes([p.club for p in self.players])
        self.region = _codes([p.region for p in self.players])
        self.team = _codes([p.team for p in self.players])
        self.winner = [pid in history.winners for pid in ids]
        self.winner_group = [0 if w else -1 for w in self.winner]  # winners as one group
        self.five = [int(history.five_seaters.get(pid, 0)) for pid in ids]
        # meet[i][j] = how many earlier tables i and j shared
        self.meet: list[dict[int, int]] = [{} for _ in ids]
        self.earlier_present: list[int] = []  # how many of each earlier table play now
        for table in history.tables:
            present = [self.index[p] for p in table if p in self.index]
            self.earlier_present.append(len(present))
            for a_pos, a in enumerate(present):
                for b in present[a_pos + 1:]:
                    self.meet[a][b] = self.meet[a].get(b, 0) + 1
                    self.meet[b][a] = self.meet[b].get(a, 0) + 1
        self.team_prior = self._team_meetings(history)
        # The seats to rotate fairly are those at tables of 5 (or 3, 6) in a game that also has
        # tables of 4; when every table has the same size nobody is worse off.
        self.odd_table = odd_sized(self.sizes)

    def _team_meetings(self, history: History) -> dict[tuple[int, int], int]:
        """{(team code, team code): meetings in earlier games}, for the teams playing now (the
        earlier tables' players' teams from ``history.teams``, substitutes sitting out included)."""
        code_of = {}
        for p, code in zip(self.players, self.team, strict=True):
            if code >= 0:
                code_of[(p.team or "").strip().casefold()] = code
        if not code_of:
            return {}
        team_of = {pid: code_of.get((t or "").strip().casefold(), -1) for pid, t in history.teams.items()}
        team_of.update({p.id: c for p, c in zip(self.players, self.team, strict=True)})
        met: Counter[tuple[int, int]] = Counter()
        for table in history.tables:
            codes = [team_of.get(pid, -1) for pid in table]
            met.update(_team_pair_counts(codes, [list(range(len(codes)))]))
        return dict(met)

    def odd_seats(self) -> int:
        """Seats at the odd-sized tables (the 5-seats when tables of 4 are also played)."""
        return sum(s for s, odd in zip(self.sizes, self.odd_table, strict=True) if odd)

    def costs(self, tables: Sequence[Sequence[int]]) -> dict[str, int]:
        """The cost of a whole assignment, per priority."""
        return {key: priority.cost(self, tables) for key, priority in PRIORITY_BY_KEY.items()}

    def bounds(self) -> dict[str, int]:
        """Lower bounds, per priority (each alone; together they may not all be reachable)."""
        return {key: priority.bound(self) for key, priority in PRIORITY_BY_KEY.items()}


def _codes(values: Sequence[str | None]) -> list[int]:
    """Clubs/regions as small integers; None or blank → -1 (never "the same club")."""
    table: dict[str, int] = {}
    out = []
    for v in values:
        key = (v or "").strip().casefold()
        out.append(table.setdefault(key, len(table)) if key else -1)
    return out


def _group_sizes(codes: Sequence[int]) -> list[int]:
    return [n for code, n in Counter(codes).items() if code >= 0]


def _spread_pairs(n: int, tables: int) -> int:
    """Fewest pairs when n players of one kind are spread as evenly as possible over tables."""
    if tables <= 0:
        return 0
    q, r = divmod(n, tables)
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


# --------------------------------------------------------------------------------------------
# Search


@dataclass
class _State:
    tables: list[list[int]]
    table_of: list[int]
    cost: list[int]  # in priority order
    # per team-pair priority (in _Search.team_terms order): the meetings of two teams now
    team_counts: list[Counter[tuple[int, int]]] = field(default_factory=list)


def _budget(n: int) -> tuple[int, int]:
    """(restarts, iterations per restart): depends only on the input size, never on the clock,
    so every machine does the same walk. Worst case about 2–3 s for 1,000 players on a laptop;
    a walk also stops early at the lower bounds or after a long stretch with no gain."""
    if n <= 60:
        return 3, 1_500 + 60 * n
    if n <= 300:
        return 2, 5_000 + 30 * n
    return 1, 20_000 + 30 * n


# Besides the first random partner, how many more to try for the same player (keeping the best):
# the swap that repairs a clash is often with one particular table among hundreds.
EXTRA_SAMPLES = 8


class _Search:
    def __init__(self, problem: _Problem, priorities: Sequence[str], rng: SeededRng) -> None:
        self.p = problem
        self.priorities = list(priorities)
        self.rng = rng
        self.bounds = problem.bounds()
        self.target = [self.bounds[k] for k in self.priorities]
        self.iterations = 0
        self.extra_samples = EXTRA_SAMPLES
        # Each chosen priority by the shape of its cost, with its position in the cost vector.
        # A seat cost above that of the last of the "least-served" players who must fill the
        # odd seats is paid needlessly (the cutoff).
        odd_seats = problem.odd_seats()
        self.seat_terms: list[tuple[int, list[int], int]] = []
        self.group_terms: list[tuple[int, list[int]]] = []
        self.pair_terms: list[tuple[int, list[dict[int, int]]]] = []
        self.team_terms: list[int] = []
        for i, key in enumerate(self.priorities):
            priority = PRIORITY_BY_KEY[key]
            if isinstance(priority, SeatPriority):
                values = priority.values(problem)
                cutoff = sorted(values)[odd_seats - 1] if odd_seats else 0
                self.seat_terms.append((i, values, cutoff))
            elif isinstance(priority, GroupPriority):
                self.group_terms.append((i, priority.groups(problem)))
            elif isinstance(priority, PairPriority):
                self.pair_terms.append((i, priority.weights(problem)))
            elif isinstance(priority, TeamPairPriority):
                self.team_terms.append(i)
            else:
                raise TypeError(f"{key}: a priority's cost is a SeatPriority, GroupPriority, "
                                "PairPriority or TeamPairPriority")

    def state(self, tables: list[list[int]]) -> _State:
        table_of = [0] * self.p.n
        for t, members in enumerate(tables):
            for x in members:
                table_of[x] = t
        costs = self.p.costs(tables)
        counts = [_team_pair_counts(self.p.team, tables) for _ in self.team_terms]
        return _State(tables, table_of, [costs[k] for k in self.priorities], counts)

    def swap_delta(self, s: _State, a: int, b: int) -> list[int]:
        """Change of every cost entry if players a and b (at different tables) swap."""
        ta, tb = s.table_of[a], s.table_of[b]
        delta = [0] * len(self.priorities)
        odd = self.p.odd_table
        if odd[ta] != odd[tb]:
            for i, values, _ in self.seat_terms:
                diff = values[b] - values[a]
                delta[i] = diff if odd[ta] else -diff
        # b joins a's table mates, a leaves them; and the other way round at b's table.
        for new, old, mates in ((b, a, s.tables[ta]), (a, b, s.tables[tb])):
            for i, groups in self.group_terms:
                g_new, g_old = groups[new], groups[old]
                if g_new == g_old:
                    continue  # same group (or both in none): nothing changes
                d = 0
                for x in mates:
                    gx = groups[x]
                    if gx >= 0 and x != old:
                        d += (g_new == gx) - (g_old == gx)
                delta[i] += d
            for i, weights in self.pair_terms:
                w_new, w_old = weights[new], weights[old]
                if w_new or w_old:
                    d = 0
                    for x in mates:
                        if x != old:
                            d += w_new.get(x, 0) - w_old.get(x, 0)
                    delta[i] += d
        if self.team_terms:
            changes = self.team_changes(s, a, b)
            prior = self.p.team_prior
            for k, i in enumerate(self.team_terms):
                now = s.team_counts[k]
                delta[i] += sum((prior.get(key, 0) + now[key] + d) ** 2 - (prior.get(key, 0) + now[key]) ** 2
                                for key, d in changes.items())
        return delta

    def team_changes(self, s: _State, a: int, b: int) -> Counter[tuple[int, int]]:
        """How the meetings of two teams change if players a and b (at different tables) swap."""
        teams = self.p.team
        out: Counter[tuple[int, int]] = Counter()
        for new, old, mates in ((b, a, s.tables[s.table_of[a]]), (a, b, s.tables[s.table_of[b]])):
            if teams[new] == teams[old]:
                continue
            for x in mates:
                if x == old or teams[x] < 0:
                    continue
                for who, sign in ((old, -1), (new, 1)):
                    t = teams[who]
                    if t >= 0 and t != teams[x]:
                        out[(t, teams[x]) if t < teams[x] else (teams[x], t)] += sign
        return out

    def apply(self, s: _State, a: int, b: int, delta: list[int]) -> None:
        if self.team_terms:
            changes = self.team_changes(s, a, b)
            for counts in s.team_counts:
                counts.update(changes)
        ta, tb = s.table_of[a], s.table_of[b]
        s.tables[ta][s.tables[ta].index(a)] = b
        s.tables[tb][s.tables[tb].index(b)] = a
        s.table_of[a], s.table_of[b] = tb, ta
        s.cost = [c + d for c, d in zip(s.cost, delta, strict=True)]

    def troubled(self, s: _State) -> list[int]:
        """Players involved in some cost right now: the moves worth trying first."""
        odd = self.p.odd_table
        groups = [g for _, g in self.group_terms]
        weights = [w for _, w in self.pair_terms]
        out: list[int] = []
        for t, members in enumerate(s.tables):
            for x in members:
                bad = odd[t] and any(values[x] > cutoff for _, values, cutoff in self.seat_terms)
                for y in members:
                    if bad:
                        break
                    if y == x:
                        continue
                    bad = (any(g[x] >= 0 and g[x] == g[y] for g in groups)
                           or any(y in w[x] for w in weights))
                if bad:
                    out.append(x)
        return out

    def pick_pair(self, s: _State, troubled: list[int]) -> tuple[int, int]:
        rng = self.rng
        # Three times in four, a player who is in some clash right now.
        use_troubled = bool(troubled) and rng.randbelow(4) > 0
        a = troubled[rng.randbelow(len(troubled))] if use_troubled else rng.randbelow(self.p.n)
        return a, self.pick_partner(s, a)

    def pick_partner(self, s: _State, a: int) -> int:
        """A player at another table."""
        rng, tables = self.rng, s.tables
        ta = s.table_of[a]
        tb = rng.randbelow(len(tables) - 1)
        if tb >= ta:
            tb += 1
        members = tables[tb]
        return members[rng.randbelow(len(members))]

    def table_cost(self, t: int, members: Sequence[int]) -> tuple[int, ...]:
        """The cost vector of one table (K-SWISS plans table by table with it)."""
        cost = [0] * len(self.priorities)
        if self.p.odd_table[t]:
            for i, values, _cutoff in self.seat_terms:
                cost[i] = sum(values[x] for x in members)
        pairs = [(x, y) for pos, x in enumerate(members) for y in members[pos + 1:]]
        for i, groups in self.group_terms:
            cost[i] = sum(1 for x, y in pairs if groups[x] >= 0 and groups[x] == groups[y])
        for i, weights in self.pair_terms:
            cost[i] = sum(weights[x].get(y, 0) for x, y in pairs)
        return tuple(cost)

    def late_acceptance(self, start: list[list[int]], iterations: int) -> _State:
        """Late-acceptance hill climbing (Burke & Bykov): accept a move if its cost is no worse
        than the current one or than the cost ``history`` steps ago. Best state is kept."""
        s = self.state(start)
        best_tables, best_cost = [list(t) for t in s.tables], list(s.cost)
        if len(s.tables) < 2 or s.cost == self.target:
            return s
        history = [list(s.cost)] * min(200, 20 + self.p.n // 5)
        troubled = self.troubled(s)
        refresh = max(50, self.p.n)
        since_best, stagnation = 0, max(3_000, 10 * self.p.n)
        for i in range(iterations):
            self.iterations += 1
            if i % refresh == 0:
                troubled = self.troubled(s)
            a, b = self.pick_pair(s, troubled)
            delta = self.swap_delta(s, a, b)
            for _ in range(self.extra_samples):
                b2 = self.pick_partner(s, a)
                d2 = self.swap_delta(s, a, b2)
                if d2 < delta:
                    b, delta = b2, d2
            new = [c + d for c, d in zip(s.cost, delta, strict=True)]
            slot = i % len(history)
            if new <= s.cost or new <= history[slot]:
                self.apply(s, a, b, delta)
                if s.cost < best_cost:
                    best_tables, best_cost = [list(t) for t in s.tables], list(s.cost)
                    if best_cost == self.target:
                        break
                    since_best = 0
            since_best += 1
            if since_best > stagnation:
                break
            if s.cost < history[slot]:
                history[slot] = list(s.cost)
        return self.state(best_tables)

    def repair(self, start: list[list[int]], iterations: int) -> _State:
        """Strictly improving swaps only: keeps the shape of an alla-greca seating."""
        s = self.state(start)
        troubled = self.troubled(s)
        since_gain = 0
        for _ in range(iterations):
            if s.cost == self.target or len(s.tables) < 2 or since_gain > 20 * self.p.n + 2000:
                break
            self.iterations += 1
            since_gain += 1
            a, b = self.pick_pair(s, troubled)
            delta = self.swap_delta(s, a, b)
            if [0] * len(delta) > delta:
                self.apply(s, a, b, delta)
                troubled = self.troubled(s)
                since_gain = 0
        return s


def _random_start(problem: _Problem, rng: SeededRng, prefer_fresh_odd_seats: bool) -> list[list[int]]:
    """Seeded random seating; players with the fewest earlier 5-seats take the 5-seats first
    (ties at random) when that priority is asked for — a head start, the search does the rest."""
    order = list(range(problem.n))
    rng.shuffle(order)
    if prefer_fresh_odd_seats:
        order.sort(key=lambda x: problem.five[x])  # stable: random among equals
    odd_first = sorted(range(len(problem.sizes)), key=lambda t: not problem.odd_table[t])
    tables: list[list[int]] = [[] for _ in problem.sizes]
    pos = 0
    for t in odd_first:
        tables[t] = order[pos:pos + problem.sizes[t]]
        pos += problem.sizes[t]
    return tables


def _swiss(problem: _Problem, search: _Search) -> tuple[_State, list[list[int]]]:
    """K-SWISS: the best tables within the standings blocks (:mod:`tables.swiss`), and who moved
    from their block ([player id, block, table], tables numbered from 1)."""
    order = sorted(
        range(problem.n),
        key=lambda x: (problem.players[x].standing is None, problem.players[x].standing or 0, x),
    )
    pairing = swiss_tables(order, problem.sizes, search.table_cost)
    moved = [[problem.ids[x], block + 1, table + 1] for x, block, table in pairing.moved]
    return search.state([list(t) for t in pairing.tables]), moved


def _greca_start(problem: _Problem, history: History, rng: SeededRng) -> list[list[int]]:
    count = len(problem.sizes)
    tables: list[list[int]] = [[] for _ in problem.sizes]
    placed: set[int] = set()
    previous = [[problem.index[p] for p in t if p in problem.index] for t in
                history.previous_tables]
    longest = max((len(t) for t in previous), default=0)
    # All winners first, then all 2nd places…, so each winner keeps their own table number.
    for place in range(longest):
        for t, finish in enumerate(previous):
            if place >= len(finish) or finish[place] in placed:
                continue
            target = (t + place) % count
            while len(tables[target]) >= problem.sizes[target]:
                target = (target + 1) % count
            tables[target].append(finish[place])
            placed.add(finish[place])
    newcomers = [x for x in range(problem.n) if x not in placed]
    rng.shuffle(newcomers)
    for t, size in enumerate(problem.sizes):
        while len(tables[t]) < size:
            tables[t].append(newcomers.pop())
    return tables


def compose(
    players: Sequence[SeatingPlayer], history: History, options: Options, seed: str
) -> Composition:
    """Compose the tables of one game (K-TABLES) and draw the seat order (T-ORDER)."""
    _check_options(options)
    sizes = table_sizes(len(players), options.prefer, options.odd_count, options.shape)
    problem = _Problem(players, history, sizes)
    rng = SeededRng(seed, stream="seating")
    search = _Search(problem, options.priorities, rng)
    restarts, iterations = _budget(problem.n)
    iterations = max(1, int(iterations * options.effort))

    moved: list[list[int]] | None = None
    if options.seeding == "swiss":
        state, moved = _swiss(problem, search)
    elif options.seeding == "greca":
        start = _greca_start(problem, history, rng)
        state = search.repair(start, iterations * restarts)
    else:
        state = None
        for _ in range(restarts):
            start = _random_start(problem, rng, "repeat_five" in options.priorities)
            found = search.late_acceptance(start, iterations)
            if state is None or found.cost < state.cost:
                state = found
            if state.cost == search.target:
                break
    assert state is not None

    seated = []
    for t, members in enumerate(state.tables):
        ids = [problem.ids[x] for x in sorted(members)]
        SeededRng(derive_seed(seed, "seats", t + 1), stream="seat-order").shuffle(ids)
        seated.append(tuple(ids))
    tables = tuple(seated)
    report = evaluate(tables, players, history, options)
    report["seeding"] = options.seeding
    if moved is not None:
        report["swiss_moves"] = moved
    report["search"] = {
        "iterations": search.iterations,
        "lower_bounds_reached": state.cost == search.target,
    }
    return Composition(tables=tables, seed=seed, report=report)


def arrange_priorities(chosen: Sequence[str], before: Sequence[str] = ()) -> list[str]:
    """The organizer's order of priorities after choosing some in a form of numbered slots
    (K-TABLES): a priority chosen for a slot MOVES there and the others shift to make room, as
    in a list one drags an item in; it is never refused as "already chosen elsewhere".

    ``chosen`` is what each slot now says ("" = slot left empty), ``before`` what the slots
    said when the form was shown. A slot that changed wins its priority; the priorities it and
    the others held keep their former order in the free slots; a slot emptied drops the priority
    it held. Unknown keys are kept (the caller refuses them). Without ``before`` every slot
    counts as changed: the first slot naming a priority wins it."""
    slots: list[str | None] = [None] * len(chosen)
    placed: set[str] = set()
    for i, key in enumerate(chosen):
        if key and (i >= len(before) or before[i] != key) and key not in placed:
            slots[i] = key
            placed.add(key)
    dropped = {before[i] for i, key in enumerate(chosen) if not key and i < len(before) and before[i]}
    rest = [key for key in (*before, *chosen) if key and key not in placed and key not in dropped]
    rest = list(dict.fromkeys(rest))
    free = (i for i, key in enumerate(slots) if key is None)
    for key in rest:
        at = next(free, None)
        if at is None:
            slots.append(key)
        else:
            slots[at] = key
    return [key for key in slots if key]


def _check_options(options: Options) -> None:
    unknown = [p for p in options.priorities if p not in PRIORITIES]
    if unknown or len(set(options.priorities)) != len(options.priorities):
        raise SeatingError(
            "K-TABLES", f"Unknown or repeated priorities: {list(options.priorities)}.",
            list(PRIORITIES),
        )
    if not 0 < options.effort <= 10:
        raise SeatingError("K-TABLES", f"Effort must be above 0 and at most 10, not "
                           f"{options.effort}.")
    if options.shape not in SHAPES:
        raise SeatingError("K-TABLES", f"Unknown table shape {options.shape!r}.", list(SHAPES))
    if options.seeding not in SEEDINGS:
        raise SeatingError("K-TABLES", f"Unknown seeding {options.seeding!r}.", list(SEEDINGS))


# --------------------------------------------------------------------------------------------
# Report


def evaluate(
    tables: Sequence[Sequence[int]],
    players: Sequence[SeatingPlayer],
    history: History,
    options: Options | None = None,
) -> dict[str, Any]:
    """Quality report of any composition (also after manual swaps): counts per priority, the
    offending pairs, the lower bounds, and an explanation for every priority of ``options``
    (default priorities if None) that is not met. JSON-serialisable."""
    options = options or Options()
    by_id = {p.id: p for p in players}
    sizes = [len(t) for t in tables]
    seated = [pid for t in tables for pid in t]
    missing = sorted(set(by_id) - set(seated))
    unknown = sorted(set(seated) - set(by_id))
    if unknown or len(seated) != len(set(seated)):
        raise SeatingError("K-TABLES", f"Tables hold unknown or repeated players: "
                           f"{unknown or sorted(p for p, c in Counter(seated).items() if c > 1)}.")
    problem = _Problem([by_id[pid] for pid in seated], history, sizes)
    idx_tables = [[problem.index[pid] for pid in t] for t in tables]
    costs = problem.costs(idx_tables)
    bounds = problem.bounds()

    details: dict[str, list[list[Any]]] = {p.detail: [] for p in PRIORITY_BY_KEY.values()}
    for t, members in enumerate(tables):
        for priority in PRIORITY_BY_KEY.values():
            details[priority.detail] += priority.rows(problem, t, members, by_id)

    report: dict[str, Any] = {
        "players": len(seated),
        "tables": len(tables),
        "sizes": {str(s): n for s, n in sorted(Counter(sizes).items())},
        "priorities": list(options.priorities),
        "lower_bounds": {k: bounds[k] for k in options.priorities},
        "costs": {k: costs[k] for k in options.priorities},
        "details": details,
        "missing_players": missing,
        "unmet": _unmet(problem, options, costs, bounds, details),
    }
    for key, priority in PRIORITY_BY_KEY.items():
        report.update(priority.summary(costs[key], details[priority.detail]))
    return report


def _unmet(
    problem: _Problem,
    options: Options,
    costs: Mapping[str, int],
    bounds: Mapping[str, int],
    details: Mapping[str, list[list[Any]]],
) -> list[dict[str, Any]]:
    """Each priority of ``options`` left above zero, with why: ``reasons`` as codes (the pages
    translate them) and ``explanation`` in English."""
    tables = len(problem.sizes)
    out = []
    for rank, key in enumerate(options.priorities):
        cost, bound = costs[key], bounds[key]
        if cost == 0:
            continue
        priority = PRIORITY_BY_KEY[key]
        why = priority.why(problem, bound, tables)
        reasons = [why] if why else []
        if cost > bound:
            higher = list(options.priorities[:rank])
            if higher:
                reasons.append(_reason("above_bound_higher_first", cost=cost, unit=key, bound=bound,
                                       labels=higher))
            else:
                reasons.append(_reason("above_bound", cost=cost, unit=key, bound=bound))
        out.append({
            "priority": key,
            "label": priority.label,
            "cost": cost,
            "lower_bound": bound,
            "unavoidable": cost == bound,
            "count": len(details[priority.detail]),
            "explanation": explain(reasons),
            "reasons": reasons,
        })
    return out
