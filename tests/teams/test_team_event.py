"""A small CNS team event in the app (K-TEAM): teams and rosters, starters named by the captain's
link or an organizer, the draw seats only the starters with team-mates apart, results scored
S-GUFO, and the team standings, their API, pages, spreadsheet and workbook sheet, worked by hand."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from common.errors import ConflictError, DomainError, PermissionDeniedError
from scoring import services as scoring_services
from tables import services as table_services
from teams import selectors, services
from teams.exports import SHEET, team_sheet
from tests.factories import scoring as f
from tests.factories.tournaments import CheckInFactory, ClubFactory
from tests.formats.test_phases import result
from tournaments.models import AuditEntry, Registration
from workbook.export import export
from workbook.files import open_book
from workbook.validate import check

TEAMS = "ABCD"


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    """A CNS of 4 teams of 5 players (one club each), everyone checked in for the 3 games."""
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    scoring_services.apply_preset(actor=org, tournament=t, preset_id="cns")
    t.refresh_from_db()
    teams, players = {}, {}
    for name in TEAMS:
        club = ClubFactory(name=f"Club {name} {t.pk}")
        team = services.create_team(t, actor=org, name=f"Squadra {name}", club=club)
        roster = f.players(t, 5)
        for k, p in enumerate(roster, start=1):
            p.club = club
            p.save()
            services.add_member(team, p, actor=org)
            players[f"{name.lower()}{k}"] = p
        services.change_team(team, actor=org, captain=roster[0].pk)
        teams[name] = team
    for reg in Registration.objects.filter(tournament=t):
        for g in (1, 2, 3):
            CheckInFactory(registration=reg, game_number=g)
    return {"t": t, "org": org, "ref": ref, "teams": teams, "p": players}


def _starters(e: dict[str, Any], game: int, fifth_for: str = "") -> None:
    """Every team's players 1–4 start; ``fifth_for`` teams field player 5 instead of player 4."""
    for name, team in e["teams"].items():
        numbers = (1, 2, 3, 5) if name in fifth_for else (1, 2, 3, 4)
        services.set_starters(team, game, [e["p"][f"{name.lower()}{k}"].pk for k in numbers],
                              actor=None, token=team.captain_token)


def test_the_draw_seats_each_teams_starters_at_four_different_tables(event: dict[str, Any]) -> None:
    e = event
    game = table_services.ensure_game(e["t"], 1, actor=e["org"])
    with pytest.raises(DomainError) as refused:  # nobody has named starters yet
        table_services.compose_game(game, actor=e["org"], seed="cns")
    assert refused.value.rule == "K-TEAM" and "Squadra A" in refused.value.message
    _starters(e, 1, fifth_for="B")
    game = table_services.compose_game(game, actor=e["org"], seed="cns")
    tables = [[s.player_id for s in tb.seats.all()] for tb in game.tables.order_by("number")]
    seated = {pid for tb in tables for pid in tb}
    # 16 starters at 4 tables of 4; the substitutes (a5, c5, d5 and b4) sit out
    assert len(tables) == 4 and all(len(tb) == 4 for tb in tables) and len(seated) == 16
    assert e["p"]["b5"].pk in seated and e["p"]["b4"].pk not in seated and e["p"]["a5"].pk not in seated
    team_of = selectors.member_team_ids(e["t"])
    assert all(len({team_of[p] for p in tb}) == 4 for tb in tables)
    assert game.composition_options["priorities"] == ["team_apart", "teams_meet_evenly"]
    # once the tables are drawn, the captain can no longer change the starters of that game
    with pytest.raises(ConflictError):
        _starters(e, 1)


def test_starters_are_named_by_the_captain_or_an_organizer_only(event: dict[str, Any]) -> None:
    e = event
    team, p = e["teams"]["A"], e["p"]
    four = [p[f"a{k}"].pk for k in (1, 2, 3, 4)]
    with pytest.raises(PermissionDeniedError):
        services.set_starters(team, 1, four, actor=None, token="not-the-link")
    with pytest.raises(PermissionDeniedError):  # another team's captain link
        services.set_starters(team, 1, four, actor=None, token=e["teams"]["B"].captain_token)
    with pytest.raises(DomainError) as three:
        services.set_starters(team, 1, four[:3], actor=e["org"])
    assert three.value.field == "players" and three.value.rule == "K-TEAM"
    with pytest.raises(DomainError) as stranger:
        services.set_starters(team, 1, [*four[:3], p["b1"].pk], actor=e["org"])
    assert stranger.value.field == "players"
    assert services.set_starters(team, 1, four, actor=None, token=team.captain_token) == sorted(four)
    assert AuditEntry.objects.filter(action="teams.starters", tournament=e["t"]).count() == 1


