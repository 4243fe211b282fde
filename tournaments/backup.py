"""A whole tournament as one JSON document, and back (``manage.py export_tournament`` /
``import_tournament``): the backup story of a venue laptop.

Which rows belong to a tournament is found from the models themselves: every model of the
``tournaments``, ``tables`` and ``scoring`` apps (and those a feature app names in
``hooks.backed_up``: the fees' entry fee and payments) that reaches ``Tournament`` through foreign keys
(Game → tournament, Seat → table → game → tournament, …) is exported, plus the clubs and players
they point at and the users they name (by username: roles, referees, authors of results). A model
that cannot be reached is refused loudly (:func:`tournament_models`), so a new model is never
silently left out of the backup.

Import restores the rows with their ids, in one transaction, into a database that does not
already hold them (the backup is restored into an empty or unrelated database); anything that
would overwrite an existing row is refused with the model and id. Users that already exist (same
username) are kept as they are; missing ones are created, with their password hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from engine import exact

from . import hooks
from .models import Club, Player, Registration, Tournament, Withdrawal

FORMAT = "risiko-tournament/1"
APPS = ("tournaments", "tables", "scoring")
SHARED = (Club, Player)  # not owned by one tournament: exported as far as it refers to them
# Not part of a tournament's backup: the national ranking is computed from the finished
# tournaments of a year (recomputed when one is restored) and its blacklist spans tournaments.
NOT_BACKED_UP = ("scoring.NationalRanking", "scoring.NationalRankingRow", "scoring.NationalRankingEvent",
                 "scoring.RankingBlacklist",
                 # a club's admins belong to the club, not to one of its tournaments
                 "tournaments.ClubRole",
                 # Publishing: tokens and received copies belong to the instance, not to an event.
                 "tournaments.ClubToken", "tournaments.PublishedTournament",
                 # a club's season spans its evenings: an evening's backup carries its season's row
                 "tournaments.Season",

                 # an admin's decision that two players are two people spans tournaments
                 "tournaments.DistinctPlayers",
                 # answers kept a few days for clients' retries (tournaments/idempotency.py)
                 "tournaments.IdempotentWrite")
USER_FIELDS = ("username", "first_name", "last_name", "email", "password", "is_active",
               "date_joined")


def _path_to_tournament(model: type[models.Model], depth: int = 0) -> str | None:
    """``"game__tournament"``-style lookup from ``model`` to Tournament, or None."""
    if model is Tournament:
        return ""
    if depth > 4:
        return None
    for field in model._meta.get_fields():
        if not (field.is_relation and field.many_to_one or field.one_to_one) or not field.concrete:
            continue
        target = field.related_model
        if target is None or target._meta.app_label not in APPS or target in SHARED:
            continue
        rest = _path_to_tournament(target, depth + 1)
        if rest is not None:
            return field.name + ("__" + rest if rest else "")
    return None


def tournament_models() -> list[tuple[type[models.Model], str]]:
    """Every model owned by a tournament with its lookup, parents before children."""
    out = []
    above = [apps.get_model(label) for label in hooks.backed_up]  # the feature apps' (fees' payments)
    for model in [*(m for app in APPS for m in apps.get_app_config(app).get_models()), *above]:
        if model in SHARED or model._meta.label in NOT_BACKED_UP:
            continue
        path = _path_to_tournament(model)
        if path is None:
            raise RuntimeError(f"{model._meta.label} is not reachable from Tournament: "
                               "teach tournaments/backup.py how to back it up")
        out.append((model, path))
    order = {m: i for i, m in enumerate(_dependency_order([m for m, _ in out]))}
    return sorted(out, key=lambda mp: order[mp[0]])


def _dependency_order(models_: list[type[models.Model]]) -> list[type[models.Model]]:
    done: list[type[models.Model]] = []

    def visit(m: type[models.Model]) -> None:
        if m in done:
            return
        for f in m._meta.concrete_fields:
            target = f.related_model if f.is_relation else None
            if target in models_ and target is not m:
                visit(target)
        done.append(m)

    for m in models_:
        visit(m)
    return done


def _users_referenced(objects: Iterable[models.Model]) -> set[int]:
    user_model = get_user_model()
    ids: set[int] = set()
    for obj in objects:
        for f in obj._meta.concrete_fields:
            if f.is_relation and f.related_model is user_model:
                value = getattr(obj, f.attname)
                if value is not None:
                    ids.add(value)
    return ids


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    owned: list[models.Model] = []
    for model, path in tournament_models():
        lookup = {path: tournament} if path else {"pk": tournament.pk}
        owned.extend(model.objects.filter(**lookup).order_by("pk"))
    player_ids = {getattr(o, f.attname) for o in owned for f in o._meta.concrete_fields
                  if f.is_relation and f.related_model is Player} - {None}
    players = list(Player.objects.filter(pk__in=player_ids).order_by("pk"))
    seasons = [tournament.season] if tournament.season is not None else []
    club_ids = {p.club_id for p in players} | {tournament.club_id} | {s.club_id for s in seasons}
    clubs = list(Club.objects.filter(pk__in=club_ids - {None}).order_by("pk"))
    users = get_user_model().objects.filter(pk__in=_users_referenced([*owned, *seasons])).order_by("username")
    rows = serializers.serialize("python", [*clubs, *seasons, *players, *owned],
                                 use_natural_foreign_keys=True)
    return {
        "format": FORMAT,
        "tournament": tournament.slug,
        "users": [{f: _plain(getattr(u, f)) for f in USER_FIELDS} for u in users],
        "objects": exact.loads(exact.dumps(rows, default=_plain)),  # scores stay exact decimals
    }


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def dumps(document: dict[str, Any]) -> str:
    return exact.dumps(document, indent=1, ensure_ascii=False, sort_keys=True)


def import_tournament(document: Any) -> Tournament:
    """Restore a document made by :func:`export_tournament`; refuses anything else clearly."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DomainError(_("This is not a tournament backup (format %(format)s expected).")
                          % {"format": FORMAT}, field="file", rule="BACKUP")
    slug = document.get("tournament")
    if Tournament.objects.filter(slug=slug).exists():
        raise ConflictError(_("A tournament with slug %(slug)s already exists here.")
                            % {"slug": slug}, field="file", rule="BACKUP")
    user_model = get_user_model()
    try:
        with transaction.atomic():
            for data in document.get("users", []):
                if not user_model.objects.filter(username=data["username"]).exists():
                    user_model.objects.create(**{k: data[k] for k in USER_FIELDS if k in data})
            touched: set[type[models.Model]] = set()
            for item in serializers.deserialize("python", document.get("objects", []),
                                                handle_forward_references=False):
                model = type(item.object)
                if model.objects.filter(pk=item.object.pk).exists():
                    raise ConflictError(
                        _("The database already holds %(model)s %(pk)s: restore into an empty "
                          "database.") % {"model": model._meta.label, "pk": item.object.pk},
                        field="file", rule="BACKUP")
                if isinstance(item.object, Tournament):  # rules the engine does not know
                    from .formats import validate_rules

                    validate_rules(item.object.ruleset, item.object.ruleset_overrides,
                                   item.object.scoring_system)
                item.save()
                touched.add(model)
            _reset_sequences(touched)
            restored = Tournament.objects.get(slug=slug)
            _withdrawals_from_statuses(restored)
            if restored.status == Tournament.Status.FINISHED:
                hooks.call(hooks.tournament_changed, restored)  # its year's national ranking includes it
    except (DomainError, ConflictError):
        raise
    except Exception as exc:  # a damaged or hand-edited file: say so, change nothing
        raise DomainError(_("The backup could not be restored: %(error)s") % {"error": exc},
                          field="file", rule="BACKUP") from exc
    return Tournament.objects.get(slug=slug)


def _withdrawals_from_statuses(tournament: Tournament) -> None:
    """A backup made when "withdrawn" was a registration status: each such registration gets
    (or keeps) its open withdrawal, which is now what says withdrawn, and the status a place."""
    for registration in Registration.objects.filter(tournament=tournament, status=Registration.WITHDRAWN):
        if not registration.is_withdrawn:
            Withdrawal.objects.create(registration=registration, withdrawn_at=registration.created_at)
        registration.status = Registration.Status.REGISTERED
        registration.save(update_fields=["status"])


def _reset_sequences(touched: set[type[models.Model]]) -> None:
    """Explicit ids were inserted: move PostgreSQL's sequences past them."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(touched))
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
