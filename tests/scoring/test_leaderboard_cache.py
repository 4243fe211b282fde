"""The leaderboard's rows are rendered once per change of the standings (every phone in the
hall polls them): the cached rendering must never outlive a change, nor cross languages."""

from __future__ import annotations

import pytest

from tests.factories import scoring as f
from tests.publishing.laptop import standings_totals

pytestmark = pytest.mark.django_db


def test_cached_rows_follow_the_language_and_every_confirmation(client, setup) -> None:
    t = setup["t"]
    url = f"/t/{t.slug}/standings/"
    assert "Totale" in client.get(url, headers={"Accept-Language": "it"}).content.decode()
    english = client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert "Total" in english and "Totale" not in english

    data = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    f.enter(setup["table"], setup["ref1"], "board", data, ended_by="objective", confirm_by=setup["ref2"])
    partial = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "130" in standings_totals(partial)  # the winner's 100 + 30, at once: not the rendering cached before
