"""The statistics' pages on a 360 px phone in Italian: the instance's, a club's (its years and
its recorded games beside the simulator), its ranking with the rule form of its admin, the
players' list and one player's page; alive, accessible (axe-core), no horizontal scrolling;
the CSV download is a file."""

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


def test_statistics_pages_fit_a_phone_in_italian(browser: Any, settings: Any) -> None:
    from clubstats import services
    from tests.clubstats import season as made_up
    from tests.factories.tournaments import ClubRoleFactory, make_user

    settings.CLUBSTATS_SIMULATED_GAMES = 2
    season = made_up.build()
    season.p[1].first_name, season.p[1].last_name = "Bartolomeo", "Di Castelnuovo della Valle Superiore"
    season.p[1].save()
    services.recompute()
    services.refresh_simulator()
    admin = make_user("admin-alfa")
    ClubRoleFactory(club=season.alfa, user=admin, role="admin")
    b = browser
    phone = b.person(PHONE, phone=True)
    pages = [("stats-home", reverse("clubstats:home")), ("stats-club", reverse("clubstats:club", args=[season.alfa.pk])),
             ("stats-ranking", reverse("clubstats:ranking", args=[season.alfa.pk]) + "?year=0"),
             ("stats-players", reverse("clubstats:players") + "?year=2026"),
             ("stats-player", reverse("clubstats:player", args=[season.p[1].pk]))]
    for name, url in pages:
        phone.goto(url)
        b.check(phone, f"{name}-phone")
    phone.goto(pages[1][1])
    main = phone.locator("main").inner_text()
    assert "Anno per anno" in main and "Percentuale di vittorie per ordine di gioco" in main and "Simulatore" in main
    with phone.expect_download() as download:
        phone.click("text=Scarica il CSV >> nth=0")
    assert download.value.suggested_filename == f"statistiche-club-{season.alfa.pk}.csv"
    # the club's admin sets the rule from a phone: best 1 event; the ranking follows
    ranking = reverse("clubstats:ranking", args=[season.alfa.pk])
    admin_phone = b.person(PHONE, phone=True)
    login(admin_phone, "admin-alfa", "secret-pass-123", ranking)
    b.check(admin_phone, "stats-ranking-admin-phone")
    admin_phone.check("input[name=rule][value=best]")
    admin_phone.fill("#best-n", "1")
    admin_phone.click("text=Salva la regola")
    admin_phone.wait_for_url("**" + ranking)
    assert "conta il miglior risultato di ogni giocatore" in admin_phone.locator("main").inner_text()
