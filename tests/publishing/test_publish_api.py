"""The receiving side of publishing, in-process: tokens, refusals and idempotence."""

from __future__ import annotations

import copy
import hmac
import json
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from engine import exact
from publishing import services as publishing
from publishing.models import ClubToken, PublishedTournament
from tests.factories.tournaments import ClubFactory

from .helpers import add_second_game, laptop_event

pytestmark = pytest.mark.django_db


def as_published(document: dict[str, Any], slug: str) -> dict[str, Any]:
    """The same database plays laptop and instance here: the copy goes under another slug."""
    return {**copy.deepcopy(document), "slug": slug}


def put(client: Client, slug: str, document: Any, token: str | None, **extra: Any) -> Any:
    body = document if isinstance(document, (bytes, str)) else exact.dumps(document)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.put(f"/api/publish/tournaments/{slug}/", body, content_type="application/json",
                      **headers, **extra)


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    e = laptop_event()
    e["token"] = publishing.issue_token(e["club"])
    e["doc"] = as_published(publishing.prepare(e["t"]), "copia")
    return e


def test_publish_creates_then_updates_one_copy(event: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)  # no CSRF token needed: not cookie-authenticated
    first = put(client, "copia", event["doc"], event["token"])
    assert first.status_code == 201, first.content
    again = put(client, "copia", event["doc"], event["token"])
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    add_second_game(event)
    newer = as_published(publishing.prepare(event["t"]), "copia")
    assert newer["sequence"] == event["doc"]["sequence"] + 1
    updated = put(client, "copia", newer, event["token"])
    assert updated.json()["status"] == "updated", updated.content
    assert PublishedTournament.objects.count() == 1
    shown = client.get("/api/publish/tournaments/copia/").json()
    assert [g["number"] for g in shown["content"]["games"]] == [1, 2]
    assert shown["content"]["standings"]["rows"] == json.loads(exact.dumps(newer["content"]["standings"]["rows"]))


def test_no_personal_data_is_sent(event: dict[str, Any]) -> None:
    text = exact.dumps(event["doc"])
    for p in event["players"]:
        p.refresh_from_db()
        assert p.email not in text and p.national_id not in text and "1990-01" not in text
        assert p.display_name in text


@pytest.mark.parametrize("header", [None, "Bearer nope", "Token x", "Bearer rkp_deadbeef00_guess"])
def test_missing_or_wrong_token_is_401(event: dict[str, Any], header: str | None) -> None:
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    r = Client().put("/api/publish/tournaments/copia/", exact.dumps(event["doc"]),
                     content_type="application/json", **extra)
    assert r.status_code == 401 and r.json()["rule"] == "PUBLISH-TOKEN"
    assert not PublishedTournament.objects.exists()


def test_a_token_one_character_off_is_refused_by_a_constant_time_compare(event: dict[str, Any]) -> None:
    token = event["token"]
    guess = token[:-1] + ("A" if token[-1] != "A" else "B")
    with mock.patch("publishing.services.hmac.compare_digest", wraps=hmac.compare_digest) as compare:
        assert put(Client(), "copia", event["doc"], guess).status_code == 401
        assert put(Client(), "copia", event["doc"], "rkp_unknown000_x").status_code == 401
    assert compare.call_count == 2  # also for an unknown prefix: no early exit to time


