"""Polls answered before Django builds a request (common/live.py: LiveFirst, the WSGI application
of config/wsgi.py): the same answers as the whole stack gives, never a stale or personal one; and
versions bumped by another process heard at once (the Redis channel)."""

from __future__ import annotations

import gzip
import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory

from common import live
from scoring import services
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live_on(settings: Any) -> None:
    settings.LIVE_CACHE = True


class Counted:
    """Django's WSGI application, counting the requests it is given."""

    def __init__(self) -> None:
        self.django = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.django(environ, start_response)


@pytest.fixture
def app() -> Iterator[tuple[live.LiveFirst, Counted]]:
    # as the test client does: the test's transaction keeps its database connection
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    inner = Counted()
    yield live.LiveFirst(inner), inner
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def get(app: live.LiveFirst, url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    environ = RequestFactory().get(url, headers=headers).environ
    answer: list[Any] = []
    result = app(environ, lambda status, hs, *a: answer.extend([status, hs]))
    body = b"".join(result)
    getattr(result, "close", lambda: None)()
    return int(answer[0].split()[0]), dict(answer[1]), body


def test_an_unchanged_poll_is_answered_without_django_with_the_same_headers(
        app: tuple[live.LiveFirst, Counted], setup: dict[str, Any]) -> None:
    first, django = app
    url = f"/t/{setup['t'].slug}/standings/"
    status, headers, _body = get(first, url, **{"HX-Request": "true"})
    etag = headers["ETag"]
    through_django = get(first, url, **{"HX-Request": "true", "If-None-Match": etag})
    assert through_django[0] == 304 and django.calls == 2
    answered_first = get(first, url, **{"HX-Request": "true", "If-None-Match": etag})
    assert django.calls == 2  # Django never saw it
    assert answered_first == through_django  # status, every header (security ones too), no body
    # another page, another language: their own validators, still answered 304 first
    other = get(first, url, **{"Accept-Language": "en"})[1]["ETag"]
    assert other != etag
    assert get(first, url, **{"Accept-Language": "en", "If-None-Match": other})[0] == 304
    assert get(first, url, **{"Accept-Language": "en", "If-None-Match": etag})[0] == 200


def test_a_page_kept_is_the_page_django_gave_until_something_changes(
        app: tuple[live.LiveFirst, Counted], setup: dict[str, Any]) -> None:
    first, django = app
    t, table = setup["t"], setup["table"]
    url = f"/t/{t.slug}/standings/"
    zipped = get(first, url, **{"Accept-Encoding": "gzip"})
    plain = get(first, url)
    assert django.calls == 2 and zipped[1]["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain[1]
    assert get(first, url, **{"Accept-Encoding": "gzip"}) == zipped and get(first, url) == plain
    assert django.calls == 2
    assert gzip.decompress(zipped[2]) == plain[2]

    board = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    sub = f.enter(table, setup["ref1"], "board", board, ended_by="objective")
    services.confirm_result(actor=setup["ref2"], submission=sub)
    status, headers, body = get(first, url)
    assert django.calls == 3 and status == 200
    assert headers["ETag"] != plain[1]["ETag"] and body != plain[2]
    assert get(first, url, **{"If-None-Match": plain[1]["ETag"]})[0] == 200  # the old validator never matches


def test_sessions_bodies_and_plain_http_to_be_redirected_go_to_django(
        app: tuple[live.LiveFirst, Counted], setup: dict[str, Any], settings: Any) -> None:
    first, django = app
    url = f"/t/{setup['t'].slug}/standings/"
    etag = get(first, url)[1]["ETag"]
    assert get(first, url, **{"If-None-Match": etag})[0] == 304
    calls = django.calls
    get(first, url, **{"If-None-Match": etag, "Cookie": f"{settings.SESSION_COOKIE_NAME}=abc"})
    get(first, url + "?q=%00", **{"If-None-Match": etag})
    assert django.calls == calls + 2
    settings.SECURE_SSL_REDIRECT = True
    redirecting = live.LiveFirst(Counted())  # the security middleware reads the setting once
    redirecting.not_modified = dict(first.not_modified)
    status, headers, _body = get(redirecting, url, **{"If-None-Match": etag})
    assert status == 301 and headers["Location"].startswith("https://")


@pytest.mark.redis
def test_a_version_bumped_by_another_process_is_heard_at_once(settings: Any) -> None:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("needs REDIS_URL (the channel is Redis's)")
    settings.LIVE_HEARD_SECONDS = 60  # only hearing the change can explain seeing it
    deadline = time.monotonic() + 5
    while not live._listener.listening() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live._listener.listening()
    slug = f"ascoltato-{uuid.uuid4().hex}"
    key = live.tournament_key(slug)
    heard = live._listener.heard
    before = live.versions(slug)[1]  # a new number, announced: wait until it is heard here
    deadline = time.monotonic() + 2
    while live._listener.heard == heard and time.monotonic() < deadline:
        time.sleep(0.005)
    before = live.versions(slug)[1]
    cache.incr(key)  # another process's write, not announced: this process keeps its number
    assert live.versions(slug)[1] == before
    cache.incr(key)
    live._listener.announce(key)  # what another process's bump does
    deadline = time.monotonic() + 2
    while live.versions(slug)[1] == before and time.monotonic() < deadline:
        time.sleep(0.005)
    assert live.versions(slug)[1] == before + 2


def test_phones_asking_for_a_page_while_it_renders_get_that_render(setup: dict[str, Any]) -> None:
    """Forty phones poll a leaderboard a result has just changed: the page is rendered once in a
    process, the others wait for it and get it replayed, byte for byte."""
    import threading

    from django.http import HttpResponse

    renders = []

    def slow_view(request: Any) -> HttpResponse:
        renders.append(request.path)
        time.sleep(0.3)  # a render long enough for the other phones to arrive meanwhile
        return HttpResponse(f"<p>{len(renders)}</p>".encode() * 200)

    middleware = live.LiveEarlyMiddleware(slow_view)
    url = f"/t/{setup['t'].slug}/standings/"
    answers: list[bytes] = []

    def phone() -> None:
        answers.append(middleware(RequestFactory().get(url)).content)

    phones = [threading.Thread(target=phone) for _ in range(6)]
    for p in phones:
        p.start()
    for p in phones:
        p.join()
    assert len(renders) == 1
    assert len(answers) == 6 and len(set(answers)) == 1
