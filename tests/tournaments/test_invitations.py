"""Accounts from the pages: organizers invite referees and co-organizers (link, QR code,
e-mail), the invited accept (new password or their existing account), roles and invitations are
revoked, a fresh install creates its first organizer; and every way to abuse an invitation is
refused."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.factories.tournaments import TournamentFactory, TournamentRoleFactory, UserFactory
from tournaments import invitations
from tournaments.models import AuditEntry, Invitation, TournamentRole

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-Password-2026"


def _invite(client: Client, tournament, role="referee", **extra) -> Invitation:
    r = client.post(f"/t/{tournament.slug}/staff/invitations/", {"invite-role": role, **{f"invite-{k}": v for k, v in extra.items()}})
    assert r.status_code == 302, r.content.decode()[-1500:]
    inv = Invitation.objects.latest("id")
    assert r["Location"] == f"/t/{tournament.slug}/staff/invitations/{inv.pk}/"
    return inv


def test_organizer_invites_a_referee_who_sets_a_password_and_gets_the_role(
    organizer_client, tournament, mailoutbox
) -> None:
    inv = _invite(organizer_client, tournament, note="Giulia", email="giulia@example.org")
    shown = organizer_client.get(f"/t/{tournament.slug}/staff/invitations/{inv.pk}/",
                                 HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/invite/{inv.token}/" in shown and "<svg" in shown  # link to copy, QR code
    assert len(mailoutbox) == 1 and f"/invite/{inv.token}/" in mailoutbox[0].body
    assert mailoutbox[0].to == ["giulia@example.org"]

    guest = Client()
    page = guest.get(f"/invite/{inv.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert tournament.name in page and "referee" in page
    r = guest.post(f"/invite/{inv.token}/", {"username": "giulia", "password": PASSWORD,
                                              "password2": PASSWORD})
    assert r.status_code == 302 and r["Location"] == f"/t/{tournament.slug}/manage/"
    user = get_user_model().objects.get(username="giulia")
    assert user.check_password(PASSWORD) and not user.is_superuser
    assert TournamentRole.objects.get(tournament=tournament, user=user).role == "referee"
    assert guest.get(f"/t/{tournament.slug}/manage/").status_code == 200  # signed in
    actions = list(AuditEntry.objects.filter(tournament=tournament)
                   .order_by("id").values_list("action", flat=True))
    assert actions == ["invitation.create", "invitation.send", "invitation.accept"]


def test_an_existing_account_accepts_a_co_organizer_invitation(organizer_client, tournament):
    inv = _invite(organizer_client, tournament, role="organizer")
    someone = UserFactory(username="anna")
    other = TournamentFactory()
    TournamentRoleFactory(tournament=other, user=someone, role="referee")
    client = Client()
    client.force_login(someone)
    assert "anna" in client.get(f"/invite/{inv.token}/").content.decode()
    assert client.post(f"/invite/{inv.token}/").status_code == 302
    assert TournamentRole.objects.get(tournament=tournament, user=someone).role == "organizer"
    assert TournamentRole.objects.get(tournament=other, user=someone).role == "referee"
    # a co-organizer may now invite too
    _invite(client, tournament)


def test_a_weak_password_or_a_taken_username_keeps_the_form(organizer_client, tournament):
    inv = _invite(organizer_client, tournament)
    UserFactory(username="mario")
    guest = Client()
    r = guest.post(f"/invite/{inv.token}/", {"username": "giulia", "password": "123",
                                              "password2": "123"}, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400 and 'value="giulia"' in r.content.decode()
    r = guest.post(f"/invite/{inv.token}/", {"username": "Mario", "password": PASSWORD,
                                              "password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400 and "This username is taken" in r.content.decode()
    assert Invitation.objects.get(pk=inv.pk).state() == "open"


@pytest.mark.parametrize("spoil", ["used", "expired", "revoked"])
def test_used_expired_or_revoked_invitations_open_nothing(organizer_client, tournament, spoil):
    inv = _invite(organizer_client, tournament, role="organizer")
    if spoil == "used":
        invitations.accept_invitation(inv.token, user=UserFactory())
    elif spoil == "expired":
        Invitation.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    else:
        assert organizer_client.post(
            f"/t/{tournament.slug}/staff/invitations/{inv.pk}/revoke/").status_code == 302
    guest = Client()
    r = guest.get(f"/invite/{inv.token}/", HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 404 and tournament.name not in r.content.decode()
    assert {"used": "already been used", "expired": "expired",
            "revoked": "revoked"}[spoil] in r.content.decode()
    r = guest.post(f"/invite/{inv.token}/", {"username": "late", "password": PASSWORD,
                                              "password2": PASSWORD})
    assert r.status_code == 404
    assert not get_user_model().objects.filter(username="late").exists()
    intruder = UserFactory()
    signed = Client()
    signed.force_login(intruder)
    signed.post(f"/invite/{inv.token}/")
    assert not TournamentRole.objects.filter(user=intruder).exists()


def test_guessed_or_malformed_tokens_are_unknown(db, client):
    for token in ["x" * 43, "abc", "%00" * 10, "a" * 500, "../../admin"]:
        r = client.get(f"/invite/{token}/")
        assert r.status_code == 404


def test_only_this_tournaments_organizers_invite_or_revoke(
    tournament, referee, organizer_client, other_referee_client
):
    ref = Client()
    ref.force_login(referee)
    assert ref.post(f"/t/{tournament.slug}/staff/invitations/",
                    {"invite-role": "organizer"}).status_code == 403
    # the organizer of another tournament
    other_org = UserFactory()
    TournamentRoleFactory(tournament=TournamentFactory(), user=other_org, role="organizer")
    stranger = Client()
    stranger.force_login(other_org)
    assert stranger.post(f"/t/{tournament.slug}/staff/invitations/",
                         {"invite-role": "referee"}).status_code == 403
    inv = _invite(organizer_client, tournament)
    for client in (ref, stranger, other_referee_client):
        assert client.get(f"/t/{tournament.slug}/staff/invitations/{inv.pk}/").status_code == 403
        assert client.post(
            f"/t/{tournament.slug}/staff/invitations/{inv.pk}/revoke/").status_code == 403
    assert Invitation.objects.get(pk=inv.pk).state() == "open"
    assert not Invitation.objects.exclude(pk=inv.pk).exists()


def test_an_organizer_revokes_a_role_from_the_page(organizer_client, tournament, referee):
    role = TournamentRole.objects.get(user=referee, tournament=tournament)
    assert organizer_client.post(
        f"/t/{tournament.slug}/staff/roles/{role.pk}/remove/").status_code == 302
    ref = Client()
    ref.force_login(referee)
    assert ref.get(f"/t/{tournament.slug}/manage/").status_code == 403
    assert AuditEntry.objects.filter(action="role.remove").exists()


def test_a_fresh_install_creates_its_first_organizer_once(db, client):
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "/setup/" in home
    r = client.post("/setup/", {"username": "presidente", "password": PASSWORD,
                                "password2": PASSWORD})
    assert r.status_code == 302 and r["Location"] == "/new/"
    assert client.get("/new/").status_code == 200  # signed in, may create a tournament
    assert "/setup/" not in client.get("/").content.decode()
    assert Client().get("/setup/").status_code == 404
    assert Client().post("/setup/", {"username": "second", "password": PASSWORD,
                                     "password2": PASSWORD}).status_code == 404
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["presidente"]
    assert AuditEntry.objects.filter(action="setup.first_organizer").count() == 1


def test_invitation_tokens_are_long_and_distinct(organizer_client, tournament):
    tokens = {_invite(organizer_client, tournament).token for _ in range(5)}
    assert len(tokens) == 5 and all(re.fullmatch(r"[A-Za-z0-9_-]{43}", t) for t in tokens)


def test_the_api_lists_creates_and_revokes_invitations(organizer_client, tournament, referee):
    url = f"/api/tournaments/{tournament.slug}/invitations/"
    r = organizer_client.post(url, {"role": "organizer", "note": "Anna"},
                              content_type="application/json")
    assert r.status_code == 201 and r.json()["state"] == "open"
    assert r.json()["url"] == f"/invite/{r.json()['token']}/"
    bad = organizer_client.post(url, {"role": "boss"}, content_type="application/json")
    assert bad.status_code == 400 and "role" in bad.json()
    listed = organizer_client.get(url).json()
    items = listed["results"] if isinstance(listed, dict) else listed
    assert [i["note"] for i in items] == ["Anna"]
    ref = Client()
    ref.force_login(referee)
    assert ref.get(url).status_code == 403
    assert ref.post(url, {"role": "referee"}, content_type="application/json").status_code == 403
    pk = r.json()["id"]
    assert ref.post(f"{url}{pk}/revoke/").status_code == 403
    revoked = organizer_client.post(f"{url}{pk}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["state"] == "revoked"


@pytest.mark.parametrize("typed, existing", [("ａｒｂｉｔｒｏ", "arbitro"), ("ﬁnta", "finta")])
def test_a_look_alike_of_a_taken_username_is_taken_not_a_server_error(organizer_client, tournament, typed,
                                                                       existing) -> None:
    """Account creation stores a username in Unicode NFKC: the full-width "ａｒｂｉｔｒｏ" and the
    ligature of "ﬁnta" are "arbitro" and "finta", already someone's."""
    UserFactory(username=existing)
    inv = _invite(organizer_client, tournament)
    r = Client().post(f"/invite/{inv.token}/", {"username": typed, "password": PASSWORD, "password2": PASSWORD},
                      HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400 and "This username is taken" in r.content.decode()
    assert typed in r.content.decode()  # the form keeps what was typed
    assert get_user_model().objects.count() == 2 and Invitation.objects.get(pk=inv.pk).accepted_at is None


def test_a_look_alike_username_makes_the_account_as_it_is_stored(organizer_client, tournament) -> None:
    inv = _invite(organizer_client, tournament)
    r = Client().post(f"/invite/{inv.token}/", {"username": "ﬁnta", "password": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    user = get_user_model().objects.get(username="finta")
    assert TournamentRole.objects.get(tournament=tournament, user=user).role == "referee"
