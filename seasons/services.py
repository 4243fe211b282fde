"""Writes of a club season (*Campionato periodico*): create and change a season, and its next
evening in one action.

Only the club's admins and federation admins may (``seasons.evenings.may_manage``); every
change is audited (``season.create``, ``season.update``, ``season.evening``, ``season.attach``,
``season.detach``). The season model
lives in ``tournaments`` (a tournament points to its season); its checks live here because they
read scoring's registries: the tie-break keys (``scoring.standings.METRICS``) and the format
presets of the evenings (``tournaments.formats``). Refusals name the field and a rule id: ``K-BESTN``
(N, tie-breaks), ``FORMAT``, ``REQUIRED``, ``DUPLICATE``, ``ROLE``, ``CLUB`` (another club's tournament
attached to the season). An existing tournament is attached to a season or detached from it by
the season's managers or an organizer of that tournament (``season.attach``, ``season.detach``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from common import live
from common.errors import ConflictError, DomainError
from scoring.services import apply_preset
from scoring.standings import METRICS
from tournaments import audit, formats
from tournaments import services as tournament_services
from tournaments.dates import parse_date
from tournaments.models import Club, Registration, Season, Tournament

from . import evenings as club_seasons
from . import standings as ss
from .finals import options as final_options
from .models import SeasonFinals

FIELDS = ("name", "year", "starts_on", "ends_on", "rule", "best_n", "tiebreaks", "preset", "evening_games",
          *final_options.FIELDS)


def snapshot(season: Season) -> dict[str, Any]:
    return {
        "club": season.club_id, "name": season.name, "year": season.year,
        "starts_on": season.starts_on.isoformat() if season.starts_on else None,
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
        "rule": season.rule, "best_n": season.best_n, "tiebreaks": list(season.tiebreaks or []),
        "preset": season.preset, "evening_games": season.evening_games,
        "finals": final_options.snapshot(season),
    }


def chain_of(season: Season) -> list[str]:
    """The season's tie-break chain: its own, else its evenings' format's."""
    preset = formats.get(season.preset)
    return list(season.tiebreaks or (preset.chain if preset is not None else ()) or ("total",))


@transaction.atomic
def create_season(*, actor: Any, club: Club, **fields: Any) -> Season:
    club_seasons.require_manager(actor, club)
    season = Season(club=club, created_by=actor if getattr(actor, "is_authenticated", False) else None)
    _apply(season, {"year": timezone.localdate().year, **fields})
    season.save()
    final_options.store(season, fields)
    audit.record(actor=actor, action="season.create", obj=season, tournament=None, after=snapshot(season))
    return season


@transaction.atomic
def update_season(season: Season, *, actor: Any, **fields: Any) -> Season:
    club_seasons.require_manager(actor, season.club)
    season = Season.objects.select_for_update().get(pk=season.pk)
    before = snapshot(season)
    _apply(season, fields)
    season.save()
    final_options.store(season, fields)
    audit.record(actor=actor, action="season.update", obj=season, tournament=None, before=before,
                 after=snapshot(season))
    return season


