"""A body Django refuses before any view runs (here: more files than DATA_UPLOAD_MAX_NUMBER_FILES)
is answered as the API documents every 400: JSON with a rule, never an HTML page."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile


def test_too_many_files_is_a_json_400_under_the_api(organizer_client: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    files = [SimpleUploadedFile(f"{n}.xls", b"x") for n in range(3)]
    response = organizer_client.post("/api/scoring/workbooks/import/", {"files": files})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["rule"] == "FORMAT"
