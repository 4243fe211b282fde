"""QR codes as images (page weight): the endpoint ``/qr.svg?path=`` (this site's table pages
only, cacheable for good), the pages that reference it with lazy images, and the public tables
page after its per-table work was taken out of the loop (same seats, clubs, colours and clocks,
a fixed number of queries)."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import services
from tables.models import Table
from tests.tables.conftest import add_players


def started(tournament, organizer):  # type: ignore[no-untyped-def]
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="qr", effort=0.3)
    return services.start_game(game, actor=organizer, seed="deal")


def qr(client, path: str, **extra):  # type: ignore[no-untyped-def]
    return client.get("/qr.svg", {"path": path}, **extra)


class Tags(HTMLParser):
    """Every start tag of a page, as (tag, attributes)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def all(self, tag: str, **having: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and all(k in a for k in having)]


def svg_path(svg: str) -> str:
    found = re.search(r' d="([^"]+)"', svg)
    assert found, svg[:200]
    return found.group(1)


# ------------------------------------------------------------------------------ the endpoint


@pytest.mark.django_db
def test_qr_image_of_a_table_is_an_svg_cached_for_good_and_the_same_code_as_the_printed_sheet(
    client, tournament, organizer
):
    add_players(tournament, 8)
    started(tournament, organizer)
    page = f"/t/{tournament.slug}/games/1/tables/1/"
    r = qr(client, page)
    assert r.status_code == 200
    assert r["Content-Type"] == "image/svg+xml"
    body = r.content.decode()
    assert body.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in body
    assert "<script" not in body
    cache = r["Cache-Control"]
    assert "immutable" in cache and "public" in cache
    assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= 365 * 24 * 3600
    # the printed sheet keeps its code inline: the image encodes the very same URL
    sheet = client.get(page + "sheet/").content.decode()
    assert svg_path(body) == svg_path(sheet[sheet.index('<figure class="sheet__qr">'):])
    # another page, another code; HEAD answers too (caches and link checkers use it)
    assert svg_path(qr(client, f"/t/{tournament.slug}/games/1/tables/2/").content.decode()) != (
        svg_path(body))
    assert client.head("/qr.svg", {"path": page}).status_code == 200


@pytest.mark.django_db
def test_qr_image_encodes_the_host_the_phone_used(client, tournament, organizer):
    add_players(tournament, 8)
    started(tournament, organizer)
    page = f"/t/{tournament.slug}/games/1/tables/1/"
    one = qr(client, page, HTTP_HOST="localhost").content
    other = qr(client, page, HTTP_HOST="127.0.0.1").content
    assert one != other  # the code is of the absolute URL, on the host the page came from


@pytest.mark.parametrize("path", [
    "/t/demo/games/1/tables/",
    "/t/demo/games/2/tables/7/",
    "/t/demo/games/1/where/?player=12",
])
def test_qr_image_of_the_pages_a_code_points_at(client, path):
    r = qr(client, path)
    assert r.status_code == 200 and r["Content-Type"] == "image/svg+xml"


@pytest.mark.parametrize("path", [
    "",
    "http://evil.example/",
    "https://evil.example/t/demo/games/1/tables/",
    "//evil.example/t/demo/games/1/tables/",
    "/\\evil.example/t/demo/games/1/tables/",
    "evil.example/t/demo/games/1/tables/",
    "javascript:alert(1)",
    "/admin/",
    "/accounts/login/",
    "/api/tournaments/",
    "/t/demo/games/1/tables/1/sheet/",  # a page, but not one a code points at
    "/t/demo/games/1/where/?q=Rossi",
    "/t/demo/games/1/where/?player=12&next=http://evil.example/",
    "/t/demo/games/1/tables/#x",
    "/t/demo/games/1/tables/\x00",
    "/t/demo/games/1/tables/\n",
    "/t/demo/games/1/tables/" + "1/" * 200,
    "/t/dèmo/games/1/tables/",
    "/no/such/page/",
])
def test_qr_image_refuses_every_other_url_with_a_404_never_a_redirect(client, path):
    r = qr(client, path)
    assert r.status_code == 404
    assert "Location" not in r
    assert b"evil.example" not in r.content


