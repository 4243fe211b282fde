"""A person's personal data belongs to whoever entered it.

Two organizers each run their own tournament. Registering a name (and club) in one's own
tournament never hands over the record another organizer created: reusing a player across
events is a matching decision (national id, or name + date of birth), and even then each
organizer reads and changes only what was entered for their own registrations. Merging and
erasing a player need an organizer of every tournament the player is in (or staff).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import PermissionDeniedError
from tests.factories.tournaments import make_user as new_user
from tests.tables.conftest import make_tournament, make_user
from tournaments import merge, privacy, services
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db

SECRETS = ("mario@alice.example", "1980-01-02", "02/01/1980", "RCU-777")


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def alice() -> tuple[Any, Tournament, Player]:
    """Alice's tournament, where she registered Mario Rossi with his personal data."""
    user = make_user("alice")
    tournament = make_tournament(user, slug="alice-cup")
    reg = services.register(tournament, services.PlayerData(
        "Mario", "Rossi", club="Dadi Bologna", email="mario@alice.example",
        birth_date=dt.date(1980, 1, 2), national_id="RCU-777"), actor=user)
    return user, tournament, reg.player


@pytest.fixture
def bob() -> tuple[Any, Tournament]:
    user = make_user("bob")
    return user, make_tournament(user, slug="bob-cup")


def _everything_bob_reads(client: Client, slug: str) -> str:
    urls = [f"/api/tournaments/{slug}/registrations/", f"/api/tournaments/{slug}/registrations/export/",
            reverse("tournaments:registrations", kwargs={"slug": slug}),
            reverse("tournaments:duplicates", kwargs={"slug": slug}),
            f"/api/tournaments/{slug}/duplicates/"]
    for reg in Registration.objects.filter(tournament__slug=slug):
        urls.append(reverse("tournaments:merge", kwargs={"slug": slug, "pk": reg.player_id}))
    texts = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        texts.append(response.content.decode())
    return "\n".join(texts)


