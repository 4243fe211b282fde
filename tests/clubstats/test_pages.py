"""The statistics' pages, CSV files and API as a visitor and a club admin use them: Italian
first, the stored figures only (no request computes one), the ranking rule set by the club's
admins with a clear refusal otherwise."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from clubstats import selectors, services
from clubstats.models import RankingRule
from tests.clubstats import season as made_up
from tests.factories.tournaments import ClubRoleFactory, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(settings) -> made_up.Season:
    settings.CLUBSTATS_SIMULATED_GAMES = 2  # 8 simulated games: the page shows the simulator's column
    s = made_up.build()
    services.recompute()
    services.refresh_simulator()
    return s


@pytest.fixture
def italian() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="it")


def rows_of(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """The rows of a plain CSV download (``?plain=1``: commas, no byte-order mark)."""
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def test_no_request_computes_a_figure(season: made_up.Season, italian: Client, monkeypatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a request computed figures")

    for name in ("recompute", "rerank", "refresh_simulator"):
        monkeypatch.setattr(services, name, refuse)
    monkeypatch.setattr(selectors, "plays", refuse)
    monkeypatch.setattr(selectors, "event_results", refuse)
    urls = [reverse("clubstats:home"), reverse("clubstats:club", args=[season.alfa.pk]),
            reverse("clubstats:ranking", args=[season.alfa.pk]), reverse("clubstats:players"),
            reverse("clubstats:player", args=[season.p[1].pk]), reverse("clubstats:club_csv", args=[season.alfa.pk]),
            reverse("clubstats:players_csv"), reverse("clubstats:ranking_csv", args=[season.alfa.pk]),
            reverse("clubstats:games_csv"), "/api/statistics/games/", f"/api/statistics/clubs/{season.alfa.pk}/",
            f"/api/statistics/clubs/{season.alfa.pk}/ranking/", f"/api/statistics/players/{season.p[1].pk}/"]
    for url in urls:
        assert italian.get(url).status_code == 200, url


def test_the_club_page_in_italian(season: made_up.Season, italian: Client) -> None:
    page = italian.get(reverse("clubstats:club", args=[season.alfa.pk])).content.decode()
    assert "Statistiche – Circolo Alfa" in page
    assert "Anno per anno" in page and "Tutti gli anni" in page and "Nuovi giocatori" in page
    assert "Calcolate il" in page  # when the figures were computed
    # the recorded games beside the simulator, each rate with its interval
    assert "Percentuale di vittorie per ordine di gioco" in page and "Simulatore" in page
    assert "50,0" in page  # seat 1 won 1 of 2 recorded games: 50,0 % in Italian


def test_the_club_csv(season: made_up.Season, italian: Client) -> None:
    response = italian.get(reverse("clubstats:club_csv", args=[season.alfa.pk]) + "?plain=1")
    assert response["Content-Disposition"].startswith("attachment")
    rows = rows_of(response)
    assert rows[0] == ["Anno per anno"]
    header = rows[1]
    assert header[:6] == ["Anno", "Eventi", "Giocatori", "Partite", "Nuovi giocatori", "Media giocatori al tavolo"]
    by_year = {r[0]: r for r in rows[2:]}
    # 2026: 1 event, 4 players, 2 games, 2 new, 3.5 a table; seat 1 won 1 of 2 (50 %)
    assert by_year["2026"][:6] == ["2026", "1", "4", "2", "2", "3.5"]
    assert by_year["2026"][6:9] == ["1", "2", "50.0"]
    assert by_year["Tutti gli anni"][:5] == ["Tutti gli anni", "2", "6", "4", ""]
    # Excel's form (the default): semicolons, decimal commas
    excel = italian.get(reverse("clubstats:club_csv", args=[season.alfa.pk])).content.decode("utf-8-sig")
    assert "2026;1;4;2;2;3,5" in excel


def test_the_players_page_and_csv(season: made_up.Season, italian: Client) -> None:
    page = italian.get(reverse("clubstats:players") + "?year=2026").content.decode()
    assert "Giocatore5 Cognome5" in page and "Giocatore2" not in page  # P2 played nothing that counted in 2026
    found = italian.get(reverse("clubstats:players") + "?year=2026&q=cognome6").content.decode()
    assert "Giocatore6 Cognome6" in found and "Giocatore5" not in found
    rows = rows_of(italian.get(reverse("clubstats:players_csv") + "?year=2026&plain=1"))
    five = next(r for r in rows if r and r[0] == "Giocatore5 Cognome5")
    # P5 2026: Beta, 2 events, 3 games, 2 wins, average place 1.67, 1st of 4 and 2nd of 3, 1 club met
    assert five[:6] == ["Giocatore5 Cognome5", "Circolo Beta", "2", "3", "2", "1.67"]
    assert five[6] == "1º su 4, Torneo Due; 2º su 3, Amichevole Tre" and five[7] == "1"


def test_the_player_page(season: made_up.Season, italian: Client) -> None:
    page = italian.get(reverse("clubstats:player", args=[season.p[1].pk])).content.decode()
    assert "Statistiche – Giocatore1 Cognome1" in page and "Circolo Beta" in page and "1º su 4, Torneo Uno" in page


def test_the_ranking_page_csv_and_rule(season: made_up.Season, italian: Client,
                                       django_capture_on_commit_callbacks) -> None:
    url = reverse("clubstats:ranking", args=[season.beta.pk])
    page = italian.get(url).content.decode()
    assert "Classifica del circolo – Circolo Beta" in page and "serate amichevoli comprese" in page
    assert "Regola della classifica" not in page  # only its admins see the form
    rows = rows_of(italian.get(reverse("clubstats:ranking_csv", args=[season.beta.pk]) + "?plain=1&year=2026"))
    assert rows[1] == ["Posizione", "Giocatore", "Punti", "Eventi conteggiati", "Eventi giocati"]
    assert rows[2:] == [["1", "Giocatore4 Cognome4", "8", "1", "1"], ["1", "Giocatore5 Cognome5", "8", "1", "1"],
                        ["3", "Giocatore1 Cognome1", "3", "1", "1"]]
    # a visitor may not change the rule
    refused = italian.post(reverse("clubstats:ranking_rule", args=[season.beta.pk]), {"rule": "best", "best_n": "1"})
    assert refused.status_code in (302, 403)
    assert selectors.rule_of(season.beta).pk is None
    admin = make_user("admin-beta")
    ClubRoleFactory(club=season.beta, user=admin, role="admin")
    italian.force_login(admin)
    assert "Regola della classifica" in italian.get(url).content.decode()
    bad = italian.post(reverse("clubstats:ranking_rule", args=[season.beta.pk]), {"rule": "best", "best_n": "zero"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "Gli eventi che contano devono essere un numero intero da 1 a 100." in text and 'value="zero"' in text
    with django_capture_on_commit_callbacks(execute=True):
        ok = italian.post(reverse("clubstats:ranking_rule", args=[season.beta.pk]), {"rule": "best", "best_n": "1"})
    assert ok.status_code == 302
    rule = RankingRule.objects.get(club=season.beta)
    assert (rule.rule, rule.best_n) == ("best", 1)
    assert "il miglior risultato di ogni giocatore" in italian.get(url).content.decode()


def test_the_rule_through_the_service_refuses_clearly(season: made_up.Season) -> None:
    from common.errors import DomainError, PermissionDeniedError

    with pytest.raises(PermissionDeniedError):
        services.set_rule(actor=make_user("nobody"), club=season.alfa, rule="best", best_n=3)
    admin = make_user("admin-alfa")
    ClubRoleFactory(club=season.alfa, user=admin, role="admin")
    with pytest.raises(DomainError) as bad_rule:
        services.set_rule(actor=admin, club=season.alfa, rule="average", best_n=3)
    assert (bad_rule.value.field, bad_rule.value.rule) == ("rule", "CLUBRANKING")
    with pytest.raises(DomainError) as bad_n:
        services.set_rule(actor=admin, club=season.alfa, rule="best", best_n=0)
    assert bad_n.value.field == "best_n"


def test_the_api(season: made_up.Season, italian: Client) -> None:
    club = italian.get(f"/api/statistics/clubs/{season.alfa.pk}/").json()
    assert [y["year"] for y in club["years"]] == [2026, 2025, 0]
    assert club["years"][0]["new_players"] == 2 and club["recorded"]["games"] == 2
    assert club["simulator"]["per_size"] == 2 and club["simulator"]["games"] == 8
    ranking = italian.get(f"/api/statistics/clubs/{season.beta.pk}/ranking/?year=2026").json()
    assert [(r["position"], r["player"]["name"], r["points"]) for r in ranking["rows"]] == [
        (1, "Giocatore4 Cognome4", "8"), (1, "Giocatore5 Cognome5", "8"), (3, "Giocatore1 Cognome1", "3")]
    player = italian.get(f"/api/statistics/players/{season.p[6].pk}/").json()
    assert {c["name"] for c in player["years"][0]["clubs_met"]} == {"Circolo Alfa", "Circolo Beta"}
    games = italian.get("/api/statistics/games/").json()
    assert games["recorded"]["sdadata"]["rolls"] == 3
    assert italian.get("/api/statistics/clubs/999999/").status_code == 404


def test_pages_before_any_figure(italian: Client) -> None:
    page = italian.get(reverse("clubstats:home")).content.decode()
    assert "Nessun evento concluso" in page and "Non ancora calcolate" in page


def test_the_club_player_and_events_pages_lead_to_the_statistics(season: made_up.Season, italian: Client) -> None:
    club_page = italian.get(reverse("clubs:detail", args=[season.alfa.pk])).content.decode()
    assert reverse("clubstats:club", args=[season.alfa.pk]) in club_page
    assert reverse("clubstats:ranking", args=[season.alfa.pk]) in club_page
    history = italian.get(reverse("history:player", args=[season.p[1].pk])).content.decode()
    assert reverse("clubstats:player", args=[season.p[1].pk]) in history
    assert reverse("clubstats:home") in italian.get(reverse("tournaments:list")).content.decode()


def test_the_rule_through_the_api(season: made_up.Season, django_capture_on_commit_callbacks) -> None:
    from rest_framework.test import APIClient

    url = f"/api/statistics/clubs/{season.beta.pk}/ranking/rule/"
    api = APIClient()
    assert api.put(url, {"rule": "best", "best_n": 1}, format="json").status_code in (401, 403)
    admin = make_user("admin-beta")
    ClubRoleFactory(club=season.beta, user=admin, role="admin")
    api.force_authenticate(admin)
    bad = api.put(url, {"rule": "best", "best_n": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["rule"] == "CLUBRANKING" and "best_n" in bad.json()
    with django_capture_on_commit_callbacks(execute=True):
        ok = api.put(url, {"rule": "best", "best_n": 2}, format="json")
    assert ok.status_code == 200 and ok.json() == {"rule": "best", "best_n": 2}
    ranking = api.get(f"/api/statistics/clubs/{season.beta.pk}/ranking/").json()
    assert (ranking["rule"], ranking["best_n"]) == ("best", 2)
