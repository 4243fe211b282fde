"""Publishing between two running instances: this test process is the hall laptop (SQLite by
default) and a real gunicorn on PostgreSQL is the clubs' shared instance. Skips without
PostgreSQL (a failure under CI=true, see conftest.py).

The instance gets a database of its own, made afresh for this module on the PostgreSQL server of
``DATABASE_URL`` (else 127.0.0.1:5432, user postgres) and dropped at the end."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from engine import exact
from scoring import selectors as scoring
from tests.gunicorn import ROOT, Gunicorn, server_env
from tournaments import publishing

from .helpers import add_second_game, laptop_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


INSTANCE_DB = "risiko_publish_instance_test"


def _server_url() -> str:
    """The PostgreSQL server's URL with no database name (``DATABASE_URL``'s server, or local)."""
    url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    if not url.startswith(("postgres://", "postgresql://")):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    return url.rsplit("/", 1)[0]


def instance_db_url() -> str:
    return f"{_server_url()}/{INSTANCE_DB}"


def _admin(sql: str) -> None:
    import psycopg

    url = f"{_server_url()}/postgres".replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        conn.execute(sql)


def manage(*args: str) -> str:
    # the system checks are the test suite's business, not this instance's
    checks = [] if args[0] == "shell" else ["--skip-checks"]
    done = subprocess.run([sys.executable, "manage.py", *args, *checks], cwd=ROOT, env=server_env(instance_db_url()),
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


class Instance(Gunicorn):
    def __init__(self) -> None:
        super().__init__(instance_db_url())

    def page(self, path: str) -> str:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=30) as r:
            return r.read().decode()  # type: ignore[no-any-return]

    def get(self, slug: str) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/api/publish/tournaments/{slug}/", timeout=30) as r:
            return exact.loads(r.read().decode())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def instance() -> Any:
    try:
        _admin(f'DROP DATABASE IF EXISTS "{INSTANCE_DB}" WITH (FORCE)')
        _admin(f'CREATE DATABASE "{INSTANCE_DB}"')
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"PostgreSQL not reachable for the shared instance: {exc}")
    manage("migrate", "--noinput")
    server = Instance()
    server.start()
    yield server
    server.stop()
    _admin(f'DROP DATABASE IF EXISTS "{INSTANCE_DB}" WITH (FORCE)')


def publish(instance: Instance, slug: str, token: str, *extra: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("publish_tournament", slug, "--to", instance.url, "--token", token,
                 "--backoff", "0.3", *extra, stdout=out, stderr=StringIO())
    return out.getvalue()


def refused(instance: Instance, slug: str, token: str) -> str:
    with pytest.raises(CommandError) as err:
        publish(instance, slug, token, "--attempts", "1")
    assert err.value.returncode == 2
    return str(err.value)


def plain(value: Any) -> Any:
    return json.loads(exact.dumps(value))


def laptop_standings(t: Any) -> Any:
    return plain({k: v for k, v in scoring._standings(t).items() if k != "stamp"})


ROW = re.compile(r'<tr id="player-\d+"[^>]*>\s*<td class="num">([^<]*)</td>\s*<td><a [^>]*>([^<]*)</a>'
                 r'(?: <span class="muted">([^<]*)</span>)?.*?<td class="num total"><strong>([^<]*)</strong>', re.S)


def standings_page(html: str) -> list[tuple[str, ...]]:
    """(position, name, club, total) of every row of a public standings page, as shown."""
    return [tuple(x.strip() for x in row) for row in ROW.findall(html)]


def laptop_page(t: Any) -> list[tuple[str, ...]]:
    return standings_page(Client().get(f"/t/{t.slug}/standings/").content.decode())


def count_copies(source_id: str) -> int:
    return int(manage("shell", "-c", "from tournaments.models import PublishedTournament as P; "
                      f"print(P.objects.filter(source_id='{source_id}').count())").split()[-1])


@pytest.fixture
def event(instance: Instance) -> dict[str, Any]:
    run = uuid.uuid4().hex[:8]
    e = laptop_event(f"Club {run}", slug=f"gara-{run}")
    e["token"] = manage("club_token", e["club"].name).strip()
    yield e
    manage("shell", "-c", "from tournaments.models import PublishedTournament as P, Club, Player; "
           f"P.objects.filter(slug='{e['t'].slug}').delete(); Player.objects.filter(club__name='{e['club'].name}').delete(); "
           f"Club.objects.filter(name='{e['club'].name}').delete()")


def test_publish_twice_then_an_update_gives_one_copy_with_the_laptops_standings(
        instance: Instance, event: dict[str, Any]) -> None:
    t = event["t"]
    assert "created" in publish(instance, t.slug, event["token"])
    assert "unchanged" in publish(instance, t.slug, event["token"])
    add_second_game(event)
    assert "updated" in publish(instance, t.slug, event["token"])
    source_id = str(t.publish_state.source_id)
    assert count_copies(source_id) == 1
    shown = instance.get(t.slug)
    assert plain(shown["content"]["standings"]) == laptop_standings(t)
    assert [g["number"] for g in shown["content"]["games"]] == [1, 2]
    # the copy is a real tournament there: its public standings page shows the laptop's standings
    page = standings_page(instance.page(f"/t/{t.slug}/standings/"))
    assert page and page == laptop_page(t)
    assert len(page) == len(event["players"])


def test_a_publish_cut_mid_way_leaves_nothing_half_done_and_running_again_completes_it(
        instance: Instance, event: dict[str, Any]) -> None:
    t = event["t"]
    publish(instance, t.slug, event["token"])
    add_second_game(event)
    body = exact.dumps(publishing.prepare(t)).encode()
    with socket.create_connection(("127.0.0.1", instance.port)) as s:  # the laptop dies mid-send
        s.sendall((f"PUT /api/publish/tournaments/{t.slug}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Authorization: Bearer {event['token']}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n").encode() + body[: len(body) // 2])
    time.sleep(0.5)
    assert len(instance.get(t.slug)["content"]["games"]) == 1  # the previous copy, whole
    assert "updated" in publish(instance, t.slug, event["token"])
    shown = instance.get(t.slug)
    assert len(shown["content"]["games"]) == 2
    assert plain(shown["content"]["standings"]) == laptop_standings(t)
    assert count_copies(str(t.publish_state.source_id)) == 1


def test_the_network_coming_back_is_waited_for_with_bounded_retries(
        instance: Instance, event: dict[str, Any]) -> None:
    t = event["t"]
    instance.stop()
    restart = threading.Timer(1.0, instance.start)
    restart.start()
    try:
        assert "created" in publish(instance, t.slug, event["token"], "--attempts", "10")
    finally:
        restart.join()
    assert plain(instance.get(t.slug)["content"]["standings"]) == laptop_standings(t)


def test_refusals_wrong_revoked_other_club_and_edited_here(instance: Instance, event: dict[str, Any]) -> None:
    t = event["t"]
    assert "HTTP 401" in refused(instance, t.slug, event["token"][:-2] + "xx")
    other = manage("club_token", f"{event['club'].name} B").strip()
    assert "HTTP 403" in refused(instance, t.slug, other)
    publish(instance, t.slug, event["token"])
    manage("shell", "-c", "from tournaments.models import PublishedTournament as P; "
           f"p = P.objects.get(slug='{t.slug}'); p.payload['tournament']['name'] = 'Edited'; p.save()")
    add_second_game(event)
    message = refused(instance, t.slug, event["token"])
    assert "HTTP 409" in message and "PUBLISH-CONFLICT" in message
    # the tournament made of the copy edited on the instance: refused as well
    manage("shell", "-c", "from tournaments.models import PublishedTournament as P; "
           f"from django.db.models import F; P.objects.filter(slug='{t.slug}').update(digest=F('published_digest')); "
           f"p = P.objects.get(slug='{t.slug}'); p.tournament.name = 'Renamed here'; p.tournament.save()")
    message = refused(instance, t.slug, event["token"])
    assert "HTTP 409" in message and "PUBLISH-CONFLICT" in message
    manage("club_token", event["club"].name, "--revoke")
    assert "HTTP 401" in refused(instance, t.slug, event["token"])
    manage("shell", "-c", f"from tournaments.models import Club; Club.objects.filter(name='{event['club'].name} B').delete()")
