"""The demo (``manage.py load_demo``) as a newcomer sees it: game 1 finished with confirmed
results, game 2 running with clocks; every page answers, is alive, fits a 360 px phone, passes
axe-core (no serious/critical violation) and makes no console error, failed request or request
to another host (the watchers of tests/e2e/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.conftest import PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_every_demo_page_is_alive_accessible_and_fits_a_phone(browser: Any) -> None:
    from scoring import selectors as scoring_selectors
    from tables.models import Game, Table
    from tournaments import demo
    from tournaments.models import AccessLink, Tournament

    call_command("load_demo", verbosity=0)
    t = Tournament.objects.get(slug=demo.SLUG)
    game1, game2 = (Game.objects.get(tournament=t, number=n) for n in (1, 2))
    # the demo is a tournament in full swing: game 1 done and confirmed, game 2 on the clock
    assert game1.status == "finished" and game2.status == "running"
    assert all(s.status == scoring_selectors.CONFIRMED
               for s in scoring_selectors.table_states(t, game1))
    running = Table.objects.filter(game=game2)
    assert running.exists() and all(tb.deadline and not tb.expired_marked_at for tb in running)
    table1 = Table.objects.get(game=game2, number=1)
    result1 = Table.objects.get(game=game1, number=1)
    b = browser
    slug = t.slug

    public = [
        ("demo-list", reverse("tournaments:list")),
        ("demo-tournament", reverse("tournaments:detail", args=[slug])),
        ("demo-standings", reverse("scoring:standings", args=[slug])),
        ("demo-game2-tables", reverse("tables:game_tables", args=[slug, 2])),
        ("demo-game2-table1", reverse("tables:table", args=[slug, 2, 1])),
        ("demo-where", reverse("tables:where", args=[slug, 2]) + "?q=Rossi"),
        ("demo-projector", reverse("tables_referee:projector", args=[slug, 2])),
        ("demo-result-game1-table1", reverse("scoring:table", args=[slug, result1.pk])),
        # the event's contribution to the national ranking and the printable ranking, on a phone
        ("demo-ranking-contribution", reverse("ranking:event", args=[slug])),
        ("demo-ranking-print", reverse("scoring:print", args=[slug])),
        ("demo-login", reverse("login")),
        # a private link's landing page (who the phone will be, and its button): opening it changes nothing
        ("demo-private-link", reverse("tournaments:link", args=[
            AccessLink.objects.filter(tournament=t, kind="referee").first().token])),
    ]
    phone = b.person(PHONE, phone=True)
    for name, url in public:
        phone.goto(url)
        b.check(phone, f"{name}-phone")
    # the standings are not empty: game 1's confirmed results count
    phone.goto(reverse("scoring:standings", args=[slug]))
    assert phone.locator("#standings tbody tr").count() >= 20
    # the running clock counts down on the public table page
    phone.goto(reverse("tables:table", args=[slug, 2, 1]))
    first = phone.locator("[data-clock-text]").first.inner_text()
    phone.wait_for_function(
        "t => document.querySelector('[data-clock-text]').textContent.trim() !== t", arg=first,
        timeout=5_000)

    organizer = b.person()
    organizer.goto(reverse("login") + "?next=" + reverse("tournaments:manage", args=[slug]))
    organizer.fill("input[name=username]", demo.ORGANIZER[0])
    organizer.fill("input[name=password]", demo.ORGANIZER[1])
    organizer.click("main button[type=submit]")
    organizer.wait_for_url("**" + reverse("tournaments:manage", args=[slug]))
    staff_pages = [
        ("demo-manage", reverse("tournaments:manage", args=[slug])),
        ("demo-registrations", reverse("tournaments:registrations", args=[slug])),
        ("demo-player-data", reverse("tournaments:player_data", args=[
            slug, t.registrations.order_by("pk").first().player_id])),
        ("demo-checkin", reverse("tournaments:checkin", args=[slug, 2])),
        ("demo-staff", reverse("tournaments:staff", args=[slug])),
        ("demo-organize-game2", reverse("tables:organize", args=[slug, 2])),
        ("demo-results", reverse("scoring:status", args=[slug])),
        ("demo-workbook", reverse("workbook:export", args=[slug])),
        ("demo-workbook-import", reverse("workbook:import")),
        ("demo-referee-table", reverse("tables_referee:referee_table", args=[slug, 2, 1])),
        ("demo-enter-result", reverse("scoring:enter", args=[slug, table1.pk])),
    ]
    for name, url in staff_pages:
        organizer.goto(url)
        b.check(organizer, name)
    organizer.set_viewport_size(PHONE)
    for name, url in staff_pages:
        organizer.goto(url)
        b.check(organizer, f"{name}-phone")
    # printouts: the table sheet and the ranking print without the site's menus
    organizer.set_viewport_size({"width": 1280, "height": 900})
    for name, url in [("demo-sheet-print", reverse("tables:sheet", args=[slug, 2, 1])),
                      ("demo-ranking-print", reverse("scoring:print", args=[slug]))]:
        organizer.goto(url)
        b.axe(organizer, name)
        text = b.printed(organizer, name)
        assert t.name in text

    # English is complete enough to switch to from every page's language menu
    phone.goto(reverse("tournaments:detail", args=[slug]))
    assert phone.locator("html").get_attribute("lang") == "it"
    phone.select_option("#language", "en")
    phone.wait_for_function("() => document.documentElement.lang === 'en'")
    b.check(phone, "demo-tournament-phone-en")
    b.assert_clean()
