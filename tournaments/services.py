"""Every write of the tournaments app: clubs, players, tournaments, registrations, check-ins,
roles and private links. Pages, the REST API, the CSV import and the demo all call these.

Each function takes the acting user (``actor``), checks it through ``permissions`` and records
an audit entry (``audit.record``). Bad input raises ``DomainError(message, field=, rule=)``;
a missing role raises ``PermissionDeniedError``. Rule codes used here (besides the rule ids of docs/rules.md):
``ROLE`` (not allowed), ``STATUS`` (not in this tournament status), ``CAPACITY``,
``DUPLICATE``, ``CSV`` (file format), ``GAME`` (no such game), ``REQUIRED``.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.errors import DomainError, PermissionDeniedError

from . import audit, spreadsheets
from .dates import format_date, parse_date
from .models import (
    AccessLink,
    CheckIn,
    Club,
    Player,
    Registration,
    Tournament,
    TournamentRole,
    normalise_name,
)
from .permissions import is_organizer, require_organizer, require_referee

TIME_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")
EDITABLE_FIELDS = (
    "name", "date", "venue", "format", "ruleset", "ruleset_overrides", "scoring_system",
    "games_count", "start_times", "capacity", "event_type",
)


# --- helpers -------------------------------------------------------------------------------
def tournament_snapshot(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name, "slug": t.slug, "date": t.date.isoformat() if t.date else None,
        "venue": t.venue, "format": t.format, "ruleset": t.ruleset,
        "ruleset_overrides": t.ruleset_overrides, "scoring_system": t.scoring_system,
        "games_count": t.games_count, "start_times": list(t.start_times or []),
        "capacity": t.capacity, "status": t.status, "event_type": t.event_type,
    }


def registration_snapshot(r: Registration) -> dict[str, Any]:
    return {"player": r.player_id, "name": r.player.full_name, "status": r.status}


def _clean_start_times(start_times: Any, games_count: int) -> list[str]:
    if isinstance(start_times, str):
        start_times = [s.strip() for s in re.split(r"[,;\s]+", start_times) if s.strip()]
    if not isinstance(start_times, list | tuple):
        raise DomainError(_("Start times must be a list such as 10:30, 14:00."), field="start_times")
    cleaned = []
    for value in start_times:
        match = TIME_RE.match(str(value).strip())
        if not match:
            raise DomainError(
                _("“%(value)s” is not a time (HH:MM).") % {"value": value}, field="start_times"
            )
        cleaned.append(f"{int(match.group(1)):02d}:{match.group(2)}")
    if len(cleaned) > games_count:
        raise DomainError(
            _("There are more start times than games."), field="start_times", rule="K-BEST2"
        )
    return cleaned


def _validate_tournament_fields(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    if "name" in data:
        data["name"] = str(data["name"] or "").strip()
        if not data["name"]:
            raise DomainError(_("A tournament needs a name."), field="name", rule="REQUIRED")
    if "format" in data and data["format"] not in Tournament.Format.values:
        raise DomainError(_("Unknown tournament format."), field="format")
    if "ruleset" in data and data["ruleset"] not in Tournament.RuleSet.values:
        raise DomainError(_("Unknown rule set."), field="ruleset")
    if "event_type" in data:
        data["event_type"] = str(data["event_type"] or "").strip().upper()
        if data["event_type"] and data["event_type"] not in Tournament.EventType.values:
            raise DomainError(_("Unknown national ranking type (Tipologia)."), field="event_type",
                              rule="K-RANKING")
    if "games_count" in data:
        try:
            data["games_count"] = int(data["games_count"])
        except (TypeError, ValueError):
            raise DomainError(_("Enter a whole number."), field="games_count") from None
        if not 1 <= data["games_count"] <= 20:
            raise DomainError(
                _("A tournament has between 1 and 20 games."), field="games_count", rule="K-BEST2"
            )
    if "capacity" in data and data["capacity"] not in (None, ""):
        try:
            data["capacity"] = int(data["capacity"])
        except (TypeError, ValueError):
            raise DomainError(_("Enter a whole number."), field="capacity") from None
        if data["capacity"] < 1:
            raise DomainError(_("The capacity must be at least 1."), field="capacity")
    elif "capacity" in data:
        data["capacity"] = None
    if "date" in data and isinstance(data["date"], str):
        try:
            data["date"] = dt.date.fromisoformat(data["date"])
        except ValueError:
            raise DomainError(_("Enter a valid date."), field="date") from None
    if "date" in data and not data["date"]:
        raise DomainError(_("A tournament needs a date."), field="date", rule="REQUIRED")
    if "ruleset_overrides" in data and not isinstance(data["ruleset_overrides"], dict):
        raise DomainError(_("Rule set overrides must be an object."), field="ruleset_overrides")
    if "scoring_system" in data:
        data["scoring_system"] = str(data["scoring_system"] or "").strip()
    return data


def validate_rules(ruleset: str, overrides: Any, scoring_system: str) -> None:
    """The rule set, its overrides and the scoring system must be ones the engine knows (its
    registries ``engine.rulesets`` and ``engine.scoring.SCORING_SYSTEMS``): stored unchecked, a
    bad value would only fail later, on the referee's page. DomainError names the field and the
    engine's rule id."""
    from engine.rulesets import get_ruleset
    from engine.scoring import SCORING_SYSTEMS
    from engine.violations import EngineError

    if not isinstance(overrides, dict):
        raise DomainError(_("Rule set overrides must be an object."), field="ruleset_overrides",
                          rule="FORMAT")
    try:
        get_ruleset(ruleset)
    except EngineError as err:
        raise DomainError(err.message, field="ruleset", rule=err.rule) from None
    try:
        get_ruleset({"base": ruleset, "overrides": overrides})
    except EngineError as err:
        raise DomainError(err.message, field="ruleset_overrides", rule=err.rule) from None
    if scoring_system not in SCORING_SYSTEMS:
        raise DomainError(
            _("Unknown scoring system %(system)s (known: %(known)s).")
            % {"system": scoring_system, "known": ", ".join(SCORING_SYSTEMS)},
            field="scoring_system", rule="FORMAT",
        )


