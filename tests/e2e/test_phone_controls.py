"""At 360 px every control a person must press (buttons, link-buttons, fields, selects) and every
column header of the tables they read is whole on the screen without scrolling sideways, on every
page of an event day: the player's phone (public pages and their personal link), the referee's
(check-in, the referee's table, the result forms, a result), and the organizer's. A table too
wide for a phone becomes one card per row, each value under its column's name; nothing is hidden.
On the way, the player's phone finds its current table and card from an earlier game's slip and
from the tournament page.

The check is ``CLIPPED_CONTROLS`` (tests/e2e/conftest.py), the one every journey's
``Browser.check`` runs; here it goes over every page and reports all of them at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.conftest import CLIPPED_CONTROLS, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def _signed_in(b: Any, username: str, password: str) -> Any:
    page = b.person(PHONE, phone=True)
    page.goto(reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    return page


def _problems(b: Any, page: Any, who: str, pages: list[tuple[str, str]]) -> list[str]:
    found = []
    for name, url in pages:
        page.goto(url)
        page.wait_for_load_state("load")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            found.append(f"{name}: the page is {width}px wide")
        found += [f"{name}: {p}" for p in page.evaluate(CLIPPED_CONTROLS)]
        page.wait_for_load_state("networkidle")  # the clock's first sync is not cut off by leaving
        b.shot(page, f"phone-{who}-{name}")
    return found


def test_every_control_and_column_header_is_whole_at_360px(browser: Any) -> None:
    from tables.models import Game, Seat, Table
    from tournaments import demo, services
    from tournaments.models import Tournament

    call_command("load_demo", verbosity=0)
    t = Tournament.objects.get(slug=demo.SLUG)
    slug = t.slug
    game1 = Game.objects.get(tournament=t, number=1)
    result1 = Table.objects.get(game=game1, number=1)  # confirmed: the full board summary
    table1 = Table.objects.get(game__tournament=t, game__number=2, number=1)
    organizer_user = t.roles.get(role="organizer").user
    seated = Seat.objects.filter(game__tournament=t, game__number=2, player__isnull=False,
                                 player__seats__game=game1).first().player
    link = services.create_link(t, actor=organizer_user, player=seated)
    b = browser

    player = b.person(PHONE, phone=True)
    # game 1's slip scanned again during game 2: the player's own page, at game 2's table
    player.goto(f"/l/{link.token}/?game=1")
    assert "Entra" in player.locator("main form button[type=submit]").inner_text()
    player.click("main form button[type=submit]")  # the landing page's button uses the link
    player.wait_for_url("**" + reverse("tables:player_home", args=[slug]))
    player.goto(f"/l/{link.token}/?game=1")  # scanned again: straight on, no landing page
    player.wait_for_url("**" + reverse("tables:player_home", args=[slug]))
    seat2 = Seat.objects.select_related("table").get(game__tournament=t, game__number=2, player=seated)
    assert "Partita 2" in player.locator(".player-seat").inner_text()
    assert f"Tavolo {seat2.table.number} · posto {seat2.number}" in player.locator(".player-seat").inner_text()
    # the tournament page leads the phone holding the link back there in one tap
    player.goto(reverse("tournaments:detail", args=[slug]))
    player.click("text=La mia carta / il mio tavolo")
    player.wait_for_url("**" + reverse("tables:player_home", args=[slug]))
    player_pages = [
        ("tournament", reverse("tournaments:detail", args=[slug])),
        ("my-page", reverse("tables:player_home", args=[slug])),
        ("my-card", reverse("tables:objective", args=[slug, 2])),
        ("my-table", reverse("tables:table", args=[slug, 2, 1])),
        ("tables", reverse("tables:game_tables", args=[slug, 2])),
        ("where", reverse("tables:where", args=[slug, 2]) + "?q=Rossi"),
        ("standings", reverse("scoring:standings", args=[slug])),
        ("player-standing", reverse("scoring:player", args=[slug, seated.pk])),
        ("result-game1-table1", reverse("scoring:table", args=[slug, result1.pk])),
        ("ranking-contributions", reverse("ranking:event", args=[slug])),
        ("print-standings", reverse("scoring:print", args=[slug])),
    ]
    staff_common = [
        ("checkin", reverse("tournaments:checkin", args=[slug, 2])),
        ("referee-table", reverse("tables_referee:referee_table", args=[slug, 2, 1])),
        ("enter-board", reverse("scoring:enter", args=[slug, table1.pk]) + "?kind=board"),
        ("enter-short", reverse("scoring:enter", args=[slug, table1.pk]) + "?kind=short"),
        ("result-game1-table1-staff", reverse("scoring:table", args=[slug, result1.pk])),
    ]
    organizer_pages = [
        ("results", reverse("scoring:status", args=[slug])),
        ("manage", reverse("tournaments:manage", args=[slug])),
        ("registrations", reverse("tournaments:registrations", args=[slug])),
        ("player-data", reverse("tournaments:player_data", args=[slug, seated.pk])),
        ("staff", reverse("tournaments:staff", args=[slug])),
        ("organize-game2", reverse("tables:organize", args=[slug, 2])),
        ("slips-game2", reverse("tables:slips", args=[slug, 2])),
        ("format", reverse("scoring:format", args=[slug])),
        ("edit", reverse("tournaments:edit", args=[slug])),
        ("audit", reverse("tournaments:audit", args=[slug])),
    ]
    problems = [f"player {p}" for p in _problems(b, player, "player", player_pages)]
    referee = _signed_in(b, *demo.REFEREE)
    problems += [f"referee {p}" for p in _problems(b, referee, "referee", staff_common)]
    organizer = _signed_in(b, *demo.ORGANIZER)
    problems += [f"organizer {p}" for p in _problems(b, organizer, "organizer", staff_common + organizer_pages)]
    assert not problems, "not whole at 360 px:\n" + "\n".join(problems)
    b.assert_clean()