def test_qr_image_needs_the_path_parameter_and_only_reads(client):
    assert client.get("/qr.svg").status_code == 404
    assert client.post("/qr.svg?path=" + quote("/t/demo/games/1/tables/")).status_code == 405


# ------------------------------------------------------------------------------ the pages


@pytest.mark.django_db
def test_tables_and_table_pages_show_qr_codes_as_lazy_images_every_one_loading(
    client, tournament, organizer
):
    add_players(tournament, 9)
    game = started(tournament, organizer)
    html = client.get(f"/t/{tournament.slug}/games/1/tables/").content.decode()
    assert "<svg" not in html
    images = Tags(html).all("img")
    tables = list(Table.objects.filter(game=game).order_by("number"))
    assert len(images) == len(tables)
    for img, table in zip(images, tables, strict=True):
        assert img["loading"] == "lazy" and img["alt"]
        assert img["src"] == "/qr.svg?path=" + f"/t/{tournament.slug}/games/1/tables/{table.number}/"
        r = client.get(img["src"])
        assert r.status_code == 200 and r["Content-Type"] == "image/svg+xml"
    # the table page: its own code and one per seated player (their "where do I sit" link)
    page = client.get(f"/t/{tournament.slug}/games/1/tables/1/")
    assert "<svg" not in page.content.decode()
    images = Tags(page.content.decode()).all("img")
    seated = tables[0].seats.exclude(player=None).count()
    assert len(images) == seated + 1
    for img in images:
        assert img["loading"] == "lazy" and img["alt"] and img["src"].startswith("/qr.svg?path=")
        assert client.get(img["src"]).status_code == 200
    # images come from this server, which the page's content security policy allows
    assert "img-src 'self'" in page["Content-Security-Policy"]


@pytest.mark.django_db
def test_tables_page_lists_each_table_as_the_table_page_does(client, tournament, organizer):
    add_players(tournament, 9, clubs=3)
    game = started(tournament, organizer)
    html = client.get(f"/t/{tournament.slug}/games/1/tables/", HTTP_ACCEPT_LANGUAGE="en")
    cards = html.content.decode().split('<section class="table-card"')[1:]
    tables = list(Table.objects.filter(game=game).order_by("number"))
    assert len(cards) == len(tables)
    for card, table in zip(cards, tables, strict=True):
        assert f'id="table-{table.number}"' in card
        assert f'<a href="/t/{tournament.slug}/games/1/tables/{table.number}/">Table {table.number}</a>' in card
        assert f'href="/t/{tournament.slug}/games/1/tables/{table.number}/sheet/"' in card
        items = re.findall(r"<li>(.*?)</li>", card, re.S)
        seats = list(table.seats.order_by("number").select_related("player__club"))
        assert len(items) == len(seats)
        for item, seat in zip(items, seats, strict=True):  # turn order (T-ORDER)
            assert seat.player.display_name in item
            assert f"({seat.player.club.name})" in item
            assert seat.colour and f'title="{seat.get_colour_display()}"' in item


@pytest.mark.django_db
def test_tables_page_shows_a_ghost_seat_and_a_player_without_club(client, tournament, organizer):
    add_players(tournament, 8)
    game = started(tournament, organizer)
    seat = game.seats.order_by("table__number", "number").first()
    seat.player = None
    seat.save()
    html = client.get(f"/t/{tournament.slug}/games/1/tables/", HTTP_ACCEPT_LANGUAGE="en")
    first = html.content.decode().split('<section class="table-card"')[1]
    assert "<li><span" in first and "<em>ghost seat</em>" in first and "<small>" not in first


def clock_of(html: str, table_pk: int) -> dict[str, str | None]:
    (attrs,) = [a for a in Tags(html).all("span", **{"data-clock": ""})
                if a["data-table"] == str(table_pk)]
    return {k: v for k, v in attrs.items() if k != "data-server-now"}


