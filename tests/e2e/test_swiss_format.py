"""Choosing a Swiss or one-versus-one format on a 360 px phone, in Italian: the organizer opens
the format page, reads what "1vs1 Svizzera" does (its table sizes, the bye against a ghost seat),
chooses it and sees it as the current format; every control whole, no horizontal scrolling,
accessible (axe-core)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE
from tests.e2e.test_event_day import login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_the_organizer_chooses_1vs1_svizzera_on_a_phone(browser: Any) -> None:
    from tests.factories import scoring as f
    from tests.factories.tournaments import UserFactory
    from tournaments.models import TournamentRole

    t = f.ScoringTournamentFactory(name="Torneo 1vs1 del Circolo Lario")
    organizer = UserFactory(username="organizza-lario")
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    f.players(t, 5)

    url = reverse("scoring:format", args=[t.slug])
    phone = browser.person(PHONE, phone=True)
    login(phone, "organizza-lario", "secret-pass-123", url)
    choice = phone.locator("#preset-1vs1-swiss")
    choice.locator("summary").click()
    text = choice.inner_text()
    assert "uno contro uno; con un numero dispari un turno contro un posto fantasma" in text
    assert "per classifica (svizzera)" in text
    browser.check(phone, "format-1vs1-svizzera-phone")

    choice.locator('input[value="1vs1-swiss"]').check()
    phone.click("main button[type=submit]")
    phone.wait_for_url("**" + url)
    assert "Formula attuale: 1vs1 Svizzera" in " ".join(phone.locator("main p").first.inner_text().split())
    browser.check(phone, "format-chosen-phone")
    browser.assert_clean()
