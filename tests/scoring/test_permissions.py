"""Who may write and confirm results (API and pages), concurrent saves, confirmations, audit,
and the number of queries of the standings."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import recompute, selectors
from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tests.factories.tournaments import PlayerLinkFactory, open_private_link
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

SHORT = f.short_data([(40, 10, 30, None, False), (30, 20, 20, None, False),
                      (20, 20, 25, None, False), (10, 14, 10, None, False)])
OTHER = f.short_data([(40, 10, 30, None, False), (30, 20, 20, None, False),
                      (10, 20, 25, None, False), (20, 14, 10, None, False)])


def _api_post(client, table, body):
    return client.post(f"/api/scoring/tables/{table.pk}/results/", data=json.dumps(body),
                       content_type="application/json")


def _body(version=0, data=SHORT):
    return {"kind": "short", "version": version, "ended_by": "sdadata", **data}


def test_outsiders_cannot_write_a_result_api_or_page(client, setup) -> None:
    table, t = setup["table"], setup["t"]
    other_t = f.ScoringTournamentFactory()
    foreign_ref = f.role(other_t)
    assert _api_post(client, table, _body()).status_code in (401, 403)  # anonymous
    page = f"/t/{t.slug}/results/table/{table.pk}/enter/"
    assert client.post(page, {"kind": "short", "version": 0}).status_code == 302  # to the login page
    client.force_login(foreign_ref)  # a referee of another tournament
    assert _api_post(client, table, _body()).status_code == 403
    assert client.post(page, {"kind": "short", "version": 0}).status_code == 403
    client.logout()  # a player, through their private link
    link = PlayerLinkFactory(tournament=t, player=setup["players"][0])
    open_private_link(client, link.token)
    assert _api_post(client, table, _body()).status_code in (401, 403)
    assert not ResultSubmission.objects.exists()
    client.force_login(setup["ref1"])
    assert _api_post(client, table, _body()).status_code == 201


def test_two_referees_saving_at_once_the_second_is_told(client, setup) -> None:
    table = setup["table"]
    client.force_login(setup["ref1"])
    assert _api_post(client, table, _body(0)).status_code == 201
    client.force_login(setup["ref2"])
    resp = _api_post(client, table, _body(0, OTHER))  # started from version 0 too
    assert resp.status_code == 409 and resp.json()["rule"] == "VERSION"
    assert ResultSubmission.objects.count() == 1
    page = client.post(f"/t/{setup['t'].slug}/results/table/{table.pk}/enter/",
                       {"kind": "short", "version": 0, "ended_by": "sdadata",
                        **{f"objective_points_{i}": 10 for i in range(1, 5)}})
    assert page.status_code in (400, 409)
    # after reloading (version 1) the second entry is kept and shown as a disagreement
    assert _api_post(client, table, _body(1, OTHER)).status_code == 201
    state = selectors.table_state(table)
    assert state.status == selectors.DISPUTED and [s.number for s in state.disputed_pair] == [1, 2]
    html = client.get(f"/t/{setup['t'].slug}/results/table/{table.pk}/").content.decode()
    assert html.count("card\"><h3>") == 2 and "side-by-side" in html


def test_double_entry_of_the_same_result_confirms_it(client, setup) -> None:
    f.enter(setup["table"], setup["ref1"], "short", SHORT)
    sub = f.enter(setup["table"], setup["ref2"], "short", SHORT)
    assert selectors.table_state(setup["table"]).status == selectors.CONFIRMED
    assert sub.confirmations.get().double_entry


def test_a_player_of_the_table_confirms_through_the_private_link(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    sub = f.enter(table, setup["ref1"], "short", SHORT)
    outsider = f.players(t, 1)[0]
    link = PlayerLinkFactory(tournament=t, player=outsider)
    open_private_link(client, link.token)
    assert client.post(f"/api/scoring/results/{sub.pk}/confirm/").status_code == 403
    link = PlayerLinkFactory(tournament=t, player=setup["players"][2])
    open_private_link(client, link.token)
    assert client.post(f"/api/scoring/results/{sub.pk}/confirm/").status_code == 201
    assert selectors.standings(t)["rows"][0]["total"] == 70


def test_corrections_are_versioned_audited_and_recomputed(setup) -> None:
    t, table = setup["t"], setup["table"]
    f.enter(table, setup["ref1"], "short", SHORT, confirm_by=setup["ref2"])
    first = {r["player"]: r["total"] for r in selectors.standings(t)["rows"]}
    f.enter(table, setup["ref2"], "short", OTHER)
    # a pending correction does not count yet…
    assert {r["player"]: r["total"] for r in selectors.standings(t)["rows"]} == first
    latest = selectors.table_state(table).latest
    from scoring import services

    services.confirm_result(actor=setup["org"], submission=latest)
    after = {r["player"]: r["total"] for r in selectors.standings(t)["rows"]}
    p3, p4 = setup["players"][2].pk, setup["players"][3].pk
    assert (first[p3], first[p4]) == (25, 10) and (after[p3], after[p4]) == (10, 25)
    actions = list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions.count("result.submit") == 2 and actions.count("result.confirm") == 2
    entry = AuditEntry.objects.filter(action="result.submit").order_by("at", "id").last()
    assert entry.before["version"] == 1 and entry.after["version"] == 2


def test_unconfirmed_results_are_published_only_when_the_organizer_chooses(client, setup) -> None:
    t = setup["t"]
    f.enter(setup["table"], setup["ref1"], "short", SHORT)
    assert selectors.standings(t)["rows"][0]["total"] == 0
    client.force_login(setup["org"])
    client.post(f"/t/{t.slug}/results/", {"publish_unconfirmed": "1", "best_n": "2"})
    t.refresh_from_db()  # the page changed another instance's format (as the next request reads it)
    assert selectors.standings(t)["rows"][0]["total"] == 70


def test_standings_queries_do_not_grow_with_players(django_assert_max_num_queries, db) -> None:
    def build(tables):
        t = f.ScoringTournamentFactory()
        ref, ref2 = f.role(t), f.role(t)
        for _ in range(tables):
            f.enter(f.make_table(t, 1, f.players(t, 4)), ref, "short", SHORT, confirm_by=ref2)
        return t

    small, big = build(1), build(8)
    counts = []
    for t in (small, big):
        recompute.invalidate(t.pk)
        with CaptureQueriesContext(connection) as ctx:
            data = selectors.standings(t)
        counts.append(len(ctx.captured_queries))
    assert len(data["rows"]) == 32
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(counts[1]):
        recompute.invalidate(big.pk)
        selectors.standings(big)
    with django_assert_max_num_queries(0):
        selectors.standings(big)  # cached


def test_api_reads_standings_and_a_table(client, setup) -> None:
    f.enter(setup["table"], setup["ref1"], "short", SHORT, confirm_by=setup["ref2"])
    data = client.get(f"/api/scoring/tournaments/{setup['t'].slug}/standings/").json()
    assert data["rows"][0]["total"] == 70
    state = client.get(f"/api/scoring/tables/{setup['table'].pk}/results/").json()
    assert state["status"] == "confirmed" and state["version"] == 1
    assert client.get("/api/schema/").status_code == 200
