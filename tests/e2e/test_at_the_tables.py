"""At the tables and at composition, what a person sees in a real browser (Italian, phones at
360 px for the referee):

- the final-board form starts on an ending possible now and says when sdadata becomes possible;
  what is typed survives a reload (a draft in the browser), the page says it was restored, and
  the draft is gone once the result is saved; the author then reads why there is no "Conferma";
- a RisiKo! refusal on the short form says what to type where, its rule once;
- a running clock reads h:mm:ss all the way down; a closed game's clocks stand still;
- the organizer moves a priority (the others shift on the page), previews what the order costs,
  and finds "Distribuisci anche le carte obiettivo" ticked in an RTU game.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.conftest import PHONE
from tests.e2e.test_event_day_people import PASSWORD, day, login
from tests.factories.tournaments import make_user

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def running_game(players: int = 8) -> tuple[Any, Any, Any]:
    """A running game 1 with a referee ("arbitro"); returns (organizer, tournament, game)."""
    from tables import services as tables
    from tournaments import services

    organizer, tournament, _regs = day(players, checked_in=True)
    make_user("arbitro", password=PASSWORD)
    services.add_role(tournament, "arbitro", "referee", actor=organizer)
    game = tables.compose_game(tables.ensure_game(tournament, 1, actor=organizer),
                               actor=organizer, seed="tavoli", effort=0.3)
    return organizer, tournament, tables.start_game(game, actor=organizer, seed="deal")


def drafts(page: Any) -> list[str]:
    return page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('risiko-result-draft:'))")


def test_a_reload_keeps_the_board_typed_and_the_author_reads_why_there_is_no_confirm(browser: Any) -> None:
    from engine.board import load_board
    from scoring.models import ResultSubmission
    from tables.models import Table

    b = browser
    _org, tournament, game = running_game()
    table = Table.objects.get(game=game, number=1)
    url = reverse("scoring:enter", args=[tournament.slug, table.pk])
    ref = b.person(PHONE, phone=True)
    login(ref, "arbitro", PASSWORD, url)

    # the clock runs: the ending offered is the objective, and the page says when sdadata can end it
    assert ref.locator("#ended_by").input_value() == "objective"
    hint = ref.locator("#ending-help").inner_text()
    until = timezone.localtime(table.deadline).strftime("%H:%M")
    assert f"La sdadata diventa possibile quando scade il tempo di questo tavolo, alle {until}" in hint
    assert ref.locator("#draft-restored").is_hidden()

    # type part of the board, then the phone reloads (pull-to-refresh)
    names = load_board("world").names
    alaska = names.index("Alaska")
    ref.fill(f"input[name=armies_t{alaska}]", "7")
    ref.check(f"input[name=owner_{alaska}][value='2']")
    ref.select_option("select[name=objective_1]", index=1)
    card = ref.locator("select[name=objective_1]").input_value()
    ref.reload()
    ref.wait_for_load_state("load")
    note = ref.locator("#draft-restored")
    note.wait_for(state="visible")
    assert "È stata ripristinata una bozza di questo risultato" in note.inner_text()
    assert ref.locator(f"input[name=armies_t{alaska}]").input_value() == "7"
    assert ref.locator(f"input[name=owner_{alaska}][value='2']").is_checked()
    assert ref.locator("select[name=objective_1]").input_value() == card
    assert len(drafts(ref)) == 1
    ref.evaluate("() => window.scrollTo(0, 0)")  # the notice and the ending's hint, on top
    b.shot(ref, "tables-01-draft-restored", full_page=False)

    # the whole board, saved: the draft is gone, and its author reads why there is no "Conferma"
    from tests.factories import scoring as f

    objectives = [s.objective for s in table.seats.order_by("number")]
    data = f.board_data(objectives, winner=1, armies=[40, 30, 30, 30, 30][:len(objectives)])
    for s in data["players"]:
        ref.select_option(f"select[name=objective_{s['seat']}]", s["objective"])
    fill = """([owners, armies]) => {
        owners.forEach(([i, seat]) => { document.querySelector(`input[name=owner_${i}][value="${seat}"]`).checked = true; });
        armies.forEach(([i, n]) => { document.querySelector(`input[name=armies_t${i}]`).value = n; });
        document.getElementById('result-form').dispatchEvent(new Event('input', {bubbles: true}));
    }"""
    ref.evaluate(fill, [[[names.index(t), o] for t, o in data["owners"].items()],
                        [[names.index(t), n] for t, n in data["armies"].items()]])
    with ref.expect_navigation():
        ref.click("#result-form button[type=submit]")
    assert ResultSubmission.objects.filter(table=table).count() == 1, ref.locator("main").inner_text()[:800]
    assert drafts(ref) == []
    why = ref.locator("#confirm-why-not")
    assert "chi ha inserito il risultato non può confermarlo, serve un'altra persona" in why.inner_text()
    assert ref.locator("form[action*='/confirm/'] button").count() == 0
    b.check(ref, "tables-02-own-entry-no-confirm")
    b.assert_clean()


def test_a_risiko_refusal_says_what_to_type_where_with_its_rule_once(browser: Any) -> None:
    from tables.models import Table

    b = browser
    _org, tournament, game = running_game()
    table = Table.objects.get(game=game, number=1)
    url = reverse("scoring:enter", args=[tournament.slug, table.pk]) + "?kind=short"
    ref = b.person(PHONE, phone=True)
    login(ref, "arbitro", PASSWORD, url)
    seats = table.seats.count()
    rows = [(80, 0, 30), (30, 20, 25), (20, 10, 20), (10, 4, 15), (4, 0, 10)][:seats]
    for seat, (o, e, a) in enumerate(rows, start=1):
        ref.fill(f"input[name=objective_points_{seat}]", str(o))
        ref.fill(f"input[name=extra_points_{seat}]", str(e))
        ref.fill(f"input[name=armies_{seat}]", str(a))
    ref.check("input[name=risiko_1]")
    b.allowed_status.add((url.split("?")[0], 400))
    with ref.expect_navigation():
        ref.click("#result-form button[type=submit]")
    error = ref.locator("#entry-error").inner_text()
    name = table.seats.get(number=1).player.display_name
    assert (f"Il posto 1 ({name}) ha fatto RisiKo!, quindi possiede tutta la carta: scrivi 86 in "
            f"“Punti obiettivo” nella sua riga") in error, error
    assert ref.locator("main").inner_text().count("O-RTU") == 1
    # what was typed is kept
    assert ref.locator("input[name=objective_points_1]").input_value() == "80"
    b.shot(ref, "tables-03-risiko-refusal")
    b.problems = [p for p in b.problems if "status of 400" not in p]
    b.assert_clean()


CLOCK_TEXT = "() => [...document.querySelectorAll('[data-clock]')].map(e => [e.dataset.state, e.querySelector('[data-clock-text]').textContent.trim()])"


def test_a_clock_reads_one_format_and_a_closed_games_clocks_stand_still(browser: Any) -> None:
    from tables.models import Game, Table

    b = browser
    _org, tournament, game = running_game()
    # one table with an hour and a half left, the other with four minutes
    t1, t2 = Table.objects.filter(game=game).order_by("number")[:2]
    now = timezone.now()
    Table.objects.filter(pk=t1.pk).update(deadline=now + dt.timedelta(minutes=89, seconds=50))
    Table.objects.filter(pk=t2.pk).update(deadline=now + dt.timedelta(minutes=4, seconds=10))
    from common import live

    live.bump(tournament.slug)
    phone = b.person(PHONE, phone=True)
    phone.goto(reverse("tables:game_tables", args=[tournament.slug, 1]))
    phone.wait_for_function("() => /\\d:\\d\\d:\\d\\d/.test(document.querySelector('[data-clock] [data-clock-text]').textContent)")
    shown = phone.evaluate(CLOCK_TEXT)
    assert [s for s, _t in shown] == ["running", "running"], shown
    assert re.fullmatch(r"1:29:\d\d", shown[0][1]), shown
    assert re.fullmatch(r"0:0[34]:\d\d", shown[1][1]), shown  # not "4:09"

    # the organizer closes the game: every clock stops, nothing counts down any more
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    phone.reload()
    first = phone.evaluate(CLOCK_TEXT)
    assert [s for s, _t in first] == ["stopped", "stopped"], first
    assert {t for _s, t in first} == {"Orologio fermo: la partita è chiusa"}
    time.sleep(2.2)
    assert phone.evaluate(CLOCK_TEXT) == first
    b.check(phone, "tables-04-closed-game-clocks")
    b.assert_clean()


def test_the_organizer_moves_a_priority_and_previews_its_costs(browser: Any) -> None:
    from tables.models import Table

    b = browser
    organizer, tournament, _regs = day(9, checked_in=True)
    org = b.person()
    url = reverse("tables:organize", args=[tournament.slug, 1])
    login(org, "organizzatrice", PASSWORD, url)
    order = ["repeat_five", "winners_apart", "club_apart", "repeat_opponents", ""]
    assert [org.locator(f"#id_priority_{n}").input_value() for n in range(1, 6)] == order
    # "Priorità 1" := "stesso club separato" (it was "Priorità 3"): it moves, the others shift
    org.select_option("#id_priority_1", "club_apart")
    moved = [org.locator(f"#id_priority_{n}").input_value() for n in range(1, 6)]
    assert moved == ["club_apart", "repeat_five", "winners_apart", "repeat_opponents", ""], moved
    with org.expect_navigation():
        org.click("button[name=action][value=preview]")
    preview = org.locator("#compose-preview")
    text = preview.inner_text()
    assert "Quanto costa questo ordine" in text and "1. stesso club separato" in text
    for label in ("Coppie ripetute", "Vincitori precedenti insieme", "Posti ripetuti ai tavoli da 5",
                  "Coppie dello stesso club"):
        assert label in text, text
    assert not Table.objects.filter(game__tournament=tournament).exists()
    assert org.locator("#id_priority_1").input_value() == "club_apart"
    assert org.locator("#id_seed").input_value()
    assert "Priorità sconosciute" not in org.locator("main").inner_text()
    b.check(org, "tables-05-compose-preview")
    with org.expect_navigation():
        org.click("button[name=action][value=compose]")
    assert Table.objects.filter(game__tournament=tournament).exists()
    # an RTU game deals the objective cards unless the organizer unticks it
    assert org.locator("input[name=deal_objectives]").is_checked()
    b.assert_clean()
