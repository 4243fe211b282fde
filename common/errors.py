"""Domain errors raised by services and understood by every front end.

A service refuses by raising :class:`DomainError`: the message (in the user's language), the rule
id (docs/rules.md) it breaks or a project code (``ROLE``, ``VERSION``, ``CAPACITY``…), the field
it concerns, and its :class:`Refusal` kind. Each front end turns it into its own answer in one
place, from the kind:

- the REST API (``common.api.exception_handler``): the status of :data:`HTTP_STATUS` and one
  ``Error`` body, :meth:`DomainError.as_dict` (``{field: [message], "rule", "detail"}``); a 503
  (the database is read-only: :func:`read_only_refusal`) also says ``Retry-After``;
- pages (``common.refusals.RefusalMiddleware``): an htmx action gets the refusal fragment; a page's
  action gets a message on the page it came from (forbidden: the 403 page; not found: the 404
  page); a form keeps what was typed and shows it next to the field (``common.refusals.add_to_form``);
- management commands (``common.commands.DomainCommand``): exit code :data:`EXIT_CODE` with the
  one-line :attr:`DomainError.text`.
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    INVALID = "invalid"  # bad input: what to fix is in the message (and the field)
    UNAUTHORISED = "unauthorised"  # no valid credentials (a club's publishing token)
    FORBIDDEN = "forbidden"  # signed in, but not allowed (rule ROLE)
    NOT_FOUND = "not_found"  # what was acted on does not exist (any more)
    CONFLICT = "conflict"  # a lost race: someone changed the same thing first; reload
    TOO_LARGE = "too_large"  # over a size limit (an upload, a published tournament)
    UNAVAILABLE = "unavailable"  # the database takes no writes for now (failover): nothing saved, retry


HTTP_STATUS: dict[Refusal, int] = {
    Refusal.INVALID: 400, Refusal.UNAUTHORISED: 401, Refusal.FORBIDDEN: 403,
    Refusal.NOT_FOUND: 404, Refusal.CONFLICT: 409, Refusal.TOO_LARGE: 413, Refusal.UNAVAILABLE: 503,
}
RETRY_AFTER_SECONDS = 30  # the API's Retry-After when the database takes no writes
EXIT_CODE = 2  # a refused command, whatever the kind (as the engine's command line: unusable input)


class DomainError(Exception):
    kind: Refusal = Refusal.INVALID

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None,
                 kind: Refusal | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        if kind is not None:
            self.kind = kind

    @property
    def status_code(self) -> int:
        return HTTP_STATUS[self.kind]

    @property
    def exit_code(self) -> int:
        return EXIT_CODE

    @property
    def text(self) -> str:
        """The message as a page or a console shows it, on one line: a rule id of the rules
        (``D-50``, ``K-BEST2``) is cited after it; an internal kind of refusal (``DUPLICATE``,
        ``REQUIRED``, ``STATUS``…) is not, the sentence says it (the API still gives it as
        ``rule``)."""
        message = " ".join(self.message.split())
        return f"{message} [{self.rule}]" if self.rule and "-" in self.rule else message

    def as_dict(self) -> dict[str, object]:
        key = self.field or "non_field_errors"
        return {key: [self.message], "rule": self.rule, "detail": self.message}


class ConflictError(DomainError):
    kind = Refusal.CONFLICT


class PermissionDeniedError(DomainError):
    kind = Refusal.FORBIDDEN


class NotFoundError(DomainError):
    kind = Refusal.NOT_FOUND


class UnavailableError(DomainError):
    kind = Refusal.UNAVAILABLE


READ_ONLY_SQLSTATE = "25006"  # PostgreSQL: read_only_sql_transaction


def read_only_refusal(exc: BaseException) -> UnavailableError | None:
    """The refusal to show for a database error that says the database is read-only (a
    failover's standby, maintenance: ``default_transaction_read_only``), else None."""
    from django.utils.translation import gettext as _

    cause = exc.__cause__ or exc
    read_only = getattr(cause, "sqlstate", None) == READ_ONLY_SQLSTATE or "readonly database" in str(exc)
    if not read_only:
        return None
    return UnavailableError(_("The database accepts no changes at the moment (maintenance or a switch to "
                              "another server). Nothing was saved: try again in a minute."), rule="READ_ONLY")

