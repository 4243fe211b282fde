"""What a referee sees at the table while entering and confirming a result (issue: event day,
round three): the ending the form starts on and when sdadata becomes possible, why the author of
an entry has no "Conferma", RisiKo! refusals that say what to type where, and a rule id said
once. Through the pages, in Italian."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import ResultSubmission
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


def text_of(response: Any) -> str:
    body = response.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def selected_ending(page: str) -> str:
    select = page.split('name="ended_by"')[1].split("</select>")[0]
    return re.search(r'<option value="(\w+)" selected>', select).group(1)


def run_clock(table: Any, left: dt.timedelta) -> None:
    now = timezone.now()
    table.clock_started_at = now - dt.timedelta(minutes=30)
    table.deadline = now + left
    table.save(update_fields=["clock_started_at", "deadline"])


def entry_url(setup: dict[str, Any]) -> str:
    return f"/t/{setup['t'].slug}/results/table/{setup['table'].pk}/enter/"


def test_while_the_clock_runs_the_form_starts_on_the_objective_and_says_when_sdadata_can_end_it(
        client, setup) -> None:
    table = setup["table"]
    run_clock(table, dt.timedelta(minutes=25, seconds=30))
    client.force_login(setup["ref1"])
    page = client.get(entry_url(setup))
    assert selected_ending(page.content.decode()) == "objective"
    deadline = timezone.localtime(table.deadline).strftime("%H:%M")
    assert (f"La sdadata diventa possibile quando scade il tempo di questo tavolo, alle {deadline} "
            f"(tra 26 minuti).") in text_of(page)
    # the board entered early with the ending the form offered is not refused for the ending
    data = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    from tests.scoring.test_pages import _board_post

    assert client.post(entry_url(setup), _board_post(setup, data, "objective")).status_code == 302


def test_once_the_time_has_expired_the_form_starts_on_sdadata_and_says_nothing_more(client, setup) -> None:
    table = setup["table"]
    run_clock(table, dt.timedelta(minutes=25))
    f.expire_clock(table)
    client.force_login(setup["ref1"])
    page = client.get(entry_url(setup))
    assert selected_ending(page.content.decode()) == "sdadata"
    assert "diventa possibile" not in text_of(page)


def test_the_author_of_an_entry_is_told_why_there_is_no_confirm(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    sub = f.enter(table, setup["ref1"], "board",
                  f.board_data(setup["objectives"], winner=1, armies=[40, 30, 30, 30]), "objective")
    url = f"/t/{t.slug}/results/table/{table.pk}/"
    client.force_login(setup["ref1"])
    mine = client.get(url)
    assert f"/results/{sub.pk}/confirm/" not in mine.content.decode()
    assert ("chi ha inserito il risultato non può confermarlo, serve un'altra persona"
            in text_of(mine))
    client.force_login(setup["ref2"])
    other = client.get(url)
    assert f"/results/{sub.pk}/confirm/" in other.content.decode()
    assert "non può confermarlo" not in text_of(other)


SHORT = [(40, 10, 30, None, False), (30, 20, 25, None, False), (20, 14, 20, None, False), (10, 20, 15, None, False)]


def _short_post(rows: list[tuple[int, int, int, int | None, bool]], ended_by: str) -> dict[str, Any]:
    post: dict[str, Any] = {"kind": "short", "version": 0, "ended_by": ended_by}
    for seat, (o, e, a, el, risiko) in enumerate(rows, start=1):
        post.update({f"objective_points_{seat}": o, f"extra_points_{seat}": e, f"armies_{seat}": a,
                     f"eliminated_{seat}": el or ""})
        if risiko:
            post[f"risiko_{seat}"] = "1"
    return post


def test_a_risiko_refusal_says_what_to_type_where(client, setup) -> None:
    """Not only the fact ("holds the whole card"): the number, the column and the other way out."""
    client.force_login(setup["ref1"])
    name = setup["players"][0].display_name
    rows = [(80, 0, 30, None, True), (30, 20, 25, None, False), (20, 10, 20, None, False), (10, 4, 15, None, False)]
    refused = client.post(entry_url(setup), _short_post(rows, "objective"))
    assert refused.status_code == 400
    said = text_of(refused)
    assert (f"Il posto 1 ({name}) ha fatto RisiKo!, quindi possiede tutta la carta: scrivi 86 in "
            f"“Punti obiettivo” nella sua riga, oppure togli la spunta a “RisiKo!” se non l'ha fatto.") in said
    # a whole card without the tick: tick it and choose the ending
    rows = [(86, 0, 30, None, False), (30, 20, 25, None, False), (20, 4, 20, None, False), (4, 0, 15, None, False)]
    said = text_of(client.post(entry_url(setup), _short_post(rows, "sdadata")))
    assert "spunta il suo “RisiKo!” e scegli “Obiettivo raggiunto (RisiKo!)” in “Come è finita la partita”" in said
    assert not ResultSubmission.objects.exists()


def test_a_refusal_on_the_entry_page_names_its_rule_once(client, setup) -> None:
    """The engine's finding on a final board: "O-RTU: … [O-RTU]" was printed; now once."""
    from tests.scoring.test_pages import _board_post

    client.force_login(setup["ref1"])
    data = f.board_data(setup["objectives"], winner=1, armies=[40, 30, 30, 30])
    refused = client.post(entry_url(setup), _board_post(setup, data, "sdadata"))
    assert refused.status_code == 400
    said = text_of(refused)
    assert "quindi ha fatto RisiKo!: scegli “Obiettivo raggiunto (RisiKo!)” in “Come è finita la partita”" in said
    assert said.count("O-RTU") == 1, said
