"""The demo gives its first club a small season: two past evenings, the second made with "new
evening" (the first one's players carried over), both played and confirmed."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from seasons import selectors as season_selectors
from tournaments.models import Season

pytestmark = pytest.mark.django_db


def test_the_demo_club_page_shows_a_season_with_standings() -> None:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    season = Season.objects.get()
    one, two = season.evenings.order_by("date")
    assert (two.date - one.date).days == 7 and two.name.endswith("serata 2")
    assert set(two.registrations.values_list("player", flat=True)) == set(
        one.registrations.values_list("player", flat=True))
    data = season_selectors.standings(season)
    assert len(data["evenings"]) == 2 and data["rows"]
    assert all(len(r["evenings"]) == 2 for r in data["rows"])  # everyone played both evenings
    page = Client().get(reverse("clubs:detail", args=[season.club_id])).content.decode()
    assert season.name in page
