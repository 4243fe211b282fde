"""The season's final phase on its pages: the option on the season's form, the season page's
section, the public page explaining who qualified and why, and the club admin's buttons (create,
absent, draw) — in Italian, and refused for anyone else with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from seasons.models import SeasonFinals
from tests.factories.tournaments import UserFactory
from tournaments.models import Tournament

from .conftest import client_for, patch

pytestmark = pytest.mark.django_db


def urls(cs: dict[str, Any]) -> dict[str, str]:
    k = {"club": cs["club"].pk, "pk": cs["season"].pk}
    return {name: reverse(f"seasons:{name}", kwargs=k) for name in ("season", "edit", "finals", "finals-create",
                                                                        "finals-absent")}


def test_the_option_on_the_season_form_keeps_what_was_typed(league: dict[str, Any]) -> None:
    admin, u = client_for(league["admin"]), urls(league)
    page = admin.get(u["edit"], HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "La stagione finisce con una fase finale" in page and 'name="finals_ripescati"' in page
    form = {"name": league["season"].name, "year": 2026, "rule": "sum", "preset": "campionato",
            "finals": "on", "finals_direct": 3, "finals_semifinal_places": 12, "finals_ripescati": 1,
            "finals_min_evenings": 5, "finals_consolation": "on"}
    bad = admin.post(u["edit"], form, HTTP_ACCEPT_LANGUAGE="it")  # 3 + 3 semifinal winners = a final of 6
    assert bad.status_code == 400 and "da 3 a 5" in bad.content.decode()
    assert 'name="finals_min_evenings" value="5"' in bad.content.decode()
    assert not SeasonFinals.objects.exists()
    ok = admin.post(u["edit"], {**form, "finals_direct": 1}, follow=True)
    assert ok.status_code == 200
    assert SeasonFinals.objects.get().options() == {"direct": 1, "semifinal_places": 12, "ripescati": 1,
                                                     "min_evenings": 5, "consolation": True}


def test_the_public_sees_who_qualified_and_why_and_the_admin_runs_it(league: dict[str, Any]) -> None:
    patch(client_for(league["admin"]), league["season"], {"finals": True, "finals_min_evenings": 2})
    u = urls(league)
    season_page = client_for().get(u["season"], HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'id="season-finals"' in season_page and "vanno direttamente in finale" in season_page
    public = client_for().get(u["finals"], HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Chi si è qualificato e perché" in public and "ripescato: miglior partita" in public
    assert "Torneo degli esclusi" in public and 'id="create-finals"' not in public
    # anyone but the club's admins: refused, nothing made
    curious = client_for(UserFactory(username="curioso"))
    curious.post(u["finals-create"], {"date": "20/12/2026"})
    assert not Tournament.objects.filter(name__contains="fase finale").exists()
    admin = client_for(league["admin"])
    assert 'id="create-finals"' in admin.get(u["finals"]).content.decode()
    bad = admin.post(u["finals-create"], {"date": "31/02/2026"}, HTTP_ACCEPT_LANGUAGE="it")
    assert bad.status_code == 400 and 'value="31/02/2026"' in bad.content.decode()
    page = admin.post(u["finals-create"], {"date": "20/12/2026"}, follow=True, HTTP_ACCEPT_LANGUAGE="it")
    html = page.content.decode()
    assert "fase finale è creata" in html and 'id="draw-semifinals"' in html
    phase = Tournament.objects.get(name=f"{league['season'].name} – fase finale")
    assert str(phase.date) == "2026-12-20" and phase.season is None  # not an evening: not in the standings
    assert Tournament.objects.filter(name=f"{league['season'].name} – torneo degli esclusi").exists()
    absent = admin.post(u["finals-absent"], {"player": league["p"]["Elena"].pk}, follow=True,
                        HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "subentra il primo escluso" in absent.lower() or "subentra" in absent
    assert phase.registrations.active().count() == 10
