"""The rating's public page and the player's page with its history, on a 360 px phone: alive,
accessible (axe-core), no horizontal scrolling, in Italian; the search narrows the list."""

from __future__ import annotations

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


def test_rating_pages_fit_a_phone(browser: Any) -> None:
    from ratings import services
    from tests.factories.scoring import ScoringPlayerFactory, ScoringTournamentFactory, make_table
    from tests.ratings.test_rating import result

    players = ScoringPlayerFactory.create_batch(8)
    players[0].first_name, players[0].last_name = "Bartolomeo", "Di Castelnuovo della Valle Superiore"
    players[0].save()
    event = ScoringTournamentFactory(name="Torneo di primavera del circolo dei conquistatori")
    for game in (1, 2):
        for k in range(2):
            seated = players[4 * k:4 * k + 4] if game == 1 else players[k::2]
            result(make_table(event, game, seated), [1, 2, 3, 4])
    services.recompute()
    b = browser
    phone = b.person(PHONE, phone=True)
    pages = [("ratings", reverse("ratings:list")), ("ratings-search", reverse("ratings:list") + "?q=castelnuovo"),
             ("ratings-player", reverse("history:player", args=[players[0].pk]))]
    for name, url in pages:
        phone.goto(url)
        b.check(phone, f"{name}-phone")
    phone.goto(pages[0][1])
    assert phone.locator("main table tbody tr").count() == 8
    phone.fill("#ratings-q", "castelnuovo")
    phone.click("form[role=search] button")
    phone.wait_for_url("**q=castelnuovo")
    assert phone.locator("main table tbody tr").count() == 1
    phone.click("main table tbody a >> nth=0")
    phone.wait_for_url(f"**/players/{players[0].pk}/")
    assert "Indice" in phone.locator("main").inner_text()
