"""A tournament run in the app, exported as the clubs' workbook and imported into an empty
database, has the same standings; importing the same file again changes nothing; a changed file
replaces that event."""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import pytest
import xlrd
from django.core.management import call_command

from scoring import selectors
from scoring.models import WorkbookEvent
from tables.models import Game, Seat
from tests.factories import scoring as f
from tests.formats.test_phases import play
from tournaments.models import Player, Tournament
from workbook import export as wb_export
from workbook import importer, spec


def _event_in_app() -> Tournament:
    t = f.ScoringTournamentFactory(date=dt.date(2026, 5, 9), name="Open di primavera", venue="Sala civica")
    org, ref = f.role(t, "organizer"), f.role(t)
    t.event_type = "OPN"
    t.save()
    everyone = f.players(t, 8)
    for i, p in enumerate(everyone):
        p.birth_date = dt.date(1980 + i, 1 + i, 1 + i)
        p.save()
    for game in (1, 2, 3):
        order = everyone[game - 1:] + everyone[:game - 1]
        play(t, game, [order[:4], order[4:]], ref, org)
    return t


def _ranking(t: Tournament) -> list[tuple[str, int, float]]:
    names = {p.pk: p.full_name for p in Player.objects.all()}
    return [(names[r["player"]], r["rank"], float(r["total"])) for r in selectors.standings(t)["rows"] if r["played"]]


@pytest.mark.parametrize("fmt", ["xls", "xlsx"])
def test_export_then_import_on_an_empty_database_gives_the_same_standings(db: Any, tmp_path: Any, fmt: str) -> None:
    t = _event_in_app()
    wb_export.remember_organizer(t, "MILANO [RCU]")
    result = wb_export.export(t, fmt=fmt)
    assert result.ok, [i.line() for i in result.checked.errors]
    assert result.filename == f"20260509 - MILANO [RCU].{fmt}"
    expected = _ranking(t)
    if fmt == "xls":
        book = xlrd.open_workbook(file_contents=result.content)
        assert book.sheet_names() == ["TORNEO", "Iscritti", "1\u00b0 Turno", "2\u00b0 Turno", "3\u00b0 Turno",
                                      "Classifica Ridotta"]
        torneo = book.sheet_by_name("TORNEO")
        assert torneo.cell(4, 3).value == "Torneo Open" and torneo.cell(5, 3).value == 3.0
        assert torneo.cell(7, 3).ctype == xlrd.XL_CELL_DATE
        turno = book.sheet_by_name("1\u00b0 Turno")
        assert turno.cell(0, 0).value == "Tavolo N\u00b01" and turno.cell(1, 0).ctype == xlrd.XL_CELL_NUMBER
        assert book.sheet_by_name("Classifica Ridotta").nrows == 9

    # a fresh database: nothing of the event is left
    Seat.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    path = tmp_path / result.filename
    path.write_bytes(result.content)
    reports = importer.import_many(importer.workbook_paths([str(path)]))
    assert [r.status for r in reports] == ["imported"], [i.line() for r in reports for i in r.issues]
    imported = Tournament.objects.get()
    assert (imported.status, imported.event_type, imported.date) == ("finished", "OPN", dt.date(2026, 5, 9))
    assert _ranking(imported) == expected
    assert Game.objects.filter(tournament=imported).count() == 3

    # the same file again: nothing changes
    again = importer.import_many(importer.workbook_paths([str(path)]))
    assert [r.status for r in again] == ["unchanged"]
    assert Tournament.objects.count() == 1 and _ranking(imported) == expected

    # and the imported event exports to the same workbook content
    second = wb_export.export(imported, fmt=fmt)
    assert second.ok and second.event.standings == result.event.standings
    assert second.event.rounds == result.event.rounds


