"""A result entered and confirmed as the referee and the organizer do it: the rating follows the
engine's places (a player eliminated earlier below one eliminated later) once it commits."""

from __future__ import annotations

import pytest

from ratings.models import RatedGame, Rating
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db

# two survivors (80 and 50 objective points), then the one eliminated second, then the first
ELIMINATIONS = f.short_data([(80, 20, 20, None, False), (50, 14, 20, None, False),
                             (0, 0, 0, 2, False), (0, 0, 0, 1, False)])


def test_a_confirmation_rates_the_table_in_the_engines_order(django_capture_on_commit_callbacks) -> None:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    people = f.players(t, 4)
    table = f.make_table(t, 1, people)
    with django_capture_on_commit_callbacks(execute=True):
        sub = f.enter(table, ref, "short", ELIMINATIONS)
    assert not Rating.objects.exists()  # entered, not yet confirmed
    with django_capture_on_commit_callbacks(execute=True):
        f.services.confirm_result(actor=org, submission=sub)
    places = dict(RatedGame.objects.filter(table=table).values_list("player_id", "place"))
    assert [places[p.pk] for p in people] == [1, 2, 3, 4]
    ratings = [Rating.objects.get(player=p).rating for p in people]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 4
