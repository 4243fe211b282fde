"""Hostile input: hypothesis throws generated input at the engine's record parser and at
every CSV import (the service and its two front ends, the page and the API). Never an exception:
always a result, or a clear refusal (a message naming the problem; the line and field for CSV;
nothing half imported).

``HARDENING_EXAMPLES`` (default 150) scales every test up for the documented large run:
``HARDENING_EXAMPLES=5000 pytest tests/hardening/test_fuzz.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import DomainError
from engine.record import parse_record
from engine.replay import adjudicate
from engine.simulate import simulate
from tournaments import services
from tournaments.models import Registration

EXAMPLES = int(os.environ.get("HARDENING_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])
RECORD = simulate(5, "hardening-fuzz")
RECORD_TEXT = json.dumps(RECORD)
CRASH_PREFIX = "unreadable record ("  # parse_record's last-resort message: a bug we caught

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = (), width: int = 30) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (the first ``width`` items of each list)."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k), width)
    elif isinstance(value, list):
        for i, v in enumerate(value[:width]):
            out += _paths(v, (*prefix, i), width)
    return out


PATHS = [p for p in _paths(RECORD) if p]


def _set(doc: Any, path: tuple[Any, ...], value: Any, delete: bool) -> None:
    *head, last = path
    for key in head:
        doc = doc[key]
    if delete:
        del doc[last]
    else:
        doc[last] = value


def _clear(result: Any) -> None:
    """A refusal says what is wrong and is not the parser's crash fallback."""
    if result.record is None or result.problems:
        assert result.problems and all(p.strip() for p in result.problems)
        assert not any(p.startswith(CRASH_PREFIX) for p in result.problems), result.problems


@FUZZ
@given(edits=st.lists(st.tuples(st.sampled_from(PATHS), json_values, st.booleans()),
                      min_size=1, max_size=4))
def test_records_with_changed_or_missing_fields_are_read_or_refused_clearly(edits: list[Any]) -> None:
    doc = copy.deepcopy(RECORD)
    for path, value, delete in edits:
        try:
            _set(doc, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed the path
    _clear(parse_record(doc))
    verdict = adjudicate(doc)  # the whole engine, not only the reader
    assert isinstance(verdict["valid"], bool)
    if not verdict["valid"]:
        assert verdict["violations"] and all(v["rule"] and v["message"] for v in verdict["violations"])


@FUZZ
@given(st.data())
def test_damaged_record_text_is_read_or_refused_clearly(data: Any) -> None:
    raw = bytearray(RECORD_TEXT.encode())
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["flip", "cut", "dup"]))
        if action == "flip":
            raw[i] = data.draw(st.integers(0, 255))
        elif action == "cut":
            del raw[i:i + data.draw(st.integers(1, 50))]
        else:
            raw[i:i] = raw[i:i + data.draw(st.integers(1, 50))]
    _clear(parse_record(bytes(raw)))


@FUZZ
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_bytes_are_refused_clearly(raw: bytes) -> None:
    _clear(parse_record(raw))


# --- CSV imports ---------------------------------------------------------------------------------
HEADERS = ["first_name", "last_name", "nickname", "club", "email", "birth_date", "status", "nome",
           "cognome", "circolo", "data di nascita", "E-Mail", "", "bogus", "national_id", "codice"]
cells = st.one_of(
    st.text(max_size=25),
    st.sampled_from(["Mario", "Rossi", "1990-02-30", "2001-01-01", "31/12/1999", "x@y", "a@b.it", "RCU-1",
                     "=cmd|' /C calc'!A0", "\x00", "\"", "'", ";", ",", "\n", "\r\n", "Å" * 90,
                     "RisiKo Club Roma", "registered", "waitlisted", " "]),
)


@st.composite
def csv_files(draw: Any) -> bytes:
    sep = draw(st.sampled_from([",", ";", "\t", "|"]))
    header = draw(st.lists(st.sampled_from(HEADERS), min_size=0, max_size=8))
    if draw(st.booleans()):
        header = ["first_name", "last_name", *header]
    rows = draw(st.lists(st.lists(cells, max_size=9), max_size=6))
    text = "\n".join(sep.join(r) for r in [header, *rows])
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "latin-1"]))
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


@FUZZ
@given(content=csv_files() | st.binary(max_size=200))
def test_csv_import_service_imports_everything_or_nothing(
    demo_module: Any, db: Any, content: bytes,
) -> None:
    from django.contrib.auth import get_user_model

    tournament = demo_module
    organizer = get_user_model().objects.get(username="organizzatore")
    before = Registration.objects.filter(tournament=tournament).count()
    try:
        created = services.import_csv(tournament, content, actor=organizer)
    except DomainError as exc:
        assert exc.message and exc.rule == "CSV"
        assert isinstance(getattr(exc, "line", None), int)
        assert Registration.objects.filter(tournament=tournament).count() == before
    else:
        assert Registration.objects.filter(tournament=tournament).count() == before + len(created)
        for reg in created:  # what was imported is what a person could have typed
            assert reg.player.first_name.strip() and reg.player.last_name.strip()


@settings(max_examples=max(20, EXAMPLES // 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(content=csv_files())
def test_csv_import_page_and_api_never_answer_a_server_error(
    demo_module: Any, db: Any, content: bytes,
) -> None:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username="organizzatore"))
    page = client.post("/t/demo/registrations/import/",
                       {"file": SimpleUploadedFile("players.csv", content, "text/csv")})
    assert page.status_code in (200, 302, 400), page.status_code
    assert "/accounts/login/" not in page.get("Location", "")
    api = client.post("/api/tournaments/demo/registrations/import/",
                      {"file": SimpleUploadedFile("players.csv", content, "text/csv")})
    assert api.status_code in (200, 201, 400), (api.status_code, api.content[:300])
    if api.status_code == 400:
        body = api.json()
        assert body.get("rule") in ("CSV", None) and body


def test_a_stray_carriage_return_is_a_clear_csv_refusal_not_a_crash(demo_module: Any, db: Any) -> None:
    """Found by the fuzzer above: csv.Error used to escape import_csv (HTTP 500)."""
    client = Client()
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="organizzatore"))
    content = b"first_name,last_name\nMario,Ro\rssi\n"
    response = client.post("/api/tournaments/demo/registrations/import/",
                           {"file": SimpleUploadedFile("p.csv", content, "text/csv")})
    assert response.status_code == 400
    assert response.json()["rule"] == "CSV" and response.json()["line"] >= 1


def test_a_huge_knockout_plan_is_refused_quickly_not_computed(demo_module: Any, db: Any) -> None:
    """Found by schemathesis: the public plan endpoint with ?entrants=10**9 ran for minutes."""
    import time

    started = time.perf_counter()
    response = Client().get("/api/tournaments/demo/knockout-plan/?entrants=1000000000")
    assert response.status_code == 400 and response.json()["rule"] == "K-KO"
    assert time.perf_counter() - started < 2
