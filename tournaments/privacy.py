"""A player's personal data on request (players are EU residents, GDPR arts. 15, 17 and 20).

- :func:`export_player_data`: everything stored about one player, as a JSON-ready document;
- :func:`erase_player`: removes what identifies them (name, nickname, e-mail, date of birth,
  national id, club, private links) and replaces every copy of their name in the audit log and in stored results,
  while their past results stay in the standings under an anonymised name ("Player #42"), so the
  other players' places and points do not change.

Who may ask: staff (the admin action), the server's operator (``manage.py erase_player``), or an
organizer of EVERY tournament the player took part in (so no organizer erases someone else's
participant). Every erasure is audited without any personal data.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from common.errors import PermissionDeniedError

from . import audit, hooks
from .models import AccessLink, AuditEntry, IdempotentWrite, Player, Tournament, Withdrawal
from .permissions import is_organizer

EXPORT_FORMAT = "risiko-player-data/1"


def iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def export_player_data(player: Player) -> dict[str, Any]:
    """Everything this installation stores about ``player`` (access request / portability)."""
    registrations = []
    for reg in (player.registrations.with_state().select_related("tournament")
                .prefetch_related("checkins", "withdrawals")):
        registrations.append({
            "tournament": reg.tournament.slug, "tournament_name": reg.tournament.name,
            "date": iso(reg.tournament.date), "status": reg.state,
            "registered_at": iso(reg.created_at),
            "email": reg.email, "birth_date": iso(reg.birth_date), "national_id": reg.national_id,
            "checked_in_games": sorted(c.game_number for c in reg.checkins.all()),
            "withdrawals": [{"from_game": w.from_game, "withdrawn_at": iso(w.withdrawn_at), "reason": w.reason,
                             "registered_again_at": iso(w.reinstated_at)} for w in reg.withdrawals.all()],
        })
    links = [
        {"tournament": link.tournament.slug, "created_at": iso(link.created_at),
         "revoked_at": iso(link.revoked_at), "last_used_at": iso(link.last_used_at)}
        for link in player.access_links.select_related("tournament")
    ]
    return {
        "format": EXPORT_FORMAT,
        "exported_at": iso(timezone.now()),
        "player": {
            "id": player.pk, "first_name": player.first_name, "last_name": player.last_name,
            "nickname": player.nickname, "club": player.club.name if player.club else None,
            "email": player.email, "birth_date": iso(player.birth_date),
            "national_id": player.national_id, "created_at": iso(player.created_at),
        },
        "registrations": registrations,
        **{k: v for hook in hooks.player_data for k, v in hook(player).items()},  # seats, results…
        "private_links": links,
    }


def _tournaments_of(player: Player) -> list[Tournament]:
    ids = set(player.registrations.values_list("tournament_id", flat=True))
    for hook in hooks.player_tournaments:
        ids |= hook(player)  # the tournaments they were seated in
    ids |= set(player.access_links.values_list("tournament_id", flat=True))
    return list(Tournament.objects.filter(pk__in=ids))


def _staff(actor: Any) -> bool:
    """Staff rights, never through a referee's private link (limited to its tournament)."""
    if getattr(actor, "link_tournament_id", None) is not None:
        return False
    return bool(getattr(actor, "is_staff", False) or getattr(actor, "is_superuser", False))


def manages_player(actor: Any, player: Player) -> bool:
    """Whether ``actor`` may read and change the Player record itself (its e-mail, date of birth
    and national id as first entered, whoever entered them) and merge it: staff, or an organizer
    of every tournament the player is in (vacuously, of a player in none). Anyone else sees only
    the personal data entered with their own registrations (``Registration.email`` …)."""
    if actor is None or _staff(actor):
        return True
    if not getattr(actor, "is_authenticated", False):
        return False
    return all(is_organizer(actor, t) for t in _tournaments_of(player))


def can_erase(actor: Any, player: Player) -> bool:
    if actor is None:  # the operator at the console (management command)
        return True
    if _staff(actor):
        return True
    tournaments = _tournaments_of(player)
    return bool(tournaments) and all(is_organizer(actor, t) for t in tournaments)


def export_player(player: Player, *, actor: Any) -> dict[str, Any]:
    """:func:`export_player_data` for someone asking through the app: the same people who may
    erase (staff, or an organizer of every tournament the player took part in — the document
    covers all of them); every export is audited (who took whose data)."""
    if not can_erase(actor, player):
        raise PermissionDeniedError(
            _("Only staff, or an organizer of every tournament this player took part in, may "
              "export their data."), field="player", rule="PRIVACY",
        )
    doc = export_player_data(player)
    audit.record(actor=actor, action="player.export", obj=player, tournament=None,
                 after={"player": player.pk})
    return doc


