"""A closed game's clocks stop (E-TIME): once the organizer has closed the game, or the
tournament has concluded, no table's time "expires" afterwards (no ClockEvent, no audit entry
"Tempo scaduto" ten minutes after the closing), the sweep leaves them alone, and every page
shows the clock stopped instead of counting down. Also: a refusal at the table names its rule
once."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from django.core.cache import cache
from django.utils import timezone

from tables import clocks
from tables.models import ClockEvent, Game, Table
from tests.tables.test_clocks import make_referee, make_table
from tests.tables.test_sdadata import Page, expire_now
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def started(table: Table) -> Table:
    clocks.start_clock(table, actor=None)
    table.refresh_from_db()
    return table


def close_game(table: Table) -> None:
    game = table.game
    game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
    game.save(update_fields=["status", "finished_at"])  # as a model write: public pages learn of it
    table.refresh_from_db()


def test_a_closed_game_records_no_expiry_afterwards(db) -> None:
    table = started(make_table())
    close_game(table)
    later = table.deadline + dt.timedelta(minutes=10)
    assert clocks.due_tables(later) == []
    assert clocks.mark_expired(table.pk, now=later) is False
    assert not ClockEvent.objects.filter(table=table, kind=ClockEvent.Kind.EXPIRE).exists()
    assert not AuditEntry.objects.filter(action="table.time_expired").exists()
    assert clocks.clock_state(table, later)["state"] == "stopped"


def test_a_concluded_tournament_stops_the_clocks_of_a_game_left_open(db) -> None:
    table = started(make_table())
    Tournament.objects.filter(pk=table.game.tournament_id).update(status=Tournament.Status.FINISHED)
    table = Table.objects.select_related("game__tournament").get(pk=table.pk)
    later = table.deadline + dt.timedelta(minutes=10)
    assert clocks.due_tables(later) == []
    assert clocks.mark_expired(table.pk, now=later) is False
    assert clocks.clock_state(table, later)["state"] == "stopped"


def test_an_open_game_still_expires(db) -> None:
    table = started(make_table())
    later = table.deadline + dt.timedelta(seconds=1)
    assert clocks.due_tables(later) == [table.pk]
    assert clocks.mark_expired(table.pk, now=later) is True


def test_the_pages_show_a_closed_games_clock_stopped(client) -> None:
    table = started(make_table())
    g = table.game
    public = f"/t/{g.tournament.slug}/games/{g.number}/tables/"
    assert 'data-state="running"' in client.get(public).content.decode()
    close_game(table)
    for url in (public, f"{public}{table.number}/"):
        page = client.get(url).content.decode()
        assert 'data-state="running"' not in page and 'data-state="stopped"' in page, url
        assert "Orologio fermo: la partita è chiusa" in page, url
    api = client.get(f"/api/tournaments/{g.tournament.slug}/games/{g.number}/tables/{table.number}/clock/")
    assert api.json()["state"] == "stopped"


def test_a_refusal_at_the_table_names_its_rule_once(client) -> None:
    table = make_table(players=5)
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    page = Page(client, table)
    expire_now(table)
    refused = page.post(expect=400, action="end_turn", seat=3, conquered=0)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", refused)))
    assert "È il turno del posto 1, non del posto 3." in text
    assert text.count("T-ORDER") == 1, text


def test_a_page_rendered_after_the_deadline_says_the_time_expired_before_anything_records_it(client) -> None:
    """No worker has marked the expiry yet (a stopped worker, the embedded default between two
    reads): a page rendered after the deadline must not say the clock is running."""
    table = started(make_table())
    g = table.game
    public = f"/t/{g.tournament.slug}/games/{g.number}/tables/"
    assert 'data-state="running"' in client.get(public).content.decode()
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - dt.timedelta(seconds=5))
    cache.clear()  # a page rendered anew (without a worker: every 30 s, live.public's bucket)
    for url in (public, f"{public}{table.number}/"):
        page = client.get(url).content.decode()
        assert 'data-state="running"' not in page and 'data-state="expired"' in page, url
        assert "Tempo scaduto" in page, url
    assert Table.objects.get(pk=table.pk).expired_marked_at is None  # nothing recorded it
