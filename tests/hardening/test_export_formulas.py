"""Formula injection in exports: a player who registers as ``=HYPERLINK(...)`` or ``@SUM(...)``
must come out of every CSV and XLSX export as text, never as a formula a spreadsheet program
runs. The test walks every export route the URLconf has (a new one that is not listed here fails
the completeness check), as the organizer and anonymously, and reads each file back.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from openpyxl import load_workbook

from ranking.exports import RANKING_EXPORTS
from tournaments.models import Club, Player, Tournament
from tournaments.spreadsheets import FORMULA_TRIGGERS, safe_cell, xlsx_bytes

HOSTILE = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+SUM(1,2)", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"]
SPREADSHEET_WHATS = ["standings", "results", *RANKING_EXPORTS]


def _export_routes() -> set[str]:
    """Route names of the URLconf that produce a download (export or data)."""
    found: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + (f"{p.namespace}:" if p.namespace else ""))
            elif isinstance(p, URLPattern) and p.name and (
                    "export" in p.name.lower() or "export" in str(p.pattern).lower()
                    or str(p.pattern).endswith("/data/")):
                found.add(prefix + p.name)

    walk(get_resolver().url_patterns, "")
    return found


COVERED = {"tournaments:export", "scoring:export", "api-registrations-export", "api-player-data",
           "tournaments:player_data", "ranking:national-export", "workbook:export"}


def test_every_export_route_is_walked_here() -> None:
    routes = _export_routes()
    assert routes, "no export route found"
    assert routes <= COVERED, f"export routes not checked for formulas: {sorted(routes - COVERED)}"


@pytest.fixture
def hostile_demo(demo_tournament: Tournament) -> Tournament:
    for i, player in enumerate(Player.objects.filter(registrations__tournament=demo_tournament).distinct()):
        bad = HOSTILE[i % len(HOSTILE)]
        player.first_name = f"{bad}{i}"
        player.last_name = HOSTILE[(i + 1) % len(HOSTILE)]
        player.nickname = HOSTILE[(i + 2) % len(HOSTILE)] if i % 2 else ""
        player.email = f"=mail{i}@example.org"
        player.national_id = f"@{i}"
        player.save()
    for i, club in enumerate(Club.objects.all()):
        club.name = f"{HOSTILE[i % len(HOSTILE)]} club {i}"
        club.save()
    return demo_tournament


def _cells(response: Any, fmt: str) -> list[Any]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if fmt == "csv":
        text = body.decode("utf-8")
        excel = text.startswith("\ufeff")  # a page's download: Excel's form (semicolons, byte-order mark)
        return [c for row in csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";" if excel else ",")
                for c in row]
    wb = load_workbook(io.BytesIO(body))  # not read-only: formulas show as data_type "f"
    cells = []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"live formula in {ws.title}!{cell.coordinate}: {cell.value!r}"
                cells.append(cell.value)
    return cells


def _assert_inert(cells: list[Any], where: str) -> None:
    for value in cells:
        if isinstance(value, str):
            assert not value.startswith(FORMULA_TRIGGERS), f"{where}: {value!r} would run as a formula"


def _urls(slug: str) -> list[tuple[str, str]]:
    urls = [(f"/t/{slug}/registrations/export.csv", "csv"),
            (f"/api/tournaments/{slug}/registrations/export/", "csv")]
    urls += [(f"/t/{slug}/export/{what}.{fmt}", fmt) for what in SPREADSHEET_WHATS for fmt in ("csv", "xlsx")]
    urls.append((reverse("workbook:export", args=[slug]) + "?download=xlsx", "xlsx"))  # the clubs' workbook
    return urls


def test_no_export_carries_a_live_formula(hostile_demo: Tournament, organizer_client: Client) -> None:
    seen_hostile = 0
    for client, who in ((organizer_client, "organizer"), (Client(), "anonymous")):
        for url, fmt in _urls(hostile_demo.slug):
            response = client.get(url)
            if who == "anonymous" and response.status_code in (302, 401, 403):
                continue  # organizers only
            assert response.status_code == 200, (url, who, response.status_code)
            cells = _cells(response, fmt)
            _assert_inert(cells, f"{who} {url}")
            seen_hostile += sum(1 for c in cells if isinstance(c, str) and c.startswith("'")
                                and c[1:].startswith(FORMULA_TRIGGERS))
    assert seen_hostile > 20  # the hostile names really were exported (neutralised)


def test_personal_data_export_is_json_not_a_spreadsheet(hostile_demo: Tournament, organizer_client: Client) -> None:
    """The personal data copy is JSON (exact data, which no spreadsheet program runs)."""
    # one of this tournament's own players (the demo's season evenings register others too, and a
    # player's data is given only to someone who organises every event they are in)
    player = (Player.objects.filter(registrations__tournament=hostile_demo)
              .exclude(registrations__tournament__in=Tournament.objects.exclude(pk=hostile_demo.pk)).first())
    assert player is not None
    api = organizer_client.get(f"/api/tournaments/{hostile_demo.slug}/players/{player.pk}/data/")
    page = organizer_client.post(f"/t/{hostile_demo.slug}/players/{player.pk}/data/", {"action": "export"})
    for response in (api, page):
        assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
        assert json.loads(response.content)


def test_xlsx_text_is_never_a_formula_even_without_a_trigger_prefix() -> None:
    """openpyxl turns any text starting with "=" into a formula; the writer types text as text."""
    wb = load_workbook(io.BytesIO(xlsx_bytes([("s", [["=1+1", "ok", 3, "'x"]])])))
    cells = next(wb.worksheets[0].iter_rows())
    assert [c.data_type for c in cells] == ["s", "s", "n", "s"]
    assert cells[0].value == "'=1+1"


@pytest.mark.parametrize("value", HOSTILE)
def test_safe_cell_prefixes_every_trigger(value: str) -> None:
    assert safe_cell(value) == "'" + value
    assert safe_cell(7) == 7 and safe_cell("Rossi") == "Rossi"


def test_the_national_ranking_exports_carry_no_live_formula(hostile_demo: Tournament) -> None:
    """The public national ranking (every finished event of the year) exported as CSV and XLSX."""
    from ranking import national

    Tournament.objects.filter(pk=hostile_demo.pk).update(status=Tournament.Status.FINISHED, event_type="OPN")
    hostile_demo.refresh_from_db()
    year = national.event_year(hostile_demo)
    ranking = national.compute(year)
    assert ranking.events == 1
    seen_hostile = 0
    for fmt in ("csv", "xlsx"):
        response = Client().get(f"/ranking/{year}/export.{fmt}")
        assert response.status_code == 200, fmt
        cells = _cells(response, fmt)
        _assert_inert(cells, f"national ranking .{fmt}")
        seen_hostile += sum(1 for c in cells if isinstance(c, str) and c.startswith("'")
                            and c[1:].startswith(FORMULA_TRIGGERS))
    assert seen_hostile > 5  # the hostile names and clubs really were exported (neutralised)
