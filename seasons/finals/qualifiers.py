"""Who plays a season's final phase, and why: pure (no ORM, no Django), over the season's
standings in order.

- the first ``direct`` players go straight to the final;
- the next ``semifinal_places - ripescati`` play the semifinals by their standing;
- ``ripescati`` more semifinal places go to the best single-game scores of the season among the
  players still out who played at least ``min_evenings`` evenings (equal best games: the better
  standing); with too few such players the places go on down the standings;
- everyone else with an evening plays the consolation event (*torneo degli esclusi*) when the
  season has one.

An absent player (withdrawn from the final phase) is skipped: the next in line takes the place,
so the direct finalists, the semifinalists and the ripescati are always computed afresh from
the standings and the absences, never patched.

Ties: the standings already rank by the season's tie-break chain; players it cannot separate
share a place (``2=``). Where such a shared place straddles a cut (the final, the semifinals),
the better best single game goes first, then more evenings played; a tie even then keeps the
standings' order (by name) and is reported as undecided, for the organizer to settle (marking one
of them absent). Every tie met at a cut is reported with what decided it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

DIRECT, SEMIFINAL, RIPESCATO, CONSOLATION, OUT, ABSENT = (
    "direct", "semifinal", "ripescato", "consolation", "out", "absent")
# why a player holds their place
BY_STANDING, NEXT_IN_LINE, BY_BEST_GAME, NO_CANDIDATE, THE_OTHERS, WITHDRAWN = (
    "standing", "next_in_line", "best_game", "no_ripescaggio_candidate", "others", "withdrawn")
# what decided a tie at a cut
CHAIN, BEST_GAME, EVENINGS, UNDECIDED, BETTER_STANDING = (
    "chain", "best_game", "evenings", "undecided", "better_standing")


@dataclass(frozen=True)
class Candidate:
    """A row of the season's standings: ``position`` counts rows from 1 (``rank`` is the shown
    place, equal for shared rows); ``tiebreak`` the metric that separated the row from the one
    above it ("" when the totals differ); ``evenings`` the evenings with a counted result;
    ``best_game`` the best single-game score among them."""

    player: int
    position: int
    rank: int
    total: Decimal
    evenings: int
    best_game: Decimal
    tiebreak: str = ""


@dataclass(frozen=True)
class Options:
    direct: int
    semifinal_places: int
    ripescati: int
    min_evenings: int
    consolation: bool = True


@dataclass(frozen=True)
class Place:
    player: int
    role: str  # DIRECT, SEMIFINAL, RIPESCATO, CONSOLATION, OUT, ABSENT
    why: str  # BY_STANDING, NEXT_IN_LINE, BY_BEST_GAME, NO_CANDIDATE, THE_OTHERS, WITHDRAWN


@dataclass(frozen=True)
class Tie:
    """Players level at a cut (``cut``: "final", "semifinals" or "ripescaggio"), in the order
    decided, and what decided it (a chain metric's key after ``CHAIN``)."""

    cut: str
    players: tuple[int, ...]
    decided_by: str
    metric: str = ""


@dataclass(frozen=True)
class Qualification:
    direct: tuple[int, ...]
    semifinal: tuple[int, ...]  # by standing and ripescati, in the order of the standings
    ripescati: tuple[int, ...]
    consolation: tuple[int, ...]
    places: dict[int, Place] = field(default_factory=dict)
    ties: tuple[Tie, ...] = ()
    reserve: int | None = None  # next in line by the standings
    reserve_ripescaggio: int | None = None  # next in line by best game

    def role(self, player: int) -> str:
        return self.places[player].role if player in self.places else OUT


def cut_order(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The standings' order, with players sharing a place put in order by their best single
    game, then by the evenings they played (then the standings' own order)."""
    return sorted(candidates, key=lambda c: (c.rank, -c.best_game, -c.evenings, c.position))


def qualify(candidates: Sequence[Candidate], options: Options, absent: Collection[int] = ()) -> Qualification:
    order = cut_order(candidates)
    gone = set(absent)
    available = [c for c in order if c.player not in gone]
    by_standing = options.direct + options.semifinal_places - options.ripescati
    direct, standing, rest = (available[:options.direct], available[options.direct:by_standing],
                              available[by_standing:])
    picked, filled = _ripescaggio(rest, options)
    chosen = {c.player for c in picked + filled}
    others = [c for c in rest if c.player not in chosen]
    index = {c.player: i for i, c in enumerate(order)}
    places: dict[int, Place] = {}
    for c in direct + standing:
        late = index[c.player] >= (options.direct if c in direct else by_standing)
        places[c.player] = Place(c.player, DIRECT if c in direct else SEMIFINAL,
                                 NEXT_IN_LINE if late else BY_STANDING)
    places |= {c.player: Place(c.player, RIPESCATO, BY_BEST_GAME) for c in picked}
    places |= {c.player: Place(c.player, SEMIFINAL, NO_CANDIDATE) for c in filled}
    role = CONSOLATION if options.consolation else OUT
    places |= {c.player: Place(c.player, role, THE_OTHERS) for c in others}
    places |= {c.player: Place(c.player, ABSENT, WITHDRAWN) for c in order if c.player in gone}
    semis = tuple(c.player for c in available if c in standing or c.player in chosen)
    ties = [*_cut_tie("final", available, options.direct),
            *_cut_tie("semifinals", available, by_standing), *_ripescaggio_tie(rest, picked, options)]
    reserve_ripescaggio = next((c.player for c in _eligible(others, options)), None)
    return Qualification(
        direct=tuple(c.player for c in direct), semifinal=semis, ripescati=tuple(c.player for c in picked),
        consolation=tuple(c.player for c in others) if options.consolation else (), places=places,
        ties=tuple(ties), reserve=others[0].player if others else None,
        reserve_ripescaggio=reserve_ripescaggio)


def _eligible(rest: Sequence[Candidate], options: Options) -> list[Candidate]:
    """Who may be fished back, best single game first (equal: the better standing)."""
    pool = [c for c in rest if c.evenings >= options.min_evenings]
    return sorted(pool, key=lambda c: (-c.best_game, rest.index(c)))


def _ripescaggio(rest: Sequence[Candidate], options: Options) -> tuple[list[Candidate], list[Candidate]]:
    """The ripescati, and the places left for want of candidates (filled down the standings)."""
    picked = _eligible(rest, options)[:options.ripescati]
    missing = options.ripescati - len(picked)
    filled = [c for c in rest if c not in picked][:missing] if missing > 0 else []
    return picked, filled


def _cut_tie(cut: str, available: Sequence[Candidate], at: int) -> list[Tie]:
    """The tie, if any, between the last player in and the first one out at ``at``."""
    if at <= 0 or at >= len(available):
        return []
    inside, outside = available[at - 1], available[at]
    if inside.total != outside.total:
        return []
    level = tuple(c.player for c in available if c.total == inside.total)
    if inside.rank != outside.rank:  # the chain separated them
        return [Tie(cut, level, CHAIN, outside.tiebreak)]
    if inside.best_game != outside.best_game:
        return [Tie(cut, level, BEST_GAME)]
    if inside.evenings != outside.evenings:
        return [Tie(cut, level, EVENINGS)]
    return [Tie(cut, level, UNDECIDED)]


def _ripescaggio_tie(rest: Sequence[Candidate], picked: Sequence[Candidate], options: Options) -> list[Tie]:
    eligible = _eligible(rest, options)
    if not picked or len(eligible) <= len(picked):
        return []
    last, first_out = picked[-1], eligible[len(picked)]
    if last.best_game != first_out.best_game:
        return []
    level = tuple(c.player for c in eligible if c.best_game == last.best_game)
    return [Tie("ripescaggio", level, BETTER_STANDING)]
