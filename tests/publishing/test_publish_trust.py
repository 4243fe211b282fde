"""A club's token publishes only its own club's event: it never reaches another club's players,
never creates a club, and its payload is held to one allow-list (publishing/schema.py),
so nothing it adds is stored or served back, and nothing malformed is a server error."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from engine import exact
from publishing import schema
from publishing import services as publishing
from publishing.models import PublishedTournament
from scoring.models import ResultSubmission
from tables.models import Game, Table
from tests.factories.tournaments import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
)
from tournaments.models import Club, Player, Registration, Tournament

from .helpers import add_second_game, laptop_event

pytestmark = pytest.mark.django_db


def put(document: Any, token: str, slug: str = "copia") -> Any:
    body = document if isinstance(document, str) else exact.dumps({**copy.deepcopy(document), "slug": slug})
    return Client().put(f"/api/publish/tournaments/{slug}/", body, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    e = laptop_event()  # Club Alfa's evening on the laptop; the same database plays the instance
    e["token"] = publishing.issue_token(e["club"])
    e["doc"] = publishing.prepare(e["t"])
    return e


@pytest.fixture
def roma_marco(db: Any) -> Player:
    """Marco Rossi of RisiKo Club Roma, with his personal data and a registration in another
    organizer's tournament."""
    roma = ClubFactory(name="RisiKo Club Roma")
    marco = PlayerFactory(first_name="Marco", last_name="Rossi", nickname="Il Generale", club=roma,
                          email="marco@example.org", national_id="RSSMRC80A01H501U", birth_date="1980-01-01")
    RegistrationFactory(tournament=TournamentFactory(name="Torneo di Roma"), player=marco)
    return marco


def _copy_players() -> set[int]:
    return set(Registration.objects.filter(tournament__slug="copia").values_list("player_id", flat=True))


# --- players: a publish reaches only its own club's players -------------------------------------

def test_a_token_naming_another_clubs_player_makes_a_new_record(event: dict[str, Any], roma_marco: Player) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["players"][0].update(name="Marco Rossi (Il Generale)", club="RisiKo Club Roma")
    before = Player.objects.filter(pk=roma_marco.pk).values().get()
    assert put(doc, event["token"]).status_code == 201
    assert roma_marco.pk not in _copy_players()
    assert Player.objects.filter(pk=roma_marco.pk).values().get() == before  # untouched
    assert list(roma_marco.registrations.values_list("tournament__name", flat=True)) == ["Torneo di Roma"]
    made = Player.objects.get(first_name="Marco", last_name="Rossi", nickname="Il Generale",
                              registrations__tournament__slug="copia")
    assert made.pk != roma_marco.pk and made.club == roma_marco.club
    assert not made.email and not made.national_id and made.birth_date is None
    # publishing again keeps the copy's own record (its laptop key), still not Roma's
    add_second_game(event)
    doc2 = copy.deepcopy(publishing.prepare(event["t"]))
    doc2["content"]["players"][0].update(name="Marco Rossi (Il Generale)", club="RisiKo Club Roma")
    assert put(doc2, event["token"]).json()["status"] == "updated"
    assert made.pk in _copy_players() and roma_marco.pk not in _copy_players()


def test_the_tokens_own_club_players_are_reused_and_a_renamed_one_keeps_its_record(event: dict[str, Any]) -> None:
    players_before = Player.objects.count()
    assert put(event["doc"], event["token"]).status_code == 201
    assert _copy_players() == {p.pk for p in event["players"]}  # Club Alfa's own players
    assert Player.objects.count() == players_before
    # the laptop corrects a name: the same laptop key keeps the copy's record, no new player
    add_second_game(event)
    doc = copy.deepcopy(publishing.prepare(event["t"]))
    doc["content"]["players"][0]["name"] = "Nome Corretto"
    assert put(doc, event["token"]).json()["status"] == "updated"
    assert _copy_players() == {p.pk for p in event["players"]}
    assert Player.objects.count() == players_before


