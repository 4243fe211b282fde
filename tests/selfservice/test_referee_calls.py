"""Call the referee: the button on the table's page (a player's link, or the table's QR code with
no link) puts the call on the referees' and organizer's pages with the table's number until one
of them takes it; a second press while it is open is the same call; only staff take calls."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from common.errors import ConflictError, DomainError, PermissionDeniedError
from selfservice import calls, signals
from selfservice.models import RefereeCall
from tables.models import Game
from tests.factories import scoring as f
from tests.selfservice.conftest import as_player
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _table(event):
    return f.make_table(event["t"], 1, event["players"][:4])


def test_a_player_calls_from_the_table_page_and_the_call_shows_until_taken(
        client, event, django_capture_on_commit_callbacks) -> None:
    table, t = _table(event), event["t"]
    anna = event["players"][0]
    page = reverse("tables:table", args=[t.slug, 1, table.number])
    button = reverse("selfservice:call", args=[t.slug, 1, table.number])
    html = client.get(page).content.decode()
    assert f'hx-get="{button}"' in html and "csrf" not in html.lower()  # the public page: no form token
    as_player(client, event, anna)
    assert "call-referee__button" in client.get(button, HTTP_HX_REQUEST="true").content.decode()
    heard = []
    signals.referee_called.connect(lambda sender, call, **kw: heard.append(call.pk), weak=False,
                                   dispatch_uid="test-called")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("selfservice:call", args=[t.slug, 1, table.number]), {"next": page})
            client.post(reverse("selfservice:call", args=[t.slug, 1, table.number]), {"next": page})  # again
    finally:
        signals.referee_called.disconnect(dispatch_uid="test-called")
    call = RefereeCall.objects.get()  # one call, however many presses
    assert call.called_by_player == anna and call.taken_at is None
    assert heard == [call.pk]  # told once (notifications plug in here: selfservice.signals)
    assert "stato chiamato" in client.get(button, HTTP_HX_REQUEST="true").content.decode()
    # on the referee's and the organizer's pages, with the table's number
    client.force_login(event["ref"])
    fragment = client.get(reverse("selfservice:calls", args=[t.slug]), HTTP_HX_REQUEST="true").content.decode()
    assert "Tavolo 1, partita 1" in fragment and anna.display_name in fragment
    manage = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert "Tavolo 1, partita 1" in manage and 'hx-trigger="every 10s"' in manage
    referee_page = client.get(reverse("tables_referee:referee_table", args=[t.slug, 1, 1])).content.decode()
    assert "Tavolo 1, partita 1" in referee_page
    client.post(reverse("selfservice:take", args=[t.slug, call.pk]))
    call.refresh_from_db()
    assert call.taken_by == event["ref"] and call.taken_at is not None
    fragment = client.get(reverse("selfservice:calls", args=[t.slug]), HTTP_HX_REQUEST="true").content.decode()
    assert "Nessun tavolo sta chiamando" in fragment
    assert sorted(AuditEntry.objects.filter(action__startswith="referee.").values_list("action", flat=True)) == [
        "referee.call", "referee.take"]


def test_the_tables_qr_code_calls_without_a_link_and_a_finished_game_does_not(client, event) -> None:
    table = _table(event)
    client.post(reverse("selfservice:call", args=[event["t"].slug, 1, table.number]))
    call = RefereeCall.objects.get()
    assert call.called_by_player is None and call.called_by is None
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    table.game.refresh_from_db()
    calls.take_call(call, actor=event["ref"])
    with pytest.raises(DomainError) as over:
        calls.call_referee(table)
    assert over.value.rule == "REFEREE-CALL"


def test_only_referees_and_organizers_take_calls_and_one_of_them_only(client, event) -> None:
    table = _table(event)
    call = calls.call_referee(table)
    with pytest.raises(PermissionDeniedError):
        calls.take_call(call, actor=f.UserFactory())
    client.force_login(f.UserFactory())  # signed in, no role here
    assert client.get(reverse("selfservice:calls", args=[event["t"].slug])).status_code == 403
    assert client.post(reverse("selfservice:take", args=[event["t"].slug, call.pk])).status_code == 403
    calls.take_call(call, actor=event["ref"])
    with pytest.raises(ConflictError) as taken:  # the organizer too late: told who went
        calls.take_call(call, actor=event["org"])
    assert event["ref"].get_username() in taken.value.message
    # taken, the table may call again: a new call
    assert calls.call_referee(table).pk != call.pk


def test_the_api_creates_lists_and_takes_calls(client, event) -> None:
    table, t = _table(event), event["t"]
    anna = event["players"][0]
    url = f"/api/tournaments/{t.slug}/games/1/tables/{table.number}/referee-calls/"
    created = client.post(url, data=json.dumps({"token": event["links"][anna.pk].token}),
                          content_type="application/json")
    assert created.status_code == 201
    body = created.json()
    assert (body["table"], body["game_number"], body["player"], body["taken_at"]) == (1, 1, anna.pk, None)
    assert client.post(f"/api/tournaments/{t.slug}/games/1/tables/9/referee-calls/", data="{}",
                       content_type="application/json").status_code == 404
    listing = f"/api/tournaments/{t.slug}/referee-calls/"
    assert client.get(listing).status_code in (401, 403)  # the public does not see them
    client.force_login(event["ref"])
    assert [c["id"] for c in client.get(listing).json()] == [body["id"]]
    taken = client.post(f"{listing}{body['id']}/take/")
    assert taken.status_code == 200 and taken.json()["taken_by_name"] == event["ref"].get_username()
    assert client.get(listing).json() == []
    client.force_login(event["org"])
    again = client.post(f"{listing}{body['id']}/take/")
    assert again.status_code == 409 and again.json()["rule"] == "REFEREE-CALL"


def test_tables_composed_and_game_started_are_told_after_the_commit(event, django_capture_on_commit_callbacks) -> None:
    """What notifications listen to ("tables published"): tables.signals, sent once committed."""
    from tables import services as table_services
    from tables import signals as table_signals
    from tournaments import services as tournament_services

    heard = []
    table_signals.tables_composed.connect(lambda sender, game, **kw: heard.append(("composed", game.number)),
                                          weak=False, dispatch_uid="test-composed")
    table_signals.game_started.connect(lambda sender, game, **kw: heard.append(("started", game.number)),
                                       weak=False, dispatch_uid="test-started")
    try:
        for p in event["players"][:8]:
            tournament_services.set_checked_in(event["regs"][p.pk], 1, True, actor=event["org"])
        with django_capture_on_commit_callbacks(execute=True):
            game = table_services.ensure_game(event["t"], 1, actor=event["org"])
            table_services.compose_game(game, actor=event["org"], effort=0.3)
            table_services.start_game(game, actor=event["org"])
    finally:
        table_signals.tables_composed.disconnect(dispatch_uid="test-composed")
        table_signals.game_started.disconnect(dispatch_uid="test-started")
    assert heard == [("composed", 1), ("started", 1)]


def test_taking_a_call_from_a_polled_list_answers_the_list(client, event) -> None:
    table = _table(event)
    call = calls.call_referee(table)
    client.force_login(event["ref"])
    answer = client.post(reverse("selfservice:take", args=[event["t"].slug, call.pk]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Nessun tavolo sta chiamando" in answer.content.decode()
    client.force_login(event["org"])  # too late: the refusal in the list's place, saying who went
    late = client.post(reverse("selfservice:take", args=[event["t"].slug, call.pk]), HTTP_HX_REQUEST="true")
    assert late["X-Refusal-Status"] == "409" and event["ref"].get_username() in late.content.decode()
