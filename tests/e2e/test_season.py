"""A club's season on a 360 px phone, in Italian: the club page loads the season's standings,
the season page explains them, and the club's admin creates the next evening in two clicks
(the button, then the confirmation) with the last evening's players registered; alive,
accessible (axe-core), no horizontal scrolling."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.conftest import PHONE
from tests.e2e.test_event_day import login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_a_season_on_a_phone(browser: Any) -> None:
    from tests.factories.tournaments import ClubFactory, PlayerFactory, SeasonFactory, UserFactory
    from tests.seasons.conftest import FIRST, SECOND, evening_of, play
    from tournaments.models import ClubRole, Tournament

    club = ClubFactory(name="Circolo RisiKo Lario")
    admin = UserFactory(username="presidente-lario")
    ClubRole.objects.create(club=club, user=admin)
    season = SeasonFactory(club=club, name="Campionato del giovedì 2026", rule="best_evenings", best_n=1)
    players = [PlayerFactory(first_name=n, last_name="Bartolomeo Di Castelnuovo", club=club)
               for n in ("Anna", "Bruno", "Carla", "Dario")]
    today = timezone.localdate()
    one = evening_of(season, today - dt.timedelta(days=14), players)
    play(one, players, FIRST, admin=admin)
    two = evening_of(season, today - dt.timedelta(days=7), players)
    play(two, players[::-1], SECOND, admin=admin)

    b = browser
    phone = b.person(PHONE, phone=True)
    phone.goto(reverse("clubs:detail", args=[club.pk]))
    phone.wait_for_selector("#season-standings tbody tr")  # loaded by htmx
    assert phone.locator("#season-standings tbody tr").count() == 4
    b.check(phone, "season-club-phone")

    season_url = reverse("seasons:season", kwargs={"club": club.pk, "pk": season.pk})
    phone.goto(season_url)
    assert "Classifica della stagione" in phone.content()
    assert "Conta la serata migliore di ogni giocatore" in phone.locator("#season-standings").inner_text()
    assert phone.locator("#new-evening").count() == 0  # not for the public
    b.check(phone, "season-public-phone")

    login(phone, "presidente-lario", "secret-pass-123", season_url)
    phone.click("#new-evening")  # first click
    phone.wait_for_selector("#confirm-evening")
    assert "Campionato del giovedì 2026 – serata 3" in phone.content()
    b.check(phone, "season-new-evening-phone")
    phone.click("#confirm-evening")  # second click
    evening = Tournament.objects.get(name="Campionato del giovedì 2026 – serata 3")
    phone.wait_for_url("**" + reverse("tournaments:manage", args=[evening.slug]))
    assert evening.season_id == season.pk and evening.date == two.date + dt.timedelta(days=7)
    assert evening.registrations.active().count() == 4
    b.check(phone, "season-evening-created-phone")
    b.assert_clean()
