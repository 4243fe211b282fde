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
    return tuple(x + y for x, y in zip(a, b, strict=True)) if b else a


Step = tuple[tuple[int, ...], frozenset[int]]  # a table's players, and the carry it leaves


class _Plan:
    """The dynamic programme: states are (table, carry), built forward layer by layer, valued
    backward (no recursion, so thousands of tables are fine)."""

    def __init__(self, order: Sequence[int], sizes: Sequence[int], table_cost: TableCost) -> None:
        self.sizes, self.table_cost = list(sizes), table_cost
        self.home = blocks(order, sizes)
        self.rank = {x: i for i, x in enumerate(order)}
        self.count = len(sizes)
        self.by_block: list[list[int]] = [[] for _ in sizes]
        for x in order:
            self.by_block[self.home[x]].append(x)
        # at most half a table (rounded up) crosses each boundary: the blocks stay the tables' core
        self.costs: dict[tuple[int, frozenset[int]], Cost] = {}
        self.cross = [max(1, (min(sizes[t], sizes[t + 1]) + 1) // 2) if t + 1 < self.count else 0
                      for t in range(self.count)]

    def cost_of(self, t: int, members: tuple[int, ...]) -> Cost:
        key = (t, frozenset(members))  # the same table is reached from many states
        if key not in self.costs:
            moves = sum(abs(t - self.home[x]) for x in members)
            self.costs[key] = (*self.table_cost(t, members), moves)
        return self.costs[key]

    def steps(self, t: int, carry: frozenset[int]) -> list[Step]:
        """Every way to fill table t from ``carry`` (what is left of blocks t−1 and t) and block
        t+1: block t−1's leftovers must sit here (their last chance). Tried in standings order,
        the better-ranked of block t staying first."""
        ranked = sorted(carry, key=self.rank.__getitem__)
        must = tuple(x for x in ranked if self.home[x] < t)
        own = [x for x in ranked if self.home[x] == t]
        below = self.by_block[t + 1] if t + 1 < self.count else []
        need = self.sizes[t] - len(must)
        free = frozenset(own) | frozenset(below)
        out: list[Step] = []
        for up in range(min(need, len(below), self.cross[t]) + 1):  # block t+1 moving up
            if need - up > len(own):
                continue
            for staying in combinations(own, need - up):
                for rising in combinations(below, up):
                    out.append((must + staying + rising, free - frozenset(staying + rising)))
        return out

    def layers(self) -> list[dict[frozenset[int], list[Step]]]:
        """Forward: the carries each table can be reached with, and their steps."""
        out: list[dict[frozenset[int], list[Step]]] = []
        reached = {frozenset(self.by_block[0])}
        for t in range(self.count):
            layer = {carry: self.steps(t, carry) for carry in reached}
            out.append(layer)
            reached = {after for steps in layer.values() for _members, after in steps}
        return out

    def solve(self) -> tuple[list[tuple[int, ...]], Cost]:
        """Backward: the least cost from each state on (lexicographic vectors), then the
        tables from the start."""
        layers = self.layers()
        value: dict[frozenset[int], tuple[Cost, Step | None]] = {frozenset(): ((), None)}
        chosen: list[dict[frozenset[int], tuple[Cost, Step | None]]] = [{} for _ in layers]
        for t in range(self.count - 1, -1, -1):
            here: dict[frozenset[int], tuple[Cost, Step | None]] = {}
            for carry, steps in layers[t].items():
                for step in steps:
                    rest = value.get(step[1])
                    if rest is None:
                        continue
                    total = _add(self.cost_of(t, step[0]), rest[0])
                    if carry not in here or total < here[carry][0]:
                        here[carry] = (total, step)
            chosen[t], value = here, here
        carry, tables = frozenset(self.by_block[0]), []
        total = chosen[0][carry][0]  # straight fill is always possible
        for t in range(self.count):
            taken = chosen[t][carry][1]
            assert taken is not None
            tables.append(taken[0])
            carry = taken[1]
        return tables, total


def swiss_tables(order: Sequence[int], sizes: Sequence[int], table_cost: TableCost) -> SwissPairing:
    """The best tables for players ``order`` (best standing first) at tables of ``sizes``, each
    player at most one table from their block, by ``table_cost(t, players)`` (a vector, lower is
    better) and then by the fewest moves."""
    plan = _Plan(order, sizes, table_cost)
    tables, total = plan.solve()
    home = plan.home
    moved = tuple((x, home[x], t) for t, members in enumerate(tables) for x in members if home[x] != t)
    return SwissPairing(tuple(tables), home, total, moved)
