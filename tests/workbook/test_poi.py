"""The clubs' validator reads our workbook with Apache POI and writes it back after every check
(it opens, checks one sheet, writes the file, and opens it again for the next check: five times,
then once more to read the event). Every workbook the app exports must come out of that with every
sheet and every cell as we wrote them.

The real thing runs here: Debian's Apache POI (``libapache-poi-java``, jars in /usr/share/java)
driven by ``tests/workbook/poi/RoundTrip.java`` (compiled once per run with the JDK's ``javac``).
Without Java or POI the tests are skipped, and under ``CI=true`` a skip is a failure (conftest.py);
``.ci/run`` installs both.

Each event kind is one entry of ``EVENTS``; a team event gets its builder there once the app
runs team events. Only the .xls is sent through POI: Debian's POI 4.0.1 ships its OOXML schemas
as a stub (``poi-ooxml-schemas.jar`` lacks the type system), so it cannot open any .xlsx, ours or
anyone's (docs/workbook.md).
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tables import phases
from tests.factories import scoring as f
from tests.formats.test_phases import enter_results
from tests.formats.test_phases import play as play_with_winners
from tests.workbook.test_round_trip import _event_in_app
from tournaments.models import Season, Tournament
from workbook import export as wb_export
from workbook.book import DATE, NUMBER, TEXT, Book
from workbook.files import open_book, write

from .helpers import book, event

JARS = Path("/usr/share/java")
# What POI's HSSF (.xls) needs on the class path: Debian's libapache-poi-java and its Depends.
CLASS_PATH = ("poi.jar", "commons-collections4.jar", "commons-math3.jar", "commons-codec.jar")
SOURCE = Path(__file__).parent / "poi" / "RoundTrip.java"
REWRITES = 5  # the validator's five opens and writes (ExcelValidator), then one read


@pytest.fixture(scope="module")
def poi(tmp_path_factory: Any) -> Callable[[bytes], list[dict[str, Any]]]:
    """``poi(content)``: the cells of the .xls after the validator's rewrites, as POI reads them."""
    java, javac = shutil.which("java"), shutil.which("javac")
    missing = [jar for jar in CLASS_PATH if not (JARS / jar).exists()]
    if java is None or javac is None or missing:
        pytest.skip("needs a JDK (default-jdk-headless) and Debian's libapache-poi-java "
                    f"(missing: {'java/javac ' if java is None or javac is None else ''}{' '.join(missing)})")
    classes = tmp_path_factory.mktemp("poi-classes")
    class_path = ":".join(str(JARS / jar) for jar in CLASS_PATH)
    subprocess.run([javac, "-nowarn", "-cp", class_path, "-d", str(classes), str(SOURCE)], check=True,
                   capture_output=True, timeout=120)

    def round_trip(content: bytes) -> list[dict[str, Any]]:
        work = tmp_path_factory.mktemp("poi-round-trip")
        original = work / "event.xls"
        original.write_bytes(content)
        done = subprocess.run([java, "-cp", f"{class_path}:{classes}", "RoundTrip", str(original), str(work),
                               str(REWRITES)], capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
        return [json.loads(line) for line in done.stdout.decode().splitlines()]

    return round_trip


def _as_written(content: bytes) -> tuple[list[str], dict[tuple[str, int, int], tuple[str, Any]]]:
    """Sheets and cells of our file, read back by the app's own reader."""
    read: Book = open_book(content, "event.xls")
    cells = {(sheet.name, r, c): (cell.kind, cell.value)
             for sheet in read.sheets for r, row in sheet.rows.items() for c, cell in row.items()}
    return [s.name for s in read.sheets], cells


def _as_poi_keeps_it(lines: list[dict[str, Any]]) -> tuple[list[str], dict[tuple[str, int, int], tuple[str, Any]]]:
    kinds = {"STRING": TEXT, "NUMERIC": NUMBER}
    sheets = [line["sheet"] for line in lines if "index" in line]
    cells = {}
    for line in lines:
        if "row" in line:
            kind = DATE if line.get("date") else kinds.get(line["type"], line["type"])
            value = float(line["value"]) if line["type"] == "NUMERIC" else line["value"]
            cells[(line["sheet"], line["row"], line["col"])] = (kind, value)
    return sheets, cells


def assert_survives_poi(poi: Callable[[bytes], list[dict[str, Any]]], content: bytes) -> None:
    sheets, cells = _as_written(content)
    assert sheets and cells
    after_sheets, after_cells = _as_poi_keeps_it(poi(content))
    assert after_sheets == sheets, f"after {REWRITES} POI rewrites: {after_sheets}"
    lost = {k: v for k, v in cells.items() if after_cells.get(k) != v}
    assert not lost, f"{len(lost)} cells changed by POI, e.g. {sorted(lost.items())[:5]} -> " \
                     f"{[after_cells.get(k) for k in sorted(lost)[:5]]}"
    assert after_cells == cells  # and nothing added


# ------------------------------------------------------------------ the events the app exports
def _exported(t: Tournament) -> bytes:
    wb_export.remember_organizer(t, "MILANO [RCU]")
    result = wb_export.export(t, fmt="xls")
    assert result.ok, [i.line() for i in result.checked.errors]
    return result.content


def _demo() -> Tournament:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Tournament.objects.get(slug="demo")


def _season_evening() -> Tournament:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Season.objects.get().evenings.order_by("date").first()


def _master_with_finals() -> Tournament:
    """20 players: two qualifiers, the semifinals, the final (K-KO-RCU)."""
    from scoring import services

    t: Any = f.ScoringTournamentFactory(date=dt.date(2026, 6, 6), name="Master d'estate")
    org, ref = f.role(t, "organizer"), f.role(t)
    everyone = f.players(t, 20)
    for i, p in enumerate(everyone):
        p.birth_date = dt.date(1970 + i, 1 + i % 12, 1 + i)
        p.save()
    services.apply_preset(actor=org, tournament=t, preset_id="master")
    t.refresh_from_db()
    play_with_winners(t, 1, [everyone[i:i + 4] for i in range(0, 20, 4)], ref, org)
    shifted = everyone[2:] + everyone[:2]
    play_with_winners(t, 2, [shifted[i:i + 4] for i in range(0, 20, 4)], ref, org)
    enter_results(phases.create_semifinals(t, actor=org, seed="semi"), ref, org)
    enter_results(phases.create_finals(t, actor=org, seed="final"), ref, org, winner={1: 2})
    t.refresh_from_db()
    assert wb_export.type_code(t) == "MST"  # the format's national ranking type
    return t


# each event kind the app exports, and the rounds its workbook holds
EVENTS: dict[str, tuple[Callable[[], Tournament], int]] = {
    "demo": (_demo, 1),
    "open": (_event_in_app, 3),
    "master with finals": (_master_with_finals, 4),  # 2 qualifiers, semifinals, final
    "season evening": (_season_evening, 1),
    # "team event": (its builder, its rounds) goes here once the app runs team events.
}


@pytest.mark.parametrize("kind", list(EVENTS))
def test_the_exported_workbook_survives_the_clubs_validator_rewriting_it(
        db: Any, poi: Callable[[bytes], list[dict[str, Any]]], kind: str) -> None:
    build, rounds = EVENTS[kind]
    content = _exported(build())
    assert _as_written(content)[0] == ["TORNEO", "Iscritti", *[f"{n}\u00b0 Turno" for n in range(1, rounds + 1)],
                                       "Classifica Ridotta"]
    assert_survives_poi(poi, content)


def test_a_large_event_whose_strings_fill_several_records_survives(poi: Callable[[bytes], list[dict[str, Any]]]
                                                                    ) -> None:
    # 400 registrants: the shared-string table goes beyond one record (CONTINUE records)
    content = write(book(event(n_players=400, rounds=3)))
    assert len(content) > 3 * 8224
    assert_survives_poi(poi, content)
