"""Players help themselves, on a 360 px phone, in Italian: a seated player opens their personal
link once and finds their table, seat, clock and standing on their own page; while the organizer's
window for the next game is open they check themselves in with one tap (and the organizer's
check-in page says they did it themselves); at their table they call the referee, the call
shows on the referee's page with the table's number and leaves it when the referee takes it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.e2e.conftest import PHONE

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


def test_self_checkin_and_calling_the_referee_on_a_phone(browser: Any) -> None:
    from selfservice import services as selfservice
    from selfservice.models import RefereeCall
    from tables.models import Seat, Table
    from tournaments import demo, services
    from tournaments.models import Tournament

    call_command("load_demo", verbosity=0)
    t = Tournament.objects.get(slug=demo.SLUG)
    slug = t.slug
    organizer_user = t.roles.get(role="organizer").user
    assert not Table.objects.filter(game__tournament=t, game__number=3).exists()  # game 3: no tables yet
    seat = Seat.objects.select_related("table", "player").filter(game__tournament=t, game__number=2,
                                                                  player__isnull=False).first()
    me = seat.player
    link = services.create_link(t, actor=organizer_user, player=me)
    now = timezone.now()
    selfservice.set_window(t, 3, now - dt.timedelta(minutes=5), now + dt.timedelta(minutes=30), actor=organizer_user)
    b = browser

    phone = b.person(PHONE, phone=True)
    phone.goto(f"/l/{link.token}/")
    phone.click("main form button[type=submit]")  # the landing page's button uses the link
    phone.wait_for_url("**" + reverse("tables:player_home", args=[slug]))
    mine = phone.locator(".player-seat").inner_text()
    assert "Partita 2" in mine and f"Tavolo {seat.table.number} · posto {seat.number}" in mine
    assert phone.locator(".player-seat [data-clock]").count() == 1  # the clock of their table
    assert "La mia classifica" in phone.locator("#my-standing").inner_text()
    phone.wait_for_selector("#call-referee button")  # the table's call button, loaded fresh
    b.check(phone, "self-01-my-event")
    # one tap: present for game 3
    phone.click("#self-checkin button[type=submit]")
    phone.wait_for_selector("text=Sei presente per la partita 3")
    b.check(phone, "self-02-checked-in")
    # the door's QR code, scanned again: already present, nothing to do
    phone.goto(reverse("selfservice:door", args=[slug]))
    assert "Sei presente per la partita 3" in phone.locator("main").inner_text()
    b.check(phone, "self-03-door")

    # at the table: call the referee
    phone.goto(reverse("tables:table", args=[slug, 2, seat.table.number]))
    phone.click("#call-referee button:has-text(\"Chiama l'arbitro\")")
    phone.wait_for_selector("#call-referee .notice")
    assert "L'arbitro è stato chiamato" in phone.locator("#call-referee").inner_text()
    b.check(phone, "self-04-referee-called")

    referee = _signed_in(b, *demo.REFEREE)
    referee.goto(reverse("tables_referee:referee_table", args=[slug, 2, seat.table.number]))
    calls = referee.locator("#referee-calls")
    assert f"Tavolo {seat.table.number}, partita 2" in calls.inner_text()
    assert me.display_name in calls.inner_text()
    b.check(referee, "self-05-referee-sees-the-call")
    referee.click("#referee-calls button:has-text('Vado io')")
    referee.wait_for_selector("#referee-calls >> text=Nessun tavolo sta chiamando")
    assert RefereeCall.objects.get().taken_at is not None
    b.check(referee, "self-06-call-taken")

    organizer = _signed_in(b, *demo.ORGANIZER)
    organizer.goto(reverse("tournaments:checkin", args=[slug, 3]))
    organizer.fill("#q", me.last_name)
    organizer.wait_for_selector(".checkin-note")
    assert "presenza segnata da sé" in organizer.locator(".checkin-note").first.inner_text()
    b.check(organizer, "self-07-organizer-checkin")
    organizer.goto(reverse("selfservice:settings", args=[slug]))
    b.check(organizer, "self-08-organizer-settings")
    b.assert_clean()
