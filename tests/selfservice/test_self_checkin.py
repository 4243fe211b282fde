"""A player checks themselves in from their personal link (or the door's QR code) only while the
game's window is open; the organizer's check-in page says who did it themselves and can still
check anyone in or out; "I skip this game" and "I withdraw" keep the player out of the next
composition and the standings respect them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from common.errors import DomainError, PermissionDeniedError
from scoring import selectors as scoring_selectors
from selfservice import services
from selfservice.models import Absence, SelfCheckIn
from tables import selectors as table_selectors
from tables import services as table_services
from tests.factories import scoring as f
from tests.selfservice.conftest import as_player, open_window
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, CheckIn

pytestmark = pytest.mark.django_db

# Four seats, one table of game 1: places 1-4 by objective points (short form).
SHORT = f.short_data([(40, 10, 30, None, False), (30, 20, 20, None, False),
                      (20, 20, 25, None, False), (10, 14, 10, None, False)])


def test_a_player_checks_in_only_while_the_window_is_open(event) -> None:
    anna = event["players"][0]
    reg = event["regs"][anna.pk]
    with pytest.raises(DomainError) as no_window:
        services.check_in_self(reg, 1, player=anna)
    assert no_window.value.rule == "CHECKIN-WINDOW"
    now = timezone.now()
    services.set_window(event["t"], 1, now + dt.timedelta(minutes=10), now + dt.timedelta(minutes=40),
                        actor=event["org"])
    with pytest.raises(DomainError):  # not open yet
        services.check_in_self(reg, 1, player=anna)
    services.set_window(event["t"], 1, now - dt.timedelta(minutes=40), now - dt.timedelta(minutes=1),
                        actor=event["org"])
    with pytest.raises(DomainError):  # closed a minute ago
        services.check_in_self(reg, 1, player=anna)
    open_window(event, 1)
    checkin = services.check_in_self(reg, 1, player=anna)
    assert checkin.checked_in_by is None and SelfCheckIn.objects.filter(checkin=checkin).exists()
    assert services.check_in_self(reg, 1, player=anna).pk == checkin.pk  # twice: one check-in
    entry = AuditEntry.objects.get(action="checkin.self")
    assert entry.actor_label == anna.full_name and entry.after == {"player": anna.pk, "game": 1}


def test_only_the_player_themselves_and_only_registered(event) -> None:
    anna, bruno = event["players"][:2]
    open_window(event, 1)
    with pytest.raises(PermissionDeniedError):  # Bruno's phone cannot check Anna in
        services.check_in_self(event["regs"][anna.pk], 1, player=bruno)
    with pytest.raises(PermissionDeniedError):
        services.check_in_self(event["regs"][anna.pk], 1, player=None)
    tournament_services.withdraw(event["regs"][bruno.pk], actor=event["org"])
    with pytest.raises(DomainError) as withdrawn:
        services.check_in_self(event["regs"][bruno.pk], 1, player=bruno)
    assert withdrawn.value.rule == "STATUS"
    with pytest.raises(DomainError):  # the organizer's window: only theirs to set
        services.set_window(event["t"], 1, timezone.now(), timezone.now() + dt.timedelta(hours=1),
                            actor=event["ref"])
    with pytest.raises(DomainError) as backwards:
        services.set_window(event["t"], 1, timezone.now(), timezone.now() - dt.timedelta(hours=1),
                            actor=event["org"])
    assert backwards.value.field == "closes_at"


def test_the_check_in_page_shows_who_checked_in_by_themselves_and_the_organizer_overrides(client, event) -> None:
    anna, bruno, carla = event["players"][:3]
    open_window(event, 1)
    as_player(client, event, anna)
    page = client.post(reverse("selfservice:checkin", args=[event["t"].slug]), {"game_number": "1"}, follow=True)
    assert "Sei presente per la partita 1" in page.content.decode()
    services.skip_game(event["regs"][carla.pk], 2, player=carla)
    tournament_services.set_checked_in(event["regs"][bruno.pk], 1, True, actor=event["ref"])
    client.force_login(event["org"])
    html = client.get(reverse("tournaments:checkin", args=[event["t"].slug, 1])).content.decode()
    row = html[html.index(f'id="checkin-{event["regs"][anna.pk].pk}"'):]
    assert "presenza segnata da sé alle" in row[:row.index("</tr>")]
    row = html[html.index(f'id="checkin-{event["regs"][bruno.pk].pk}"'):]
    assert "segnata da sé" not in row[:row.index("</tr>")]  # the referee checked Bruno in
    html2 = client.get(reverse("tournaments:checkin", args=[event["t"].slug, 2])).content.decode()
    row = html2[html2.index(f'id="checkin-{event["regs"][carla.pk].pk}"'):]
    assert "salta questa partita" in row[:row.index("</tr>")]
    # "everyone shown is present" for game 2 leaves out Carla, who said she skips it
    client.post(reverse("tournaments:checkin_bulk", args=[event["t"].slug, 2]), {"action": "everyone"})
    assert CheckIn.objects.filter(game_number=2).count() == 9
    assert not CheckIn.objects.filter(game_number=2, registration=event["regs"][carla.pk]).exists()
    # the organizer checks Anna out: her own check-in goes with it
    tournament_services.set_checked_in(event["regs"][anna.pk], 1, False, actor=event["org"])
    assert not SelfCheckIn.objects.exists()


def test_skip_and_withdraw_are_respected_by_the_next_composition_and_the_standings(event) -> None:
    t, org, ps = event["t"], event["org"], event["players"]
    # game 1: everyone is present; two tables of four (the last two came late: not seated);
    # table 1's result confirmed
    for p in ps:
        tournament_services.set_checked_in(event["regs"][p.pk], 1, True, actor=org)
    table1 = f.make_table(t, 1, ps[:4])
    f.make_table(t, 1, ps[4:8])
    f.enter(table1, event["ref"], "short", SHORT, confirm_by=org)
    seated1 = [s.player for s in table1.seats.order_by("number")]
    skipper, leaver = seated1[0], seated1[1]  # the winner (40 objective points) and the second
    # during game 1, the skipper says they skip game 2 and the leaver withdraws
    with pytest.raises(DomainError) as made:  # game 1 has its tables: too late to skip it
        services.skip_game(event["regs"][skipper.pk], 1, player=skipper)
    assert made.value.rule == "K-TABLES"
    services.skip_game(event["regs"][skipper.pk], 2, player=skipper)
    services.withdraw_self(event["regs"][leaver.pk], player=leaver)
    assert event["regs"][leaver.pk].withdrawal.from_game == 2  # the tournament's own withdrawal
    # game 2: the desk carries presences over from game 1: 10 - skipper - leaver = 8 checked in
    added = tournament_services.carry_over_checkins(t, 2, actor=org)
    assert added == 8
    game2 = table_services.ensure_game(t, 2, actor=org)
    table_services.compose_game(game2, actor=org, effort=0.3)
    in_game2 = {pk for table in table_selectors.seated_tables([game2])[game2.pk] for pk in table}
    assert len(in_game2) == 8 and skipper.pk not in in_game2 and leaver.pk not in in_game2
    # the standings: the skipper keeps game 1's result (still in them, game 2 empty); the leaver
    # keeps the game they played too (a withdrawal counts from the next game)
    rows = {r["player"]: r for r in scoring_selectors.full_standings(t)["rows"]}
    assert rows[skipper.pk]["rank"] == 1 and [c["game"] for c in rows[skipper.pk]["games"]] == [1]
    assert leaver.pk in rows and [c["game"] for c in rows[leaver.pk]["games"]] == [1]
    # the skipper changes their mind before game 3: "I play after all", then checks in again
    services.skip_game(event["regs"][skipper.pk], 3, player=skipper)
    services.play_after_all(event["regs"][skipper.pk], 3, player=skipper)
    assert not Absence.objects.filter(game_number=3).exists()


def test_a_withdrawal_from_the_link_moves_up_the_waiting_list_and_needs_the_own_link(client, event) -> None:
    anna, bruno = event["players"][:2]
    with pytest.raises(PermissionDeniedError):
        services.withdraw_self(event["regs"][anna.pk], player=bruno)
    as_player(client, event, anna)
    page = client.get(reverse("selfservice:withdraw", args=[event["t"].slug]))
    assert page.status_code == 200 and "stai per ritirarti" in page.content.decode()
    client.post(reverse("selfservice:withdraw", args=[event["t"].slug]), {"reason": "febbre"})
    reg = event["regs"][anna.pk]
    reg.refresh_from_db()
    assert reg.is_withdrawn and reg.withdrawal.reason == "febbre"
    assert not CheckIn.objects.filter(registration=reg).exists()


def test_the_door_page_checks_in_the_phone_that_holds_the_link(client, event) -> None:
    anna = event["players"][0]
    door = reverse("selfservice:door", args=[event["t"].slug])
    assert "Apri il tuo link personale" in client.get(door).content.decode()  # a phone without it
    as_player(client, event, anna)
    assert "non sono aperte ora" in client.get(door).content.decode()
    open_window(event, 1)
    html = client.get(door).content.decode()
    assert "segnami presente per la partita 1" in html
    client.post(reverse("selfservice:checkin", args=[event["t"].slug]), {"game_number": "1", "next": door})
    assert "Sei presente per la partita 1" in client.get(door).content.decode()
    # closed: the same tap is refused, said on the page
    services.set_window(event["t"], 2, timezone.now() - dt.timedelta(hours=2),
                        timezone.now() - dt.timedelta(hours=1), actor=event["org"])
    page = client.post(reverse("selfservice:checkin", args=[event["t"].slug]), {"game_number": "2"}, follow=True)
    assert "non sono aperte ora" in page.content.decode()
    assert not CheckIn.objects.filter(game_number=2).exists()


def test_the_organizer_sets_the_window_on_its_page_and_a_bad_one_keeps_what_was_typed(client, event) -> None:
    page = reverse("selfservice:settings", args=[event["t"].slug])
    client.force_login(event["ref"])
    assert client.get(page).status_code == 403  # the organizer's page
    client.force_login(event["org"])
    html = client.get(page).content.decode()
    assert "<svg" in html and reverse("selfservice:door", args=[event["t"].slug]) in html  # the door's code
    bad = client.post(page, {"game_number": "2", "opens_at": "2026-06-01T14:30", "closes_at": "2026-06-01T14:00"})
    assert bad.status_code == 400
    body = bad.content.decode()
    assert "Le presenze devono chiudere dopo l&#x27;apertura." in body and 'value="2026-06-01T14:30"' in body
    good = client.post(page, {"game_number": "2", "opens_at": "2026-06-01T14:00", "closes_at": "2026-06-01T14:25"})
    assert good.status_code == 302
    window = event["t"].checkin_windows.get()
    # 14:00 to 14:25 in the site's time zone: 25 minutes
    assert window.game_number == 2 and (window.closes_at - window.opens_at).total_seconds() == 25 * 60
