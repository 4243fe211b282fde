from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.factories.tournaments import open_private_link
from tournaments.models import AccessLink, CheckIn, Club, Registration, Tournament


def load_only_tournaments_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's own step (other apps' steps are tested by those apps)."""
    from tournaments.management.commands import load_demo

    monkeypatch.setattr(load_demo, "DEMO_STEPS", ["tournaments.demo.register_players"])


@pytest.mark.django_db
def test_load_demo_builds_the_demo_and_prints_logins(monkeypatch) -> None:
    load_only_tournaments_step(monkeypatch)
    out = StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    t = Tournament.objects.get(slug="demo")
    assert t.status == "running" and t.start_times == ["10:30", "14:00", "16:30"]
    regs = Registration.objects.filter(tournament=t, status="registered")
    assert 18 <= regs.count() <= 24
    assert 4 <= Club.objects.filter(players__registrations__tournament=t).distinct().count() <= 5
    for game in (1, 2):
        assert CheckIn.objects.filter(registration__tournament=t, game_number=game).count() \
            == regs.count()
    assert not CheckIn.objects.filter(game_number=3).exists()
    link = AccessLink.objects.get(tournament=t, kind="referee", revoked_at__isnull=True)
    assert f"/l/{link.token}/" in text
    assert "organizzatore / risiko-organizza" in text and "arbitro / risiko-arbitra" in text

    from django.test import Client

    client = Client()
    assert client.login(username="organizzatore", password="risiko-organizza")
    assert client.get("/t/demo/registrations/").status_code == 200
    referee = Client()
    assert open_private_link(referee, link.token).status_code == 302
    assert referee.get("/t/demo/checkin/1/").status_code == 200


@pytest.mark.django_db
def test_load_demo_twice_changes_nothing(monkeypatch) -> None:
    load_only_tournaments_step(monkeypatch)
    call_command("load_demo", stdout=StringIO())
    counts = (Registration.objects.count(), CheckIn.objects.count(), AccessLink.objects.count())
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert (Registration.objects.count(), CheckIn.objects.count(),
            AccessLink.objects.count()) == counts
    assert "already exists" in out.getvalue() and "/l/" in out.getvalue()
