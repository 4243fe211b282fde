"""Scoring a final board: S-RTU with S-PLACE and S-TOURNAMENT, S-M1/M2/M3, S-TA, S-MEDIO.

A scoring system is a small frozen object in :data:`SCORING_SYSTEMS`: how a seat's game score is
computed, which tie-breaks order the places, and the place bonus added for tournament points.
The club formats (S-OPEN, S-RADUNO, S-MASTER, S-SPARTAC, S-GUFO, S-BGL) are registered the
same way: their game score is S-RTU's P, and their "Punti Torneo" come from the places through
the format's numbers (:mod:`engine.club_formats`).

Ranking (S-PLACE), the same for every system: a player who made the objective is first; the
other survivors follow by game score, then the system's tie-breaks (S-RTU: extra-objective
points, armies on the board, the later seat in turn order); eliminated players come after every
survivor, the one eliminated later ahead. With ``rs.shared_places`` a tie on game score is not
broken: the tied players share the best of their places and each gets the average of the
bonuses of the places they cover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from engine import club_formats
from engine.board import Board
from engine.endings import BOARD_ENDINGS, Ending, FinalBoard, FinalPlayer
from engine.exact import Number, decimal, fraction
from engine.exact import number as _number
from engine.objectives import Objective, objective_held
from engine.rulesets import RuleSet
from engine.violations import EngineError, Violation

__all__ = ["SCORING_SYSTEMS", "FinalBoard", "FinalPlayer", "SeatScore", "check_board", "score_game"]


@dataclass(frozen=True)
class SeatScore:
    seat: int
    game_score: Decimal
    extra_objective: int
    armies: int
    place: int
    tournament_points: Decimal  # exact (engine.exact): 7.2875 stays 7.2875
    tiebreak: str | None  # what decided the place against a tied rival, "shared", or None

    def as_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "game_score": _number(self.game_score),
            "extra_objective": self.extra_objective,
            "armies": self.armies,
            "place": _number(self.place),
            "tournament_points": _number(self.tournament_points),
            "tiebreak": self.tiebreak,
        }


@dataclass(frozen=True)
class Facts:
    """What every scoring system may look at, computed once per board."""

    board: Board
    rs: RuleSet
    players: tuple[FinalPlayer, ...]
    objectives: Mapping[str, Objective]
    owners: Mapping[str, int]
    armies: Mapping[str, int]
    ended_by: Ending
    winner: int | None  # the seat that met its objective (ended_by "objective"), else None
    held_points: Mapping[int, int]  # value of all territories each seat holds
    objective_points: Mapping[int, int]  # value of the held territories on the seat's own card
    armies_total: Mapping[int, int]
    armies_in_objective: Mapping[int, int]
    total_supremacy: bool = False  # S-MEDIO

    @property
    def table_size(self) -> int:
        return len(self.players)

    def extra(self, seat: int) -> int:
        return self.held_points[seat] - self.objective_points[seat]


@dataclass(frozen=True)
class ScoringSystem:
    id: str
    description: str
    game_score: Callable[[Facts, int], int]
    tiebreaks: tuple[str, ...] = ("extra_objective", "armies", "later_seat")
    place_bonus: Callable[[Facts], tuple[float, ...]] = field(default=lambda f: ())
    club: club_formats.ClubFormat | None = None  # a club format: Punti Torneo from P and places


def _objective_of(facts: Facts, seat: int) -> Objective | None:
    for p in facts.players:
        if p.seat == seat and p.objective is not None:
            return facts.objectives.get(p.objective)
    return None


def _card_territories(facts: Facts, seat: int) -> frozenset[str]:
    obj = _objective_of(facts, seat)
    return obj.territories if obj is not None else frozenset()


# ------------------------------------------------------------------ the systems
def _s_rtu(f: Facts, seat: int) -> int:
    """S-RTU: a fixed 100 for RisiKo!, else the values of the own card's territories held."""
    if f.winner == seat:
        return f.rs.objective_points_risiko
    return f.objective_points[seat]


def _s_m1(f: Facts, seat: int) -> int:
    """S-M1: all territories held, +50 to whoever met the objective before time."""
    return f.held_points[seat] + (50 if f.winner == seat else 0)


def _s_m2(f: Facts, seat: int) -> int:
    """S-M2: own objective's territories only; all territories for whoever met the objective.

    A classic card without territories (conquer 24, destroy a colour) counts every territory,
    since every territory serves it.
    """
    if f.winner == seat or not _card_territories(f, seat):
        return f.held_points[seat]
    return f.objective_points[seat]


