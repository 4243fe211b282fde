"""The one shape of a finding: which event, which rule, what went wrong."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.messages import english


@dataclass(frozen=True)
class Violation:
    event: int | None  # 0-based index into the record's events; None: the record as a whole
    rule: str  # a rule id of docs/rules.md (e.g. "RTU-ATT-DICE") or "FORMAT"
    message: str  # English, for the command line and logs
    # What went wrong as data, so a page can say it in its own language: a message code
    # (e.g. "board.unowned") and its parameters. Empty when the English message is all there is.
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def coded(cls, event: int | None, rule: str, code: str, **params: Any) -> Violation:
        """A finding said by its code (engine.messages): the English message comes from it."""
        return cls(event, rule, english(code, params), code, params)

    def as_dict(self) -> dict[str, object]:
        return {"event": self.event, "rule": self.rule, "message": self.message}


class EngineError(Exception):
    """Refusal of a single operation (a roll, a closure step, a deck): carries the rule id."""

    def __init__(self, rule: str, message: str, code: str = "", params: Mapping[str, Any] | None = None):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message  # English, without the rule id
        self.code = code  # a message code a page translates (see Violation.code)
        self.params = dict(params or {})

    @classmethod
    def coded(cls, rule: str, code: str, **params: Any) -> EngineError:
        """A refusal said by its code (engine.messages): the English message comes from it."""
        return cls(rule, english(code, params), code, params)

    def violation(self, event: int | None = None) -> Violation:
        return Violation(event, self.rule, self.message, self.code, self.params)
