"""How a game ends, and the final board it ends on: the one list of endings and the one shape of a
final board that adjudication (``engine.replay``), scoring (``engine.scoring``), the command line
and every front end share.

:class:`Ending` values are the game record contract's ``ended_by`` values (docs/engine.md): the
contract's ``objective``, ``sdadata``, ``elimination`` and ``incomplete``, plus ``time`` and
``deck`` for a TIME_ATTACK game (S-TA). Pure code says an ending by its code; the words for it
are said once on the Django side (``common.engine_messages.ENDINGS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.violations import EngineError


class Ending(StrEnum):
    OBJECTIVE = "objective"  # a seat holds its whole card (O-RTU, O-CLASSIC)
    SDADATA = "sdadata"  # the closure roll after time expired (E-SDADATA)
    ELIMINATION = "elimination"  # one seat left, or S-TA's elimination after the deck ran out (A-ELIM)
    TIME = "time"  # S-TA: the clock ran out and the round was completed
    DECK = "deck"  # S-TA: the objective deck ran out
    INCOMPLETE = "incomplete"  # the record stops before the game ended

    @property
    def ended(self) -> bool:
        return self is not Ending.INCOMPLETE

    @property
    def scored_as(self) -> Ending:
        """The ending a board is scored under: the deck's end scores like the clock's (S-TA)."""
        return Ending.TIME if self is Ending.DECK else self

    @property
    def rule(self) -> str:
        """The rule id that ended the game (what an event after the end breaks). The objective's
        depends on the rule set's cards (O-RTU or O-CLASSIC): :func:`objective_rule`."""
        return _RULES.get(self, "TURN-PHASES")

    @classmethod
    def parse(cls, value: object, allowed: tuple[Ending, ...] | None = None) -> Ending:
        """``value`` as an ending among ``allowed`` (default: every ending), else a FORMAT
        :class:`EngineError` (message code ``board.bad_ending``)."""
        choices = allowed if allowed is not None else tuple(cls)
        for ending in choices:
            if value == ending.value:
                return ending
        raise EngineError(
            "FORMAT", f"ended_by must be one of {[e.value for e in choices]}, not {value!r}",
            "board.bad_ending", {"ending": str(value)},
        )


_RULES = {Ending.DECK: "S-TA", Ending.TIME: "S-TA", Ending.SDADATA: "E-SDADATA", Ending.ELIMINATION: "A-ELIM"}


def objective_rule(objectives: str) -> str:
    return "O-CLASSIC" if objectives == "classic" else "O-RTU"


# What a referee enters for a final board or a short form (a recorded game's "deck" is stored
# as "time", the ending it scores under).
ENTERED = (Ending.OBJECTIVE, Ending.SDADATA, Ending.ELIMINATION, Ending.TIME)
# What a final board may be checked and scored under (``engine.scoring.check_board``).
BOARD_ENDINGS = (*ENTERED, Ending.INCOMPLETE)


@dataclass(frozen=True)
class FinalPlayer:
    seat: int
    objective: str | None
    eliminated: int | None = None  # elimination order, 1 = first eliminated


@dataclass(frozen=True)
class FinalBoard:
    """A game's final board: how it ended, every seat's card and elimination order, the owner
    and armies of every territory. What ``engine.scoring`` checks and scores, what a verdict ends
    on, and what a referee enters (``scoring.engine_bridge``)."""

    ended_by: Ending
    players: tuple[FinalPlayer, ...]
    owners: Mapping[str, int] = field(default_factory=dict)  # territory → seat
    armies: Mapping[str, int] = field(default_factory=dict)  # territory → armies

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players)

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Seats in the order they were eliminated (first eliminated first)."""
        out = sorted((p for p in self.players if p.eliminated is not None), key=lambda p: p.eliminated or 0)
        return tuple(p.seat for p in out)

    @property
    def survivors(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.eliminated is None)

    def as_dict(self) -> dict[str, Any]:
        """The ``score`` command's board (docs/engine.md), without map, rule set and cards."""
        return {
            "ended_by": self.ended_by.value,
            "players": [{"seat": p.seat, "objective": p.objective, "eliminated": p.eliminated}
                        for p in self.players],
            "owners": dict(self.owners),
            "armies": dict(self.armies),
        }
