"""The clubs' scoresheet: per table every player's Punti, Pti fuori obiettivo, Punti Torneo and
Firma, the map's check total (164), two tables per A4 page, every table of a game in one page;
and the meeting statistics grid."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import scoring as f


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    ps = f.players(t, 12)
    tables = [f.make_table(t, 1, ps[i:i + 4]) for i in (0, 4, 8)]
    short = f.short_data([(50, 10, 20, None, False), (30, 20, 20, None, False),
                          (20, 14, 20, None, False), (10, 10, 20, None, False)])
    f.enter(tables[0], ref, "short", short, confirm_by=org)
    f.make_table(t, 2, [ps[0], ps[1], ps[4], ps[8]])
    return {"t": t, "players": ps, "tables": tables}


def test_all_tables_print_in_one_page_two_per_a4(event: dict[str, Any], client: Client) -> None:
    page = client.get(f"/t/{event['t'].slug}/games/1/scoresheets/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="scoresheet"') == 3 and html.count('class="scoresheet-a4"') == 2
    for header in ("Punti", "Pti fuori obiettivo", "Punti Torneo", "Firma", "Totale punti: 164"):
        assert header in html, header
    assert "Tavolo n. 1" in html and "Tavolo n. 3" in html
    # the table with a confirmed result is printed filled in: P 50 → 50 + 30 (S-RTU place bonus)
    first = html.split('class="scoresheet"')[1]
    assert re.search(r">\s*80\s*<", first) and event["players"][0].display_name in first
    assert "https://" not in html.split("<main>")[0].replace('rel="icon"', "")  # no remote asset
    one = client.get(f"/t/{event['t'].slug}/games/1/scoresheets/?table=2").content.decode()
    assert one.count('class="scoresheet"') == 1
    assert client.get(f"/t/{event['t'].slug}/games/1/scoresheets/?table=9").status_code == 404


def test_meeting_grid_counts_who_met_whom(event: dict[str, Any], client: Client) -> None:
    page = client.get(f"/t/{event['t'].slug}/meetings/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Giocatore contro giocatore" in html
    # players 1 and 2 met in game 1 and again in game 2: a repeat, shown as 2
    assert 'class="num repeat">2<' in html
