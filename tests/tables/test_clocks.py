"""Clocks (E-TIME): derived from the stored deadline, pause/resume shift it and are recorded,
the expiry is marked exactly once (task, sweep, or first access with no worker)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.utils import timezone

from common.errors import ConflictError, DomainError
from tables import clocks, tasks
from tables.models import ClockEvent, Table, TurnEvent
from tests.factories.tables import GameFactory, SeatFactory, TableFactory
from tests.factories.tournaments import PlayerFactory, TournamentFactory, TournamentRoleFactory
from tests.factories.tournaments import make_user as new_user
from tournaments.models import AuditEntry, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

_seq = itertools.count(1)
T0 = dt.datetime(2026, 5, 9, 10, 30, tzinfo=dt.UTC)


# ---------------------------------------------------------------------------- builders
def make_user(username: str | None = None):
    return new_user(username or f"user{next(_seq)}", password="pw")


def make_tournament(*, ruleset: str = "RTU", overrides: dict | None = None) -> Tournament:
    n = next(_seq)
    return TournamentFactory(name=f"Torneo {n}", slug=f"torneo-{n}", date=dt.date(2026, 5, 9),
                             ruleset=ruleset, ruleset_overrides=overrides or {}, status=Tournament.Status.DRAFT)


def make_referee(tournament: Tournament, role: str = TournamentRole.Role.REFEREE):
    user = make_user()
    TournamentRoleFactory(tournament=tournament, user=user, role=role)
    return user


def make_table(tournament: Tournament | None = None, *, players: int = 4, game_number: int = 1,
               number: int = 1, ghosts: tuple[int, ...] = ()) -> Table:
    tournament = tournament or make_tournament()
    game = GameFactory(tournament=tournament, number=game_number)
    table = TableFactory(game=game, number=number)
    for seat in range(1, players + 1):
        player = None
        if seat not in ghosts:
            k = next(_seq)
            player = PlayerFactory(first_name=f"Nome{k}", last_name=f"Cognome{k}", bare=True)
        SeatFactory(table=table, game=game, number=seat, player=player)
    return table


# ---------------------------------------------------------------------------- start


def test_start_sets_the_deadline_from_the_rule_set_and_records_who():
    table = make_table()
    organizer = make_referee(table.game.tournament, TournamentRole.Role.ORGANIZER)
    clocks.start_clock(table, actor=organizer, now=T0)
    table.refresh_from_db()
    assert table.clock_started_at == T0
    assert table.deadline == T0 + dt.timedelta(minutes=90)  # E-TIME: RTU 90 minutes
    assert table.status == Table.Status.RUNNING
    event = ClockEvent.objects.get(table=table)
    assert (event.kind, event.by, event.seconds) == (ClockEvent.Kind.START, organizer, 90 * 60)
    assert AuditEntry.objects.filter(action="table.clock_start", object_id=str(table.pk)).exists()


def test_start_honours_the_tournament_overrides():
    table = make_table(make_tournament(overrides={"time_limit_minutes": 60}))
    clocks.start_clock(table, actor=None, now=T0)
    assert table.deadline == T0 + dt.timedelta(minutes=60)
    short = make_table(make_tournament(overrides={"extra": {"time_limit_seconds": 5}}))
    clocks.start_clock(short, actor=None, now=T0)
    assert short.deadline == T0 + dt.timedelta(seconds=5)


def test_classic_has_no_clock_and_a_clock_starts_once():
    classic = make_table(make_tournament(ruleset="CLASSIC"))
    clocks.start_clock(classic, actor=None, now=T0)
    classic.refresh_from_db()
    assert classic.deadline is None
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    with pytest.raises(ConflictError):
        clocks.start_clock(table, actor=None, now=T0 + dt.timedelta(minutes=1))


def test_start_does_not_run_the_expiry_eagerly():
    """On the embedded default Celery is eager: scheduling at start would mark the table at
    once. Nothing may be marked until the deadline has passed."""
    table = make_table()
    clocks.start_clock(table, actor=None)
    table.refresh_from_db()
    assert table.expired_marked_at is None
    assert table.status == Table.Status.RUNNING
    assert not ClockEvent.objects.filter(kind=ClockEvent.Kind.EXPIRE).exists()


# ---------------------------------------------------------------------------- derived


def test_expiry_is_derived_from_the_deadline():
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    just_before = T0 + dt.timedelta(minutes=89, seconds=59)
    assert not clocks.is_expired(table, just_before)
    assert clocks.remaining(table, just_before) == dt.timedelta(seconds=1)
    assert clocks.clock_state(table, just_before)["state"] == "running"
    at = T0 + dt.timedelta(minutes=90)
    assert clocks.is_expired(table, at)
    assert clocks.clock_state(table, at + dt.timedelta(hours=1))["remaining_seconds"] == 0
    assert clocks.clock_state(table, at)["state"] == "expired"


def test_a_read_after_the_deadline_marks_the_table_with_no_worker(client):
    table = make_table()
    clocks.start_clock(table, actor=None, now=timezone.now() - dt.timedelta(minutes=91))
    game = table.game
    url = f"/api/tournaments/{game.tournament.slug}/games/{game.number}/tables/{table.number}/clock/"
    response = client.get(url)
    assert response.status_code == 200
    assert response.json()["state"] == "expired"
    table.refresh_from_db()
    assert table.status == Table.Status.TIME_EXPIRED
    assert table.expired_marked_at is not None
    assert table.closure_state["phase"] == "finish"  # the closure has started (E-SUPP)
    assert TurnEvent.objects.get(table=table).kind == TurnEvent.Kind.TIME_EXPIRED


# ---------------------------------------------------------------------------- pause / resume


def test_pause_and_resume_shift_the_deadline_and_are_recorded():
    table = make_table()
    referee = make_referee(table.game.tournament)
    clocks.start_clock(table, actor=None, now=T0)
    clocks.pause_clock(table, actor=referee, reason="dice fell off the table",
                       now=T0 + dt.timedelta(minutes=30))
    # while paused the clock is frozen and cannot expire
    later = T0 + dt.timedelta(minutes=200)
    assert clocks.remaining(table, later) == dt.timedelta(minutes=60)
    assert not clocks.is_expired(table, later)
    assert clocks.clock_state(table, later)["state"] == "paused"
    assert clocks.due_tables(later) == []
    clocks.resume_clock(table, actor=referee, reason="ok", now=T0 + dt.timedelta(minutes=37))
    table.refresh_from_db()
    assert table.deadline == T0 + dt.timedelta(minutes=97)
    assert table.paused_at is None
    events = list(ClockEvent.objects.filter(table=table).values_list("kind", "by", "reason", "seconds"))
    assert events[1:] == [
        ("pause", referee.pk, "dice fell off the table", 0),
        ("resume", referee.pk, "ok", 7 * 60),
    ]
    assert not clocks.is_expired(table, T0 + dt.timedelta(minutes=96))
    assert clocks.is_expired(table, T0 + dt.timedelta(minutes=97))


def test_pause_needs_a_reason_and_a_running_clock():
    table = make_table()
    with pytest.raises(DomainError) as not_started:
        clocks.pause_clock(table, actor=None, reason="x", now=T0)
    assert not_started.value.rule == "E-TIME"
    clocks.start_clock(table, actor=None, now=T0)
    with pytest.raises(DomainError) as no_reason:
        clocks.pause_clock(table, actor=None, reason="  ", now=T0)
    assert no_reason.value.field == "reason"
    with pytest.raises(ConflictError):
        clocks.resume_clock(table, actor=None, now=T0)
    with pytest.raises(DomainError):
        clocks.pause_clock(table, actor=None, reason="late", now=T0 + dt.timedelta(minutes=91))


def test_a_stale_version_is_a_conflict():
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    seen = table.version
    clocks.pause_clock(table, actor=None, reason="incident", now=T0, expected_version=seen)
    with pytest.raises(ConflictError):
        clocks.resume_clock(table, actor=None, now=T0, expected_version=seen)


# ---------------------------------------------------------------------------- marking


def test_sweep_marks_each_passed_deadline_exactly_once():
    tournament = make_tournament()
    due = [make_table(tournament, number=n) for n in (1, 2)]
    not_due = make_table(tournament, number=3)
    paused = make_table(tournament, number=4)
    for t in due:
        clocks.start_clock(t, actor=None, now=timezone.now() - dt.timedelta(minutes=95))
    clocks.start_clock(not_due, actor=None, now=timezone.now())
    clocks.start_clock(paused, actor=None, now=timezone.now() - dt.timedelta(minutes=95))
    Table.objects.filter(pk=paused.pk).update(paused_at=paused.clock_started_at + dt.timedelta(minutes=10))

    assert tasks.sweep_deadlines.delay().get() == 2
    assert tasks.sweep_deadlines.delay().get() == 0
    assert tasks.expire_table.delay(due[0].pk).get() is False  # the task is idempotent too
    for t in due:
        t.refresh_from_db()
        assert t.status == Table.Status.TIME_EXPIRED
        assert ClockEvent.objects.filter(table=t, kind=ClockEvent.Kind.EXPIRE).count() == 1
        assert TurnEvent.objects.filter(table=t, kind=TurnEvent.Kind.TIME_EXPIRED).count() == 1
    for t in (not_due, paused):
        t.refresh_from_db()
        assert t.expired_marked_at is None
        assert not ClockEvent.objects.filter(table=t, kind=ClockEvent.Kind.EXPIRE).exists()


def test_a_task_for_an_old_deadline_does_nothing_after_a_pause():
    table = make_table()
    clocks.start_clock(table, actor=None, now=T0)
    clocks.pause_clock(table, actor=None, reason="incident", now=T0 + dt.timedelta(minutes=80))
    clocks.resume_clock(table, actor=None, now=T0 + dt.timedelta(minutes=95))
    # the task scheduled at the first deadline fires late: the deadline moved on
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=90)) is False
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=105)) is True
    assert clocks.mark_expired(table.pk, now=T0 + dt.timedelta(minutes=106)) is False


# ---------------------------------------------------------------------------- API permissions


def _api(table: Table, suffix: str) -> str:
    game = table.game
    return f"/api/tournaments/{game.tournament.slug}/games/{game.number}/tables/{table.number}/{suffix}"


def test_pause_resume_api_needs_the_referee_of_this_tournament(client):
    table = make_table()
    clocks.start_clock(table, actor=None)
    url = _api(table, "clock/pause/")
    assert client.post(url, {"reason": "x"}).status_code == 403  # anonymous
    client.force_login(make_user())  # a player / any signed-in user
    assert client.post(url, {"reason": "x"}).status_code == 403
    other = make_tournament()
    client.force_login(make_referee(other))  # the referee of another tournament
    assert client.post(url, {"reason": "x"}).status_code == 403
    table.refresh_from_db()
    assert table.paused_at is None

    client.force_login(make_referee(table.game.tournament))
    response = client.post(url, {"reason": "a player is ill"}, content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["state"] == "paused"
    missing = client.post(_api(table, "clock/resume/"), {"version": 0}, content_type="application/json")
    assert missing.status_code == 409  # stale version
    resumed = client.post(_api(table, "clock/resume/"), {}, content_type="application/json")
    assert resumed.json()["state"] == "running"


def test_clock_api_is_public_to_read(client):
    table = make_table()
    clocks.start_clock(table, actor=None)
    data = client.get(_api(table, "clock/")).json()
    assert data["state"] == "running"
    assert 89 * 60 < data["remaining_seconds"] <= 90 * 60


# ---------------------------------------------------------------------------- pages


def test_clock_partial_counts_down_from_server_time(client):
    from django.template.loader import render_to_string

    table = make_table()
    start = timezone.now()  # a clock still running when the page is rendered
    clocks.start_clock(table, actor=None, now=start)
    html = render_to_string("tables/_clock.html", {"table": table})
    assert f'data-deadline="{(start + dt.timedelta(minutes=90)).timestamp():.6f}"' in html
    assert "data-server-now=" in html
    assert 'data-state="running"' in html
    assert "js/clock.js" in html


def test_projector_shows_every_table_of_the_game(client):
    tournament = make_tournament()
    t1 = make_table(tournament, number=1)
    t2 = make_table(tournament, number=2, players=5)
    clocks.start_clock(t1, actor=None)
    clocks.start_clock(t2, actor=None, now=timezone.now() - dt.timedelta(minutes=91))
    response = client.get(f"/t/{tournament.slug}/games/1/projector/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("data-clock") >= 2
    assert 'hx-trigger="every 10s' in html
    assert str(t1.seats.first().player) in html
    t2.refresh_from_db()
    assert t2.status == Table.Status.TIME_EXPIRED  # expiry derived and marked on read
    partial = client.get(f"/t/{tournament.slug}/games/1/projector/", headers={"HX-Request": "true"})
    assert "<html" not in partial.content.decode() and 'id="projector"' in partial.content.decode()
