"""The workbook import page in a browser: a folder of workbooks goes a few files at a time, the
progress bar counts them up to the last, and every file gets its row in the report (a refused
file with its reason, the others imported all the same); accessible (axe-core), in Italian."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE
from tests.factories.tournaments import make_user
from tests.workbook.helpers import book, event
from workbook.book import text
from workbook.files import write

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def _folder(tmp_path: Path) -> list[Path]:
    """Five events a week apart, and one workbook whose date of birth is text (refused)."""
    paths = []
    for k in range(5):
        path = tmp_path / f"evento{k + 1}.xls"
        path.write_bytes(write(book(event(first=dt.date(2025, 1, 4) + dt.timedelta(days=14 * k)))))
        paths.append(path)
    bad = book(event(first=dt.date(2025, 6, 7)))
    bad.get("Iscritti").put(3, 7, text("ieri"))  # type: ignore[union-attr]
    path = tmp_path / "sbagliato.xls"
    path.write_bytes(write(bad))
    paths.insert(3, path)
    return paths


def test_a_folder_of_workbooks_is_imported_with_a_progress_bar(browser: Any, tmp_path: Path) -> None:

    from tests.e2e.test_event_day import login
    from tournaments.models import Tournament

    make_user("archivio", password="archivio-pass-123", is_staff=True)
    b = browser
    phone = b.person(PHONE, phone=True)
    url = reverse("workbook:import")
    login(phone, "archivio", "archivio-pass-123", url)
    assert phone.locator("#import-progress").is_hidden()
    b.check(phone, "workbook-import-phone")
    batches: list[str] = []
    phone.on("request", lambda r: batches.append(r.url) if r.method == "POST" else None)
    phone.set_input_files("#files", [str(p) for p in _folder(tmp_path)])
    phone.click("main button[type=submit]")
    phone.wait_for_function(
        "() => document.querySelector('#import-progress-bar').value === 6"
        " && !document.querySelector('form[aria-busy]')")
    assert phone.locator("#import-progress-text").inner_text() == "6 di 6 file"
    assert phone.locator("#import-progress-bar").get_attribute("max") == "6"
    assert len(batches) == 2  # three files a request, never all at once
    rows = phone.locator("#import-report-rows tr")
    assert rows.count() == 6
    assert phone.locator("#import-report-rows .status-refused").count() == 1
    refused = phone.locator("#import-report-rows tr", has=phone.locator(".status-refused"))
    assert "sbagliato.xls" in refused.inner_text() and "Iscritti!H4" in refused.inner_text()
    assert phone.locator("#import-report-rows .status-imported").count() == 5
    assert Tournament.objects.count() == 5
    assert phone.url.endswith(url)  # the page stayed: no full-page post
    b.check(phone, "workbook-import-done-phone")
    b.assert_clean()
