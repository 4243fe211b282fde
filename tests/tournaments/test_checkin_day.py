"""Check-in through a whole day: presences carry over to the next game, "everyone present" and a
selection check several players in at once, a tap says the state it wants (never a blind flip
across devices), pages are never served stale, and the search ignores accents and case (on
SQLite and PostgreSQL alike)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories.tournaments import ClubFactory, RegistrationFactory
from tournaments import selectors, services
from tournaments.models import AuditEntry, CheckIn, Registration, Withdrawal

pytestmark = pytest.mark.django_db


def _present(tournament, game: int) -> set[int]:
    return set(CheckIn.objects.filter(registration__tournament=tournament, game_number=game)
               .values_list("registration_id", flat=True))


def test_presences_carry_over_to_the_next_game(referee, tournament, client) -> None:
    regs = [RegistrationFactory(tournament=tournament) for _ in range(6)]
    services.bulk_checkin(regs[:5], 1, actor=referee)
    Withdrawal.objects.create(registration=regs[4])
    client.force_login(referee)
    page = client.get(f"/t/{tournament.slug}/checkin/2/", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert "4 players were present for game 1" in html and "Present as in game 1" in html
    assert "no-store" in page["Cache-Control"]
    r = client.post(f"/t/{tournament.slug}/checkin/2/bulk/", {"action": "carry"},
                    HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 302
    assert _present(tournament, 2) == {r.pk for r in regs[:4]}
    assert AuditEntry.objects.filter(action="checkin.create",
                                     after__game=2).count() == 4
    html = client.get(r["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4 players checked in." in html and "Present as in game 1" not in html
    # game 1 has nothing to carry
    client.post(f"/t/{tournament.slug}/checkin/1/bulk/", {"action": "carry"})
    assert _present(tournament, 1) == {r.pk for r in regs[:5]}


def test_everyone_shown_and_a_selection(referee, tournament, client) -> None:
    rossi = [RegistrationFactory(tournament=tournament, player__last_name=f"Rossi{i}")
             for i in range(3)]
    bianchi = [RegistrationFactory(tournament=tournament, player__last_name=f"Bianchi{i}")
               for i in range(3)]
    waiting = RegistrationFactory(tournament=tournament, status=Registration.Status.WAITLISTED)
    client.force_login(referee)
    url = f"/t/{tournament.slug}/checkin/1/bulk/"
    client.post(url, {"action": "everyone", "q": "rossi"})
    assert _present(tournament, 1) == {r.pk for r in rossi}
    r = client.post(url, {"action": "selected", "registration": [bianchi[0].pk, waiting.pk,
                                                                 "x", 999999, "9" * 40]})
    assert r.status_code == 302
    assert _present(tournament, 1) == {r.pk for r in rossi} | {bianchi[0].pk}
    client.post(url, {"action": "everyone", "q": ""})
    assert _present(tournament, 1) == {r.pk for r in rossi + bianchi}  # not the waitlisted
    # the counter says how many players are present, in the plural a count needs
    html = client.get(f"/t/{tournament.slug}/checkin/1/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'Giocatori presenti: <strong id="checkin-count"' in html and ">6</strong>" in html


def test_a_tap_sets_the_state_it_shows_even_if_another_device_changed_it(
    referee, tournament, client
) -> None:
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(referee)
    url = f"/t/{tournament.slug}/checkin/1/{reg.pk}/"
    services.set_checked_in(reg, 1, True, actor=referee)  # the other device
    # this device still showed "Check in" (present=1): the player stays present
    r = client.post(url, {"present": "1"}, headers={"HX-Request": "true"})
    assert 'aria-pressed="true"' in r.content.decode() and _present(tournament, 1) == {reg.pk}
    r = client.post(url, {"present": "0"}, headers={"HX-Request": "true"})
    assert 'aria-pressed="false"' in r.content.decode() and _present(tournament, 1) == set()
    r = client.post(url, {"present": "0"}, headers={"HX-Request": "true"})
    assert _present(tournament, 1) == set()


def test_bulk_check_in_needs_a_referee_of_this_tournament(tournament, other_referee_client):
    reg = RegistrationFactory(tournament=tournament)
    r = other_referee_client.post(f"/t/{tournament.slug}/checkin/1/bulk/",
                                  {"action": "everyone"})
    assert r.status_code == 403 and not _present(tournament, 1)
    assert reg.pk


@pytest.mark.parametrize(("query", "found"), [
    ("niccolo", True), ("NICCOLÒ", True), ("Niccolò", True), ("niccolo forte", True),
    ("sasa", True), ("Sasà", True), ("cantu", True), ("forli", False), ("nicola", False),
])
def test_search_ignores_accents_and_case(referee, tournament, query, found) -> None:
    RegistrationFactory(tournament=tournament, player__first_name="Niccolò",
                        player__last_name="Fortè", player__nickname="Sasà",
                        player__club=ClubFactory(name="Circolo Cantù"))
    RegistrationFactory(tournament=tournament, player__first_name="Mario",
                        player__last_name="Rossi", player__club=None)
    rows = selectors.checkin_rows(tournament, 1, query)
    assert [r["registration"].player.first_name for r in rows] == (["Niccolò"] if found else [])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet="aàeèéiìoòuùAÈÌÒÙcçnñ", min_size=2, max_size=8))
def test_any_accented_name_is_found_by_its_plain_spelling(tournament, name) -> None:
    import unicodedata

    Registration.objects.filter(tournament=tournament).delete()
    RegistrationFactory(tournament=tournament, player__first_name=name, player__last_name="X")
    plain = "".join(c for c in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(c)).lower()
    assert len(selectors.checkin_rows(tournament, 1, plain)) == 1
