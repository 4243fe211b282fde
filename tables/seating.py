"""Table composition (K-TABLES, T-SIZE, T-ORDER): who sits at which table, in which seat.

Pure Python (no Django): the tables app's services call :func:`compose` and store the result.

How it works, and why it beats the clubs' desktop tool (data/CLUB-TOOLS.md §1.4, an unseeded
shuffle repaired by greedy swaps one priority at a time):

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
* ``swiss``: players sorted by standing (1 = leader; unknown standings last, then by id) fill the
  tables in order — the leaders at table 1 (tables of 4 come first, so any tables of 5 hold
  the lowest standings). The search may then only make swaps that strictly improve the cost
  and leave everyone at most one table away from their own block (the point of Swiss blocks)
  while repeats and clubs are avoided.
* ``greca`` ("alla greca"): from each table of the last game (``History.previous_tables``, in
  finishing order) the winner stays at that table number, the 2nd moves one table on, the 3rd
  two… wrapping round; a full table passes the player on to the next one. Players who were not
  in the last game fill the free seats at random. Strictly improving swaps then repair any
  priority the pattern breaks.

Seat order inside each table is random (T-ORDER), from a seed derived per table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.rng import SeededRng, derive_seed

PRIORITIES = ("repeat_five", "winners_apart", "club_apart", "region_apart", "repeat_opponents")
SEEDINGS = ("random", "swiss", "greca")
ODD_COUNTS = (None, "ghost", "six")
PREFERENCES = ("fives", "fours")

# What each priority means, for reports and error messages.
PRIORITY_LABELS = {
    "repeat_five": "fewest repeat seats at 5- (or 3-) player tables",
    "winners_apart": "previous winners apart",
    "club_apart": "same club apart",
    "region_apart": "same region apart",
    "repeat_opponents": "fewest repeat opponents",
}


@dataclass(frozen=True)
class SeatingPlayer:
    id: int
    club: str | None = None
    region: str | None = None
    standing: int | None = None  # 1 = leader; used by "swiss" seeding


@dataclass(frozen=True)
class History:
    """What the previous games of the tournament did."""

    tables: tuple[tuple[int, ...], ...] = ()  # every previous table (all games), player ids
    winners: frozenset[int] = frozenset()  # players who won a table earlier
    five_seaters: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    previous_tables: tuple[tuple[int, ...], ...] = ()  # last game, each in finishing order

    def after_game(self, finishing: Sequence[Sequence[int]]) -> History:
        """The history once a game is over: ``finishing`` is each table of that game (in table
        order) with its players in finishing order, the winner first."""
        fives = dict(self.five_seaters)
        for table in finishing:
            if len(table) != 4:
                for pid in table:
                    fives[pid] = fives.get(pid, 0) + 1
        done = tuple(tuple(t) for t in finishing)
        return History(
            tables=self.tables + done,
            winners=self.winners | {t[0] for t in done if t},
            five_seaters=MappingProxyType(fives),
            previous_tables=done,
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
    # Scales the search budget (quick previews, tests); the same effort gives the same tables.
    effort: float = 1.0


@dataclass(frozen=True)
class Composition:
    tables: tuple[tuple[int, ...], ...]  # player ids in seat order (seat 1 first)
    seed: str
    report: Mapping[str, Any]


class SeatingError(Exception):
    """A composition the rules do not allow without an organizer's decision."""

    def __init__(self, rule: str, message: str, options: list[str] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.options = options or []

    def __str__(self) -> str:
        text = f"{self.rule}: {self.message}"
        if self.options:
            text += " Options: " + "; ".join(self.options)
        return text


# --------------------------------------------------------------------------------------------
# Table sizes (T-SIZE, K-TABLES)

UNCOVERABLE = (6, 7, 11)  # the counts ≥ 4 that no mix of tables of 4 and 5 adds up to


def _mixes(count: int) -> list[tuple[int, int]]:
    """All (fours, fives) with 4·fours + 5·fives = count."""
    return [((count - 5 * f) // 4, f) for f in range(count // 5 + 1) if (count - 5 * f) % 4 == 0]


def _odd_options(count: int) -> list[str]:
    """What the organizer can do when no mix of 4 and 5 seats ``count`` players."""
    more = next(k for k in range(1, 5) if _mixes(count + k))
    options = [
        f"wait for {'a late player' if more == 1 else f'{more} late players'} or add "
        f"{'a stand-in' if more == 1 else f'{more} stand-ins'} ({count + more} players: "
        f"{_describe(_plain_sizes(count + more))})",
    ]
    fewer = next((k for k in range(1, 3) if count - k >= 4 and _mixes(count - k)), None)
    if fewer:
        options.append(
            f"leave {'one player' if fewer == 1 else f'{fewer} players'} out of this game "
            f"({count - fewer} players: {_describe(_plain_sizes(count - fewer))})"
        )
    options.append(
        f'a table of 3 with a ghost seat (odd_count="ghost": {_describe(_ghost_sizes(count))})'
    )
    six = _six_sizes(count)
    if six:
        options.append(f'a table of 6 (odd_count="six": {_describe(six)})')
    return options


def _plain_sizes(count: int) -> list[int]:
    fours, fives = max(_mixes(count), key=lambda m: m[1])
    return [4] * fours + [5] * fives


def _describe(sizes: list[int]) -> str:
    counts = Counter(sizes)
    return ", ".join(f"{n} table{'s' if n > 1 else ''} of {s}" for s, n in sorted(counts.items()))


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


def table_sizes(count: int, prefer: str = "fives", odd_count: str | None = None) -> list[int]:
    """Table sizes for ``count`` players: tables of 4 and 5 (T-SIZE), as equal as the count
    allows; when several mixes exist ``prefer`` picks the most fives (fewest tables) or the most
    fours. Tables of 4 come first, then 5, then any table of 3 or 6.

    6, 7 and 11 players (and 3) need an explicit organizer decision (K-TABLES): ``odd_count=
    "ghost"`` (tables of 3 with a ghost seat) or ``"six"`` (one table of 6); otherwise
    :class:`SeatingError` lists the options.
    """
    if prefer not in PREFERENCES:
        raise SeatingError("K-TABLES", f"Unknown preference {prefer!r}.", list(PREFERENCES))
    if odd_count not in ODD_COUNTS:
        raise SeatingError("K-TABLES", f"Unknown choice for odd counts {odd_count!r}.",
                           ["ghost", "six"])
    if count < 3 or (count == 3 and odd_count != "ghost"):
        raise SeatingError(
            "T-SIZE",
            f"{count} players cannot form a table: a table needs 4 or 5 players.",
            ["wait for more players"] + (['a table of 3 with a ghost seat (odd_count="ghost")']
                                         if count == 3 else []),
        )
    mixes = _mixes(count)
    if not mixes:
        if odd_count == "ghost":
            return _ghost_sizes(count)
        if odd_count == "six" and _six_sizes(count):
            return _six_sizes(count)
        why = "" if odd_count is None else f' (odd_count="{odd_count}" cannot cover {count})'
        raise SeatingError(
            "K-TABLES",
            f"No mix of tables of 4 and 5 seats {count} players{why}: the organizer must decide.",
            _odd_options(count),
        )
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
        self.winner = [pid in history.winners for pid in ids]
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
        # The seats to rotate fairly are those at tables of 5 (or 3, 6) in a game that also has
        # tables of 4; when every table has the same size nobody is worse off.
        mixed = len(set(self.sizes)) > 1
        self.odd_table = [mixed and s != 4 for s in self.sizes]

    # ---- costs of a whole assignment, per priority
    def costs(self, tables: Sequence[Sequence[int]]) -> dict[str, int]:
        c = dict.fromkeys(PRIORITIES, 0)
        for t, members in enumerate(tables):
            if self.odd_table[t]:
                c["repeat_five"] += sum(self.five[x] for x in members)
            for pos, x in enumerate(members):
                for y in members[pos + 1:]:
                    c["winners_apart"] += self.winner[x] and self.winner[y]
                    c["club_apart"] += self.club[x] >= 0 and self.club[x] == self.club[y]
                    c["region_apart"] += self.region[x] >= 0 and self.region[x] == self.region[y]
                    c["repeat_opponents"] += self.meet[x].get(y, 0)
        return c

    # ---- lower bounds, per priority (each alone; together they may not all be reachable)
    def bounds(self) -> dict[str, int]:
        tables = len(self.sizes)
        odd_seats = sum(s for s, odd in zip(self.sizes, self.odd_table, strict=True) if odd)
        b = dict.fromkeys(PRIORITIES, 0)
        b["repeat_five"] = sum(sorted(self.five)[:odd_seats])
        b["winners_apart"] = _spread_pairs(sum(self.winner), tables)
        b["club_apart"] = sum(_spread_pairs(n, tables) for n in _group_sizes(self.club))
        b["region_apart"] = sum(_spread_pairs(n, tables) for n in _group_sizes(self.region))
        # Repeated encounters add up over earlier tables, and the players of one earlier table
        # meet again at least as often as when they are spread evenly over the tables.
        b["repeat_opponents"] = sum(_spread_pairs(n, tables) for n in self.earlier_present)
        return b


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
        # Whoever has more earlier 5-seats than the last of the "least-served" players who
        # must fill the 5-seats is sitting at one needlessly.
        odd_seats = sum(sz for sz, odd in zip(problem.sizes, problem.odd_table, strict=True)
                        if odd)
        fives = sorted(problem.five)
        self.five_cutoff = fives[odd_seats - 1] if odd_seats else 0

    def state(self, tables: list[list[int]]) -> _State:
        table_of = [0] * self.p.n
        for t, members in enumerate(tables):
            for x in members:
                table_of[x] = t
        costs = self.p.costs(tables)
        return _State(tables, table_of, [costs[k] for k in self.priorities])

    def swap_delta(self, s: _State, a: int, b: int) -> list[int]:
        """Change of every cost entry if players a and b (at different tables) swap."""
        p = self.p
        ta, tb = s.table_of[a], s.table_of[b]
        d_five = d_win = d_club = d_region = d_meet = 0
        if p.odd_table[ta] != p.odd_table[tb]:
            diff = p.five[b] - p.five[a]
            d_five = diff if p.odd_table[ta] else -diff
        win, club, region, meet = p.winner, p.club, p.region, p.meet
        # b joins a's table mates, a leaves them; and the other way round at b's table.
        for new, old, mates in ((b, a, s.tables[ta]), (a, b, s.tables[tb])):
            w_new, w_old = win[new], win[old]
            c_new, c_old = club[new], club[old]
            r_new, r_old = region[new], region[old]
            m_new, m_old = meet[new], meet[old]
            for x in mates:
                if x == old:
                    continue
                if win[x]:
                    d_win += w_new - w_old
                cx = club[x]
                if cx >= 0:
                    d_club += (c_new == cx) - (c_old == cx)
                rx = region[x]
                if rx >= 0:
                    d_region += (r_new == rx) - (r_old == rx)
                if m_new or m_old:
                    d_meet += m_new.get(x, 0) - m_old.get(x, 0)
        by_name = {
            "repeat_five": d_five,
            "winners_apart": d_win,
            "club_apart": d_club,
            "region_apart": d_region,
            "repeat_opponents": d_meet,
        }
        return [by_name[k] for k in self.priorities]

    def apply(self, s: _State, a: int, b: int, delta: list[int]) -> None:
        ta, tb = s.table_of[a], s.table_of[b]
        s.tables[ta][s.tables[ta].index(a)] = b
        s.tables[tb][s.tables[tb].index(b)] = a
        s.table_of[a], s.table_of[b] = tb, ta
        s.cost = [c + d for c, d in zip(s.cost, delta, strict=True)]

    def troubled(self, s: _State) -> list[int]:
        """Players involved in some cost right now: the moves worth trying first."""
        p = self.p
        out: list[int] = []
        want = set(self.priorities)
        for t, members in enumerate(s.tables):
            for x in members:
                bad = "repeat_five" in want and p.odd_table[t] and p.five[x] > self.five_cutoff
                for y in members:
                    if bad:
                        break
                    if y == x:
                        continue
                    bad = (
                        ("winners_apart" in want and p.winner[x] and p.winner[y])
                        or ("club_apart" in want and p.club[x] >= 0 and p.club[x] == p.club[y])
                        or ("region_apart" in want and p.region[x] >= 0
                            and p.region[x] == p.region[y])
                        or ("repeat_opponents" in want and y in p.meet[x])
                    )
                if bad:
                    out.append(x)
        return out

    def pick_pair(
        self, s: _State, troubled: list[int], home: list[int] | None = None
    ) -> tuple[int, int]:
        rng = self.rng
        # Three times in four, a player who is in some clash right now.
        use_troubled = bool(troubled) and rng.randbelow(4) > 0
        a = troubled[rng.randbelow(len(troubled))] if use_troubled else rng.randbelow(self.p.n)
        return a, self.pick_partner(s, a, home)

    def pick_partner(self, s: _State, a: int, home: list[int] | None = None) -> int:
        """A player at another table; with ``home`` (Swiss blocks), at a table within one of
        a's own block."""
        rng, tables = self.rng, s.tables
        ta = s.table_of[a]
        if home is not None:
            options = [t for t in range(home[a] - 1, home[a] + 2)
                       if 0 <= t < len(tables) and t != ta]
            tb = options[rng.randbelow(len(options))]
        else:
            tb = rng.randbelow(len(tables) - 1)
            if tb >= ta:
                tb += 1
        members = tables[tb]
        return members[rng.randbelow(len(members))]

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

    def repair(self, start: list[list[int]], iterations: int, swiss: bool) -> _State:
        """Strictly improving swaps only: keeps the shape of a Swiss or alla-greca seating.
        Swiss: nobody ends more than one table away from their own block."""
        s = self.state(start)
        home = list(s.table_of) if swiss else None
        troubled = self.troubled(s)
        since_gain = 0
        for _ in range(iterations):
            if s.cost == self.target or len(s.tables) < 2 or since_gain > 20 * self.p.n + 2000:
                break
            self.iterations += 1
            since_gain += 1
            a, b = self.pick_pair(s, troubled, home)
            if home is not None and abs(s.table_of[a] - home[b]) > 1:
                continue
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


def _swiss_start(problem: _Problem) -> list[list[int]]:
    order = sorted(
        range(problem.n),
        key=lambda x: (problem.players[x].standing is None, problem.players[x].standing or 0, x),
    )
    tables, pos = [], 0
    for size in problem.sizes:
        tables.append(order[pos:pos + size])
        pos += size
    return tables


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
    sizes = table_sizes(len(players), options.prefer, options.odd_count)
    problem = _Problem(players, history, sizes)
    rng = SeededRng(seed, stream="seating")
    search = _Search(problem, options.priorities, rng)
    restarts, iterations = _budget(problem.n)
    iterations = max(1, int(iterations * options.effort))

    if options.seeding == "swiss":
        state = search.repair(_swiss_start(problem), iterations * restarts, swiss=True)
    elif options.seeding == "greca":
        start = _greca_start(problem, history, rng)
        state = search.repair(start, iterations * restarts, swiss=False)
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
    report["search"] = {
        "iterations": search.iterations,
        "lower_bounds_reached": state.cost == search.target,
    }
    return Composition(tables=tables, seed=seed, report=report)


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

    details: dict[str, list[list[Any]]] = {
        "repeated_pairs": [], "same_club_pairs": [], "same_region_pairs": [],
        "winners_together": [], "repeat_five_seats": [],
    }
    for t, members in enumerate(tables):
        if problem.odd_table[t]:
            details["repeat_five_seats"] += [
                [t + 1, x, int(history.five_seaters.get(x, 0))] for x in members
                if history.five_seaters.get(x, 0)
            ]
        for pos, x in enumerate(members):
            for y in members[pos + 1:]:
                a, b = sorted((x, y))
                px, py = by_id[x], by_id[y]
                met = problem.meet[problem.index[x]].get(problem.index[y], 0)
                if met:
                    details["repeated_pairs"].append([t + 1, a, b, met])
                if _same(px.club, py.club):
                    details["same_club_pairs"].append([t + 1, a, b, px.club])
                if _same(px.region, py.region):
                    details["same_region_pairs"].append([t + 1, a, b, px.region])
                if x in history.winners and y in history.winners:
                    details["winners_together"].append([t + 1, a, b])

    report: dict[str, Any] = {
        "players": len(seated),
        "tables": len(tables),
        "sizes": {str(s): n for s, n in sorted(Counter(sizes).items())},
        "repeated_pairs": len(details["repeated_pairs"]),
        "repeated_encounters": costs["repeat_opponents"],
        "same_club_pairs": costs["club_apart"],
        "same_region_pairs": costs["region_apart"],
        "winners_together": costs["winners_apart"],
        "repeat_five_seats": len(details["repeat_five_seats"]),
        "priorities": list(options.priorities),
        "lower_bounds": {k: bounds[k] for k in options.priorities},
        "costs": {k: costs[k] for k in options.priorities},
        "details": details,
        "missing_players": missing,
        "unmet": _unmet(problem, options, costs, bounds, details),
    }
    return report


def _same(a: str | None, b: str | None) -> bool:
    a, b = (a or "").strip().casefold(), (b or "").strip().casefold()
    return bool(a) and a == b


def _unmet(
    problem: _Problem,
    options: Options,
    costs: Mapping[str, int],
    bounds: Mapping[str, int],
    details: Mapping[str, list[list[Any]]],
) -> list[dict[str, Any]]:
    tables = len(problem.sizes)
    out = []
    for rank, key in enumerate(options.priorities):
        cost, bound = costs[key], bounds[key]
        if cost == 0:
            continue
        why = _why_unavoidable(problem, key, bound, tables)
        if cost > bound:
            higher = [PRIORITY_LABELS[k] for k in options.priorities[:rank]]
            tail = f", but higher priorities come first ({', '.join(higher)})" if higher else ""
            why = (why + " " if why else "") + (
                f"{cost} {_UNIT[key]} here; {bound} is the least possible for this priority "
                f"alone{tail}."
            )
        out.append({
            "priority": key,
            "label": PRIORITY_LABELS[key],
            "cost": cost,
            "lower_bound": bound,
            "unavoidable": cost == bound,
            "count": len(details[_DETAIL_OF[key]]),
            "explanation": why,
        })
    return out


_UNIT = {
    "repeat_five": "earlier 5-seats of players at a 5-table",
    "winners_apart": "pairs of winners",
    "club_apart": "same-club pairs",
    "region_apart": "same-region pairs",
    "repeat_opponents": "repeated encounters",
}

_DETAIL_OF = {
    "repeat_five": "repeat_five_seats",
    "winners_apart": "winners_together",
    "club_apart": "same_club_pairs",
    "region_apart": "same_region_pairs",
    "repeat_opponents": "repeated_pairs",
}


def _why_unavoidable(problem: _Problem, key: str, bound: int, tables: int) -> str:
    if bound == 0:
        return ""
    if key == "repeat_five":
        odd_seats = sum(s for s, odd in zip(problem.sizes, problem.odd_table, strict=True) if odd)
        fresh = sum(1 for f in problem.five if f == 0)
        return (f"{odd_seats} seats are at tables of 5 (or 3) but only {fresh} players have not "
                f"sat at one yet, so some sit at one again (the fewest possible).")
    if key == "repeat_opponents":
        most = max(problem.earlier_present, default=0)
        return (f"earlier tables of up to {most} players still playing, for {tables} tables: "
                f"at least {bound} repeated encounters are unavoidable.")
    if key == "winners_apart":
        return (f"{sum(problem.winner)} previous winners for {tables} tables: at least {bound} "
                f"pairs of winners must share a table.")
    codes = problem.club if key == "club_apart" else problem.region
    values = [p.club if key == "club_apart" else p.region for p in problem.players]
    names: dict[int, str] = {}
    for code, value in zip(codes, values, strict=True):
        if code >= 0:
            names.setdefault(code, value or "")
    kind = "club" if key == "club_apart" else "region"
    crowded = [
        f"{kind} {names[c]} has {n} players for {tables} tables"
        for c, n in sorted(Counter(x for x in codes if x >= 0).items()) if n > tables
    ]
    return "; ".join(crowded) + f": at least {bound} same-{kind} pairs are unavoidable."
