"""Objective-card slips: one organizer action gives every seated player of a game their
personal link, printed as cut-out slips with a QR code each; the card itself shows only through
the owner's link, by its Italian name and territories."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine.objectives import default_deck
from tables.models import Seat
from tests.factories.tournaments import open_private_link
from tests.tables.conftest import add_players, add_role, make_user, player_link
from tests.tables.test_pages import logged_in, started
from tournaments.models import AccessLink, AuditEntry

pytestmark = pytest.mark.django_db


def test_one_action_makes_every_players_slip_and_keeps_existing_links(tournament, organizer):
    add_players(tournament, 9)
    game = started(tournament, organizer, count=9, objectives=True)
    seats = list(Seat.objects.filter(game=game, player__isnull=False))
    kept = player_link(tournament, seats[0].player)
    org = logged_in(organizer)
    url = f"/t/{tournament.slug}/games/1/slips/"
    page = org.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "8 seated players have no personal link yet" in page
    assert org.post(url).status_code == 302
    links = AccessLink.objects.filter(tournament=tournament, kind="player", revoked_at=None)
    assert links.count() == 9 and links.filter(pk=kept.pk).exists()
    assert AuditEntry.objects.filter(action="link.create", tournament=tournament).count() == 8
    assert org.post(url).status_code == 302  # again: nothing new
    assert links.count() == 9
    html = org.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html.count('class="slip"') == 9 and html.count("<svg") == 9
    for seat in seats:
        assert seat.player.display_name in html
        assert f"Table {seat.table.number} · seat {seat.number}" in html
        assert seat.objective not in html  # the slip shows no card
    assert f"/l/{kept.token}/?game=1" in html  # the QR's target, for the check below
    assert "no personal link yet" not in html


def test_the_slips_link_opens_the_players_own_card_by_name(tournament, organizer):
    add_players(tournament, 9)
    game = started(tournament, organizer, count=9, objectives=True)
    org = logged_in(organizer)
    org.post(f"/t/{tournament.slug}/games/1/slips/")
    html = org.get(f"/t/{tournament.slug}/games/1/slips/").content.decode()
    token = re.search(r'/l/([A-Za-z0-9_-]+)/\?game=1', html).group(1)
    link = AccessLink.objects.get(token=token)
    phone = Client()
    r = open_private_link(phone, token, {"game": "1"})
    assert r.status_code == 302 and r["Location"] == f"/t/{tournament.slug}/games/1/objective/"
    card = phone.get(r["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    mine = Seat.objects.get(game=game, player=link.player)
    deck = default_deck("rtu")
    assert deck[mine.objective].name in card
    assert next(iter(deck[mine.objective].territories)) in card
    others = Seat.objects.filter(game=game).exclude(player=link.player)
    assert not any(deck[s.objective].name in card for s in others
                   if deck[s.objective].name != deck[mine.objective].name)
    api = phone.get(f"/api/tournaments/{tournament.slug}/games/1/objectives/")
    assert api.status_code == 200 and api.json()[0]["name"] == deck[mine.objective].name


def test_only_this_tournaments_organizers_prepare_slips(tournament, organizer):
    add_players(tournament, 9)
    started(tournament, organizer, count=9)
    ref = make_user()
    add_role(tournament, ref, "referee")
    url = f"/t/{tournament.slug}/games/1/slips/"
    assert logged_in(ref).get(url).status_code == 403
    assert logged_in(ref).post(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page
    assert not AccessLink.objects.filter(tournament=tournament).exists()


def test_a_seated_players_link_leads_with_their_table_and_seat(tournament, organizer):
    add_players(tournament, 9)
    game = started(tournament, organizer, count=9, objectives=True)
    seat = Seat.objects.filter(game=game).select_related("player", "table").first()
    link = player_link(tournament, seat.player)
    phone = Client()
    r = open_private_link(phone, link.token)
    assert r["Location"] == f"/t/{tournament.slug}/me/"
    page = phone.get(r["Location"], HTTP_ACCEPT_LANGUAGE="en")
    assert "no-store" in page["Cache-Control"]
    html = page.content.decode()
    where = f"Table {seat.table.number} · seat {seat.number}"
    assert where in html and html.index(where) < html.index("My objective card")
    assert f"/t/{tournament.slug}/games/1/objective/" in html
    # another browser (no link) sees no one's seat
    other = Client().get(f"/t/{tournament.slug}/me/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert where not in other and seat.player.display_name not in other


def test_the_referee_table_page_shows_the_deal_and_starting_armies(tournament, organizer):
    from engine.rulesets import get_ruleset

    add_players(tournament, 9)
    game = started(tournament, organizer, count=9)
    ref = make_user()
    add_role(tournament, ref, "referee")
    table = game.tables.order_by("number").first()
    html = logged_in(ref).get(
        f"/t/{tournament.slug}/games/1/tables/{table.number}/referee/",
        HTTP_ACCEPT_LANGUAGE="en").content.decode()
    n = table.seats.count()
    armies = get_ruleset("RTU").armies_for(n)
    assert html.count(f"{armies} starting armies") == n
    for territory in table.deal:
        assert territory in html


def test_a_slip_link_with_a_strange_game_opens_the_players_page(tournament, organizer):
    add_players(tournament, 9)
    game = started(tournament, organizer, count=9)
    seat = Seat.objects.filter(game=game).first()
    link = player_link(tournament, seat.player)
    for game_param in ("9" * 5000, "0", "99", "-1", "x"):
        r = open_private_link(Client(), link.token, {"game": game_param})
        assert r.status_code == 302 and r["Location"] == f"/t/{tournament.slug}/me/"


def test_secret_cards_and_private_links_are_never_kept_by_a_browser_or_a_proxy(tournament, organizer):
    """A shared phone's back button, a browser's disk cache or a proxy must not keep a player's
    card, nor a page that shows private links or invitations."""
    from tournaments import invitations

    add_players(tournament, 9)
    game = started(tournament, organizer, count=9, objectives=True)
    seat = Seat.objects.filter(game=game, player__isnull=False).first()
    phone = Client()
    open_private_link(phone, player_link(tournament, seat.player).token)
    slug = tournament.slug
    inv = invitations.create_invitation(tournament, "referee", actor=organizer)
    org = logged_in(organizer)
    for who, url in [
        (phone, f"/t/{slug}/games/1/objective/"), (phone, f"/api/tournaments/{slug}/games/1/objectives/"),
        (org, f"/t/{slug}/games/1/slips/"), (org, f"/t/{slug}/staff/"),
        (org, f"/t/{slug}/staff/invitations/{inv.pk}/"), (org, f"/api/tournaments/{slug}/links/"),
        (org, f"/api/tournaments/{slug}/invitations/"),
    ]:
        r = who.get(url)
        assert r.status_code == 200, url
        control = {v.strip() for v in r.get("Cache-Control", "").split(",")}
        assert {"private", "no-store"} <= control, (url, r.get("Cache-Control"))
    mine = phone.get(f"/api/tournaments/{slug}/games/1/objectives/").json()
    assert [c["objective"] for c in mine] == [seat.objective]  # the card itself, still served


def test_an_earlier_games_slip_leads_to_the_current_games_card_and_table(tournament, organizer):
    """Game 1's slip scanned again during game 3 shows game 3's table and card, not game 1's;
    the tournament page offers the same to a phone holding the link."""
    from tests.factories.tables import GameFactory, SeatFactory, TableFactory

    add_players(tournament, 9)
    game = started(tournament, organizer, count=9, objectives=True)
    seat = Seat.objects.filter(game=game).select_related("player").first()
    link = player_link(tournament, seat.player)
    tournament.games_count = 3
    tournament.save()
    later = SeatFactory(table=TableFactory(game=GameFactory(tournament=tournament, number=3), number=4),
                        player=seat.player, number=5)
    phone = Client()
    open_private_link(phone, link.token)  # the phone holds the link: a slip scanned again goes straight on
    r = phone.get(f"/l/{link.token}/?game=1")
    assert r["Location"] == f"/t/{tournament.slug}/me/"
    home = phone.get(r["Location"]).content.decode()
    assert "Partita 3" in home and "Tavolo 4 · posto 5" in home
    assert f"/t/{tournament.slug}/games/3/objective/" in home
    assert f"/t/{tournament.slug}/games/3/tables/4/" in home
    # the slip of the game being played still opens its card at once
    assert phone.get(f"/l/{link.token}/?game=3")["Location"] == f"/t/{tournament.slug}/games/3/objective/"
    assert later.game.number == 3
    # the tournament page, on the phone holding the link: one tap to card and table
    detail = phone.get(f"/t/{tournament.slug}/").content.decode()
    assert f'href="/t/{tournament.slug}/me/">La mia carta / il mio tavolo</a>' in detail
    assert "La mia carta / il mio tavolo" not in Client().get(f"/t/{tournament.slug}/").content.decode()
