"""The organizer's registrations page in a real browser, with an event's worth of players (the
demo): a refused player is shown where the organizer is looking, with what was typed; a CSV
file with problem lines lists them all in view, and its other lines import with one button,
without choosing the file again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

IN_VIEW = """e => { const r = e.getBoundingClientRect();
                    return r.top >= 0 && r.bottom <= window.innerHeight; }"""


def test_refusals_on_the_registrations_page_are_shown_where_the_organizer_looks(
        browser: Any, tmp_path: Path) -> None:
    from tournaments import demo
    from tournaments.models import Registration

    call_command("load_demo", verbosity=0)
    slug = demo.SLUG
    page = browser.person()
    url = reverse("tournaments:registrations", args=[slug])
    page.goto(reverse("login") + "?next=" + url)
    page.fill("input[name=username]", demo.ORGANIZER[0])
    page.fill("input[name=password]", demo.ORGANIZER[1])
    page.click("main button[type=submit]")
    page.wait_for_url("**" + url)
    refused = {reverse("tournaments:register", args=[slug]), reverse("tournaments:import", args=[slug])}
    browser.allowed_status |= {(path, 400) for path in refused}  # a refusal answers 400

    # a player already registered, typed again by hand: the page comes back at the form
    taken = Registration.objects.filter(tournament__slug=slug).select_related("player__club").first().player
    page.click("text=Aggiungi un giocatore")
    page.fill("#id_first_name", taken.first_name)
    page.fill("#id_last_name", taken.last_name)
    page.fill("#id_club", taken.club.name)
    page.fill("#id_email", "di-nuovo@example.org")
    page.click("#add-player button[type=submit]")
    page.wait_for_load_state("load")
    error = page.locator("#add-player .errorlist").first
    assert "già iscritt" in error.inner_text()
    assert error.evaluate(IN_VIEW), "the refusal is not on screen"
    assert page.input_value("#id_email") == "di-nuovo@example.org"
    browser.check(page, "registrations-refused-player")

    # a CSV file with two problem lines: both listed, in view; then the other lines import
    csv_file = tmp_path / "iscritti.csv"
    csv_file.write_text("nome;cognome;circolo\nNiccolò;D'Amico;Circolo A\nAnna;Verdi;Circolo A\n"
                        f"{taken.first_name};{taken.last_name};{taken.club.name}\nNiccolò;D'Amico;Circolo A\n",
                        encoding="utf-8")
    page.set_input_files("#import input[type=file]", str(csv_file))
    page.click("#import form[enctype] button[type=submit]")
    page.wait_for_load_state("load")
    problems = page.locator(".csv-problems")
    assert problems.evaluate(IN_VIEW), "the problem lines are not on screen"
    text = problems.inner_text()
    assert "Riga 4 (Cognome)" in text and "Riga 5 (Cognome): Niccolò D'Amico è già alla riga 2 di questo file." in text
    browser.check(page, "registrations-csv-problems", full_page=False)  # the list, where it is read
    page.click("text=Importa le altre righe (2)")
    page.wait_for_url("**" + url)
    assert "2 iscrizioni importate" in page.locator(".messages").inner_text()
    assert Registration.objects.filter(tournament__slug=slug, player__last_name__in=["D'Amico", "Verdi"]).count() == 2
    # the browser logs the 400 answers it was given; nothing else is allowed
    browser.problems = [p for p in browser.problems
                        if not ("status of 400" in p and any(path in p for path in refused))]
    browser.assert_clean()
