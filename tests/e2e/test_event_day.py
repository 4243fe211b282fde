"""A club runs a whole one-day RTU tournament with the software alone, in a real browser.

1. the organizer creates the tournament, imports 23 players from CSV, opens and closes
   registration, checks everyone in for game 1 (one tap per player);
2. composes game 1 (tables of 4 and 5), starts it, prints the table sheets;
3. a player finds their table from the public page on a 360×740 phone;
4. a referee signs in through a private link, records ends of turn and sdadata rolls until the
   game at table 1 closes, enters the final board; the organizer (a second person) confirms;
5. the leaderboard updates without a reload; games 2 and 3 follow with fewer repeated
   opponents; the final ranking (best two of three) is exported as CSV and printed.

Table 1 of game 1 is driven fully through the browser; the other tables' results are entered
through the same services (engine-simulated games uploaded by the referee and confirmed by the
organizer), to keep the test short. The clock is shortened to a few seconds
(``extra.time_limit_seconds``), and the real Celery worker marks the deadline (E-TIME).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import re
import time
from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE
from tests.factories.tournaments import make_user

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

CLUBS = ["RisiKo Club Roma", "I Conquistatori di Napoli", "Carri Armati Torino",
         "Dadi Rossi Bologna", "Strateghi di Palermo"]
NAMES = [
    ("Marco", "Rossi", "Il Generale"), ("Giulia", "Bianchi", ""), ("Luca", "Ferrari", ""),
    ("Francesca", "Romano", ""), ("Alessandro", "Esposito", "Sasà"), ("Chiara", "Russo", ""),
    ("Davide", "Colombo", ""), ("Sara", "Ricci", "Lady Ural"), ("Matteo", "Marino", ""),
    ("Elena", "Greco", ""), ("Andrea", "Bruno", "Il Barone"), ("Valentina", "Gallo", ""),
    ("Simone", "Conti", ""), ("Federica", "De Luca", "Fede"), ("Lorenzo", "Mancini", ""),
    ("Martina", "Costa", ""), ("Giovanni", "Giordano", "Nonno Gianni"), ("Alessia", "Rizzo", ""),
    ("Stefano", "Lombardi", ""), ("Paola", "Moretti", ""), ("Riccardo", "Barbieri", ""),
    ("Ilaria", "Fontana", "Kamchatka"), ("Tommaso", "Santoro", ""),
]
ORGANIZER = ("organizzatrice", "giornata-di-torneo-1")
REFEREE = ("arbitro", "giornata-di-torneo-2")
CLOCK_SECONDS = 6


def players_csv() -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["first_name", "last_name", "nickname", "club", "email", "birth_date"])
    for i, (first, last, nick) in enumerate(NAMES):
        w.writerow([first, last, nick, CLUBS[i % len(CLUBS)],
                    f"{first}.{last}@example.org".lower().replace(" ", ""),
                    dt.date(1975 + i, 1 + i % 12, 1 + i).isoformat()])
    return out.getvalue().encode()


def login(page: Any, username: str, password: str, next_url: str) -> None:
    page.goto(reverse("login") + "?next=" + next_url)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url("**" + next_url)


def click_link(page: Any, url: str) -> None:
    """Follow the page's own link to ``url`` (it must exist: that is the navigation a person
    needs)."""
    page.locator(f'a[href="{url}"]').first.click()
    page.wait_for_url("**" + url.split("?")[0])


def post_status(page: Any, status: str) -> None:
    page.click(f'form:has(input[name=status][value={status}]) button')
    page.wait_for_load_state()


def simulate_results(game: Any, referee: Any, organizer: Any) -> None:
    """The other tables' results through the services: engine-simulated games uploaded as
    recorded games by the referee (adjudicated by the engine), confirmed by the organizer."""
    from engine.simulate import simulate
    from scoring import selectors, services

    for state in selectors.table_states(game.tournament, game):
        if state.status == selectors.CONFIRMED:
            continue
        seats = selectors.seats_of(state.table)
        record = simulate(len(seats), f"e2e-{game.number}-{state.table.number}")
        sub = services.submit_result(actor=referee, table=state.table, kind="record",
                                     data={"record": record}, expected_version=state.version)
        services.confirm_result(actor=organizer, submission=sub)


def pairs_of(game: Any) -> set[frozenset[int]]:
    found: set[frozenset[int]] = set()
    for table in game.tables.all():
        ids = [s.player_id for s in table.seats.all() if s.player_id]
        found |= {frozenset(p) for p in itertools.combinations(ids, 2)}
    return found


def compose_and_start(b: Any, page: Any, slug: str, number: int, name: str) -> None:
    manage = reverse("tournaments:manage", args=[slug])
    page.goto(manage)
    organize = reverse("tables:organize", args=[slug, number])
    click_link(page, organize)
    page.select_option("select[name=prefer]", "fives")
    if number > 1:
        # from game 2 on "fewest repeat opponents" comes first, as the guide says (K-TABLES):
        # the form offers it, nothing to change
        assert page.locator("select[name=priority_1]").input_value() == "repeat_opponents"
    page.click("button[name=action][value=compose]")
    page.wait_for_selector(".tables-grid .table-card")
    b.check(page, f"{name}-composed")
    # RTU: objective cards dealt with the territories, ticked already
    assert page.locator("input[name=deal_objectives]").is_checked()
    page.click("form:has(input[name=action][value=start]) button[type=submit]")
    page.wait_for_selector("text=" + page.locator("h1").inner_text())  # reloaded
    from tables.models import Game

    assert Game.objects.get(tournament__slug=slug, number=number).status == "running"


def test_event_day_in_a_real_browser(browser: Any, celery_worker_process: Any) -> None:
    from scoring import selectors as scoring_selectors
    from scoring import services as scoring_services
    from tables.models import Game, Table, TurnEvent
    from tournaments import services as tournament_services
    from tournaments.models import Registration, Tournament

    b = browser
    organizer = make_user(ORGANIZER[0], password=ORGANIZER[1])
    referee = make_user(REFEREE[0], password=REFEREE[1])
    started = time.monotonic()

    # ---------------------------------------------------------------- 1. the organizer's morning
    org = b.person()
    login(org, *ORGANIZER, reverse("tournaments:create"))
    org.fill("input[name=name]", "Torneo di primavera")
    org.fill("input[name=date]", dt.date.today().isoformat())
    org.fill("input[name=venue]", "Circolo Dadi Rossi, Bologna")
    org.select_option("select[name=format]", "rtu")
    org.select_option("select[name=ruleset]", "RTU")
    org.fill("input[name=capacity]", "24")
    b.check(org, "01-new-tournament")
    org.click("main form button[type=submit]")
    org.wait_for_url(re.compile(r"/t/[\w-]+/manage/$"))
    tournament = Tournament.objects.get(name="Torneo di primavera")
    slug = tournament.slug
    assert tournament.games_count == 3 and tournament.format == "rtu"
    # a short clock for the test (E-TIME: 90 minutes in a real event; a setting)
    tournament_services.update_tournament(
        tournament, actor=organizer,
        ruleset_overrides={"extra": {"time_limit_seconds": CLOCK_SECONDS}})

    click_link(org, reverse("tournaments:registrations", args=[slug]))
    org.set_input_files("input[name=file]", files=[{
        "name": "iscritti.csv", "mimeType": "text/csv", "buffer": players_csv()}])
    org.click("form[enctype='multipart/form-data'] button[type=submit]")
    org.wait_for_selector(".messages li.success")
    assert org.locator("table.data tbody tr").count() == 23
    b.check(org, "02-registrations-imported")

    org.goto(reverse("tournaments:manage", args=[slug]))
    post_status(org, "registration")
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    post_status(org, "running")  # closes registration
    tournament.refresh_from_db()
    assert tournament.status == "running"
    b.check(org, "03-manage")

    click_link(org, reverse("tournaments:checkin", args=[slug, 1]))
    buttons = org.locator("#checkin-rows button[aria-pressed=false]")
    assert buttons.count() == 23
    for _i in range(23):
        row_button = org.locator("#checkin-rows button[aria-pressed=false]").first
        row_id = row_button.locator("xpath=ancestor::tr").get_attribute("id")
        row_button.click()
        org.wait_for_selector(f"#{row_id} button[aria-pressed=true]")
    org.wait_for_function("() => document.querySelector('#checkin-count').textContent.trim() === '23'")
    b.check(org, "04-checkin")
    registered = list(Registration.objects.active().filter(tournament=tournament))
    for game_number in (2, 3):  # later check-ins: the same tap, done here through the service
        tournament_services.bulk_checkin(registered, game_number, actor=organizer)

    # ---------------------------------------------------------------- 2. game 1: compose, start, print
    compose_and_start(b, org, slug, 1, "05-game1")
    game1 = Game.objects.get(tournament=tournament, number=1)
    sizes = sorted(t.seats.count() for t in game1.tables.all())
    assert sizes == [4, 4, 5, 5, 5], sizes
    b.shot(org, "06-game1-started")
    for table in game1.tables.order_by("number"):
        sheet = reverse("tables:sheet", args=[slug, 1, table.number])
        if table.number == 1:
            org.goto(reverse("tables:organize", args=[slug, 1]))
            click_link(org, sheet)
        else:
            org.goto(sheet)
        print_button = org.locator("[data-print]").inner_text().strip()
        text = b.printed(org, f"07-sheet-table-{table.number}")
        for seat in table.seats.select_related("player"):
            assert seat.player.display_name in text
            # the territories dealt to the seat are on the sheet (D-DEAL)
            dealt = [t for t, owner in table.deal.items() if int(owner) == seat.number]
            assert dealt and all(t in text for t in dealt), (seat.number, dealt)
        assert print_button not in text  # the screen-only controls are not printed

    # ---------------------------------------------------------------- 3. a player on a phone
    player_seat = game1.tables.get(number=2).seats.select_related("player").first()
    me = player_seat.player
    phone = b.person(PHONE, phone=True)
    phone.goto(reverse("tournaments:detail", args=[slug]))
    b.check(phone, "08-phone-tournament")
    click_link(phone, reverse("tables:where", args=[slug, 1]))
    phone.fill("input[name=q]", me.last_name)
    phone.click("form.where-form button[type=submit]")
    result = phone.locator(".where-results li", has_text=me.first_name)
    result.wait_for()
    assert "2, " in result.inner_text()  # "table 2, seat n" / "tavolo 2, posto n"
    b.check(phone, "09-phone-where-do-i-sit")
    result.locator("a").click()
    phone.wait_for_url("**" + reverse("tables:table", args=[slug, 1, 2]))
    assert me.display_name in phone.locator("main").inner_text()
    b.check(phone, "10-phone-my-table")
    # the deal's proof (a command line) waits one tap away, behind "Verifica la distribuzione"
    proof = phone.locator("details.verify")
    assert not proof.locator("code").is_visible()
    proof.locator("summary").click()
    assert "engine deal" in proof.locator("code").inner_text()
    b.shot(phone, "10-phone-my-table-verify")

    # ---------------------------------------------------------------- 4. the referee's table
    org.goto(reverse("tournaments:manage", args=[slug]))
    click_link(org, reverse("tournaments:staff", args=[slug]))
    org.fill("main input[name=username]", REFEREE[0])
    org.select_option("main select[name=role]", "referee")
    org.click("main form:has(input[name=username]) button[type=submit]")
    org.wait_for_selector(f"td:text-is('{REFEREE[0]}')")
    org.locator("tr", has_text=REFEREE[0]).locator(
        "form:has(input[name=kind][value=referee]) button").click()
    link_code = org.locator("code", has_text="/l/").first
    link_code.wait_for()
    private_link = link_code.inner_text().strip()
    assert private_link.startswith(b.base_url + "/l/")
    b.check(org, "11-staff-private-link")

    ref = b.person(PHONE, phone=True)
    ref.goto(private_link)  # the landing page: who this phone will be; its button signs in
    b.check(ref, "11-phone-private-link-landing")
    ref.click("main form button[type=submit]")
    ref.wait_for_url("**" + reverse("tournaments:manage", args=[slug]))
    referee_url = reverse("tables_referee:referee_table", args=[slug, 1, 1])
    table1 = Table.objects.get(game=game1, number=1)
    # the real worker marks the deadline (E-TIME) without anyone loading a page
    deadline = time.monotonic() + 30
    while Table.objects.get(pk=table1.pk).expired_marked_at is None:
        assert time.monotonic() < deadline, "the Celery worker did not mark the deadline"
        time.sleep(0.25)
    assert TurnEvent.objects.filter(table=table1, kind="time_expired").exists()
    click_link(ref, referee_url)
    b.check(ref, "12-referee-time-up")

    rolls = iter([(6, 5), (1, 2), (1, 1), (1, 1), (1, 1), (1, 1)])
    rolled = 0
    for _step in range(40):
        kind = ref.locator("[data-next-action]").get_attribute("data-next-action")
        if kind == "ended":
            break
        ref.fill("#id_conquered", "0")
        if kind == "roll":
            dice = next(rolls)
            for i, value in enumerate(dice, start=1):
                ref.fill(f"#id_die{i}", str(value))
            rolled += 1
            if rolled == 1:
                b.check(ref, "13-referee-sdadata-roll")
        with ref.expect_response(lambda r: r.request.method == "POST"):
            ref.click("form:has(input[name=action][value=end_turn]) button[type=submit]:not([name])")
        ref.wait_for_selector("#referee-panel")
    else:
        pytest.fail("the sdadata closure did not end")
    assert rolled >= 2, "the first roll (6+5) must not end the game"
    assert ref.locator("#referee-panel .error").count() == 0
    b.check(ref, "14-referee-game-ended")
    assert TurnEvent.objects.filter(table=table1, kind="sdadata").count() == rolled

    # the other tables of game 1 through the services; table 1 stays for the browser
    from engine.simulate import simulate

    for table in game1.tables.exclude(number=1):
        state = scoring_selectors.table_state(table)
        record = simulate(table.seats.count(), f"e2e-1-{table.number}")
        sub = scoring_services.submit_result(actor=referee, table=table, kind="record",
                                             data={"record": record},
                                             expected_version=state.version)
        scoring_services.confirm_result(actor=organizer, submission=sub)

    # the leaderboard, open on a phone before table 1's result counts
    board = b.person(PHONE, phone=True)
    board.goto(reverse("tournaments:detail", args=[slug]))
    click_link(board, reverse("scoring:standings", args=[slug]))
    board.evaluate("() => { window.__notReloaded = true; }")
    table1_players = [s.player for s in table1.seats.select_related("player")]
    first = table1_players[0].display_name
    game1_cell = """name => { for (const tr of document.querySelectorAll('#standings tbody tr')) {  // #, player, total, G1
        const a = tr.querySelector('a'); if (a && a.textContent.trim() === name)
            return tr.children[3].textContent.trim(); } return null; }"""
    assert not board.evaluate(game1_cell, first)  # no game-1 points for table 1 yet

    enter = reverse("scoring:enter", args=[slug, table1.pk])
    click_link(ref, enter)
    ref.select_option("select[name=ended_by]", "sdadata")
    armies = ref.locator("input.army")
    assert armies.count() == 42
    for i in range(42):
        armies.nth(i).fill("3" if i % 7 == 0 else "2")
    b.check(ref, "15-referee-final-board")
    ref.click("#result-form button[type=submit]")
    ref.wait_for_url("**" + reverse("scoring:table", args=[slug, table1.pk]))
    b.check(ref, "16-result-to-confirm")
    assert ref.locator("form[action*='/confirm/']").count() == 0  # the author cannot confirm

    org.goto(reverse("scoring:status", args=[slug]))
    click_link(org, reverse("scoring:table", args=[slug, table1.pk]))
    org.click("form[action*='/confirm/'] button")
    org.wait_for_selector(".messages li.success")
    b.check(org, "17-result-confirmed")
    assert scoring_selectors.table_state(table1).status == scoring_selectors.CONFIRMED

    # 5. the leaderboard shows table 1's players without a reload (htmx polls every 5 s)
    board.wait_for_function(f"name => ({game1_cell})(name)", arg=first, timeout=15_000)
    points = scoring_selectors.table_state(table1).latest.scores
    mine = next(r for r in points if r["player"] == table1_players[0].pk)
    assert board.evaluate(game1_cell, first) == str(mine["tournament_points"])
    assert board.evaluate("() => window.__notReloaded === true")
    b.check(board, "18-phone-standings-live")
    b.shot(board, "18-phone-standings-cards", full_page=False)  # each row a card at 360 px
    org.goto(reverse("scoring:status", args=[slug]))
    org.click(f"form[action='{reverse('scoring:finish-game', args=[slug, 1])}'] button")
    org.wait_for_selector(".messages li.success")
    game1.refresh_from_db()
    assert game1.status == "finished"

    # ---------------------------------------------------------------- games 2 and 3
    from math import comb

    history: set[frozenset[int]] = pairs_of(game1)
    for number in (2, 3):
        compose_and_start(b, org, slug, number, f"19-game{number}")
        game = Game.objects.get(tournament=tournament, number=number)
        new_pairs = pairs_of(game)
        repeats = len(new_pairs & history)
        reported = game.composition_report["repeated_pairs"]
        assert reported == repeats
        # a draw that ignored history would repeat about |history|·|new| / C(23, 2) pairs
        random_expectation = len(history) * len(new_pairs) / comb(23, 2)
        assert repeats < random_expectation / 3, (number, repeats, random_expectation)
        history |= new_pairs
        simulate_results(game, referee, organizer)
        scoring_services.finish_game(actor=organizer, game=game)

    # the final ranking: best two of three (K-BEST2), exported and printed
    org.goto(reverse("scoring:standings", args=[slug]))
    b.check(org, "20-final-standings")
    csv_url = reverse("scoring:export", args=[slug, "standings", "csv"])
    with org.expect_download() as download_info:
        org.locator(f'a[href="{csv_url}"]').click()
    rows = list(csv.reader(io.StringIO(download_info.value.path().read_text(encoding="utf-8-sig")), delimiter=";"))
    body = rows[1:]
    assert len(body) == 23
    game_cols = [i for i in range(3, 3 + 2 * 3, 2)]
    for line in body:
        points = [int(line[i]) for i in game_cols]
        counted = [line[i + 1] for i in game_cols]
        assert len({c for c in counted}) == 2, line  # "yes"/"no" in the page's language
        yes = max(set(counted), key=counted.count)
        assert counted.count(yes) == 2, line
        assert int(line[3 + 2 * 3]) == sum(p for p, c in zip(points, counted, strict=True)
                                           if c == yes)
        assert int(line[3 + 2 * 3]) == sum(sorted(points)[1:])
    totals = [int(line[3 + 2 * 3]) for line in body]
    assert totals == sorted(totals, reverse=True)

    click_link(org, reverse("scoring:print", args=[slug]))
    brand = org.locator("header.site .brand").inner_text().strip()
    printed = b.printed(org, "21-final-ranking-print")
    assert brand not in printed  # the site's header and menus are not printed
    ranking = scoring_selectors.standings(tournament)["rows"]
    assert len(ranking) == 23
    for row in ranking:
        assert row["name"] in printed
    assert printed.index(ranking[0]["name"]) < printed.index(ranking[-1]["name"])
    assert org.locator("header.site").is_visible()  # back on screen media

    b.assert_clean()
    assert time.monotonic() - started < 180, "the journey should stay under 3 minutes"
