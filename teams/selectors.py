"""Reads of team events (never writes): the tournament's team mode, its teams and rosters, the
starters of a game and the team standings, computed from the players' counted results."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from scoring import selectors as scoring_selectors
from tournaments.models import Player, Registration, Tournament

from . import standings as team_standings
from .models import Starter, Team, TeamMember

ROSTER, CLUB = "roster", "club"


def mode(tournament: Tournament) -> str:
    """"roster" (CNS), "club" (a club team tournament) or "" (not a team event)."""
    preset = tournament.event_format().preset_obj
    return preset.teams if preset is not None else ""


@dataclass
class TeamView:
    """A team as the pages and the API show it: a roster team's row, or a club as a team."""

    id: int
    name: str
    club: str = ""
    captain: int | None = None
    members: list[Player] = field(default_factory=list)
    row: Team | None = None


def teams(tournament: Tournament) -> list[TeamView]:
    """The tournament's teams, by name, each with its members (by name)."""
    kind = mode(tournament)
    if kind == ROSTER:
        rows = Team.objects.filter(tournament=tournament).select_related("club").prefetch_related("members__player__club")
        return [TeamView(t.pk, t.name, t.club.name if t.club_id else "", t.captain_id,
                         sorted((m.player for m in t.members.all()), key=_name), t) for t in rows]
    if kind == CLUB:
        clubs: dict[int, TeamView] = {}
        regs = Registration.objects.active().filter(tournament=tournament, player__club__isnull=False)
        for reg in regs.select_related("player__club"):
            club = reg.player.club
            clubs.setdefault(club.pk, TeamView(club.pk, club.name, club.name)).members.append(reg.player)
        for view in clubs.values():
            view.members.sort(key=_name)
        return sorted(clubs.values(), key=lambda v: (v.name.casefold(), v.id))
    return []


def _name(p: Player) -> tuple[str, str]:
    return (p.last_name.casefold(), p.first_name.casefold())


def team(tournament: Tournament, pk: int) -> TeamView | None:
    return next((t for t in teams(tournament) if t.id == pk), None)


def team_of_players(tournament: Tournament) -> dict[int, TeamView]:
    """{player id: their team}."""
    return {p.pk: t for t in teams(tournament) for p in t.members}


def starters(team_row: Team, game_number: int) -> list[int]:
    """The player ids the team named for ``game_number`` (empty: not named yet)."""
    return sorted(Starter.objects.filter(team=team_row, game_number=game_number).values_list("player_id", flat=True))


def starters_by_game(team_row: Team) -> dict[int, list[int]]:
    out: dict[int, list[int]] = defaultdict(list)
    for number, player in Starter.objects.filter(team=team_row).order_by("game_number", "player_id").values_list(
            "game_number", "player_id"):
        out[number].append(player)
    return dict(out)


def starters_of_game(tournament: Tournament, game_number: int) -> dict[int, list[int]]:
    """{team id: starters} of every roster team for ``game_number`` (teams that named none are absent)."""
    out: dict[int, list[int]] = defaultdict(list)
    for team_id, player in Starter.objects.filter(team__tournament=tournament, game_number=game_number).values_list(
            "team_id", "player_id"):
        out[team_id].append(player)
    return dict(out)


def member_team_ids(tournament: Tournament) -> dict[int, int]:
    return dict(TeamMember.objects.filter(tournament=tournament).values_list("player_id", "team_id"))


def results_by_team(tournament: Tournament) -> tuple[list[TeamView], dict[int, list[team_standings.TeamResult]]]:
    """The teams and the counted results of their players (every game that counts)."""
    views = teams(tournament)
    owner = {p.pk: t.id for t in views for p in t.members}
    out: dict[int, list[team_standings.TeamResult]] = {t.id: [] for t in views}
    for r in scoring_selectors.game_results(scoring_selectors.counted_results(tournament)):
        if r.player in owner:
            out[owner[r.player]].append(team_standings.TeamResult(r.player, r.game, r.table, r.points, r.place == 1))
    return views, out


def standings(tournament: Tournament) -> dict[str, Any]:
    """The team standings: each team's position, best-9 total, every result's total, wins and
    the results counted (player, game, table, score), best first; also the names the pages need."""
    views, results = results_by_team(tournament)
    by_id = {t.id: t for t in views}
    ranked = team_standings.rank(results, order=[t.id for t in views])
    full = {p.pk: p.display_name for t in views for p in t.members}
    rows = []
    for row in ranked:
        view = by_id[row.team]
        rows.append({
            "position": row.position, "shared": row.shared,
            "team": {"id": view.id, "name": view.name}, "club": view.club,
            "total": row.total, "total_all": row.total_all, "wins": row.wins,
            "tiebreak": row.tiebreak,
            "counted": [_result(r, full) for r in row.counted],
            "results": [_result(r, full) | {"counted": k < len(row.counted)}
                        for k, r in enumerate(row.results)],
        })
    return {"mode": mode(tournament), "best": team_standings.BEST, "rows": rows}


def _result(r: team_standings.TeamResult, full: dict[int, str]) -> dict[str, Any]:
    return {"player": r.player, "player_name": full.get(r.player, ""),
            "game": r.game, "table": r.table, "score": r.score}
