"""Scores are exact decimals from the engine to every export: an S-GUFO 7.2875 is 7.2875 in the
stored result, the standings, the public page, the API, the CSV and the XLSX (never 7.287 or
7.288 through a binary float)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from scoring import selectors, services
from scoring.models import ResultSubmission
from tests.factories import scoring as f

# a 5-player table, P 30/23/17/10/5 (+ extra 20/20/15/14/10 = 164): the 2nd scores
# 7 + 23 × 1.25 ÷ 100 = 7.2875, the 3rd 5 + 17 × 1.25 ÷ 100 = 5.2125
GUFO = f.short_data([(30, 20, 20, None, False), (23, 20, 20, None, False), (17, 15, 20, None, False),
                     (10, 14, 20, None, False), (5, 10, 20, None, False)])


@pytest.fixture
def gufo(db: Any) -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    services.apply_preset(actor=org, tournament=t, preset_id="gufo")
    t.refresh_from_db()
    ps = f.players(t, 5)
    table = f.make_table(t, 1, ps)
    f.enter(table, ref, "short", GUFO, confirm_by=org)
    return {"t": t, "players": ps, "table": table}


def test_the_stored_result_and_the_standings_keep_four_decimals(gufo: dict[str, Any]) -> None:
    sub = ResultSubmission.objects.get(table=gufo["table"])  # read back from the database
    points = {r["seat"]: r["tournament_points"] for r in sub.scores}
    assert points[2] == Decimal("7.2875") and points[3] == Decimal("5.2125")
    rows = {r["player"]: r for r in selectors.standings(gufo["t"])["rows"]}
    assert rows[gufo["players"][1].pk]["total"] == Decimal("7.2875")


def test_api_page_csv_and_xlsx_show_the_same_exact_number(gufo: dict[str, Any], client: Client) -> None:
    slug = gufo["t"].slug
    api = client.get(f"/api/scoring/tournaments/{slug}/standings/")
    assert api.status_code == 200
    assert b'"total": 7.2875' in api.content or b'"total":7.2875' in api.content
    assert b"7.287," not in api.content and b"7.288" not in api.content
    results = client.get(f"/api/scoring/tables/{gufo['table'].pk}/results/")
    assert b"7.2875" in results.content
    page = client.get(f"/t/{slug}/standings/", HTTP_ACCEPT_LANGUAGE="it")
    assert "7,2875" in page.content.decode()
    excel = client.get(f"/t/{slug}/export/standings.csv").content.decode("utf-8-sig")
    assert "7,2875" in [row[-3] for row in csv.reader(io.StringIO(excel), delimiter=";")]  # Italian Excel's number
    text = client.get(f"/t/{slug}/export/standings.csv?plain=1").content.decode()
    totals = [row[-3] for row in csv.reader(io.StringIO(text))]
    assert "7.2875" in totals and "5.2125" in totals
    wb = load_workbook(io.BytesIO(client.get(f"/t/{slug}/export/results.xlsx").content))
    values = [c.value for row in wb.active.iter_rows() for c in row]
    assert 7.2875 in values and not any(isinstance(v, float) and abs(v - 7.2875) < 0.01 and v != 7.2875
                                        for v in values)