def test_rosters_hold_4_to_12_registered_players_one_team_each(event: dict[str, Any]) -> None:
    e = event
    with pytest.raises(DomainError) as twice:
        services.add_member(e["teams"]["B"], e["p"]["a1"], actor=e["org"])
    assert "Squadra A" in twice.value.message
    outsider = f.ScoringPlayerFactory()  # not registered
    with pytest.raises(DomainError):
        services.add_member(e["teams"]["A"], outsider, actor=e["org"])
    extra = f.players(e["t"], 8)
    for p in extra[:7]:
        services.add_member(e["teams"]["A"], p, actor=e["org"])  # 5 + 7 = 12
    with pytest.raises(DomainError) as full:
        services.add_member(e["teams"]["A"], extra[7], actor=e["org"])
    assert "12" in full.value.message
    with pytest.raises(PermissionDeniedError):
        services.create_team(e["t"], actor=e["ref"], name="Squadra E")


def _play(e: dict[str, Any], game: int, winner_seat: int, fifth_for: str = "") -> None:
    """Table t seats a_t, b_t, c_t, d_t at seats 1–4 (team-mates apart); every table is won by
    ``winner_seat``: 50 objective points, the others 40, 30, 20 in seat order."""
    _starters(e, game, fifth_for)
    for t in range(1, 5):
        k = 5 if (t == 4 and fifth_for) else t
        seated = [e["p"][f"{name.lower()}{k if name in fifth_for else t}"] for name in TEAMS]
        table = f.make_table(e["t"], game, seated, number=t)
        f.enter(table, e["ref"], "short", result(4, winner_seat), confirm_by=e["org"])


