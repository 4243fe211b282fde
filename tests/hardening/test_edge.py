"""The edge of the app (common/edge.py): bounded request bodies and uploads, and no NUL character
reaching PostgreSQL from a path, a query string, a form, a JSON body or an uploaded file.

The NUL tests that walk every route need PostgreSQL (SQLite stores NUL happily, PostgreSQL
refuses the query: HTTP 500); they skip without it, which fails the run under CI=true.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client

from tests.hardening.urlmap import all_routes, demo_world, url_of
from tournaments.models import Player, Registration, Tournament
from tournaments.spreadsheets import LIMITS

MB = 1024 * 1024
NUL_PARAMS = "q=Ma%00rio&search=%00&player=%00&path=%00&game=%00&kind=%00&entrants=%00&limit=%00"


def _organizer(**extra: Any) -> Client:
    client = Client(raise_request_exception=False, **extra)
    client.force_login(get_user_model().objects.get(username="organizzatore"))
    return client


@pytest.fixture
def postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("NUL is a server error only on PostgreSQL (set DATABASE_URL)")


# --- sizes -------------------------------------------------------------------------------
def test_an_oversized_api_body_is_a_413_in_italian_and_english(demo_module: Tournament, db: Any) -> None:
    body = {"file": SimpleUploadedFile("p.csv", b"a" * (7 * MB), "text/csv")}
    url = f"/api/tournaments/{demo_module.slug}/registrations/import/"
    italian = _organizer().post(url, body)
    assert italian.status_code == 413 and italian.json()["rule"] == "LIMIT"
    assert "troppo grande" in italian.json()["detail"]
    body["file"].seek(0)
    english = _organizer(HTTP_ACCEPT_LANGUAGE="en").post(url, body)
    assert english.status_code == 413 and "too large" in english.json()["detail"]


def test_an_upload_over_the_file_limit_is_a_413_on_the_api(demo_module: Tournament, db: Any) -> None:
    big = b"first_name,last_name\n" + b"Mario,Rossi\n" * ((LIMITS.upload_bytes // 12) + 10)
    assert LIMITS.upload_bytes < len(big) < 6 * MB
    for url, name in ((f"/api/tournaments/{demo_module.slug}/registrations/import/", "p.csv"),
                      (f"/api/tournaments/{demo_module.slug}/registrations/iscritti/", "p.xlsx")):
        response = _organizer().post(url, {"file": SimpleUploadedFile(name, big)})
        assert response.status_code == 413, (url, response.content[:200])
        assert "5 MB" in response.json()["detail"]


def test_an_upload_over_the_file_limit_keeps_the_page_whole(demo_module: Tournament, db: Any) -> None:
    big = b"first_name,last_name\n" + b"Mario,Rossi\n" * ((LIMITS.upload_bytes // 12) + 10)
    for url, name in ((f"/t/{demo_module.slug}/registrations/import/", "p.csv"),
                      (f"/t/{demo_module.slug}/registrations/iscritti/", "p.xlsx")):
        response = _organizer(HTTP_ACCEPT_LANGUAGE="en").post(url, {"file": SimpleUploadedFile(name, big)})
        assert response.status_code == 400, url
        assert b"</html>" in response.content and b"larger than 5 MB" in response.content


def test_an_oversized_page_body_is_a_413_page(demo_module: Tournament, db: Any) -> None:
    response = _organizer().post(f"/t/{demo_module.slug}/registrations/import/",
                                 {"file": SimpleUploadedFile("p.csv", b"a" * (7 * MB))})
    assert response.status_code == 413 and "troppo grande" in response.content.decode()


def test_a_json_body_nested_too_deep_is_a_400(demo_module: Tournament, db: Any) -> None:
    response = _organizer().post(f"/api/tournaments/{demo_module.slug}/registrations/",
                                 "[" * 100_000, content_type="application/json")
    assert response.status_code == 400, response.status_code


# --- NUL ---------------------------------------------------------------------------------
def test_nul_in_an_api_query_or_json_body_is_a_400_naming_the_field(demo_module: Tournament, db: Any) -> None:
    client = _organizer()
    search = client.get("/api/players/?search=Ma%00rio")
    assert search.status_code == 400 and "search" in search.json()
    body = client.post(f"/api/tournaments/{demo_module.slug}/registrations/",
                       {"first_name": "Ma\u0000rio", "last_name": "Rossi"}, content_type="application/json")
    assert body.status_code == 400 and "first_name" in body.json(), body.content
    assert not Player.objects.filter(last_name="Rossi", first_name__contains="rio").exclude(
        pk__in=Player.objects.filter(registrations__tournament=demo_module).values("pk")).exists()


def test_nul_in_a_page_form_becomes_the_replacement_character(demo_module: Tournament, db: Any) -> None:
    client = _organizer()
    response = client.post(f"/t/{demo_module.slug}/register/",
                           {"first_name": "Zeno\x00", "last_name": "Nul\x00lo", "nickname": "", "club": "",
                            "email": "", "birth_date": ""})
    assert response.status_code in (200, 302), response.status_code
    assert Registration.objects.filter(tournament=demo_module, player__last_name="Nul\ufffdlo").exists()
    search = client.get(f"/t/{demo_module.slug}/registrations/?q=Nul%00lo")
    assert search.status_code == 200


def test_nul_in_a_csv_cell_names_its_line(demo_module: Tournament, db: Any) -> None:
    content = b"first_name,last_name\nMario,Rossi\nAnna,Ne\x00ri\n"
    response = _organizer().post(f"/api/tournaments/{demo_module.slug}/registrations/import/",
                                 {"file": SimpleUploadedFile("p.csv", content, "text/csv")})
    assert response.status_code == 400 and response.json()["line"] == 1  # a binary file: refused whole
    text = "first_name,last_name\nMario,Rossi\nAnna,Ne\x00ri\n"
    response = _organizer().post(f"/api/tournaments/{demo_module.slug}/registrations/import/",
                                 {"text": text}, content_type="application/json")
    assert response.status_code == 400  # NUL in the JSON string


def test_a_utf16_csv_is_read(demo_module: Tournament, db: Any) -> None:
    content = "first_name,last_name\nNiccolò,Ütz\n".encode("utf-16")
    response = _organizer().post(f"/api/tournaments/{demo_module.slug}/registrations/import/",
                                 {"file": SimpleUploadedFile("p.csv", content, "text/csv")})
    assert response.status_code == 201, response.content
    assert Player.objects.filter(first_name="Niccolò", last_name="Ütz").exists()


def test_nul_in_an_uploaded_record_is_a_400(demo_module: Tournament, db: Any) -> None:
    world = demo_world()
    record = json.dumps({"players": ["Ma\u0000rio"]}).encode()
    response = _organizer().post(f"/t/{demo_module.slug}/results/table/{world.table2}/enter/",
                                 {"kind": "record", "version": "0",
                                  "record": SimpleUploadedFile("r.json", record, "application/json")})
    assert response.status_code == 400 and b"NUL" in response.content


@pytest.mark.postgres
def test_nul_anywhere_is_never_a_server_error_on_postgresql(postgres: None, demo_module: Tournament,
                                                            db: Any) -> None:
    world = demo_world()
    client = _organizer()
    anonymous = Client(raise_request_exception=False)
    problems = []
    for route in all_routes():
        url = url_of(route, world)
        for who, c in (("organizer", client), ("anonymous", anonymous)):
            got = c.get(f"{url}?{NUL_PARAMS}")
            if got.status_code >= 500:
                problems.append(f"{who} GET {url}?…%00: {got.status_code}")
        form = {"first_name": "Ma\x00rio", "last_name": "Ros\x00si", "name": "\x00", "q": "\x00",
                "username": "org\x00", "national_id": "X\x00", "kind": "\x00", "token": "\x00"}
        if route.is_api:
            got = client.post(url, json.dumps(form), content_type="application/json")
        else:
            got = client.post(url, form)
        if got.status_code >= 500:
            problems.append(f"POST {url}: {got.status_code}")
    for path in ("/l/%00abc/", "/api/players/%00/", "/t/demo%00/"):
        got = anonymous.get(path)
        if got.status_code >= 500:
            problems.append(f"GET {path}: {got.status_code}")
    anonymous.cookies["sessionid"] = "abcdefgh\x00ijkl"
    if anonymous.get("/").status_code >= 500:
        problems.append("a session cookie with NUL")
    assert problems == []


def test_an_id_out_of_range_in_a_json_body_is_a_400(demo_module: Tournament, db: Any) -> None:
    """Found by schemathesis: a 30-digit id in the merge body overflowed the database integer."""
    client = _organizer()
    merge = client.post(f"/api/tournaments/{demo_module.slug}/players/merge/", {"keep": 10**30, "drop": 1},
                        content_type="application/json")
    assert merge.status_code == 400
    checkin = client.post(f"/api/tournaments/{demo_module.slug}/checkins/",
                          {"registration": 2**63, "game_number": 1, "present": True},
                          content_type="application/json")
    assert checkin.status_code < 500, checkin.status_code
