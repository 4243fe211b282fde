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
* S-BGL: PBG = own P ÷ the table's total P (own P included), truncated to 3 decimals; at a
  3-player table a phantom worth 0.9 × the table's average P joins the total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import ceil, floor
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Seat:
    """One seat of a finished table as a club format sees it."""

    seat: int
    points: float  # P: the S-RTU game score (RisiKo! = 100, eliminated = 0)
    place: float  # 1 = winner; shared places carry the best place of the group
    shared: int = 1  # how many players share this place
    eliminated: bool = False


@dataclass(frozen=True)
class ClubFormat:
    id: str
    description: str
    size_factor: Mapping[int, float] = field(default_factory=dict)  # P × factor at that table size
    win_bonus: float = 0.0  # added to a sole winner
    shared_win_bonus: float = 0.0  # added to each winner when first place is shared
    cap: float | None = None  # S-MASTER: P × factor counts at most this much
    scale: float = 1.0  # P × factor × scale is added: S-MASTER 1/1000, S-GUFO 1/100, S-BGL 0
    round_up_decimals: int | None = None  # S-MASTER: rounded UP to 3 decimals
    truncate_decimals: int | None = None  # S-BGL: PBG truncated to 3 decimals
    place_points: Mapping[int, tuple[float, ...]] = field(default_factory=dict)  # by table size
    eliminated_place_points: tuple[float, ...] = ()  # S-GUFO, by place 1..5
    winner_base: float = 0.0  # S-SPARTAC: winner 100 + P
    loser_base: float = 0.0  # S-SPARTAC: others 100 − (winner's P − own P)
    winner_counts_as: tuple[float, float] | None = None  # S-SPARTAC: winner's P ≥ 86 counts as 100
    share_of_table: bool = False  # S-BGL: + own P ÷ table total P
    phantom_at: Mapping[int, float] = field(default_factory=dict)  # S-BGL: 3 → 0.9 × average

    def with_changes(self, changes: Mapping[str, Any]) -> ClubFormat:
        """A copy with some numbers changed (a preset or an organizer's choice)."""
        known = set(self.__dataclass_fields__) - {"id", "description"}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"{self.id} has no setting {', '.join(unknown)}")
        fixed: dict[str, Any] = {}
        for key, value in changes.items():
            if key in ("size_factor", "phantom_at"):
                value = MappingProxyType({int(k): float(v) for k, v in dict(value).items()})
            elif key == "place_points":
                value = MappingProxyType({int(k): tuple(float(x) for x in v) for k, v in dict(value).items()})
            elif key == "eliminated_place_points":
                value = tuple(float(x) for x in value)
            elif key == "winner_counts_as" and value is not None:
                value = (float(value[0]), float(value[1]))
            fixed[key] = value
        return replace(self, **fixed)

    def as_dict(self) -> dict[str, Any]:
        """Every number of the format, for a settings page or an API."""
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


CLUB_FORMATS: Mapping[str, ClubFormat] = MappingProxyType({
    f.id: f
    for f in (
        ClubFormat(
            "S-OPEN", "Open: P × 1.25 at 5 players (× 0.75 at 3) + 50 to the sole winner",
            size_factor=_frozen({5: 1.25, 3: 0.75}), win_bonus=50, shared_win_bonus=25,
        ),
        ClubFormat(
            "S-RADUNO", "Raduno / national championship (CNI): P + 50 to the sole winner",
            win_bonus=50, shared_win_bonus=25,
        ),
        ClubFormat(
            "S-MASTER", "Master: P ÷ 1000 + 1 for the winner, rounded up to 3 decimals; "
            "× 1.25 at 5 players, at most 1.100",
            size_factor=_frozen({5: 1.25}), win_bonus=1, shared_win_bonus=1, cap=100, scale=0.001,
            round_up_decimals=3,
        ),
        ClubFormat(
            "S-SPARTAC", "Spartac (periodic championships): winner 100 + P (× 1.25 at 5); "
            "others 100 − (winner's P − own P)",
            size_factor=_frozen({5: 1.25}), winner_base=100, loser_base=100, winner_counts_as=(86, 100),
        ),
        ClubFormat(
            "S-GUFO", "Gufo: place bonus 12/7/5/3/2 + P ÷ 100 (× 1.25 at 5, × 0.75 at 3); "
            "eliminated 3/2/1/0",
            size_factor=_frozen({5: 1.25, 3: 0.75}), scale=0.01,
            place_points=_frozen({n: (12, 7, 5, 3, 2)[:n] for n in (2, 3, 4, 5)}),
            eliminated_place_points=(0, 3, 2, 1, 0),
        ),
        ClubFormat(
            "S-BGL", "BGL: place points by table size (4: 100/60/40/20, 5: 100/65/50/30/15) "
            "+ own P ÷ table total P",
            place_points=_frozen({
                2: (100, 55), 3: (100, 55, 10), 4: (100, 60, 40, 20), 5: (100, 65, 50, 30, 15),
            }),
            scale=0, share_of_table=True, truncate_decimals=3, phantom_at=_frozen({3: 0.9}),
        ),
    )
})


