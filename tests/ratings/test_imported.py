"""An event imported from the clubs' workbook is rated, once: importing the same file again, or
rebuilding, changes nothing."""

from __future__ import annotations

import pytest

from ratings import services
from ratings.models import RatedGame, Rating
from tests.ratings.test_rating import snapshot
from tests.workbook.helpers import book, event
from workbook import importer
from workbook.files import write

pytestmark = pytest.mark.django_db


def test_an_imported_workbook_is_rated_once(django_capture_on_commit_callbacks) -> None:
    content = write(book(event(n_players=8, rounds=2)))
    with django_capture_on_commit_callbacks(execute=True):
        assert importer.import_workbook(content, "Open.xls").status == "imported"
    assert RatedGame.objects.count() == 16  # 8 players × 2 rounds, one row per seat
    assert set(Rating.objects.values_list("games", flat=True)) == {2}
    first = snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        importer.import_workbook(content, "Open.xls")
    assert snapshot() == first
    services.recompute()
    assert snapshot() == first
