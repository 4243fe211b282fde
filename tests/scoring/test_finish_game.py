"""The organizer closes a game once every table's result is confirmed (page and API)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tables.models import Game
from tests.factories import scoring as f
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _running(setup: dict[str, Any]) -> Game:
    game = setup["table"].game
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    return game


def test_the_organizer_finishes_a_game_from_the_results_page_once_all_is_confirmed(client, setup) -> None:
    t, game = setup["t"], _running(setup)
    client.force_login(setup["org"])
    url = f"/t/{t.slug}/results/game/{game.number}/finish/"
    assert 'action="' + url + '"' in client.get(f"/t/{t.slug}/results/").content.decode()

    with translation.override("en"):
        page = client.post(url, follow=True, headers={"Accept-Language": "en"}).content.decode()
    assert "Tables without a confirmed result: 1" in page
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    data = f.board_data(setup["objectives"], armies=[30, 30, 30, 30])
    f.enter(setup["table"], setup["ref1"], "board", data, confirm_by=setup["ref2"])
    assert client.post(url).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert AuditEntry.objects.filter(action="game.finish", tournament=t).exists()


def test_only_the_organizer_may_finish_a_game(client, setup) -> None:
    t, game = setup["t"], _running(setup)
    data = f.board_data(setup["objectives"], armies=[30, 30, 30, 30])
    f.enter(setup["table"], setup["ref1"], "board", data, confirm_by=setup["ref2"])
    api = f"/api/scoring/tournaments/{t.slug}/games/{game.number}/finish/"
    assert client.post(api).status_code in (401, 403)  # anonymous
    client.force_login(setup["ref1"])  # a referee of this tournament
    assert client.post(api).status_code == 403
    assert client.post(f"/t/{t.slug}/results/game/{game.number}/finish/").status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    client.force_login(setup["org"])
    answer = client.post(api)
    assert answer.status_code == 200 and answer.json()["status"] == "finished"
