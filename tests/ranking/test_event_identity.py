"""One event, one id (K-RANKING): the workbook's export and import, the event's ranking rows and
the national ranking all name a tournament "yyyyMMdd - Organizzatore" from its first round's
date and the organizer's name as the clubs' list spells it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from ranking import national
from ranking import selectors as ns
from ranking.event import event_ranking
from ranking.models import NationalRanking
from scoring import recompute
from tables.models import Game
from tests.ranking.test_national import event, people
from workbook import export as wb_export


def _noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))


@pytest.fixture
def two_days(db: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """A three-game event played over two days (1 and 2 March 2025)."""
    with django_capture_on_commit_callbacks(execute=True):
        t, org, _ref = event(people(8), day=dt.date(2025, 3, 1))
    for g in Game.objects.filter(tournament=t):
        day = dt.date(2025, 3, 1) if g.number == 1 else dt.date(2025, 3, 2)
        Game.objects.filter(pk=g.pk).update(started_at=_noon(day), finished_at=_noon(day))
    recompute.invalidate(t.pk)
    return t, org


def test_the_first_round_and_the_workbook_organizer_name_the_event_everywhere(
        two_days: Any, django_capture_on_commit_callbacks: Any) -> None:
    t, org = two_days
    wb_export.remember_organizer(t, "MILANO [RCU]", actor=org)
    expected = "20250301 - MILANO [RCU]"
    assert national.event_id(t) == expected
    assert wb_export.export(t, write_file=False).event.event_id == expected
    ranking = event_ranking(t)
    assert ranking["events"][0]["idTorneo"] == expected
    assert ranking["events"][0]["organizzatore"] == "MILANO [RCU]"
    assert {r["idTorneo"] for r in ranking["games"] + ranking["standings"]} == {expected}
    with django_capture_on_commit_callbacks(execute=True):
        national.tournament_changed(t)
    stored = NationalRanking.objects.get(year=2025)
    events = ns.events_of(stored)
    assert events[t.pk].event_id == expected  # type: ignore[attr-defined]
    assert national.event_ids([t]) == {t.pk: expected}


def test_without_a_stored_organizer_the_creator_names_the_event(two_days: Any) -> None:
    t, org = two_days
    org.first_name, org.last_name = "Anna", "Verdi"
    org.save()
    t.created_by = org
    t.save()
    expected = "20250301 - Anna Verdi"
    assert national.event_id(t) == event_ranking(t)["events"][0]["idTorneo"] == expected
    assert wb_export.export(t, write_file=False).event.event_id == expected


# ------------------------------------------------------------------ the admin's edits recompute
def _admin_save(t: Any, staff: Any) -> None:
    """What the admin's change form does with the edited tournament."""
    from django.contrib import admin
    from django.test import RequestFactory

    from tournaments.models import Tournament

    request = RequestFactory().post("/admin/")
    request.user = staff
    model_admin = admin.site._registry[Tournament]
    form = model_admin.get_form(request, t)(instance=t)
    model_admin.save_model(request, t, form, change=True)


@pytest.mark.parametrize("edit", ["status", "event_type", "date"])
def test_the_admin_editing_a_finished_event_recomputes_its_years(
        two_days: Any, django_capture_on_commit_callbacks: Any, edit: str) -> None:
    from tests.factories.tournaments import UserFactory
    from tournaments.models import Tournament

    t, _org = two_days
    with django_capture_on_commit_callbacks(execute=True):
        national.tournament_changed(t)
    before = NationalRanking.objects.get(year=2025)
    assert before.events == 1
    staff = UserFactory(is_staff=True, is_superuser=True)
    if edit == "status":
        t.status = Tournament.Status.RUNNING
    elif edit == "event_type":
        t.event_type = "AMC"  # a friendly: out of the ranking
    else:
        t.date = dt.date(2024, 12, 31)
    with django_capture_on_commit_callbacks(execute=True):
        _admin_save(t, staff)
    after = NationalRanking.objects.get(year=2025)
    assert after.version > before.version
    if edit in ("status", "event_type"):
        assert after.events == 0


def test_saving_a_finished_event_unchanged_or_a_running_one_asks_nothing(
        two_days: Any, django_capture_on_commit_callbacks: Any) -> None:
    t, _org = two_days
    with django_capture_on_commit_callbacks(execute=False) as unchanged:
        t.name = "Renamed"
        t.save()
    # (public pages are told of any save; the ranking is asked to recompute only for what it reads)
    assert [c for c in unchanged if isinstance(c, national._Recompute)] == []


# ------------------------------------------------------------------ organizers set the type
def _form(t: Any, **changes: Any) -> dict[str, Any]:
    from tournaments.forms import TournamentForm

    data = TournamentForm.initial_for(t)
    data["date"] = t.date.strftime("%d/%m/%Y")
    data["capacity"] = data["capacity"] or ""
    return {**data, **changes}


def test_an_organizer_sets_the_type_on_the_edit_page_audited_and_the_ranking_follows(
        client: Any, two_days: Any, django_capture_on_commit_callbacks: Any) -> None:
    from tournaments.models import AuditEntry

    t, org = two_days
    with django_capture_on_commit_callbacks(execute=True):
        national.tournament_changed(t)
    assert NationalRanking.objects.get(year=2025).events == 1
    client.force_login(org)
    page = client.get(f"/t/{t.slug}/edit/").content.decode()
    assert 'name="event_type"' in page and '<option value="OPN" selected' in page
    bad = client.post(f"/t/{t.slug}/edit/", _form(t, event_type="XYZ"))
    assert bad.status_code == 400 and 'name="event_type"' in bad.content.decode()
    t.refresh_from_db()
    assert t.event_type == "OPN"
    with django_capture_on_commit_callbacks(execute=True):
        ok = client.post(f"/t/{t.slug}/edit/", _form(t, event_type="AMC"))
    assert ok.status_code == 302, ok.content.decode()[:2000]
    t.refresh_from_db()
    assert t.event_type == "AMC"
    entry = AuditEntry.objects.filter(action="tournament.update", tournament=t).latest("pk")
    assert (entry.before["event_type"], entry.after["event_type"]) == ("OPN", "AMC")
    assert NationalRanking.objects.get(year=2025).events == 0  # a friendly is not ranked
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/t/{t.slug}/edit/", _form(t, event_type=""))  # empty: the format's type
    t.refresh_from_db()
    assert t.event_type == ""


def test_the_api_sets_and_refuses_the_type(client: Any, two_days: Any,
                                          django_capture_on_commit_callbacks: Any) -> None:
    t, org = two_days
    client.force_login(org)
    assert client.get(f"/api/tournaments/{t.slug}/").json()["event_type"] == "OPN"
    bad = client.patch(f"/api/tournaments/{t.slug}/", {"event_type": "XYZ"}, content_type="application/json")
    assert bad.status_code == 400 and "event_type" in bad.json()
    with django_capture_on_commit_callbacks(execute=True):
        ok = client.patch(f"/api/tournaments/{t.slug}/", {"event_type": "MST"}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["event_type"] == "MST"
    t.refresh_from_db()
    assert t.event_type == "MST"
    stored = NationalRanking.objects.get(year=2025)
    assert ns.events_of(stored)[t.pk].event_type == "MST"
