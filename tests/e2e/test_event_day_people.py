"""The people of an event day, in a real browser, through the pages only (never /admin/):

- an organizer invites a referee from the tournament's pages; the referee accepts on their own
  phone (another browser context), sets a password and lands on the tournament; the used link
  opens nothing a second time;
- the organizer prints every player's objective slip of a game in one action (print emulation:
  a PNG kept and read back by OCR: names, table and seat, no card), and a player's phone opens
  their own card, its Italian name on the screen;
- a refused action on the referee page keeps the page whole and says why (the panel for a rule,
  the page's refusal area for a lost role), with no console error;
- check-in: an accent-free search finds Niccolò, a selection and "everyone shown" check players
  in, game 2 carries game 1's presences over in one tap, and a second device shows the state
  after a reload; a row's control that has the keyboard focus keeps it when the periodic
  refresh brings another device's check-in.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.e2e.conftest import PHONE, WATCH_SWAPS, assert_read
from tests.factories.tournaments import make_user

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "una-password-lunga-2026"
NAMES = [("Niccolò", "Forte"), ("Giulia", "Bianchi"), ("Luca", "Ferrari"), ("Sara", "Ricci"),
         ("Matteo", "Marino"), ("Elena", "Greco"), ("Andrea", "Bruno"), ("Chiara", "Russo"),
         ("Davide", "Colombo")]


def login(page: Any, username: str, password: str, next_url: str) -> None:
    page.goto(reverse("login") + "?next=" + next_url)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url("**" + next_url)


def day(players: int = 9, *, checked_in: bool = False) -> tuple[Any, Any, list[Any]]:
    """An organizer (signed-in through the login page later) and a running one-day tournament
    with ``players`` registered players."""
    from tournaments import services
    from tournaments.models import Registration, Tournament

    organizer = make_user("organizzatrice", password=PASSWORD)
    tournament = services.create_tournament(
        actor=organizer, name="Torneo delle persone", date=dt.date.today(), venue="Bologna",
        format=Tournament.Format.ONE_DAY_RTU, ruleset=Tournament.RuleSet.RTU,
        scoring_system="S-RTU", games_count=3, start_times=["10:30", "14:00", "16:30"],
        capacity=None,
    )
    services.change_status(tournament, "registration", actor=organizer)
    regs: list[Registration] = []
    for first, last in NAMES[:players]:
        regs.append(services.register(tournament, services.PlayerData(
            first_name=first, last_name=last), actor=organizer))
    services.change_status(tournament, "running", actor=organizer)
    if checked_in:
        services.bulk_checkin(regs, 1, actor=organizer)
    return organizer, tournament, regs


def test_an_organizer_invites_a_referee_who_accepts_on_their_phone(browser: Any) -> None:
    from tournaments.models import Invitation, TournamentRole

    b = browser
    organizer, tournament, _regs = day(4)
    slug = tournament.slug
    org = b.person()
    login(org, "organizzatrice", PASSWORD, reverse("tournaments:manage", args=[slug]))
    org.locator(f'a[href="{reverse("tournaments:staff", args=[slug])}"]').first.click()
    org.select_option("select[name=invite-role]", "referee")
    org.fill("input[name=invite-note]", "Giulia, arbitro del pomeriggio")
    b.check(org, "people-01-staff-invite")
    org.click("form:has(select[name=invite-role]) button[type=submit]")
    org.wait_for_selector("#invitation-url")
    url = org.locator("#invitation-url").input_value()
    assert re.fullmatch(re.escape(b.base_url) + r"/invite/[A-Za-z0-9_-]{43}/", url), url
    assert org.locator(".invitation-qr svg").count() == 1
    b.check(org, "people-02-invitation-link-and-qr")

    phone = b.person(PHONE, phone=True)  # the referee's own phone: another browser context
    phone.goto(url)
    assert tournament.name in phone.locator("main").inner_text()
    b.check(phone, "people-03-invitation-accept")
    phone.fill("input[name=username]", "giulia")
    phone.fill("input[name=password]", PASSWORD)
    phone.fill("input[name=password2]", PASSWORD)
    phone.click("main form button[type=submit]")
    phone.wait_for_url("**" + reverse("tournaments:manage", args=[slug]))
    assert phone.locator("header .who").inner_text().strip() == "giulia"
    b.check(phone, "people-04-referee-signed-in")
    giulia = get_user_model().objects.get(username="giulia")
    assert TournamentRole.objects.get(tournament=tournament, user=giulia).role == "referee"
    assert Invitation.objects.get().accepted_by == giulia

    # the same link, opened again elsewhere, opens nothing
    path = re.sub(r"^https?://[^/]+", "", url)
    b.allowed_status.add((path, 404))
    other = b.person(PHONE, phone=True)
    other.goto(url)
    assert "giulia" not in other.locator("main").inner_text()
    assert other.locator("main form").count() == 0
    b.check(other, "people-05-invitation-used")
    # the browser logs the page's (expected) 404 itself: that one is no fault of the app
    b.problems = [p for p in b.problems if not (path in p and "status of 404" in p)]

    # the organizer sees it accepted, and can revoke the role from the same page
    org.goto(reverse("tournaments:staff", args=[slug]))
    assert "giulia" in org.locator("#invitation-list").inner_text()
    org.locator("tr", has_text="giulia").locator("form[action$='/remove/'] button").click()
    org.wait_for_selector(".messages li.success")
    assert not TournamentRole.objects.filter(tournament=tournament, user=giulia).exists()
    b.assert_clean()


def test_the_organizer_prints_every_players_objective_slip(browser: Any) -> None:
    from engine.objectives import default_deck
    from tables import services as tables
    from tables.models import Seat

    b = browser
    organizer, tournament, _regs = day(9, checked_in=True)
    slug = tournament.slug
    game = tables.compose_game(tables.ensure_game(tournament, 1, actor=organizer),
                               actor=organizer, seed="slips", effort=0.3)
    tables.set_deal_objectives(game, True, actor=organizer)
    tables.start_game(game, actor=organizer, seed="deal")

    org = b.person()
    login(org, "organizzatrice", PASSWORD, reverse("tables:organize", args=[slug, 1]))
    slips_url = reverse("tables:slips", args=[slug, 1])
    org.locator(f'a[href="{slips_url}"]').first.click()
    org.wait_for_url("**" + slips_url)
    org.click("main form button[type=submit]")  # one action: every player's link
    org.wait_for_selector(".slip")
    seats = list(Seat.objects.filter(game=game).select_related("player", "table"))
    assert org.locator(".slip").count() == len(seats) == 9
    assert org.locator(".slip svg").count() == 9  # a QR code each
    b.check(org, "people-06-slips")
    print_label = org.locator("[data-print]").inner_text().strip()
    notice = org.locator(".messages li.success").inner_text().strip()  # "Foglietti pronti: …"
    text = b.printed(org, "people-07-slips-printed")
    assert print_label not in text and notice not in text  # screen-only notes are not printed
    deck = default_deck("rtu")
    for seat in seats:
        assert seat.player.display_name in text
        assert re.search(rf"\b{seat.table.number} · \w+ {seat.number}\b", text), seat
    assert not [o.name for o in deck.values() if o.name in text]  # the slips show no card
    # the PNG itself, read as a person reads the printout: names, table and seat, no card
    read = b.read(org, "people-07-slips-printed-read", printed=True)
    first_page = sorted(seats, key=lambda s: (s.table.number, s.number))[:4]
    assert_read(read, tournament.name, "Inquadra il codice", *(s.player.display_name for s in first_page),
                *(f"Tavolo {s.table.number} · posto {s.number}" for s in first_page))
    assert not [o.name for o in deck.values() if o.name.lower() in read.lower()]
    # eight slips (two columns) fit on one A4 page: the ninth is on the second
    tops = org.evaluate("() => [...document.querySelectorAll('.slip')].map(e => e.offsetHeight)")
    assert max(tops) <= 260, tops  # 6.6 cm at 96 dpi is 249 px

    # a player's phone, scanning their slip, sees their own card by its Italian name
    first = org.locator(".slip").first
    name = first.locator(".slip__name").inner_text().strip()
    link = first.locator(".slip__url").inner_text().strip()
    phone = b.person(PHONE, phone=True)
    phone.goto(link)  # the landing page names the player and the tournament; its button opens it
    assert name in phone.locator("main").inner_text()
    phone.click("main form button[type=submit]")
    phone.wait_for_url("**" + reverse("tables:objective", args=[slug, 1]))
    mine = next(s for s in seats if s.player.display_name == name)
    card = phone.locator("main").inner_text()
    assert deck[mine.objective].name in card and name in card
    b.check(phone, "people-08-my-objective-card")
    assert_read(b.read(phone, "people-08-my-objective-card-read"), deck[mine.objective].name, name,
                f"Tavolo {mine.table.number}")
    b.assert_clean()


def test_a_refusal_on_the_referee_page_keeps_the_page_whole(browser: Any) -> None:
    from tables import clocks
    from tables import services as tables
    from tables.models import Table
    from tournaments import services
    from tournaments.models import TournamentRole

    b = browser
    organizer, tournament, _regs = day(4, checked_in=True)
    slug = tournament.slug
    referee = make_user("arbitro", password=PASSWORD)
    services.add_role(tournament, "arbitro", "referee", actor=organizer)
    game = tables.compose_game(tables.ensure_game(tournament, 1, actor=organizer),
                               actor=organizer, seed="refusal", effort=0.3)
    tables.start_game(game, actor=organizer, seed="deal")
    table = Table.objects.get(game=game, number=1)
    assert clocks.clock_state(table)["state"] == "running"

    ref = b.person(PHONE, phone=True)
    url = reverse("tables_referee:referee_table", args=[slug, 1, 1])
    login(ref, "arbitro", PASSWORD, url)
    b.check(ref, "people-09-referee-page")
    # a rule refuses it: the seat whose turn it is cannot be eliminated (A-ELIM)
    ref.locator("#referee-panel details.card summary").click()
    ref.select_option("#id_elim_seat", "1")
    with ref.expect_response(lambda r: r.request.method == "POST") as answer:
        ref.click("form:has(input[name=action][value=eliminate]) button[type=submit]")
    assert answer.value.headers.get("x-refusal-status") == "400"
    error = ref.locator("#referee-panel .error[role=alert]")
    error.wait_for()
    assert error.get_attribute("data-rule"), error.inner_text()
    whole = """() => !!document.querySelector('header.site') && !!document.querySelector('h1')
        && getComputedStyle(document.querySelector('header.site')).display !== 'inline'
        && document.querySelectorAll('#referee-panel').length === 1"""
    assert ref.evaluate(whole)
    b.check(ref, "people-10-referee-refusal-rule")

    # the role is removed meanwhile: the next tap is refused in the page's refusal area
    TournamentRole.objects.filter(user=referee).delete()
    ref.fill("#id_conquered", "0")
    with ref.expect_response(lambda r: r.request.method == "POST"):
        ref.click("form:has(input[name=action][value=end_turn]) button[type=submit]:not([name])")
    refusal = ref.locator("#refusal .refusal")
    refusal.wait_for()
    assert refusal.get_attribute("data-status") == "403"
    assert "arbitro" in refusal.inner_text().lower()  # Italian: "Solo un arbitro o …"
    assert ref.evaluate(whole)
    b.check(ref, "people-11-referee-refusal-no-role")
    b.assert_clean()  # no console error (CSP included), no failed request


def test_check_in_carries_over_to_game_2_and_shows_on_every_device(browser: Any) -> None:
    from tournaments.models import CheckIn

    b = browser
    organizer, tournament, regs = day(9)
    slug = tournament.slug
    referee = make_user("arbitro", password=PASSWORD)
    from tournaments import services

    services.add_role(tournament, referee.username, "referee", actor=organizer)
    org = b.person(PHONE, phone=True)
    game1 = reverse("tournaments:checkin", args=[slug, 1])
    login(org, "organizzatrice", PASSWORD, game1)

    # an accent-free search finds Niccolò; tick him and check the selection in
    org.fill("#q", "niccolo")
    org.wait_for_function("() => document.querySelectorAll('#checkin-rows tr[data-present]')"
                          ".length === 1")
    assert "Niccolò" in org.locator("#checkin-rows").inner_text()
    org.locator("#checkin-rows input[type=checkbox]").check()
    org.click("#checkin-bulk button[value=selected]")
    org.wait_for_selector(".messages li.success")
    assert CheckIn.objects.filter(game_number=1).count() == 1
    # everyone shown (no search): the other eight. The page was reloaded by the check-in: typing
    # before htmx (a deferred script) listens to the box would search nothing
    org.wait_for_load_state()
    org.fill("#q", "")
    org.wait_for_function("() => document.querySelectorAll('#checkin-rows tr[data-present]')"
                          ".length === 9")
    org.click("#checkin-bulk button[value=everyone]")
    org.wait_for_selector(".messages li.success")
    assert org.locator("#checkin-count").inner_text().strip() == "9"
    b.check(org, "people-12-checkin-game1")

    # game 2: one tap carries game 1's presences over
    game2 = reverse("tournaments:checkin", args=[slug, 2])
    org.goto(game2)
    assert org.locator("#checkin-count").inner_text().strip() == "0"
    b.check(org, "people-13-checkin-game2-carry")
    org.click("#checkin-carry button[type=submit]")
    org.wait_for_selector(".messages li.success")
    assert org.locator("#checkin-count").inner_text().strip() == "9"
    assert CheckIn.objects.filter(game_number=2).count() == 9

    # a referee's device shows the same state; the organizer marks one player as gone
    ref = b.person(PHONE, phone=True)
    login(ref, "arbitro", PASSWORD, game2)
    gone = regs[3]
    row = f"#checkin-{gone.pk}"
    assert ref.locator(f"{row} button").get_attribute("aria-pressed") == "true"
    with org.expect_response(lambda r: r.request.method == "POST"):
        org.click(f"{row} button")
    org.wait_for_selector(f"{row} button[aria-pressed=false]")
    ref.reload()
    assert ref.locator(f"{row} button").get_attribute("aria-pressed") == "false"
    assert ref.locator("#checkin-count").inner_text().strip() == "8"
    # a tap on a stale row asks for the state it shows: never the opposite
    with org.expect_response(lambda r: r.request.method == "POST"):
        org.click(f"{row} button")  # present again
    org.wait_for_selector(f"{row} button[aria-pressed=true]")
    with ref.expect_response(lambda r: r.request.method == "POST"):
        ref.click(f"{row} button")  # the referee's page still said "absent": check in
    ref.wait_for_selector(f"{row} button[aria-pressed=true]")
    assert CheckIn.objects.filter(game_number=2, registration=gone).exists()
    b.check(ref, "people-14-checkin-second-device")
    b.assert_clean()


def test_the_check_in_refresh_keeps_the_focus_of_the_row_in_use(browser: Any) -> None:
    from tournaments import services

    organizer, tournament, regs = day(4)
    org = browser.person(PHONE, phone=True)
    login(org, "organizzatrice", PASSWORD, reverse("tournaments:checkin", args=[tournament.slug, 1]))
    org.evaluate(WATCH_SWAPS)
    # a keyboard user is on Giulia's selection box (not ticked: a ticked one holds the refresh)
    mine = f"#checkin-{regs[1].pk} input[type=checkbox]"
    org.focus(mine)
    org.evaluate("() => { window.focusedBefore = document.activeElement; }")
    # meanwhile another device checks Luca in: the rows' next refresh (every 15 s) shows it
    services.toggle_checkin(regs[2], 1, actor=organizer)
    seen = org.wait_for_function(
        """([row, mine]) => { if (window.swaps.pending['checkin-rows']
                                  || !document.querySelector(row + '[data-present="1"]')) return null;
                              const now = document.activeElement;
                              return {mine: now === document.querySelector(mine),
                                      replaced: !window.focusedBefore.isConnected}; }""",
        arg=[f"#checkin-{regs[2].pk}", mine], timeout=40_000).json_value()
    assert seen["replaced"]  # the refresh really replaced the rows, the focused box with them
    assert seen["mine"]  # and the focus is on Giulia's new box, not lost to the page
    # the keyboard goes on from there: the space bar ticks that same box
    org.keyboard.press("Space")
    assert org.locator(mine).is_checked()
    browser.assert_clean()


def test_the_referee_status_refresh_keeps_the_recorded_steps_open_and_focused(browser: Any) -> None:
    """The referee opened the list of recorded steps and is on it with the keyboard; the status
    part refreshes (every 5 s) with a step recorded on another device: the list stays open and
    the focus stays on it."""
    from tables import closure
    from tables import services as tables
    from tables.models import Table
    from tournaments import services

    organizer, tournament, _regs = day(4, checked_in=True)
    referee = make_user("arbitro", password=PASSWORD)
    services.add_role(tournament, "arbitro", "referee", actor=organizer)
    game = tables.compose_game(tables.ensure_game(tournament, 1, actor=organizer),
                               actor=organizer, seed="steps", effort=0.3)
    tables.start_game(game, actor=organizer, seed="deal")
    table = Table.objects.get(game=game, number=1)
    closure.record_end_of_turn(table, actor=referee, seat=closure.current_state(table).seat, conquered=0)

    ref = browser.person(PHONE, phone=True)
    login(ref, "arbitro", PASSWORD, reverse("tables_referee:referee_table", args=[tournament.slug, 1, 1]))
    ref.evaluate(WATCH_SWAPS)
    ref.click("#referee-steps-summary")  # opens the list
    ref.focus("#referee-steps-summary")
    ref.evaluate("() => { window.stepsBefore = document.querySelector('#referee-steps'); }")
    assert ref.evaluate("() => document.querySelector('#referee-steps').open")

    table.refresh_from_db()
    closure.record_end_of_turn(table, actor=organizer, seat=closure.current_state(table).seat, conquered=0)
    seen = ref.wait_for_function(
        """() => { if (window.swaps.pending['referee-status']) return null;
                   const steps = document.querySelector('#referee-steps');
                   if (!steps || steps === window.stepsBefore
                       || steps.querySelectorAll('.referee-log li').length < 2) return null;
                   return {open: steps.open,
                           focused: document.activeElement === document.querySelector('#referee-steps-summary')}; }""",
        timeout=30_000).json_value()
    assert seen["open"]  # the refresh brought the new step into the list the referee had open
    assert seen["focused"]
    browser.assert_clean()
