"""Pages of tables/: public tables, table page, where-do-I-sit, printable sheet, objectives,
the organizer's composition page (organizer only) and the knock-out plan."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables import services
from tables.models import Game, Seat, Table
from tests.tables.conftest import add_players, add_role, make_tournament, make_user, player_link
from tournaments.access import SESSION_KEY
from tournaments.models import TournamentRole


def started(tournament, organizer, count=9, objectives=False):  # type: ignore[no-untyped-def]
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="pages", effort=0.3)
    if objectives:
        services.set_deal_objectives(game, True, actor=organizer)
    return services.start_game(game, actor=organizer, seed="deal")


def logged_in(user) -> Client:  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(user)
    return c


@pytest.mark.django_db
def test_public_tables_page_lists_every_table_with_players_clock_and_qr(
    client, tournament, organizer
):
    players = add_players(tournament, 9)
    started(tournament, organizer)
    r = client.get(f"/t/{tournament.slug}/games/1/tables/")
    assert r.status_code == 200
    html = r.content.decode()
    for p in players:
        assert p.display_name in html
    assert html.count('class="table-card"') == 2
    assert "data-clock" in html and '<img src="/qr.svg?path=' in html  # QR codes: lazy images
    assert "http://" not in html.replace("http://testserver", "")  # no external URLs


@pytest.mark.django_db
def test_where_do_i_sit_by_name_and_by_player_qr(client, tournament, organizer):
    players = add_players(tournament, 8)
    game = started(tournament, organizer)
    me = players[2]
    seat = Seat.objects.get(game=game, player=me)
    expected = f"table {seat.table.number}, seat {seat.number}"
    r = client.get(f"/t/{tournament.slug}/games/1/where/", {"q": me.first_name.upper()},
                   HTTP_ACCEPT_LANGUAGE="en")
    assert expected in r.content.decode()
    r = client.get(f"/t/{tournament.slug}/games/1/where/", {"q": me.last_name},
                   HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert "<html" not in r.content.decode() and expected in r.content.decode()
    r = client.get(f"/t/{tournament.slug}/games/1/where/", {"player": me.pk},
                   HTTP_ACCEPT_LANGUAGE="en")
    assert me.display_name in r.content.decode() and expected in r.content.decode()


@pytest.mark.django_db
def test_sheet_shows_seats_in_turn_order_with_their_dealt_territories(
    client, tournament, organizer
):
    add_players(tournament, 9)
    game = started(tournament, organizer)
    table = Table.objects.filter(game=game).first()
    r = client.get(f"/t/{tournament.slug}/games/1/tables/{table.number}/sheet/")
    assert r.status_code == 200
    html = r.content.decode()
    sections = html.split('<section class="sheet__seat">')[1:]
    seats = list(table.seats.order_by("number"))
    assert len(sections) == len(seats)
    for seat, section in zip(seats, sections, strict=True):
        assert seat.player.display_name in section  # turn order: seat 1 first
        mine = {t for t, s in table.deal.items() if s == seat.number}
        listed = set()
        for names in re.findall(r"<dd>(.*?)</dd>", section):
            listed |= {n.strip() for n in names.split(",")}
        assert {n.replace("'", "&#x27;") for n in mine} == listed
    assert "python -m engine deal --players" in html and "<svg" in html
    assert f"/t/{tournament.slug}/games/1/tables/{table.number}/" in html  # QR target shown
    assert "@page" not in html and "css/app.css" in html


@pytest.mark.django_db
def test_players_see_only_their_own_objective_referees_all_after_the_game(
    tournament, organizer
):
    players = add_players(tournament, 8)
    game = started(tournament, organizer, objectives=True)
    me = players[0]
    # Cards are distinct within a table only: compare with someone at my table (the secret seed
    # is random, so players at two tables may hold the same card).
    my_seat = Seat.objects.get(game=game, player=me)
    other = Seat.objects.filter(table=my_seat.table).exclude(player=me).first().player
    link = player_link(tournament, me)
    browser = Client()
    session = browser.session
    session[SESSION_KEY] = {str(tournament.pk): link.pk}
    session.save()
    mine = Seat.objects.get(game=game, player=me).objective
    theirs = Seat.objects.get(game=game, player=other).objective
    html = browser.get(f"/t/{tournament.slug}/games/1/objective/").content.decode()
    assert mine in html and theirs not in html
    assert theirs not in Client().get(f"/t/{tournament.slug}/games/1/objective/").content.decode()
    referee = make_user()
    add_role(tournament, referee, TournamentRole.Role.REFEREE)
    assert mine not in logged_in(referee).get(
        f"/t/{tournament.slug}/games/1/objective/").content.decode()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    html = logged_in(referee).get(f"/t/{tournament.slug}/games/1/objective/").content.decode()
    assert mine in html and theirs in html


@pytest.mark.django_db
def test_organizer_composes_swaps_and_starts_from_the_page(tournament, organizer):
    add_players(tournament, 8, clubs=4)
    org = logged_in(organizer)
    page = f"/t/{tournament.slug}/games/1/organize/"
    assert org.get(page).status_code == 200
    r = org.post(page, {"action": "compose", "prefer": "fives", "seeding": "random",
                        "priority_1": "club_apart", "seed": "typed-seed"})
    assert r.status_code == 302
    game = Game.objects.get(tournament=tournament, number=1)
    assert game.seed == "typed-seed" and game.composition_options["priorities"] == ["club_apart"]
    html = org.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Same-club pairs" in html and "typed-seed" in html
    a, b = (Table.objects.get(game=game, number=n).seats.first().player_id for n in (1, 2))
    r = org.post(page, {"action": "swap", "player_a": a, "player_b": b}, follow=True)
    assert Seat.objects.get(game=game, player_id=a).table.number == 2
    r = org.post(page, {"action": "start", "deal_objectives": "on"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.deal_objectives


@pytest.mark.django_db
def test_a_refused_composition_keeps_what_was_typed_and_names_the_rule(tournament, organizer):
    add_players(tournament, 7)
    org = logged_in(organizer)
    r = org.post(f"/t/{tournament.slug}/games/1/organize/",
                 {"action": "compose", "prefer": "fours", "seeding": "random", "seed": "mine"},
                 HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400
    html = r.content.decode()
    assert "K-TABLES" in html and "ghost" in html
    assert 'value="mine"' in html and '<option value="fours" selected>' in html
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_a_table_left_too_small_is_said_with_its_rule_in_the_badge(tournament, organizer):
    players = add_players(tournament, 8)
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="pages", effort=0.3)
    services.withdraw_player(game, players[0].pk, actor=organizer)
    html = logged_in(organizer).get(f"/t/{tournament.slug}/games/1/organize/").content.decode()
    problem = re.search(r'<p class="error">(.*?)</p>', html, re.S).group(1)
    assert problem.count("T-SIZE") == 2  # the badge's data-rule and its text: said once
    assert '<span class="badge err" data-rule="T-SIZE">T-SIZE</span>' in problem


@pytest.mark.django_db
def test_the_organizer_page_is_refused_to_everyone_else(tournament, organizer):
    players = add_players(tournament, 8)
    page = f"/t/{tournament.slug}/games/1/organize/"
    anonymous = Client()
    r = anonymous.post(page, {"action": "compose", "prefer": "fives", "seeding": "random"})
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    player_browser = Client()
    link = player_link(tournament, players[0])
    session = player_browser.session
    session[SESSION_KEY] = {str(tournament.pk): link.pk}
    session.save()
    assert player_browser.post(page, {"action": "compose"}).status_code == 302
    referee, stranger = make_user(), make_user()
    add_role(tournament, referee, TournamentRole.Role.REFEREE)
    make_tournament(stranger)
    for user in (referee, stranger):
        c = logged_in(user)
        assert c.get(page).status_code == 403
        r = c.post(page, {"action": "compose", "prefer": "fives", "seeding": "random"})
        assert r.status_code == 403
    assert not Game.objects.filter(tournament=tournament).exclude(seed="").exists()
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_knockout_plan_page(client, tournament):
    r = client.get(f"/t/{tournament.slug}/knockout/", {"entrants": 100, "final_size": 5})
    assert r.status_code == 200
    assert "20 (5, 5" in r.content.decode()
    assert client.get(f"/t/{tournament.slug}/knockout/", {"entrants": 2}).status_code == 400


@pytest.mark.django_db
def test_a_refused_knockout_plan_says_its_rule_once_in_the_badge(client, tournament):
    page = client.get(f"/t/{tournament.slug}/knockout/", {"entrants": "many"}).content.decode()
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', page, re.S).group(1)
    assert '<span class="badge err" data-rule="K-KO">K-KO</span>' in error
    assert "[K-KO]" not in error


@pytest.mark.django_db
def test_unmet_priorities_read_in_the_pages_language(organizer):
    # 12 players in 2 clubs of 6 at 3 tables: same-club pairs cannot be avoided.
    t = make_tournament(organizer)
    add_players(t, 12, clubs=2)
    game = services.compose_game(services.ensure_game(t, 1, actor=organizer), actor=organizer,
                                 seed="crowded", effort=0.3)
    assert game.composition_report["unmet"][0]["priority"] == "club_apart"
    page = f"/t/{t.slug}/games/1/organize/"
    italian = logged_in(organizer).get(page, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "stesso club separato" in italian
    assert "giocatori per 3 tavoli: almeno 6 coppie dello stesso club sono inevitabili." in italian
    assert "same club apart" not in italian and "unavoidable." not in italian
    assert '<option value="club_apart">stesso club separato</option>' in italian
    english = logged_in(organizer).get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "same club apart" in english
    assert "players for 3 tables: at least 6 same-club pairs are unavoidable." in english


@pytest.mark.django_db
def test_the_format_page_names_each_rounds_seating_priorities_in_italian(organizer):
    t = make_tournament(organizer)
    html = logged_in(organizer).get(f"/t/{t.slug}/results/format/",
                                    HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "stesso club separato" in html and "club_apart" not in html
