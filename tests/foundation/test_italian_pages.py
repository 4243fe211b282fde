"""Italian pages say everything in Italian: the pages of the demo tournament, rendered in the
Italian locale (standings with their tie-breaks, the format page, results and their verdicts,
tables, the audit log, an entry refused by the rules engine), contain none of the English
phrases of the domain's messages.

The English phrases are not typed here: they are read from the English msgids of the catalogue
(every string a page may show) and from the English texts the pure modules carry next to their
codes (tie-break metrics, scoring systems, the engine's refusals), so a new message is checked
as soon as it exists.
"""

from __future__ import annotations

import csv
import html
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from engine.club_formats import CLUB_FORMATS
from engine.messages import ENGLISH
from engine.scoring import SCORING_SYSTEMS
from scoring.standings import METRICS
from scripts.po import read_po

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{?\s*\w*\s*\}?\}")


def _fragments(text: str) -> set[str]:
    """The parts of an English message between its placeholders that are phrases (3+ words)."""
    out = set()
    for part in PLACEHOLDER.split(text):
        part = part.strip(" .,:;()—-…'\"“”")
        if len(re.findall(r"[A-Za-z]{2,}", part)) >= 3:
            out.add(part)
    return out


def english_phrases() -> set[str]:
    phrases: set[str] = set()
    for entry in read_po(ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"):
        if entry.translated and entry.msgstr[0] != entry.msgid:
            phrases |= _fragments(entry.msgid)
    for _fn, description in METRICS.values():
        phrases |= _fragments(str(description))
    for system in SCORING_SYSTEMS.values():
        phrases |= _fragments(system.description)
    for fmt in CLUB_FORMATS.values():
        phrases |= _fragments(fmt.description)
    # the tie-breaks that place a seat at its table, by their code (engine.scoring.SeatScore.tiebreak)
    phrases |= {code.replace("_", " ") for code in ("extra_objective", "later_seat", "extra_round",
                                                     "elimination_order")}
    # the engine's own English refusals, as its command line says them: a hopeless board makes
    # check_board say most of them
    phrases |= {f for v in _engine_refusals() for f in _fragments(re.sub(r"\b\d+\b|'[^']*'", "%s", v))}
    # a recorded game's violations, a deal's and a deck's problems, as the command line says them
    # (each field a placeholder, so that the words between two fields are a phrase of their own)
    phrases |= {f for template in ENGLISH.values() for f in _fragments(re.sub(r"\{[^}]*\}", "%s", template))}
    return phrases


def _engine_refusals() -> list[str]:
    from engine.board import load_board
    from engine.endings import Ending, FinalBoard, FinalPlayer
    from engine.rulesets import get_ruleset
    from engine.scoring import check_board

    board = load_board("world")
    players = [FinalPlayer(1, None), FinalPlayer(2, "nowhere", 1), FinalPlayer(2, None, 3)]
    owners = {"Alaska": 2, "alaska": 1, "Atlantide": 1, "Brasile": 9}
    armies = {"Alaska": 0, "Perù": 3}
    final = FinalBoard(Ending.OBJECTIVE, tuple(players), owners, armies)
    return [v.message for v in check_board(board, get_ruleset("RTU"), final, {})]


def page_text(content: bytes) -> str:
    body = content.decode(errors="replace")
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(body))


