"""Writes of team events (K-TEAM), each authorised and audited: teams and their rosters (the
tournament's organizers), each round's starters (an organizer, or the team's captain through the
captain's private link)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import ConflictError, DomainError, PermissionDeniedError
from tables.models import Game, Seat
from tournaments import audit, formats
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.permissions import is_organizer, require_organizer

from . import selectors
from .models import Starter, Team, TeamMember

TEAMS_REFUSAL = gettext_lazy("Only an organizer of this tournament can change its teams.")
RULE = "K-TEAM"


def _require_rosters(tournament: Tournament) -> None:
    if selectors.mode(tournament) != selectors.ROSTER:
        raise DomainError(_("This tournament's format has no team rosters: choose the CNS (national team "
                            "championship) format first."), field="preset", rule=RULE)


def _snapshot(team: Team) -> dict[str, Any]:
    return {"name": team.name, "club": team.club_id, "captain": team.captain_id,
            "members": sorted(team.members.values_list("player_id", flat=True))}


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise DomainError(_("Give the team a name."), field="name", rule=RULE)
    if len(name) > 80:
        raise DomainError(_("A team's name has at most 80 characters."), field="name", rule=RULE)
    return name


def create_team(tournament: Tournament, *, actor: Any, name: str, club: Club | None = None) -> Team:
    """A new team of the tournament (organizer), with no players yet."""
    require_organizer(actor, tournament, TEAMS_REFUSAL)
    _require_rosters(tournament)
    name = _clean_name(name)
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise DomainError(_("There is already a team called %(name)s.") % {"name": name}, field="name", rule=RULE)
    team = Team.objects.create(tournament=tournament, name=name, club=club)
    audit.record(actor=actor, action="teams.create", obj=team, tournament=tournament, after=_snapshot(team))
    return team


def change_team(team: Team, *, actor: Any, name: str | None = None, captain: int | None = None,
                club: Club | None = None, clear_captain: bool = False) -> Team:
    """Rename a team, change its club, or make one of its members the captain (organizer)."""
    require_organizer(actor, team.tournament, TEAMS_REFUSAL)
    before = _snapshot(team)
    if name is not None:
        name = _clean_name(name)
        if Team.objects.filter(tournament=team.tournament, name__iexact=name).exclude(pk=team.pk).exists():
            raise DomainError(_("There is already a team called %(name)s.") % {"name": name}, field="name", rule=RULE)
        team.name = name
    if club is not None:
        team.club = club
    if captain is not None:
        if not team.members.filter(player_id=captain).exists():
            raise DomainError(_("The captain must be one of the team's players."), field="captain", rule=RULE)
        team.captain_id = captain
    elif clear_captain:
        team.captain = None
    team.save()
    audit.record(actor=actor, action="teams.change", obj=team, tournament=team.tournament, before=before,
                 after=_snapshot(team))
    return team


def add_member(team: Team, player: Player | int, *, actor: Any) -> TeamMember:
    """Put a registered player on the team's roster (organizer): at most 12, one team each."""
    require_organizer(actor, team.tournament, TEAMS_REFUSAL)
    pid = player if isinstance(player, int) else player.pk
    if not Registration.objects.active().filter(tournament=team.tournament, player_id=pid).exists():
        raise DomainError(_("Only a player registered in this tournament can join a team."), field="player", rule=RULE)
    before = _snapshot(team)
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        if team.members.count() >= formats.TEAM_ROSTER[1]:
            raise DomainError(_("A team has at most %(n)s players.") % {"n": formats.TEAM_ROSTER[1]},
                              field="player", rule=RULE)
        other = TeamMember.objects.filter(tournament=team.tournament, player_id=pid).select_related("team").first()
        if other is not None:
            raise DomainError(_("This player is already on the team %(team)s.") % {"team": other.team.name},
                              field="player", rule=RULE)
        try:
            member = TeamMember.objects.create(team=team, tournament=team.tournament, player_id=pid)
        except IntegrityError as exc:  # the same player added twice at once
            raise ConflictError(_("This player has just joined a team."), field="player", rule=RULE) from exc
        audit.record(actor=actor, action="teams.member_add", obj=team, tournament=team.tournament, before=before,
                     after=_snapshot(team))
    return member


