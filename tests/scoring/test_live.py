"""Public pages answered from version stamps (common/live.py): an unchanged poll is a 304, any
change a viewer should see is a new validator, nothing stale or personal is ever replayed, every
language has its own, public pages carry no CSRF token and are gzip-compressed, pages with a
token never are."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from django.test import Client

from scoring import services
from tables import clocks
from tables import services as table_services
from tests.factories import scoring as f
from tests.publishing.laptop import standings_totals

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _live_on(settings: Any) -> None:
    settings.LIVE_CACHE = True


def _pages(t: Any, table: Any, player: Any) -> dict[str, str]:
    g = table.game.number
    return {
        "leaderboard": f"/t/{t.slug}/standings/",
        "tables page": f"/t/{t.slug}/games/{g}/tables/",
        "table page": f"/t/{t.slug}/games/{g}/tables/{table.number}/",
        "result page": f"/t/{t.slug}/results/table/{table.pk}/",
        "player page": f"/t/{t.slug}/standings/player/{player.pk}/",
        "standings API": f"/api/scoring/tournaments/{t.slug}/standings/",
        "clock API": f"/api/tournaments/{t.slug}/games/{g}/tables/{table.number}/clock/",
    }


def _etag(client: Client, url: str, **headers: str) -> str:
    r = client.get(url, headers=headers)
    assert r.status_code == 200, url
    assert r["Cache-Control"] == "no-cache"
    return str(r["ETag"])


def _poll(client: Client, url: str, etag: str, **headers: str) -> Any:
    return client.get(url, headers={"If-None-Match": etag, **headers})


def test_an_unchanged_poll_of_every_public_page_is_a_304(client: Client, setup: dict[str, Any]) -> None:
    for name, url in _pages(setup["t"], setup["table"], setup["players"][0]).items():
        etag = _etag(client, url)
        r = _poll(client, url, etag)
        assert r.status_code == 304, name
        assert r["ETag"] == etag and not r.content
        assert "Accept-Language" in r["Vary"] and "Cookie" in r["Vary"]


def _all_change(client: Client, urls: list[str], change: Any) -> None:
    before = {url: _etag(client, url) for url in urls}
    bodies = {url: client.get(url).content for url in urls}
    change()
    for url in urls:
        r = _poll(client, url, before[url])
        assert r.status_code == 200, url  # a new validator: never the old page
        assert r["ETag"] != before[url]
        assert _poll(client, url, r["ETag"]).status_code == 304
        bodies[url] = r.content


def test_results_corrections_clocks_and_reseating_change_the_validator(client: Client, setup: dict[str, Any]) -> None:
    t, table, ps = setup["t"], setup["table"], setup["players"]
    pages = _pages(t, table, ps[0])
    board = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    urls = [pages["leaderboard"], pages["standings API"], pages["player page"], pages["result page"],
            f"{pages['leaderboard']}?player={ps[1].pk}", f"{pages['standings API']}?limit=2&player={ps[1].pk}"]

    # a result entered, then confirmed: the leaderboard shows it at once (not a replayed page)
    sub = f.enter(table, setup["ref1"], "board", board, ended_by="objective")
    _all_change(client, urls, lambda: services.confirm_result(actor=setup["ref2"], submission=sub))
    assert "130" in standings_totals(client.get(pages["leaderboard"]).content.decode())

    # a correction (a new version of the result, confirmed)
    before = client.get(pages["standings API"]).json()["rows"]
    corrected = f.board_data(setup["objectives"], winner=3, armies=[30, 30, 45, 30])
    _all_change(client, urls, lambda: f.enter(table, setup["ref1"], "board", corrected, ended_by="objective",
                                              confirm_by=setup["ref2"]))
    after = client.get(pages["standings API"]).json()["rows"]
    assert after[0]["player"] == ps[2].pk and after != before

    # a clock started, then paused
    clock_urls = [pages["clock API"], pages["table page"], pages["tables page"]]
    _all_change(client, clock_urls, lambda: clocks.start_clock(table, actor=setup["org"]))
    table.refresh_from_db()
    _all_change(client, clock_urls, lambda: clocks.pause_clock(table, actor=setup["org"], reason="guasto"))
    assert '"paused"' in client.get(pages["clock API"]).content.decode()


def test_a_reseating_and_a_renamed_player_change_the_validator(client: Client, setup: dict[str, Any]) -> None:
    t = setup["t"]
    other = f.make_table(t, 1, f.players(t, 4))
    pages = _pages(t, setup["table"], setup["players"][0])
    a, b = setup["players"][0], other.seats.get(number=1).player
    urls = [pages["tables page"], pages["table page"], pages["player page"], f"{pages['tables page']}?player={b.pk}",
            f"{pages['tables page']}?q={b.last_name}"]
    _all_change(client, urls, lambda: table_services.swap_players(
        setup["table"].game, a.pk, b.pk, actor=setup["org"]))
    assert setup["table"].seats.filter(player=b).exists()

    def rename() -> None:
        b.first_name = "Ribattezzato"
        b.save()
    _all_change(client, urls, rename)
    assert "Ribattezzato" in client.get(pages["tables page"]).content.decode()


def test_a_write_through_the_api_changes_the_validator(setup: dict[str, Any]) -> None:
    """Writes that bypass model signals (QuerySet.update) are caught by the write request."""
    t = setup["t"]
    anonymous, org = Client(), Client()
    org.force_login(setup["org"])
    other = f.make_table(t, 1, f.players(t, 4))
    url = _pages(t, setup["table"], setup["players"][0])["tables page"]
    etag = _etag(anonymous, url)
    r = org.post(f"/api/tournaments/{t.slug}/games/1/swap/",
                 {"player_a": setup["players"][0].pk, "player_b": other.seats.get(number=2).player_id},
                 content_type="application/json")
    assert r.status_code == 200, r.content
    assert _poll(anonymous, url, etag).status_code == 200


def test_every_language_has_its_own_validator_and_page(client: Client, setup: dict[str, Any]) -> None:
    url = _pages(setup["t"], setup["table"], setup["players"][0])["leaderboard"]
    it = client.get(url, headers={"Accept-Language": "it"})
    en = client.get(url, headers={"Accept-Language": "en"})
    assert it["ETag"] != en["ETag"]
    assert "Totale" in it.content.decode() and "Totale" not in en.content.decode()
    assert _poll(client, url, it["ETag"], **{"Accept-Language": "en"}).status_code == 200
    # the switch in the header, a plain GET (works without JavaScript), sets the language
    r = client.get("/language/", {"language": "en", "next": url})
    assert r.status_code == 302 and r["Location"] == url
    page = client.get(url)
    assert page["ETag"] != it["ETag"] and "Totale" not in page.content.decode()
    assert client.get("/language/", {"language": "en", "next": "https://evil.example/"})["Location"] == "/"


def test_public_pages_carry_no_csrf_token_and_are_compressed(client: Client, setup: dict[str, Any]) -> None:
    for name, url in _pages(setup["t"], setup["table"], setup["players"][0]).items():
        plain = client.get(url)
        assert b"csrf" not in plain.content.lower(), name
        assert "csrftoken" not in plain.cookies, name
        r = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
        if len(plain.content) >= 512:
            assert r["Content-Encoding"] == "gzip", name
            assert gzip.decompress(r.content) == plain.content, name
        assert "Accept-Encoding" in r["Vary"]


def test_pages_with_a_csrf_token_are_never_compressed_nor_cached(setup: dict[str, Any]) -> None:
    org = Client()
    org.force_login(setup["org"])
    for url in (f"/t/{setup['t'].slug}/standings/", f"/t/{setup['t'].slug}/manage/"):
        r = org.get(url, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert b"csrfmiddlewaretoken" in r.content or b"X-CSRFToken" in r.content
        assert not r.has_header("Content-Encoding") and not r.has_header("ETag")


def test_no_personal_data_in_a_cached_public_page(setup: dict[str, Any]) -> None:
    t, p = setup["t"], setup["players"][0]
    p.email = "segreto@example.org"
    p.save()
    org = Client()
    org.force_login(setup["org"])
    url = _pages(t, setup["table"], p)["player page"]
    assert setup["org"].username in org.get(url).content.decode()  # the organizer's own header
    anonymous = Client()
    for page in _pages(t, setup["table"], p).values():
        body = anonymous.get(page).content.decode()
        body_again = anonymous.get(page, headers={"Accept-Encoding": "gzip"})
        assert setup["org"].username not in body and "segreto@example.org" not in body
        assert "Log out" not in body and "Esci" not in body
        assert body_again.status_code == 200


def test_a_player_link_session_is_never_served_the_shared_result_page(setup: dict[str, Any]) -> None:
    """The result page offers a linked player the confirm form: never replayed to others."""
    t, table = setup["t"], setup["table"]
    browser = Client()
    session = browser.session
    session["player_links"] = {str(t.pk): setup["players"][0].pk}
    session.save()
    browser.cookies["sessionid"] = session.session_key
    r = browser.get(f"/t/{t.slug}/results/table/{table.pk}/")
    assert r.status_code == 200 and not r.has_header("ETag")


def _version(t: Any) -> int:
    from django.core.cache import cache

    from common import live

    live.versions(t.slug)  # a number to start from
    return int(cache.get(live.tournament_key(t.slug)))


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_is_one_new_version_however_many_rows_it_saves(setup: dict[str, Any]) -> None:
    """Every new version is a render of each page viewed, in every server process: the entry and
    the confirmation save several rows each (result, audit entries, confirmation) but each is one
    transaction, so one new version when it commits; the confirmation's page request adds none."""
    t, table = setup["t"], setup["table"]
    board = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    start = _version(t)
    sub = f.enter(table, setup["ref1"], "board", board, ended_by="objective")
    assert _version(t) == start + 1
    referee = Client()
    referee.force_login(setup["ref2"])
    assert referee.post(f"/t/{t.slug}/results/{sub.pk}/confirm/").status_code == 302
    assert _version(t) == start + 2
    assert "130" in standings_totals(Client().get(f"/t/{t.slug}/standings/").content.decode())


@pytest.mark.django_db(transaction=True)
def test_a_write_is_seen_by_its_own_transaction_at_once_and_by_others_when_it_commits(
        setup: dict[str, Any]) -> None:
    from django.db import transaction

    t, player = setup["t"], setup["players"][0]
    other = f.make_table(t, 1, f.players(t, 4)).seats.get(number=1).player
    url = f"/t/{t.slug}/standings/player/{player.pk}/"
    phone = Client()
    first = _etag(phone, url)
    start = _version(t)

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        table_services.swap_players(setup["table"].game, player.pk, other.pk, actor=setup["org"])
        assert _version(t) == start  # nothing committed: other connections keep the page they have
        assert _poll(phone, url, first).status_code == 200  # this connection sees its own write
        raise Undo
    # rolled back: the page is the one it was, under its old validator
    assert _version(t) == start
    assert _poll(phone, url, first).status_code == 304

    with transaction.atomic():
        table_services.swap_players(setup["table"].game, player.pk, other.pk, actor=setup["org"])
    assert _version(t) == start + 1
    assert _poll(phone, url, first).status_code == 200