def test_a_player_with_no_club_is_never_matched_to_a_clubs_player(event: dict[str, Any], roma_marco: Player) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["players"][0].update(name="Marco Rossi (Il Generale)", club="")
    assert put(doc, event["token"]).status_code == 201
    assert roma_marco.pk not in _copy_players()


# --- clubs: only existing ones ------------------------------------------------------------------

def test_a_club_unknown_here_is_refused_and_not_created(event: dict[str, Any]) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["players"][2]["club"] = "Circolo Inventato"
    r = put(doc, event["token"])
    assert r.status_code == 400 and r.json()["rule"] == "PUBLISH", r.content
    assert "Circolo Inventato" in r.json()["content.players[2].club"][0]
    assert not Club.objects.filter(name="Circolo Inventato").exists()
    assert not PublishedTournament.objects.exists() and not Tournament.objects.filter(slug="copia").exists()


def test_an_existing_club_is_found_whatever_its_case(event: dict[str, Any], roma_marco: Player) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["players"][1]["club"] = "risiko club roma "
    assert put(doc, event["token"]).status_code == 201
    assert Club.objects.filter(name__iexact="risiko club roma").count() == 1


# --- the allow-list -----------------------------------------------------------------------------

PERSONAL = {"email": "p@example.org", "birth_date": "1990-01-01", "national_id": "NID-LEAK"}


@pytest.mark.parametrize(("where", "field"), [
    (lambda c: c["standings"]["rows"][0], "content.standings.rows[0].email"),
    (lambda c: c["games"][0]["tables"][0]["seats"][1], "content.games[0].tables[0].seats[1].email"),
    (lambda c: c["games"][0]["tables"][0]["result"]["scores"][0], "content.games[0].tables[0].result.scores[0].email"),
    (lambda c: c["tournament"], "content.tournament.email"),
    (lambda c: c, "content.email"),
])
def test_personal_data_anywhere_in_the_payload_is_refused(event: dict[str, Any], where: Callable[..., Any],
                                                          field: str) -> None:
    doc = copy.deepcopy(event["doc"])
    where(doc["content"]).update(PERSONAL)
    r = put(doc, event["token"])
    assert r.status_code == 400 and r.json()["rule"] == "PUBLISH" and field in r.json(), r.content
    assert not PublishedTournament.objects.exists()


def test_the_public_copy_shows_no_personal_data_even_from_an_old_stored_copy(event: dict[str, Any]) -> None:
    assert put(event["doc"], event["token"]).status_code == 201
    row = PublishedTournament.objects.get()
    payload = copy.deepcopy(row.payload)  # as an instance stored it before the allow-list
    payload["standings"]["rows"][0].update(PERSONAL)
    payload["games"][0]["tables"][0]["seats"][0].update(PERSONAL)
    payload["players"][0].update(PERSONAL)
    payload["tournament"]["secret"] = "NID-LEAK"
    PublishedTournament.objects.filter(pk=row.pk).update(payload=payload)
    shown = Client().get("/api/publish/tournaments/copia/")
    assert shown.status_code == 200
    text = shown.content.decode()
    assert not any(value in text for value in PERSONAL.values())
    assert "email" not in text and "national_id" not in text and "secret" not in text
    # what the public pages show is all still there
    content = shown.json()["content"]
    assert [r["name"] for r in content["standings"]["rows"]] == [r["name"] for r in payload["standings"]["rows"]]
    assert content["games"][0]["tables"][0]["seats"][0]["player"] == payload["games"][0]["tables"][0]["seats"][0]["player"]
    assert {p["name"] for p in content["players"]} == {p.display_name for p in event["players"]}


