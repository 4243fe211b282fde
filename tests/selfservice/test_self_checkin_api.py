"""The self check-in API: the player's personal link (its token, or the link opened in the
session) checks that player in, within the window; anyone else is refused."""

from __future__ import annotations

import json

import pytest

from tests.selfservice.conftest import as_player, open_window

pytestmark = pytest.mark.django_db


def _post(client, slug, body):
    return client.post(f"/api/tournaments/{slug}/checkins/self/", data=json.dumps(body),
                       content_type="application/json")


def test_self_checkin_api_by_token_or_session(client, event) -> None:
    t = event["t"]
    anna, bruno = event["players"][:2]
    closed = _post(client, t.slug, {"game_number": 1, "token": event["links"][anna.pk].token})
    assert closed.status_code == 400 and closed.json()["rule"] == "CHECKIN-WINDOW"
    assert "game_number" in closed.json()
    open_window(event, 1)
    done = _post(client, t.slug, {"game_number": 1, "token": event["links"][anna.pk].token})
    assert done.status_code == 201
    assert done.json()["player"] == anna.pk and done.json()["by_player"] is True
    assert _post(client, t.slug, {"game_number": 1}).status_code == 403  # no link at all
    assert _post(client, t.slug, {"game_number": 1, "token": "nope"}).status_code == 400
    as_player(client, event, bruno)
    assert _post(client, t.slug, {"game_number": 1}).json()["player"] == bruno.pk
    bad = _post(client, t.slug, {"game_number": "x"})
    assert bad.status_code == 400 and "game_number" in bad.json()
