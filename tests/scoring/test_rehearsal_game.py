"""A rehearsal game ("partita di prova") is played and its results entered as usual, but they
never count: not in the standings, the national ranking's event rows, nor the clubs' workbook."""

from __future__ import annotations

import pytest

from ranking import event
from scoring import recompute, selectors
from tables import services as table_services
from tables.models import Game
from tests.factories import scoring as f
from workbook import export

pytestmark = pytest.mark.django_db


def _play(setup, table, winner: int):  # type: ignore[no-untyped-def]
    objectives = [s.objective for s in table.seats.order_by("number")]
    armies = [30] * 4
    armies[winner - 1] = 40
    data = f.board_data(objectives, winner=winner, armies=armies)
    return f.enter(table, setup["ref1"], "board", data, ended_by="objective", confirm_by=setup["ref2"])


def test_a_rehearsal_result_leaves_the_standings_unchanged(setup) -> None:
    t, ps = setup["t"], setup["players"]
    rehearsal = Game.objects.get(tournament=t, number=1)
    selectors.standings(t)  # cached before the game becomes a rehearsal: must not stay stale
    table_services.set_rehearsal(rehearsal, True, actor=setup["org"])
    _play(setup, setup["table"], winner=2)  # entered and confirmed as usual
    assert selectors.table_state(setup["table"]).status == selectors.CONFIRMED

    before = selectors.standings(t)
    assert all(r["played"] == 0 and r["total"] == 0 for r in before["rows"])
    assert 1 not in before["games"] and before["rehearsal_games"] == [1]

    real = f.make_table(t, 2, ps)
    _play(setup, real, winner=3)
    after = selectors.standings(t)
    top = after["rows"][0]
    assert top["player"] == ps[2].pk and top["played"] == 1
    assert all(c["game"] == 2 for r in after["rows"] for c in r["games"])

    recompute.invalidate(t.pk)  # the national ranking's path reads many tournaments at once
    many = selectors.standings_many([t])[t.pk]
    assert [(r["player"], r["total"]) for r in many["rows"]] == [(r["player"], r["total"]) for r in after["rows"]]

    ranking = event.event_ranking(t)
    assert ranking["table_games"] == 1
    assert [g["turno"] for g in ranking["games"]] == [1]  # game 2 is the event's first round


def test_the_national_ranking_counts_no_rehearsal_table(setup) -> None:
    from ranking import national
    from tournaments.models import Tournament

    t, ps = setup["t"], setup["players"]
    table_services.set_rehearsal(Game.objects.get(tournament=t, number=1), True, actor=setup["org"])
    _play(setup, setup["table"], winner=2)
    _play(setup, f.make_table(t, 2, ps), winner=3)
    assert national.table_games([t.pk]) == {t.pk: 1}
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED, event_type="CNI")
    t.refresh_from_db()
    found = [x for x in national._finished() if x[0].pk == t.pk]
    assert found and found[0][0].rehearsals == 1


def test_the_workbook_leaves_a_rehearsal_out(setup) -> None:
    t, ps = setup["t"], setup["players"]
    table_services.set_rehearsal(Game.objects.get(tournament=t, number=1), True, actor=setup["org"])
    _play(setup, setup["table"], winner=2)
    _play(setup, f.make_table(t, 2, ps), winner=3)
    event, _issues = export.event_of(t, organizer="MILANO [RCU]")
    assert [len(r.tables) for r in event.rounds] == [1]  # game 2, the workbook's round 1
    assert [r.number for r in event.rounds] == [1] and event.planned_rounds == t.games_count - 1
    result = export.export(t, organizer="MILANO [RCU]", write_file=False)
    assert result.checked.errors == [], [i.as_dict() for i in result.checked.errors]


def test_a_counted_game_still_counts(setup) -> None:
    _play(setup, setup["table"], winner=2)
    rows = selectors.standings(setup["t"])["rows"]
    assert rows[0]["player"] == setup["players"][1].pk and rows[0]["played"] == 1


def test_the_results_exports_label_a_rehearsal_table(client, setup) -> None:
    import csv
    import io

    from openpyxl import load_workbook

    t, ps = setup["t"], setup["players"]
    table_services.set_rehearsal(Game.objects.get(tournament=t, number=1), True, actor=setup["org"])
    _play(setup, setup["table"], winner=2)
    _play(setup, f.make_table(t, 2, ps), winner=3)
    resp = client.get(f"/t/{t.slug}/export/results.csv", HTTP_ACCEPT_LANGUAGE="it")
    head, *rows = list(csv.reader(io.StringIO(resp.content.decode("utf-8-sig")), delimiter=";"))
    column = head.index("Partita di prova")
    assert {r[0]: r[column] for r in rows} == {"1": "sì", "2": ""}  # game 1 the rehearsal, game 2 counts
    book = load_workbook(io.BytesIO(client.get(f"/t/{t.slug}/export/results.xlsx", HTTP_ACCEPT_LANGUAGE="en").content))
    head, *rows = list(book.active.iter_rows(values_only=True))
    column = head.index("Rehearsal game")
    assert {r[0]: r[column] for r in rows} == {1: "yes", 2: None}