def _unique_slug(base: str) -> str:
    base = slugify(base)[:70] or "torneo"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


# --- tournaments ---------------------------------------------------------------------------
@transaction.atomic
def create_tournament(*, actor: Any, **fields: Any) -> Tournament:
    """Any signed-in user may create a tournament and becomes its organizer."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDeniedError(_("Log in to create a tournament."), rule="ROLE")
    fields.setdefault("date", timezone.localdate())
    club = fields.pop("club", None)  # the organising club: one the actor administers
    if club is not None and not isinstance(club, Club):
        club = Club.objects.filter(pk=club).first() if str(club).isdigit() else None
        if club is None:
            raise DomainError(_("Unknown club."), field="club", rule="ROLE")
    from .clubs import check_organising_club

    check_organising_club(actor, club)
    data = _validate_tournament_fields(fields)
    unknown = set(data) - set(EDITABLE_FIELDS) - {"slug"}
    if unknown:
        raise DomainError(_("Unknown field."), field=sorted(unknown)[0])
    slug = data.pop("slug", None)
    if slug:
        slug = slugify(slug)
        if Tournament.objects.filter(slug=slug).exists():
            raise DomainError(
                _("Another tournament already uses this address."), field="slug", rule="DUPLICATE"
            )
    else:
        slug = _unique_slug(data["name"])
    validate_rules(data.get("ruleset", Tournament.RuleSet.RTU), data.get("ruleset_overrides", {}),
                   data.get("scoring_system", "S-RTU"))
    games = data.get("games_count", 3)
    if "start_times" in data:
        data["start_times"] = _clean_start_times(data["start_times"], games)
    elif games != 3:
        data["start_times"] = []
    tournament = Tournament.objects.create(slug=slug, created_by=actor, club=club, **data)
    TournamentRole.objects.create(
        tournament=tournament, user=actor, role=TournamentRole.Role.ORGANIZER
    )
    after = tournament_snapshot(tournament)
    if club is not None:
        after["club"] = club.name
    audit.record(actor=actor, action="tournament.create", obj=tournament, tournament=tournament,
                 after=after)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, *, actor: Any, **fields: Any) -> Tournament:
    require_organizer(actor, tournament)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise DomainError(_("This field cannot be changed here."), field=sorted(unknown)[0])
    data = _validate_tournament_fields(fields)
    validate_rules(data.get("ruleset", tournament.ruleset),
                   data.get("ruleset_overrides", tournament.ruleset_overrides or {}),
                   data.get("scoring_system", tournament.scoring_system))
    games = data.get("games_count", tournament.games_count)
    start_times = data.get("start_times", tournament.start_times)
    data["start_times"] = _clean_start_times(start_times, games)
    before = tournament_snapshot(tournament)
    for key, value in data.items():
        setattr(tournament, key, value)
    tournament.save()
    audit.record(actor=actor, action="tournament.update", obj=tournament, tournament=tournament,
                 before=before, after=tournament_snapshot(tournament))
    if tournament.status == Tournament.Status.FINISHED:
        # Its national type or dates may have changed (K-RANKING).
        from scoring import national

        national.tournament_changed(tournament)
    # More places (or no limit any more): waitlisted players move up in order. A smaller
    # capacity never removes anyone already registered.
    while _promote(tournament, actor=actor) is not None:
        pass
    return tournament


@transaction.atomic
def change_status(tournament: Tournament, status: str, *, actor: Any) -> Tournament:
    require_organizer(actor, tournament)
    allowed = Tournament.TRANSITIONS.get(tournament.status, set())
    if status not in allowed:
        raise DomainError(
            _("A tournament cannot go from “%(old)s” to “%(new)s”.")
            % {"old": tournament.get_status_display(),
               "new": dict(Tournament.Status.choices).get(status, status)},
            field="status", rule="STATUS",
        )
    before = tournament.status
    tournament.status = status
    tournament.save(update_fields=["status"])
    audit.record(actor=actor, action="tournament.status", obj=tournament, tournament=tournament,
                 before={"status": before}, after={"status": status})
    if Tournament.Status.FINISHED in (before, status):
        # Finishing or reopening an event changes the national ranking (K-RANKING).
        from scoring import national

        national.tournament_changed(tournament)
    return tournament


# --- clubs and players ---------------------------------------------------------------------
def get_or_create_club(
    name: str, *, actor: Any = None, city: str = "", region: str = ""
) -> Club | None:
    name = " ".join((name or "").split())
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    if club is None:
        club = Club.objects.create(name=name, city=city, region=region)
        audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                     after={"name": club.name})
    return club


@transaction.atomic
def create_club(*, actor: Any, name: str, city: str = "", region: str = "") -> Club:
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDeniedError(_("Log in to add a club."), rule="ROLE")
    name = " ".join((name or "").split())
    if not name:
        raise DomainError(_("A club needs a name."), field="name", rule="REQUIRED")
    if Club.objects.filter(name__iexact=name).exists():
        raise DomainError(_("This club already exists."), field="name", rule="DUPLICATE")
    club = Club.objects.create(name=name, city=city, region=region)
    audit.record(actor=actor, action="club.create", obj=club, tournament=None,
                 after={"name": name, "city": city, "region": region})
    return club


@dataclass
class PlayerData:
    first_name: str
    last_name: str
    nickname: str = ""
    club: str = ""  # club name; created when unknown
    email: str = ""
    birth_date: dt.date | None = None
    national_id: str = ""  # the national ranking's id; organizers only, never shown publicly
    region: str = ""  # the club's region (Regione), kept on the club as the Iscritti sheet does

    def clean(self) -> PlayerData:
        self.first_name = " ".join((self.first_name or "").split())
        self.last_name = " ".join((self.last_name or "").split())
        self.nickname = " ".join((self.nickname or "").split())
        self.club = " ".join((self.club or "").split())
        self.region = " ".join((self.region or "").split())[:60]
        self.email = (self.email or "").strip()
        self.national_id = " ".join(str(self.national_id or "").split())
        if len(self.national_id) > 32:
            raise DomainError(_("A national id has at most 32 characters."), field="national_id")
        if not self.first_name:
            raise DomainError(_("Enter the first name."), field="first_name", rule="REQUIRED")
        if not self.last_name:
            raise DomainError(_("Enter the last name."), field="last_name", rule="REQUIRED")
        if len(self.first_name) > 80 or len(self.last_name) > 80 or len(self.nickname) > 80:
            raise DomainError(_("At most 80 characters."), field="last_name")
        if self.email and not re.match(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", self.email):
            raise DomainError(_("Enter a valid e-mail address."), field="email")
        if isinstance(self.birth_date, str):
            text = self.birth_date.strip()
            if not text:
                self.birth_date = None
            else:
                parsed = parse_date(text)
                if parsed is None:
                    raise DomainError(
                        _("Enter the date of birth as DD/MM/YYYY."), field="birth_date"
                    )
                self.birth_date = parsed
        return self


def find_player(first_name: str, last_name: str, club: Club | None) -> Player | None:
    """The first player with this name in this club (a duplicate hint, not an identity: two
    organizers may each have their own "Mario Rossi" of one club)."""
    return Player.objects.filter(
        normalised_name=normalise_name(first_name, last_name), club=club
    ).order_by("pk").first()


def _national_id_taken(national_id: str, owner: Player) -> DomainError:
    return DomainError(
        _("The national id %(id)s already belongs to %(name)s.")
        % {"id": national_id, "name": owner.full_name},
        field="national_id", rule="DUPLICATE",
    )


def _save_national_id(player: Player, national_id: str) -> None:
    """Store ``national_id`` on ``player``; a concurrent owner is a DUPLICATE, not a 500."""
    player.national_id = national_id
    try:
        with transaction.atomic():
            player.save(update_fields=["national_id"])
    except IntegrityError:
        owner = Player.objects.filter(national_id=national_id).exclude(pk=player.pk).first()
        raise _national_id_taken(national_id, owner or player) from None


def player_for(data: PlayerData, club: Club | None, *, actor: Any = None,
               tournament: Tournament | None = None) -> Player:
    """The player ``data`` describes, created when unknown. Reusing a known player is a matching
    decision on identity, and grants nothing over what others entered:

    - the same national id (and the same name): that player, whatever the club;
    - the same name and date of birth: that player;
    - the same name and club: that player only when it is registered in ``tournament`` already
      (a duplicate, or a withdrawn player coming back) or ``actor`` manages it
      (``privacy.manages_player``: e.g. the organizer's own regular); otherwise a new record.

    Blank fields of the Player record are filled, and its national id set, only by someone who
    manages it. A national id that belongs to someone else is refused with ``DUPLICATE`` on
    ``national_id``."""
    from .privacy import manages_player

    name = normalise_name(data.first_name, data.last_name)
    nid = data.national_id
    if nid:
        holder = Player.objects.filter(national_id=nid).first()
        if holder is not None:
            if holder.normalised_name != name:
                raise _national_id_taken(nid, holder)
            return holder
    same_name = Player.objects.filter(normalised_name=name).order_by("pk")
    player = same_name.filter(birth_date=data.birth_date).first() if data.birth_date else None
    if player is None and tournament is not None:
        player = same_name.filter(club=club, registrations__tournament=tournament).first()
    if player is None:
        player = next((p for p in same_name.filter(club=club) if manages_player(actor, p)), None)
    managed = player is not None and manages_player(actor, player)
    if player is not None and nid and player.national_id and player.national_id != nid:
        if managed:
            raise DomainError(
                _("%(name)s already has the national id %(id)s.")
                % {"name": player.full_name, "id": player.national_id},
                field="national_id", rule="DUPLICATE",
            )
        player = None  # two national ids: two people (and theirs is not shown to this actor)
    if player is None:
        player = Player(
            first_name=data.first_name, last_name=data.last_name, nickname=data.nickname,
            club=club, email=data.email, birth_date=data.birth_date,
        )
        player.save()
        if nid:
            _save_national_id(player, nid)
        return player
    if managed:
        blanks = [f for f in ("email", "birth_date") if not getattr(player, f) and getattr(data, f)]
        for f in blanks:
            setattr(player, f, getattr(data, f))
        if blanks:
            player.save(update_fields=blanks)
        if nid and not player.national_id:
            _save_national_id(player, nid)
            audit.record(actor=actor, action="player.national_id", obj=player, tournament=None,
                         before={"national_id": ""}, after={"national_id": nid})
    return player


def _ask_when_same_name(tournament: Tournament, data: PlayerData, club: Club | None) -> None:
    """Typed again without a club, a name already registered is a question for whoever types it
    (the same person, or a namesake to tell apart by club or nickname), not a bare refusal."""
    if data.national_id or club is not None:
        return
    same = (Registration.objects.filter(tournament=tournament, player__normalised_name=normalise_name(
        data.first_name, data.last_name)).exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player__club").first())
    if same is None or (data.nickname and data.nickname.lower() != same.player.nickname.lower()):
        return
    other = same.player
    raise DomainError(
        _("%(name)s (%(club)s) is already registered for this tournament. Is this the same person? "
          "If so, there is nothing to do. If it is someone else with the same name, give their club "
          "or a nickname so the two can be told apart.")
        % {"name": other.full_name, "club": other.club.name if other.club else _("no club")},
        field="club", rule="DUPLICATE",
    )


def _registration_message_for_duplicate(player: Player) -> str:
    return _(
        "%(name)s is already registered for this tournament."
    ) % {"name": player.full_name}


@transaction.atomic
def register(
    tournament: Tournament, data: PlayerData, *, actor: Any = None, audit_action: str = "registration.create"
) -> Registration:
    """Register a player (found by normalised name + club, or created).

    Anyone may register while registration is open; organizers may also add players while the
    tournament is a draft or running. When the tournament is full the player is waitlisted.
    A player already registered (or waitlisted) is refused with ``DUPLICATE``.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    organizer = is_organizer(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED or (
        not organizer and not tournament.is_registration_open
    ):
        raise DomainError(
            _("Registration for this tournament is closed."), field="status", rule="STATUS"
        )
    data = data.clean()
    if data.national_id and not organizer:
        raise PermissionDeniedError(
            _("Only an organizer of this tournament may enter a national id."),
            field="national_id", rule="ROLE",
        )
    club = get_or_create_club(data.club, actor=actor, region=data.region) if data.club else None
    if club is not None and data.region and not club.region:
        club.region = data.region
        club.save(update_fields=["region"])
    _ask_when_same_name(tournament, data, club)
    player = player_for(data, club, actor=actor, tournament=tournament)
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    if registration is not None and registration.status != Registration.Status.WITHDRAWN:
        raise DomainError(
            _registration_message_for_duplicate(player), field="last_name", rule="DUPLICATE"
        )
    full = (
        tournament.capacity is not None
        and tournament.registrations.filter(status=Registration.Status.REGISTERED).count()
        >= tournament.capacity
    )
    status = Registration.Status.WAITLISTED if full else Registration.Status.REGISTERED
    before = registration_snapshot(registration) if registration else None
    personal = {"email": data.email, "birth_date": data.birth_date,
                "national_id": data.national_id}
    if registration is None:
        registration = Registration.objects.create(
            tournament=tournament, player=player, status=status, **personal
        )
    else:  # a withdrawn player comes back, at the end of the waiting list
        registration.status = status
        registration.created_at = timezone.now()
        for key, value in personal.items():
            setattr(registration, key, value)
        registration.save(update_fields=["status", "created_at", *personal])
    audit.record(actor=actor, action=audit_action, obj=registration, tournament=tournament,
                 before=before, after=registration_snapshot(registration))
    return registration


def waitlist_position(registration: Registration) -> int | None:
    if registration.status != Registration.Status.WAITLISTED:
        return None
    return Registration.objects.filter(
        tournament_id=registration.tournament_id, status=Registration.Status.WAITLISTED,
        created_at__lte=registration.created_at,
    ).exclude(created_at=registration.created_at, id__gt=registration.id).count()


@transaction.atomic
def withdraw(registration: Registration, *, actor: Any) -> Registration | None:
    """Withdraw a registration; the first waitlisted player moves up when a place frees.
    Returns the promoted registration, if any. The withdrawn player's check-ins are removed
    (they will not be seated); tables keep their own history."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    require_organizer(actor, tournament)
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        raise DomainError(
            _("This registration is already withdrawn."), field="status", rule="STATUS"
        )
    was_registered = registration.status == Registration.Status.REGISTERED
    before = registration_snapshot(registration)
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    registration.checkins.all().delete()
    audit.record(actor=actor, action="registration.withdraw", obj=registration,
                 tournament=tournament, before=before, after=registration_snapshot(registration))
    if was_registered:
        return _promote(tournament, actor=actor)
    return None


def _promote(tournament: Tournament, *, actor: Any) -> Registration | None:
    registered = tournament.registrations.filter(status=Registration.Status.REGISTERED).count()
    if tournament.capacity is not None and registered >= tournament.capacity:
        return None
    first = (
        tournament.registrations.select_related("player")
        .filter(status=Registration.Status.WAITLISTED)
        .order_by("created_at", "id")
        .first()
    )
    if first is None:
        return None
    before = registration_snapshot(first)
    first.status = Registration.Status.REGISTERED
    first.save(update_fields=["status"])
    audit.record(actor=actor, action="registration.promote", obj=first, tournament=tournament,
                 before=before, after=registration_snapshot(first))
    return first


@transaction.atomic
def promote(registration: Registration, *, actor: Any) -> Registration:
    """An organizer moves a waitlisted player up by hand (even beyond the capacity)."""
    require_organizer(actor, registration.tournament)
    if registration.status != Registration.Status.WAITLISTED:
        raise DomainError(_("Only a waitlisted player can be moved up."), field="status",
                          rule="STATUS")
    before = registration_snapshot(registration)
    registration.status = Registration.Status.REGISTERED
    registration.save(update_fields=["status"])
    audit.record(actor=actor, action="registration.promote", obj=registration,
                 tournament=registration.tournament, before=before,
                 after=registration_snapshot(registration))
    return registration


@transaction.atomic
def set_national_id(registration: Registration, national_id: str, *, actor: Any) -> Player:
    """An organizer enters, corrects or clears (empty) the national id of a player registered
    for their tournament: the registration's own copy, and the Player record's only when they
    manage that player (``privacy.manages_player``), never one another organizer entered. Unique
    on the Player record: another player's id is refused (``DUPLICATE``)."""
    from .privacy import manages_player

    require_organizer(actor, registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    player = Player.objects.select_for_update().get(pk=registration.player_id)
    nid = PlayerData(player.first_name, player.last_name, national_id=national_id).clean().national_id
    managed = manages_player(actor, player)
    if nid == registration.national_id and (not managed or nid == player.national_id):
        return player
    holder = Player.objects.filter(national_id=nid).exclude(pk=player.pk).first() if nid else None
    if holder is not None:
        raise _national_id_taken(nid, holder)
    before = registration.national_id
    if managed and nid != player.national_id:
        before = player.national_id or before
        _save_national_id(player, nid)
    registration.national_id = nid
    registration.save(update_fields=["national_id"])
    audit.record(actor=actor, action="player.national_id", obj=player,
                 tournament=registration.tournament, before={"national_id": before},
                 after={"national_id": nid})
    return player


# --- check-in ------------------------------------------------------------------------------
def _check_game(tournament: Tournament, game_number: Any) -> int:
    try:
        number = int(game_number)
    except (TypeError, ValueError):
        number = 0
    if not 1 <= number <= tournament.games_count:
        raise DomainError(
            _("This tournament has no game %(n)s.") % {"n": game_number}, field="game_number",
            rule="GAME",
        )
    return number


@transaction.atomic
def set_checked_in(
    registration: Registration, game_number: Any, present: bool, *, actor: Any
) -> CheckIn | None:
    tournament = registration.tournament
    require_referee(actor, tournament)
    number = _check_game(tournament, game_number)
    if present and registration.status != Registration.Status.REGISTERED:
        raise DomainError(
            _("Only registered players can be checked in (not waitlisted or withdrawn)."),
            field="registration", rule="STATUS",
        )
    existing = CheckIn.objects.filter(registration=registration, game_number=number).first()
    if present and existing is None:
        checkin, created = CheckIn.objects.get_or_create(  # a double tap: one check-in
            registration=registration, game_number=number,
            defaults={"checked_in_by": actor if getattr(actor, "is_authenticated", False)
                      else None},
        )
        if not created:
            return checkin
        audit.record(actor=actor, action="checkin.create", obj=checkin, tournament=tournament,
                     after={"player": registration.player_id, "game": number})
        return checkin
    if not present and existing is not None:
        audit.record(actor=actor, action="checkin.delete", obj=existing, tournament=tournament,
                     before={"player": registration.player_id, "game": number})
        existing.delete()
        return None
    return existing


def toggle_checkin(registration: Registration, game_number: Any, *, actor: Any) -> bool:
    """One tap: checks the player in for the game, or out again. Returns whether present now."""
    number = _check_game(registration.tournament, game_number)
    present = not CheckIn.objects.filter(registration=registration, game_number=number).exists()
    set_checked_in(registration, number, present, actor=actor)
    return present


def carry_over_checkins(tournament: Tournament, game_number: Any, *, actor: Any) -> int:
    """Who was present for the previous game is present for ``game_number`` too (players
    still registered; those already checked in are left as they are). Returns how many were
    added; each is audited like a tap."""
    number = _check_game(tournament, game_number)
    require_referee(actor, tournament)
    if number == 1:
        raise DomainError(_("Game 1 has no previous game to carry presences from."),
                          field="game_number", rule="GAME")
    previous = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.REGISTERED,
        checkins__game_number=number - 1,
    ).exclude(checkins__game_number=number).select_related("tournament")
    return bulk_checkin(previous, number, actor=actor)


# --- roles ---------------------------------------------------------------------------------
@transaction.atomic
def add_role(tournament: Tournament, username: str, role: str, *, actor: Any) -> TournamentRole:
    require_organizer(actor, tournament)
    if role not in TournamentRole.Role.values:
        raise DomainError(_("Unknown role."), field="role")
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise DomainError(_("No user with this username."), field="username")
    existing = TournamentRole.objects.filter(tournament=tournament, user=user).first()
    before = {"user": user.get_username(), "role": existing.role} if existing else None
    if existing:
        existing.role = role
        existing.save(update_fields=["role"])
        obj = existing
    else:
        obj = TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    getattr(user, "_tournament_roles", {}).pop(tournament.pk, None)
    audit.record(actor=actor, action="role.set", obj=obj, tournament=tournament, before=before,
                 after={"user": user.get_username(), "role": role})
    return obj


@transaction.atomic
def remove_role(role: TournamentRole, *, actor: Any) -> None:
    tournament = role.tournament
    require_organizer(actor, tournament)
    if (
        role.role == TournamentRole.Role.ORGANIZER
        and not tournament.roles.filter(role=TournamentRole.Role.ORGANIZER)
        .exclude(pk=role.pk).exists()
    ):
        raise DomainError(_("A tournament keeps at least one organizer."), field="role",
                          rule="ROLE")
    audit.record(actor=actor, action="role.remove", obj=role, tournament=tournament,
                 before={"user": role.user.get_username(), "role": role.role})
    role.delete()


# --- private links -------------------------------------------------------------------------
@transaction.atomic
def create_link(
    tournament: Tournament, *, actor: Any, user: Any = None, player: Player | None = None
) -> AccessLink:
    """A referee's password-less link (the user must be a referee/organizer of this
    tournament) or a player's personal link (the player must be registered)."""
    require_organizer(actor, tournament)
    if (user is None) == (player is None):
        raise DomainError(_("A link belongs to one referee or to one player."), field="user")
    if user is not None:
        if not TournamentRole.objects.filter(tournament=tournament, user=user).exists():
            raise DomainError(_("This user is not a referee of this tournament."), field="user",
                              rule="ROLE")
        link = AccessLink.objects.create(tournament=tournament, kind=AccessLink.Kind.REFEREE,
                                         user=user)
        after = {"kind": "referee", "user": user.get_username()}
    else:
        if not tournament.registrations.filter(player=player).exclude(
            status=Registration.Status.WITHDRAWN
        ).exists():
            raise DomainError(_("This player is not registered for this tournament."),
                              field="player", rule="STATUS")
        link = AccessLink.objects.create(tournament=tournament, kind=AccessLink.Kind.PLAYER,
                                         player=player)
        after = {"kind": "player", "player": player.pk}  # type: ignore[union-attr]
    audit.record(actor=actor, action="link.create", obj=link, tournament=tournament, after=after)
    return link


@transaction.atomic
def revoke_link(link: AccessLink, *, actor: Any) -> AccessLink:
    require_organizer(actor, link.tournament)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit.record(actor=actor, action="link.revoke", obj=link, tournament=link.tournament,
                     before={"active": True}, after={"active": False})
    return link


# --- CSV import / export -------------------------------------------------------------------
CSV_COLUMNS = ["first_name", "last_name", "nickname", "club", "email", "birth_date", "national_id",
               "status"]
# Headers naming the national ranking's id of a player (also read by the Iscritti import).
NATIONAL_ID_HEADERS = ("national_id", "national id", "id nazionale", "codice", "codice nazionale",
                       "codice giocatore")
_HEADER_ALIASES = {
    "nome": "first_name", "cognome": "last_name", "soprannome": "nickname",
    "nickname": "nickname", "circolo": "club", "club": "club", "email": "email",
    "e-mail": "email", "data di nascita": "birth_date", "stato": "status",
    **{h: "national_id" for h in NATIONAL_ID_HEADERS},
}


class CsvImportError(DomainError):
    def __init__(self, message: str, *, line: int, field: str | None):
        super().__init__(message, field=field, rule="CSV")
        self.line = line

    def as_dict(self) -> dict[str, object]:
        data = super().as_dict()
        data["line"] = self.line
        return data


def export_csv(tournament: Tournament, *, actor: Any) -> str:
    """All registrations (with e-mail and birth date: organizers only)."""
    require_organizer(actor, tournament)
    rows: list[list[Any]] = [list(CSV_COLUMNS)]
    for reg in tournament.registrations.select_related("player__club").order_by("created_at", "id"):
        p = reg.player  # personal data: as entered for this tournament (the registration's)
        rows.append([
            p.first_name, p.last_name, p.nickname, p.club.name if p.club else "", reg.email,
            format_date(reg.birth_date), reg.national_id, reg.status,
        ])
    return spreadsheets.csv_text(rows)  # every cell neutralised (no live formula)


def _decode(content: bytes | str) -> str:
    if isinstance(content, str):
        return content
    try:
        spreadsheets.check_upload_size(len(content))
    except spreadsheets.SheetError as exc:
        raise CsvImportError(exc.message, line=1, field=None) from None
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):  # "Unicode text" as Excel saves it
        try:
            if content.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
                return content.decode("utf-32")
            return content.decode("utf-16")
        except UnicodeDecodeError:
            raise CsvImportError(_("The file is not a text (CSV) file."), line=1, field=None) from None
    if b"\x00" in content:  # UTF-16 without its mark, or a binary file
        raise CsvImportError(_("The file holds NUL bytes: it is not CSV text. Save it as "
                               "“CSV UTF-8” and try again."), line=1, field=None)
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CsvImportError(_("The file is not a text (CSV) file."), line=1, field=None)


def import_csv(tournament: Tournament, content: bytes | str, *, actor: Any) -> list[Registration]:
    """Register every row of a CSV file in ONE transaction: a bad row (reported by line and
    field) imports nothing. Columns (first line): first_name, last_name, nickname, club, email,
    birth_date (DD/MM/YYYY or YYYY-MM-DD), national_id — Italian headers (nome, cognome, circolo, codice…) are
    accepted too;
    comma or semicolon separated."""
    require_organizer(actor, tournament)
    text = _decode(content)
    try:
        dialect: Any = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:  # within the spreadsheet limits: lines, columns, characters per cell, no NUL
        rows = list(spreadsheets.csv_rows(text, dialect))
    except spreadsheets.SheetError as exc:
        raise CsvImportError(exc.message, line=exc.line or 1, field=None) from None
    if not rows:
        raise CsvImportError(_("The file is empty."), line=1, field=None)
    header = [_HEADER_ALIASES.get(h.strip().lower(), h.strip().lower()) for h in rows[0]]
    for required in ("first_name", "last_name"):
        if required not in header:
            raise CsvImportError(
                _("Missing column “%(column)s” in the first line.") % {"column": required},
                line=1, field=required,
            )
    unknown = [h for h in header if h and h not in CSV_COLUMNS]
    if unknown:
        raise CsvImportError(
            _("Unknown column “%(column)s”.") % {"column": unknown[0]}, line=1, field=unknown[0]
        )
    created: list[Registration] = []
    try:
        with transaction.atomic():
            for line, row in enumerate(rows[1:], start=2):
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) > len(header):
                    raise CsvImportError(_("Too many values in this line."), line=line,
                                         field=None)
                values = dict(zip(header, row, strict=False))
                data = PlayerData(
                    first_name=values.get("first_name", ""),
                    last_name=values.get("last_name", ""),
                    nickname=values.get("nickname", ""),
                    club=values.get("club", ""),
                    email=values.get("email", ""),
                    birth_date=values.get("birth_date", "") or None,  # type: ignore[arg-type]
                    national_id=values.get("national_id", ""),
                )
                try:
                    created.append(
                        register(tournament, data, actor=actor, audit_action="registration.import")
                    )
                except DomainError as exc:
                    raise CsvImportError(exc.message, line=line, field=exc.field) from None
    except IntegrityError:  # pragma: no cover - a concurrent write; nothing was imported
        raise CsvImportError(_("The file could not be imported; try again."), line=1,
                             field=None) from None
    audit.record(actor=actor, action="registration.import_csv", obj=tournament,
                 tournament=tournament, after={"rows": len(created)})
    return created


def bulk_checkin(
    registrations: Iterable[Registration], game_number: int, *, actor: Any
) -> int:
    """Check several registered players in for a game (the check-in page's selection and
    "everyone present", the carry-over, the demo); returns how many were not present yet."""
    count = 0
    for registration in registrations:
        before = CheckIn.objects.filter(registration=registration,
                                        game_number=game_number).exists()
        if set_checked_in(registration, game_number, True, actor=actor) is not None and not before:
            count += 1
    return count