def test_same_name_and_club_is_a_new_record_not_a_takeover(alice: Any, bob: Any) -> None:
    alice_user, _alice_t, mario = alice
    bob_user, bob_t = bob
    api = _client(bob_user)
    created = api.post(f"/api/tournaments/{bob_t.slug}/registrations/",
                       {"first_name": "Mario", "last_name": "Rossi", "club": "Dadi Bologna"},
                       content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["player"]["id"] != mario.pk
    text = _everything_bob_reads(api, bob_t.slug)
    assert not [s for s in SECRETS if s in text]
    # Nor can Bob change, export, merge or erase Alice's record through his tournament.
    theirs = Registration.objects.get(tournament=bob_t)
    services.set_national_id(theirs, "RCU-999", actor=bob_user)
    mario.refresh_from_db()
    assert mario.national_id == "RCU-777"
    for url in (f"/api/tournaments/{bob_t.slug}/players/{mario.pk}/data/",
                reverse("tournaments:player_data", kwargs={"slug": bob_t.slug, "pk": mario.pk})):
        assert api.get(url).status_code in (403, 404)
    erase = api.post(f"/api/tournaments/{bob_t.slug}/players/{mario.pk}/erase/",
                     json.dumps({"confirm": True}), content_type="application/json")
    assert erase.status_code in (403, 404)
    Player.objects.get(pk=mario.pk)  # still there, untouched
    assert Player.objects.get(pk=mario.pk).email == "mario@alice.example"


def test_a_match_on_name_and_birth_date_shows_each_organizer_only_their_own_entries(
    alice: Any, bob: Any,
) -> None:
    alice_user, alice_t, mario = alice
    bob_user, bob_t = bob
    reg = services.register(bob_t, services.PlayerData(
        "mario", "ROSSI", club="Another club", email="mr@bob.example",
        birth_date=dt.date(1980, 1, 2)), actor=bob_user)
    assert reg.player_id == mario.pk  # one person across events (the national ranking's key)
    api = _client(bob_user)
    rows = api.get(f"/api/tournaments/{bob_t.slug}/registrations/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    [row] = rows
    assert row["player"]["email"] == "mr@bob.example" and row["player"]["national_id"] == ""
    text = _everything_bob_reads(api, bob_t.slug)
    assert "mario@alice.example" not in text and "RCU-777" not in text
    # Bob's correction stays his; Alice's national id is not his to change.
    services.set_national_id(reg, "RCU-778", actor=bob_user)
    mario.refresh_from_db()
    assert mario.national_id == "RCU-777"
    assert Registration.objects.get(pk=reg.pk).national_id == "RCU-778"
    alice_rows = _client(alice_user).get(f"/api/tournaments/{alice_t.slug}/registrations/").json()
    alice_rows = alice_rows["results"] if isinstance(alice_rows, dict) else alice_rows
    assert alice_rows[0]["player"]["email"] == "mario@alice.example"
    assert alice_rows[0]["player"]["national_id"] == "RCU-777"
    # A shared player: neither organizer alone may erase, export or merge; staff may.
    for user in (alice_user, bob_user):
        assert not privacy.manages_player(user, mario)
        with pytest.raises(PermissionDeniedError):
            privacy.erase_player(mario, actor=user)
    staff = new_user("staff", is_staff=True)
    assert privacy.export_player(mario, actor=staff)["player"]["email"] == "mario@alice.example"


def test_a_match_on_the_national_id_does_not_open_the_other_entries(alice: Any, bob: Any) -> None:
    _alice_user, _alice_t, mario = alice
    bob_user, bob_t = bob
    reg = services.register(bob_t, services.PlayerData("Mario", "Rossi", national_id="RCU-777"),
                            actor=bob_user)
    assert reg.player_id == mario.pk
    text = _everything_bob_reads(_client(bob_user), bob_t.slug)
    assert "mario@alice.example" not in text and "1980" not in text


def test_another_national_id_on_a_matching_name_and_birth_date_is_not_revealed(
    alice: Any, bob: Any,
) -> None:
    bob_user, bob_t = bob
    reg = services.register(bob_t, services.PlayerData(
        "Mario", "Rossi", birth_date=dt.date(1980, 1, 2), national_id="RCU-123"), actor=bob_user)
    assert reg.player_id != alice[2].pk  # two national ids: two records, nothing said of Alice's


def test_merging_needs_every_tournament_of_both_records(alice: Any, bob: Any) -> None:
    _alice_user, _alice_t, mario = alice
    bob_user, bob_t = bob
    rosi = services.register(bob_t, services.PlayerData(
        "Mario", "Rosi", birth_date=dt.date(1980, 1, 2)), actor=bob_user).player
    assert merge.duplicates_of(rosi) and not merge.duplicates_of(rosi, bob_user)
    with pytest.raises(PermissionDeniedError):
        merge.merge_players(bob_t, keep=rosi.pk, drop=mario.pk, actor=bob_user)
    api = _client(bob_user)
    refused = api.post(f"/api/tournaments/{bob_t.slug}/players/merge/",
                       {"keep": rosi.pk, "drop": mario.pk}, content_type="application/json")
    assert refused.status_code == 403
    page = api.post(reverse("tournaments:merge", kwargs={"slug": bob_t.slug, "pk": rosi.pk}),
                    {"other": str(mario.pk), "keep": "this"})
    assert page.status_code == 403
    assert Player.objects.filter(pk=mario.pk).exists()


def test_own_regulars_are_still_reused_by_name_and_club(alice: Any) -> None:
    alice_user, _alice_t, mario = alice
    second = make_tournament(alice_user, slug="alice-cup-2")
    reg = services.register(second, services.PlayerData("Mario", "Rossi", club="Dadi Bologna"),
                            actor=alice_user)
    assert reg.player_id == mario.pk


@pytest.mark.parametrize("keep, drop", [(10**20, 1), (1, -(10**20))])
def test_a_huge_player_id_in_a_merge_is_a_400(bob: Any, keep: int, drop: int) -> None:
    """Found by schemathesis: an unbounded id reached SQLite, which cannot hold it (a 500)."""
    bob_user, bob_t = bob
    response = _client(bob_user).post(f"/api/tournaments/{bob_t.slug}/players/merge/",
                                      {"keep": keep, "drop": drop}, content_type="application/json")
    assert response.status_code == 400