def test_revoked_token_is_401(event: dict[str, Any]) -> None:
    call_command("club_token", "Club Alfa", "--revoke", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert put(Client(), "copia", event["doc"], event["token"]).status_code == 401


def test_token_of_club_a_on_club_b_tournament_is_403(event: dict[str, Any]) -> None:
    other = publishing.issue_token(ClubFactory(name="Club Beta"))
    r = put(Client(), "copia", event["doc"], other)
    assert r.status_code == 403 and r.json()["rule"] == "PUBLISH-CLUB"
    assert put(Client(), "copia", event["doc"], event["token"]).status_code == 201
    # Club B cannot take over A's copy even by claiming to be A's club
    forged = {**event["doc"], "club": "Club Beta"}
    assert put(Client(), "copia", forged, other).status_code == 403
    # nor overwrite an event run on this instance by another club
    assert put(Client(), event["t"].slug, {**event["doc"], "slug": event["t"].slug,
                                           "club": "Club Beta"}, other).status_code == 403


def test_edit_on_the_instance_then_publish_is_409(event: dict[str, Any]) -> None:
    assert put(Client(), "copia", event["doc"], event["token"]).status_code == 201
    row = PublishedTournament.objects.get()
    row.payload["tournament"]["name"] = "Renamed here"
    row.save()
    add_second_game(event)
    r = put(Client(), "copia", as_published(publishing.prepare(event["t"]), "copia"), event["token"])
    assert r.status_code == 409 and r.json()["rule"] == "PUBLISH-CONFLICT"
    assert PublishedTournament.objects.get().payload["tournament"]["name"] == "Renamed here"


def test_replay_of_an_old_payload_after_an_edit_is_409(event: dict[str, Any]) -> None:
    old = event["doc"]
    assert put(Client(), "copia", old, event["token"]).status_code == 201
    add_second_game(event)
    assert put(Client(), "copia", as_published(publishing.prepare(event["t"]), "copia"),
               event["token"]).status_code == 200
    r = put(Client(), "copia", old, event["token"])
    assert r.status_code == 409 and r.json()["sequence"]
    assert len(PublishedTournament.objects.get().payload["games"]) == 2


def test_oversized_payload_is_413(event: dict[str, Any], settings: Any) -> None:
    settings.PUBLISH_MAX_BYTES = 2000
    r = put(Client(), "copia", event["doc"], event["token"])
    assert r.status_code == 413 and r.json()["rule"] == "PUBLISH-SIZE"
    assert not PublishedTournament.objects.exists()


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.pop("source_id"), "source_id"),
    (lambda d: d.update(sequence="3"), "sequence"),
    (lambda d: d["content"].pop("standings"), "content.standings"),
    (lambda d: d["content"]["players"][0].update(email="x@example.org"), "content.players[0].email"),
    (lambda d: d.update(format="other"), "format"),
])
def test_malformed_payload_is_400_naming_the_field(event: dict[str, Any], change: Any, field: str) -> None:
    doc = copy.deepcopy(event["doc"])
    change(doc)
    r = put(Client(), "copia", doc, event["token"])
    assert r.status_code == 400 and field in r.json(), r.content


def test_not_json_is_400(event: dict[str, Any]) -> None:
    r = put(Client(), "copia", b"{not json", event["token"])
    assert r.status_code == 400 and "body" in r.json()


def test_club_token_command_lists_and_revokes_one(event: dict[str, Any], capsys: Any) -> None:
    call_command("club_token", "Club Alfa")
    second = capsys.readouterr().out.strip()
    assert second.startswith("rkp_") and ClubToken.objects.filter(club=event["club"]).count() == 2
    assert second not in str(list(ClubToken.objects.values_list("token_hash", flat=True)))
    prefix = second[4:].split("_")[0]
    call_command("club_token", "Club Alfa", "--revoke", prefix)
    call_command("club_token", "--list")
    listed = capsys.readouterr().out
    assert f"{prefix}\t" in listed and "revoked" in listed and "active" in listed
    assert put(Client(), "copia", event["doc"], second).status_code == 401
    assert put(Client(), "copia", event["doc"], event["token"]).status_code == 201
    with pytest.raises(CommandError) as err:
        call_command("club_token", "Nessuno", "--revoke")
    assert err.value.returncode == 2


def test_publish_command_refuses_plain_http_to_another_host(event: dict[str, Any]) -> None:
    with pytest.raises(CommandError) as err:
        call_command("publish_tournament", event["t"].slug, "--to", "http://example.org",
                     "--token", event["token"])
    assert err.value.returncode == 2 and "https" in str(err.value)


def test_the_stable_id_travels_with_the_laptops_backup(event: dict[str, Any]) -> None:
    from tournaments import backup

    document = backup.export_tournament(event["t"])
    states = [o for o in document["objects"] if o["model"] == "tournaments.publishstate"]
    assert [s["fields"]["source_id"] for s in states] == [event["doc"]["source_id"]]
    assert not [o for o in document["objects"] if o["model"] in ("tournaments.clubtoken",
                                                                 "tournaments.publishedtournament")]


@pytest.mark.parametrize("accept", ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html"])
def test_the_published_copy_opened_in_a_browser_is_never_a_server_error(event: dict[str, Any], accept: str) -> None:
    put(Client(), "copia", event["doc"], event["token"])
    client = Client(raise_request_exception=False)
    shown = client.get("/api/publish/tournaments/copia/", HTTP_ACCEPT=accept)
    assert shown.status_code in (200, 406), shown.status_code  # JSON, or "not acceptable": never a 500
    if "*/*" in accept:
        assert shown.status_code == 200 and shown.json()["slug"] == "copia"
    missing = client.get("/api/publish/tournaments/nessuna/", HTTP_ACCEPT=accept)
    assert missing.status_code in (404, 406)
