"""The rating's writes: replay the tables from a point of the rating's order on.

One operation serves both the full rebuild (``recompute``: from the start) and the update after
a confirmation (``update_from``: from the confirmed table on): every player's state just before
that point is read back from their last history row, the history from that point is dropped and
the tables from that point are rated again in order. The same tables in the same order give the
same floating-point operations, so an update equals a rebuild (tests/ratings)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from openskill.models import PlackettLuce, PlackettLuceRating

from . import selectors
from .models import RatedGame, Rating, shown

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): one model for the instance.
MODEL = PlackettLuce()
# Two updates at once (two workers) take turns: each reads the history the other writes.
LOCK = 0x52415447  # "RATG"


class _State:
    def __init__(self) -> None:
        self.ratings: dict[int, PlackettLuceRating] = {}
        self.games: dict[int, int] = {}

    def rating(self, player: int) -> PlackettLuceRating:
        if player not in self.ratings:
            self.ratings[player] = MODEL.rating()
            self.games[player] = 0
        return self.ratings[player]


def _state_before(start: str, players: Iterable[int]) -> _State:
    """Each of ``players``'s rating and games before ``start``, from their history."""
    state = _State()
    ids = list(players)
    if not start or not ids:
        return state
    for player, mu, sigma in (RatedGame.objects.filter(player__in=ids, key__lt=start).order_by("player", "key")
                              .values_list("player_id", "mu", "sigma")):
        state.ratings[player] = MODEL.rating(mu=mu, sigma=sigma)
        state.games[player] = state.games.get(player, 0) + 1
    return state


def _rate(table: selectors.TableGame, state: _State) -> list[RatedGame]:
    """One table: every player a team of one, ranked by place (a shared place is a tie)."""
    players = [p for p, _place in table.places]
    teams = [[state.rating(p)] for p in players]
    after = MODEL.rate(teams, ranks=[float(place) for _p, place in table.places])
    rows = []
    for (player, place), (new,) in zip(table.places, after, strict=True):
        state.ratings[player] = new
        state.games[player] += 1
        rows.append(RatedGame(player_id=player, key=table.key, tournament_id=table.tournament_id,
                              table_id=table.table_id, place=place, mu=new.mu, sigma=new.sigma,
                              rating=shown(new.mu, new.sigma)))
    return rows


@transaction.atomic
def update_from(start: str, players: Iterable[int] = ()) -> int:
    """Rate again every table at or after ``start`` (the empty key: all of them), and rebuild
    ``players``'s ratings too (their history may be gone: a deleted event's); returns how many
    tables were rated."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])
    tables = selectors.tables_from(start)
    dropped = RatedGame.objects.filter(key__gte=start)
    touched = set(dropped.values_list("player_id", flat=True).distinct()) | set(players)
    touched.update(p for t in tables for p, _place in t.places)
    state = _state_before(start, touched)
    dropped.delete()
    rows: list[RatedGame] = []
    for table in tables:
        rows.extend(_rate(table, state))
    RatedGame.objects.bulk_create(rows, batch_size=2000)
    if start:
        Rating.objects.filter(player__in=touched).delete()
    else:
        Rating.objects.all().delete()
    Rating.objects.bulk_create(
        [Rating(player_id=p, mu=r.mu, sigma=r.sigma, games=state.games[p], rating=shown(r.mu, r.sigma))
         for p, r in sorted(state.ratings.items()) if state.games[p]], batch_size=2000)
    return len(tables)


def recompute() -> int:
    """Rebuild every rating from every table, in order (``manage.py recompute_ratings``)."""
    return update_from("")
