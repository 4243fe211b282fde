"""The rating's public page and the player's page, in Italian."""

from __future__ import annotations

import pytest

from ratings import services
from tests.factories.scoring import ScoringPlayerFactory, ScoringTournamentFactory, make_table
from tests.ratings.test_rating import result

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    a, b, c = ScoringPlayerFactory.create_batch(3)
    result(make_table(ScoringTournamentFactory(name="Torneo di primavera"), 1, [a, b, c]), [1, 2, 2])
    services.recompute()
    return a, b, c


def test_the_page_lists_and_searches_in_italian(client, rated) -> None:
    a, b, _c = rated
    page = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Indice" in page and "provvisorio" in page
    assert page.index(a.display_name) < page.index(b.display_name)
    found = client.get("/ratings/", {"q": b.last_name.upper()}, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert b.display_name in found and a.display_name not in found
    assert "Nessun giocatore" in client.get("/ratings/", {"q": "zzz"}, HTTP_ACCEPT_LANGUAGE="it").content.decode()


def test_the_player_page_shows_the_rating_history(client, rated) -> None:
    a, _b, _c = rated
    page = client.get(f"/players/{a.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Indice" in page and "Torneo di primavera" in page and "1 partita valutata" in page


def test_the_api_searches_and_pages(client, rated) -> None:
    a, b, c = rated
    body = client.get("/api/ratings/", {"limit": 1, "offset": 1}).json()
    assert body["count"] == 3 and body["limit"] == 1 and len(body["rows"]) == 1
    assert body["rows"][0]["player"]["id"] in (b.pk, c.pk)
    assert [r["player"]["id"] for r in client.get("/api/ratings/", {"q": a.first_name}).json()["rows"]] == [a.pk]


def test_the_national_ranking_leads_to_the_rating(client) -> None:
    page = client.get("/ranking/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'href="/ratings/"' in page and "Indice" in page
