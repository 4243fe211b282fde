"""The organizer's warnings and penalties log: who, when, why, which game; audited, removable
(the audit log keeps what it said); only an organizer keeps it; the player sees their own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from common.errors import DomainError
from selfservice import sanctions
from selfservice.models import Sanction
from tests.factories import scoring as f
from tests.selfservice.conftest import as_player
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_the_organizer_records_and_removes_and_the_audit_keeps_it(client, event) -> None:
    t, anna = event["t"], event["players"][0]
    client.force_login(event["org"])
    page = reverse("selfservice:sanctions", args=[t.slug])
    answer = client.post(page, {"player": anna.pk, "kind": "warning", "game_number": "2",
                                "reason": "  tempo di turno \n superato "})
    assert answer.status_code == 302
    s = Sanction.objects.get()
    assert (s.player, s.kind, s.game_number, s.reason, s.recorded_by) == (anna, "warning", 2, "tempo di turno superato",
                                                                         event["org"])
    html = client.get(page).content.decode()
    assert anna.display_name in html and "tempo di turno superato" in html and "Ammonizione" in html
    client.post(reverse("selfservice:sanction_delete", args=[t.slug, s.pk]))
    assert not Sanction.objects.exists()
    entries = AuditEntry.objects.filter(action__startswith="sanction.").order_by("pk")
    assert [e.action for e in entries] == ["sanction.create", "sanction.delete"]
    assert entries[1].before["reason"] == "tempo di turno superato"  # what was removed, kept


def test_a_bad_entry_is_refused_and_the_form_keeps_what_was_typed(client, event) -> None:
    t, anna = event["t"], event["players"][0]
    client.force_login(event["org"])
    page = client.post(reverse("selfservice:sanctions", args=[t.slug]),
                       {"player": anna.pk, "kind": "penalty", "reason": ""})
    assert page.status_code == 400 and not Sanction.objects.exists()
    outsider = f.ScoringPlayerFactory()
    with pytest.raises(DomainError) as who:
        sanctions.record_sanction(t, actor=event["org"], player=outsider.pk, kind="warning", reason="x")
    assert who.value.field == "player"
    with pytest.raises(DomainError) as game:
        sanctions.record_sanction(t, actor=event["org"], player=anna.pk, kind="warning", reason="x",
                                  game_number=9)
    assert game.value.rule == "GAME"


def test_only_an_organizer_keeps_the_log_and_the_player_sees_their_own(client, event) -> None:
    t, anna, bruno = event["t"], *event["players"][:2]
    with pytest.raises(DomainError):
        sanctions.record_sanction(t, actor=event["ref"], player=anna.pk, kind="warning", reason="x")
    client.force_login(event["ref"])
    assert client.get(reverse("selfservice:sanctions", args=[t.slug])).status_code == 403
    sanctions.record_sanction(t, actor=event["org"], player=anna.pk, kind="penalty", reason="dadi lanciati fuori",
                              game_number=1)
    client.logout()
    assert client.get(reverse("selfservice:sanctions", args=[t.slug])).status_code == 302  # to the login page
    as_player(client, event, anna)
    assert "dadi lanciati fuori" in client.get(reverse("tables:player_home", args=[t.slug])).content.decode()
    as_player(client, event, bruno)
    assert "dadi lanciati fuori" not in client.get(reverse("tables:player_home", args=[t.slug])).content.decode()
