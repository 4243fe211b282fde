"""Clubs on the platform: club admins organise their club's tournaments (through the one
organizer check) and nobody else's; the federation sets up clubs and appoints their admins
(pages and ``manage.py create_club``, audited); club pages are public and show names only."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from publishing.models import PublishState
from tests.factories.tournaments import (
    ClubFactory,
    ClubRoleFactory,
    GroupFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments import clubs
from tournaments.models import (
    AuditEntry,
    Club,
    ClubRole,
    Invitation,
    Player,
    Tournament,
)
from tournaments.permissions import is_organizer
from tournaments.privacy import manages_player

pytestmark = pytest.mark.django_db


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    """Two clubs, each with an admin, a tournament and a registered player with personal data."""
    a, b = ClubFactory(name="Circolo Alfa"), ClubFactory(name="Circolo Beta")
    admin_a, admin_b = UserFactory(username="admin-alfa"), UserFactory(username="admin-beta")
    ClubRoleFactory(club=a, user=admin_a)
    ClubRoleFactory(club=b, user=admin_b)
    ta = TournamentFactory(club=a, name="Torneo Alfa", slug="torneo-alfa")
    tb = TournamentFactory(club=b, name="Torneo Beta", slug="torneo-beta")
    pa = PlayerFactory(club=a, first_name="Anna", last_name="Alfieri", email="anna@example.org")
    pb = PlayerFactory(club=b, first_name="Bruno", last_name="Bianchi", email="bruno@example.org")
    RegistrationFactory(tournament=ta, player=pa, email="anna@example.org")
    RegistrationFactory(tournament=tb, player=pb, email="bruno@example.org")
    return {"a": a, "b": b, "admin_a": admin_a, "admin_b": admin_b, "ta": ta, "tb": tb,
            "pa": pa, "pb": pb}


def test_a_club_admin_organises_their_clubs_tournaments_and_no_other(world) -> None:
    admin = world["admin_a"]
    assert is_organizer(admin, world["ta"]) and not is_organizer(admin, world["tb"])
    c = _client(admin)
    page = c.get("/t/torneo-alfa/registrations/")
    assert page.status_code == 200 and "anna@example.org" in page.content.decode()
    assert c.get("/t/torneo-beta/registrations/").status_code == 403
    assert c.post("/t/torneo-beta/edit/", {"name": "Preso"}).status_code == 403
    api = c.get("/api/tournaments/torneo-beta/registrations/").content.decode()
    assert "Bruno" in api and "bruno@example.org" not in api  # public names, no personal data
    assert c.patch("/api/tournaments/torneo-beta/", {"name": "Preso"},
                   content_type="application/json").status_code == 403
    assert Tournament.objects.get(pk=world["tb"].pk).name == "Torneo Beta"
    # personal data of a player is per registration: only the players of their club's events
    assert manages_player(admin, world["pa"]) and not manages_player(admin, world["pb"])
    assert c.get(f"/t/torneo-beta/players/{world['pb'].pk}/data/").status_code == 403


def test_a_club_admin_appoints_referees_with_the_usual_invitations(world) -> None:
    c = _client(world["admin_a"])
    staff = c.get("/t/torneo-alfa/staff/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the club's admins are organizers of this tournament too" in staff
    r = c.post("/t/torneo-alfa/staff/invitations/", {"invite-role": "referee"})
    assert r.status_code == 302 and Invitation.objects.filter(tournament=world["ta"]).count() == 1
    assert c.post("/t/torneo-beta/staff/invitations/", {"invite-role": "referee"}).status_code == 403
    assert not Invitation.objects.filter(tournament=world["tb"]).exists()


def test_an_organizer_is_not_a_club_admin(world) -> None:
    org = UserFactory(username="org-alfa")
    TournamentRoleFactory(tournament=world["ta"], user=org)
    assert is_organizer(org, world["ta"])
    assert not clubs.is_club_admin(org, world["a"]) and not clubs.administered_clubs(org).exists()
    c = _client(org)
    r = c.post("/api/tournaments/", {"name": "Nuovo", "date": "2026-12-01", "club": world["a"].pk},
               content_type="application/json")
    assert r.status_code == 400 and "club" in r.json()
    assert c.post(f"/clubs/{world['a'].pk}/admins/", {"admin": "org-alfa"}).status_code == 403
    # another tournament of the same club: the organizer of one event organises only that one
    other = TournamentFactory(club=world["a"])
    assert not is_organizer(org, other)


def test_a_club_admin_cannot_appoint_club_admins(world) -> None:
    c = _client(world["admin_a"])
    for club in (world["a"], world["b"]):
        assert c.post(f"/clubs/{club.pk}/admins/", {"admin": "intruso"}).status_code == 403
    role_b = ClubRole.objects.get(club=world["b"])
    assert c.post(f"/clubs/{world['b'].pk}/admins/{role_b.pk}/remove/").status_code == 403
    assert c.get("/clubs/new/").status_code == 403
    assert ClubRole.objects.count() == 2 and not get_user_model().objects.filter(username="intruso").exists()


def test_tournament_creation_offers_only_the_admins_clubs(world) -> None:
    c = _client(world["admin_a"])
    form = c.get("/new/").content.decode()
    assert "Circolo Alfa" in form and "Circolo Beta" not in form
    data = {"name": "Coppa Alfa", "date": "2026-12-01", "format": "rtu", "ruleset": "RTU",
            "scoring_system": "S-RTU", "games_count": 3, "start_times": "10:30, 14:00, 16:30"}
    refused = c.post("/new/", {**data, "club": world["b"].pk})
    assert refused.status_code == 400 and "Coppa Alfa" in refused.content.decode()
    assert not Tournament.objects.filter(name="Coppa Alfa").exists()
    assert c.post("/new/", {**data, "club": world["a"].pk}).status_code == 302
    t = Tournament.objects.get(name="Coppa Alfa")
    assert t.club == world["a"]
    audit = AuditEntry.objects.get(tournament=t, action="tournament.create")
    assert audit.after["club"] == "Circolo Alfa"
    # the other admin of club A organises it too, club B's admin does not
    second = UserFactory(username="admin-alfa-2")
    ClubRoleFactory(club=world["a"], user=second)
    assert is_organizer(second, t) and not is_organizer(world["admin_b"], t)


def test_the_api_validates_the_organising_club(world) -> None:
    c = _client(world["admin_b"])
    bad = c.post("/api/tournaments/", {"name": "X", "date": "2026-12-01", "club": world["a"].pk}, content_type="application/json")
    assert bad.status_code == 400 and "club" in bad.json() and bad.json()["rule"] == "ROLE"
    unknown = c.post("/api/tournaments/", {"name": "X", "date": "2026-12-01", "club": 999999}, content_type="application/json")
    assert unknown.status_code == 400 and "club" in unknown.json()
    ok = c.post("/api/tournaments/", {"name": "Coppa Beta", "date": "2026-12-01", "club": world["b"].pk},
                content_type="application/json")
    assert ok.status_code == 201 and ok.json()["club"] == world["b"].pk
    slug = ok.json()["slug"]
    # until the tournament is first published any organizer may change its club (audited), then
    # only a federation admin; it is never removed
    removed = c.patch(f"/api/tournaments/{slug}/", {"club": None}, content_type="application/json")
    assert removed.status_code == 400 and Tournament.objects.get(slug=slug).club == world["b"]
    moved = c.patch(f"/api/tournaments/{slug}/", {"club": world["a"].pk}, content_type="application/json")
    assert moved.status_code == 200 and Tournament.objects.get(slug=slug).club == world["a"]
    assert AuditEntry.objects.get(tournament__slug=slug, action="tournament.club").after == {"club": "Circolo Alfa"}
    PublishState.objects.create(tournament=Tournament.objects.get(slug=slug), last_published_at=timezone.now())
    back = c.patch(f"/api/tournaments/{slug}/", {"club": world["b"].pk}, content_type="application/json")
    assert back.status_code == 403 and "federazione" in back.json()["detail"]
    assert Tournament.objects.get(slug=slug).club == world["a"]
    staff = UserFactory(username="staff", is_staff=True)
    assert _client(staff).post("/api/tournaments/", {"name": "Y", "date": "2026-12-01", "club": world["a"].pk},
                               content_type="application/json").status_code == 201


def test_a_federation_admin_sets_up_clubs_and_their_admins(world) -> None:
    fed = UserFactory(username="federazione")
    fed.groups.add(GroupFactory(name=clubs.FEDERATION_GROUP))
    assert clubs.administered_clubs(fed).count() == 2
    assert not is_organizer(fed, world["ta"])  # the federation is not every event's organizer
    c = _client(fed)
    r = c.post("/clubs/new/", {"name": "Circolo Gamma", "city": "Bari", "region": "Puglia",
                                "admin": "admin-gamma"})
    gamma = Club.objects.get(name="Circolo Gamma")
    assert r.status_code == 302 and r["Location"] == f"/clubs/{gamma.pk}/"
    new_user = get_user_model().objects.get(username="admin-gamma")
    assert clubs.is_club_admin(new_user, gamma) and not new_user.has_usable_password()
    bad = c.post("/clubs/new/", {"name": "Circolo Delta", "admin": "no spaces allowed"})
    assert bad.status_code == 400 and "Circolo Delta" in bad.content.decode()
    assert c.post(f"/clubs/{world['b'].pk}/admins/", {"admin": "admin-alfa"}).status_code == 302
    assert clubs.is_club_admin(world["admin_a"], world["b"])
    role = ClubRole.objects.get(club=world["b"], user=world["admin_a"])
    assert c.post(f"/clubs/{world['b'].pk}/admins/{role.pk}/remove/").status_code == 302
    assert not clubs.is_club_admin(world["admin_a"], world["b"])
    actions = list(AuditEntry.objects.filter(action__startswith="club.").values_list("action", flat=True))
    assert sorted(actions) == ["club.admin.add", "club.admin.add", "club.admin.remove", "club.create"]
    assert AuditEntry.objects.filter(action="club.admin.remove", actor=fed).exists()


def test_create_club_command(capsys) -> None:
    call_command("create_club", "Circolo Roma", "--admin", "mario", "--city", "Roma", "--region", "Lazio")
    out = capsys.readouterr().out
    club = Club.objects.get(name="Circolo Roma")
    assert club.city == "Roma" and "changepassword mario" in out
    assert clubs.is_club_admin(get_user_model().objects.get(username="mario"), club)
    call_command("create_club", "circolo roma", "--admin", "luigi")  # existing club, case ignored
    assert Club.objects.count() == 1 and ClubRole.objects.filter(club=club).count() == 2
    assert AuditEntry.objects.filter(action="club.create").count() == 1
    for args in (["  ", "--admin", "x"], ["Circolo", "--admin", "bad name!"], ["C" * 200, "--admin", "x"]):
        with pytest.raises(CommandError) as exc:
            call_command("create_club", *args)
        assert exc.value.returncode == 2 and "\n" not in str(exc.value)


def test_club_pages_show_names_and_events_only(world) -> None:
    today = timezone.localdate()
    world["ta"].date = today - dt.timedelta(days=30)
    world["ta"].save()
    TournamentFactory(club=world["a"], name="Torneo Futuro", date=today + dt.timedelta(days=30))
    TournamentFactory(club=world["a"], name="Bozza Segreta", status=Tournament.Status.DRAFT)
    anon = Client()
    listing = anon.get("/clubs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Circolo Alfa" in listing and f"/clubs/{world['a'].pk}/" in listing
    page = anon.get(f"/clubs/{world['a'].pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Anna Alfieri" in page and "anna@example.org" not in page and "Bruno" not in page
    upcoming, past = page.split("Past events")
    assert "Torneo Futuro" in upcoming and "Torneo Alfa" in past
    assert "Bozza Segreta" not in page and "admin-alfa" not in page
    assert "Bozza Segreta" in _client(world["admin_a"]).get(f"/clubs/{world['a'].pk}/").content.decode()
    detail = anon.get("/t/torneo-alfa/").content.decode()
    assert f"/clubs/{world['a'].pk}/" in detail
    assert anon.get("/clubs/999999/").status_code == 404
    assert anon.post("/clubs/new/", {"name": "X", "admin": "y"}).status_code == 302  # login
    assert not Club.objects.filter(name="X").exists()


def test_a_club_tournaments_backup_keeps_its_organising_club(world) -> None:
    from tournaments import backup

    tournament = TournamentFactory(club=world["a"], name="Senza giocatori", slug="senza-giocatori")
    doc = backup.export_tournament(tournament)
    for model, _path in reversed(backup.tournament_models()):
        model.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()  # the new laptop: no club, no club admin
    restored = backup.import_tournament(doc)
    assert restored.club is not None and restored.club.name == "Circolo Alfa"
    assert not ClubRole.objects.exists()  # a club's admins are not part of an event's backup


def test_only_the_federation_creates_clubs_through_the_api_as_on_the_page(world) -> None:
    """docs/clubs.md: the federation creates clubs. A club admin, an organizer, a referee's
    private link (or any other session) was able to through ``POST /api/clubs/``."""
    from tests.factories.tournaments import RefereeLinkFactory, open_private_link

    referee = UserFactory(username="arbitro")
    TournamentRoleFactory(tournament=world["ta"], user=referee, role="referee")
    link_session = Client()
    assert open_private_link(link_session, RefereeLinkFactory(tournament=world["ta"], user=referee).token
                             ).status_code == 302
    organizer = UserFactory(username="org")
    TournamentRoleFactory(tournament=world["ta"], user=organizer)
    before = Club.objects.count()
    for who in (link_session, _client(world["admin_a"]), _client(organizer), _client(referee)):
        r = who.post("/api/clubs/", {"name": "Circolo Abusivo"}, content_type="application/json")
        assert r.status_code == 403 and r.json()["rule"] == "ROLE", r.content
        assert who.get("/clubs/new/").status_code == 403  # the page says the same
    assert Club.objects.count() == before and not AuditEntry.objects.filter(action="club.create").exists()
    fed = UserFactory(username="federazione")
    fed.groups.add(GroupFactory(name=clubs.FEDERATION_GROUP))
    r = _client(fed).post("/api/clubs/", {"name": "Circolo Gamma"}, content_type="application/json")
    assert r.status_code == 201 and Club.objects.filter(name="Circolo Gamma").exists()
    assert AuditEntry.objects.get(action="club.create").actor == fed


def test_a_look_alike_admin_username_is_the_existing_account_not_a_server_error(world) -> None:
    fed = UserFactory(username="federazione")
    fed.groups.add(GroupFactory(name=clubs.FEDERATION_GROUP))
    r = _client(fed).post("/clubs/new/", {"name": "Circolo Gamma", "admin": "ａｄｍｉｎ-ａｌｆａ"})
    assert r.status_code == 302
    assert clubs.is_club_admin(world["admin_a"], Club.objects.get(name="Circolo Gamma"))
    assert not get_user_model().objects.filter(username="ａｄｍｉｎ-ａｌｆａ").exists()
