"""The verdict of an adjudicated record: the contract's JSON object and a readable text form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.endings import Ending, FinalBoard
from engine.violations import Violation


@dataclass(frozen=True)
class Verdict:
    violations: tuple[Violation, ...]
    final: FinalBoard  # how the game ended and the board it ended on (or stopped at)
    rounds: int
    scores: tuple[Mapping[str, Any], ...] = ()

    @property
    def ended_by(self) -> Ending:
        return self.final.ended_by

    @property
    def owners(self) -> Mapping[str, int]:
        return self.final.owners

    @property
    def armies(self) -> Mapping[str, int]:
        return self.final.armies

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def unusable(self) -> bool:
        """The record could not be read at all (exit code 2)."""
        return any(v.rule == "FORMAT" and v.event is None for v in self.violations)

    @classmethod
    def format_error(cls, message: str) -> Verdict:
        return cls(violations=(Violation(None, "FORMAT", message),), final=FinalBoard(Ending.INCOMPLETE, ()),
                   rounds=0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "violations": [v.as_dict() for v in self.violations],
            "ended_by": self.ended_by.value,
            "rounds": self.rounds,
            "final": {"owners": dict(self.owners), "armies": dict(self.armies)},
            "scores": [dict(s) for s in self.scores],
        }


def format_verdict(verdict: Verdict | Mapping[str, Any]) -> str:
    """Plain text for a referee at a terminal."""
    data = verdict.as_dict() if isinstance(verdict, Verdict) else verdict
    lines = [
        f"{'VALID' if data['valid'] else 'INVALID'}: ended by {data['ended_by']} after {data['rounds']} round(s)",
    ]
    for v in data["violations"]:
        where = "record" if v["event"] is None else f"event {v['event']}"
        lines.append(f"  {where}: {v['rule']}: {v['message']}")
    if data["scores"]:
        lines.append("  place seat  score  extra  armies  points")
        for s in sorted(data["scores"], key=lambda s: (s["place"], s["seat"])):
            lines.append(
                f"  {s['place']:>5} {s['seat']:>4} {s['game_score']:>6} {s['extra_objective']:>6}"
                f" {s['armies']:>7} {s['tournament_points']:>7}"
            )
    return "\n".join(lines)