def _table(c: dict[str, Any]) -> dict[str, Any]:
    return c["games"][0]["tables"][0]


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("table without number", lambda c: _table(c).pop("number"), "content.games[0].tables[0].number"),
    ("seat without number", lambda c: _table(c)["seats"][0].pop("number"),
     "content.games[0].tables[0].seats[0].number"),
    ("games_count not a number", lambda c: c["tournament"].update(games_count="abc"), "content.tournament.games_count"),
    ("a list as a player key", lambda c: c["players"][0].update(key=[1, 2]), "content.players[0].key"),
    ("tables not objects", lambda c: c["games"][0].update(tables=["x"]), "content.games[0].tables[0]"),
    ("seats not a list", lambda c: _table(c).update(seats=5), "content.games[0].tables[0].seats"),
    ("unknown result kind", lambda c: _table(c)["result"].update(kind="magic"), "content.games[0].tables[0].result.kind"),
    ("unknown ending", lambda c: _table(c)["result"].update(ended_by="boredom"),
     "content.games[0].tables[0].result.ended_by"),
    ("scores not a list", lambda c: _table(c)["result"].update(scores={"a": 1}),
     "content.games[0].tables[0].result.scores"),
    ("a game twice", lambda c: c["games"].append(copy.deepcopy(c["games"][0])), "content.games[1].number"),
    ("a table twice", lambda c: c["games"][0]["tables"].append(copy.deepcopy(_table(c))),
     "content.games[0].tables[1].number"),
    ("a seat twice", lambda c: _table(c)["seats"].append(copy.deepcopy(_table(c)["seats"][0])),
     "content.games[0].tables[0].seats[4].number"),
    ("a player key twice", lambda c: c["players"].append({**c["players"][0], "name": "Altro"}), "content.players[4].key"),
    ("a 1 MB name", lambda c: c["players"][0].update(name="x" * 1_000_000), "content.players[0].name"),
    ("a 1 MB tournament name", lambda c: c["tournament"].update(name="x" * 1_000_000), "content.tournament.name"),
    ("rank 10**30", lambda c: c["standings"]["rows"][0].update(rank=10**30), "content.standings.rows[0].rank"),
    ("a total of 10**30", lambda c: c["standings"]["rows"][0].update(total=10**30), "content.standings.rows[0].total"),
    ("date 99999-01-01", lambda c: c["tournament"].update(date="99999-01-01"), "content.tournament.date"),
    ("date not a date", lambda c: c["tournament"].update(date="ieri"), "content.tournament.date"),
    ("a game started in 3000", lambda c: c["games"][0].update(started_at="3000-01-01T09:00:00"),
     "content.games[0].started_at"),
    ("games_count 10**30", lambda c: c["tournament"].update(games_count=10**30), "content.tournament.games_count"),
    ("game number 10**30", lambda c: c["games"][0].update(number=10**30), "content.games[0].number"),
    ("a seat of an unknown player", lambda c: _table(c)["seats"][0].update(player=999_999_999),
     "content.games[0].tables[0].seats[0].player"),
    ("a row of an unknown player", lambda c: c["standings"]["rows"][0].update(player=999_999_999),
     "content.standings.rows[0].player"),
    ("rows not a list", lambda c: c["standings"].update(rows={}), "content.standings.rows"),
    ("a boolean as a number", lambda c: _table(c)["result"]["scores"][0].update(armies=True),
     "content.games[0].tables[0].result.scores[0].armies"),
    ("an empty player name", lambda c: c["players"][0].update(name="  "), "content.players[0].name"),
    ("a status unknown", lambda c: c["tournament"].update(status="gone"), "content.tournament.status"),
]


