"""The audit log read as sentences: "Mario Rossi ha confermato il risultato del tavolo 3,
partita 2".

An :class:`~tournaments.models.AuditEntry` keeps an action code (``"result.confirm"``) and the
object it touched; :func:`sentences` says each entry in the page's language, in one place, with
a fixed number of queries for a page of entries. An action without a sentence here is said by
its generic kind ("changed …"), never by its code alone. What changed (the entry's before and
after) is said in words too (:func:`changes`): "Stato: Iscrizioni aperte → In corso", never a
stored dict; identifiers, hashes and whole boards stay in the database, not on the page.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.engine_messages import ending

from . import hooks, labels
from .dates import long_date, long_datetime, parse_date
from .formats import PRESETS
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
    "registration.import_csv": gettext_lazy("%(who)s imported registrations from a CSV file"),
    "registration.import_iscritti": gettext_lazy("%(who)s imported the Iscritti sheet"),
    "checkin.create": gettext_lazy("%(who)s checked in a player"),
    "checkin.delete": gettext_lazy("%(who)s undid a player's check-in"),
    "checkin.self": gettext_lazy("%(who)s checked in from their personal link"),
    "checkin.window": gettext_lazy("%(who)s set when players may check themselves in"),
    "checkin.window_delete": gettext_lazy("%(who)s closed the players' own check-in"),
    "game.skip": gettext_lazy("%(who)s said they skip a game"),
    "game.unskip": gettext_lazy("%(who)s said they play a game after all"),
    "referee.call": gettext_lazy("%(who)s called the referee"),
    "referee.take": gettext_lazy("%(who)s took a call for the referee"),
    "sanction.create": gettext_lazy("%(who)s recorded a warning or penalty"),
    "sanction.delete": gettext_lazy("%(who)s removed a warning or penalty"),
    "standings.hide": gettext_lazy("%(who)s hid the standings of the last games"),
    "standings.show": gettext_lazy("%(who)s showed the standings again"),
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
    "registration.create": gettext_lazy("%(who)s registered %(player)s"),
    "registration.import": gettext_lazy("%(who)s registered %(player)s from an imported file"),
    "invitation.create": gettext_lazy("%(who)s created an invitation"),
    "invitation.send": gettext_lazy("%(who)s sent an invitation by e-mail"),
    "invitation.revoke": gettext_lazy("%(who)s revoked an invitation"),
    "invitation.accept": gettext_lazy("%(who)s accepted an invitation"),
    "setup.first_organizer": gettext_lazy("%(who)s created the first organizer's account"),
    "player.distinct": gettext_lazy("%(who)s said that two similar players are different people"),
    "club.admin.add": gettext_lazy("%(who)s made someone an administrator of a club"),
    "club.admin.remove": gettext_lazy("%(who)s removed an administrator of a club"),
    "federation.admin.add": gettext_lazy("%(who)s made someone an administrator of the federation"),
    "federation.admin.remove": gettext_lazy("%(who)s removed an administrator of the federation"),
    "table.clock_adjust": gettext_lazy("%(who)s corrected the clock of table %(table)s, game %(game)s"),
    "game.rehearsal": gettext_lazy("%(who)s changed whether game %(game)s is a rehearsal"),
    "publish.receive": gettext_lazy("The results arrived from the organizer's laptop"),
    "ranking.blacklist": gettext_lazy("%(who)s left a tournament out of the national ranking"),
    "ranking.blacklist.delete": gettext_lazy("%(who)s put a tournament back into the national ranking"),
    "workbook.organizer": gettext_lazy("%(who)s changed the organizer named in the workbook"),
    "workbook.import": gettext_lazy("%(who)s imported a workbook"),
    "fee.set": gettext_lazy("%(who)s set the entry fee"),
    "fee.remove": gettext_lazy("%(who)s removed the entry fee"),
    "payment.mark": gettext_lazy("%(who)s marked the entry fee of %(player)s"),
    "membership.add": gettext_lazy("%(who)s added a member of a club"),
    "membership.change": gettext_lazy("%(who)s changed a member's annual card"),
    "membership.remove": gettext_lazy("%(who)s removed a member of a club"),
}

# a key of an entry's before / after → its name; keys not here are named by the model's field
# (its verbose name) or left off the page when they are identifiers, hashes or whole boards
FIELDS: Mapping[str, Any] = {
    "status": gettext_lazy("status"), "name": gettext_lazy("name"), "date": gettext_lazy("date"),
    "venue": gettext_lazy("venue"), "format": gettext_lazy("standings"), "ruleset": gettext_lazy("rule set"),
    "scoring_system": gettext_lazy("scoring system"), "games_count": gettext_lazy("games"),
    "best_n": gettext_lazy("games that count"), "tiebreaks": gettext_lazy("tie-breaks"),
    "preset": gettext_lazy("format"), "role": gettext_lazy("role"), "user": gettext_lazy("account"),
    "kind": gettext_lazy("kind"), "version": gettext_lazy("version"), "ended_by": gettext_lazy("ended by"),
    "deadline": gettext_lazy("time ends at"), "number": gettext_lazy("number"), "rows": gettext_lazy("rows"),
    "rehearsal": gettext_lazy("rehearsal"), "organizer": gettext_lazy("organizer"), "year": gettext_lazy("year"),
    "seat": gettext_lazy("seat"), "conquered": gettext_lazy("territories conquered"),
    "dice": gettext_lazy("dice"), "game": gettext_lazy("game"), "evening_games": gettext_lazy("games per evening"),
    "starts_on": gettext_lazy("from"), "ends_on": gettext_lazy("to"), "deal_objectives": gettext_lazy(
        "objective cards dealt"), "email": gettext_lazy("e-mail"), "reason": gettext_lazy("reason"),
    "seconds": gettext_lazy("seconds"), "minutes": gettext_lazy("minutes"), "next": gettext_lazy("next"),
    "national_id": gettext_lazy("national id"),
    # fees (the fees app's audit entries)
    "fee": gettext_lazy("entry fee"), "member_price": gettext_lazy("member price"),
    "card_free": gettext_lazy("annual card holders enter free"), "amount": gettext_lazy("amount"),
    "card_amount": gettext_lazy("card amount"), "card_paid_on": gettext_lazy("card paid on"),
    "player_name": gettext_lazy("player"),
}
HIDDEN = frozenset({"player", "id", "pk", "club", "secret_commitment", "deals", "data", "tables", "options",
                    "seed", "token", "slug", "ruleset_overrides", "club_changes", "scores", "index",
                    "rolled_by_server", "closure_state", "from", "players", "evening"})

GENERIC = gettext_lazy("%(who)s made a change (%(what)s)")


def _model_field(object_type: str, key: str) -> Any:
    try:
        return apps.get_model(object_type)._meta.get_field(key)
    except (LookupError, ValueError, FieldDoesNotExist):
        return None


def _label(object_type: str, key: str) -> str:
    if key in FIELDS:
        return str(FIELDS[key])
    field = _model_field(object_type, key)
    return str(getattr(field, "verbose_name", "") or key.replace("_", " "))


def value_text(object_type: str, key: str, value: Any) -> str:
    """A stored value in words: a status by its label, a scoring system by its name, a date as
    a page says it, yes / no, a list joined."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(value_text(object_type, key, v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(object_type, k)} {value_text(object_type, k, v)}" for k, v in value.items()
                         if k not in HIDDEN)
    if key == "scoring_system":
        return labels.system_name(str(value))
    if key == "format" and object_type == "tournaments.Tournament":
        return str(labels.METHODS.get(value, value))
    if key == "preset" and value in PRESETS:
        return str(PRESETS[value].name)
    if key == "tiebreaks":
        return labels.metric(str(value))
    if key == "ended_by":
        return ending(str(value))
    if key == "status" and object_type == "tournaments.Registration":
        return str(dict(Registration.STATE_CHOICES).get(value, value))
    field = _model_field(object_type, key)
    choices = dict(getattr(field, "flatchoices", None) or ())
    if value in choices:
        return str(choices[value])
    if isinstance(value, str):
        return _date_text(value)
    return str(value)


