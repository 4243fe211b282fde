"""The clubs' scoring systems (docs/rules.md, "Club formats"): S-OPEN, S-RADUNO, S-MASTER,
S-SPARTAC, S-GUFO and S-BGL.

Every club format starts from the same two facts per seat, as the clubs' scoresheet does:

* **P**, the "Punti" of the game: the S-RTU game score (objective points 0–86, RisiKo! = 100;
  an eliminated player holds nothing, so 0);
* the **place** at the table (S-PLACE: by P, then extra-objective points, armies, later seat;
  eliminated players last), and how many players share it when places may be shared.

From those a format computes the "Punti Torneo". Every number of a format is data in
:data:`CLUB_FORMATS` (a :class:`ClubFormat`), so an organizer can see it and a preset can change
it; the functions below only combine them. Interpretations where the rules are terse, checked
against the clubs' desktop tool:

* a shared first place (only when the rule set lets places be shared) gets ``shared_win_bonus``
  each instead of ``win_bonus`` (S-OPEN / S-RADUNO 25; S-MASTER 1: both count as winners);
* S-SPARTAC: the table-size factor multiplies the winner's P only (100 + P × 1.25 at 5); a
  RisiKo! is worth 100 + 100 = 200 (the tool's code, not its manual's 186);
* S-GUFO: an eliminated player gets the eliminated bonus of their place and no P;
* S-OPEN: at a 5-player table the sole winner's P × 1.25 counts at most 100
  (``sole_winner_cap``), so a winner above 80, RisiKo! included, scores 150;
* S-BGL: PBG = own P ÷ the table's total P (own P included), truncated to 3 decimals. A
  3-player table is scored as a 4-player one: a phantom seat with P = 0.9 × the three players'
  total ÷ 3, cut to 1 decimal, takes its place among them by that P (a player level with it
  stays ahead), the 4-player place points apply, and the whole part of its P joins the total
  (P 40/30/10: phantom 24, total 104 → 100.384 / 60.288 / 20.096).

Every number is exact (:mod:`engine.exact`): the format's numbers are Decimals, the arithmetic is
done on rationals, and the Punti Torneo come out as Decimals (S-GUFO 7.2875 stays 7.2875).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from math import ceil, floor
from types import MappingProxyType
from typing import Any

from engine.exact import decimal, fraction

D = Decimal
ZERO = Decimal(0)


@dataclass(frozen=True)
class Seat:
    """One seat of a finished table as a club format sees it."""

    seat: int
    points: int | Decimal | Fraction  # P: the S-RTU game score (RisiKo! = 100, eliminated = 0)
    place: int  # 1 = winner; shared places carry the best place of the group
    shared: int = 1  # how many players share this place
    eliminated: bool = False


@dataclass(frozen=True)
class ClubFormat:
    id: str
    description: str
    size_factor: Mapping[int, Decimal] = field(default_factory=dict)  # P × factor at that table size
    win_bonus: Decimal = ZERO  # added to a sole winner
    shared_win_bonus: Decimal = ZERO  # added to each winner when first place is shared
    cap: Decimal | None = None  # S-MASTER: P × factor counts at most this much
    sole_winner_cap: Decimal | None = None  # S-OPEN: the sole winner's P × factor counts at most this
    scale: Decimal = D(1)  # P × factor × scale is added: S-MASTER 1/1000, S-GUFO 1/100, S-BGL 0
    round_up_decimals: int | None = None  # S-MASTER: rounded UP to 3 decimals
    truncate_decimals: int | None = None  # S-BGL: PBG truncated to 3 decimals
    place_points: Mapping[int, tuple[Decimal, ...]] = field(default_factory=dict)  # by table size
    eliminated_place_points: tuple[Decimal, ...] = ()  # S-GUFO, by place 1..5
    winner_base: Decimal = ZERO  # S-SPARTAC: winner 100 + P
    loser_base: Decimal = ZERO  # S-SPARTAC: others 100 − (winner's P − own P)
    winner_counts_as: tuple[Decimal, Decimal] | None = None  # S-SPARTAC: winner's P ≥ 86 counts as 100
    share_of_table: bool = False  # S-BGL: + own P ÷ table total P
    phantom_at: Mapping[int, Decimal] = field(default_factory=dict)  # S-BGL: 3 → phantom 0.9 × average

    def with_changes(self, changes: Mapping[str, Any]) -> ClubFormat:
        """A copy with some numbers changed (a preset or an organizer's choice)."""
        known = set(self.__dataclass_fields__) - {"id", "description"}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"{self.id} has no setting {', '.join(unknown)}")
        fixed: dict[str, Any] = {}
        for key, value in changes.items():
            if key in ("size_factor", "phantom_at"):
                value = MappingProxyType({int(k): decimal(v) for k, v in dict(value).items()})
            elif key == "place_points":
                value = MappingProxyType({int(k): tuple(decimal(x) for x in v) for k, v in dict(value).items()})
            elif key == "eliminated_place_points":
                value = tuple(decimal(x) for x in value)
            elif key == "winner_counts_as" and value is not None:
                value = (decimal(value[0]), decimal(value[1]))
            elif key in ("round_up_decimals", "truncate_decimals") and value is not None:
                value = int(value)
            elif key == "share_of_table":
                value = bool(value)
            elif value is not None:
                value = decimal(value)
            fixed[key] = value
        return replace(self, **fixed)

    def as_dict(self) -> dict[str, Any]:
        """Every number of the format, for a settings page or an API (Decimals: exact)."""
        out: dict[str, Any] = {}
        for key in self.__dataclass_fields__:
            value = getattr(self, key)
            if isinstance(value, Mapping):
                value = {str(k): (list(v) if isinstance(v, tuple) else v) for k, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = value
        return out


def _frozen(d: Mapping[int, Any]) -> Mapping[int, Any]:
    return MappingProxyType(dict(d))


def _row(*xs: int) -> tuple[Decimal, ...]:
    return tuple(D(x) for x in xs)


CLUB_FORMATS: Mapping[str, ClubFormat] = MappingProxyType({
    f.id: f
    for f in (
        ClubFormat(
            "S-OPEN", "Open: P × 1.25 at 5 players (the winner's at most 100; × 0.75 at 3) "
            "+ 50 to the sole winner",
            size_factor=_frozen({5: D("1.25"), 3: D("0.75")}), win_bonus=D(50), shared_win_bonus=D(25),
            sole_winner_cap=D(100),
        ),
        ClubFormat(
            "S-RADUNO", "Raduno / national championship (CNI): P + 50 to the sole winner",
            win_bonus=D(50), shared_win_bonus=D(25),
        ),
        ClubFormat(
            "S-MASTER", "Master: P ÷ 1000 + 1 for the winner, rounded up to 3 decimals; "
            "× 1.25 at 5 players, at most 1.100",
            size_factor=_frozen({5: D("1.25")}), win_bonus=D(1), shared_win_bonus=D(1), cap=D(100),
            scale=D("0.001"), round_up_decimals=3,
        ),
        ClubFormat(
            "S-SPARTAC", "Spartac (periodic championships): winner 100 + P (× 1.25 at 5); "
            "others 100 − (winner's P − own P)",
            size_factor=_frozen({5: D("1.25")}), winner_base=D(100), loser_base=D(100),
            winner_counts_as=(D(86), D(100)),
        ),
        ClubFormat(
            "S-GUFO", "Gufo: place bonus 12/7/5/3/2 + P ÷ 100 (× 1.25 at 5, × 0.75 at 3); "
            "eliminated 3/2/1/0",
            size_factor=_frozen({5: D("1.25"), 3: D("0.75")}), scale=D("0.01"),
            place_points=_frozen({n: _row(12, 7, 5, 3, 2)[:n] for n in (2, 3, 4, 5)}),
            eliminated_place_points=_row(0, 3, 2, 1, 0),
        ),
        ClubFormat(
            "S-BGL", "BGL: place points by table size (4: 100/60/40/20, 5: 100/65/50/30/15) "
            "+ own P ÷ table total P; a 3-player table adds a phantom and scores as 4",
            place_points=_frozen({
                2: _row(100, 55), 3: _row(100, 55, 10), 4: _row(100, 60, 40, 20), 5: _row(100, 65, 50, 30, 15),
            }),
            scale=ZERO, share_of_table=True, truncate_decimals=3, phantom_at=_frozen({3: D("0.9")}),
        ),
    )
})


def _round_up(x: Fraction, decimals: int) -> Fraction:
    unit = Fraction(1, 10**decimals)
    return ceil(x / unit) * unit


def _truncate(x: Fraction, decimals: int) -> Fraction:
    unit = Fraction(1, 10**decimals)
    return floor(x / unit) * unit


def _place_average(points: Sequence[Decimal], place: int, shared: int) -> Fraction:
    """The average of the place points a group covers (shared places, S-PLACE)."""
    first = int(place)
    covered = [fraction(points[i - 1]) if 0 < i <= len(points) else Fraction(0)
               for i in range(first, first + shared)]
    return sum(covered, Fraction(0)) / shared


def _with_phantom(fmt: ClubFormat, seats: Sequence[Seat]) -> tuple[list[Seat], int, Fraction]:
    """S-BGL at a table size with a phantom: the seats placed as if the phantom sat with them,
    the table size it scores as, and the total P (with the phantom's whole part)."""
    size = len(seats)
    total = sum((fraction(s.points) for s in seats), Fraction(0))
    if size not in fmt.phantom_at:
        return list(seats), size, total
    phantom = _truncate(fraction(fmt.phantom_at[size]) * total / size, 1)
    moved = [
        replace(s, place=s.place + 1) if s.eliminated or phantom > fraction(s.points) else s
        for s in seats
    ]
    return moved, size + 1, total + floor(phantom)


def tournament_points(fmt: ClubFormat, seats: Sequence[Seat]) -> dict[int, Decimal]:
    """The "Punti Torneo" of every seat of one table under a club format, exact."""
    if not seats:
        return {}
    total_p = Fraction(0)
    size = len(seats)
    if fmt.share_of_table:
        seats, size, total_p = _with_phantom(fmt, seats)
    factor = fraction(fmt.size_factor.get(size, 1))
    winners = [s for s in seats if s.place == 1 and not s.eliminated]
    sole = len(winners) == 1
    top_p = max((fraction(s.points) for s in winners), default=Fraction(0))
    if fmt.winner_counts_as is not None and top_p >= fraction(fmt.winner_counts_as[0]):
        top_p = fraction(fmt.winner_counts_as[1])
    out: dict[int, Decimal] = {}
    for s in seats:
        p = fraction(s.points)
        is_winner = s in winners
        value = Fraction(0)
        if fmt.winner_base or fmt.loser_base:  # S-SPARTAC
            value = fraction(fmt.winner_base) + p * factor if is_winner else fraction(fmt.loser_base) - (top_p - p)
        else:
            scaled = p * factor
            if fmt.cap is not None:
                scaled = min(scaled, fraction(fmt.cap))
            if fmt.sole_winner_cap is not None and is_winner and sole:
                scaled = min(scaled, fraction(fmt.sole_winner_cap))
            scaled *= fraction(fmt.scale)
            if s.eliminated and fmt.eliminated_place_points:
                value = _place_average(fmt.eliminated_place_points, s.place, s.shared)
            else:
                value = scaled
                if fmt.place_points:
                    table = fmt.place_points.get(size)
                    if table is None:
                        raise ValueError(f"{fmt.id} has no place points for a table of {size}")
                    value += _place_average(table, s.place, s.shared)
            if is_winner:
                value += fraction(fmt.win_bonus if sole else fmt.shared_win_bonus)
        if fmt.share_of_table:
            share = p / total_p if total_p else Fraction(0)
            value += _truncate(share, fmt.truncate_decimals or 3)
        if fmt.round_up_decimals is not None:
            value = _round_up(value, fmt.round_up_decimals)
        out[s.seat] = decimal(value)
    return out


def score_table(
    system: str, points: Sequence[int | Decimal], eliminated: Sequence[bool] = (),
    changes: Mapping[str, Any] | None = None,
) -> list[Decimal]:
    """Punti Torneo for a table given as the clubs' sheet has it: P of seats 1..N in order, the
    winner being the highest P (ties: the earlier listed seat is ahead, as the clubs' typed
    decimals decide). A convenience for tests and quick checks; boards go through
    :func:`engine.scoring.score_game`."""
    fmt = CLUB_FORMATS[system]
    if changes:
        fmt = fmt.with_changes(changes)
    out = list(eliminated) + [False] * (len(points) - len(eliminated))
    order = sorted(range(len(points)), key=lambda i: (out[i], -fraction(points[i]), i))
    seats = [Seat(i + 1, points[i], order.index(i) + 1, 1, out[i]) for i in range(len(points))]
    result = tournament_points(fmt, seats)
    return [result[i + 1] for i in range(len(points))]
