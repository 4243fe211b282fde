"""Domain errors raised by services and understood by every front end.

A service refuses bad input by raising :class:`DomainError` with the field it concerns and the
rule id (docs/rules.md) that it breaks (or a project code such as ``CAPACITY``). The REST API turns
it into HTTP 400 (``{"field": [...], "rule": ...}``), pages show it next to the field and keep
what was typed. :class:`ConflictError` is a lost race (HTTP 409): someone else changed the same
thing first; the message says what to reload.
"""

from __future__ import annotations


class DomainError(Exception):
    status_code = 400

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule

    @property
    def text(self) -> str:
        """The message as a page shows it: a rule id of the rules (``D-50``, ``K-BEST2``) is
        cited after it; an internal kind of refusal (``DUPLICATE``, ``REQUIRED``, ``STATUS``…)
        is not, the sentence says it (the API still gives it as ``rule``)."""
        return f"{self.message} [{self.rule}]" if self.rule and "-" in self.rule else self.message

    def as_dict(self) -> dict[str, object]:
        key = self.field or "non_field_errors"
        return {key: [self.message], "rule": self.rule, "detail": self.message}


class ConflictError(DomainError):
    status_code = 409


class PermissionDeniedError(DomainError):
    status_code = 403
