"""The audit log read as sentences: "Mario Rossi ha confermato il risultato del tavolo 3,
partita 2".

An :class:`~tournaments.models.AuditEntry` keeps an action code (``"result.confirm"``) and the
object it touched; :func:`sentences` says each entry in the page's language, in one place, with
a fixed number of queries for a page of entries. An action without a sentence here is said by
its generic kind ("changed …"), never by its code alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import hooks
from .models import AuditEntry, Registration

# action code → sentence; %(who)s the actor, %(table)s / %(game)s / %(player)s the object
SENTENCES: Mapping[str, Any] = {
    "result.submit": gettext_lazy("%(who)s entered the result of table %(table)s, game %(game)s"),
    "result.confirm": gettext_lazy("%(who)s confirmed the result of table %(table)s, game %(game)s"),
    "result.withdraw": gettext_lazy("%(who)s withdrew a correction of the result of table %(table)s, game %(game)s"),
    "scoring.settings": gettext_lazy("%(who)s changed the scoring settings"),
    "scoring.preset": gettext_lazy("%(who)s chose the tournament's format"),
    "game.create": gettext_lazy("%(who)s created game %(game)s"),
    "game.start": gettext_lazy("%(who)s started game %(game)s"),
    "game.finish": gettext_lazy("%(who)s closed game %(game)s"),
    "game.deal_objectives": gettext_lazy("%(who)s dealt the objectives of game %(game)s"),
    "tables.compose": gettext_lazy("%(who)s composed the tables of game %(game)s"),
    "tables.move": gettext_lazy("%(who)s moved a player at table %(table)s, game %(game)s"),
    "tables.swap": gettext_lazy("%(who)s swapped two players of game %(game)s"),
    "tables.withdraw": gettext_lazy("%(who)s withdrew a player from game %(game)s"),
    "tables.reinstate": gettext_lazy("%(who)s put a player back into game %(game)s"),
    "table.clock_start": gettext_lazy("%(who)s started the clock of table %(table)s, game %(game)s"),
    "table.clock_pause": gettext_lazy("%(who)s paused the clock of table %(table)s, game %(game)s"),
    "table.clock_resume": gettext_lazy("%(who)s restarted the clock of table %(table)s, game %(game)s"),
    "table.clock_extend": gettext_lazy("%(who)s extended the clock of table %(table)s, game %(game)s"),
    "table.time_expired": gettext_lazy("Time expired at table %(table)s, game %(game)s"),
    "table.expiry_seat": gettext_lazy("%(who)s said whose turn it was when time expired at table %(table)s, "
                                      "game %(game)s"),
    "table.undo_step": gettext_lazy("%(who)s undid the last step at table %(table)s, game %(game)s"),
    "table.end_turn": gettext_lazy("%(who)s recorded an end of turn at table %(table)s, game %(game)s"),
    "table.sdadata": gettext_lazy("%(who)s recorded a sdadata roll at table %(table)s, game %(game)s"),
    "table.elimination": gettext_lazy("%(who)s recorded an elimination at table %(table)s, game %(game)s"),
    "knockout.semifinals": gettext_lazy("%(who)s composed the semifinals"),
    "knockout.final": gettext_lazy("%(who)s composed the final"),
    "registration.withdraw": gettext_lazy("%(who)s withdrew the registration of %(player)s"),
    "registration.promote": gettext_lazy("%(who)s moved %(player)s from the waiting list to the players"),
    "registration.import": gettext_lazy("%(who)s imported registrations"),
    "registration.import_csv": gettext_lazy("%(who)s imported registrations from a CSV file"),
    "registration.import_iscritti": gettext_lazy("%(who)s imported the Iscritti sheet"),
    "checkin.create": gettext_lazy("%(who)s checked in a player"),
    "checkin.delete": gettext_lazy("%(who)s undid a player's check-in"),
    "player.merge": gettext_lazy("%(who)s merged two player records"),
    "player.national_id": gettext_lazy("%(who)s changed a player's national id"),
    "player.export": gettext_lazy("%(who)s exported a player's personal data"),
    "player.erase": gettext_lazy("%(who)s erased a player's personal data"),
    "tournament.create": gettext_lazy("%(who)s created the tournament"),
    "tournament.update": gettext_lazy("%(who)s changed the tournament's details"),
    "tournament.status": gettext_lazy("%(who)s changed the tournament's status"),
    "tournament.club": gettext_lazy("%(who)s named the tournament's organising club"),
    "role.set": gettext_lazy("%(who)s gave a role to a member of staff"),
    "role.remove": gettext_lazy("%(who)s removed a role from a member of staff"),
    "link.create": gettext_lazy("%(who)s created a private link"),
    "link.revoke": gettext_lazy("%(who)s revoked a private link"),
    "club.create": gettext_lazy("%(who)s added a club"),
    "registration.carry_over": gettext_lazy("%(who)s registered %(player)s as at the season's last evening"),
    "season.create": gettext_lazy("%(who)s created a season"),
    "season.update": gettext_lazy("%(who)s changed a season"),
    "season.evening": gettext_lazy("%(who)s created an evening of the season"),
    "season.attach": gettext_lazy("%(who)s made this tournament an evening of the season"),
    "season.detach": gettext_lazy("%(who)s removed this tournament from the season"),
}

GENERIC = gettext_lazy("%(who)s made a change (%(what)s)")


def _context(entries: list[AuditEntry]) -> dict[tuple[str, str], dict[str, Any]]:
    """(object type, id) → table / game / player numbers and names, in a few queries (the
    tables' and results' through ``hooks.audit_context``)."""
    ids: dict[str, set[int]] = defaultdict(set)
    for e in entries:
        if e.object_id.isdigit():
            ids[e.object_type].add(int(e.object_id))
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for object_type, read in hooks.audit_context.items():
        for pk, context in read(ids[object_type]).items():
            out[(object_type, str(pk))] = context
    for reg in Registration.objects.filter(pk__in=ids["tournaments.Registration"]).select_related("player"):
        out[("tournaments.Registration", str(reg.pk))] = {"player": reg.player.display_name}
    return out


def _who(entries: Iterable[AuditEntry]) -> dict[int, str]:
    user_ids = {e.actor_id for e in entries if e.actor_id}
    users = get_user_model().objects.filter(pk__in=user_ids)
    return {u.pk: (u.get_full_name() or u.get_username()) for u in users}


def sentences(entries: Iterable[AuditEntry]) -> list[tuple[AuditEntry, str]]:
    """Every entry with its sentence in the active language."""
    entries = list(entries)
    context = _context(entries)
    names = _who(entries)
    out = []
    for e in entries:
        who = names.get(e.actor_id or 0) or (e.actor_label if e.actor_label != "anonymous" else _("Someone"))
        params: dict[str, Any] = {"who": who, "table": "?", "game": "?", "player": "?", "what": e.action}
        params.update(context.get((e.object_type, e.object_id), {}))
        template = SENTENCES.get(e.action, GENERIC)
        try:
            text = str(template) % params
        except (KeyError, TypeError, ValueError):
            text = str(GENERIC) % params
        out.append((e, text))
    return out
