"""What the self-service app adds to tournaments' operations on a player's personal data
(``tournaments/hooks.py``, registered in ``apps.py``): their warnings, skipped games and calls in
their data export; on erasure, the reasons of their warnings (which may name or describe them)
and their name in the audit log's "who" of what they did from their personal link."""

from __future__ import annotations

from typing import Any

from tournaments import hooks
from tournaments.models import AuditEntry, Player, Tournament

from .models import Absence, RefereeCall, Sanction


def player_data(player: Player) -> dict[str, Any]:
    return {
        "warnings_and_penalties": [
            {"tournament": s.tournament.slug, "game": s.game_number, "kind": s.kind, "reason": s.reason,
             "recorded_at": s.recorded_at.isoformat()}
            for s in Sanction.objects.filter(player=player).select_related("tournament")],
        "skipped_games": [{"tournament": a.registration.tournament.slug, "game": a.game_number}
                          for a in Absence.objects.filter(registration__player=player)
                          .select_related("registration__tournament")],
        "referee_calls": RefereeCall.objects.filter(called_by_player=player).count(),
    }


def player_erased(player: Player, tournaments: list[Tournament], scrub: hooks.Scrub) -> None:
    Sanction.objects.filter(player=player).update(reason="")
    for entry in AuditEntry.objects.filter(tournament__in=tournaments, actor__isnull=True).exclude(
            actor_label="anonymous").iterator():
        label, changed = scrub(entry.actor_label)
        if changed:
            AuditEntry.objects.filter(pk=entry.pk).update(actor_label=label)