def _date_text(text: str) -> str:
    if len(text) == 10 and (day := parse_date(text)):
        return long_date(day)
    if len(text) > 18 and text[4:5] == "-" and "T" in text:
        try:
            return long_datetime(dt.datetime.fromisoformat(text))
        except ValueError:
            return text
    return text


def changes(entry: AuditEntry) -> list[tuple[str, str, str]]:
    """(what, before, after) in words for every key the entry changed (every key it set, for a
    creation), identifiers and whole boards left off."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    out = []
    for key in dict.fromkeys([*before, *after]):
        if key in HIDDEN or (key in before and key in after and before[key] == after[key]):
            continue
        if key == "user" and isinstance(after.get(key, before.get(key)), int):
            continue  # an account's row id: the sentence already says who
        out.append((_label(entry.object_type, key),
                    value_text(entry.object_type, key, before[key]) if key in before else "",
                    value_text(entry.object_type, key, after[key]) if key in after else ""))
    return out


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


def sentences(entries: Iterable[AuditEntry]) -> list[tuple[AuditEntry, str, list[tuple[str, str, str]]]]:
    """Every entry with its sentence (which names who did it: "Qualcuno" when nobody was signed
    in, never "anonymous") and what it changed, in the active language."""
    entries = list(entries)
    context = _context(entries)
    names = _who(entries)
    out = []
    for e in entries:
        who = names.get(e.actor_id or 0) or (e.actor_label if e.actor_label != "anonymous" else _("Someone"))
        params: dict[str, Any] = {"who": who, "table": "?", "game": "?", "player": "?",
                                  "what": _model_name(e.object_type)}
        params.update(context.get((e.object_type, e.object_id), {}))
        template = SENTENCES.get(e.action, GENERIC)
        try:
            text = str(template) % params
        except (KeyError, TypeError, ValueError):
            text = str(GENERIC) % params
        out.append((e, text, changes(e)))
    return out


def _model_name(object_type: str) -> str:
    try:
        return str(apps.get_model(object_type)._meta.verbose_name)
    except (LookupError, ValueError):
        return _("a record")
