"""Pages: leaderboard (htmx refresh), player page, table result, entry forms, exports."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from openpyxl import load_workbook

from engine.board import load_board
from scoring import selectors
from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tests.publishing.laptop import standings_totals

pytestmark = pytest.mark.django_db


def _board_post(setup: dict[str, Any], data: dict[str, Any], ended_by: str = "objective",
                version: int = 0) -> dict[str, Any]:
    board = load_board("world")
    post: dict[str, Any] = {"kind": "board", "version": version, "ended_by": ended_by}
    for p in data["players"]:
        post[f"objective_{p['seat']}"] = p["objective"]
        post[f"eliminated_{p['seat']}"] = p["eliminated"] or ""
    for i, name in enumerate(board.names):
        post[f"owner_{i}"] = data["owners"][name]
        post[f"armies_t{i}"] = data["armies"][name]
    return post


def test_referee_enters_a_board_on_the_page_and_a_second_referee_confirms(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    data = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    url = f"/t/{t.slug}/results/table/{table.pk}/enter/"
    client.force_login(setup["ref1"])
    page = client.get(url)
    assert page.status_code == 200
    assert "Oceania" in page.content.decode() and "scoring-entry.js" in page.content.decode()
    resp = client.post(url, _board_post(setup, data))
    assert resp.status_code == 302, resp.content.decode()[:2000]
    standings = client.get(f"/t/{t.slug}/standings/").content.decode()
    totals = standings_totals(standings)
    assert totals and "130" not in totals  # not confirmed yet: not published
    client.force_login(setup["ref1"])
    sub = ResultSubmission.objects.get()
    assert client.post(f"/t/{t.slug}/results/{sub.pk}/confirm/").status_code == 403  # own entry
    client.force_login(setup["ref2"])
    assert client.post(f"/t/{t.slug}/results/{sub.pk}/confirm/").status_code == 302
    client.logout()
    partial = client.get(f"/t/{t.slug}/standings/", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 1500ms"' in partial and "130" in standings_totals(partial)  # polls (a 304 when unchanged)
    assert "<html" not in partial


def test_a_refused_board_keeps_what_was_typed_and_names_the_territory(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    data = f.board_data(setup["objectives"], armies=[30, 30, 30, 30])
    post = _board_post(setup, data, ended_by="sdadata")
    board = load_board("world")
    i = board.names.index("Kamchatka")
    post[f"armies_t{i}"] = 0
    client.force_login(setup["ref1"])
    resp = client.post(f"/t/{t.slug}/results/table/{table.pk}/enter/", post)
    html = resp.content.decode()
    assert resp.status_code == 400
    assert "Kamchatka" in html and "A-OCCUPY" in html
    j = board.names.index("Alaska")
    assert f'name="armies_t{j}" value="{data["armies"]["Alaska"]}"' in html
    assert not ResultSubmission.objects.exists()


def test_short_form_on_the_page_is_marked_as_short(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    client.force_login(setup["ref1"])
    post = {"kind": "short", "version": 0, "ended_by": "sdadata"}
    for seat, (o, e, a) in enumerate([(40, 10, 30), (30, 20, 25), (20, 14, 20), (10, 20, 15)], start=1):
        post.update({f"objective_points_{seat}": o, f"extra_points_{seat}": e, f"armies_{seat}": a})
    assert client.post(f"/t/{t.slug}/results/table/{table.pk}/enter/", post).status_code == 302
    sub = ResultSubmission.objects.get()
    assert sub.kind == "short"
    assert [r["tournament_points"] for r in sub.scores] == [70, 45, 25, 10]


def test_player_and_table_pages_and_exports(client, setup) -> None:
    t, table, ps = setup["t"], setup["table"], setup["players"]
    f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1, armies=[40, 30, 30, 30]),
            "objective", confirm_by=setup["ref2"])
    page = client.get(f"/t/{t.slug}/standings/player/{ps[0].pk}/").content.decode()
    assert ps[1].display_name in page and "Posizione 1, 130 punti" in page
    page = client.get(f"/t/{t.slug}/results/table/{table.pk}/").content.decode()
    assert ps[3].display_name in page
    csv_text = client.get(f"/t/{t.slug}/export/standings.csv").content.decode("utf-8")
    assert csv_text.startswith("\ufeff")  # Excel (Italian) opens it with its accents on a double click
    assert csv_text.splitlines()[1].startswith(f"1;{ps[0].display_name}")
    plain = client.get(f"/t/{t.slug}/export/standings.csv?plain=1").content.decode("utf-8")
    assert plain.splitlines()[1].startswith(f"1,{ps[0].display_name}") and not plain.startswith("\ufeff")
    wb = load_workbook(io.BytesIO(client.get(f"/t/{t.slug}/export/results.xlsx").content))
    rows = list(wb.active.iter_rows(values_only=True))
    assert len(rows) == 5 and 130 in rows[1]
    assert "data-print" in client.get(f"/t/{t.slug}/standings/print/").content.decode()


def test_organizer_status_page_shows_each_table_state(client, setup) -> None:
    t = setup["t"]
    other = f.make_table(t, 1, f.players(t, 4))
    f.enter(setup["table"], setup["ref1"], "board", f.board_data(setup["objectives"], armies=[30] * 4))
    client.force_login(setup["org"])
    html = client.get(f"/t/{t.slug}/results/").content.decode()
    assert "status-to_confirm" in html and "status-missing" in html
    assert f"/results/table/{other.pk}/" in html
    client.force_login(setup["ref1"])
    assert client.get(f"/t/{t.slug}/results/").status_code == 403


def test_the_leaderboard_puts_each_game_in_its_column_and_marks_those_that_do_not_count(client: Any) -> None:
    t = f.ScoringTournamentFactory()
    ref, ref2 = f.role(t), f.role(t)
    a, b, c, d, e = f.players(t, 5)
    games = {  # best two of three: a's 10 in game 2 does not count; b never played game 3
        1: ([a, b, c, d], [(50, 20, 40, None, False), (40, 14, 20, None, False), (30, 5, 25, None, False), (5, 0, 10, None, False)]),
        2: ([a, b, c, e], [(10, 40, 40, None, False), (60, 4, 30, None, False), (40, 5, 25, None, False), (5, 0, 10, None, False)]),
        3: ([a, c, d, e], [(70, 10, 40, None, False), (20, 14, 20, None, False), (30, 5, 25, None, False), (10, 5, 10, None, False)]),
    }
    for game, (seated, short) in games.items():
        f.enter(f.make_table(t, game, seated), ref, "short", f.short_data(short), "sdadata", confirm_by=ref2)
    html = client.get(f"/t/{t.slug}/standings/").content.decode()

    def columns(player: Any) -> list[str]:
        row = re.search(rf'<tr id="player-{player.pk}".*?</tr>', html, re.S)
        assert row is not None
        return [re.sub(r"\s+", " ", cell) for cell in re.findall(r'<td class="num" data-label="P\d+">(.*?)</td>', row.group(0), re.S)]

    points = {g["game"]: g["points"] for g in next(r for r in selectors.standings(t)["rows"]
                                                  if r["player"] == a.pk)["games"]}
    first, second, third = columns(a)
    assert 'class="counted"' in first and f">{points[1]}<" in first
    assert 'class="dropped"' in second and f">{points[2]}<" in second
    assert 'class="counted"' in third and f">{points[3]}<" in third
    assert columns(b)[2] == ""