@pytest.mark.parametrize(("change", "field"), [(m[1], m[2]) for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_or_unbounded_payloads_are_400_naming_the_field(event: dict[str, Any], change: Any,
                                                                 field: str) -> None:
    doc = copy.deepcopy(event["doc"])
    change(doc["content"])
    r = put(doc, event["token"])
    assert r.status_code == 400, (r.status_code, r.content[:300])
    assert r.json()["rule"] == "PUBLISH" and field in r.json(), r.content[:300]
    assert not PublishedTournament.objects.exists() and not Tournament.objects.filter(slug="copia").exists()


def test_a_malformed_update_leaves_the_published_copy_as_it_was(event: dict[str, Any]) -> None:
    assert put(event["doc"], event["token"]).status_code == 201
    add_second_game(event)
    doc = copy.deepcopy(publishing.prepare(event["t"]))
    doc["content"]["games"][1]["number"] = 1  # two games numbered 1: was a misleading 409
    r = put(doc, event["token"])
    assert r.status_code == 400 and "content.games[1].number" in r.json(), r.content
    assert Game.objects.filter(tournament__slug="copia").count() == 1


def test_the_allow_list_names_the_values_of_the_apps_above_tournaments() -> None:
    assert set(schema.GAME_STATUSES) == set(Game.Status.values)
    assert set(schema.TABLE_STATUSES) == set(Table.Status.values)
    assert set(schema.RESULT_KINDS) == set(ResultSubmission.Kind.values)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_that_is_not_finite_is_400(event: dict[str, Any], constant: str) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["standings"]["rows"][0]["total"] = 424242
    body = exact.dumps({**doc, "slug": "copia"}).replace("424242", constant)
    r = put(body, event["token"])
    assert r.status_code == 400 and "content.standings.rows[0].total" in r.json(), r.content


def test_the_allow_list_takes_the_formats_rules_and_ranking_fields_a_laptop_sends(event: dict[str, Any]) -> None:
    """What the laptop sends about how the event was played (rule set and its overrides, scoring
    system, start times, the format's choices with a club format's changed numbers, the games'
    days, the event's id in the national ranking) is listed, with bounds: accepted whole."""
    from decimal import Decimal

    t = event["t"]
    doc = copy.deepcopy(event["doc"])
    doc["content"]["tournament"].update(
        scoring_system=t.scoring_system, ruleset=t.ruleset, capacity=None, start_times=["09:30", "14:00"],
        ruleset_overrides={"time_limit_minutes": 60, "extra": {"time_limit_seconds": 90}})
    doc["content"]["games"][0].update(rehearsal=False, started_at="2026-11-28T09:30:00+00:00", finished_at=None)
    doc["content"]["scoring"] = {"preset": "gufo", "method": "rtu", "tiebreaks": ["extra", "armies"], "best_n": 2,
                                 "publish_unconfirmed": False,
                                 "club_changes": {"win_bonus": 40, "size_factor": {"4": Decimal("1.25")},
                                                  "place_points": {"4": [10, 6, 3, 0]}}}
    doc["content"]["ranking"] = {"organizer": "Club Alfa", "first_day": "2026-11-28"}
    assert put(doc, event["token"]).status_code == 201
    for bad, field in [({"club_changes": {"email": "x@example.org"}}, "content.scoring.club_changes.email"),
                       ({"club_changes": {"win_bonus": "x" * 500}}, "content.scoring.club_changes.win_bonus")]:
        wrong = copy.deepcopy(doc)
        wrong["content"]["scoring"].update(bad)
        wrong["sequence"] += 1
        r = put(wrong, event["token"])
        assert r.status_code == 400 and field in r.json(), r.content


def test_the_public_copy_of_a_draft_is_not_shown(event: dict[str, Any]) -> None:
    doc = copy.deepcopy(event["doc"])
    doc["content"]["tournament"]["status"] = Tournament.Status.DRAFT
    assert put(doc, event["token"]).status_code == 201
    assert Client().get("/t/copia/").status_code == 404  # as its public pages
    assert Client().get("/api/publish/tournaments/copia/").status_code == 404


def test_a_standings_cell_needs_its_game_and_its_other_columns_may_be_missing(event: dict[str, Any]) -> None:
    """A game's cell in a standings row without its game number says nothing: refused naming it.
    A cell with its game and nothing else (a laptop that sent fewer columns) is stored, and the
    instance's standings read the missing columns as 0 (was a 500 on every standings read)."""
    doc = copy.deepcopy(event["doc"])
    row = doc["content"]["standings"]["rows"][0]
    assert row["games"], "the demo evening's rows carry their games"
    no_game = copy.deepcopy(doc)
    del no_game["content"]["standings"]["rows"][0]["games"][0]["game"]
    r = put(no_game, event["token"])
    assert r.status_code == 400 and "content.standings.rows[0].games[0].game" in r.json(), r.content
    row["games"][0] = {"game": row["games"][0]["game"]}
    assert put(doc, event["token"]).status_code == 201
    assert Client().get("/api/scoring/tournaments/copia/standings/").status_code == 200
    assert Client().get("/t/copia/standings/").status_code == 200
