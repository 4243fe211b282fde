"""The API as an outside client uses it: the table id the results endpoint needs is in the tables
API; an expiry nobody recorded is said, not assumed silently; a refused writer is told why; a
key repeated in a JSON object is refused; an event the ranking does not count says so."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tables import clocks
from tests.factories import scoring as f
from tests.tables.test_clocks import make_referee, make_table
from tests.tables.test_sdadata import Api, expire_now

pytestmark = pytest.mark.django_db
SHORT = f.short_data([(50, 10, 20, None, False), (30, 20, 20, None, False),
                      (20, 14, 20, None, False), (10, 10, 20, None, False)])


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    table = f.make_table(t, 1, f.players(t, 4))
    return {"t": t, "org": org, "ref": ref, "table": table}


def test_the_tables_api_gives_the_id_the_results_endpoint_needs(event: dict[str, Any], client: Client) -> None:
    t, table = event["t"], event["table"]
    client.force_login(event["ref"])
    listed = client.get(f"/api/tournaments/{t.slug}/games/1/tables/{table.number}/").json()
    assert listed["id"] == table.pk and listed["results_url"] == f"/api/scoring/tables/{table.pk}/results/"
    posted = client.post(listed["results_url"], {"kind": "short", "version": 0, "ended_by": "sdadata", **SHORT},
                         content_type="application/json")
    assert posted.status_code == 201, posted.content
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "results_url" in json.dumps(schema["components"]["schemas"])


def test_a_referee_of_another_tournament_is_told_why(event: dict[str, Any], client: Client) -> None:
    other = f.ScoringTournamentFactory()
    stranger = f.role(other)
    client.force_login(stranger)
    refused = client.post(f"/api/scoring/tables/{event['table'].pk}/results/",
                          {"kind": "short", "version": 0, "ended_by": "sdadata", **SHORT},
                          content_type="application/json")
    assert refused.status_code == 403
    body = refused.json()
    assert body["rule"] == "ROLE" and body["required_role"] == "referee" and body["your_role"] == ""
    assert other.slug in body["detail"] and event["t"].name in body["detail"]


def test_a_key_repeated_in_owners_is_a_400_naming_the_field(event: dict[str, Any], client: Client) -> None:
    client.force_login(event["ref"])
    raw = ('{"kind": "board", "version": 0, "ended_by": "sdadata", "players": [], '
           '"owners": {"Alaska": 1, "Alaska": 2}, "armies": {}}')
    refused = client.post(f"/api/scoring/tables/{event['table'].pk}/results/", raw, content_type="application/json")
    assert refused.status_code == 400
    body = refused.json()
    assert "owners" in body and "Alaska" in body["owners"][0] and body["rule"] == "FORMAT"
    assert not event["table"].results.exists()


def test_a_plain_rtu_tournament_without_preset_or_type_says_it_is_not_ranked(event: dict[str, Any],
                                                                               client: Client) -> None:
    t = event["t"]
    f.enter(event["table"], event["ref"], "short", SHORT, confirm_by=event["org"])
    body = client.get(f"/api/scoring/tournaments/{t.slug}/ranking/").json()
    assert body["event_type"] == "AMC" and body["event_type_source"] == "default"
    assert "AMC" in body["notice"] and "K-RANKING" in body["notice"]
    page = client.get(f"/t/{t.slug}/standings/ranking/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "tipologia" in page and "K-RANKING" in page
    t.event_type = "OPN"
    t.save()
    body = client.get(f"/api/scoring/tournaments/{t.slug}/ranking/").json()
    assert body["event_type_source"] == "tournament" and body["notice"] == ""


def test_an_expiry_with_no_turn_recorded_says_which_seat_was_assumed(client: Client) -> None:
    table = make_table(players=4)
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    api = Api(client, table)
    assert api.log()["expiry"] is None
    expire_now(table)
    log = api.log()
    assert log["expiry"]["seat"] == 1 and log["expiry"]["assumed"] is True
    assert "expiry-seat" in log["expiry"]["message"]
    said = client.post(api.base + "turns/expiry-seat/", {"seat": 3, "version": log["version"]},
                       content_type="application/json")
    assert said.status_code in (200, 201), said.content
    assert api.log()["expiry"] == {"seat": 3, "assumed": False, "message": ""}