def _q(x: float) -> Fraction:
    return Fraction(str(x)) if isinstance(x, float) else Fraction(x)


def _round_up(x: Fraction, decimals: int) -> Fraction:
    unit = Fraction(1, 10**decimals)
    return ceil(x / unit) * unit


def _truncate(x: Fraction, decimals: int) -> Fraction:
    unit = Fraction(1, 10**decimals)
    return floor(x / unit) * unit


def _place_average(points: Sequence[float], place: float, shared: int) -> Fraction:
    """The average of the place points a group covers (shared places, S-PLACE)."""
    first = int(place)
    covered = [_q(points[i - 1]) if 0 < i <= len(points) else Fraction(0) for i in range(first, first + shared)]
    return sum(covered, Fraction(0)) / shared


def tournament_points(fmt: ClubFormat, seats: Sequence[Seat]) -> dict[int, float]:
    """The "Punti Torneo" of every seat of one table under a club format."""
    size = len(seats)
    if size == 0:
        return {}
    factor = _q(fmt.size_factor.get(size, 1.0))
    winners = [s for s in seats if s.place == 1 and not s.eliminated]
    sole = len(winners) == 1
    top_p = max((_q(s.points) for s in winners), default=Fraction(0))
    if fmt.winner_counts_as is not None and top_p >= _q(fmt.winner_counts_as[0]):
        top_p = _q(fmt.winner_counts_as[1])
    total_p = sum((_q(s.points) for s in seats), Fraction(0))
    if fmt.share_of_table and size in fmt.phantom_at:
        total_p += _q(fmt.phantom_at[size]) * total_p / size
    out: dict[int, float] = {}
    for s in seats:
        p = _q(s.points)
        is_winner = s in winners
        value = Fraction(0)
        if fmt.winner_base or fmt.loser_base:  # S-SPARTAC
            value = _q(fmt.winner_base) + p * factor if is_winner else _q(fmt.loser_base) - (top_p - p)
        else:
            scaled = p * factor
            if fmt.cap is not None:
                scaled = min(scaled, _q(fmt.cap))
            scaled *= _q(fmt.scale)
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
                value += _q(fmt.win_bonus if sole else fmt.shared_win_bonus)
        if fmt.share_of_table:
            share = p / total_p if total_p else Fraction(0)
            value += _truncate(share, fmt.truncate_decimals or 3)
        if fmt.round_up_decimals is not None:
            value = _round_up(value, fmt.round_up_decimals)
        out[s.seat] = float(value)
    return out


def score_table(
    system: str, points: Sequence[float], eliminated: Sequence[bool] = (),
    changes: Mapping[str, Any] | None = None,
) -> list[float]:
    """Punti Torneo for a table given as the clubs' sheet has it: P of seats 1..N in order, the
    winner being the highest P (ties: the earlier listed seat is ahead, as the clubs' typed
    decimals decide). A convenience for tests and quick checks; boards go through
    :func:`engine.scoring.score_game`."""
    fmt = CLUB_FORMATS[system]
    if changes:
        fmt = fmt.with_changes(changes)
    out = list(eliminated) + [False] * (len(points) - len(eliminated))
    order = sorted(range(len(points)), key=lambda i: (out[i], -points[i], i))
    seats = [Seat(i + 1, points[i], float(order.index(i) + 1), 1, out[i]) for i in range(len(points))]
    result = tournament_points(fmt, seats)
    return [result[i + 1] for i in range(len(points))]
