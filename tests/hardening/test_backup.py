"""Backup: export → import into an empty database → export gives the same
document; damaged or clashing files are refused and change nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from tests.factories.tournaments import ClubFactory
from tournaments import backup
from tournaments.models import AuditEntry, Club, Player, Registration, Season, Tournament


def _wipe() -> None:
    """Empty every table the backup covers (the "new laptop")."""
    for model, _path in reversed(backup.tournament_models()):
        model.objects.all().delete()
    Player.objects.all().delete()
    Season.objects.all().delete()  # a club's season (an evening's backup carries its row)
    Club.objects.all().delete()
    AuditEntry.objects.all().delete()
    get_user_model().objects.all().delete()


def test_every_model_of_the_apps_is_in_the_backup() -> None:
    labels = {m._meta.label for m, _ in backup.tournament_models()}
    assert {"tournaments.Registration", "tables.Seat", "tables.TurnEvent",
            "scoring.ResultSubmission", "scoring.Confirmation"} <= labels


def test_export_import_export_round_trips(demo_tournament: Tournament, tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    call_command("export_tournament", "demo", "-o", str(first), stderr=io.StringIO())
    standings = Client().get("/api/scoring/tournaments/demo/standings/").json()
    _wipe()
    assert not Tournament.objects.exists()
    call_command("import_tournament", str(first), stdout=io.StringIO())
    second = io.StringIO()
    call_command("export_tournament", "demo", stdout=second)
    assert json.loads(second.getvalue()) == json.loads(first.read_text())
    doc = json.loads(first.read_text())
    kinds = {o["model"] for o in doc["objects"]}
    assert {"tables.seat", "scoring.resultsubmission", "tournaments.auditentry"} <= kinds
    # The restored tournament works: same standings, and its people can sign in again.
    # (computed again: the restored registrations refresh them, so only their stamp and time differ)
    again = Client().get("/api/scoring/tournaments/demo/standings/").json()
    assert {k: v for k, v in again.items() if k not in ("stamp", "computed_at")} == {
        k: v for k, v in standings.items() if k not in ("stamp", "computed_at")}
    assert Client().login(username="organizzatore", password="risiko-organizza")
    # New rows get fresh ids after the restored ones (sequences moved on).
    t = Tournament.objects.get(slug="demo")
    club = ClubFactory(name="Nuovo club")
    assert club.pk > max(c["pk"] for c in doc["objects"] if c["model"] == "tournaments.club")
    assert t.registrations.count() == sum(
        1 for o in doc["objects"] if o["model"] == "tournaments.registration")


def test_importing_over_an_existing_tournament_is_refused(demo_tournament: Tournament) -> None:
    doc = backup.export_tournament(demo_tournament)
    with pytest.raises(Exception) as exc:
        backup.import_tournament(doc)
    assert getattr(exc.value, "rule", None) == "BACKUP"


@pytest.mark.parametrize("document", [
    None, [], {"format": "other"}, {"format": backup.FORMAT, "tournament": "x",
                                    "objects": [{"model": "tournaments.nothing", "fields": {}}]},
    {"format": backup.FORMAT, "tournament": "x",
     "objects": [{"model": "tournaments.tournament", "pk": 99, "fields": {"name": "x"}}]},
])
def test_a_damaged_backup_is_refused_clearly_and_changes_nothing(db: Any, document: Any) -> None:
    before = Tournament.objects.count()
    with pytest.raises(Exception) as exc:
        backup.import_tournament(document)
    assert getattr(exc.value, "rule", None) == "BACKUP", exc.value
    assert Tournament.objects.count() == before


def test_the_command_reports_a_bad_file(db: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(bad))


def test_a_backup_from_when_withdrawn_was_a_status_restores_the_withdrawal(demo_tournament: Tournament) -> None:
    doc = backup.export_tournament(demo_tournament)
    doc["objects"] = [o for o in doc["objects"] if o["model"] != "tournaments.withdrawal"]
    left = next(o for o in doc["objects"] if o["model"] == "tournaments.registration")
    left["fields"]["status"] = "withdrawn"
    _wipe()
    backup.import_tournament(doc)
    restored = Registration.objects.get(pk=left["pk"])
    assert restored.is_withdrawn and restored.state == "withdrawn" and restored.status == "registered"
    assert list(Registration.objects.withdrawn()) == [restored]
