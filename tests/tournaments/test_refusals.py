"""One DomainError, one mapping per front end (common.errors, common.api, common.refusals,
common.commands): every kind of refusal has its HTTP status, its page and its exit code, and a
refused page action says why in the user's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from common.api import exception_handler
from common.commands import DomainCommand
from common.errors import EXIT_CODE, HTTP_STATUS, DomainError, Refusal
from common.refusals import RefusalMiddleware

EXPECTED_STATUS = {
    Refusal.INVALID: 400, Refusal.UNAUTHORISED: 401, Refusal.FORBIDDEN: 403,
    Refusal.NOT_FOUND: 404, Refusal.CONFLICT: 409, Refusal.TOO_LARGE: 413,
    Refusal.UNAVAILABLE: 503,  # the database takes no writes for now: retry
}


def test_every_kind_has_its_http_status() -> None:
    assert HTTP_STATUS == EXPECTED_STATUS and set(HTTP_STATUS) == set(Refusal)


@pytest.mark.parametrize("kind", list(Refusal))
def test_the_api_answers_every_kind_with_its_status_and_the_one_error_body(kind: Refusal) -> None:
    response = exception_handler(DomainError("No.", field="owners", rule="B-MAP", kind=kind), {})
    assert response is not None and response.status_code == EXPECTED_STATUS[kind]
    assert response.data == {"owners": ["No."], "rule": "B-MAP", "detail": "No."}


class _Refusing(DomainCommand):
    kind = Refusal.INVALID

    def handle(self, *args: Any, **options: Any) -> None:
        raise DomainError("Il club esiste già.\nDue righe.", field="name", rule="DUPLICATE", kind=self.kind)


@pytest.mark.parametrize("kind", list(Refusal))
def test_a_refused_command_exits_with_2_and_one_line(kind: Refusal) -> None:
    command = _Refusing()
    command.kind = kind
    with pytest.raises(CommandError) as refused:
        call_command(command)
    assert refused.value.returncode == EXIT_CODE == 2
    assert str(refused.value) == "Il club esiste già. Due righe."


def _request(htmx: bool = False) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().post("/t/demo/status/", headers={**headers, "Referer": "http://testserver/t/demo/manage/"})
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # noqa: SLF001 - what MessageMiddleware sets
    return request


@pytest.mark.parametrize("kind", list(Refusal))
def test_a_refused_htmx_action_answers_every_kind_with_its_status(kind: Refusal) -> None:
    middleware = RefusalMiddleware(lambda r: HttpResponse())
    response = middleware.process_exception(_request(htmx=True), DomainError("No.", rule="ROLE", kind=kind))
    assert response is not None and response.status_code == 200
    assert response["X-Refusal-Status"] == str(EXPECTED_STATUS[kind])


@pytest.mark.parametrize("kind", list(Refusal))
def test_a_refusal_a_page_lets_through_is_a_message_or_the_403_or_404_page(kind: Refusal) -> None:
    middleware = RefusalMiddleware(lambda r: HttpResponse())
    request = _request()
    refusal = DomainError("Non si può.", rule="STATUS", kind=kind)
    if kind in (Refusal.FORBIDDEN, Refusal.UNAUTHORISED, Refusal.NOT_FOUND):
        with pytest.raises(Http404 if kind is Refusal.NOT_FOUND else PermissionDenied):
            middleware.process_exception(request, refusal)
        return
    response = middleware.process_exception(request, refusal)
    assert response is not None and response.status_code == 302
    assert response["Location"] == "http://testserver/t/demo/manage/"  # back where the action came from
    assert [str(m) for m in get_messages(request)] == ["Non si può."]


@pytest.mark.django_db
def test_a_refused_page_action_says_why_in_italian(client: Any, organizer: Any, tournament: Any) -> None:
    client.force_login(organizer)
    client.cookies["django_language"] = "it"
    page = client.post(f"/t/{tournament.slug}/status/", {"status": "finished"}, follow=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Un torneo non può passare da" in html and "cannot go from" not in html


def test_no_view_formats_a_refusal_by_hand() -> None:
    """Pages say a DomainError through common.refusals (refuse, shown, add_to_form), never by
    formatting it into a message or turning it into PermissionDenied themselves."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    by_hand = re.compile(r"messages\.error\(request, (exc|str\(exc|getattr\(exc|f\"\{exc)"
                         r"|raise PermissionDenied\(exc|except PermissionDeniedError")
    found = [f"{path.relative_to(root)}:{n}" for folder in ("tournaments", "tables", "scoring", "workbook", "history", "seasons", "publishing", "config")
             for path in (root / folder).rglob("*.py")
             for n, line in enumerate(path.read_text().splitlines(), 1) if by_hand.search(line)]
    assert found == []