def blocking_tournaments(actor: Any, player: Player) -> list[Tournament]:
    """The player's tournaments that ``actor`` does not organize (why they may not erase)."""
    if actor is None or _staff(actor):
        return []
    return [t for t in _tournaments_of(player) if not is_organizer(actor, t)]


def anonymised_name(player: Player) -> tuple[str, str]:
    return _("Player"), f"#{player.pk}"


def _scrub(value: Any, secrets: list[str], replacement: str) -> tuple[Any, bool]:
    """``value`` with every string that contains one of ``secrets`` replaced (recursively)."""
    if isinstance(value, str):
        lowered = value.casefold()
        if any(s in lowered for s in secrets):
            return replacement, True
        return value, False
    if isinstance(value, list):
        out, changed = [], False
        for item in value:
            new, c = _scrub(item, secrets, replacement)
            out.append(new)
            changed |= c
        return out, changed
    if isinstance(value, dict):
        out_d, changed = {}, False
        for key, item in value.items():
            new, c = _scrub(item, secrets, replacement)
            out_d[key] = new
            changed |= c
        return out_d, changed
    return value, False


def erase_player(player: Player, *, actor: Any) -> Player:
    """Anonymise ``player`` in one transaction; results and standings keep their numbers."""
    if not can_erase(actor, player):
        raise PermissionDeniedError(
            _("Only staff, or an organizer of every tournament this player took part in, may "
              "erase their data."), field="player", rule="PRIVACY",
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        tournaments = _tournaments_of(player)
        # Every national id this player ever had (corrections are audited as player.national_id).
        old_ids = [str(snap.get("national_id") or "") for pair in AuditEntry.objects.filter(
            action="player.national_id", object_id=str(player.pk)).values_list("before", "after")
            for snap in pair if isinstance(snap, dict)]
        for email, nid in player.registrations.values_list("email", "national_id"):
            old_ids += [email, nid]  # what each tournament's organizer entered
        secrets = sorted({
            s.casefold() for s in (player.full_name, player.display_name, player.email,
                                   f"{player.last_name} {player.first_name}", player.national_id,
                                   *old_ids)
            if s and len(s.strip()) >= 3
        }, key=len, reverse=True)
        first, last = anonymised_name(player)
        replacement = f"{first} {last}"
        player.first_name, player.last_name = first, last
        player.nickname = ""
        player.email = ""
        player.birth_date = None
        player.national_id = ""
        player.club = None
        player.save()
        player.registrations.update(email="", birth_date=None, national_id="")
        Withdrawal.objects.filter(registration__player=player).update(reason="")  # may name or describe them
        AccessLink.objects.filter(player=player).delete()
        # Copies of the name: audit snapshots and stored result data of their tournaments.
        entries = AuditEntry.objects.filter(Q(tournament__in=tournaments) | Q(tournament=None))
        for entry in entries.iterator():
            before, b = _scrub(entry.before, secrets, replacement)
            after, a = _scrub(entry.after, secrets, replacement)
            if a or b:
                AuditEntry.objects.filter(pk=entry.pk).update(before=before, after=after)
        hooks.call(hooks.player_erased, player, tournaments,
                   lambda value: _scrub(value, secrets, replacement))  # stored result data
        for kept in IdempotentWrite.objects.iterator():  # answers kept for retries (a few days)
            answer, changed = _scrub(kept.answer, secrets, replacement)
            if changed:
                IdempotentWrite.objects.filter(pk=kept.pk).update(answer=answer)
        audit.record(actor=actor, action="player.erase", obj=player, tournament=None,
                     after={"player": player.pk, "tournaments": [t.slug for t in tournaments]})
        hooks.call(hooks.players_changed, [player.pk])  # the public national ranking shows their name
    return player


# --- staff actions in the admin (Player list: select, then "Export…" or "Erase…") ----------
def admin_export(modeladmin: Any, request: Any, queryset: Any) -> Any:
    import json

    from django.http import HttpResponse

    docs = [export_player_data(p) for p in queryset]
    response = HttpResponse(json.dumps(docs, indent=2, ensure_ascii=False),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="player-data.json"'
    return response


admin_export.short_description = _lazy("Export the selected players' personal data (JSON)")  # type: ignore[attr-defined]


def admin_erase(modeladmin: Any, request: Any, queryset: Any) -> None:
    from django.contrib import messages

    count = 0
    for player in queryset:
        erase_player(player, actor=request.user)
        count += 1
    messages.success(request, _("%(count)d players erased; their results are kept anonymised.")
                     % {"count": count})


admin_erase.short_description = _lazy("Erase the selected players' personal data (keep results)")  # type: ignore[attr-defined]
