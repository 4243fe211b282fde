"""Hostile input, the clubs' registration sheet: hypothesis builds "Iscritti" workbooks
(.xlsx with openpyxl, .xls with the BIFF8 writer of tests/formats/xls.py) with random headers,
cells, dates and damaged bytes and throws them at ``tournaments.iscritti.import_iscritti`` and its
page and API. Never an exception: a clean import (every row a registration with a name) or a
clear refusal (message, rule, the row for a bad row) with nothing imported.

``HARDENING_EXAMPLES`` (default 150) scales it like tests/hardening/test_fuzz.py:
``HARDENING_EXAMPLES=2000 pytest tests/hardening/test_fuzz_iscritti.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from common.errors import DomainError
from tests.formats.xls import workbook
from tests.hardening.test_fuzz import EXAMPLES, FUZZ
from tournaments.iscritti import import_iscritti
from tournaments.models import Player, Registration

HEADERS = ["ID", "Nome", "Cognome", "Nick", "Club", "Partecipa", "Regione", "Data di nascita",
           "e-mail", "email", "mail", "ID nazionale", "Codice", "national_id", "NOME", " cognome ",
           "", "bogus", "Data"]
# Text a sheet can hold: no control characters (openpyxl refuses them), no surrogates (the .xls
# writer stores UTF-16 lengths).
sheet_text = st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs", "Cc")), max_size=30)
cells = st.one_of(
    st.none(), sheet_text,
    st.integers(-10**15, 10**15), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
    st.dates(dt.date(1800, 1, 1), dt.date(2200, 12, 31)),
    st.sampled_from(["SI", "NO", "no", "N", "sì", "31/02/1990", "1990-01-01", "01.02.2003", "2/3/4",
                     "Mario", "Rossi", "RCU-1", "RCU-1", "a@b.it", "x@", "=HYPERLINK(\"x\")",
                     "Å" * 90, "Niccolò D'Amico", "  ", "RCU Milano"]),
)


real_names = st.sampled_from(["Mario", "Anna", "Niccolò", "D'Amico", "Rossi", "Lo Bianco", "Ö"])
names = st.one_of(real_names, real_names, real_names, sheet_text)
# What a club's sheet plausibly holds in each column, junk included now and then.
PLAUSIBLE: dict[str, Any] = {
    "nome": names, "cognome": st.builds("{} {}".format, names, st.integers(1, 10**6)) | names, "nick": names | st.none(), "club": names | st.none(),
    "partecipa": st.sampled_from(["SI", "NO", "", None, "forse"]),
    "data di nascita": st.dates(dt.date(1800, 1, 1), dt.date(2200, 12, 31)) | st.none() | st.sampled_from(
        ["02/11/1992", "1992-11-02", "31/02/1990", "ieri", 33000, 2.5]),
    "id nazionale": st.sampled_from(["", None, "RCU-1", "RCU-2", 12345, 12345.0, "X" * 40]) | sheet_text,
    "codice": st.sampled_from(["", "RCU-1", "RCU-3"]),
    "e-mail": st.sampled_from(["", None, "a@b.it", "mario.rossi@example.org", "x@", 7]),
}


@st.composite
def sheets(draw: Any) -> list[list[Any]]:
    preamble = draw(st.lists(st.lists(cells, max_size=3), max_size=3))  # the template's title rows
    header = draw(st.lists(st.sampled_from(HEADERS) | sheet_text, max_size=9))
    if draw(st.integers(0, 7)):  # mostly a sheet with the two columns the import needs
        header = [*header[:2], "Nome", "Cognome", *header[2:]]
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 5)):
            rows.append([draw(PLAUSIBLE.get(str(h).strip().lower(), cells)) for h in header])
        else:
            rows.append(draw(st.lists(cells, max_size=len(header) + 2)))
    return [*preamble, header, *rows]


def _xlsx(rows: list[list[Any]], title: str) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append([dt.datetime.combine(v, dt.time()) if isinstance(v, dt.date) else v for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@st.composite
def files(draw: Any) -> tuple[bytes, str]:
    rows = draw(sheets())
    title = draw(st.sampled_from(["Iscritti", "Iscritti", "Foglio1", "TORNEO"]))
    if draw(st.booleans()):
        content, name = _xlsx(rows, title), "torneo.xlsx"
    else:
        content, name = workbook(title, rows), draw(st.sampled_from(["torneo.xls", "TORNEO.XLS"]))
    damage = draw(st.sampled_from(["none"] * 5 + ["cut", "flip", "garbage"]))
    # Positions are drawn independently of the file's length (modulo): an .xlsx's length varies with
    # the second it was written at (its properties), and hypothesis replays draws exactly.
    if damage == "cut":
        content = content[: draw(st.integers(0, 10**6)) % (len(content) + 1)]
    elif damage == "flip":
        raw = bytearray(content)
        for _ in range(draw(st.integers(1, 20))):
            i = draw(st.integers(0, 10**6)) % len(raw)
            raw[i] = draw(st.integers(0, 255))
        content = bytes(raw)
    elif damage == "garbage":
        content = draw(st.binary(max_size=600))
    return content, name


def _organizer() -> Any:
    return get_user_model().objects.get(username="organizzatore")


@FUZZ
@given(upload=files())
def test_iscritti_import_is_clean_or_a_clear_refusal(demo_module: Any, db: Any, upload: tuple[bytes, str]) -> None:
    content, name = upload
    tournament = demo_module
    before = (Registration.objects.filter(tournament=tournament).count(), Player.objects.count())
    try:
        report = import_iscritti(tournament, content, name, actor=_organizer())
    except DomainError as exc:
        event(f"refused: {exc.rule} {exc.field or ''}")
        assert exc.message.strip() and exc.rule in ("CSV", "FORMAT", "LIMIT"), (exc.message, exc.rule)
        if exc.rule == "CSV":  # a bad row or no header: which row
            assert isinstance(getattr(exc, "line", None), int) and exc.line >= 1  # type: ignore[attr-defined]
        assert (Registration.objects.filter(tournament=tournament).count(), Player.objects.count()) == before
    else:
        event("imported rows" if report.registered else "imported nothing (no rows)")
        assert Registration.objects.filter(tournament=tournament).count() == before[0] + len(report.registered)
        for reg in report.registered:  # what was imported is what a person could have typed
            assert reg.player.first_name.strip() and reg.player.last_name.strip()
            assert len(reg.player.national_id) <= 32


@settings(max_examples=max(20, EXAMPLES // 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(upload=files())
def test_iscritti_page_and_api_never_answer_a_server_error(
    demo_module: Any, db: Any, upload: tuple[bytes, str],
) -> None:
    content, name = upload
    client = Client()
    client.force_login(_organizer())
    page = client.post("/t/demo/registrations/iscritti/", {"file": SimpleUploadedFile(name, content)})
    assert page.status_code in (200, 400), page.status_code
    api = client.post("/api/tournaments/demo/registrations/iscritti/", {"file": SimpleUploadedFile(name, content)})
    assert api.status_code in (201, 400), (api.status_code, api.content[:300])
    if api.status_code == 400:
        body = api.json()
        assert body.get("rule") in ("CSV", "FORMAT", "LIMIT", None) and body


def test_a_date_before_1900_in_an_xls_is_read_not_a_crash(demo_module: Any, db: Any) -> None:
    """Old serial dates (before Excel's epoch) come out of xlrd as errors unless handled."""
    rows = [["Nome", "Cognome", "Data di nascita"], ["Mario", "Rossi", dt.date(1850, 5, 1)]]
    try:
        report = import_iscritti(demo_module, workbook("Iscritti", rows), "t.xls", actor=_organizer())
    except DomainError as exc:
        assert exc.field == "birth_date" and exc.line == 2  # type: ignore[attr-defined]
    else:
        assert report.registered[0].player.last_name == "Rossi"


def test_an_overlong_region_or_club_is_trimmed_or_refused_by_row_not_by_the_database(
    demo_module: Any, db: Any,
) -> None:
    """Found by the fuzz test on PostgreSQL: a 90-character Regione reached the club's 60-character
    column untrimmed (a server error there), and a club name longer than its column likewise."""
    region = "Å" * 90
    rows = [["Nome", "Cognome", "Club", "Regione"], ["Mario", "Rossi", "Circolo Lungo", region]]
    report = import_iscritti(demo_module, workbook("Iscritti", rows), "t.xls", actor=_organizer())
    club = report.registered[0].player.club
    assert club is not None and club.region == region[:60]

    rows = [["Nome", "Cognome", "Club"], ["Anna", "Bianchi", "Club"], ["Luca", "Verdi", "C" * 121]]
    before = Registration.objects.filter(tournament=demo_module).count()
    try:
        import_iscritti(demo_module, workbook("Iscritti", rows), "t.xls", actor=_organizer())
    except DomainError as exc:
        assert (exc.rule, exc.field, exc.line) == ("CSV", "club", 3)  # type: ignore[attr-defined]
    else:
        raise AssertionError("a 121-character club name was imported")
    assert Registration.objects.filter(tournament=demo_module).count() == before