def remove_member(team: Team, player: int, *, actor: Any) -> None:
    """Take a player off the roster (organizer); not once they have played for the team."""
    require_organizer(actor, team.tournament, TEAMS_REFUSAL)
    member = team.members.filter(player_id=player).first()
    if member is None:
        raise DomainError(_("This player is not on the team."), field="player", rule=RULE)
    if Seat.objects.filter(game__tournament=team.tournament, player_id=player).exclude(
            game__status=Game.Status.PLANNED).exists():
        raise DomainError(_("This player has already played for the team: their results stay with it."),
                          field="player", rule=RULE)
    before = _snapshot(team)
    with transaction.atomic():
        member.delete()
        Starter.objects.filter(team=team, player_id=player).delete()
        if team.captain_id == player:
            team.captain = None
            team.save(update_fields=["captain"])
        audit.record(actor=actor, action="teams.member_remove", obj=team, tournament=team.tournament,
                     before=before, after=_snapshot(team))


def may_name_starters(actor: Any, team: Team, token: str | None) -> bool:
    """An organizer of the tournament, or whoever holds the captain's private link."""
    if token and secrets.compare_digest(str(token), team.captain_token):
        return True
    return is_organizer(actor, team.tournament)


def _check_starters(team: Team, game_number: int, players: Sequence[int]) -> list[int]:
    chosen = sorted({int(p) for p in players})
    wanted = formats.TEAM_STARTERS
    if len(chosen) != len(list(players)):
        raise DomainError(_("Each starter is named once."), field="players", rule=RULE)
    if not 1 <= game_number <= team.tournament.games_count:
        raise DomainError(_("This tournament has no game %(n)s.") % {"n": game_number}, field="game", rule=RULE)
    members = set(team.members.values_list("player_id", flat=True))
    if set(chosen) - members:
        raise DomainError(_("Starters must be players of the team."), field="players", rule=RULE)
    if len(chosen) != min(wanted, len(members)):
        raise DomainError(_("Name %(n)s starters (the other players are substitutes).") % {"n": wanted},
                          field="players", rule=RULE)
    game = Game.objects.filter(tournament=team.tournament, number=game_number).first()
    if game is not None and game.status != Game.Status.PLANNED:
        raise ConflictError(_("Game %(n)s has already started: its starters can no longer change.")
                            % {"n": game_number}, field="game", rule=RULE)
    if game is not None and game.tables.exists():
        raise ConflictError(_("The tables of game %(n)s are already drawn: ask the organizer to draw them "
                              "again after changing the starters.") % {"n": game_number}, field="game", rule=RULE)
    return chosen


def set_starters(team: Team, game_number: int, players: Sequence[int], *, actor: Any,
                 token: str | None = None) -> list[int]:
    """Name the team's starters for one game (4 of its players; the others are substitutes), by an
    organizer or the captain, before that game's tables are drawn."""
    if not may_name_starters(actor, team, token):
        raise PermissionDeniedError(_("Only the team's captain or an organizer may name its starters."), rule="ROLE")
    chosen = _check_starters(team, game_number, players)
    before = selectors.starters(team, game_number)
    with transaction.atomic():
        Starter.objects.filter(team=team, game_number=game_number).delete()
        Starter.objects.bulk_create([Starter(team=team, game_number=game_number, player_id=p) for p in chosen])
        audit.record(actor=actor, action="teams.starters", obj=team, tournament=team.tournament,
                     before={"game": game_number, "starters": before},
                     after={"game": game_number, "starters": chosen, "by_captain": not is_organizer(actor, team.tournament)})
    return chosen


def new_captain_link(team: Team, *, actor: Any) -> Team:
    """A new captain's link; the old one stops working (organizer)."""
    require_organizer(actor, team.tournament, TEAMS_REFUSAL)
    team.captain_token = secrets.token_urlsafe(32)
    team.save(update_fields=["captain_token"])
    audit.record(actor=actor, action="teams.captain_link", obj=team, tournament=team.tournament)
    return team
