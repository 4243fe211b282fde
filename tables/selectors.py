"""Careful reads of games, tables and seats (no writes here: see ``tables/services.py``).

The history of earlier games (K-TABLES) comes from their ``Seat`` rows; who won a table (and the
finishing order, for "alla greca" seeding) comes from scoring/ once it records results, read
through ``tables.hooks.results`` (tables never imports scoring) by :func:`table_finishing_orders`,
so composition works before any result exists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import MappingProxyType
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from tables import hooks
from tables.models import Colour, Game, Seat, Table
from tables.seating import History, SeatingPlayer, odd_sized
from tournaments.models import CheckIn, Player, Registration, Tournament, normalise_name


def game_of(tournament: Tournament, number: int) -> Game | None:
    return Game.objects.filter(tournament=tournament, number=number).select_related(
        "tournament"
    ).first()


def tables_of(game: Game) -> QuerySet[Table]:
    """The game's tables in order, each with its seats (turn order) and their players/clubs."""
    seats = Seat.objects.select_related("player", "player__club").order_by("number")
    return (
        Table.objects.filter(game=game)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )


def table_of(game: Game, number: int) -> Table | None:
    return tables_of(game).filter(number=number).first()


class PublicClub:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class PublicPlayer:
    """What a public page shows of a seated player: name, nickname and club, nothing else (the
    name rules are the model's own properties)."""

    __slots__ = ("pk", "first_name", "last_name", "nickname", "club")
    full_name = Player.full_name
    display_name = Player.display_name

    def __init__(self, pk: int, first_name: str, last_name: str, nickname: str,
                 club: PublicClub | None) -> None:
        self.pk, self.first_name, self.last_name = pk, first_name, last_name
        self.nickname, self.club = nickname, club


class PublicSeat:
    __slots__ = ("number", "colour", "colour_label", "player")

    def __init__(self, number: int, colour: str, colour_label: str,
                 player: PublicPlayer | None) -> None:
        self.number, self.colour, self.colour_label, self.player = (
            number, colour, colour_label, player)


def public_tables(game: Game, *, numbers: Sequence[int] | None = None, offset: int = 0,
                  limit: int | None = None) -> list[Table]:
    """The game's tables in order for the public tables page, each with ``public_seats`` (turn
    order): those numbered ``numbers``, or ``limit`` of them from ``offset`` (a page), or all.
    Two queries and plain rows for the seats: a 125-table game built 1,600 model objects (seat,
    player, club) per request, 85% of the page's database time."""
    chosen = Table.objects.filter(game=game).order_by("number").defer("deal", "closure_state")
    if numbers is not None:
        chosen = chosen.filter(number__in=list(numbers))
    tables = list(chosen[offset:offset + limit] if limit is not None else chosen[offset:])
    by_id: dict[int, list[PublicSeat]] = {t.pk: [] for t in tables}
    labels = {value: str(label) for value, label in Colour.choices}
    clubs: dict[str, PublicClub] = {}
    seats = Seat.objects.filter(game=game) if numbers is None and limit is None else Seat.objects.filter(
        table_id__in=list(by_id))
    rows = (
        seats.order_by("table_id", "number")
        .values_list("table_id", "number", "colour", "player_id", "player__first_name",
                     "player__last_name", "player__nickname", "player__club__name")
    )
    for table_id, number, colour, player_id, first, last, nickname, club in rows:
        player = None
        if player_id is not None:
            club_row = None if club is None else clubs.setdefault(club, PublicClub(club))
            player = PublicPlayer(player_id, first, last, nickname, club_row)
        if table_id in by_id:
            by_id[table_id].append(PublicSeat(number, colour, labels.get(colour, colour), player))
    for table in tables:
        table.public_seats = by_id[table.pk]  # type: ignore[attr-defined]
    return tables


def checked_in_players(tournament: Tournament, game_number: int) -> list[Player]:
    """Players registered (not waitlisted or withdrawn) and checked in for this game, by id."""
    ids = CheckIn.objects.filter(
        registration__in=Registration.objects.active().filter(tournament=tournament),
        game_number=game_number,
    ).values_list("registration__player_id", flat=True)
    return list(Player.objects.filter(pk__in=ids).select_related("club").order_by("pk"))


def seated_tables(games: Iterable[Game]) -> dict[int, list[list[int]]]:
    """{game id: [[player ids of table 1 in seat order], …]} for the given games (ghosts left out)."""
    out: dict[int, dict[int, list[int]]] = {}
    rows = (
        Seat.objects.filter(game__in=list(games), player__isnull=False)
        .order_by("game_id", "table__number", "number")
        .values_list("game_id", "table__number", "player_id")
    )
    for game_id, table_number, player_id in rows:
        out.setdefault(game_id, {}).setdefault(table_number, []).append(player_id)
    return {g: [tables[n] for n in sorted(tables)] for g, tables in out.items()}


