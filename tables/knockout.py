"""Knock-out planning: K-KO (direct elimination) and K-KO-RCU (the clubs' semifinal practice).

Pure Python (no Django). Who sits where inside a round is still :func:`tables.seating.compose`;
this module only says how many tables of which size each round has and who goes on.

K-KO: each table's winner goes to the next round, and the rounds are planned *back from the
final*: the final has ``final_size`` players, so the round before has that many tables, and so
on until the entrants fit. Seed 000's example: 100 players, final of 5 → 20 tables of 5, then 5
tables of 4, then the final. When no chain of tables of 4 and 5 fits exactly (e.g. 30 players,
final of 5), the plan fills the missing seats of the next round with the best runners-up
("ripescaggio", as K-KO-RCU does for an empty final seat), using as few as possible.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from tables.seating import UNCOVERABLE, Reason, SeatingError, table_sizes
from tournaments.formats.presets import FIXED_SEMIFINALS, KNOCKOUTS, RCU_THRESHOLDS

MAX_BEST_LOSERS = 5  # per round; more would not be a knock-out any more
# Far above any real event (the largest Italian ones have a few hundred players); the planner's
# work grows with the entrants, and the plan is a public GET: ?entrants=10**9 must not hang it.
MAX_ENTRANTS = 10_000


def _reason(code: str, **params: object) -> Reason:
    return {"code": code, "params": params}


def _refused(rule: str, code: str, options: Sequence[Reason] = (), **params: object) -> SeatingError:
    """A refusal by its code (tables.seating.SIZE_TEXTS): English here, the page's language on
    the pages (tables/seating_text.py)."""
    return SeatingError.coded(rule, _reason(code, **params), options)


@dataclass(frozen=True)
class KnockoutRound:
    number: int  # 1 = first round; the last round is the final
    players: int
    tables: tuple[int, ...]  # table sizes
    winners: int  # table winners who go on (= number of tables)
    best_losers: int  # best runners-up who also go on (ripescaggio); 0 in the final

    @property
    def is_final(self) -> bool:
        return len(self.tables) == 1 and self.best_losers == 0 and self.winners == 1

    @property
    def advancing(self) -> int:
        return self.winners + self.best_losers


@dataclass(frozen=True)
class KnockoutPlan:
    entrants: int
    final_size: int
    rounds: tuple[KnockoutRound, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "entrants": self.entrants,
            "final_size": self.final_size,
            "rounds": [
                {"number": r.number, "players": r.players, "tables": list(r.tables),
                 "winners": r.winners, "best_losers": r.best_losers}
                for r in self.rounds
            ],
        }


def _split(players: int, tables: int) -> tuple[int, ...]:
    """``tables`` tables of 4 and 5 seating exactly ``players`` (fours first)."""
    fives = players - 4 * tables
    return (4,) * (tables - fives) + (5,) * fives


def plan_knockout(entrants: int, final_size: int = 5, prefer: str = "fives") -> KnockoutPlan:
    """Rounds of a K-KO event: fewest rounds, then fewest best runners-up needed, then the
    organizer's ``prefer`` ("fives": fewer, fuller tables in the early rounds)."""
    if final_size not in (4, 5):
        raise _refused("T-SIZE", "knockout.final_size", size=final_size)
    if prefer not in ("fives", "fours"):
        raise _refused("K-KO", "knockout.unknown_choice", choice=prefer, known="fives, fours")
    if entrants > MAX_ENTRANTS:
        raise _refused("K-KO", "knockout.too_many", most=MAX_ENTRANTS, count=entrants)
    if entrants < final_size:
        option = _reason("option.final_of", count=entrants) if entrants in (4, 5) else _reason("option.more_players")
        raise _refused("K-KO", "knockout.final_unfilled", [option], count=entrants, size=final_size)

    if entrants in UNCOVERABLE:
        table_sizes(entrants)  # raises with the organizer's options (K-TABLES)

    @cache
    def best(players: int) -> tuple[int, int, int, tuple[tuple[int, int], ...]] | None:
        """(rounds, best losers, table-count key, [(tables, best_losers) per round])."""
        if players == final_size:
            return (1, 0, 0, ((1, 0),))
        found = None
        for tables in range(-(-players // 5), players // 4 + 1):
            if tables < 2:
                continue  # one table before the final would only replay the final
            for extra in range(0, MAX_BEST_LOSERS + 1):
                following = tables + extra
                if following >= players or extra > players - tables:
                    break
                rest = best(following)
                if rest is None:
                    continue
                key_tables = tables if prefer == "fives" else -tables
                candidate = (rest[0] + 1, rest[1] + extra, key_tables,
                             ((tables, extra),) + rest[3])
                if found is None or candidate[:3] < found[:3]:
                    found = candidate
        return found

    chain = best(entrants)
    if chain is None:
        raise _refused("K-KO", "knockout.no_chain",
                       [_reason("option.other_final_size"), _reason("option.qualifier_first")],
                       count=entrants, size=final_size)
    rounds, players = [], entrants
    for number, (tables, extra) in enumerate(chain[3], start=1):
        sizes = _split(players, tables)
        rounds.append(KnockoutRound(number, players, sizes, tables, extra))
        players = tables + extra
    return KnockoutPlan(entrants, final_size, tuple(rounds))


def advance(
    plan: KnockoutPlan,
    round_number: int,
    winners: Sequence[int],
    runners_up: Sequence[int] = (),
) -> list[int]:
    """Players of the next round: the table winners of round ``round_number`` plus, when the
    plan asks for them, the best runners-up in the order given (best first — the caller ranks
    them by table position, then by standing, as K-KO-RCU's ripescaggio does)."""
    if not 1 <= round_number < len(plan.rounds):
        raise _refused("K-KO", "knockout.no_next_round", round=round_number)
    current = plan.rounds[round_number - 1]
    if len(winners) != current.winners or len(set(winners)) != len(winners):
        raise _refused("K-KO", "knockout.winners", round=round_number, tables=current.winners, got=len(winners))
    fill = [p for p in runners_up if p not in set(winners)]
    if len(fill) < current.best_losers:
        raise _refused("K-KO", "knockout.runners_up", round=round_number, due=current.best_losers, got=len(fill))
    return list(winners) + fill[: current.best_losers]


# --------------------------------------------------------------------------------------------
# K-KO-RCU: semifinals by entrants (data), checked against the clubs' desktop tool

# The thresholds of each knock-out kind belong to the format (tournaments.formats.RCU_THRESHOLDS).
RCU_MIN_PLAYERS = 10  # a small event needs at least 10 active players
BAND = 4  # each semifinal takes one player from each band of four in the standings


@dataclass(frozen=True)
class RcuPlan:
    entrants: int
    kind: str
    small: bool  # semifinals decided by results (rcu_small_semifinals)
    semifinals: int  # 0 when small: see rcu_small_semifinals
    semifinalists: int
    finals: int  # parallel finals (= winners of the event's classes)


def rcu_plan(entrants: int, kind: str = "raduno") -> RcuPlan:
    """Semifinals and parallel finals by entrants who played both qualifying games. A kind with
    fixed semifinals (K-KO-SE, Sant'Eufemia: 4) plays them whatever the entrants, from the top
    4 × semifinals still playing, and one final."""
    if kind in FIXED_SEMIFINALS:
        semis = FIXED_SEMIFINALS[kind]
        if entrants < BAND * semis:
            raise _refused("K-KO-SE", "knockout.too_few", count=entrants, least=BAND * semis)
        return RcuPlan(entrants, kind, False, semis, BAND * semis, 1)
    if kind not in RCU_THRESHOLDS:
        raise _refused("K-KO-RCU", "knockout.unknown_choice", choice=kind, known=", ".join(KNOCKOUTS))
    thresholds = RCU_THRESHOLDS[kind]
    if entrants <= thresholds[0]:
        if entrants < RCU_MIN_PLAYERS:
            raise _refused("K-KO-RCU", "knockout.too_few", count=entrants, least=RCU_MIN_PLAYERS)
        return RcuPlan(entrants, kind, True, 0, 0, 1)
    finals = sum(1 for t in thresholds if entrants > t)
    return RcuPlan(entrants, kind, False, 4 * finals, 4 * BAND * finals, finals)


@dataclass(frozen=True)
class SmallSemis:
    semifinals: int
    direct_to_final: int  # leaders who skip the semifinals
    first_place: int  # standings positions that play the semifinals, inclusive
    last_place: int


def rcu_small_semifinals(
    wins: Sequence[int], points: Sequence[float], withdrawn: Sequence[bool] = ()
) -> SmallSemis:
    """Small events (K-KO-RCU): 2, 3 or 4 semifinals from the top three after the qualifiers.
    ``wins``/``points``/``withdrawn`` are for standings positions 1, 2, 3.

    * 1st and 2nd both won both games and 2nd is strictly ahead of 3rd → 2 semifinals, places
      3–10 play, 1st and 2nd go straight to the final;
    * only 1st won both, or 2nd and 3rd are tied → 3 semifinals, places 2–13, 1st goes straight;
    * otherwise (1st has fewer than 2 wins, 1st–2nd–3rd tied, 1st or 2nd withdrew) → 4
      semifinals of the top 16.
    """
    if len(wins) < 3 or len(points) < 3:
        raise _refused("K-KO-RCU", "knockout.top_three")
    out = list(withdrawn) + [False] * (3 - len(withdrawn))
    all_tied = points[0] == points[1] == points[2]
    if wins[0] < 2 or all_tied or out[0] or out[1]:
        return SmallSemis(4, 0, 1, 16)
    if wins[1] >= 2 and points[1] > points[2]:
        return SmallSemis(2, 2, 3, 10)
    return SmallSemis(3, 1, 2, 13)


def rcu_classes(standings: Sequence[int], finals: int) -> list[list[int]]:
    """Split the semifinalists (standings order) into ``finals`` parallel classes: positions 1,
    1+k, 1+2k… form class 1, and so on."""
    return [list(standings[c::finals]) for c in range(finals)]


def rcu_bands(class_players: Sequence[int]) -> list[list[int]]:
    """Bands of four in standings order; each semifinal takes one player of each band (club
    separation first: compose with priorities ("club_apart", "region_apart") and the band as
    the region)."""
    return [list(class_players[i:i + BAND]) for i in range(0, len(class_players), BAND)]


# --------------------------------------------------------------------------------------------
# K-KO-RCU: who plays which semifinal, and who sits in the final(s)

@dataclass(frozen=True)
class RcuSemifinals:
    """The semifinal phase after the qualifiers: ``tables[c]`` are class c's semifinal tables
    (player ids, one of each band), ``direct[c]`` the players who go straight to class c's final."""

    plan: RcuPlan
    semifinals: int
    tables: tuple[tuple[tuple[int, ...], ...], ...]
    direct: tuple[tuple[int, ...], ...]
    club_clashes: int  # same-club pairs left at a semifinal table (0 when the clubs allow)

    def as_dict(self) -> dict[str, object]:
        return {
            "entrants": self.plan.entrants, "kind": self.plan.kind, "small": self.plan.small,
            "semifinals": self.semifinals, "finals": self.plan.finals,
            "classes": [{"tables": [list(t) for t in tables], "direct": list(direct)}
                        for tables, direct in zip(self.tables, self.direct, strict=True)],
            "club_clashes": self.club_clashes,
        }


def _clashes(table: Sequence[int], clubs: Mapping[int, str | None]) -> int:
    seen = [clubs.get(p) for p in table if clubs.get(p)]
    return len(seen) - len(set(seen))


def band_tables(players: Sequence[int], tables: int, clubs: Mapping[int, str | None]) -> list[list[int]]:
    """Seat ``players`` (standings order) at ``tables`` semifinal tables: the bands are
    consecutive runs of ``tables`` players; every table takes one player of each band (the best
    band spread 1, 2, 3… over the tables), and each later band is laid out so that as few
    same-club pairs as possible meet (club separation first, K-KO-RCU). Deterministic: among
    equally good layouts the one closest to standings order wins."""
    from itertools import permutations

    if len(players) != 4 * tables:
        raise _refused("K-KO-RCU", "knockout.semifinal_players", tables=tables, need=4 * tables, count=len(players))
    seated: list[list[int]] = [[p] for p in players[:tables]]
    for start in range(tables, len(players), tables):
        band = players[start:start + tables]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for perm in permutations(range(tables)) if tables <= 6 else [tuple(range(tables))]:
            cost = sum(_clashes([*seated[t], band[perm[t]]], clubs) for t in range(tables))
            moved = sum(1 for t in range(tables) if perm[t] != t)
            if best is None or (cost, moved) < best[:2]:
                best = (cost, moved, perm)
        assert best is not None
        for t in range(tables):
            seated[t].append(band[best[2][t]])
    return seated


def rcu_semifinals(
    standings: Sequence[int],
    kind: str = "raduno",
    *,
    clubs: Mapping[int, str | None] | None = None,
    wins: Mapping[int, int] | None = None,
    points: Mapping[int, float] | None = None,
    withdrawn: Collection[int] = (),
) -> RcuSemifinals:
    """The semifinal phase of a K-KO-RCU event from the standings after the two qualifiers
    (player ids, best first, withdrawn players included so positions stay those of the
    standings). Large events: the semifinalists split into parallel classes (positions 1, 1+k…),
    4 semifinals each. Small events: 2, 3 or 4 semifinals by the leaders' results
    (:func:`rcu_small_semifinals`), the leaders who won both games going straight to the final."""
    clubs = clubs or {}
    out = set(withdrawn)
    active = [p for p in standings if p not in out]
    plan = rcu_plan(len(active), kind)
    if plan.small:
        wins = wins or {}
        points = points or {}
        top = list(standings[:3])
        rule = rcu_small_semifinals([wins.get(p, 0) for p in top], [points.get(p, 0.0) for p in top],
                                    [p in out for p in top])
        direct = tuple(p for p in standings[:rule.direct_to_final])
        playing = [p for p in standings[rule.first_place - 1:] if p not in out][:4 * rule.semifinals]
        if len(playing) < 4 * rule.semifinals:
            raise _refused("K-KO-RCU", "knockout.semifinal_players", tables=rule.semifinals,
                           need=4 * rule.semifinals, count=len(playing))
        tables = band_tables(playing, rule.semifinals, clubs)
        return RcuSemifinals(plan, rule.semifinals, (tuple(tuple(t) for t in tables),), (direct,),
                             sum(_clashes(t, clubs) for t in tables))
    chosen = active[:plan.semifinalists]
    classes = rcu_classes(chosen, plan.finals)
    per_class = [band_tables(c, 4, clubs) for c in classes]
    return RcuSemifinals(
        plan, plan.semifinals, tuple(tuple(tuple(t) for t in c) for c in per_class),
        tuple(() for _ in classes), sum(_clashes(t, clubs) for c in per_class for t in c),
    )


def rcu_finalists(
    semifinal_results: Sequence[Sequence[int]],
    direct: Sequence[int] = (),
    *,
    standings: Sequence[int] = (),
    withdrawn: Collection[int] = (),
    final_size: int = 4,
) -> list[int]:
    """One class's final: the direct qualifiers, then the best-placed non-withdrawn player of each
    semifinal (``semifinal_results``: each table's finishing order, winner first). A seat still
    empty goes to the best semifinal loser ("ripescaggio"): best table position first, then the
    standings after the qualifiers."""
    out = set(withdrawn)
    final = [p for p in direct if p not in out]
    for table in semifinal_results:
        winner = next((p for p in table if p not in out), None)
        if winner is not None:
            final.append(winner)
    position = {p: i for i, p in enumerate(standings)}
    losers = sorted(
        ((place, position.get(p, len(position)), p) for table in semifinal_results
         for place, p in enumerate(table) if p not in out and p not in final),
    )
    for _place, _pos, p in losers:
        if len(final) >= final_size:
            break
        final.append(p)
    return final[:final_size]
