"""The rating (Indice): determinism, ties, the provisional flag, an update after a confirmation
equal to a rebuild, a player with no games, an imported event counted once (docs/rating.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as hs

from ratings import selectors, services
from ratings.models import PROVISIONAL_BELOW, RatedGame, Rating, shown
from scoring.models import Confirmation, ResultSubmission, WorkbookEvent
from tables.models import Table
from tests.factories.scoring import (
    ScoringPlayerFactory,
    ScoringTournamentFactory,
    UserFactory,
    make_table,
)
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def result(table: Table, places: Sequence[int], *, confirm: bool = True) -> ResultSubmission:
    """The table's result: seat i+1 finished at ``places[i]`` (equal numbers: a shared place)."""
    seats = list(table.seats.order_by("number"))
    sub = ResultSubmission.objects.create(
        table=table, tournament=table.game.tournament, number=table.results.count() + 1,
        kind=ResultSubmission.Kind.SHORT, ended_by="sdadata",
        scores=[{"seat": s.number, "player": s.player_id, "place": place, "game_score": 0, "extra_objective": 0,
                 "armies": 0, "tournament_points": 10 - place, "tiebreak": None, "eliminated": False}
                for s, place in zip(seats, places, strict=True)])
    if confirm:
        Confirmation.objects.create(submission=sub, user=UserFactory(), by_organizer=True)
    return sub


def snapshot() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    return (list(Rating.objects.order_by("player").values_list("player", "mu", "sigma", "games", "rating")),
            list(RatedGame.objects.order_by("player", "key").values_list("player", "key", "table", "place", "mu", "sigma")))


# -------------------------------------------------------------- the model, without the database

tables_strategy = hs.lists(
    hs.lists(hs.tuples(hs.integers(0, 7), hs.integers(1, 4)), min_size=2, max_size=5,
             unique_by=lambda seat: seat[0]),
    min_size=1, max_size=12)


def rate_all(tables: list[list[tuple[int, int]]]) -> dict[int, tuple[float, float, int]]:
    state = services._State()
    for i, places in enumerate(tables):
        services._rate(selectors.TableGame(f"k{i:04d}", 1, i, tuple(places)), state)
    return {p: (r.mu, r.sigma, state.games[p]) for p, r in state.ratings.items()}


@settings(max_examples=40, deadline=None)
@given(tables_strategy)
def test_the_same_games_give_identical_ratings(tables: list[list[tuple[int, int]]]) -> None:
    assert rate_all(tables) == rate_all([list(t) for t in tables])
    assert sum(games for _mu, _sigma, games in rate_all(tables).values()) == sum(len(t) for t in tables)


@settings(max_examples=40, deadline=None)
@given(hs.integers(2, 5), hs.integers(1, 4))
def test_players_sharing_a_place_move_alike(size: int, place: int) -> None:
    """Newcomers tied on a place end with the same rating; whoever finished below ends lower."""
    places = [(p, place) for p in range(size)] + [(99, place + 1)]
    after = rate_all([places])
    assert len({after[p] for p in range(size)}) == 1
    assert shown(*after[99][:2]) < shown(*after[0][:2])


def test_a_newcomer_starts_at_1500_and_a_winner_rises() -> None:
    after = rate_all([[(1, 1), (2, 2), (3, 3), (4, 4)]])
    assert shown(25.0, 25 / 3) == 1500
    assert shown(*after[1][:2]) > shown(*after[2][:2]) > shown(*after[3][:2]) > shown(*after[4][:2])


# -------------------------------------------------------------- stored, from the results that count

def season() -> tuple[list[Player], list[Table]]:
    """Two events, 6 players, four-player tables; the later event's tables made first."""
    people = ScoringPlayerFactory.create_batch(6)
    late = ScoringTournamentFactory(date=dt.date(2026, 5, 2))
    early = ScoringTournamentFactory(date=dt.date(2026, 5, 1))
    tables = [make_table(late, 1, people[2:6]), make_table(late, 1, [people[0], people[1], None, None]),
              make_table(early, 1, people[0:4]), make_table(early, 2, people[1:5]), make_table(early, 2, [people[5], people[0]])]
    return people, tables


PLACES = [[1, 2, 3, 4], [2, 1, 3, 4], [1, 1, 3, 4], [4, 3, 2, 1], [1, 2]]


def test_updates_after_each_confirmation_equal_a_rebuild(django_capture_on_commit_callbacks) -> None:
    people, tables = season()
    for i in (3, 0, 4, 2, 1):  # confirmed out of order: later tables first, the later event first
        with django_capture_on_commit_callbacks(execute=True):
            result(tables[i], PLACES[i])
    incremental = snapshot()
    with django_capture_on_commit_callbacks(execute=True):  # a correction of an early table, confirmed
        result(tables[2], [2, 1, 3, 4])
    corrected = snapshot()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))
    assert snapshot() == corrected != incremental
    # the ghost seat is no one's: table 2 rates two players
    assert RatedGame.objects.filter(table=tables[1]).count() == 2
    assert Rating.objects.get(player=people[0]).games == 3


