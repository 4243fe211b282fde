"""The end of a timed game: E-TIME, E-SUPP, E-SDADATA, E-BAR — one implementation.

The adjudicator replays recorded games through it and the web app's referee pages store it
(``as_dict``/``from_dict``) to tell the table what happens next. Every number comes from the
rule set (``sdadata_first_threshold`` …), never from this module.

How it works. When the time expires during a turn we pick an *anchor* seat: the last seat of
the round (``supplementary = "whole_rounds"``, the default, E-SUPP) or the seat whose turn it
was (``supplementary = "turns"``, the other reading of the tournament regulation). The end of the anchor's turn
closes the current round; the next cycle of turns up to and including the anchor's turn is the
supplementary round, and the anchor rolls at its end with the first threshold. From then on
every player rolls at the end of their own turn and the threshold rises by the step each time
the anchor's turn ends, up to the maximum. A player who conquered more than
``sdadata_bar_conquests`` territories in the turn does not roll (E-BAR).

Under ``closure = "time_attack"`` (S-TA) the game ends when the round in which time expired is
complete; under ``closure = "none"`` there is no clock (E-TIME does not apply).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.endings import Ending
from engine.violations import EngineError

if TYPE_CHECKING:
    from engine.rulesets import RuleSet

PLAY = "play"  # the clock is running
FINISH = "finish"  # time expired: completing the current round (or turn)
SUPPLEMENTARY = "supplementary"  # E-SUPP
SDADATA = "sdadata"  # E-SDADATA: every turn ends with a roll
ENDED = "ended"


@dataclass(frozen=True)
class NextAction:
    kind: str  # "play" | "finish_round" | "supplementary" | "roll" | "may_not_roll" | "ended"
    seat: int | None
    threshold: int | None
    rule: str | None
    message: str
    ended_by: Ending | None = None  # kind "ended": how


@dataclass(frozen=True)
class ClosureState:
    seats: tuple[int, ...]  # turn order, starting with the first player
    seat: int  # whose turn it is
    round: int = 1
    phase: str = PLAY
    anchor: int | None = None  # whose end of turn closes a round of the closure
    rising: int | None = None  # the threshold of the rounds after the first roll (E-SDADATA)
    conquered: int = 0  # conquests so far in the current turn (for next_action only)
    eliminated: frozenset[int] = frozenset()
    ended_by: Ending | None = None  # SDADATA or TIME once ended
    # settings copied from the rule set so a stored state restores on its own
    closure: str = "sdadata"
    supplementary: str = "whole_rounds"
    first_threshold: int = 4
    threshold_step: int = 1
    max_threshold: int = 7
    dice: int = 2
    bar_conquests: int = 2

    # ---------------------------------------------------------------- construction
    @classmethod
    def start(cls, rs: RuleSet, players: int, first_seat: int = 1) -> ClosureState:
        if players < 1 or not 1 <= first_seat <= players:
            raise EngineError("T-SIZE", f"cannot start a closure for {players} players at seat {first_seat}",
                              "closure.bad_start", {"players": players, "seat": first_seat})
        order = tuple(range(first_seat, players + 1)) + tuple(range(1, first_seat))
        return cls(
            seats=order,
            seat=first_seat,
            closure=rs.closure,
            supplementary=rs.supplementary,
            first_threshold=rs.sdadata_first_threshold,
            threshold_step=rs.sdadata_threshold_step,
            max_threshold=rs.sdadata_max_threshold,
            dice=rs.sdadata_dice,
            bar_conquests=rs.sdadata_bar_conquests,
        )

    # ---------------------------------------------------------------- queries
    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    @property
    def time_is_up(self) -> bool:
        return self.phase != PLAY

    def active(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.eliminated)

    def _next_seat(self, seat: int) -> tuple[int, bool]:
        """The seat after ``seat`` and whether a new round starts with it."""
        order = self.seats
        i = order.index(seat)
        for step in range(1, len(order) + 1):
            j = (i + step) % len(order)
            if order[j] not in self.eliminated:
                return order[j], i + step >= len(order)
        return seat, True

    def roll_due(self) -> bool:
        """Whether the current turn ends with a sdadata roll (before E-BAR)."""
        if self.phase == SDADATA:
            return True
        return self.phase == SUPPLEMENTARY and self.seat == self.anchor

    @property
    def threshold(self) -> int | None:
        """The sdadata threshold of the current turn's roll, or None when no roll is due."""
        return self.current_threshold()

    def current_threshold(self) -> int | None:
        if self.phase == SDADATA:
            return self.rising
        if self.phase == SUPPLEMENTARY and self.seat == self.anchor:
            return self.first_threshold
        return None

    def barred(self, conquered: int) -> bool:
        return conquered > self.bar_conquests

    def next_action(self) -> NextAction:
        s = self.seat
        if self.phase == ENDED:
            how = "a sdadata roll" if self.ended_by is Ending.SDADATA else "the end of time"
            return NextAction("ended", None, None, None, f"the game has ended by {how}", self.ended_by)
        if self.phase == PLAY:
            return NextAction("play", s, None, None, f"seat {s} plays")
        if self.phase == FINISH:
            if self.closure == "time_attack":
                return NextAction("finish_round", s, None, "S-TA", f"seat {s} finishes the round; the game ends with it")
            what = "turn" if self.supplementary == "turns" and s == self.anchor else "round"
            return NextAction("finish_round", s, None, "E-SUPP", f"seat {s} finishes the {what}")
        threshold = self.current_threshold()
        if threshold is None:
            return NextAction("supplementary", s, None, "E-SUPP", f"seat {s} plays the supplementary round")
        if self.barred(self.conquered):
            return NextAction("may_not_roll", s, threshold, "E-BAR", f"seat {s} may not roll (conquered {self.conquered})")
        return NextAction("roll", s, threshold, "E-SDADATA", f"seat {s} rolls: ends on ≤ {threshold}")

    # ---------------------------------------------------------------- transitions
    def with_conquests(self, conquered: int) -> ClosureState:
        """Conquests so far in the current turn (the referee page shows E-BAR before the roll)."""
        return replace(self, conquered=conquered)

    def time_expired(self) -> ClosureState:
        if self.closure == "none":
            raise EngineError("E-TIME", "this rule set plays without a time limit", "closure.no_time_limit")
        if self.phase == ENDED:
            raise EngineError("E-TIME", "the game has already ended", "closure.ended")
        if self.phase != PLAY:
            raise EngineError("E-TIME", "the time has already expired", "closure.already_expired")
        if self.supplementary == "turns" and self.closure != "time_attack":
            anchor = self.seat
        else:
            anchor = self.active()[-1]
        return replace(self, phase=FINISH, anchor=anchor)

    def eliminate(self, seat: int) -> ClosureState:
        """A-ELIM: the seat takes no more turns; the anchor passes to the seat playing before it."""
        if seat not in self.seats or seat in self.eliminated:
            return self
        anchor = self.anchor
        if anchor == seat:
            order = self.seats
            i = order.index(seat)
            for step in range(1, len(order)):
                candidate = order[(i - step) % len(order)]
                if candidate not in self.eliminated and candidate != seat:
                    anchor = candidate
                    break
        return replace(self, eliminated=self.eliminated | {seat}, anchor=anchor)

    def end_turn(self, seat: int, conquered: int, roll: tuple[int, ...] | None = None) -> ClosureState:
        """The turn of ``seat`` ends after ``conquered`` conquests, with its sdadata ``roll`` if any."""
        if self.phase == ENDED:
            raise EngineError("E-SDADATA", "the game has already ended", "closure.ended")
        if seat != self.seat:
            raise EngineError("T-ORDER", f"it is seat {self.seat}'s turn, not seat {seat}'s", "closure.not_your_turn",
                              {"turn": self.seat, "seat": seat})
        threshold = self.current_threshold()
        if threshold is None:
            if roll is not None and self.phase == PLAY:
                raise EngineError("E-TIME", f"seat {seat} rolled the sdadata but the time has not expired",
                                  "closure.roll_before_time", {"seat": seat})
            if roll is not None:
                raise EngineError("E-SUPP", f"no sdadata roll before the end of the supplementary round (seat {seat})",
                                  "closure.roll_in_supplementary", {"seat": seat})
        elif self.barred(conquered):
            if roll is not None:
                raise EngineError(
                    "E-BAR", f"seat {seat} conquered {conquered} territories and may not roll the sdadata",
                    "closure.barred", {"seat": seat, "conquered": conquered},
                )
        else:
            if roll is None:
                raise EngineError("E-SDADATA", f"seat {seat} must roll the sdadata (ends on ≤ {threshold})",
                                  "closure.must_roll", {"seat": seat, "threshold": threshold})
            if len(roll) != self.dice or any(not 1 <= d <= 6 for d in roll):
                raise EngineError("E-SDADATA", f"the sdadata is {self.dice} dice of 1 to 6, not {list(roll)}",
                                  "closure.bad_dice", {"dice": self.dice, "roll": ", ".join(map(str, roll))})
        if threshold is not None and roll is not None and sum(roll) <= threshold:
            return replace(self, phase=ENDED, ended_by=Ending.SDADATA, conquered=0)
        nxt, new_round = self._next_seat(seat)
        phase, new_threshold = self.phase, self.rising
        if seat == self.anchor:
            if phase == FINISH:
                if self.closure == "time_attack":
                    return replace(self, phase=ENDED, ended_by=Ending.TIME, conquered=0)
                phase = SUPPLEMENTARY
            elif phase == SUPPLEMENTARY:
                phase, new_threshold = SDADATA, self.first_threshold + self.threshold_step
            elif phase == SDADATA and new_threshold is not None:
                new_threshold = new_threshold + self.threshold_step
            if new_threshold is not None:
                new_threshold = min(new_threshold, self.max_threshold)
        return replace(
            self,
            seat=nxt,
            round=self.round + (1 if new_round else 0),
            phase=phase,
            rising=new_threshold,
            conquered=0,
        )

    # ---------------------------------------------------------------- storage
    def as_dict(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "seat": self.seat,
            "round": self.round,
            "phase": self.phase,
            "anchor": self.anchor,
            "threshold": self.threshold,  # for display; restored from "rising"
            "rising": self.rising,
            "conquered": self.conquered,
            "eliminated": sorted(self.eliminated),
            "ended_by": None if self.ended_by is None else self.ended_by.value,
            "closure": self.closure,
            "supplementary": self.supplementary,
            "first_threshold": self.first_threshold,
            "threshold_step": self.threshold_step,
            "max_threshold": self.max_threshold,
            "dice": self.dice,
            "bar_conquests": self.bar_conquests,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClosureState:
        try:
            return cls(
                seats=tuple(int(s) for s in data["seats"]),
                seat=int(data["seat"]),
                round=int(data["round"]),
                phase=str(data["phase"]),
                anchor=None if data.get("anchor") is None else int(data["anchor"]),
                rising=None if data.get("rising") is None else int(data["rising"]),
                conquered=int(data.get("conquered", 0)),
                eliminated=frozenset(int(s) for s in data.get("eliminated", [])),
                ended_by=None if data.get("ended_by") is None else Ending.parse(data["ended_by"]),
                closure=str(data["closure"]),
                supplementary=str(data["supplementary"]),
                first_threshold=int(data["first_threshold"]),
                threshold_step=int(data["threshold_step"]),
                max_threshold=int(data["max_threshold"]),
                dice=int(data["dice"]),
                bar_conquests=int(data["bar_conquests"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError("FORMAT", f"not a stored closure state: {exc}") from exc
