"""The normal path of the event day breaks no content security policy: the organizer's check-in
taps, the referee's end of turn and result entry, a player's pages on a phone, and the API's
documentation pages. The policy refuses inline styles and other hosts; a refusal the browser
reports (``securitypolicyviolation``, collected by tests/e2e/conftest.py) fails the test, as
htmx's own inline indicator styles did on every check-in tap while they were on."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.conftest import PHONE
from tests.e2e.test_event_day import login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

ORGANIZER = ("organizzatore", "risiko-organizza")  # tournaments/demo.py
REFEREE = ("arbitro", "risiko-arbitra")
SLUG = "demo"


def _htmx_tap(page: Any, selector: str) -> None:
    """Tap a control whose form htmx sends, and wait for the answer to be swapped in."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.request.headers.get("hx-request")):
        page.locator(selector).first.tap()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")


def _organizer_checks_players_in(b: Any) -> None:
    org = b.person(PHONE, phone=True)
    checkin = reverse("tournaments:checkin", args=[SLUG, 3])
    login(org, *ORGANIZER, checkin)
    for _ in range(2):  # present, then absent again
        _htmx_tap(org, "#checkin-rows button[type=submit]")
    with org.expect_response(lambda r: "q=" in r.url):
        org.fill("#q", "a")
    org.locator("#checkin-rows input[type=checkbox]").first.check()
    org.click("#checkin-bulk button[value=selected]")
    org.wait_for_load_state("load")


def _referee_plays_and_enters_a_result(b: Any, table_pk: int) -> None:
    ref = b.person(PHONE, phone=True)
    panel = reverse("tables_referee:referee_table", args=[SLUG, 2, 1])
    login(ref, *REFEREE, panel)
    ref.fill("#id_conquered", "0")
    _htmx_tap(ref, "form:has(input[name=action][value=end_turn]) button[type=submit]:not([name])")
    assert ref.locator("#referee-panel").count() == 1
    enter = reverse("scoring:enter", args=[SLUG, table_pk])
    ref.goto(enter + "?kind=short")
    ref.select_option("#ended_by", "time")
    seats = ref.locator("input.short-obj").count()
    for i in range(seats):  # the objective and outside-objective points add up to 164
        ref.locator("input.short-obj").nth(i).fill(str(164 // seats))
        ref.locator("input.short-extra").nth(i).fill(str(164 % seats if i == 0 else 0))
        ref.locator("input[name^=armies_]").nth(i).fill(str(20 + i))
    ref.click("#result-form button[type=submit]")
    ref.wait_for_url("**" + reverse("scoring:table", args=[SLUG, table_pk]))


def _player_looks_around(b: Any, name: str) -> None:
    phone = b.person(PHONE, phone=True)
    phone.goto(reverse("tournaments:detail", args=[SLUG]))
    phone.goto(reverse("tables:where", args=[SLUG, 2]))
    phone.fill("input[name=q]", name)
    phone.click("form.where-form button[type=submit]")
    phone.locator("main a[href*='/tables/']").first.click()
    phone.wait_for_load_state("load")
    phone.goto(reverse("tables:objective", args=[SLUG, 1]))  # game 1 is over: every card shows
    assert phone.locator(".objective-card").count() > 0
    phone.goto(reverse("scoring:standings", args=[SLUG]))
    phone.locator("#standings a").first.click()
    phone.wait_for_load_state("load")


def test_the_event_days_normal_path_breaks_no_content_security_policy(browser: Any) -> None:
    from tables.models import Seat, Table

    call_command("load_demo", stdout=StringIO())
    b = browser
    _organizer_checks_players_in(b)
    table = Table.objects.get(game__tournament__slug=SLUG, game__number=2, number=2)
    _referee_plays_and_enters_a_result(b, table.pk)
    seat = Seat.objects.filter(game__tournament__slug=SLUG, game__number=2,
                               player__isnull=False).select_related("player").first()
    _player_looks_around(b, seat.player.last_name)
    b.assert_clean()


def test_the_api_documentation_breaks_no_policy_and_reaches_no_other_host(browser: Any) -> None:
    page = browser.person()
    page.goto("/api/redoc/")
    page.wait_for_selector("text=API docs by Redocly")  # the sidebar, with its logo, is drawn
    page.goto("/api/docs/")
    page.locator(".opblock-summary").first.click()
    page.wait_for_selector(".opblock-body")
    browser.assert_clean()