def _apply(season: Season, fields: dict[str, Any]) -> None:
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise DomainError(_("Unknown field."), field=unknown[0], rule="FORMAT")
    if "name" in fields:
        season.name = " ".join(str(fields["name"] or "").split())
    if not season.name:
        raise DomainError(_("A season needs a name."), field="name", rule="REQUIRED")
    if len(season.name) > 120:
        raise DomainError(_("The season's name is too long."), field="name", rule="FORMAT")
    if Season.objects.filter(club_id=season.club_id, name__iexact=season.name).exclude(pk=season.pk).exists():
        raise DomainError(_("The club already has a season with this name."), field="name", rule="DUPLICATE")
    if "year" in fields:
        season.year = _whole(fields["year"], "year", 2000, 2100, "FORMAT")
    for key in ("starts_on", "ends_on"):
        if key in fields:
            setattr(season, key, _date(fields[key], key))
    if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
        raise DomainError(_("The last evening cannot come before the first."), field="ends_on", rule="FORMAT")
    if "rule" in fields:
        season.rule = str(fields["rule"] or "")
    if season.rule not in ss.RULES:
        raise DomainError(_("Unknown rule %(rule)s. Known: %(known)s.") % {"rule": season.rule,
                          "known": ", ".join(ss.RULES)}, field="rule", rule="FORMAT")
    if "best_n" in fields:
        given = fields["best_n"]
        season.best_n = None if given in (None, "") else _whole(given, "best_n", 1, 500, "K-BESTN")
    if season.rule in ss.NEEDS_N and not season.best_n:
        raise DomainError(_("Say how many evenings or games count (N)."), field="best_n", rule="K-BESTN")
    if "preset" in fields:
        season.preset = str(fields["preset"] or "")
    preset = formats.preset_or_refuse(season.preset)
    if "tiebreaks" in fields:
        season.tiebreaks = _chain(fields["tiebreaks"])
    if "evening_games" in fields:
        given = fields["evening_games"]
        season.evening_games = None if given in (None, "") else _whole(given, "evening_games", 1, 20, "FORMAT")
    if season.evening_games and season.evening_games != preset.games_count and "games_count" not in preset.editable:
        raise DomainError(_("The format %(p)s does not let you change: %(fields)s.")
                          % {"p": preset.name, "fields": "games_count"}, field="evening_games", rule="FORMAT")


def _whole(value: Any, field: str, low: int, high: int, rule: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        number = low - 1
    if not low <= number <= high:
        raise DomainError(_("Between %(low)s and %(high)s.") % {"low": low, "high": high}, field=field, rule=rule)
    return number


def _date(value: Any, field: str) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    parsed = parse_date(str(value))
    if parsed is None:
        raise DomainError(_("Not a date: write it as dd/mm/yyyy."), field=field, rule="FORMAT")
    return parsed


def _chain(value: Any) -> list[str]:
    """Tie-break keys of an event's chain (empty: the evenings' format's chain)."""
    if isinstance(value, str):
        value = [m.strip() for m in value.split(",") if m.strip()]
    chain = [str(m) for m in (value or [])]
    unknown = [m for m in chain if m not in METRICS or m == "final"]
    if unknown or len(set(chain)) != len(chain):
        raise DomainError(_("Unknown or repeated tie-breaks: %(bad)s. Known: %(known)s.")
                          % {"bad": ", ".join(unknown) or ", ".join(chain),
                             "known": ", ".join(m for m in METRICS if m != "final")},
                          field="tiebreaks", rule="K-BESTN")
    return chain


# ------------------------------------------------------------------ the next evening
@dataclass
class EveningPlan:
    """What "new evening" will create: shown on the confirmation step, then made as shown."""

    number: int
    name: str
    date: dt.date
    preset: Any
    games: int
    last: Tournament | None
    players: list[Registration]


def evening_plan(season: Season, today: dt.date | None = None) -> EveningPlan:
    today = today or timezone.localdate()
    number = season.evenings.count() + 1
    last = club_seasons.last_evening(season)
    preset = formats.get(season.preset)
    games = season.evening_games or (preset.games_count if preset is not None else 1)
    with translation.override(settings.LANGUAGE_CODE):  # stored data: the instance's language, not the admin's
        name = _("%(season)s – evening %(n)s") % {"season": season.name, "n": number}
    return EveningPlan(number, name[:150], club_seasons.next_date(season, today), preset, games, last,
                       club_seasons.registered_players(last))


@transaction.atomic
def new_evening(season: Season, *, actor: Any, date: Any = None, number: Any = None) -> Tournament:
    """The season's next evening: a tournament of the season's club named "<season> – serata N",
    on ``date`` (default: today, or the next weekly date after the last evening), with the
    season's format applied and the players of the last evening registered (their check-ins are
    not carried over). ``number``: the evening the confirmation showed; a second tap of the same
    confirmation (or someone else's meanwhile) is refused instead of making another evening."""
    club_seasons.require_manager(actor, season.club)
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)  # one number each
    plan = evening_plan(season)
    if number not in (None, "") and _whole(number, "number", 1, 10000, "FORMAT") != plan.number:
        raise ConflictError(_("Evening %(n)s of this season already exists: the next one would be evening "
                              "%(next)s.") % {"n": number, "next": plan.number}, field="number", rule="DUPLICATE")
    when = _date(date, "date") or plan.date
    evening = tournament_services.create_tournament(actor=actor, name=plan.name, date=when, club=season.club)
    Tournament.objects.filter(pk=evening.pk).update(season=season)
    evening.season = season
    changes = {"games_count": plan.games} if plan.preset and "games_count" in plan.preset.editable else {}
    apply_preset(actor=actor, tournament=evening, preset_id=season.preset, changes=changes)
    evening.refresh_from_db()
    if plan.last is not None:
        club_seasons.carry_over_registrations(plan.last, evening, actor=actor)
    audit.record(actor=actor, action="season.evening", obj=season, tournament=evening,
                 after={"evening": evening.slug, "number": plan.number, "date": when.isoformat(),
                        "from": plan.last.slug if plan.last else None, "players": len(plan.players)})
    return evening


