"""Hidden standings for the last games: while hidden, the public standings (page, print, API)
are those before the first hidden game, a player's public page and the hidden games' tables show
no result to others, the downloads are closed to the public; each player sees their own results
on their personal page; shown again, everything counts. Only an organizer hides and shows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from common.errors import DomainError
from selfservice import hidden
from tests.factories import scoring as f
from tests.selfservice.conftest import as_player
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

# Short form (objective points, extra points, armies, eliminated, RisiKo!), one row per seat.
FIRST = f.short_data([(40, 10, 30, None, False), (30, 20, 20, None, False),
                      (20, 20, 25, None, False), (10, 14, 10, None, False)])
REVERSED = f.short_data([(10, 14, 10, None, False), (20, 20, 25, None, False),
                         (30, 20, 20, None, False), (40, 10, 30, None, False)])


@pytest.fixture
def played(event):
    """Game 1 then game 2 at one table of the same four players: seat 1 wins game 1, seat 4 game 2."""
    t, ps = event["t"], event["players"][:4]
    f.enter(f.make_table(t, 1, ps), event["ref"], "short", FIRST, confirm_by=event["org"])
    table2 = f.make_table(t, 2, ps)
    f.enter(table2, event["ref"], "short", REVERSED, confirm_by=event["org"])
    return {**event, "table2": table2}


def _standings_api(client, slug):
    return client.get(f"/api/scoring/tournaments/{slug}/standings/").json()


def test_hidden_from_game_2_the_public_sees_the_standings_after_game_1(client, played) -> None:
    t, ps = played["t"], played["players"][:4]
    before = _standings_api(client, t.slug)
    assert "hidden_from" not in before and [c["game"] for c in before["rows"][0]["games"]] == [1, 2]
    hidden.hide_standings(t, 2, actor=played["org"])
    shown = _standings_api(client, t.slug)
    # only game 1 counts: seat 1 (40 objective points) leads, as after game 1
    assert shown["hidden_from"] == 2 and shown["games"] == [1]
    assert shown["rows"][0]["player"] == ps[0].pk
    assert all(c["game"] == 1 for r in shown["rows"] for c in r["games"])
    page_url = f"/api/scoring/tournaments/{t.slug}/standings/?limit=2"
    assert [r["player"] for r in client.get(page_url).json()["rows"]][0] == ps[0].pk
    html = client.get(reverse("scoring:standings", args=[t.slug])).content.decode()
    assert 'id="standings-hidden"' in html and "prima della partita 2" in html
    # a player's public page shows game 1 only; game 2's table shows no result to the public
    player_page = client.get(reverse("scoring:player", args=[t.slug, ps[3].pk])).content.decode()
    assert "Partita 2 · tavolo" not in player_page and "Partita 1 · tavolo" in player_page
    table_page = client.get(reverse("scoring:table", args=[t.slug, played["table2"].pk])).content.decode()
    assert "solo i giocatori di questo tavolo" in table_page
    assert client.get(reverse("scoring:export", args=[t.slug, "standings", "csv"])).status_code == 403
    # shown again at the end: every game counts, seat 4 won game 2
    hidden.show_standings(t, actor=played["org"])
    final = _standings_api(client, t.slug)
    assert "hidden_from" not in final and final["games"] == [1, 2, 3]
    final_rows = {r["player"]: r for r in final["rows"]}
    assert sorted(c["game"] for c in final_rows[ps[3].pk]["games"]) == [1, 2]  # game 2 counted again
    assert [a.action for a in AuditEntry.objects.filter(action__startswith="standings.").order_by("pk")] == [
        "standings.hide", "standings.show"]


def test_each_player_sees_their_own_hidden_results_and_nobody_elses(client, played) -> None:
    t, ps = played["t"], played["players"][:4]
    hidden.hide_standings(t, 2, actor=played["org"])
    as_player(client, played, ps[3])
    mine = client.get(reverse("tables:player_home", args=[t.slug])).content.decode()
    assert "Partita 2: 1° posto" in mine  # their own result of the hidden game
    table_page = client.get(reverse("scoring:table", args=[t.slug, played["table2"].pk])).content.decode()
    assert "solo i giocatori di questo tavolo" not in table_page  # seated at it: they see it
    as_player(client, played, played["players"][5])  # not at that table
    other = client.get(reverse("scoring:table", args=[t.slug, played["table2"].pk])).content.decode()
    assert "solo i giocatori di questo tavolo" in other
    assert "Partita 2: " not in client.get(reverse("tables:player_home", args=[t.slug])).content.decode()


def test_only_an_organizer_hides_and_shows_and_the_game_must_exist(client, played) -> None:
    t = played["t"]
    with pytest.raises(DomainError):
        hidden.hide_standings(t, 2, actor=played["ref"])
    with pytest.raises(DomainError) as first:
        hidden.hide_standings(t, 1, actor=played["org"])  # nothing would be left to show
    assert first.value.rule == "HIDDEN"
    client.force_login(played["ref"])
    assert client.post(reverse("selfservice:standings", args=[t.slug]), {"from_game": "2"}).status_code == 403
    client.force_login(played["org"])
    client.post(reverse("selfservice:standings", args=[t.slug]), {"action": "hide", "from_game": "3"})
    assert hidden.hidden_from(t) == 3
    client.post(reverse("selfservice:standings", args=[t.slug]), {"action": "show"})
    assert hidden.hidden_from(t) is None


def test_the_hidden_games_scoresheets_print_blank_and_the_events_ranking_waits(client, played) -> None:
    t = played["t"]
    sheets = reverse("tables:scoresheets", args=[t.slug, 2])
    ranking = reverse("ranking:event", args=[t.slug])
    filled = client.get(sheets).context["pages"][0][0]
    assert filled["filled"]  # game 2's confirmed result, printed
    hidden.hide_standings(t, 2, actor=played["org"])
    assert not client.get(sheets).context["pages"][0][0]["filled"]  # blank for the public
    assert client.get(reverse("tables:scoresheets", args=[t.slug, 1])).context["pages"][0][0]["filled"]
    assert client.get(ranking).status_code == 403
    client.force_login(played["ref"])  # the staff keep them
    assert client.get(sheets).context["pages"][0][0]["filled"]
    assert client.get(ranking).status_code == 200