def _s_m3(f: Facts, seat: int) -> int:
    """S-M3 on M1: plus one point per army on the board."""
    return _s_m1(f, seat) + f.armies_total[seat]


def _s_m3_m2(f: Facts, seat: int) -> int:
    """S-M3 on M2: plus one point per army inside the objective (all armies when M2 counts all)."""
    if f.winner == seat or not _card_territories(f, seat):
        return _s_m2(f, seat) + f.armies_total[seat]
    return _s_m2(f, seat) + f.armies_in_objective[seat]


def _s_ta(f: Facts, seat: int) -> int:
    """S-TA: victory points = values of all territories held (the objective still wins first)."""
    return f.held_points[seat]


def _medio_winner(f: Facts) -> int | None:
    if f.winner is not None:
        return f.winner
    alive = [p.seat for p in f.players if p.eliminated is None]
    if not alive:
        return None
    # no objective met: the most points held wins (then armies, then the later seat)
    return max(alive, key=lambda s: (f.held_points[s], f.armies_total[s], s))


def _s_medio(f: Facts, seat: int) -> int:
    """S-MEDIO (the Medioriente variant) for one game: the victory or loss factor, rounded down.

    Victory factor = points held × players / 2 (× 2 with total supremacy); loss factor = points
    held × players / 10 (halved after a total supremacy). A player's personal score over a
    series is the average of these per-game factors, computed by the tournament layer.
    """
    n = f.table_size
    points = f.held_points[seat]
    if seat == _medio_winner(f):
        return (points * n) // (1 if f.total_supremacy else 2)
    return (points * n) // (20 if f.total_supremacy else 10)


SCORING_SYSTEMS: Mapping[str, ScoringSystem] = MappingProxyType(
    {
        s.id: s
        for s in (
            ScoringSystem(
                "S-RTU",
                "RTU: objective points (RisiKo! = 100) + 30/15/5 for places 1-3",
                _s_rtu,
                place_bonus=lambda f: tuple(f.rs.tournament_place_bonus),
            ),
            ScoringSystem("S-M1", "Method 1: all territories + 50 for the objective", _s_m1, ("armies", "later_seat")),
            ScoringSystem("S-M2", "Method 2: objective territories (all if met)", _s_m2),
            ScoringSystem("S-M3", "Method 3 on method 1: + 1 per army", _s_m3, ("armies", "later_seat")),
            ScoringSystem("S-M3-M2", "Method 3 on method 2: + 1 per army in the objective", _s_m3_m2),
            ScoringSystem("S-TA", "Time Attack: victory points, then armies, then an extra round", _s_ta, ("armies",)),
            ScoringSystem("S-MEDIO", "Medioriente: victory / loss factor of one game", _s_medio, ("armies", "later_seat")),
            *(ScoringSystem(c.id, c.description, _s_rtu, club=c) for c in club_formats.CLUB_FORMATS.values()),
        )
    }
)


# ------------------------------------------------------------------ facts and checks
def _facts(
    board: Board,
    rs: RuleSet,
    final: FinalBoard,
    objectives: Mapping[str, Objective],
    owners: Mapping[str, int],
    armies: Mapping[str, int],
    total_supremacy: bool = False,
) -> Facts:
    players, ended_by = final.players, final.ended_by
    seats = [p.seat for p in players]
    held = dict.fromkeys(seats, 0)
    in_obj = dict.fromkeys(seats, 0)
    army_sum = dict.fromkeys(seats, 0)
    army_obj = dict.fromkeys(seats, 0)
    cards: dict[int, frozenset[str]] = {}
    for p in players:
        card = objectives.get(p.objective) if p.objective is not None else None
        if card is not None:
            cards[p.seat] = card.territories
    for t, seat in owners.items():
        if seat not in held or t not in board.territories:
            continue
        value = board.territories[t].value
        held[seat] += value
        army_sum[seat] += armies.get(t, 0)
        if t in cards.get(seat, frozenset()):
            in_obj[seat] += value
            army_obj[seat] += armies.get(t, 0)
    winner = None
    if ended_by is Ending.OBJECTIVE:
        holders = [s for s in seats if _holds(board, players, objectives, owners, armies, s)]
        winner = holders[0] if len(holders) == 1 else None
    return Facts(
        board, rs, tuple(players), objectives, owners, armies, ended_by, winner,
        held, in_obj, army_sum, army_obj, total_supremacy,
    )


