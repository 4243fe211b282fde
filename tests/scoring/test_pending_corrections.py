"""A confirmed result with a newer, unconfirmed version (a correction) is marked on the
leaderboard, the organizer's results page and the standings API until it is confirmed; the
confirmed result keeps counting meanwhile."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring import recompute, selectors
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


def _correct(setup, confirm: bool):  # type: ignore[no-untyped-def]
    first = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    f.enter(setup["table"], setup["ref1"], "board", first, ended_by="objective", confirm_by=setup["ref2"])
    second = f.board_data(setup["objectives"], winner=3, armies=[30, 30, 40, 30])
    return f.enter(setup["table"], setup["ref1"], "board", second, ended_by="objective",
                   confirm_by=setup["ref2"] if confirm else None)


def _row(data, player):  # type: ignore[no-untyped-def]
    return next(r for r in data["rows"] if r["player"] == player.pk)


def test_the_leaderboard_marks_a_pending_correction_in_italian_and_english(client, setup) -> None:
    t, winner = setup["t"], setup["players"][1]
    url = f"/t/{t.slug}/standings/"
    client.get(url)  # standings cached before the correction: must not stay stale
    _correct(setup, confirm=False)
    italian = client.get(url, headers={"Accept-Language": "it"}).content.decode()
    assert '<small class="pending-correction"' in italian and "correzione in attesa" in italian
    assert "Una correzione del risultato della partita 1 è in attesa di conferma" in italian
    english = client.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert '<small class="pending-correction"' in english and "correction pending" in english
    assert "A correction of the result of game 1 is waiting for confirmation" in english
    data = selectors.standings(t)
    assert _row(data, winner)["total"] > _row(data, setup["players"][2])["total"]  # still the confirmed one


def test_the_api_field_and_the_mark_go_once_the_correction_is_confirmed(client, setup) -> None:
    t = setup["t"]
    api = f"/api/scoring/tournaments/{t.slug}/standings/"
    _correct(setup, confirm=False)
    rows = APIClient().get(api, HTTP_ACCEPT_LANGUAGE="en").json()["rows"]
    assert all(r["pending_corrections"] == [1] for r in rows)
    assert "waiting for confirmation" in rows[0]["pending_correction_note"]

    latest = selectors.table_state(setup["table"]).latest
    from scoring import services
    services.confirm_result(actor=setup["ref2"], submission=latest)
    rows = APIClient().get(api).json()["rows"]
    assert all(r["pending_corrections"] == [] and r["pending_correction_note"] == "" for r in rows)
    third = _row(selectors.standings(t), setup["players"][2])
    assert third["rank"] == 1  # the confirmed correction now counts
    page = client.get(f"/t/{t.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    assert "pending-correction" not in page and "correction pending" not in page


def test_the_organizer_results_page_marks_the_table(client, setup) -> None:
    t = setup["t"]
    _correct(setup, confirm=False)
    client.force_login(setup["org"])
    page = client.get(f"/t/{t.slug}/results/", headers={"Accept-Language": "it"}).content.decode()
    assert 'class="badge pending-correction"' in page and "correzione in attesa" in page
    services_confirm(setup)
    page = client.get(f"/t/{t.slug}/results/", headers={"Accept-Language": "it"}).content.decode()
    assert "pending-correction" not in page


def services_confirm(setup) -> None:  # type: ignore[no-untyped-def]
    from scoring import services
    services.confirm_result(actor=setup["ref2"], submission=selectors.table_state(setup["table"]).latest)


def test_a_first_unconfirmed_entry_is_not_a_correction(setup) -> None:
    f.enter(setup["table"], setup["ref1"], "board",
            f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30]), ended_by="objective")
    assert not selectors.table_state(setup["table"]).pending_correction
    assert all(r["pending_corrections"] == [] for r in selectors.standings(setup["t"])["rows"])


def test_standings_many_marks_the_same_players(setup) -> None:
    _correct(setup, confirm=False)
    recompute.invalidate(setup["t"].pk)
    many = selectors.standings_many([setup["t"]])[setup["t"].pk]
    assert sorted(r["player"] for r in many["rows"] if r["pending_corrections"] == [1]) == sorted(
        p.pk for p in setup["players"])
