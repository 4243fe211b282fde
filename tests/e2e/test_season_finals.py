"""A season with its final phase on a 360 px phone, in Italian: the club's admin turns the final
phase on in the season's settings, sees who qualified and why (the ripescato, the ties), creates
the final phase and the torneo degli esclusi, marks an absent player (the next in line comes in),
draws the semifinals and, once their results are in, the final; the public then sees the
season's final ranking with the final's outcome on top. Alive, accessible (axe-core), no
horizontal scrolling."""

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


def results_for(game: Any, admin: Any) -> None:
    """Every table of ``game`` gets its result as a referee enters it (P 40/35/15/10 in seat order)."""
    from tables.models import Table
    from tests.seasons.conftest import play_table

    for table in Table.objects.filter(game=game).order_by("number"):
        play_table(game.tournament, table, admin)


def test_a_season_with_its_final_phase_on_a_phone(browser: Any) -> None:
    from tables.models import Game
    from tests.factories.tournaments import ClubFactory, SeasonFactory, UserFactory
    from tests.seasons.conftest import make_league
    from tournaments.models import ClubRole

    club = ClubFactory(name="Circolo RisiKo Lario")
    admin = UserFactory(username="presidente-finali")
    ClubRole.objects.create(club=club, user=admin)
    season = SeasonFactory(club=club, name="Campionato del giovedì 2026")
    league = make_league(club, admin, season)

    b = browser
    phone = b.person(PHONE, phone=True)
    season_url = reverse("seasons:season", kwargs={"club": club.pk, "pk": season.pk})
    login(phone, "presidente-finali", "secret-pass-123", reverse("seasons:edit", kwargs={"club": club.pk,
                                                                                         "pk": season.pk}))
    phone.check("#id_finals")
    phone.fill("#id_finals_min_evenings", "2")
    b.check(phone, "season-finals-option-phone")
    phone.click("main button[type=submit]")
    phone.wait_for_url("**" + season_url)
    assert "I primi 2 della classifica vanno direttamente in finale." in phone.locator("#season-finals").inner_text()

    phone.click("#open-finals")
    phone.wait_for_selector("#finals-qualifiers")
    text = phone.locator("main").inner_text()
    assert "Chi si è qualificato e perché" in text and "ripescato: miglior partita" in text
    assert "stessa miglior partita: ha deciso la posizione in classifica" in text  # Nino over Ivo, 25 each
    b.check(phone, "season-finals-qualifiers-phone")

    phone.click("#create-finals")
    phone.wait_for_selector("#draw-semifinals")
    assert "torneo degli esclusi" in phone.locator("#finals-events").inner_text()

    elena = league["p"]["Elena"]
    phone.click(f"#finals-player-{elena.pk} button")  # absent: Carla goes straight to the final
    phone.wait_for_selector(f"#finals-player-{elena.pk}.role-absent")
    assert "Segnato assente" in phone.content()
    b.check(phone, "season-finals-absent-phone")

    phone.click("#draw-semifinals")
    phone.wait_for_selector("#finals-semifinals")
    assert phone.locator("#finals-semifinals p").count() == 2
    b.check(phone, "season-finals-semifinals-phone")

    phase = season.finals.phase
    results_for(Game.objects.get(tournament=phase, number=1), admin)
    phone.reload()
    phone.click("#draw-final")
    phone.wait_for_selector("#finals-final")
    results_for(Game.objects.get(tournament=phase, number=2), admin)

    public = b.person(PHONE, phone=True)
    public.goto(reverse("seasons:finals", kwargs={"club": club.pk, "pk": season.pk}))
    public.wait_for_selector("#finals-ranking")
    assert public.locator("#finals-ranking tbody tr").count() == 12
    assert "Finale: 1° posto" in public.locator("#finals-ranking tbody tr").first.inner_text()
    assert public.locator("#create-finals, #draw-final, #finals-actions").count() == 0  # not for the public
    b.check(public, "season-finals-ranking-phone")
    public.goto(season_url)
    assert public.locator("#season-finals ol li").count() == 3
    b.assert_clean()