def _holds(
    board: Board,
    players: Sequence[FinalPlayer],
    objectives: Mapping[str, Objective],
    owners: Mapping[str, int],
    armies: Mapping[str, int],
    seat: int,
) -> bool:
    p = next(p for p in players if p.seat == seat)
    if p.eliminated is not None or p.objective not in objectives:
        return False
    assert p.objective is not None
    return objective_held(objectives[p.objective], owners, seat, armies=armies, board=board)


def _bad(rule: str, message: str, code: str = "", **params: Any) -> Violation:
    """A reason the final board is impossible: the board as a whole (no event)."""
    return Violation(None, rule, message, code, params)


def _ending_and_seats(final: FinalBoard) -> Iterator[Violation]:
    """The ending is one a board can show; seats listed once; elimination orders 1..n."""
    players, ended_by = final.players, final.ended_by
    if ended_by not in BOARD_ENDINGS:
        try:
            Ending.parse(ended_by.value, BOARD_ENDINGS)
        except EngineError as err:
            yield _bad(err.rule, err.message, err.code, **err.params)
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats) or not players:
        yield _bad("FORMAT", f"seats must be listed once each, got {seats}", "board.seats_twice",
                   seats=", ".join(map(str, seats)))
    orders = [p.eliminated for p in players if p.eliminated is not None]
    if sorted(orders) != list(range(1, len(orders) + 1)):
        yield _bad("FORMAT", f"elimination orders must be 1..{len(orders)}, got {sorted(orders)}",
                   "board.elimination_orders", n=len(orders), orders=", ".join(map(str, sorted(orders))))


def _ownership(board: Board, final: FinalBoard) -> Iterator[Violation]:
    """B-MAP: every territory of the map owned exactly once, by a seat at the table."""
    seats = [p.seat for p in final.players]
    seen: dict[str, str] = {}
    for name, seat in final.owners.items():
        canonical = board.canonical(name)
        if canonical is None:
            yield _bad("FORMAT", f"unknown territory {name!r} on map {board.id!r}", "board.unknown_territory",
                       territory=name, map=board.id)
            continue
        if canonical in seen:
            yield _bad("B-MAP", f"{canonical} is owned twice ({seen[canonical]!r} and {name!r})",
                       "board.owned_twice", territory=canonical)
        seen[canonical] = name
        if seat not in seats:
            yield _bad("FORMAT", f"{canonical} is owned by seat {seat!r}, which is not at the table",
                       "board.owner_not_seated", territory=canonical, seat=seat)
    missing = [t for t in board.names if t not in seen]
    if missing:
        yield _bad("B-MAP", f"{len(missing)} territories have no owner: {', '.join(missing)}", "board.unowned",
                   n=len(missing), territories=", ".join(missing))


def _armies(rs: RuleSet, final: FinalBoard) -> Iterator[Violation]:
    """A-OCCUPY: at least one army on every owned territory, none elsewhere; D-CAP per seat."""
    owners, armies = final.owners, final.armies
    per_seat = dict.fromkeys((p.seat for p in final.players), 0)
    for name, seat in owners.items():
        count = armies.get(name)
        if count is None:
            yield _bad("FORMAT", f"no armies given for {name}", "board.no_armies", territory=name)
        elif isinstance(count, bool) or not isinstance(count, int) or count < 1:
            yield _bad("A-OCCUPY", f"{name} holds {count!r} armies; every territory holds at least 1",
                       "board.empty_territory", territory=name, armies=count)
        elif seat in per_seat:
            per_seat[seat] += count
    for name in armies:
        if name not in owners:
            yield _bad("FORMAT", f"armies given for {name!r}, which has no owner", "board.armies_without_owner",
                       territory=name)
    if rs.army_cap is not None:
        for seat, total in per_seat.items():
            if total > rs.army_cap:
                yield _bad("D-CAP", f"seat {seat} has {total} armies on the board (at most {rs.army_cap})",
                           "board.army_cap", seat=seat, n=total, cap=rs.army_cap)


