"""The organizer's workbook page and API, and the import page and API."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse

from tests.factories import scoring as f
from tests.factories.tournaments import TournamentRoleFactory
from tests.formats.test_phases import play
from tournaments.models import Player, Tournament, TournamentRole
from workbook.book import text
from workbook.event import to_book
from workbook.files import write

from .helpers import book, event


def _finished(client: Any) -> tuple[Tournament, Any]:
    t = f.ScoringTournamentFactory(date=dt.date(2026, 5, 9), event_type="MST")
    org, ref = f.role(t, "organizer"), f.role(t)
    everyone = f.players(t, 8)
    for i, p in enumerate(everyone):
        p.birth_date = dt.date(1990, 1, 1 + i)
        p.save()
    for game in (1, 2, 3):
        order = everyone[game - 1:] + everyone[:game - 1]
        play(t, game, [order[:4], order[4:]], ref, org)
    client.force_login(org)
    return t, org


def test_the_results_page_links_to_the_workbook_which_downloads_when_nothing_is_wrong(client: Any, db: Any) -> None:
    t, _org = _finished(client)
    status = client.get(reverse("scoring:status", args=[t.slug])).content.decode()
    url = reverse("workbook:export", args=[t.slug])
    assert url in status
    page = client.get(url)
    assert page.status_code == 200 and "Torneo Master" in page.content.decode()
    client.post(url, {"organizer": "MILANO [RCU]"})
    got = client.get(url + "?download=xls")
    assert got.status_code == 200 and got["Content-Type"] == "application/vnd.ms-excel"
    assert got["Content-Disposition"] == 'attachment; filename="20260509 - MILANO [RCU].xls"'
    api = client.get(f"/api/scoring/tournaments/{t.slug}/workbook/").json()
    assert api["ok"] and api["event_id"] == "20260509 - MILANO [RCU]" and api["errors"] == []
    assert client.get(f"/api/scoring/tournaments/{t.slug}/workbook/xlsx/").status_code == 200


def test_a_workbook_the_ranking_would_refuse_is_not_downloaded_and_the_page_says_why(client: Any, db: Any) -> None:
    t, org = _finished(client)
    ref = f.role(t)
    seated = list(Player.objects.order_by("pk"))
    play(t, 4, [seated[:4]], ref, org)
    f.make_table(t, 4, seated[4:], number=2)  # no result
    got = client.get(reverse("workbook:export", args=[t.slug]) + "?download=xls")
    text = got.content.decode()
    assert got.status_code == 400 and "would refuse" in text and "Round 4, table 2 has no confirmed result" in text
    api = client.get(f"/api/scoring/tournaments/{t.slug}/workbook/xls/")
    assert api.status_code == 400 and api.json()["errors"][0]["code"] == "WB-RESULT"


def test_only_organizers_see_the_workbook(client: Any, db: Any) -> None:
    t, _org = _finished(client)
    client.logout()
    assert client.get(f"/api/scoring/tournaments/{t.slug}/workbook/").status_code in (401, 403)
    other = f.UserFactory()
    client.force_login(other)
    assert client.get(reverse("workbook:export", args=[t.slug])).status_code == 403


def test_the_upload_page_imports_and_reports_each_file(client: Any, db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    user = f.UserFactory()
    client.force_login(user)
    assert client.get(reverse("workbook:import")).status_code == 403  # not an organizer
    user.is_staff = True
    user.save()
    good = SimpleUploadedFile("buono.xls", write(book()))
    bad_book = book()
    bad_book.get("Iscritti").put(3, 7, text("ieri"))  # type: ignore[union-attr]  # a date of birth as text
    bad = SimpleUploadedFile("cattivo.xls", write(bad_book))
    page = client.post(reverse("workbook:import"), {"files": [good, bad]})
    html = page.content.decode()
    assert page.status_code == 200
    assert "buono.xls" in html and "imported" in html and "cattivo.xls" in html and "Iscritti!H4" in html
    t = Tournament.objects.get()
    assert TournamentRole.objects.filter(tournament=t, user=user, role="organizer").exists()
    again = client.post("/api/scoring/workbooks/import/", {"files": [SimpleUploadedFile("b.xls", write(book()))]})
    assert again.status_code == 200 and again.json()[0]["status"] == "unchanged"


def test_someone_else_cannot_replace_an_imported_event(client: Any, db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    owner, stranger = f.UserFactory(), f.UserFactory()
    other = f.ScoringTournamentFactory()
    for u in (owner, stranger):
        f.role(other, "organizer", u) if u is owner else TournamentRoleFactory(
            tournament=f.ScoringTournamentFactory(), user=u, role="organizer")
    client.force_login(owner)
    client.post("/api/scoring/workbooks/import/", {"files": [SimpleUploadedFile("a.xls", write(book()))]})
    client.force_login(stranger)
    changed = event()
    changed.name = "Altro nome"
    got = client.post("/api/scoring/workbooks/import/", {"files": [SimpleUploadedFile("a.xls", write(to_book(changed)))]})
    report = got.json()[0]
    assert report["status"] == "refused" and "only its organizers or staff" in report["errors"][0]["message"]
    assert Tournament.objects.get(slug__startswith="20250301").name == "Torneo di prova"


def test_the_tournament_list_links_to_the_import_page(client: Any, db: Any) -> None:
    client.force_login(f.UserFactory())
    assert reverse("workbook:import") in client.get(reverse("tournaments:list")).content.decode()


def test_the_import_page_has_a_progress_bar_and_its_script_and_answers_a_batch_with_rows(client: Any,
                                                                                          db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    user = f.UserFactory(is_staff=True)
    client.force_login(user)
    url = reverse("workbook:import")
    html = client.get(url).content.decode()
    assert '<progress id="import-progress-bar"' in html and 'aria-live="polite"' in html
    assert "/static/js/workbook-import.js" in html and "{done} of {total} files" in html
    # the script's batch: only the report rows, 200 even when every file of the batch is refused
    rows = client.post(url, {"part": "rows", "files": [SimpleUploadedFile("rotto.xls", b"not a workbook")]})
    text = rows.content.decode()
    assert rows.status_code == 200 and text.count("<tr>") == 1 and "rotto.xls" in text and "refused" in text
    assert "<html" not in text and "<progress" not in text
    # without JavaScript: the plain form still posts every file at once and gets the whole page
    plain = client.post(url, {"files": [SimpleUploadedFile("rotto.xls", b"not a workbook"),
                                        SimpleUploadedFile("buono.xls", write(book()))]})
    page = plain.content.decode()
    assert plain.status_code == 200 and "<progress" in page and page.count("<tr>") == 3  # header + 2 files
    assert "buono.xls" in page and "imported" in page


def test_the_import_page_batch_needs_the_csrf_token(db: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(f.UserFactory(is_staff=True))
    url = reverse("workbook:import")
    client.get(url)
    token = client.cookies["csrftoken"].value
    upload = {"part": "rows", "files": [SimpleUploadedFile("a.xls", write(book()))]}
    assert client.post(url, upload).status_code == 403
    upload["files"] = [SimpleUploadedFile("a.xls", write(book()))]
    got = client.post(url, upload, headers={"X-CSRFToken": token})
    assert got.status_code == 200 and "imported" in got.content.decode()
