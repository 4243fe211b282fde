"""The organizer moves every clock of a game at once: extend, shorten, align (E-TIME)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tables.models import ClockEvent, Table
from tests.tables.conftest import add_players, add_role, make_user
from tests.tables.test_pages import logged_in, started
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _deadlines(game) -> dict[int, dt.datetime]:
    return dict(Table.objects.filter(game=game).values_list("number", "deadline"))


def test_extend_shorten_and_align_every_running_clock(tournament, organizer):
    add_players(tournament, 13)
    game = started(tournament, organizer, count=13)
    org = logged_in(organizer)
    url = f"/t/{tournament.slug}/games/1/clocks/"
    first = _deadlines(game)
    paused = Table.objects.get(game=game, number=3)
    Table.objects.filter(pk=paused.pk).update(paused_at=timezone.now())
    org.post(url, {"action": "extend", "minutes": "10", "reason": "ritardo sala"})
    after = _deadlines(game)
    assert after[1] - first[1] == dt.timedelta(minutes=10) == after[2] - first[2]
    assert after[3] == first[3]  # paused: left alone
    org.post(url, {"action": "shorten", "minutes": "5", "reason": "recupero"})
    assert _deadlines(game)[1] - first[1] == dt.timedelta(minutes=5)
    Table.objects.filter(game=game, number=2).update(deadline=first[2] + dt.timedelta(minutes=7))
    org.post(url, {"action": "align", "reason": "stessa fine"})
    aligned = _deadlines(game)
    assert aligned[1] == aligned[2] == first[2] + dt.timedelta(minutes=7)
    assert ClockEvent.objects.filter(table__game=game, kind="extend").count() == 5
    assert AuditEntry.objects.filter(action="table.clock_adjust").count() == 5


def test_refusals_keep_the_clocks(tournament, organizer):
    add_players(tournament, 9)
    game = started(tournament, organizer, count=9)
    org = logged_in(organizer)
    url = f"/t/{tournament.slug}/games/1/clocks/"
    first = _deadlines(game)
    for data in ({"action": "extend", "minutes": "10", "reason": ""},
                 {"action": "extend", "minutes": "0", "reason": "x"},
                 {"action": "extend", "minutes": "500", "reason": "x"},
                 {"action": "shorten", "minutes": "120", "reason": "x"}):
        r = org.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 302
        assert "E-TIME" in org.get(r["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _deadlines(game) == first
    ref = make_user()
    add_role(tournament, ref, "referee")
    assert logged_in(ref).post(url, {"action": "extend", "minutes": "10",
                                     "reason": "x"}).status_code == 403
    assert _deadlines(game) == first


def test_the_organizer_sets_the_game_time_and_the_sdadata_from_a_page(tournament, organizer):
    from tournaments import formats

    org = logged_in(organizer)
    url = f"/t/{tournament.slug}/clock-settings/"
    page = org.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'value="90"' in page  # RTU: 90 minutes
    values = {"time_limit_minutes": "75", "sdadata_first_threshold": "4",
              "sdadata_threshold_step": "1", "sdadata_max_threshold": "10", "sdadata_dice": "2",
              "sdadata_bar_conquests": "2"}
    assert org.post(url, values).status_code == 302
    tournament.refresh_from_db()
    assert formats.time_limit(tournament) == dt.timedelta(minutes=75)
    assert formats.ruleset_for(tournament).sdadata_first_threshold == 4
    assert AuditEntry.objects.filter(action="tournament.update").exists()
    bad = org.post(url, {**values, "sdadata_dice": "9"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and 'value="9"' in bad.content.decode()
    assert formats.ruleset_for(tournament).sdadata_dice == 2
    ref = make_user()
    add_role(tournament, ref, "referee")
    assert logged_in(ref).post(url, values).status_code == 403
