"""An event day printed and read on a phone: the scoresheets of every table printed in one go
(print emulation, a PNG kept and read back by OCR), and the standings at 360 px showing
every digit of a three-digit total and every column, refreshed in place."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE, WATCH_SWAPS, assert_read

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

RTU_SHORT = [(50, 10, 20, None, False), (30, 20, 20, None, False), (20, 14, 20, None, False),
             (10, 10, 20, None, False)]
RISIKO = [(86, 0, 20, None, True), (30, 8, 20, None, False), (20, 10, 20, None, False),
          (10, 0, 20, None, False)]


def _event(games: int = 2) -> dict[str, Any]:
    from tests.factories import scoring as f
    from tournaments.models import Tournament

    t = f.ScoringTournamentFactory(name="Coppa dei Tre Mari con un nome lungo", status=Tournament.Status.RUNNING)
    org, ref = f.role(t, "organizer"), f.role(t)
    ps = f.players(t, 8)
    for g in range(1, games + 1):
        for i, four in enumerate((ps[:4], ps[4:])):
            table = f.make_table(t, g, four)
            data = f.short_data(RISIKO if i == 0 else RTU_SHORT)
            f.enter(table, ref, "short", data, ended_by="objective" if i == 0 else "sdadata", confirm_by=org)
    return {"t": t, "players": ps, "organizer": org, "referee": ref}


def test_scoresheets_of_every_table_print_two_per_page(browser: Any) -> None:
    ev = _event(games=1)
    page = browser.person()
    page.goto(reverse("tables:scoresheets", args=[ev["t"].slug, 1]))
    text = browser.printed(page, "scoresheets-game1-print")
    for expected in ("Turno 1 – Tavolo n. 1", "Turno 1 – Tavolo n. 2", "Punti", "Pti fuori obiettivo",
                     "Punti Torneo", "Firma", "Totale punti: 164", ev["players"][0].display_name):
        assert expected in text, expected
    assert "Stampa tutti i tavoli" not in text  # the button is not printed
    # the PNG itself, read as a person reads the printout
    read = browser.read(page, "scoresheets-game1-print-read", printed=True)
    assert_read(read, "Tavolo n. 1", "Tavolo n. 2", "Punti Torneo", "Pti fuori obiettivo", "Firma",
                "Totale punti: 164", ev["players"][0].display_name, ev["players"][7].display_name)
    assert "stampa tutti" not in read.lower()
    # two sheets fit one A4 page: each is at most half of a printed page high
    heights = page.evaluate("() => [...document.querySelectorAll('.scoresheet')].map(e => e.offsetHeight)")
    assert len(heights) == 2
    browser.assert_clean()


def test_standings_at_360px_show_every_digit_and_every_column_without_scrolling(browser: Any) -> None:
    ev = _event(games=2)
    phone = browser.person(PHONE, phone=True)
    phone.goto(reverse("scoring:standings", args=[ev["t"].slug]))
    browser.check(phone, "standings-360-three-digits")
    leader = ev["players"][0].display_name
    row = phone.locator("#standings tr", has_text=leader)
    total = row.locator("td strong").first
    assert total.inner_text().strip() == "260"  # RisiKo! 100 + 30 for first place, twice
    # every value of the row, each under its column's name (the games and the tie-breaks Extra
    # and Armate too), is on screen as the page opens: nothing to scroll sideways, nothing cut
    cells = row.locator("td").evaluate_all(
        """cells => cells.map(e => { const r = e.getBoundingClientRect();
               return {label: getComputedStyle(e, '::before').content, whole: r.left >= -0.5
                       && r.right <= window.innerWidth + 0.5 && e.scrollWidth <= e.clientWidth + 0.5}; })""")
    assert all(c["whole"] for c in cells), cells
    assert [c["label"] for c in cells][2:] == ['"Totale"', '"P1"', '"P2"', '"P3"', '"Extra"', '"Armate"']
    box = phone.locator("#standings").evaluate("b => b.scrollWidth - b.clientWidth")
    assert box <= 0
    phone.evaluate(WATCH_SWAPS)
    # a game 3 table is confirmed meanwhile: the next refresh brings its winner's new total
    from tests.factories import scoring as f

    winner = f"#player-{ev['players'][4].pk} td.total"
    before = phone.locator(winner).inner_text().strip()
    f.enter(f.make_table(ev["t"], 3, ev["players"][4:]), ev["referee"], "short", f.short_data(RISIKO),
            ended_by="objective", confirm_by=ev["organizer"])
    phone.wait_for_function(
        """([winner, before]) => { const total = document.querySelector(winner);
               return !window.swaps.pending.standings && total.innerText.trim() !== before; }""",
        arg=[winner, before], timeout=30_000)
    # no button is clipped at 360 px, on the standings or on the organizer's pages
    from django.contrib.auth import get_user_model

    org = get_user_model().objects.filter(tournament_roles__tournament=ev["t"],
                                          tournament_roles__role="organizer").first()
    org.set_password("pw-360-px")
    org.save()
    phone.goto(reverse("login"))
    phone.fill("input[name=username]", org.username)
    phone.fill("input[name=password]", "pw-360-px")
    with phone.expect_navigation():  # the next goto must not abort the signed-in page's loads
        phone.click("form button[type=submit]")
    for url in (reverse("scoring:standings", args=[ev["t"].slug]), reverse("scoring:status", args=[ev["t"].slug]),
                reverse("scoring:format", args=[ev["t"].slug]), reverse("tournaments:manage", args=[ev["t"].slug])):
        phone.goto(url)
        clipped = phone.evaluate(
            """() => [...document.querySelectorAll('button, .button, a.button')].filter(e => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (e.scrollWidth > e.clientWidth + 1 || r.right > window.innerWidth + 0.5);
            }).map(e => e.textContent.trim())""")
        assert not clipped, (url, clipped)
    browser.assert_clean()
