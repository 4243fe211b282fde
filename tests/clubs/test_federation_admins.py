"""Federation admins appointed and revoked from a page (superuser or federation admin only):
a missing account is created with a one-time set-password link; every change audited; refusals
change nothing; bad input keeps what was typed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from tests.factories.tournaments import (
    ClubFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments import clubs
from tournaments.models import AuditEntry, ClubRole

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _federation(username: str) -> Any:
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get_or_create(name=clubs.FEDERATION_GROUP)[0])
    return user


def test_a_superuser_appoints_a_new_account_which_sets_its_password_from_the_link() -> None:
    root = get_user_model().objects.create_superuser("root", password="x-secret-123")
    c = _client(root)
    r = c.post("/clubs/federation/", {"admin": "giulia"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    html = r.content.decode()
    giulia = get_user_model().objects.get(username="giulia")
    assert clubs.is_federation_admin(giulia) and not giulia.has_usable_password()
    assert "giulia is a federation admin." in html
    link = html[html.index("http://testserver/accounts/reset/"):].split()[0].split("<")[0]
    entry = AuditEntry.objects.get(action="federation.admin.add")
    assert entry.actor == root and entry.after == {"user": "giulia", "new_account": True}
    assert link.split("/")[-2] not in str(entry.after)  # the token is not in the log
    # the link opens Django's set-password form; afterwards giulia signs in
    browser = Client()
    form = browser.get(link.replace("http://testserver", ""), follow=True)
    assert form.status_code == 200
    done = browser.post(form.redirect_chain[-1][0], {"new_password1": "Un4-password-lunga",
                                                      "new_password2": "Un4-password-lunga"})
    assert done.status_code == 302
    assert Client().login(username="giulia", password="Un4-password-lunga")


def test_a_federation_admin_appoints_an_existing_user_and_revokes_another() -> None:
    anna, bruno = _federation("anna"), _federation("bruno")
    carla = UserFactory(username="carla")
    c = _client(anna)
    page = c.get("/clubs/federation/").content.decode()
    assert "bruno" in page and f"/clubs/federation/{bruno.pk}/revoke/" in page
    assert f"/clubs/federation/{anna.pk}/revoke/" not in page  # not themselves
    r = c.post("/clubs/federation/", {"admin": "carla"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "no password yet" not in r.content.decode() and clubs.is_federation_admin(carla)
    assert c.post(f"/clubs/federation/{bruno.pk}/revoke/").status_code == 302
    assert not clubs.is_federation_admin(bruno)
    assert AuditEntry.objects.filter(action="federation.admin.remove", actor=anna).count() == 1
    # appointing again is no change (no second audit entry)
    c.post("/clubs/federation/", {"admin": "carla"})
    assert AuditEntry.objects.filter(action="federation.admin.add").count() == 1


def test_nobody_revokes_themselves() -> None:
    anna = _federation("anna")
    r = _client(anna).post(f"/clubs/federation/{anna.pk}/revoke/", follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "You cannot revoke yourself" in r.content.decode() and clubs.is_federation_admin(anna)


def test_others_are_refused_and_nothing_changes() -> None:
    bruno = _federation("bruno")
    organizer = UserFactory(username="org")
    TournamentRoleFactory(tournament=TournamentFactory(), user=organizer)
    club_admin = UserFactory(username="admin-club")
    ClubRole.objects.create(club=ClubFactory(), user=club_admin)
    before = AuditEntry.objects.count()
    assert Client().post("/clubs/federation/", {"admin": "x"})["Location"].startswith("/accounts/login/")
    for user in (organizer, club_admin):
        c = _client(user)
        assert c.get("/clubs/federation/").status_code == 403
        assert c.post("/clubs/federation/", {"admin": "nuovo"}).status_code == 403
        assert c.post(f"/clubs/federation/{bruno.pk}/revoke/").status_code == 403
    assert not get_user_model().objects.filter(username="nuovo").exists()
    assert clubs.is_federation_admin(bruno) and AuditEntry.objects.count() == before


def test_bad_input_says_why_and_keeps_what_was_typed() -> None:
    c = _client(_federation("anna"))
    r = c.post("/clubs/federation/", {"admin": "due parole"}, HTTP_ACCEPT_LANGUAGE="en")
    html = r.content.decode()
    assert r.status_code == 400 and "Not a valid username" in html and 'value="due parole"' in html
    assert c.post("/clubs/federation/", {"admin": ""}).status_code == 400
    assert not get_user_model().objects.filter(username="due parole").exists()


def test_a_new_club_admin_gets_the_same_set_password_link() -> None:
    c = _client(_federation("anna"))
    html = c.post("/clubs/new/", {"name": "Circolo Gamma", "admin": "gino"}, follow=True,
                  HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "gino has no password yet" in html and "http://testserver/accounts/reset/" in html