def _eliminations_and_cards(final: FinalBoard, objectives: Mapping[str, Objective]) -> Iterator[Violation]:
    """A-ELIM: a seat owns nothing exactly when it is eliminated; O-RTU: each survivor has a known card."""
    owners = final.owners
    for p in final.players:
        if p.eliminated is not None:
            kept = sum(1 for s in owners.values() if s == p.seat)
            if kept:
                yield _bad("A-ELIM", f"seat {p.seat} is eliminated but owns {kept} territories",
                           "board.eliminated_owns", seat=p.seat, n=kept)
        elif p.seat not in owners.values() and owners:
            yield _bad("A-ELIM", f"seat {p.seat} owns nothing but is not marked eliminated", "board.owns_nothing",
                       seat=p.seat)
        if not p.objective:  # None or "" (a record without a card)
            if p.eliminated is None:
                yield _bad("O-RTU", f"seat {p.seat} has no objective card", "board.no_card", seat=p.seat)
        elif p.objective not in objectives:
            yield _bad("O-RTU", f"seat {p.seat}: unknown objective card {p.objective!r}", "board.unknown_card",
                       seat=p.seat, card=p.objective)


def _objective_holders(board: Board, final: FinalBoard, objectives: Mapping[str, Objective],
                       owners_c: Mapping[str, int]) -> Iterator[Violation]:
    """O-RTU: a game ended by objective has exactly one holder of its whole card; any other
    ending has none holding a territories card (the game would have ended then)."""
    players, ended_by = final.players, final.ended_by
    alive = {p.seat for p in players if p.eliminated is None}
    holders = [s for s in sorted(alive) if _holds(board, players, objectives, owners_c, final.armies, s)]
    if ended_by is Ending.OBJECTIVE and len(holders) != 1:
        if not holders:
            yield _bad("O-RTU", "the game ended by objective but no seat holds its whole card",
                       "board.no_objective_holder")
        else:
            yield _bad("O-RTU", f"seats {holders} all hold their whole card", "board.many_objective_holders",
                       seats=", ".join(map(str, holders)))
    if ended_by is not Ending.OBJECTIVE:
        for s in holders:
            obj = objectives[next(p.objective for p in players if p.seat == s) or ""]
            if obj.kind == "territories":
                yield _bad("O-RTU", f"seat {s} holds its whole card {obj.id}: the game should have ended by "
                           "objective", "board.should_have_ended", seat=s, card=obj.id)


def _points_total(board: Board, rs: RuleSet, final: FinalBoard, objectives: Mapping[str, Objective],
                  owners_c: Mapping[str, int]) -> Iterator[Violation]:
    """The scoresheet's "Totale Punti" (S-PLACE): every point on the map belongs to exactly one seat."""
    facts = _facts(board, rs, final, objectives, owners_c, final.armies)
    total = sum(facts.objective_points[p.seat] + facts.extra(p.seat) for p in final.players)
    if total != board.total_value:
        yield _bad("S-PLACE", f"objective + extra-objective points add up to {total}, not {board.total_value}",
                   "board.points_total", total=total, expected=board.total_value)


def check_board(
    board: Board,
    rs: RuleSet,
    final: FinalBoard,
    objectives: Mapping[str, Objective],
) -> list[Violation]:
    """Every reason a final board is impossible, each with its rule id (event None), in the
    order a referee reads the sheet: ending and seats, territories, armies, eliminations and
    cards, the objective, the points total."""
    owners_c = {board.canonical(t) or t: s for t, s in final.owners.items()}
    return [
        *_ending_and_seats(final),
        *_ownership(board, final),
        *_armies(rs, final),
        *_eliminations_and_cards(final, objectives),
        *_objective_holders(board, final, objectives, owners_c),
        *_points_total(board, rs, final, objectives, owners_c),
    ]


# ------------------------------------------------------------------ ranking
def _tiebreak_key(f: Facts, seat: int, name: str) -> int:
    if name == "extra_objective":
        return f.extra(seat)
    if name == "armies":
        return f.armies_total[seat]
    if name == "later_seat":
        return seat
    raise ValueError(name)


def _system(system: str, club_changes: Mapping[str, Any] | None) -> tuple[ScoringSystem, club_formats.ClubFormat | None]:
    """The scoring system named ``system`` and its club format with the club's changes, if any."""
    scoring = SCORING_SYSTEMS.get(system)
    if scoring is None:
        raise EngineError("FORMAT", f"unknown scoring system {system!r} (known: {', '.join(SCORING_SYSTEMS)})")
    club = scoring.club
    if club is not None and club_changes:
        try:
            club = club.with_changes(club_changes)
        except (ValueError, TypeError, IndexError) as exc:
            raise EngineError("FORMAT", f"{system}: {exc}") from None
    return scoring, club


