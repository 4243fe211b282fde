"""The initial deal (D-DEAL) under the 50% rule (D-50), reproducible from a seed.

How the deal stays *uniform among valid deals*: a shuffled deck dealt one card at a time gives
every assignment of territories to seats (with the D-DEAL counts per seat) the same
probability; we draw that same uniform assignment — each territory in turn takes a uniformly
random one of the seats' remaining places — and if any player would get more than half of a
continent we throw the whole deal away and start again from the next bits of the same seeded
stream. Rejection sampling conditions the uniform deal on D-50, so every valid deal is equally
likely; "repairing" a bad deal by swapping cards would favour some deals over others
(tests/engine/test_deal.py shows the difference). We deal the tightest continents first and
check after every territory, so a deal bound to fail is usually abandoned after a few draws:
a D-50 deal costs about twice a plain one at 4–6 players (benchmarks/engine_core.py). With 3
players only ~14% of deals are valid, so there we count the valid deals continent by
continent instead and draw one of them directly (:class:`_CountingPlan`) — also exactly
uniform, with no rejection at all.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from math import factorial

from engine.board import Board
from engine.rng import SeededRng
from engine.rulesets import RuleSet, get_ruleset
from engine.violations import EngineError, Violation

MAX_ATTEMPTS = 100_000  # far beyond need: at 4 players ~43% of deals are valid, more at 5–6


def deal_sequence(players: int, cards: int, order: str = "counterclockwise_from_last") -> list[int]:
    """The seat receiving each card in turn (D-DEAL).

    ``counterclockwise_from_last`` (the classic rulebook): the first player deals, starting with the player
    to their right — seat N — and going N, N−1, …, 1, N, …; ``clockwise_from_seat2`` (seed
    004): 2, 3, …, N, 1, 2, …
    """
    if players < 1:
        raise EngineError.coded("T-SIZE", "deal.no_players", players=players)
    if order == "counterclockwise_from_last":
        cycle = list(range(players, 0, -1))
    elif order == "clockwise_from_seat2":
        cycle = [*range(2, players + 1), 1] if players > 1 else [1]
    else:
        raise EngineError.coded("FORMAT", "deal.unknown_order", order=order)
    return [cycle[i % players] for i in range(cards)]


def territories_per_seat(players: int, cards: int, order: str = "counterclockwise_from_last") -> dict[int, int]:
    counts = dict.fromkeys(range(1, players + 1), 0)
    for seat in deal_sequence(players, cards, order):
        counts[seat] += 1
    return counts


def continent_caps(board: Board, share: float | None) -> dict[str, int]:
    """D-50: most territories of each continent one player may receive."""
    if share is None:
        return {name: len(c.territories) for name, c in board.continents.items()}
    return {name: int(len(c.territories) * share + 1e-9) for name, c in board.continents.items()}


def _rules(rs: RuleSet | None) -> RuleSet:
    return rs if rs is not None else get_ruleset("RTU")


def _check_feasible(board: Board, players: int, caps: Mapping[str, int], quotas: Mapping[int, int]) -> None:
    for name, c in board.continents.items():
        if caps[name] * players < len(c.territories):
            raise EngineError.coded("D-50", "deal.continent_impossible", players=players, most=caps[name],
                                    continent=name, n=len(c.territories))
    if max(quotas.values()) > sum(caps.values()):
        raise EngineError.coded("D-50", "deal.limits_impossible", players=players)


Layout = tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...], tuple[tuple[int, int], ...]]
_LAYOUT: dict[str, tuple[Board, Layout]] = {}


def _layout(board: Board) -> Layout:
    """Territories in dealing order (tightest continents first), their continent index, the
    continents, and each continent's (first, past-the-end) index in that order.

    Cached per map. Europa and Nord America come first: a D-50 breach most often shows there,
    so a deal that will be rejected is usually rejected after a handful of cards; the largest
    continent (Asia) comes last, where the places left already decide it (see _shuffled_deal).
    """
    cached = _LAYOUT.get(board.id)
    if cached is not None and cached[0] is board:
        return cached[1]

    def tightness(name: str) -> tuple[float, int, str]:
        size = len(board.continents[name].territories)
        return (size // 2 / size, size, name)

    continents = tuple(sorted(board.continents, key=tightness))
    index = {name: i for i, name in enumerate(continents)}
    order = tuple(t for c in continents for t in board.continents[c].territories)
    continent_of = tuple(index[board.territories[t].continent] for t in order)
    starts = [k for k, c in enumerate(continent_of) if k == 0 or continent_of[k - 1] != c]
    blocks = tuple(zip(starts, [*starts[1:], len(order)], strict=True))
    layout = (order, continent_of, continents, blocks)
    _LAYOUT[board.id] = (board, layout)
    return layout


def _shuffled_deal(
    board: Board, sequence: list[int], rng: SeededRng, caps: Mapping[str, int] | None
) -> dict[str, int] | None:
    """One uniformly random deal with the seat counts of ``sequence``; None on a D-50 breach.

    Dealing a shuffled deck to the seats in ``sequence`` is the same as giving each territory,
    in any fixed order, a uniformly random one of the seats' remaining places; we do the latter,
    territory by territory, so a breach is seen as early as possible.
    """
    order, _, continents, blocks = _layout(board)
    n = len(order)
    places = list(sequence)
    randbelow = rng.randbelow
    if caps is None:
        for k in range(n - 1):
            j = k + randbelow(n - k)
            places[k], places[j] = places[j], places[k]
        return dict(zip(order, places, strict=True))
    cap = [caps[c] for c in continents]
    seats = range(1, max(sequence) + 1)
    empty = [0] * (max(sequence) + 1)
    for c, (start, end) in enumerate(blocks):
        room = sum(cap[c:])
        if c and n - start > room:
            # a seat with more places left than the caps of the continents still to deal cannot
            # avoid a breach: reject now (for the last continent this decides it outright)
            rest = places[start:]
            if any(rest.count(seat) > room for seat in seats):
                return None
        held = empty[:]
        limit = cap[c]
        for k in range(start, end):
            j = k + randbelow(n - k)
            seat = places[j]
            places[j] = places[k]
            places[k] = seat
            held[seat] += 1
            if held[seat] > limit:
                return None
    return dict(zip(order, places, strict=True))


_PLANS: dict[tuple[int, int, str, float | None], tuple[Board, list[int], dict[str, int] | None]] = {}


def _plan(board: Board, players: int, rs: RuleSet) -> tuple[list[int], dict[str, int] | None]:
    """Deal order and continent caps for this table (cached: a deal's fixed costs matter)."""
    key = (id(board), players, rs.deal_order, rs.deal_max_continent_share)
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is board:
        return cached[1], cached[2]
    sequence = deal_sequence(players, len(board.names), rs.deal_order)
    caps = None
    if rs.deal_max_continent_share is not None:
        caps = continent_caps(board, rs.deal_max_continent_share)
        _check_feasible(board, players, caps, territories_per_seat(players, len(board.names), rs.deal_order))
    _PLANS[key] = (board, sequence, caps)
    return sequence, caps


# Up to this many players the deal is drawn by counting (below); above, by rejection. Both give
# every valid deal the same probability; counting wins when few deals are valid (3 players:
# ~14%), rejection when many are and the counting tables would be large (5–6 players).
COUNTING_MAX_PLAYERS = 3


class _CountingPlan:
    """Exact sampler: the number of valid deals, continent by continent, for a table.

    ``ways(i, left)`` = how many ways continents i.. can be dealt when the seats still have
    ``left`` places; a deal picks each continent's counts per seat with probability
    proportional to (ways of placing those counts in the continent) × (ways for the rest),
    then shuffles the continent's territories among those seats: uniform over valid deals.
    """

    def __init__(self, board: Board, caps: Mapping[str, int], quotas: Mapping[int, int]):
        self.continents = tuple(board.continents)
        self.territories = tuple(board.continents[c].territories for c in self.continents)
        self.caps = tuple(caps[c] for c in self.continents)
        self.start = tuple(quotas[s] for s in sorted(quotas))
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def _splits(self, i: int, left: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every way to split continent i's territories among the seats within caps and places."""
        n, cap = len(self.territories[i]), self.caps[i]
        out: list[tuple[int, ...]] = []

        def extend(prefix: tuple[int, ...], remaining: int) -> None:
            seat = len(prefix)
            if seat == len(left) - 1:
                if remaining <= min(cap, left[seat]):
                    out.append((*prefix, remaining))
                return
            for x in range(min(cap, left[seat], remaining) + 1):
                extend((*prefix, x), remaining - x)

        extend((), n)
        return out

    def _weight(self, i: int, left: tuple[int, ...], split: tuple[int, ...]) -> int:
        arrangements = factorial(len(self.territories[i]))
        for x in split:
            arrangements //= factorial(x)
        return arrangements * self.ways(i + 1, tuple(a - x for a, x in zip(left, split, strict=True)))

    def ways(self, i: int, left: tuple[int, ...]) -> int:
        if i == len(self.continents):
            return 0 if any(left) else 1
        key = (i, left)
        if key not in self._ways:
            self._ways[key] = sum(self._weight(i, left, split) for split in self._splits(i, left))
        return self._ways[key]

    def choices(self, i: int, left: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (i, left)
        if key not in self._choices:
            splits: list[tuple[int, ...]] = []
            cumulative: list[int] = []
            total = 0
            for split in self._splits(i, left):
                weight = self._weight(i, left, split)
                if weight:
                    total += weight
                    splits.append(split)
                    cumulative.append(total)
            self._choices[key] = (splits, cumulative)
        return self._choices[key]

    def draw(self, rng: SeededRng) -> dict[str, int]:
        left = self.start
        owners: dict[str, int] = {}
        for i, territories in enumerate(self.territories):
            splits, cumulative = self.choices(i, left)
            if not cumulative:
                raise EngineError.coded("D-50", "deal.limits_unmet")
            split = splits[bisect_right(cumulative, rng.randbelow(cumulative[-1]))]
            seats = [seat for seat, x in enumerate(split, start=1) for _ in range(x)]
            rng.shuffle(seats)
            owners.update(zip(territories, seats, strict=True))
            left = tuple(a - x for a, x in zip(left, split, strict=True))
        return owners


_COUNTING: dict[tuple[int, int, str, float | None], tuple[Board, _CountingPlan]] = {}


def _counting_plan(board: Board, players: int, rs: RuleSet, caps: Mapping[str, int]) -> _CountingPlan:
    key = (id(board), players, rs.deal_order, rs.deal_max_continent_share)
    cached = _COUNTING.get(key)
    if cached is None or cached[0] is not board:
        quotas = territories_per_seat(players, len(board.names), rs.deal_order)
        cached = (board, _CountingPlan(board, caps, quotas))
        _COUNTING[key] = cached
    return cached[1]


def deal(board: Board, players: int, seed: str, rs: RuleSet | None = None) -> dict[str, int]:
    """A deal (territory → seat, 1-based) for ``players`` from ``seed``; D-50 when the rule set asks."""
    rs = _rules(rs)
    sequence, caps = _plan(board, players, rs)
    rng = SeededRng(seed, stream="deal")
    if caps is not None and players <= COUNTING_MAX_PLAYERS:
        return _in_board_order(board, _counting_plan(board, players, rs, caps).draw(rng))
    for _ in range(MAX_ATTEMPTS if caps is not None else 1):
        owners = _shuffled_deal(board, sequence, rng, caps)
        if owners is not None:
            return _in_board_order(board, owners)
    raise EngineError.coded("D-50", "deal.not_found", players=players, attempts=MAX_ATTEMPTS)


def plain_deal(board: Board, players: int, seed: str, rs: RuleSet | None = None) -> dict[str, int]:
    """The same draw without D-50 (the benchmark's baseline)."""
    sequence, _ = _plan(board, players, _rules(rs))
    owners = _shuffled_deal(board, sequence, SeededRng(seed, stream="deal"), None)
    assert owners is not None
    return _in_board_order(board, owners)


def _in_board_order(board: Board, owners: Mapping[str, int]) -> dict[str, int]:
    return {name: owners[name] for name in board.names}


def check_deal(board: Board, owners: Mapping[str, int], players: int, rs: RuleSet | None = None) -> list[tuple[str, str]]:
    """Every way a recorded deal breaks D-DEAL or D-50, as (rule id, message)."""
    return [(v.rule, v.message) for v in deal_problems(board, owners, players, rs)]


def deal_problems(board: Board, owners: Mapping[str, int], players: int, rs: RuleSet | None = None) -> list[Violation]:
    """Every way a recorded deal breaks D-DEAL or D-50, each with its message code."""
    rs = _rules(rs)
    problems: list[Violation] = []
    unknown = sorted(t for t in owners if t not in board.territories)
    if unknown:
        problems.append(Violation.coded(None, "FORMAT", "deal.unknown_territories", territories=unknown))
    missing = [t for t in board.names if t not in owners]
    if missing:
        problems.append(Violation.coded(None, "D-DEAL", "deal.unowned", n=len(missing), territories=missing))
    bad_seats = sorted({s for s in owners.values() if not (isinstance(s, int) and 1 <= s <= players)}, key=str)
    if bad_seats:
        problems.append(Violation.coded(None, "D-DEAL", "deal.bad_seats", seats=bad_seats, players=players))
        return problems
    expected = territories_per_seat(players, len(board.names), rs.deal_order)
    got = dict.fromkeys(range(1, players + 1), 0)
    for t, seat in owners.items():
        if t in board.territories:
            got[seat] += 1
    if not missing and not unknown and got != expected:
        problems.extend(Violation.coded(None, "D-DEAL", "deal.wrong_count", seat=s, n=got[s], expected=expected[s])
                        for s in expected if got[s] != expected[s])
    if rs.deal_max_continent_share is not None:
        caps = continent_caps(board, rs.deal_max_continent_share)
        for name, c in board.continents.items():
            for seat in range(1, players + 1):
                n = sum(1 for t in c.territories if owners.get(t) == seat)
                if n > caps[name]:
                    problems.append(Violation.coded(None, "D-50", "deal.continent_share", seat=seat, n=n,
                                                    continent=name, most=caps[name]))
    return problems
