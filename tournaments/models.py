"""Clubs, players, tournaments, registrations, check-ins, roles, private links and the audit log.

Models keep their invariants (constraints); writes go through ``services.py``.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.jsonexact import ExactJSONDecoder, ExactModelJSONEncoder

from .formats import event as formats_event
from .formats.event import DEFAULT_BEST_N, EventFormat
from .formats.rules import DEFAULT_SCORING_SYSTEM, scoring_system_choices
from .names import fold

DEFAULT_START_TIMES = ["10:30", "14:00", "16:30"]  # K-BEST2: a one-day event's three games


normalise_name = fold  # tournaments.names: the one folding of names


def default_start_times() -> list[str]:
    return list(DEFAULT_START_TIMES)


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits: long enough to be unguessable


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    region = models.CharField(_("region"), max_length=60, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


def display_name(first_name: str, last_name: str, nickname: str = "") -> str:
    """A player's public name from plain values (reads of thousands of rows skip the model)."""
    full = f"{first_name} {last_name}"
    return f"{full} ({nickname})" if nickname else full


class Player(models.Model):
    """One person across events. Its e-mail, date of birth and national id are the identity
    record, read and changed only by whoever manages the player (``privacy.manages_player``);
    each tournament's organizer sees the copies on their own ``Registration``."""

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="players",
    )
    email = models.EmailField(_("e-mail"), blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # The national ranking's id of the player (optional; unique when set): one identity across events.
    national_id = models.CharField(_("national id"), max_length=32, blank=True, default="")
    # Derived from first + last name (see normalise_name); kept for duplicate detection.
    normalised_name = models.CharField(max_length=170, editable=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # Name + club is not an identity (two organizers may each have their own "Mario
            # Rossi" of one club); the national id is.
            models.UniqueConstraint(
                fields=["national_id"], condition=~models.Q(national_id=""),
                name="player_national_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: object, **kwargs: object) -> None:
        self.normalised_name = normalise_name(self.first_name, self.last_name)
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def display_name(self) -> str:
        """Name, nickname and nothing else: what public pages may show."""
        return display_name(self.first_name, self.last_name, self.nickname)


class Season(models.Model):
    """A club's periodic championship (*Campionato periodico*): its evenings are tournaments
    (``Tournament.season``), each with its rounds, and the season's standings combine them by
    ``rule``.

    It lives here, next to ``Club`` and ``Tournament``, because a tournament points to its season;
    everything else of a season is the ``seasons`` app's (above scoring): the rule's arithmetic
    (``seasons.standings``, pure, over each evening's counted results, with the same tie-break
    metrics as an event), its read (``seasons.selectors``), the writes that check the tie-break
    keys and the format preset against scoring's registries (``seasons.services``), and the
    evenings (``seasons.evenings``)."""

    class Rule(models.TextChoices):
        # the codes of seasons.standings.RULES
        SUM = "sum", _("Sum of every evening")
        BEST_EVENINGS = "best_evenings", _("Best N evenings")
        BEST_GAMES = "best_games", _("Best N games")
        ROUNDS_2024 = "rounds_2024", _("Best evenings until 45 rounds (national rule 2024)")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    year = models.PositiveSmallIntegerField(_("year"))
    starts_on = models.DateField(_("first evening"), null=True, blank=True)
    ends_on = models.DateField(_("last evening"), null=True, blank=True)
    rule = models.CharField(_("combination rule"), max_length=20, choices=Rule.choices, default=Rule.SUM)
    best_n = models.PositiveSmallIntegerField(_("N"), null=True, blank=True,
                                              help_text=_("Evenings or games that count (best N rules only)."))
    # tie-break metric keys of scoring.standings.METRICS, in order (empty: the preset's chain)
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    preset = models.CharField(_("format of the evenings"), max_length=40, default="campionato")
    evening_games = models.PositiveSmallIntegerField(_("games per evening"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_per_club"),
            models.CheckConstraint(condition=models.Q(best_n__isnull=True) | models.Q(best_n__gte=1),
                                   name="season_best_n_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Format(models.TextChoices):
        ONE_DAY_RTU = "rtu", _("One-day RTU (best two of three)")
        ITALIANA = "italiana", _("All'italiana (every game counts)")
        KNOCKOUT = "knockout", _("Direct elimination")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class EventType(models.TextChoices):
        """The event's type for the national ranking (K-RANKING; the clubs' "Tipologia")."""

        CNI = "CNI", _("Campionato Nazionale")
        RDN = "RDN", _("Raduno Nazionale")
        MST = "MST", _("Torneo Master")
        OPN = "OPN", _("Torneo Open")
        ITC = "ITC", _("Torneo Interclub")
        CPP = "CPP", _("Campionato Periodico")
        SQD = "SQD", _("Torneo a Squadre")
        V2V = "2V2", _("Torneo 2VS2")
        IVT = "IVT", _("Torneo a Inviti")
        AMC = "AMC", _("Amichevoli")

    class RuleSet(models.TextChoices):
        RTU = "RTU", _("RTU tournament regulation")
        CLASSIC = "CLASSIC", _("Classic")
        TIME_ATTACK = "TIME_ATTACK", _("Time Attack")

    # Allowed status moves; anything else is refused by services.change_status.
    TRANSITIONS = {
        Status.DRAFT: {Status.REGISTRATION},
        Status.REGISTRATION: {Status.DRAFT, Status.RUNNING},
        Status.RUNNING: {Status.REGISTRATION, Status.FINISHED},
        Status.FINISHED: {Status.RUNNING},
    }

    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.ONE_DAY_RTU
    )
    ruleset = models.CharField(
        _("rule set"), max_length=20, choices=RuleSet.choices, default=RuleSet.RTU
    )
    ruleset_overrides = models.JSONField(_("rule set overrides"), default=dict, blank=True)
    event_type = models.CharField(
        _("national ranking type"), max_length=3, choices=EventType.choices, blank=True, default="",
        help_text=_("Empty: the type of the chosen format (no format: friendly, not ranked)."),
    )
    # chosen from the engine's registry (engine.scoring.SCORING_SYSTEMS), never free text
    scoring_system = models.CharField(_("scoring system"), max_length=20, default=DEFAULT_SCORING_SYSTEM,
                                      choices=scoring_system_choices)
    games_count = models.PositiveSmallIntegerField(_("number of games"), default=3)
    start_times = models.JSONField(_("start times"), default=default_start_times)
    capacity = models.PositiveIntegerField(
        _("capacity"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The club that runs the event (its admins organise it); empty for an event of no club.
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments",
        verbose_name=_("organising club"),
    )
    # An evening of a club's season (Campionato periodico); empty for a stand-alone event.
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.PROTECT, related_name="evenings",
        verbose_name=_("season"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games_count__gte=1) & models.Q(games_count__lte=20),
                name="tournament_games_count_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def __getstate__(self) -> dict[str, Any]:
        """Pickled or copied without its kept format (read again where it lands)."""
        state: dict[str, Any] = super().__getstate__()
        state.pop("_event_format", None)
        return state

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.forget_format()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """Admin forms (and any ``full_clean``): the rule set, its overrides and the scoring
        system must be known to the engine (see ``formats.validate_rules``)."""
        from django.core.exceptions import ValidationError

        from common.errors import DomainError

        from .formats import validate_rules

        super().clean()
        try:
            validate_rules(self.ruleset, self.ruleset_overrides, self.scoring_system)
        except DomainError as err:
            raise ValidationError({err.field or "ruleset": f"{err.message} ({err.rule})"}) from None

    def game_start(self, number: int) -> dt.time | None:
        """Scheduled start of game ``number`` (1-based), if one is set."""
        try:
            hours, minutes = str(self.start_times[number - 1]).split(":")
            return dt.time(int(hours), int(minutes))
        except (IndexError, ValueError):
            return None

    @property
    def schedule(self) -> list[tuple[int, dt.time | None]]:
        return [(n, self.game_start(n)) for n in range(1, self.event_format().games_count + 1)]

    @property
    def is_registration_open(self) -> bool:
        return self.status == self.Status.REGISTRATION

    def event_format(self) -> EventFormat:
        """The tournament's whole format, one frozen value (``tournaments/formats/event.py``):
        the one way to read it. Kept on this instance until it or its settings are saved."""
        found: EventFormat | None = self.__dict__.get("_event_format")
        if found is None:
            found = self.__dict__["_event_format"] = formats_event.of(self)
        return found

    def forget_format(self) -> None:
        """Read the format again next time (its rows changed)."""
        self.__dict__.pop("_event_format", None)

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.forget_format()
        super().refresh_from_db(*args, **kwargs)


class ScoringSettings(models.Model):
    """What a tournament chose of its format beside the ``Tournament`` row: the preset, the games
    that count, the tie-breaks and the changed scoring numbers; and whether unconfirmed results
    count. Read only through ``Tournament.event_format()``; written by
    ``scoring.services.apply_preset`` / ``update_settings``. Created by scoring: its table and
    migrations stay the scoring app's (``app_label``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="scoring_settings"
    )
    publish_unconfirmed = models.BooleanField(
        _("publish unconfirmed results"), default=False,
        help_text=_("Standings include results nobody has confirmed yet."),
    )
    best_n = models.PositiveSmallIntegerField(
        _("games that count"), default=DEFAULT_BEST_N,
        help_text=_("K-BEST2 / K-BESTN: how many of a player's best games count."),
    )
    # The format preset (tournaments.formats.PRESETS) and what the organizer changed of it.
    preset = models.CharField(_("format"), max_length=30, blank=True, default="")
    tiebreaks = models.JSONField(_("tie-break chain"), default=list, blank=True)
    club_changes = models.JSONField(_("changed scoring numbers"), default=dict, blank=True,
                                    encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)

    class Meta:
        app_label = "scoring"  # created by scoring: its table and migrations
        verbose_name = _("scoring settings")
        verbose_name_plural = _("scoring settings")

    def __str__(self) -> str:
        return f"{self.tournament} – {self._meta.verbose_name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        tournament = self._state.fields_cache.get("tournament")
        if tournament is not None:  # the instance that asked reads its new format at once
            tournament._state.fields_cache["scoring_settings"] = self
            tournament.forget_format()

    @classmethod
    def store(cls, tournament: Tournament, **values: Any) -> ScoringSettings:
        """Write these values on the tournament's row (made when missing); ``tournament`` reads
        its new format at once. For imports and copies; an organizer's change goes through
        ``scoring.services``."""
        conf, _created = cls.objects.update_or_create(tournament=tournament, defaults=values)
        conf.tournament = tournament
        tournament._state.fields_cache["scoring_settings"] = conf
        tournament.forget_format()
        return conf


def _open_withdrawal() -> models.Exists:
    """A withdrawal of the registration still in force (not closed by registering again)."""
    return models.Exists(Withdrawal.objects.filter(registration=models.OuterRef("pk"), reinstated_at__isnull=True))


class RegistrationQuerySet(models.QuerySet["Registration"]):
    """Who is withdrawn and who holds a place, answered in one place: from the open
    ``Withdrawal`` rows. The status only tells a place from the waiting list."""

    def withdrawn(self) -> RegistrationQuerySet:
        return self.filter(_open_withdrawal())

    def current(self) -> RegistrationQuerySet:
        """Not withdrawn: holding a place or on the waiting list."""
        return self.filter(~_open_withdrawal())

    def active(self) -> RegistrationQuerySet:
        """Holding a place: checked in, seated, in the standings and the player lists."""
        return self.current().filter(status=Registration.Status.REGISTERED)

    def waitlisted(self) -> RegistrationQuerySet:
        return self.current().filter(status=Registration.Status.WAITLISTED)

    def with_state(self) -> RegistrationQuerySet:
        """Each row knows whether it is withdrawn without one more query (``is_withdrawn``)."""
        return self.annotate(in_withdrawal=_open_withdrawal())


class Registration(models.Model):
    class Status(models.TextChoices):
        """Where a registration not withdrawn stands; a withdrawn one keeps the status it had,
        which is also what registering again starts from."""
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("Waitlisted")

    # What pages, exports and the API show for a registration with an open withdrawal (``state``):
    # derived from the Withdrawal, never stored.
    WITHDRAWN = "withdrawn"
    WITHDRAWN_LABEL = _("Withdrawn")
    STATE_CHOICES = [*Status.choices, (WITHDRAWN, WITHDRAWN_LABEL)]

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTERED
    )
    created_at = models.DateTimeField(default=timezone.now)  # waitlist order
    # Personal data as entered for THIS registration (by this tournament's organizer, or by the
    # player registering here). An organizer reads and corrects these, never what another
    # organizer entered on the shared Player record (see tournaments.privacy.manages_player).
    email = models.EmailField(_("e-mail"), blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    national_id = models.CharField(_("national id"), max_length=32, blank=True, default="")

    objects = RegistrationQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def withdrawal(self) -> Withdrawal | None:
        """The withdrawal in force (None: not withdrawn, or registered again since)."""
        return self.withdrawals.filter(reinstated_at__isnull=True).order_by("-withdrawn_at", "-pk").first()

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("in_withdrawal", None)  # withdrawn or not is read again too
        super().refresh_from_db(*args, **kwargs)

    @property
    def is_withdrawn(self) -> bool:
        known = self.__dict__.get("in_withdrawal")  # annotated by ``with_state``
        if known is not None:
            return bool(known)
        return self.pk is not None and self.withdrawals.filter(reinstated_at__isnull=True).exists()

    @property
    def is_active(self) -> bool:
        """Holds a place (registered, not withdrawn)."""
        return self.status == self.Status.REGISTERED and not self.is_withdrawn

    @property
    def state(self) -> str:
        """``registered``, ``waitlisted`` or ``withdrawn``: what people and clients are shown."""
        return self.WITHDRAWN if self.is_withdrawn else self.status

    def get_state_display(self) -> str:
        return str(self.WITHDRAWN_LABEL) if self.is_withdrawn else str(self.get_status_display())


class Withdrawal(models.Model):
    """A player leaving a tournament: who, from which game on, when, by whom and why.

    An open withdrawal (``reinstated_at`` empty) is the one record that the registration is
    withdrawn: ``Registration.objects.active()`` / ``.withdrawn()`` read it, so seating, check-in,
    standings and the waiting list skip the player. A withdrawn player who registers again closes
    it (``reinstated_at``); a later withdrawal is a new row."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="withdrawals",
                                     verbose_name=_("registration"))
    # empty for the withdrawals recorded before this model (only their status was kept)
    from_game = models.PositiveSmallIntegerField(
        _("from game"), null=True, blank=True, help_text=_("The first game the player no longer plays."))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), default=timezone.now)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+", verbose_name=_("withdrawn by"))
    reason = models.CharField(_("reason"), max_length=200, blank=True, default="")
    reinstated_at = models.DateTimeField(_("registered again at"), null=True, blank=True)

    class Meta:
        ordering = ["withdrawn_at", "id"]
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        constraints = [
            models.CheckConstraint(condition=models.Q(from_game__isnull=True) | models.Q(from_game__gte=1),
                                   name="withdrawal_from_game_1"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} ({self.from_game})"


class CheckIn(models.Model):
    """A registered player is present for game ``game_number`` (1-based) of the tournament."""

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="checkins"
    )
    game_number = models.PositiveSmallIntegerField(_("game"))
    checked_in_at = models.DateTimeField(default=timezone.now)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["game_number", "checked_in_at"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "game_number"], name="checkin_once_per_game"
            ),
            models.CheckConstraint(condition=models.Q(game_number__gte=1), name="checkin_game_1"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} – {self.game_number}"


class TournamentRole(models.Model):
    """Organizers (owner and co-organizers) and referees of one tournament."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} @ {self.tournament}"


class AccessLink(models.Model):
    """A private, revocable link: a referee's password-less login to one tournament, or a
    player's personal link (their objective card, confirming their table's result)."""

    class Kind(models.TextChoices):
        REFEREE = "referee", _("Referee")
        PLAYER = "player", _("Player")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="access_links",
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="access_links"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("private link")
        verbose_name_plural = _("private links")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(kind="referee", user__isnull=False, player__isnull=True)
                    | models.Q(kind="player", player__isnull=False)
                ),
                name="access_link_kind_matches_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} – {self.tournament}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class ClubRole(models.Model):
    """A user's role in a club. A club admin organises every tournament whose organising club is
    theirs (``permissions.is_organizer``) and appoints its organizers and referees. Federation
    admins (``clubs.is_federation_admin``) create clubs and appoint or remove their admins."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("Club admin")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles",
                             verbose_name=_("club"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ADMIN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club__name", "user__username"]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_role_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club} – {self.user} ({self.role})"


class DistinctPlayers(models.Model):
    """A club or federation admin's decision that two records flagged as probable duplicates are
    two different people: the pair is not proposed again (``tournaments.near_duplicates``).
    ``first`` is the record with the smaller id."""

    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("players who are not the same person")
        verbose_name_plural = _("players who are not the same person")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="distinct_players_once"),
            models.CheckConstraint(condition=models.Q(first__lt=models.F("second")), name="distinct_players_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} ≠ {self.second_id}"


class AuditEntry(models.Model):
    """Who did what, when, with the state before and after (every result change, every
    registration change, every organizer correction)."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    actor_label = models.CharField(max_length=150, blank=True)  # survives user deletion
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    after = models.JSONField(null=True, blank=True, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_label} {self.action} {self.object_type}"


def default_invitation_expiry() -> dt.datetime:
    return timezone.now() + dt.timedelta(days=INVITATION_DAYS)


INVITATION_DAYS = 7


class Invitation(models.Model):
    """An organizer's invitation to become a referee or co-organizer of one tournament: a
    private link (256-bit token) that, once opened, sets a password for a new account or links
    the account already signed in. Used once; expires; revocable."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="invitations")
    role = models.CharField(_("role"), max_length=20, choices=TournamentRole.Role.choices)
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    email = models.EmailField(_("e-mail"), blank=True)
    note = models.CharField(_("for"), max_length=120, blank=True,
                            help_text=_("Who it is for (only organizers see it)."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=default_invitation_expiry)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.get_role_display()} @ {self.tournament}"

    def state(self, now: dt.datetime | None = None) -> str:
        """"open", "accepted", "revoked" or "expired"."""
        if self.accepted_at is not None:
            return "accepted"
        if self.revoked_at is not None:
            return "revoked"
        if (now or timezone.now()) >= self.expires_at:
            return "expired"
        return "open"


class IdempotentWrite(models.Model):
    """A write done once under a client's idempotency key, and the answer it got
    (tournaments/idempotency.py): a retry with the same key (the answer was lost on the way, the
    offline queue sends again) gets this answer instead of doing the write again."""

    owner = models.CharField(max_length=80)  # "user:<id>" or "session:<key>": keys are the client's
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)  # the request's method, path and body
    status = models.PositiveSmallIntegerField(default=0)  # 0: under way (its transaction is open)
    answer = models.JSONField(null=True, blank=True, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="idempotent_write_once")]
        verbose_name = _("idempotent write")
        verbose_name_plural = _("idempotent writes")

    def __str__(self) -> str:
        return f"{self.owner} {self.key} → {self.status}"
