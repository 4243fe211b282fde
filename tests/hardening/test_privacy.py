"""Privacy: public pages and the public API show a player's name, nickname and club and
nothing else; a player's data can be exported and erased on request, their results kept under an
anonymised name."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from common.errors import PermissionDeniedError
from tests.factories.tournaments import (
    PlayerLinkFactory,
    TournamentFactory,
    TournamentRoleFactory,
    make_user,
    open_private_link,
)
from tests.hardening.urlmap import all_routes, demo_world, url_of
from tournaments import privacy
from tournaments.models import AccessLink, AuditEntry, Player, Tournament

CANARY_EMAIL = "canary.7f3a9@privacy-test.example"
CANARY_BIRTH = "1987-03-14"
CANARY_NATIONAL_ID = "RCU-CANARY-90731"


def _personal_strings(players: list[Player]) -> list[str]:
    """What must never appear: every e-mail, every national id and every birth date in the
    usual spellings."""
    out = []
    for p in players:
        if p.email:
            out.append(p.email.casefold())
        if p.national_id:
            out.append(p.national_id.casefold())
        if p.birth_date:
            d = p.birth_date
            out += [d.isoformat(), d.strftime("%d/%m/%Y"), d.strftime("%d.%m.%Y"),
                    d.strftime("%d-%m-%Y"), f"{d.day}/{d.month}/{d.year}"]
    return out


@pytest.fixture
def canary(demo_tournament: Tournament) -> Player:
    """A seated demo player given a distinctive e-mail, birth date and national id."""
    from tables.models import Seat

    seat = Seat.objects.filter(game__tournament=demo_tournament, game__number=2).exclude(
        player=None).first()
    p = seat.player
    p.email, p.birth_date, p.national_id = CANARY_EMAIL, "1987-03-14", CANARY_NATIONAL_ID
    p.save()
    p.refresh_from_db()
    return p


def _public_get_routes() -> list[Any]:
    # The private link route logs a referee in: it is opened on its own below.
    return [r for r in all_routes() if r.name not in ("tournaments:link", "logout")]


def test_no_public_page_or_endpoint_shows_an_email_a_birth_date_or_a_national_id(
    demo_tournament: Tournament, canary: Player,
) -> None:
    secrets = _personal_strings(list(Player.objects.all()))
    assert CANARY_EMAIL in secrets and CANARY_BIRTH in secrets and len(secrets) > 40
    assert CANARY_NATIONAL_ID.casefold() in secrets
    world = demo_world()
    # A player's private link opened in a browser: what they see is public plus their own card.
    link = PlayerLinkFactory(tournament=demo_tournament, player=canary)
    player_browser = Client()
    open_private_link(player_browser, link.token)
    stranger = Client()  # signed in, but with no role anywhere
    stranger.force_login(make_user("curious", password="x"))
    checked = leaks = 0
    found = []
    for route in _public_get_routes():
        url = url_of(route, world)
        for who, client in (("anonymous", Client()), ("player", player_browser),
                            ("stranger", stranger)):
            response = client.get(url)
            if response.status_code != 200 or getattr(response, "streaming", False):
                continue
            text = response.content.decode("utf-8", "replace").casefold()
            checked += 1
            for s in secrets:
                if s in text:
                    leaks += 1
                    found.append(f"{who} {url}: {s}")
            for key in ('"email"', '"birth_date"', '"national_id"', "e-mail"):
                if route.is_api and key in text and "schema" not in route.name:
                    found.append(f"{who} {url}: field {key}")
    assert checked >= 60, checked
    assert found == [], f"{leaks} leaks"


def test_the_player_list_api_shows_name_nickname_and_club_only(demo_tournament: Tournament) -> None:
    data = Client().get("/api/players/").json()
    rows = data["results"] if isinstance(data, dict) else data
    allowed = {"id", "first_name", "last_name", "nickname", "club", "display_name", "club_name"}
    assert rows and all(set(r) <= allowed for r in rows), rows[0]


# --- export and erase --------------------------------------------------------------------------
def _standing_numbers(slug: str) -> list[Any]:
    data = Client().get(f"/api/scoring/tournaments/{slug}/standings/").json()
    rows = data["rows"] if isinstance(data, dict) and "rows" in data else data
    text = json.dumps(rows, sort_keys=True)
    return [json.loads(text)]


def test_export_has_everything_stored_about_the_player(canary: Player) -> None:
    doc = privacy.export_player_data(canary)
    assert doc["player"]["email"] == CANARY_EMAIL and doc["player"]["birth_date"] == CANARY_BIRTH
    assert doc["player"]["national_id"] == CANARY_NATIONAL_ID
    assert doc["registrations"][0]["tournament"] == "demo"
    assert doc["seats"] and {s["game"] for s in doc["seats"]} >= {2}
    json.dumps(doc)  # JSON-ready


def test_erasure_keeps_results_under_an_anonymised_name_and_removes_every_copy(
    canary: Player, demo_tournament: Tournament,
) -> None:
    from scoring.models import ResultSubmission

    organizer = get_user_model().objects.get(username="organizzatore")
    PlayerLinkFactory(tournament=demo_tournament, player=canary)
    name, email = canary.full_name, canary.email
    before = Client().get("/api/scoring/tournaments/demo/standings/").json()
    scored_before = ResultSubmission.objects.filter(table__seats__player=canary).count()

    privacy.erase_player(canary, actor=organizer)

    canary.refresh_from_db()
    assert canary.full_name == f"{privacy.anonymised_name(canary)[0]} #{canary.pk}"
    assert (canary.email, canary.birth_date, canary.nickname, canary.club) == ("", None, "", None)
    assert canary.national_id == ""
    assert not AccessLink.objects.filter(player=canary).exists()
    assert ResultSubmission.objects.filter(table__seats__player=canary).count() == scored_before
    after = Client().get("/api/scoring/tournaments/demo/standings/").json()
    # Same numbers, same places: only the name changed.
    assert json.dumps(after).replace(canary.full_name, "X").count('"') == json.dumps(
        before).replace(name, "X").count('"')
    assert _numbers(after) == _numbers(before)
    dump = io.StringIO()
    call_command("dumpdata", "tournaments", "tables", "scoring", stdout=dump)
    assert name.casefold() not in dump.getvalue().casefold()
    assert email.casefold() not in dump.getvalue().casefold()
    assert CANARY_NATIONAL_ID.casefold() not in dump.getvalue().casefold()
    assert AuditEntry.objects.filter(action="player.erase", object_id=str(canary.pk)).exists()


def _numbers(payload: Any) -> list[Any]:
    """Every number in a JSON document, in order (points, places, armies...)."""
    out: list[Any] = []

    def walk(v: Any) -> None:
        if isinstance(v, bool):
            return
        if isinstance(v, (int, float)):
            out.append(v)
        elif isinstance(v, dict):
            for k in sorted(v):
                if k not in ("id", "player", "player_id"):
                    walk(v[k])
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(payload)
    return out


def test_only_staff_or_an_organizer_of_all_their_tournaments_may_erase(canary: Player) -> None:
    users = get_user_model().objects
    referee = users.get(username="arbitro")
    other = TournamentFactory(name="Altro", slug="altro", date=canary.created_at.date(), venue="", status=Tournament.Status.DRAFT)
    stranger = make_user("org-altro", password="x")
    TournamentRoleFactory(tournament=other, user=stranger, role="organizer")
    for actor in (referee, stranger):
        with pytest.raises(PermissionDeniedError):
            privacy.erase_player(canary, actor=actor)
    canary.refresh_from_db()
    assert canary.email == CANARY_EMAIL
    staff = make_user("staff", password="x", is_staff=True)
    privacy.erase_player(canary, actor=staff)
    canary.refresh_from_db()
    assert canary.email == ""


def test_erase_player_command_exports_then_erases(canary: Player, tmp_path: Path) -> None:
    out = tmp_path / "data.json"
    call_command("erase_player", str(canary.pk), "--export", str(out), "--yes",
                 stderr=io.StringIO())
    assert json.loads(out.read_text())["player"]["email"] == CANARY_EMAIL
    canary.refresh_from_db()
    assert canary.email == "" and canary.birth_date is None


def test_staff_export_and_erase_from_the_admin(canary: Player) -> None:
    staff = make_user("root", password="x", email="root@x.example", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    url = "/admin/tournaments/player/"
    response = client.post(url, {"action": "admin_export", "_selected_action": [canary.pk]})
    assert response.status_code == 200
    assert json.loads(response.content)[0]["player"]["email"] == CANARY_EMAIL
    response = client.post(url, {"action": "admin_erase", "_selected_action": [canary.pk]})
    assert response.status_code == 302
    canary.refresh_from_db()
    assert canary.email == ""