def table_finishing_orders(game: Game) -> dict[int, list[int]]:
    """{table number: player ids in finishing order, winner first} for the tables of ``game``
    whose result counts (the confirmed one, or the latest when the organizer publishes
    unconfirmed results): the same result the standings use."""
    out: dict[int, list[int]] = {}
    for table, scores in hooks.results.counting_scores(game.tournament, game):
        ranked = sorted(
            (s for s in scores if s.get("player")),
            key=lambda s: (float(s["place"]), int(s["seat"])),
        )
        out[table.number] = [int(s["player"]) for s in ranked]
    return out


def standings_positions(tournament: Tournament) -> dict[int, int]:
    """{player id: rank (1 = leader)} for Swiss and alla-greca seeding, from scoring's standings
    (players who have played)."""
    rows = hooks.results.standings_rows(tournament)
    return {int(r["player"]): int(r["rank"]) for r in rows if r.get("played") and r.get("rank") is not None}


def history_before(game: Game) -> History:
    """What the earlier games of the tournament did (K-TABLES; a rehearsal game is left out, its
    meetings do not count): every earlier table, who won a
    table, who sat at a table of 5 (or 3/6) in a game that also had tables of 4, and the last
    game's tables in finishing order (seat order when its results are not known)."""
    earlier = list(
        Game.objects.filter(tournament_id=game.tournament_id, number__lt=game.number, rehearsal=False)
        .order_by("number")
    )
    by_game = seated_tables(earlier)
    all_tables: list[tuple[int, ...]] = []
    winners: set[int] = set()
    fives: dict[int, int] = {}
    previous: tuple[tuple[int, ...], ...] = ()
    for g in earlier:
        tables = by_game.get(g.pk, [])
        if not tables:
            continue
        finishing = table_finishing_orders(g)
        odd = odd_sized([len(t) for t in tables])  # 5- or 3-seats among 4s, a bye among pairs
        ordered = []
        for number, members in enumerate(tables, start=1):
            order = finishing.get(number)
            if order and set(order) == set(members):
                winners.add(order[0])
                members = list(order)
            ordered.append(tuple(members))
            if odd[number - 1]:
                for pid in members:
                    fives[pid] = fives.get(pid, 0) + 1
        all_tables += ordered
        previous = tuple(ordered)
    return History(
        tables=tuple(all_tables),
        winners=frozenset(winners),
        five_seaters=MappingProxyType(fives),
        previous_tables=previous,
        teams=MappingProxyType(hooks.teams.teams_of(game.tournament)),
    )


def seating_players(
    players: Iterable[Player], *, by_region: bool = False, standings: dict[int, int] | None = None,
    teams: dict[int, str] | None = None,
) -> list[SeatingPlayer]:
    """Players as the seating search sees them: club (or region at national events), standing
    and, at a team event, team."""
    standings, teams = standings or {}, teams or {}
    out = []
    for p in players:
        club = p.club.name if p.club_id else None
        region = (p.club.region or None) if p.club_id and by_region else None
        out.append(SeatingPlayer(p.pk, club=club, region=region, standing=standings.get(p.pk),
                                 team=teams.get(p.pk)))
    return out


def find_seats(game: Game, query: str) -> list[Seat]:
    """"Where do I sit": seats of ``game`` whose player's name or nickname matches ``query``
    (case, accents and word order do not matter; at least 2 characters)."""
    words = normalise_name(query).split()
    if not words or len("".join(words)) < 2:
        return []
    cond = Q()
    for word in words:
        cond &= Q(player__normalised_name__contains=word) | Q(player__nickname__icontains=word)
    return list(
        Seat.objects.filter(game=game, player__isnull=False)
        .filter(cond)
        .select_related("player", "player__club", "table")
        .order_by("player__last_name", "player__first_name")[:50]
    )


def tables_count(game: Game) -> int:
    return Table.objects.filter(game=game).count()


def table_index(game: Game, number: int) -> int:
    """How many of the game's tables come before table ``number`` (its place on the page)."""
    return Table.objects.filter(game=game, number__lt=number).count()


def seat_of(game: Game, player: Player | int) -> Seat | None:
    pid = player if isinstance(player, int) else player.pk
    return Seat.objects.filter(game=game, player_id=pid).select_related("table", "player").first()


def deal_by_continent(table: Table) -> dict[int, list[tuple[str, list[str]]]]:
    """{seat number: [(continent, [territories…]), …]} of the table's deal, in map order."""
    from engine import load_board

    board = load_board("world")
    deal: dict[str, Any] = table.deal or {}
    out: dict[int, list[tuple[str, list[str]]]] = {}
    for seat in {int(s) for s in deal.values()}:
        rows = []
        for name, continent in board.continents.items():
            mine = [t for t in continent.territories if int(deal.get(t, 0)) == seat]
            if mine:
                rows.append((name, mine))
        out[seat] = rows
    return out
