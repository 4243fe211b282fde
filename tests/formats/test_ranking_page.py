"""A finished event's page of national-ranking contributions (K-RANKING): public, with name,
nickname and club only, and links to the ranking's rows (events, games, standings)."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from django.urls import reverse

from ranking import formula as rk
from scoring import services
from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory
from tournaments.models import Tournament

from .test_phases import play


def test_public_ranking_page_shows_each_contribution_and_no_private_data(client: Any, db: Any) -> None:
    t = f.ScoringTournamentFactory(date=dt.date(2026, 5, 9))
    org, ref = f.role(t, "organizer"), f.role(t)
    services.apply_preset(actor=org, tournament=t, preset_id="open")
    everyone = f.players(t, 8)
    club = ClubFactory(name="Lario Como")
    for i, p in enumerate(everyone):
        p.email, p.birth_date, p.nickname = f"p{i}@example.org", dt.date(1981, 7, 13), f"nick{i}"
        p.club = club
        p.save()
    for game in (1, 2, 3):  # 6 table-games: the event counts
        order = everyone[game - 1:] + everyone[:game - 1]
        play(t, game, [order[:4], order[4:]], ref, org)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)

    page = client.get(reverse("ranking:event", args=[t.slug]))
    text = page.content.decode()
    cells = re.sub(r"<td\b[^>]*>", "<td>", text)  # each row's values, without the cells' labels
    assert page.status_code == 200
    assert "example.org" not in text and "1981" not in text and "13/07" not in text
    assert "nick0" in text and "Lario Como" in text and "provisional" not in text
    ranking = client.get(f"/api/scoring/tournaments/{t.slug}/ranking/").json()
    assert (ranking["table_games"], ranking["class"], ranking["counts"]) == (6, 2, True)  # Open: class 2
    for c in ranking["contributions"]:
        # shown with one decimal, half down, as the national ranking shows it
        assert c["vt"] == float(rk.contribution(c["position"], 6, "OPN", 3))
        assert abs(c["vt"] - (1.2 if c["position"] == 1 else math.exp(-c["position"] / 20)) * 106 * 2) <= 0.05
        row = f"<td>{c['position']}</td><td>{c['name']}</td><td>Lario Como</td><td>{c['vt']}</td>"
        assert row in cells  # Italian decimal comma
    for what in ("ranking-events", "ranking-games", "ranking-standings"):
        url = reverse("scoring:export", args=[t.slug, what, "csv"])
        assert url in text
        assert client.get(url).status_code == 200
    assert reverse("ranking:national-year", args=[2026]) in text  # the year's national ranking
    url = reverse("scoring:export", args=[t.slug, "ranking-standings", "csv"])
    rows = client.get(url).content.decode()  # from the page: Excel's form (byte-order mark, semicolons)
    assert rows.splitlines()[0].startswith("\ufeffidTorneo;giocatore;idNazionale")
    plain = client.get(url + "?plain=1").content.decode()
    assert plain.splitlines()[0].startswith("idTorneo,giocatore,idNazionale")


def test_an_unfinished_event_is_marked_provisional(client: Any, db: Any) -> None:
    t = f.ScoringTournamentFactory()
    text = client.get(reverse("ranking:event", args=[t.slug])).content.decode()
    assert "provisional" in text and "does not count" in text