def _place_groups(
    f: Facts,
    score: Mapping[int, Decimal],
    survivors: Sequence[int],
    eliminated: Sequence[FinalPlayer],
    breaks: Sequence[str],
    shared: bool,
) -> list[list[int]]:
    """S-PLACE: the seats in place order (the objective's holder, then survivors by game score
    and ``breaks``, then the eliminated, the later first); seats still tied after every
    tie-break share a group when places are ``shared``, else each has its own."""

    def key(seat: int) -> tuple[Number, ...]:
        return (1 if seat == f.winner else 0, score[seat], *(_tiebreak_key(f, seat, b) for b in breaks))

    order = sorted(survivors, key=key, reverse=True) + [p.seat for p in eliminated]
    groups: list[list[int]] = []
    for seat in order:
        if groups and seat in survivors and groups[-1][0] in survivors and shared and key(seat) == key(groups[-1][0]):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _club_points(
    club: club_formats.ClubFormat,
    groups: Sequence[Sequence[int]],
    score: Mapping[int, Decimal],
    survivors: Sequence[int],
) -> dict[int, Decimal]:
    """A club format's "Punti Torneo" of every seat, from its game score and place."""
    placed: list[club_formats.Seat] = []
    at = 1
    for group in groups:
        for seat in group:
            placed.append(club_formats.Seat(seat, score[seat], at, len(group), seat not in survivors))
        at += len(group)
    try:
        return club_formats.tournament_points(club, placed)
    except ValueError as exc:
        raise EngineError("T-SIZE", str(exc)) from None


def score_game(
    board: Board,
    rs: RuleSet,
    final: FinalBoard,
    objectives: Mapping[str, Objective],
    system: str = "S-RTU",
    *,
    total_supremacy: bool = False,
    club_changes: Mapping[str, Any] | None = None,
) -> list[SeatScore]:
    """Scores of every seat, in seat order. Check the board first with :func:`check_board`.
    ``club_changes`` changes numbers of a club format (e.g. ``{"win_bonus": 40}``)."""
    scoring, club = _system(system, club_changes)
    players = final.players
    owners_c = {board.canonical(t) or t: s for t, s in final.owners.items()}
    armies_c = {board.canonical(t) or t: a for t, a in final.armies.items()}
    f = _facts(board, rs, final, objectives, owners_c, armies_c, total_supremacy)
    score = {p.seat: decimal(scoring.game_score(f, p.seat)) for p in players}
    # S-TA ties that survive its tie-breaks are settled by an extra round the engine cannot play
    shared = rs.shared_places or "later_seat" not in scoring.tiebreaks
    survivors = [p.seat for p in players if p.eliminated is None]
    eliminated = sorted((p for p in players if p.eliminated is not None), key=lambda p: -(p.eliminated or 0))
    breaks = () if rs.shared_places else scoring.tiebreaks
    groups = _place_groups(f, score, survivors, eliminated, breaks, shared)
    bonuses = scoring.place_bonus(f)
    club_points = _club_points(club, groups, score, survivors) if club is not None else {}
    result: dict[int, SeatScore] = {}
    position = 1
    for group in groups:
        covered = range(position, position + len(group))
        bonus = sum((fraction(bonuses[i - 1]) if i - 1 < len(bonuses) else Fraction(0) for i in covered),
                    Fraction(0)) / len(group)
        for seat in group:
            tiebreak = ("shared" if rs.shared_places else "extra_round") if len(group) > 1 else _decider(f, seat, survivors, score, breaks, eliminated)
            result[seat] = SeatScore(
                seat=seat,
                game_score=score[seat],
                extra_objective=f.extra(seat),
                armies=f.armies_total[seat],
                place=position,
                tournament_points=club_points[seat] if club is not None else decimal(fraction(score[seat]) + bonus),
                tiebreak=tiebreak,
            )
        position += len(group)
    return [result[p.seat] for p in sorted(players, key=lambda p: p.seat)]


def _decider(
    f: Facts,
    seat: int,
    survivors: list[int],
    score: Mapping[int, Decimal],
    breaks: tuple[str, ...],
    eliminated: Sequence[FinalPlayer],
) -> str | None:
    """The deepest tie-break needed to separate ``seat`` from any survivor with its game score."""
    if seat not in survivors:
        return "elimination_order" if len(eliminated) > 1 else None
    if seat == f.winner:
        return None
    deepest: int | None = None
    for other in survivors:
        if other == seat or other == f.winner or score[other] != score[seat]:
            continue
        for i, b in enumerate(breaks):
            if _tiebreak_key(f, seat, b) != _tiebreak_key(f, other, b):
                deepest = i if deepest is None else max(deepest, i)
                break
    return None if deepest is None else breaks[deepest]
