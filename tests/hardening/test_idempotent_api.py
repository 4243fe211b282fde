"""Every write of the REST API sent again with its ``Idempotency-Key`` (the answer was lost, the
offline referee queue retries) gets the answer it got the first time and writes nothing more;
the same key with another request is a 400 (rule IDEMPOTENCY); without a key nothing changes
(tournaments/idempotency.py, ApiIdempotencyMiddleware)."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.test import Client

from tables import clocks
from tables.models import ClockEvent, Table, TurnEvent
from tests.factories.tournaments import RegistrationFactory
from tests.tables.test_clocks import make_referee, make_table, make_tournament
from tournaments.models import AuditEntry, IdempotentWrite, Registration, TournamentRole

pytestmark = pytest.mark.django_db


def _base(table: Table) -> str:
    g = table.game
    return f"/api/tournaments/{g.tournament.slug}/games/{g.number}/tables/{table.number}/"


def _post(client: Any, url: str, body: dict[str, Any], key: str | None = None, method: str = "post") -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return getattr(client, method)(url, body, content_type="application/json", **headers)


@pytest.fixture
def running(client: Any) -> Table:
    table = make_table(players=4)
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    return table


def test_a_referee_step_sent_again_is_recorded_once_with_the_same_answer(client: Any, running: Table) -> None:
    url = _base(running) + "turns/"
    first = _post(client, url, {"seat": 1, "conquered": 0}, "turn-1")
    again = _post(client, url, {"seat": 1, "conquered": 0}, "turn-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert TurnEvent.objects.filter(table=running).count() == 1
    # another step under the same key is refused, and nothing is recorded
    other = _post(client, url, {"seat": 2, "conquered": 0}, "turn-1")
    assert other.status_code == 400 and other.json()["rule"] == "IDEMPOTENCY"
    assert TurnEvent.objects.filter(table=running).count() == 1
    # without a key the repeat is what it always was: out of turn
    assert _post(client, url, {"seat": 1, "conquered": 0}).json()["rule"] == "T-ORDER"


def test_a_clock_pause_and_an_extension_sent_again_are_done_once(client: Any, running: Table) -> None:
    pause = _base(running) + "clock/pause/"
    first = _post(client, pause, {"reason": "incident"}, "pause-1")
    again = _post(client, pause, {"reason": "incident"}, "pause-1")
    assert first.status_code == again.status_code == 200 and again.json() == first.json()
    assert first.json()["state"] == "paused"
    assert ClockEvent.objects.filter(table=running, kind=ClockEvent.Kind.PAUSE).count() == 1

    _post(client, _base(running) + "clock/resume/", {}, "resume-1")
    extend = _base(running) + "clock/extend/"
    body = {"minutes": 5, "reason": "late start"}
    first = _post(client, extend, body, "extend-1")
    again = _post(client, extend, body, "extend-1")
    assert first.status_code == again.status_code == 200 and again.json() == first.json()
    assert ClockEvent.objects.filter(table=running, kind=ClockEvent.Kind.EXTEND).count() == 1
    assert AuditEntry.objects.filter(action="table.clock_extend").count() == 1
    assert _post(client, extend, {**body, "minutes": 6}, "extend-1").status_code == 400
    # without a key a second extension is a second extension
    assert _post(client, extend, body).status_code == 200
    assert ClockEvent.objects.filter(table=running, kind=ClockEvent.Kind.EXTEND).count() == 2


def test_a_check_in_toggle_sent_again_gets_its_answer_and_a_new_toggle_needs_a_new_key(client: Any) -> None:
    tournament = make_tournament()
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(make_referee(tournament))
    url = f"/api/tournaments/{tournament.slug}/checkins/"
    present = {"registration": reg.pk, "game_number": 1, "present": True}
    first = _post(client, url, present, "in-1")
    assert _post(client, url, present, "in-1").json() == first.json() == {**present}
    assert AuditEntry.objects.filter(action="checkin.create").count() == 1
    absent = _post(client, url, {**present, "present": False}, "in-1")
    assert absent.status_code == 400 and absent.json()["rule"] == "IDEMPOTENCY"
    assert client.get(url + "?game=1").json()["count"] == 1  # still present


def test_a_registration_sent_again_registers_once_and_a_refusal_may_be_sent_again(client: Any) -> None:
    tournament = make_tournament()
    client.force_login(make_referee(tournament, role=TournamentRole.Role.ORGANIZER))
    url = f"/api/tournaments/{tournament.slug}/registrations/"
    refused = _post(client, url, {"first_name": "Eva"}, "reg-1")  # no last name: nothing is kept
    assert refused.status_code == 400
    body = {"first_name": "Eva", "last_name": "Grigi"}
    first = _post(client, url, body, "reg-1")
    again = _post(client, url, body, "reg-1")
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert Registration.objects.filter(tournament=tournament).count() == 1
    assert IdempotentWrite.objects.filter(key="reg-1").count() == 1


def test_a_deletion_sent_again_gets_its_204_not_a_404(client: Any) -> None:
    tournament = make_tournament()
    organizer = make_referee(tournament, role=TournamentRole.Role.ORGANIZER)
    role = TournamentRole.objects.create(tournament=tournament, user=make_referee(make_tournament()),
                                         role=TournamentRole.Role.REFEREE)
    client.force_login(organizer)
    url = f"/api/tournaments/{tournament.slug}/roles/{role.pk}/"
    first = client.delete(url, HTTP_IDEMPOTENCY_KEY="del-1")
    again = client.delete(url, HTTP_IDEMPOTENCY_KEY="del-1")
    assert first.status_code == again.status_code == 204 and again.content == b""
    assert client.delete(url).status_code == 404  # without the key: it is gone


def _referee_page(table: Table) -> str:
    g = table.game
    return f"/t/{g.tournament.slug}/games/{g.number}/tables/{table.number}/referee/"


def _form_key(page: str, action: str) -> str:
    form = page.split(f'name="action" value="{action}">', 1)[1]
    return form.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]


def test_a_step_and_a_pause_tapped_again_on_the_referee_page_are_recorded_once(client: Any, running: Table) -> None:
    url = _referee_page(running)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    turn_key, pause_key = _form_key(page, "end_turn"), _form_key(page, "pause")
    assert turn_key != pause_key and len(turn_key) >= 32
    turn = {"action": "end_turn", "seat": "1", "conquered": "0", "idempotency_key": turn_key}
    first = client.post(url, turn, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    again = client.post(url, turn, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert first.status_code == again.status_code == 200
    assert "End of turn of seat 1 recorded." in again.content.decode()
    assert TurnEvent.objects.filter(table=running).count() == 1
    pause = {"action": "pause", "reason": "incident", "idempotency_key": pause_key}
    assert client.post(url, pause).status_code == client.post(url, pause).status_code == 302
    assert ClockEvent.objects.filter(table=running, kind=ClockEvent.Kind.PAUSE).count() == 1



def test_a_client_signing_in_with_its_password_on_each_request_gets_the_same(running: Table) -> None:
    """HTTP Basic, no session, CSRF checked as on a real server: the key changes nothing else."""
    referee = make_referee(running.game.tournament)  # password "pw"
    api = Client(enforce_csrf_checks=True)
    basic = "Basic " + base64.b64encode(f"{referee.username}:pw".encode()).decode()
    url, body = _base(running) + "turns/", {"seat": 1, "conquered": 0}
    sent = [api.post(url, body, content_type="application/json", HTTP_AUTHORIZATION=basic,
                     HTTP_IDEMPOTENCY_KEY="basic-1") for _ in range(2)]
    assert [r.status_code for r in sent] == [201, 201], sent[0].content
    assert sent[1].json() == sent[0].json()
    assert TurnEvent.objects.filter(table=running).count() == 1
