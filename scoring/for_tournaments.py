"""What scoring adds to the operations of tournaments (``tournaments/hooks.py``), registered by
:meth:`scoring.apps.ScoringConfig.ready`: tournaments never imports scoring."""

from __future__ import annotations

from typing import Any

from tournaments import hooks
from tournaments.models import Player, Registration, Tournament
from tournaments.privacy import iso

from . import recompute
from .models import Confirmation, ResultSubmission


def player_data(player: Player) -> dict[str, Any]:
    """The results naming ``player`` and how many results they confirmed (their data export)."""
    results = []
    for sub in ResultSubmission.objects.filter(table__seats__player=player).select_related(
        "table__game__tournament"
    ).distinct():
        mine = [row for row in sub.scores if row.get("player") == player.pk]
        results.append({
            "tournament": sub.tournament.slug, "game": sub.table.game.number,
            "table": sub.table.number, "version": sub.number, "ended_by": sub.ended_by,
            "entered_at": iso(sub.created_at), "scores": mine,
        })
    return {"results": results, "confirmations": Confirmation.objects.filter(player=player).count()}


def player_erased(player: Player, tournaments: list[Tournament], scrub: hooks.Scrub) -> None:
    """Copies of an erased player's name in the stored result data of their tournaments."""
    for sub in ResultSubmission.objects.filter(tournament__in=tournaments).iterator():
        data, changed = scrub(sub.data)
        if changed:
            ResultSubmission.objects.filter(pk=sub.pk).update(data=data)


def players_merged(drop: int, keep: int) -> None:
    """Stored results name players by id (scores of every seat): the dropped id becomes the kept
    one; the national ranking and the cached standings that name either are refreshed."""
    for sub in ResultSubmission.objects.filter(table__seats__player_id=keep).distinct():
        scores = [dict(r, player=keep) if r.get("player") == drop else r for r in sub.scores]
        if scores != sub.scores:
            ResultSubmission.objects.filter(pk=sub.pk).update(scores=scores)
    hooks.call(hooks.players_changed, [keep, drop])  # the national ranking's rows of both
    for tid in set(Registration.objects.filter(player_id=keep).values_list("tournament_id", flat=True)):
        recompute.invalidate(tid)  # cached standings name the dropped player


def audit_context(ids: set[int]) -> dict[int, dict[str, Any]]:
    """The table and game of each result an audit entry is about."""
    return {sub.pk: {"table": sub.table.number, "game": sub.table.game.number}
            for sub in ResultSubmission.objects.filter(pk__in=ids).select_related("table__game")}


def registrations_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A registration or a withdrawal saved or deleted: who holds a place is who the standings
    list (a withdrawn player who never played leaves them, one who comes back returns), so they
    are computed again, as after a result (the worker's store is the pages' new validator)."""
    if kwargs.get("raw"):
        return
    tournament_id = getattr(instance, "tournament_id", None)
    if tournament_id is None:  # a withdrawal: its registration's
        tournament_id = Registration.objects.filter(pk=instance.registration_id).values_list(
            "tournament_id", flat=True).first()
    if tournament_id is not None:
        recompute.invalidate(tournament_id)


def register() -> None:
    from django.db.models.signals import post_delete, post_save

    from tournaments.models import Withdrawal

    for model in (Registration, Withdrawal):
        post_save.connect(registrations_changed, sender=model, dispatch_uid=f"standings-{model.__name__}")
        post_delete.connect(registrations_changed, sender=model, dispatch_uid=f"standings-del-{model.__name__}")
    hooks.register(hooks.player_data, player_data)
    hooks.register(hooks.player_erased, player_erased)
    hooks.register(hooks.players_merged, players_merged)
    hooks.audit_context["scoring.ResultSubmission"] = audit_context
