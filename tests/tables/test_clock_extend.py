"""Clock extension (E-TIME): a referee moves the deadline later, recorded with who, why and how
many minutes; refused before the start, after expiry, with no reason or a non-positive amount;
a stale table version is a conflict, like pause and resume."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from common.errors import ConflictError, DomainError
from tables import clocks
from tables.models import ClockEvent, Table
from tests.tables.test_clocks import T0, make_referee, make_table, make_tournament, make_user
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _extensions(table: Table) -> list[tuple[int | None, str, int]]:
    return list(ClockEvent.objects.filter(table=table, kind=ClockEvent.Kind.EXTEND)
                .values_list("by", "reason", "seconds"))


def test_extension_moves_the_deadline_and_records_who_why_and_how_much():
    table = make_table()
    referee = make_referee(table.game.tournament)
    clocks.start_clock(table, actor=None, now=T0)
    seen = table.version
    clocks.extend_clock(table, actor=referee, minutes=10, reason="a player fainted",
                        now=T0 + dt.timedelta(minutes=40), expected_version=seen)
    table.refresh_from_db()
    assert table.deadline == T0 + dt.timedelta(minutes=100)
    assert table.version == seen + 1
    assert _extensions(table) == [(referee.pk, "a player fainted", 600)]
    entry = AuditEntry.objects.get(action="table.clock_extend", object_id=str(table.pk))
    assert entry.after["minutes"] == 10 and entry.after["reason"] == "a player fainted"
    assert entry.before["deadline"] == (T0 + dt.timedelta(minutes=90)).isoformat()
    # The old deadline no longer ends the game; the new one does.
    assert not clocks.is_expired(table, T0 + dt.timedelta(minutes=95))
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=95)) is False
    assert clocks.clock_state(table, T0 + dt.timedelta(minutes=95))["remaining_seconds"] == 300
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=100)) is True


def test_extension_while_paused_adds_to_the_frozen_time_left():
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    clocks.pause_clock(table, actor=None, reason="incident", now=T0 + dt.timedelta(minutes=30))
    clocks.extend_clock(table, actor=None, minutes=5, reason="long incident",
                        now=T0 + dt.timedelta(minutes=50))
    assert clocks.remaining(table, T0 + dt.timedelta(minutes=300)) == dt.timedelta(minutes=65)
    clocks.resume_clock(table, actor=None, now=T0 + dt.timedelta(minutes=50))
    table.refresh_from_db()
    assert table.deadline == T0 + dt.timedelta(minutes=90 + 20 + 5)


@pytest.mark.parametrize(("minutes", "reason", "field"), [
    (0, "why", "minutes"), (-5, "why", "minutes"), ("ten", "why", "minutes"), (None, "why", "minutes"),
    (121, "why", "minutes"), (10**12, "why", "minutes"), (10, "   ", "reason"),
])
def test_bad_extensions_are_refused_with_the_field_and_change_nothing(minutes, reason, field):
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    deadline, version = table.deadline, table.version
    with pytest.raises(DomainError) as refused:
        clocks.extend_clock(table, actor=None, minutes=minutes, reason=reason, now=T0)
    assert (refused.value.field, refused.value.rule, refused.value.status_code) == (field, "E-TIME", 400)
    table.refresh_from_db()
    assert (table.deadline, table.version, _extensions(table)) == (deadline, version, [])


def test_no_extension_before_the_start_or_after_expiry():
    table = make_table()
    with pytest.raises(DomainError) as not_started:
        clocks.extend_clock(table, actor=None, minutes=5, reason="early", now=T0)
    assert not_started.value.field == "clock"
    clocks.start_clock(table, actor=None, now=T0)
    # Passed but not marked yet (no worker): time is up all the same.
    with pytest.raises(DomainError) as derived:
        clocks.extend_clock(table, actor=None, minutes=5, reason="too late",
                            now=T0 + dt.timedelta(minutes=91))
    assert derived.value.rule == "E-TIME"
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=91))
    table.refresh_from_db()
    with pytest.raises(DomainError):  # marked; even "now" before the deadline cannot undo it
        clocks.extend_clock(table, actor=None, minutes=5, reason="too late", now=T0)
    table.refresh_from_db()
    assert table.deadline == T0 + dt.timedelta(minutes=90)
    assert table.status == Table.Status.TIME_EXPIRED and _extensions(table) == []


def test_a_stale_version_is_a_conflict():
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    seen = table.version
    clocks.pause_clock(table, actor=None, reason="incident", now=T0, expected_version=seen)
    with pytest.raises(ConflictError):
        clocks.extend_clock(table, actor=None, minutes=5, reason="x", now=T0, expected_version=seen)
    assert _extensions(table) == []


# ---------------------------------------------------------------------------- API


def _url(table: Table) -> str:
    g = table.game
    return f"/api/tournaments/{g.tournament.slug}/games/{g.number}/tables/{table.number}/clock/extend/"


def test_extend_api_needs_the_referee_of_this_tournament(client):
    table = make_table()
    clocks.start_clock(table, actor=None)
    deadline = table.deadline
    body = {"minutes": 5, "reason": "late start"}
    assert client.post(_url(table), body, content_type="application/json").status_code == 403
    client.force_login(make_user())
    assert client.post(_url(table), body, content_type="application/json").status_code == 403
    client.force_login(make_referee(make_tournament()))  # referee of another tournament
    assert client.post(_url(table), body, content_type="application/json").status_code == 403
    table.refresh_from_db()
    assert table.deadline == deadline

    client.force_login(make_referee(table.game.tournament))
    response = client.post(_url(table), {**body, "version": table.version},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["state"] == "running" and data["version"] == table.version + 1
    assert 94 * 60 < data["remaining_seconds"] <= 95 * 60
    stale = client.post(_url(table), {**body, "version": table.version},
                        content_type="application/json")
    assert stale.status_code == 409
    zero = client.post(_url(table), {"minutes": 0, "reason": "x"}, content_type="application/json")
    assert zero.status_code == 400
    assert zero.json()["rule"] == "E-TIME" and "minutes" in zero.json()
    missing = client.post(_url(table), {"minutes": 5}, content_type="application/json")
    assert missing.status_code == 400 and "reason" in missing.json()


# ---------------------------------------------------------------------------- referee page


def _page(table: Table) -> str:
    g = table.game
    return f"/t/{g.tournament.slug}/games/{g.number}/tables/{table.number}/referee/"


def test_referee_page_extends_the_clock_and_keeps_what_was_typed_on_a_refusal(client):
    table = make_table()
    clocks.start_clock(table, actor=None)
    referee = make_referee(table.game.tournament)
    client.force_login(referee)
    page = client.get(_page(table)).content.decode()
    assert 'name="action" value="extend"' in page and 'id="id_extend_minutes"' in page

    refused = client.post(_page(table), {"action": "extend", "minutes": "-3",
                                         "reason": "typed reason", "version": table.version})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "E-TIME" in html and 'value="-3"' in html and 'value="typed reason"' in html

    deadline = table.deadline
    done = client.post(_page(table), {"action": "extend", "minutes": "15",
                                      "reason": "fire alarm", "version": table.version}, follow=True)
    assert done.status_code == 200
    table.refresh_from_db()
    assert table.deadline == deadline + dt.timedelta(minutes=15)
    assert _extensions(table) == [(referee.pk, "fire alarm", 900)]


def test_the_extend_form_is_not_offered_once_time_has_expired(client):
    table = make_table()
    clocks.start_clock(table, actor=None, now=timezone.now() - dt.timedelta(minutes=91))
    client.force_login(make_referee(table.game.tournament))
    page = client.get(_page(table)).content.decode()
    assert 'value="extend"' not in page
    refused = client.post(_page(table), {"action": "extend", "minutes": "5", "reason": "late"})
    assert refused.status_code == 400 and "E-TIME" in refused.content.decode()
