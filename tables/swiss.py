"""Swiss pairing by standings (K-SWISS): the tables of a round from the standings, the
standings groups kept, rematches and club-mates avoided wherever the standings allow.

Pure Python (no Django); :func:`tables.seating.compose` calls :func:`swiss_tables` for the
``swiss`` seeding and passes the cost of one table (its priorities, in the organizer's order).

The clubs' desktop tool fills table 1 with the four leaders, table 2 with the next four, and so
on, and never repairs: club-mates and rematches sit together whenever the standings put them
side by side. Here the same blocks are the starting point and the limit:

* **the groups are kept**: the player whose standing falls in block *b* (the table that straight
  fill gives them) sits at table *b − 1*, *b* or *b + 1*, never further (a player moves at most
  one table up or down, as a Swiss "float");
* **within that limit the pairing is the best there is**, not a repair: an exact dynamic
  programme over the tables in order. Before table *t* every player of block *t − 2* or above is
  seated; what is left of blocks *t − 1* and *t* (the *carry*) is the whole state. Block *t − 1*'s
  leftovers must sit at table *t* (their last chance); the rest of the seats go to block *t*'s
  leftovers and block *t + 1*. Each table's cost is a vector (the organizer's priorities, e.g.
  repeated opponents, then same-club pairs), plus how far its players moved from their block;
  vectors add up and compare lexicographically, so no gain on a lower priority buys a loss on a
  higher one, and among equally good pairings the one with the fewest moves wins;
* **deterministic and explainable**: among pairings of equal cost the first in standings order
  wins (fewest moves first, then the better-ranked keep their table); the result lists who moved
  from their block, from where to where, so a page can say why.

The number of states is at most the subsets of two blocks (2⁸ with tables of 4), so a round of
hundreds of players is planned in well under a second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

Cost = tuple[int, ...]
TableCost = Callable[[int, tuple[int, ...]], Cost]


@dataclass(frozen=True)
class SwissPairing:
    tables: tuple[tuple[int, ...], ...]  # players (as given in ``order``) at each table
    home: dict[int, int]  # player → the table straight fill gives them (their block)
    cost: Cost  # the table costs summed, then the moves
    moved: tuple[tuple[int, int, int], ...]  # (player, block, table) for each player who moved


def blocks(order: Sequence[int], sizes: Sequence[int]) -> dict[int, int]:
    """Each player's block: the table straight fill by standings gives them (GT's seating)."""
    if len(order) != sum(sizes):
        raise ValueError(f"{len(order)} players for tables seating {sum(sizes)}")
    home, pos = {}, 0
    for t, size in enumerate(sizes):
        for x in order[pos:pos + size]:
            home[x] = t
        pos += size
    return home


def _add(a: Cost, b: Cost) -> Cost:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def swiss_tables(order: Sequence[int], sizes: Sequence[int], table_cost: TableCost) -> SwissPairing:
    """The best tables for players ``order`` (best standing first) at tables of ``sizes``, each
    player at most one table from their block, by ``table_cost(t, players)`` (a vector, lower is
    better) and then by the fewest moves."""
    home = blocks(order, sizes)
    rank = {x: i for i, x in enumerate(order)}
    by_block: list[list[int]] = [[] for _ in sizes]
    for x in order:
        by_block[home[x]].append(x)
    count = len(sizes)
    # at most half a table crosses each boundary each way: the blocks stay the tables' core
    cross = [max(1, (min(sizes[t], sizes[t + 1]) + 1) // 2) if t + 1 < count else 0 for t in range(count)]

    def order_of(players: frozenset[int]) -> list[int]:
        return sorted(players, key=rank.__getitem__)

    memo: dict[tuple[int, frozenset[int]], tuple[Cost, tuple[int, ...] | None] | None] = {}
    cost_cache: dict[tuple[int, tuple[int, ...]], Cost] = {}

    def cost_of(t: int, members: tuple[int, ...]) -> Cost:
        key = (t, members)
        if key not in cost_cache:
            moves = sum(abs(t - home[x]) for x in members)
            cost_cache[key] = (*table_cost(t, members), moves)
        return cost_cache[key]

    def best(t: int, carry: frozenset[int]) -> tuple[Cost, tuple[int, ...] | None] | None:
        """The least cost of seating tables t… given the players still unseated of blocks t−1
        and t (``carry``); None when they cannot all be seated within one table of their block."""
        if t == count:
            return ((), None) if not carry else None
        key = (t, carry)
        if key in memo:
            return memo[key]
        must = tuple(x for x in order_of(carry) if home[x] < t)
        own = [x for x in order_of(carry) if home[x] == t]
        below = by_block[t + 1] if t + 1 < count else []
        need = sizes[t] - len(must)
        free = frozenset(own) | frozenset(below)
        found: tuple[Cost, tuple[int, ...] | None] | None = None
        for up in range(min(need, len(below), cross[t]) + 1):  # players of block t+1 moving up
            if need - up > len(own):
                continue
            # the better-ranked stay first: among equal pairings the leaders keep their table
            for staying in combinations(own, need - up):
                for rising in combinations(below, up):
                    chosen = staying + rising
                    rest = best(t + 1, free - frozenset(chosen))
                    if rest is None:
                        continue
                    members = must + chosen
                    here = cost_of(t, members)
                    total = _add(here, rest[0]) if rest[0] else here
                    if found is None or total < found[0]:
                        found = (total, members)
        memo[key] = found
        return found

    tables: list[tuple[int, ...]] = []
    carry = frozenset(by_block[0])
    total: Cost = ()
    for t in range(count):
        step = best(t, carry)
        assert step is not None and step[1] is not None  # straight fill is always possible
        if t == 0:
            total = step[0]
        members = step[1]
        tables.append(members)
        carry = (carry | frozenset(by_block[t + 1] if t + 1 < count else ())) - frozenset(members)
    moved = tuple((x, home[x], t) for t, members in enumerate(tables) for x in members if home[x] != t)
    return SwissPairing(tuple(tables), home, total, moved)