def test_team_standings_worked_by_hand(event: dict[str, Any], client: Any) -> None:
    """S-GUFO at a 4-player table: place bonus 12/7/5/3 + P ÷ 100, so winner 50 → 12.5 and
    40/30/20 → 7.4/5.3/3.2. Game 1 and 3: seat 1 (team A) wins every table; game 2 seat 2 (B).
    A: 8 × 12.5 + 4 × 7.4 → best 9 = 8 × 12.5 + 7.4 = 107.4, every result 100 + 29.6 = 129.6
    B: 4 × 12.5 + 8 × 7.4 → best 9 = 50 + 5 × 7.4 = 87, every result 50 + 59.2 = 109.2
    C: 12 × 5.3 → best 9 = 47.7, every result 63.6;  D: 12 × 3.2 → 28.8, every result 38.4.
    In game 2 team B fields b5 instead of b4 (a substitute in): b5's result counts for B."""
    e = event
    _play(e, 1, 1)
    _play(e, 2, 2, fifth_for="B")
    _play(e, 3, 1)
    rows = selectors.standings(e["t"])["rows"]
    got = [(r["position"], r["team"]["name"], r["total"], r["total_all"], r["wins"]) for r in rows]
    assert got == [(1, "Squadra A", D("107.4"), D("129.6"), 8), (2, "Squadra B", D("87"), D("109.2"), 4),
                   (3, "Squadra C", D("47.7"), D("63.6"), 0), (4, "Squadra D", D("28.8"), D("38.4"), 0)]
    assert len(rows[0]["counted"]) == 9
    b5 = e["p"]["b5"].pk
    assert any(c["player"] == b5 and c["game"] == 2 and c["score"] == D("12.5") for c in rows[1]["counted"])

    api = client.get(f"/api/scoring/tournaments/{e['t'].slug}/teams/standings/").json()
    first = api["rows"][0]
    assert (first["position"], first["team"]["name"], first["total"], first["total_all"], first["wins"]) == (
        1, "Squadra A", 107.4, 129.6, 8)
    assert set(first["counted"][0]) == {"player", "player_name", "game", "table", "score"}
    assert first["counted"][0]["score"] == 12.5

    page = client.get(f"/t/{e['t'].slug}/teams/standings/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Squadra A" in page and "107.4" in page.replace(",", ".")

    # the workbook: GT's sheet, one pt column per result (12), v_tot, pt_tot, pt_class; still valid
    sheet = team_sheet(e["t"])
    assert sheet[0][:3] == ["Pos.", "Club o Famiglia", "pt1"] and sheet[0][-3:] == ["v_tot", "pt_tot", "pt_class"]
    assert len(sheet[0]) == 2 + 12 + 3
    assert sheet[1][0] == 1 and sheet[1][1] == "Squadra A" and sheet[1][-3:] == [8, D("129.6"), D("107.4")]
    done = export(e["t"], write_file=True)
    assert done.ok, [i.as_dict() for i in done.checked.errors]
    book = open_book(done.content, done.filename)
    written = book.get(SHEET)
    assert written is not None and written.cell(1, 1).text() == "Squadra A"
    assert written.cell(1, 16).value == 107.4  # pt_class: Pos., name, 12 results, v_tot, pt_tot, pt_class
    # the clubs' validator reads the file back without an error (tests/workbook checks the rest)
    assert check(book, done.filename).ok


def test_the_api_reads_teams_publicly_and_writes_for_organizer_and_captain(event: dict[str, Any], client: Any) -> None:
    e = event
    slug = e["t"].slug
    listed = client.get(f"/api/tournaments/{slug}/teams/").json()
    assert [t["name"] for t in listed] == ["Squadra A", "Squadra B", "Squadra C", "Squadra D"]
    assert "captain_token" not in listed[0] and len(listed[0]["members"]) == 5
    team = e["teams"]["A"]
    four = [e["p"][f"a{k}"].pk for k in (1, 2, 3, 4)]
    url = f"/api/tournaments/{slug}/teams/{team.pk}/starters/1/"
    assert client.put(url, {"players": four}, content_type="application/json").status_code == 403
    bad = client.put(url, {"players": four[:2]}, content_type="application/json", HTTP_X_CAPTAIN_TOKEN=team.captain_token)
    assert bad.status_code == 400 and bad.json()["rule"] == "K-TEAM" and "players" in bad.json()
    ok = client.put(url, {"players": four}, content_type="application/json", HTTP_X_CAPTAIN_TOKEN=team.captain_token)
    assert ok.status_code == 200 and ok.json() == {"players": sorted(four)}
    assert client.get(url).json() == {"players": sorted(four)}
    assert client.post(f"/api/tournaments/{slug}/teams/", {"name": "E"}, content_type="application/json").status_code in (401, 403)
    client.force_login(e["org"])
    made = client.post(f"/api/tournaments/{slug}/teams/", {"name": "Squadra E"}, content_type="application/json")
    assert made.status_code == 201 and made.json()["captain_token"]
    again = client.post(f"/api/tournaments/{slug}/teams/", {"name": "squadra e"}, content_type="application/json")
    assert again.status_code == 400 and again.json()["rule"] == "K-TEAM" and "name" in again.json()
    extra = f.players(e["t"], 1)[0]
    added = client.post(f"/api/tournaments/{slug}/teams/{made.json()['id']}/members/", {"player": extra.pk},
                        content_type="application/json")
    assert added.status_code == 201 and [m["id"] for m in added.json()["members"]] == [extra.pk]


def test_pages_teams_team_and_captain(event: dict[str, Any], client: Any) -> None:
    e = event
    slug, team = e["t"].slug, e["teams"]["A"]
    listing = client.get(f"/t/{slug}/teams/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Squadra A" in listing and "Squadre" in listing
    captain = f"/t/{slug}/teams/{team.pk}/captain/{team.captain_token}/"
    page = client.get(captain, HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200 and "Titolari" in page.content.decode()
    p = e["p"]
    wrong = client.post(captain, {"game": 1, "players": [p["a1"].pk, p["a2"].pk]}, HTTP_ACCEPT_LANGUAGE="it")
    assert wrong.status_code == 400 and "4" in wrong.content.decode()
    saved = client.post(captain, {"game": 1, "players": [p[f"a{k}"].pk for k in (1, 2, 3, 5)]})
    assert saved.status_code == 302
    assert selectors.starters(team, 1) == sorted(p[f"a{k}"].pk for k in (1, 2, 3, 5))
    assert client.get(f"/t/{slug}/teams/{team.pk}/captain/nope/").status_code == 404
    client.force_login(e["org"])
    own = client.get(f"/t/{slug}/teams/{team.pk}/").content.decode()
    assert team.captain_token in own  # the organizer sees the captain's link to send
