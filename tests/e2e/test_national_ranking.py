"""The national ranking's public pages (K-RANKING) on a 360 px phone: the years, a year with
its search, and a player's card; alive, accessible (axe-core), no horizontal scrolling, in Italian."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_ranking_pages_fit_a_phone(browser: Any) -> None:
    from ranking import national
    from tests.ranking.test_national import event, people

    players = people(8)
    players[0].first_name, players[0].last_name = "Bartolomeo", "Di Castelnuovo della Valle Superiore"
    players[0].save()
    event(players, day=dt.date(2025, 3, 1))
    event(players, event_type="CPP", day=dt.date(2025, 6, 1), games=3)
    national.compute(2025)
    b = browser
    phone = b.person(PHONE, phone=True)
    pages = [
        ("ranking-years", reverse("ranking:national")),
        ("ranking-2025", reverse("ranking:national-year", args=[2025])),
        ("ranking-2025-search", reverse("ranking:national-year", args=[2025]) + "?q=castelnuovo"),
        ("ranking-2025-card", reverse("ranking:national-player", args=[2025, players[0].pk])),
    ]
    for name, url in pages:
        phone.goto(url)
        b.check(phone, f"{name}-phone")
    phone.goto(pages[1][1])
    assert phone.locator("main table").first.locator("tbody tr").count() == 8
    phone.fill("#ranking-q", "castelnuovo")
    phone.click("form[role=search] button")
    phone.wait_for_url("**q=castelnuovo")
    assert phone.locator("main table").first.locator("tbody tr").count() == 1
    phone.click("main table tbody a >> nth=0")
    phone.wait_for_url("**/player/**")
    assert phone.locator("main article.card").count() == 2