@pytest.fixture(scope="module")
def demo_loaded(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """The demo loaded once for the module, in a transaction rolled back at its end; each test
    runs in its own savepoint (``db``) and only reads or is refused."""
    from django.db import transaction

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            call_command("load_demo", stdout=StringIO())
            yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def demo(demo_loaded: None, db: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    assert client.login(username="organizzatore", password="risiko-organizza")
    return client


def test_phrases_come_from_the_catalogue_and_the_codes() -> None:
    phrases = english_phrases()
    assert len(phrases) > 300
    assert "total of the games that count" in phrases  # a tie-break metric (a code's text)
    assert "is not playing at this table" in phrases  # a msgid
    assert "territories have no owner" in phrases  # the engine's English, derived from check_board
    assert "which it does not hold" in phrases  # a recorded game's violation (engine.messages)


def test_demo_pages_in_italian_show_no_english_message(demo: Client) -> None:
    from tables.models import Table

    phrases = english_phrases()
    first = Table.objects.filter(game__tournament__slug="demo", game__number=1).order_by("number").first()
    second = Table.objects.filter(game__tournament__slug="demo", game__number=2).order_by("number").first()
    assert first is not None and second is not None
    pages = [
        "/", "/t/demo/", "/t/demo/manage/", "/t/demo/standings/", "/t/demo/standings/print/",
        "/t/demo/standings/ranking/", "/t/demo/results/", "/t/demo/results/format/", "/t/demo/audit/",
        "/t/demo/registrations/", "/t/demo/staff/", "/t/demo/edit/",
        "/t/demo/games/1/tables/", "/t/demo/games/2/tables/", "/t/demo/games/2/organize/",
        f"/t/demo/results/table/{first.pk}/", f"/t/demo/games/1/tables/{first.number}/",
        f"/t/demo/games/1/tables/{first.number}/sheet/", f"/t/demo/standings/player/{first.seats.first().player_id}/",
        # the event day's own pages: check-in, slips, scoresheets, clocks, meetings, knock-out
        "/t/demo/checkin/2/", "/t/demo/games/2/slips/", "/t/demo/games/1/scoresheets/",
        "/t/demo/clock-settings/", "/t/demo/meetings/", "/t/demo/knockout/?entrants=30", "/t/demo/knockout/phases/",
    ]
    found: dict[str, list[str]] = {}
    for url in pages:
        response = demo.get(url)
        assert response.status_code == 200, url
        text = page_text(response.content)
        hits = sorted(p for p in phrases if p in text)
        if hits:
            found[url] = hits
    # an entry the engine refuses: the refusal is said in Italian, its rule id once
    refused = demo.post(f"/t/demo/results/table/{second.pk}/enter/", {
        "kind": "board", "version": "0", "ended_by": "objective", "owner_0": "1", "armies_t0": "0",
        **{f"objective_{n}": "RTU-01" for n in range(1, 6)},
    })
    assert refused.status_code == 400
    text = page_text(refused.content)
    assert "B-MAP: B-MAP" not in text and "territori non hanno un proprietario" in text
    hits = sorted(p for p in phrases if p in text)
    if hits:
        found["refused entry"] = hits
    assert not found, found


def test_an_engine_refusal_at_the_table_is_italian_with_its_rule_once(db: Any) -> None:
    from common.engine_messages import violation_text
    from engine.violations import EngineError

    exc = EngineError("T-ORDER", "it is seat 2's turn, not seat 3's", "closure.not_your_turn", {"turn": 2, "seat": 3})
    with translation.override("it"):
        text = violation_text(exc)
    assert text.startswith("T-ORDER: ") and text.count("T-ORDER") == 1
    assert text == "T-ORDER: È il turno del posto 2, non del posto 3."


def test_every_coded_engine_finding_has_its_italian_sentence() -> None:
    from common.engine_messages import MESSAGES

    assert set(ENGLISH) <= set(MESSAGES), sorted(set(ENGLISH) - set(MESSAGES))
    with translation.override("en"):
        english = {code: str(MESSAGES[code]) for code in ENGLISH}
    with translation.override("it"):
        untranslated = sorted(code for code in ENGLISH if str(MESSAGES[code]) == english[code])
    assert not untranslated


def test_a_refused_recorded_game_is_said_in_italian(demo: Client) -> None:
    """Every way of breaking a recorded game (tests/engine/test_mutations.py), uploaded on the
    results page in Italian: the refusal names the event and the rule once, in Italian words."""
    from tables.models import Table
    from tests.engine.test_mutations import MUTATIONS, SKIP, games

    table = Table.objects.filter(game__tournament__slug="demo", game__number=2).order_by("number").first()
    assert table is not None
    phrases = english_phrases()
    found: dict[str, list[str]] = {}
    for mutation in MUTATIONS:
        record = next(r for r in games("alfa", mutation.players, mutation.ruleset) if mutation.mutate(r) is not SKIP)
        refused = demo.post(f"/t/demo/results/table/{table.pk}/enter/", {
            "kind": "record", "version": "0", "record_text": json.dumps(record),
        })
        assert refused.status_code == 400, mutation.name
        text = page_text(refused.content)
        assert f"{mutation.cited}: " in text and f"{mutation.cited}: {mutation.cited}" not in text, mutation.name
        assert re.search(r"evento \d+: |[A-Z][A-Z0-9-]+: ", text), mutation.name
        hits = sorted(p for p in phrases if p in text)
        if hits:
            found[mutation.name] = hits
    assert not found, found


def test_the_results_export_in_italian_says_how_each_game_ended(demo: Client) -> None:
    """The spreadsheet clubs keep: its "ended by" column shows the ending's Italian label,
    never the stored code, and no English message anywhere."""
    from engine.endings import Ending

    response = demo.get("/t/demo/export/results.csv")
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(StringIO(text), delimiter=";"))
    with translation.override("it"):
        column = rows[0].index(gettext("Ended by"))
    endings = {row[column] for row in rows[1:] if len(row) > column and row[column]}
    assert endings, "the demo has counted results"
    assert not endings & {e.value for e in Ending}, endings
    assert "Obiettivo raggiunto (RisiKo!)" in endings or "Sdadata" in endings, endings
    assert not sorted(p for p in english_phrases() if p in text)


def test_knockout_refusals_in_italian(demo: Client) -> None:
    """A knock-out plan the rules refuse, on the planning page and in the API, and the K-KO-RCU
    phases' refusals: said in Italian, never with the planner's English."""
    from tables import knockout as ko
    from tables.seating import SeatingError
    from tables.seating_text import seating_error_text

    phrases = english_phrases()
    assert "players cannot fill a final of" in phrases and "players: a knock-out phase needs at least" in phrases
    found: dict[str, list[str]] = {}
    for query in ("entrants=3&final_size=4", "entrants=11&final_size=4", "entrants=20&prefer=fours4",
                  "entrants=tre", "entrants=20000", "entrants=30&final_size=6"):
        for url in (f"/t/demo/knockout/?{query}", f"/api/tournaments/demo/knockout-plan/?{query}"):
            response = demo.get(url)
            assert response.status_code == 400, url
            text = page_text(response.content)
            if "knockout/" in url:
                assert "Giocatori" in text, url  # the planning page itself, in Italian
            hits = sorted(p for p in phrases if p in text)
            if hits:
                found[url] = hits
    plan = ko.plan_knockout(30, 5)
    refusals = [lambda: ko.rcu_plan(9), lambda: ko.rcu_plan(40, "coppa"), lambda: ko.rcu_small_semifinals([2], [1.0]),
                lambda: ko.rcu_semifinals(list(range(13)), "raduno"), lambda: ko.band_tables(list(range(7)), 2, {}),
                lambda: ko.advance(plan, 1, [1, 2]), lambda: ko.advance(plan, 1, list(range(1, 8))),
                lambda: ko.advance(plan, 9, [])]
    for n, refuse in enumerate(refusals):
        with pytest.raises(SeatingError) as caught:
            refuse()
        with translation.override("it"):
            text = seating_error_text(caught.value)
        hits = sorted(p for p in phrases if p in text)
        if hits or text == caught.value.message:
            found[f"refusal {n}: {text}"] = hits
    assert not found, found


def test_a_malformed_record_is_said_in_italian(demo: Client) -> None:
    """A record the parser cannot read (engine/record.py), uploaded on the results page in
    Italian: every problem of form is said in Italian, then how many more."""
    from engine.simulate import simulate
    from tables.models import Table

    table = Table.objects.filter(game__tournament__slug="demo", game__number=2).order_by("number").first()
    assert table is not None
    valid = simulate(4, "malformed")
    broken: list[object] = ['{"format": "risiko-record/1", "players": [', "[1, 2]"]
    for key, value in [("format", "risiko-record/9"), ("ruleset", "SCACCHI"), ("map", "marte"), ("players", []),
                       ("deal", {}), ("events", "nessuno"), ("objectives", ["x"])]:
        broken.append({**valid, key: value})
    many = json.loads(json.dumps(valid))
    for n, event in enumerate(many["events"][:8]):
        event["type" if n % 2 else "seat"] = "teletrasporto" if n % 2 else "primo"
    many["players"][1]["seat"] = 3
    broken.append(many)
    phrases = english_phrases()
    assert "must be a list of dice values, not" in phrases  # the parser's English, from its codes
    found: dict[str, list[str]] = {}
    for record in broken:
        refused = demo.post(f"/t/demo/results/table/{table.pk}/enter/", {
            "kind": "record", "version": "0",
            "record_text": record if isinstance(record, str) else json.dumps(record),
        })
        assert refused.status_code == 400, record
        text = page_text(refused.content)
        assert "FORMAT: FORMAT" not in text, text
        hits = sorted(p for p in phrases if p in text)
        if hits:
            found[str(record)[:60]] = hits
    assert "altri" in text  # nine problems: five said, then how many more
    assert not found, found


def test_rule_set_refusals_in_italian(demo: Client) -> None:
    """An organizer's rule-set overrides the engine refuses (engine/rulesets.py), through the API
    in Italian: each said in Italian, with its rule id once."""
    from engine.violations import EngineError

    phrases = english_phrases()
    assert "is not one of" in phrases and "has no starting armies for" in phrases
    found: dict[str, list[str]] = {}
    for overrides in ({"teleport": 1}, {"army_cap": "molte"}, {"closure": "mai"}, {"tris_values": {"stelle": 3}},
                      {"min_players": 6, "max_players": 4}, {"sdadata_first_threshold": 5, "sdadata_max_threshold": 3}):
        response = demo.patch("/api/tournaments/demo/", {"ruleset_overrides": overrides}, content_type="application/json")
        assert response.status_code == 400, overrides
        text = response.content.decode()
        assert "FORMAT: FORMAT" not in text and "Regolamento" in json.loads(text)["detail"], text
        hits = sorted(p for p in phrases if p in text)
        if hits:
            found[str(overrides)] = hits
    from engine.rulesets import get_ruleset

    with pytest.raises(EngineError) as caught:
        get_ruleset("RTU").armies_for(9)
    with translation.override("it"):
        from common.engine_messages import violation_text

        text = violation_text(caught.value)
    assert text.startswith("T-SIZE: ") and not [p for p in phrases if p in text], text
    assert not found, found


def _password_validator_phrases() -> set[str]:
    """What the password validators say in English: Django's own sentences are not in the
    project's catalogue, and Django's Italian catalogue lacks some (the minimum length)."""
    from django.contrib.auth import password_validation
    from django.contrib.auth.models import User
    from django.core.exceptions import ValidationError

    said: set[str] = set()
    with translation.override("en"):
        for password in ("abc", "12345678901", "giulia-bianchi"):
            try:
                password_validation.validate_password(password, User(username="giulia-bianchi"))
            except ValidationError as exc:
                said |= {f for m in exc.messages for f in _fragments(re.sub(r"\b\d+\b", "%s", m))}
    return said


def test_invitation_audit_and_export_texts_in_italian(demo: Client) -> None:
    """The texts a new organizer meets beyond the event's pages: the invitation page refusing a
    short password, the audit log (sentences and what changed, never an action's code, a stored
    dict or "anonymous"), the spreadsheets downloaded from the pages (no state code)."""
    from tournaments.models import AuditEntry, Invitation

    phrases = english_phrases() | _password_validator_phrases()
    assert "must contain at least" in " | ".join(phrases)
    assert demo.post("/t/demo/staff/invitations/", {"invite-role": "referee"}).status_code == 302
    invitation = Invitation.objects.latest("id")
    found: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    refused = Client(HTTP_ACCEPT_LANGUAGE="it").post(
        f"/invite/{invitation.token}/", {"username": "giulia", "password": "abc", "password2": "abc"})
    assert refused.status_code == 400
    texts["invitation"] = page_text(refused.content)
    assert "troppo corta" in texts["invitation"]
    texts["audit"] = page_text(demo.get("/t/demo/audit/").content)
    for url in ("/t/demo/registrations/export.csv", "/t/demo/export/standings.csv", "/t/demo/export/results.csv"):
        response = demo.get(url)
        assert response.status_code == 200, url
        texts[url] = response.content.decode("utf-8-sig")
    for where, text in texts.items():
        hits = sorted(p for p in phrases if p in text)
        if hits:
            found[where] = hits
    codes = set(AuditEntry.objects.filter(tournament__slug="demo").values_list("action", flat=True))
    assert {"tournament.status", "result.submit", "invitation.create"} <= codes
    audit = texts["audit"]
    shown = sorted(c for c in codes if c in audit)
    assert not shown and "{'" not in audit and '{"' not in audit and "anonymous" not in audit, shown
    assert "Stato: Iscrizioni aperte → In corso" in audit  # the change said in words, not {'status': 'running'}
    states = {cell for row in csv.reader(StringIO(texts["/t/demo/registrations/export.csv"]), delimiter=";")
              for cell in row}
    assert not states & {"registered", "waitlisted", "withdrawn"} and "Iscritto" in states
    assert not found, found
