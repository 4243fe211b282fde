"""The OpenAPI schema (drf-spectacular) tells the truth about errors: every operation documents
the error answers it can give, all with one ``Error`` body (tests/hardening/test_schemathesis.py
checks status codes and bodies against it)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as _SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter

# Every error body of the API: DomainError.as_dict() ({field: [message], "rule", "detail"}, plus
# "line" for a file), DRF's {"detail": ...} or {field: [messages]}, the edge's 413/NUL answers.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "An error: `detail` says what went wrong, `rule` the rule id or project code "
                   "(e.g. `LIMIT`, `FORMAT`, `CSV`, `ROLE`), other keys name a field and list its errors.",
    "properties": {
        "detail": {"type": "string"},
        "rule": {"type": "string", "nullable": True},
        "line": {"type": "integer", "description": "The line or row of an uploaded file."},
    },
    "additionalProperties": True,
}
ERRORS = {
    "400": "Bad input: the field and the rule it breaks.",
    "401": "Wrong or missing credentials.",
    "403": "Not allowed for this user (organizer, referee or player link required).",
    "404": "No such object.",
    "405": "Method not allowed.",
    "409": "Conflict: someone else changed the same thing first; reload and retry.",
    "413": "The request body or the uploaded file is over its size limit.",
    "429": "Too many failed logins for this username from this address (Retry-After).",
}
WRITE_ONLY_ERRORS = ("409", "413")
WRITES = ("POST", "PUT", "PATCH", "DELETE")

IDEMPOTENCY_HEADER = "Idempotency-Key"  # every write accepts it (tournaments/idempotency.py)
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_HEADER, str, location=OpenApiParameter.HEADER, required=False,
    description=(
        "A key of your choice (a UUID) naming this write, at most 100 printable characters. "
        "Sent again with the same request (the answer was lost, the connection dropped), it gets "
        "the answer the write got the first time, with its status, and writes nothing more. "
        "Keys are kept 7 days per user; the same key with another request (another path or body) "
        "is a 400 (rule IDEMPOTENCY). A refused write (4xx) is not kept: it may be sent again."),
)


class AutoSchema(_SpectacularAutoSchema):
    """drf-spectacular's schema with the error answers every operation can give (ERRORS), and
    the ``Idempotency-Key`` header on every write."""

    def get_override_parameters(self) -> list[Any]:
        own = list(super().get_override_parameters())
        return [*own, IDEMPOTENCY_PARAMETER] if self.method in WRITES else own

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        write = self.method in WRITES
        for code, description in ERRORS.items():
            if code in responses or (code in WRITE_ONLY_ERRORS and not write):
                continue
            responses[code] = {"description": description,
                               "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        return responses


def error_component_hook(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Adds the shared ``Error`` component that AutoSchema's error responses point at."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    return result
