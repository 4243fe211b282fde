"""How a game ends is listed once (engine.endings.Ending) and said once (common.engine_messages.ENDINGS):
the result's field, the entry page, the API and the engine all take it from there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from common import engine_messages
from engine.endings import ENTERED, Ending
from scoring.models import ResultSubmission
from scoring.serializers import ResultInputSerializer

ROOT = Path(__file__).resolve().parents[2]


def test_the_endings_are_the_contracts() -> None:
    """The record contract's values plus S-TA's time and deck: nothing else, nothing renamed."""
    assert {e.value for e in Ending} == {"objective", "sdadata", "elimination", "incomplete", "time", "deck"}


@pytest.mark.parametrize("ending", list(Ending))
def test_every_ending_is_said_in_italian_and_english(ending: Ending) -> None:
    with translation.override("en"):
        english = str(engine_messages.ENDINGS[ending])
    assert english.strip()
    catalog = translation.trans_real.translation("it")._catalog  # noqa: SLF001 - the compiled .po
    assert catalog.get(english), f"no Italian for {ending}"


def test_the_result_the_form_and_the_api_offer_the_same_endings() -> None:
    entered = [e.value for e in ENTERED]
    assert [v for v, _label in ResultSubmission._meta.get_field("ended_by").choices] == entered
    assert list(ResultInputSerializer().fields["ended_by"].choices) == entered
    assert [v for v, _label in engine_messages.ENDING_CHOICES] == entered


def test_no_second_list_of_endings() -> None:
    """A tuple, choices class or template list naming two endings outside engine/endings.py is a
    second list: take the endings from engine.endings (and the words from scoring.labels)."""
    names = "|".join(e.value for e in Ending)
    two = re.compile(rf"[\"']({names})[\"'][^\n]*[\"']({names})[\"']")
    found = []
    for folder in ("engine", "scoring", "tables", "tournaments", "config", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html") or "migrations" in path.parts or path.name == "endings.py":
                continue
            found += [f"{path.relative_to(ROOT)}: {line.strip()}" for line in path.read_text().splitlines()
                      if two.search(line) and not line.lstrip().startswith("#")]
    assert found == []


@pytest.mark.django_db
def test_the_entry_page_shows_the_endings_in_italian(client: Any, setup: dict[str, Any]) -> None:
    client.force_login(setup["ref1"])
    t, table = setup["t"], setup["table"]
    page = client.get(f"/t/{t.slug}/results/table/{table.pk}/enter/", HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200
    with translation.override("it"):
        for ending in ENTERED:
            assert f'<option value="{ending.value}"' in page.content.decode()
        assert str(engine_messages.ENDINGS[Ending.OBJECTIVE]) in page.content.decode()
