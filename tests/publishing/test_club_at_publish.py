"""Naming the organising club when publishing: on the laptop's Publish page and with the publish
command, any organizer of the tournament names (or adds) the club whose token publishes it; it
can be changed until the event is first published, then only by a federation admin; every change
is in the audit log. The command speaks the console's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.factories import scoring as f
from tests.factories.tournaments import UserFactory
from tournaments.models import AuditEntry, Club, Tournament

from .test_publish_page import FakeInstance, fake  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubless() -> dict[str, Any]:
    """A laptop's event created with no club, run by an organizer who administers no club."""
    t = f.ScoringTournamentFactory()
    return {"t": t, "org": f.role(t, "organizer")}


def publish_page(client: Client, t: Tournament, **typed: str) -> Any:
    return client.post(f"/t/{t.slug}/publish/", typed, HTTP_ACCEPT_LANGUAGE="it")


def test_the_organizer_names_a_new_club_on_the_publish_page_and_publishes(
        fake: str, clubless: dict[str, Any]) -> None:  # noqa: F811
    t, client = clubless["t"], Client()
    client.force_login(clubless["org"])
    page = client.get(f"/t/{t.slug}/publish/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Club organizzatore" in page and 'name="club"' in page

    FakeInstance.answers = [(201, {"status": "created", "sequence": 1})]
    r = publish_page(client, t, club="Club  del Lago", url=fake, token="rkp_a_b")
    assert r.status_code == 200 and 'class="success"' in r.content.decode()
    t.refresh_from_db()
    assert t.club is not None and t.club.name == "Club del Lago"  # added on this laptop
    assert FakeInstance.received[0]["doc"]["club"] == "Club del Lago"
    entry = AuditEntry.objects.get(tournament=t, action="tournament.club")
    assert (entry.actor, entry.before, entry.after) == (clubless["org"], {"club": None}, {"club": "Club del Lago"})


def test_no_club_is_said_next_to_the_field_in_italian_and_the_form_keeps_what_was_typed(
        fake: str, clubless: dict[str, Any]) -> None:  # noqa: F811
    t, client = clubless["t"], Client()
    client.force_login(clubless["org"])
    r = publish_page(client, t, club="", url=fake, token="rkp_tenuto")
    page = r.content.decode()
    assert r.status_code == 400 and "Indica il club organizzatore" in page
    assert fake in page and "rkp_tenuto" in page and FakeInstance.received == []


def test_after_the_first_publish_only_a_federation_admin_changes_the_club(
        fake: str, clubless: dict[str, Any]) -> None:  # noqa: F811
    t, client = clubless["t"], Client()
    client.force_login(clubless["org"])
    FakeInstance.answers = [(201, {"status": "created", "sequence": 1})]
    publish_page(client, t, club="Club Alfa", url=fake, token="rkp_a_b")
    # before publishing it could change; now the instance's copy belongs to Club Alfa
    r = publish_page(client, t, club="Club Beta", url=fake, token="rkp_a_b")
    page = r.content.decode()
    assert r.status_code == 400 and "federazione" in page and "Club Beta" in page  # kept as typed
    t.refresh_from_db()
    assert t.club.name == "Club Alfa" and not Club.objects.filter(name="Club Beta").exists()
    assert len(FakeInstance.received) == 1

    federation = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(federation)
    FakeInstance.answers = [(200, {"status": "updated", "sequence": 2})]
    assert publish_page(client, t, club="Club Beta", url=fake, token="rkp_a_b").status_code == 200
    t.refresh_from_db()
    assert t.club.name == "Club Beta"
    changes = [(e.actor, e.before, e.after) for e in AuditEntry.objects.filter(
        tournament=t, action="tournament.club").order_by("pk")]
    assert changes == [(clubless["org"], {"club": None}, {"club": "Club Alfa"}),
                       (federation, {"club": "Club Alfa"}, {"club": "Club Beta"})]


def test_the_command_names_the_club_and_speaks_italian_on_an_italian_console(
        fake: str, clubless: dict[str, Any], capsys: Any, monkeypatch: Any) -> None:  # noqa: F811
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    t = clubless["t"]
    FakeInstance.answers = [(503, {"detail": "occupato"}), (201, {"status": "created", "sequence": 1})]
    call_command("publish_tournament", t.slug, "--to", fake, "--token", "rkp_a_b", "--club", "Club Gamma",
                 "--backoff", "0")
    out, err = capsys.readouterr()
    assert f"Torneo {t.slug} pubblicato (creato, versione 1)." in out
    assert "Tentativo 1/6 non riuscito (occupato); nuovo tentativo tra 0 s." in err
    t.refresh_from_db()
    assert t.club.name == "Club Gamma"
    assert AuditEntry.objects.filter(tournament=t, action="tournament.club", actor=None).exists()
    with pytest.raises(CommandError) as refused:  # published: the club is the instance's now
        call_command("publish_tournament", t.slug, "--to", fake, "--token", "rkp_a_b", "--club", "Club Delta")
    assert refused.value.returncode == 2 and "federazione" in str(refused.value)


def test_the_command_speaks_english_on_an_english_console(
        fake: str, clubless: dict[str, Any], capsys: Any, monkeypatch: Any) -> None:  # noqa: F811
    monkeypatch.setenv("LANGUAGE", "en")
    FakeInstance.answers = [(201, {"status": "created", "sequence": 1})]
    call_command("publish_tournament", clubless["t"].slug, "--to", fake, "--token", "rkp_a_b", "--club", "Club E")
    assert f"Tournament {clubless['t'].slug} published (created, version 1)." in capsys.readouterr().out
