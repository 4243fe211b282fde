"""A season's final phase end to end: the option through the seasons API (checked, audited), the
final-phase event and the torneo degli esclusi made from the standings, an absent qualifier
replaced by the next in line, semifinals and final drawn with the knock-out machinery, results
entered as usual, and the season's final ranking with the final's outcome on top."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from seasons.finals import selectors, services
from tables.models import Table
from tests.factories.tournaments import UserFactory
from tournaments.models import AuditEntry, Registration

from .conftest import client_for, patch, play_table

pytestmark = pytest.mark.django_db

def test_the_option_in_the_seasons_api_is_checked_and_audited(league: dict[str, Any]) -> None:
    admin, season = client_for(league["admin"]), league["season"]
    assert admin.get(reverse("api-season", kwargs={"pk": season.pk})).json()["finals"] is False
    bad = patch(admin, season, {"finals": True, "finals_semifinal_places": 6})
    assert bad.status_code == 400 and bad.json()["rule"] == "T-SIZE" and "finals_semifinal_places" in bad.json()
    bad = patch(admin, season, {"finals": True, "finals_direct": 4, "finals_semifinal_places": 8})  # 4 + 2 = 6
    assert bad.status_code == 400 and bad.json()["rule"] == "T-SIZE" and "finals_direct" in bad.json()
    ok = patch(admin, season, {"finals": True, "finals_min_evenings": 2})
    assert ok.status_code == 200, ok.content
    assert {k: v for k, v in ok.json().items() if k.startswith("finals")} == {
        "finals": True, "finals_direct": 2, "finals_semifinal_places": 8, "finals_ripescati": 1,
        "finals_min_evenings": 2, "finals_consolation": True}
    entry = AuditEntry.objects.filter(action="season.update").latest("pk")
    assert entry.before["finals"] is None and entry.after["finals"]["min_evenings"] == 2
    someone = client_for(UserFactory(username="curioso"))
    assert patch(someone, season, {"finals": False}).status_code == 403
    assert client_for().get(reverse("api-season-finals", kwargs={"pk": season.pk})).status_code == 200


def test_the_final_phase_from_standings_to_the_final_ranking(league: dict[str, Any]) -> None:
    admin, season, p = league["admin"], league["season"], league["p"]
    patch(client_for(admin), season, {"finals": True, "finals_min_evenings": 2})
    view = selectors.overview(season)
    assert view is not None
    roles = {r["name"].split()[0]: r["role"] for r in view["rows"]}
    # evening 1: Anna 80 Bruno 45 Carla 25 Dario 10 | Elena 70 Fabio 50 Gina 20 Ivo 10 | Luca 80 Marta 45
    # Nino 25 Olga 10; evening 2: Elena 80 Anna 45 Ivo 25 Bruno 10 | Carla 80 Dario 45 Luca 25 Fabio 10 |
    # Gina 80 Marta 45 Nino 25 Olga 10. Totals: Elena 150, Anna 125, Carla 105 = Luca 105, Gina 100,
    # Marta 90, Fabio 60, Bruno 55 = Dario 55, Nino 50, Ivo 35, Olga 20
    assert [r["name"].split()[0] for r in view["rows"][:2]] == ["Elena", "Anna"]
    assert roles["Elena"] == roles["Anna"] == "direct"
    # 8 places - 1 ripescato = 7 by standing: places 3 to 9 (Carla … Dario)
    assert {n for n, r in roles.items() if r == "semifinal"} == {"Carla", "Luca", "Gina", "Marta", "Fabio",
                                                                 "Bruno", "Dario"}
    # ripescaggio among Nino (best game 25), Ivo (25), Olga (10), all with 2 evenings: Nino and Ivo
    # both 25, Nino is better placed (10th against 11th)
    assert roles["Nino"] == "ripescato" and roles["Ivo"] == roles["Olga"] == "consolation"
    assert any("Nino Lario, Ivo Lario" in t for t in view["ties"])

    services.create_phase(season, actor=admin)
    finals = season.finals
    assert finals.phase.registrations.active().count() == 10
    assert {r.player.first_name for r in finals.consolation_event.registrations.active()} == {
        n for n, r in roles.items() if r == "consolation"}
    entry = AuditEntry.objects.get(action="season.final_phase")
    assert len(entry.after["semifinal"]) == 8 and entry.actor == admin

    # Elena cannot come: Anna and the best semifinalist go straight to the final; the next in
    # line leaves the torneo degli esclusi for the semifinals
    reserve = next(r for r in view["rows"] if r["role"] == "consolation")
    services.mark_absent(season, p["Elena"].pk, actor=admin)
    view = selectors.overview(season)
    roles = {r["player"]: r["role"] for r in view["rows"]}
    assert roles[p["Elena"].pk] == "absent" and roles[reserve["player"]] in ("semifinal", "ripescato")
    assert Registration.objects.active().filter(tournament=finals.phase, player_id=reserve["player"]).exists()
    assert not Registration.objects.active().filter(tournament=finals.consolation_event,
                                                    player_id=reserve["player"]).exists()

    semis = services.draw_semifinals(season, actor=admin, seed="semifinali")
    tables = list(Table.objects.filter(game=semis).order_by("number"))
    assert [t.seats.count() for t in tables] == [4, 4]
    assert selectors.overview(season)["step"] == "semifinals_playing"
    for t in tables:
        play_table(finals.phase, t, admin)
    # Anna (straight to the final) is absent too, after the semifinals were drawn: her seat goes
    # to the best semifinal loser (second at a table, then the better standing)
    services.mark_absent(season, p["Anna"].pk, actor=admin)
    final = services.draw_final(season, actor=admin, seed="finale")
    layout = final.composition_options["knockout"]["finals"][0]
    assert layout["how"] == ["direct", "winner", "winner", "best_loser"]
    assert p["Anna"].pk not in layout["players"]
    play_table(finals.phase, Table.objects.get(game=final), admin)

    view = selectors.overview(season)
    assert view["step"] == "done"
    ranking = view["ranking"]
    final_order = [p["player"] for p in view["final_table"]["order"]]
    assert [r["player"] for r in ranking[:4]] == final_order  # the final's outcome on top
    # then the semifinals' other players, then everyone else (Elena and Anna, absent, by the standings)
    assert ranking[4]["how"].startswith("Semifin") and len(ranking) == 12


def test_only_the_clubs_admins_create_the_final_phase(league: dict[str, Any]) -> None:
    patch(client_for(league["admin"]), league["season"], {"finals": True})
    url = reverse("api-season-finals", kwargs={"pk": league["season"].pk})
    assert client_for(UserFactory(username="curioso")).post(url, {}, content_type="application/json").status_code == 403
    first = client_for(league["admin"]).post(url, {}, content_type="application/json")
    assert first.status_code == 201 and first.json()["step"] == "draw_semifinals"
    again = client_for(league["admin"]).post(url, {}, content_type="application/json")
    assert again.status_code == 409 and again.json()["rule"] == "DUPLICATE"
    changed = patch(client_for(league["admin"]), league["season"], {"finals_direct": 1, "finals_semifinal_places": 12})
    assert changed.status_code == 409


def test_absences_and_draws_through_the_api(league: dict[str, Any]) -> None:
    admin, season, p = client_for(league["admin"]), league["season"], league["p"]
    patch(admin, season, {"finals": True, "finals_min_evenings": 2})
    base = reverse("api-season-finals", kwargs={"pk": season.pk})
    post = lambda path, body: admin.post(base + path, body, content_type="application/json")  # noqa: E731
    assert post("", {"date": "2026-12-20"}).status_code == 201
    gone = post("withdraw/", {"player": p["Elena"].pk, "reason": "influenza"})
    assert gone.status_code == 200
    assert {r["name"].split()[0]: r["role"] for r in gone.json()["rows"]}["Elena"] == "absent"
    assert post("withdraw/", {"player": p["Elena"].pk}).json()["rule"] == "REQUIRED"  # not in it any more
    early = post("draw/", {"phase": "final"})
    assert early.status_code == 400 and early.json()["rule"] == "K-KO-RCU"  # the semifinals come first
    assert post("draw/", {"phase": "quarti"}).status_code == 400
    drawn = post("draw/", {"phase": "semifinals", "seed": "s1"})
    assert drawn.status_code == 200 and len(drawn.json()["semifinal_tables"]) == 2
    assert drawn.json()["step"] == "semifinals_playing"
    assert AuditEntry.objects.filter(action="knockout.semifinals", actor=league["admin"]).count() == 1
    someone = client_for(UserFactory(username="curioso"))
    assert someone.post(base + "draw/", {"phase": "semifinals"}, content_type="application/json").status_code == 403


def test_a_final_without_semifinals_and_too_few_players(league: dict[str, Any]) -> None:
    admin, season, p = league["admin"], league["season"], league["p"]
    # 4 straight to the final, no semifinals: Elena 150, Anna 125, Carla 105 = Luca 105 (Carla and
    # Luca share the 3rd place: both in, the cut is after the 4th)
    ok = patch(client_for(admin), season, {"finals": True, "finals_direct": 4, "finals_semifinal_places": 0,
                                           "finals_ripescati": 0, "finals_consolation": False})
    assert ok.status_code == 200, ok.content
    services.create_phase(season, actor=admin)
    assert season.finals.phase.games_count == 1 and season.finals.consolation_event is None
    services.mark_absent(season, p["Anna"].pk, actor=admin)  # Gina (100, 5th) comes in
    final = services.draw_final(season, actor=admin)
    seated = {s.player.first_name for s in final.seats.all()}
    assert seated == {"Elena", "Carla", "Luca", "Gina"}


def test_the_standings_must_fill_the_final_phase(club_season: dict[str, Any]) -> None:
    """4 players in the standings; 2 direct + 8 semifinal places need 10."""
    admin = club_season["admin"]
    patch(client_for(admin), club_season["season"], {"finals": True})
    refused = client_for(admin).post(reverse("api-season-finals", kwargs={"pk": club_season["season"].pk}), {},
                                     content_type="application/json")
    assert refused.status_code == 400 and refused.json()["rule"] == "K-KO-RCU"
    assert "10" in refused.json()["detail"]
