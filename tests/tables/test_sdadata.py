"""The sdadata closure at a table, step by step as docs/rules.md says (E-TIME, E-SUPP, E-SDADATA,
E-BAR), through the REST API (4 players) and the referee page (5 players)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import clocks, closure
from tables.models import Table, TurnEvent
from tests.tables.test_clocks import make_referee, make_table, make_tournament, make_user
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def expire_now(table: Table) -> None:
    """Move the stored deadline into the past (time is derived from it)."""
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    table.refresh_from_db()


class Api:
    def __init__(self, client, table: Table):
        g = table.game
        self.client = client
        self.base = f"/api/tournaments/{g.tournament.slug}/games/{g.number}/tables/{table.number}/"

    def log(self) -> dict:
        response = self.client.get(self.base + "turns/")
        assert response.status_code == 200
        return response.json()

    def turn(self, seat: int, conquered: int = 0, dice: list[int] | None = None, *, expect: int = 201,
             **extra) -> dict:
        body = {"seat": seat, "conquered": conquered, **extra}
        if dice is not None:
            body["dice"] = dice
        response = self.client.post(self.base + "turns/", body, content_type="application/json")
        assert response.status_code == expect, response.content
        return response.json()

    def next(self) -> tuple:
        a = self.log()["next_action"]
        return a["kind"], a["seat"], a["threshold"], a["rule"]


@pytest.fixture
def four(client):
    table = make_table(players=4)
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    return table, Api(client, table)


def test_four_players_step_by_step_through_the_api(four):
    table, api = four
    assert api.next() == ("play", 1, None, None)
    api.turn(1)
    api.turn(2, conquered=1)
    # E-TIME: no sdadata while the clock runs
    refused = api.turn(3, dice=[1, 1], expect=400)
    assert refused["rule"] == "E-TIME"

    expire_now(table)  # time expires during seat 3's turn
    log = api.log()
    assert log["status"] == Table.Status.TIME_EXPIRED
    assert log["events"][-1]["kind"] == "time_expired" and log["events"][-1]["seat"] == 3
    # E-SUPP: the current round is completed: seats 3 and 4
    assert api.next() == ("finish_round", 3, None, "E-SUPP")
    assert api.turn(4, expect=400)["rule"] == "T-ORDER"  # out of order
    assert api.turn(3, dice=[1, 2], expect=400)["rule"] == "E-SUPP"  # no roll before the supplementary round ends
    api.turn(3)
    api.turn(4, conquered=2)
    # then one more full round: the supplementary round, nobody rolls until its last player
    for seat in (1, 2, 3):
        assert api.next() == ("supplementary", seat, None, "E-SUPP")
        api.turn(seat, conquered=1)
    # E-SDADATA: the last player of the supplementary round rolls; ≤ 4 ends the game
    assert api.next() == ("roll", 4, 4, "E-SDADATA")
    assert api.turn(4, expect=400)["rule"] == "E-SDADATA"  # the roll is due
    assert api.turn(4, dice=[7, 1], expect=400)["rule"] == "E-SDADATA"  # not a die
    api.turn(4, dice=[3, 2])  # 5 > 4: play continues, every player rolls, threshold ≤ 5
    assert api.next() == ("roll", 1, 5, "E-SDADATA")
    # E-BAR: conquered more than 2 → does not roll
    assert api.turn(1, conquered=3, dice=[1, 1], expect=400)["rule"] == "E-BAR"
    api.turn(1, conquered=3)
    api.turn(2, conquered=2, dice=[6, 6])  # 2 conquests still roll
    api.turn(3, dice=[5, 6])
    api.turn(4, dice=[4, 4])  # end of the round: threshold rises to 6
    assert api.next() == ("roll", 1, 6, "E-SDADATA")
    for seat in (1, 2, 3):
        api.turn(seat, dice=[6, 1])  # 7 > 6
    api.turn(4, dice=[4, 4])  # threshold rises to 7
    assert api.next() == ("roll", 1, 7, "E-SDADATA")
    for seat in (1, 2, 3):
        api.turn(seat, dice=[6, 2])  # 8 > 7
    api.turn(4, dice=[4, 4])
    assert api.next() == ("roll", 1, 7, "E-SDADATA")  # ... then stays at ≤ 7
    ended = api.turn(1, dice=[3, 4])  # 7 ≤ 7: the game ends at once
    assert ended["next_action"]["kind"] == "ended"
    assert ended["status"] == Table.Status.FINISHED
    # a game that ended accepts no more turns
    assert api.turn(2, dice=[1, 1], expect=400)["rule"] == "E-SDADATA"
    rolls = TurnEvent.objects.filter(table=table, kind=TurnEvent.Kind.SDADATA).count()
    assert rolls == 1 + 3 + 4 + 4 + 1
    assert AuditEntry.objects.filter(object_id=str(table.pk), action="table.sdadata").count() == rolls


def test_the_anchor_roll_ends_the_game_on_four(four):
    table, api = four
    expire_now(table)
    for seat in (1, 2, 3, 4, 1, 2, 3):
        api.turn(seat)
    assert api.turn(4, dice=[2, 2])["next_action"]["kind"] == "ended"
    table.refresh_from_db()
    assert table.closure_state["ended_by"] == "sdadata"


def test_the_anchor_barred_by_conquests_does_not_roll_and_the_threshold_still_rises(four):
    table, api = four
    expire_now(table)
    for seat in (1, 2, 3, 4, 1, 2, 3):
        api.turn(seat)
    assert api.next() == ("roll", 4, 4, "E-SDADATA")
    api.turn(4, conquered=5)  # E-BAR: no roll
    assert api.next() == ("roll", 1, 5, "E-SDADATA")


def test_an_elimination_passes_the_last_seat_on(four):
    table, api = four
    expire_now(table)
    response = api.client.post(api.base + "turns/eliminate/", {"seat": 4}, content_type="application/json")
    assert response.status_code == 201
    for seat in (1, 2, 3, 1, 2):
        api.turn(seat)
    assert api.next() == ("roll", 3, 4, "E-SDADATA")


def test_two_referees_writing_the_same_step_the_second_gets_a_conflict(four, client):
    table, api = four
    expire_now(table)
    seen = api.log()["version"]
    api.turn(1, version=seen)
    other = make_referee(table.game.tournament)
    client.force_login(other)
    conflict = api.turn(1, version=seen, expect=409)
    assert "version" in conflict
    assert TurnEvent.objects.filter(table=table, kind=TurnEvent.Kind.END_TURN).count() == 1


def test_undo_takes_back_the_last_step(four):
    table, api = four
    expire_now(table)
    api.turn(1)
    api.turn(2, conquered=3)
    response = api.client.post(api.base + "turns/undo/", {}, content_type="application/json")
    assert response.status_code == 200
    assert api.next() == ("finish_round", 2, None, "E-SUPP")
    assert AuditEntry.objects.filter(action="table.undo_step", object_id=str(table.pk)).exists()


def test_server_roll_is_recorded(four, monkeypatch):
    table, api = four
    expire_now(table)
    for seat in (1, 2, 3, 4, 1, 2, 3):
        api.turn(seat)
    assert api.turn(1, server_roll=True, expect=400)["rule"] == "T-ORDER"
    result = api.turn(4, server_roll=True)
    last = result["events"][-1]
    assert last["rolled_by_server"] is True and len(last["dice"]) == 2
    assert all(1 <= d <= 6 for d in last["dice"])
    expected = "ended" if sum(last["dice"]) <= 4 else "roll"
    assert result["next_action"]["kind"] == expected
    if expected == "roll":  # no roll is due for a barred player
        assert api.turn(1, conquered=3, server_roll=True, expect=400)["rule"] == "E-BAR"


def test_turn_writes_need_the_referee_of_this_tournament(client):
    table = make_table()
    clocks.start_clock(table, actor=None)
    api = Api(client, table)
    assert api.turn(1, expect=403)  # anonymous
    client.force_login(make_user())
    api.turn(1, expect=403)  # a signed-in player
    client.force_login(make_referee(make_tournament()))
    api.turn(1, expect=403)  # referee of another tournament
    assert not TurnEvent.objects.filter(table=table).exists()
    assert api.log()["next_action"]["kind"] == "play"  # reads are public


# ---------------------------------------------------------------------------- the page, 5 players


class Page:
    def __init__(self, client, table: Table):
        g = table.game
        self.client = client
        self.url = f"/t/{g.tournament.slug}/games/{g.number}/tables/{table.number}/referee/"
        self.table = table

    def get(self) -> str:
        response = self.client.get(self.url)
        assert response.status_code == 200
        return response.content.decode()

    def version(self) -> int:
        return int(re.search(r'name="version" value="(\d+)"', self.get()).group(1))

    def post(self, expect: int = 302, **data) -> str:
        data.setdefault("version", self.version())
        response = self.client.post(self.url, {k: v for k, v in data.items() if v is not None})
        assert response.status_code == expect, response.content.decode()[-2000:]
        return response.content.decode()

    def turn(self, seat: int, conquered: int = 0, dice: tuple[int, int] | None = None, expect: int = 302):
        d1, d2 = dice or (None, None)
        return self.post(expect=expect, action="end_turn", seat=seat, conquered=conquered, die1=d1, die2=d2)

    def says(self) -> str:
        html = self.get()
        return re.search(r"data-next-action=\"\w+\">([^<]+)<", html).group(1)


@pytest.fixture
def five(client):
    table = make_table(players=5)
    client.cookies["django_language"] = "en"
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    return table, Page(client, table)


def test_five_players_step_by_step_through_the_referee_page(five):
    table, page = five
    assert page.says() == "Seat 1 plays."
    expire_now(table)  # nobody recorded the turns of normal play: the referee says whose turn it was
    html = page.get()
    assert "Time expired during the turn of seat" in html
    page.post(action="expiry_seat", seat=4)
    assert page.says() == "Time is up: seat 4 finishes the round."
    refused = page.turn(1, expect=400)
    assert "T-ORDER" in refused and 'value="1" selected' in refused  # the form keeps what was typed
    page.turn(4)
    page.turn(5)
    for seat in (1, 2, 3, 4):
        assert page.says() == f"Supplementary round: seat {seat} plays."
        page.turn(seat, conquered=2)
    assert page.says() == "Seat 5 rolls: ends on ≤ 4."
    page.turn(5, dice=(6, 3))
    assert page.says() == "Seat 1 rolls: ends on ≤ 5."
    refused = page.turn(1, conquered=3, dice=(1, 1), expect=400)
    assert "E-BAR" in refused and 'name="conquered" type="number" min="0" max="42" inputmode="numeric" value="3"' in refused
    page.turn(1, conquered=3)
    for seat in (2, 3, 4, 5):
        page.turn(seat, dice=(3, 3))  # 6 > 5
    assert page.says() == "Seat 1 rolls: ends on ≤ 6."
    for seat in (1, 2, 3, 4, 5):
        page.turn(seat, dice=(4, 3))  # 7 > 6
    assert page.says() == "Seat 1 rolls: ends on ≤ 7."
    for seat in (1, 2, 3, 4, 5):
        page.turn(seat, dice=(4, 4))  # 8 > 7
    assert page.says() == "Seat 1 rolls: ends on ≤ 7."
    page.turn(1, dice=(2, 1))
    assert page.says() == "The game has ended: sdadata."  # mid-sentence, lower case
    html = page.get()
    assert 'name="action" value="end_turn"' not in html  # no more turns on the page
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_the_page_shows_may_not_roll_with_the_rule(five):
    table, page = five
    expire_now(table)
    for seat in (1, 2, 3, 4, 5, 1, 2, 3, 4):
        page.turn(seat)
    assert page.says() == "Seat 5 rolls: ends on ≤ 4."
    response = page.client.post(page.url, {"action": "end_turn", "seat": 5, "conquered": 3,
                                           "version": page.version()}, follow=True)
    assert "E-BAR: Seat 5 may not roll (conquered 3). End of turn recorded." in response.content.decode()
    assert page.says() == "Seat 1 rolls: ends on ≤ 5."
    state = closure.current_state(Table.objects.get(pk=table.pk)).with_conquests(4)
    assert closure.describe(state.next_action(), 4) == "Seat 1 may not roll (conquered 4)."


def test_a_form_made_before_the_deadline_is_accepted_after_it(five):
    """The expiry (by the worker or on first access) is no competing step: no false conflict."""
    table, page = five
    page.turn(1)
    seen = page.version()
    expire_now(table)
    page.post(action="end_turn", seat=2, conquered=0, version=seen)
    kinds = list(TurnEvent.objects.filter(table=table).values_list("kind", "seat"))
    assert kinds == [("end_turn", 1), ("time_expired", 2), ("end_turn", 2)]
    assert page.says() == "Time is up: seat 3 finishes the round."


def test_the_page_reports_a_conflict_and_keeps_the_form(five, client):
    table, page = five
    expire_now(table)
    stale = page.version()
    page.turn(1)
    response = client.post(page.url, {"action": "end_turn", "seat": 2, "conquered": 1, "version": stale})
    assert response.status_code == 409
    assert "Another referee" in response.content.decode()
    assert TurnEvent.objects.filter(table=table, kind=TurnEvent.Kind.END_TURN).count() == 1


def test_the_page_refuses_non_referees(client):
    table = make_table(players=5)
    page_url = Page(client, table).url
    response = client.get(page_url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_user())
    assert client.get(page_url).status_code == 403
    assert client.post(page_url, {"action": "end_turn", "seat": 1}).status_code == 403
    client.force_login(make_referee(make_tournament()))
    assert client.get(page_url).status_code == 403
    assert not TurnEvent.objects.filter(table=table).exists()


def test_the_page_pauses_and_resumes_with_a_reason(five):
    table, page = five
    refused = page.post(expect=400, action="pause", reason="")
    assert "reason" in refused.lower() or "why" in refused.lower()
    page.post(action="pause", reason="a player fainted")
    table.refresh_from_db()
    assert table.paused_at is not None
    assert 'data-state="paused"' in page.get()
    page.post(action="resume")
    table.refresh_from_db()
    assert table.paused_at is None


# ---------------------------------------------------------------------------- stored state = the engine's


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.sampled_from([4, 5]), data=st.data())
def test_stored_state_is_always_the_engine_replay_of_the_log(players, data):
    """Whatever legal steps (and take-backs) are recorded, the stored closure state is exactly
    the engine's ClosureState replayed over the turn log: no second implementation drifts."""
    table = make_table(players=players)
    clocks.start_clock(table, actor=None)
    expire_now(table)
    clocks.ensure_marked(table)
    for _step in range(data.draw(st.integers(5, 40), label="steps")):
        state = closure.current_state(table)
        if state.ended:
            break
        if data.draw(st.integers(0, 9), label="undo?") == 0 and table.turn_events.count() > 1:
            closure.undo_last(table, actor=None)
        else:
            conquered = data.draw(st.integers(0, 4), label="conquered")
            dice = None
            if state.roll_due() and not state.barred(conquered):
                dice = data.draw(st.lists(st.integers(1, 6), min_size=2, max_size=2), label="dice")
            closure.record_end_of_turn(table, actor=None, seat=state.seat, conquered=conquered, dice=dice)
        table.refresh_from_db()
        assert table.closure_state == closure.replay(table).as_dict()
        assert (table.status == Table.Status.FINISHED) == closure.current_state(table).ended


def test_the_polled_status_shows_what_happens_next_to_referees_only(five, client):
    table, page = five
    expire_now(table)
    status_url = page.url + "status/"
    html = client.get(status_url).content.decode()
    assert "Time is up: seat 1 finishes the round." in html and 'hx-trigger="every 5s' in html
    assert "<form" not in html  # polling never replaces what the referee is typing
    client.logout()
    assert client.get(status_url).status_code == 403