def clock_text(html: str, table_pk: int) -> tuple[str, ...]:
    start = html.index(f'data-table="{table_pk}"')
    found = re.compile(r'data-clock-text[^>]*>([^<]*)</(?:span|time)>'
                       r'(?:\s*<span class="clock__paused">([^<]*)</span>)?').search(html, start)
    assert found, html[start:start + 600]
    return found.groups("")


@pytest.mark.django_db
def test_tables_page_clocks_are_those_of_the_table_page_in_every_state(
    client, tournament, organizer
):
    add_players(tournament, 16)
    game = started(tournament, organizer)
    t1, t2, t3, t4 = Table.objects.filter(game=game).order_by("number")
    now = timezone.now()
    Table.objects.filter(pk=t1.pk).update(deadline=None, clock_started_at=None)  # not started
    Table.objects.filter(pk=t3.pk).update(paused_at=now - dt.timedelta(minutes=3))
    Table.objects.filter(pk=t4.pk).update(deadline=now - dt.timedelta(minutes=1),
                                          expired_marked_at=now)
    html = client.get(f"/t/{tournament.slug}/games/1/tables/", HTTP_ACCEPT_LANGUAGE="en")
    html = html.content.decode()
    assert html.count("js/clock.js") == 1  # the script once, not once per table
    states = []
    for table in (t1, t2, t3, t4):
        page = client.get(f"/t/{tournament.slug}/games/1/tables/{table.number}/",
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert clock_of(html, table.pk) == clock_of(page, table.pk)
        assert clock_text(html, table.pk) == clock_text(page, table.pk)
        states.append(clock_of(html, table.pk)["data-state"])
    assert states == ["not_started", "running", "paused", "expired"]
    server_now = set(re.findall(r'data-server-now="([\d.]+)"', html))
    assert len(server_now) == 1 and abs(float(server_now.pop()) - now.timestamp()) < 60


@pytest.mark.django_db
def test_tables_page_runs_the_same_queries_for_2_or_6_tables(client, tournament, organizer):
    add_players(tournament, 8)
    started(tournament, organizer)
    from tests.tables.conftest import make_tournament

    big = make_tournament(organizer)
    add_players(big, 24, clubs=5)
    started(big, organizer)
    counts = []
    for t in (tournament, big):
        client.get(f"/t/{t.slug}/games/1/tables/")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/t/{t.slug}/games/1/tables/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6  # no query per table or per seat


@pytest.mark.django_db
def test_tables_page_shows_every_change_at_once_and_a_fresh_server_time(
    client, tournament, organizer
):
    import time

    players = add_players(tournament, 8, clubs=2)
    game = started(tournament, organizer)
    url = f"/t/{tournament.slug}/games/1/tables/"

    def page(lang: str = "en") -> str:
        return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    first = page()
    assert "Table 1</a>" in first and "Tavolo 1</a>" in page("it")  # each language its own
    time.sleep(0.01)
    # An unchanged page may be replayed (common/live.py) with the time it was made at: the clocks
    # ask the server's time from /time (static/js/clock.js), which is never stored.
    now = [client.get("/time").json()["now"] for _ in range(2)]
    assert now[1] > now[0] and float(re.findall(r'data-server-now="([\d.]+)"', first)[0]) <= now[0]
    # a renamed player, a club renamed, a paused clock: all on the very next request
    me = players[0]
    me.first_name = "Rinominato"
    me.save()
    me.club.name = "Club Nuovo"
    me.club.save()
    table = Table.objects.filter(game=game).order_by("number").first()
    from tables import clocks

    if table.deadline is None:
        clocks.start_clock(table, actor=organizer)
        table.refresh_from_db()
    clocks.pause_clock(table, actor=organizer, reason="guasto")
    html = page()
    assert "Rinominato" in html and "Club Nuovo" in html
    assert clock_of(html, table.pk)["data-state"] == "paused"
    # an erased player is gone from the page (the cache never outlives the data it shows)
    from tournaments import privacy

    seat = game.seats.get(player=me)
    privacy.erase_player(me, actor=organizer)
    html = page()
    assert "Rinominato" not in html and html.count('class="table-card"') == 2
    assert seat.table.seats.count() == 4
