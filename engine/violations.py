"""The one shape of a finding: which event, which rule, what went wrong."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Violation:
    event: int | None  # 0-based index into the record's events; None: the record as a whole
    rule: str  # a rule id of docs/rules.md (e.g. "RTU-ATT-DICE") or "FORMAT"
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"event": self.event, "rule": self.rule, "message": self.message}


class EngineError(Exception):
    """Refusal of a single operation (a roll, a closure step, a deck): carries the rule id."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
