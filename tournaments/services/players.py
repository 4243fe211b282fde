"""Players: who a registration names (found or created, never silently merged) and their national id."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import DomainError

from .. import audit
from ..dates import parse_date
from ..models import Club, Player, Registration, Tournament, normalise_name
from .clubs import club_name
from .guards import require_organizer


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
        self.club = club_name(self.club, field="club")
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
    from ..privacy import manages_player

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


@transaction.atomic
def set_national_id(registration: Registration, national_id: str, *, actor: Any) -> Player:
    """An organizer enters, corrects or clears (empty) the national id of a player registered
    for their tournament: the registration's own copy, and the Player record's only when they
    manage that player (``privacy.manages_player``), never one another organizer entered. Unique
    on the Player record: another player's id is refused (``DUPLICATE``)."""
    from ..privacy import manages_player

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
