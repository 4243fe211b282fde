"""A player's data (GDPR arts. 15, 17, 20): their warnings, skipped games and calls are in their
export; erasing them blanks their warnings' reasons and their name as the audit log's "who" of
what they did from their personal link."""

from __future__ import annotations

import pytest

from selfservice import sanctions, services
from tests.selfservice.conftest import open_window
from tournaments.models import AuditEntry
from tournaments.privacy import erase_player, export_player_data

pytestmark = pytest.mark.django_db


def test_export_and_erasure(event) -> None:
    t, anna = event["t"], event["players"][0]
    open_window(event, 1)
    services.check_in_self(event["regs"][anna.pk], 1, player=anna)
    services.skip_game(event["regs"][anna.pk], 2, player=anna)
    sanctions.record_sanction(t, actor=event["org"], player=anna.pk, kind="warning",
                              reason=f"{anna.full_name} ha parlato al telefono al tavolo", game_number=1)
    data = export_player_data(anna)
    assert data["warnings_and_penalties"][0]["game"] == 1 and data["skipped_games"] == [{"tournament": t.slug,
                                                                                        "game": 2}]
    name = anna.full_name
    assert AuditEntry.objects.filter(actor_label=name).count() == 2  # checked in, skipped
    staff = event["org"]
    staff.is_staff = True
    staff.save()
    erase_player(anna, actor=staff)
    assert not AuditEntry.objects.filter(actor_label=name).exists()
    assert anna.sanctions.get().reason == ""