# ------------------------------------------------------------------ an existing tournament
@transaction.atomic
def attach_evening(season: Season, tournament: Tournament, *, actor: Any) -> bool:
    """Make ``tournament`` (a tournament of the season's club) an evening of ``season``; its
    standings then count in the season's (computed from the evenings when read). False when it
    already was. Refused: another club's tournament (``CLUB``), an evening of another season
    (``DUPLICATE``, detach it there first). Audited (``season.attach``)."""
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related("club", "season").get(pk=tournament.pk)
    club_seasons.require_evening_changer(actor, season, tournament)
    if tournament.club_id != season.club_id:
        raise DomainError(_("Only a tournament of %(club)s can be an evening of its season.")
                          % {"club": season.club.name}, field="tournament", rule="CLUB")
    if tournament.season_id == season.pk:
        return False
    if tournament.season_id is not None:
        raise ConflictError(_("This tournament is already an evening of %(season)s: remove it from that "
                              "season first.") % {"season": tournament.season.name},
                            field="tournament", rule="DUPLICATE")
    Tournament.objects.filter(pk=tournament.pk).update(season=season)
    live.bump_on_commit(tournament.slug)  # its pages name its season (an update sends no signal)
    audit.record(actor=actor, action="season.attach", obj=season, tournament=tournament,
                 before={"season": None}, after={"season": season.pk, "season_name": season.name,
                                                 "evening": tournament.slug})
    return True


@transaction.atomic
def detach_evening(season: Season, tournament: Tournament, *, actor: Any) -> None:
    """``tournament`` is no longer an evening of ``season`` (it stays a tournament of the club, with
    its results); the season's standings leave it out. Refused when it is not one of the season's
    evenings (``REQUIRED``). Audited (``season.detach``)."""
    tournament = Tournament.objects.select_for_update(of=("self",)).select_related("club").get(pk=tournament.pk)
    club_seasons.require_evening_changer(actor, season, tournament)
    if tournament.season_id != season.pk:
        raise DomainError(_("This tournament is not an evening of %(season)s.") % {"season": season.name},
                          field="tournament", rule="REQUIRED")
    Tournament.objects.filter(pk=tournament.pk).update(season=None)
    live.bump_on_commit(tournament.slug)
    audit.record(actor=actor, action="season.detach", obj=season, tournament=tournament,
                 before={"season": season.pk, "season_name": season.name, "evening": tournament.slug},
                 after={"season": None})


def attachable(season: Season) -> list[Tournament]:
    """The club's tournaments that may become evenings of ``season``: in no season yet, and no
    season's final phase or consolation event."""
    finals = SeasonFinals.objects.filter(season__club=season.club)
    made = [pk for pair in finals.values_list("phase_id", "consolation_event_id") for pk in pair if pk]
    return list(Tournament.objects.filter(club=season.club, season__isnull=True).exclude(pk__in=made)
                .order_by("-date", "name"))