def test_unconfirmed_results_and_drafts_do_not_count() -> None:
    people, tables = season()
    result(tables[0], PLACES[0], confirm=False)
    Tournament.objects.filter(pk=tables[2].game.tournament_id).update(status=Tournament.Status.DRAFT)
    result(tables[2], PLACES[2])
    assert services.recompute() == 0
    assert not Rating.objects.exists()


def test_provisional_below_ten_games(client) -> None:
    a, b = ScoringPlayerFactory.create_batch(2)
    event = ScoringTournamentFactory()
    for game in range(1, PROVISIONAL_BELOW + 1):
        result(make_table(event, game, [a, b]), [1, 2] if game < PROVISIONAL_BELOW else [2, 1])
        if game == PROVISIONAL_BELOW - 1:
            services.recompute()
            assert Rating.objects.get(player=a).provisional
    services.recompute()
    rating = Rating.objects.get(player=a)
    assert rating.games == PROVISIONAL_BELOW and not rating.provisional
    body = client.get("/api/ratings/").json()
    assert [r["player"]["id"] for r in body["rows"]] == [a.pk, b.pk]
    assert body["rows"][0] == {"player": {"id": a.pk, "name": a.display_name, "club": ""},
                               "rating": rating.rating, "games": 10, "provisional": False}


def test_a_player_with_no_games(client) -> None:
    people, tables = season()
    result(tables[0], PLACES[0])
    services.recompute()
    idle = ScoringPlayerFactory()
    assert not Rating.objects.filter(player=idle).exists()
    assert client.get("/api/ratings/", {"q": idle.last_name}).json()["rows"] == []
    page = client.get(f"/players/{idle.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200 and "Indice" not in page.content.decode()


def test_an_imported_event_counts_once(django_capture_on_commit_callbacks) -> None:
    """A workbook's results are created in bulk; its import (and the same file read again)
    rates each table once."""
    people, tables = season()
    for i, places in enumerate(PLACES):
        result(tables[i], places)
    services.recompute()
    event = tables[2].game.tournament  # the earlier event: every table after it is rated again
    with django_capture_on_commit_callbacks(execute=True):
        WorkbookEvent.objects.create(tournament=event, event_id="RDN-1")
    first = snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        WorkbookEvent.objects.get(tournament=event).save()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))
    assert snapshot() == first
    assert RatedGame.objects.count() == sum(len([s for s in t.seats.all() if s.player_id]) for t in tables)


def _rated_season(capture) -> tuple[list[Player], list[Table]]:
    people, tables = season()
    with capture(execute=True):
        for i, places in enumerate(PLACES):
            result(tables[i], places)
    return people, tables


def _equals_a_rebuild() -> None:
    updated = snapshot()
    services.recompute()
    assert snapshot() == updated


def test_an_event_moved_to_another_date_is_rated_in_its_new_place(django_capture_on_commit_callbacks) -> None:
    _people, tables = _rated_season(django_capture_on_commit_callbacks)
    before = snapshot()
    early = tables[2].game.tournament
    with django_capture_on_commit_callbacks(execute=True):
        early.date = dt.date(2026, 5, 3)  # now after the other event
        early.save()
    assert snapshot() != before
    _equals_a_rebuild()


def test_a_deleted_event_leaves_the_ratings(django_capture_on_commit_callbacks) -> None:
    people, tables = _rated_season(django_capture_on_commit_callbacks)
    early, visitor = tables[2].game.tournament, ScoringPlayerFactory()  # who played only there
    with django_capture_on_commit_callbacks(execute=True):
        result(make_table(early, 3, [visitor, people[5]]), [1, 2])
    assert Rating.objects.get(player=visitor).games == 1
    with django_capture_on_commit_callbacks(execute=True):
        early.delete()
    assert not Rating.objects.filter(player=visitor).exists()
    assert Rating.objects.get(player=people[5]).games == 1  # the later event's table
    _equals_a_rebuild()


def test_a_game_made_a_rehearsal_leaves_the_ratings(django_capture_on_commit_callbacks) -> None:
    _people, tables = _rated_season(django_capture_on_commit_callbacks)
    game = tables[3].game
    with django_capture_on_commit_callbacks(execute=True):
        game.rehearsal = True
        game.save(update_fields=["rehearsal"])
    assert not RatedGame.objects.filter(table__game=game).exists()
    _equals_a_rebuild()


def test_two_rated_records_merged_are_one_players_rating(django_capture_on_commit_callbacks) -> None:
    from tournaments import merge

    people, tables = _rated_season(django_capture_on_commit_callbacks)
    born = dt.date(1980, 1, 2)
    keep = ScoringPlayerFactory(first_name="Mario", last_name="Rossi", birth_date=born)
    drop = ScoringPlayerFactory(first_name="Mario", last_name="Rossi", birth_date=born)
    late, early = tables[0].game.tournament, tables[2].game.tournament
    with django_capture_on_commit_callbacks(execute=True):
        result(make_table(early, 3, [keep, people[0]]), [1, 2])
        result(make_table(late, 2, [drop, people[1]]), [1, 2])
    with django_capture_on_commit_callbacks(execute=True):
        merge.merge_records(keep=keep.pk, drop=drop.pk, actor=None, tournament=None, allowed=lambda a, b: None)
    assert list(Rating.objects.filter(player=keep).values_list("games", flat=True)) == [2]
    _equals_a_rebuild()