def test_a_changed_file_replaces_its_event(db: Any, tmp_path: Any) -> None:
    from workbook.event import to_book
    from workbook.files import write

    from .helpers import event

    ev = event(8, 2)
    path = tmp_path / "a.xls"
    path.write_bytes(write(to_book(ev)))
    assert importer.import_many([(str(path), path.read_bytes())])[0].status == "imported"
    slug = Tournament.objects.get().slug
    ev.name = "Torneo corretto"
    ev.standings = list(reversed(ev.standings))  # positions as written, even if odd
    path.write_bytes(write(to_book(ev)))
    report = importer.import_many([(str(path), path.read_bytes())])[0]
    assert report.status == "replaced"
    t = Tournament.objects.get()
    assert (t.slug, t.name) == (slug, "Torneo corretto")
    rows = selectors.standings(t)["rows"]
    assert [r["rank"] for r in rows] == [s.position for s in ev.standings]
    assert [r["total"] for r in rows] == [s.points for s in ev.standings]
    names = {p.pk: (p.first_name, p.last_name) for p in Player.objects.all()}
    assert [names[r["player"]] for r in rows] == [(f"Nome{s.id}", f"Cognome{s.id}") for s in ev.standings]
    assert WorkbookEvent.objects.get().event_id == "20250301 - ROMA [Il Gufo]"


def test_the_command_exports_to_a_folder_and_refuses_an_event_the_ranking_would_refuse(
        db: Any, tmp_path: Any, capsys: Any) -> None:
    t = _event_in_app()
    call_command("export_workbook", t.slug, str(tmp_path))
    written = os.listdir(tmp_path)
    assert len(written) == 1 and written[0].endswith(".xls")
    # a table without a confirmed result: exit 2 with the reason, nothing written
    org, ref = f.role(t, "organizer"), f.role(t)
    everyone = list(Player.objects.order_by("pk"))
    play(t, 4, [everyone[:4]], ref, org)
    f.make_table(t, 4, everyone[4:], number=2)
    with pytest.raises(SystemExit) as stop:
        call_command("export_workbook", t.slug, str(tmp_path / "x.xls"))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "WB-RESULT" in err and "Round 4, table 2 has no confirmed result" in err
    assert not (tmp_path / "x.xls").exists()
    assert spec.round_sheet(4) in err


def test_an_import_tells_the_national_ranking_which_year_changed(
        db: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> None:
    from ranking import national
    from workbook.event import to_book
    from workbook.files import write

    from .helpers import event

    asked: list[int] = []
    monkeypatch.setattr(national, "request_update", asked.append)
    with django_capture_on_commit_callbacks(execute=True):
        report = importer.import_workbook(write(to_book(event())), "a.xls")
    assert report.status == "imported" and asked == [2025]
    with django_capture_on_commit_callbacks(execute=True):
        assert importer.import_workbook(write(to_book(event())), "a.xls").status == "unchanged"
    assert asked == [2025]  # nothing changed: nothing to recompute


@pytest.mark.parametrize("fmt", ["xls", "xlsx"])
def test_a_tournament_exported_and_imported_on_the_same_site_stays_one_tournament(db: Any, fmt: str) -> None:
    t = _event_in_app()
    wb_export.remember_organizer(t, "MILANO [RCU]")
    result = wb_export.export(t, fmt=fmt)
    assert WorkbookEvent.objects.get(tournament=t).event_id == "20260509 - MILANO [RCU]"
    expected = _ranking(t)
    games = Game.objects.filter(tournament=t).count()

    report = importer.import_workbook(result.content, result.filename)
    assert (report.status, report.tournament) == ("unchanged", t.slug), [i.line() for i in report.issues]
    assert Tournament.objects.count() == 1 and _ranking(t) == expected
    assert Game.objects.filter(tournament=t).count() == games

    # the file edited after the export: refused, the tournament run here is left as it is
    from workbook.event import to_book
    from workbook.files import write

    edited = result.event
    edited.name = "Altro nome"
    report = importer.import_workbook(write(to_book(edited), fmt), result.filename)
    assert report.status != "replaced" and report.errors
    assert "run on this site" in report.errors[0].line()
    assert Tournament.objects.count() == 1 and Tournament.objects.get().name == "Open di primavera"
    assert _ranking(t) == expected


def test_a_folder_asks_the_ranking_once_per_year_not_once_per_file(
        db: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> None:
    from ranking import national
    from workbook.event import to_book
    from workbook.files import write

    from .helpers import event

    asked: list[int] = []
    monkeypatch.setattr(national, "request_update", asked.append)
    files = [(f"{n}.xls", write(to_book(event(organizer=f"CLUB {n}")))) for n in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        reports = importer.import_many(files)
    assert [r.status for r in reports] == ["imported"] * 3
    assert asked == [2025]
