"""N parallel clients (threads, each its own browser session and database connection) doing the
same thing at the same moment on the demo tournament, through the REST API — used by
``test_concurrency.py`` (N = 8) and by ``benchmarks/concurrency.py`` (N = 2, 8, 32).

Each scenario returns its counts and the invariant checks:

- ``results``: N referees enter a result for the SAME table from the same version: exactly one is
  stored, every other gets HTTP 409 (the conflict is reported to the loser); no version twice.
- ``confirm``: N referees confirm that result at once, and one of them taps N times: one
  confirmation per person; one more person taps N times at once: one confirmation, the other
  taps refused (400 "already confirmed"), none lost.
- ``checkin``: N clients check N different players in, and N clients the same player: every
  player is checked in exactly once (no duplicate, no lost check-in).
- ``swap``: N organizer sessions swap seats of a planned game at once: every swap is applied
  (the game row is locked, so they run one after the other), no player lost or seated twice,
  one audit entry per success.

Needs committed rows and real row locks: run on PostgreSQL.
"""

from __future__ import annotations

import collections
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from tests.factories.tournaments import TournamentRoleFactory, make_user


def _run(n: int, work: Callable[[int], Any]) -> tuple[list[Any], float]:
    """Run ``work(i)`` in ``n`` threads released together; returns results and seconds."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def target(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001 - reported as a result
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, time.perf_counter() - started


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _referees(tournament: Any, n: int, tag: str) -> list[Any]:

    users = []
    for i in range(n):
        u = make_user(f"ref-{tag}-{i}", password="x")
        TournamentRoleFactory(tournament=tournament, user=u, role="referee")
        users.append(u)
    return users


def _statuses(results: list[Any]) -> collections.Counter[Any]:
    return collections.Counter(r.status_code if hasattr(r, "status_code") else repr(r)
                               for r in results)


def scenario_results(tournament: Any, n: int) -> dict[str, Any]:
    from scoring.models import ResultSubmission
    from scoring.selectors import table_state
    from tables.models import Table
    from tests.factories.scoring import board_data, expire_clock

    table = Table.objects.filter(game__tournament=tournament, game__number=2).order_by("number")[0]
    expire_clock(table)  # a sdadata ending comes after the time is up (E-SDADATA)
    seats = list(table.seats.order_by("number"))
    version = table_state(table).version
    body = {"kind": "board", "version": version, "ended_by": "sdadata",
            **board_data([s.objective for s in seats])}
    clients = [_client(u) for u in _referees(tournament, n, "res")]
    before = ResultSubmission.objects.filter(table=table).count()
    results, seconds = _run(n, lambda i: clients[i].post(
        f"/api/scoring/tables/{table.pk}/results/", body, content_type="application/json"))
    statuses = _statuses(results)
    stored = ResultSubmission.objects.filter(table=table).count() - before
    numbers = list(ResultSubmission.objects.filter(table=table).values_list("number", flat=True))
    return {
        "scenario": "results", "n": n, "seconds": seconds, "statuses": dict(statuses),
        "ok": statuses[201] == 1 and statuses[409] == n - 1 and stored == 1
        and len(numbers) == len(set(numbers)),
    }


def scenario_confirm(tournament: Any, n: int) -> dict[str, Any]:
    from scoring.models import Confirmation
    from scoring.selectors import table_state
    from tables.models import Table

    table = Table.objects.filter(game__tournament=tournament, game__number=2).order_by("number")[0]
    latest = table_state(table).latest
    if latest is None:
        scenario_results(tournament, 1)
        latest = table_state(table).latest
    assert latest is not None
    people = _referees(tournament, n + 1, "conf")
    tapper, people = people[-1], people[:-1]
    clients = [_client(u) for u in people]
    url = f"/api/scoring/results/{latest.pk}/confirm/"
    results, seconds = _run(n, lambda i: clients[i].post(url))
    same = [_client(tapper) for _ in range(n)]  # one person, n browsers/taps at the same moment
    repeats, _ = _run(n, lambda i: same[i].post(url))
    tapped = Confirmation.objects.filter(submission=latest, user=tapper).count()
    mine = Confirmation.objects.filter(submission=latest, user__in=people)
    per_user = collections.Counter(mine.values_list("user_id", flat=True))
    statuses, repeat_statuses = _statuses(results), _statuses(repeats)
    return {
        "scenario": "confirm", "n": n, "seconds": seconds, "statuses": dict(statuses),
        "repeats": dict(repeat_statuses),
        "ok": statuses[201] == n and len(per_user) == n and max(per_user.values()) == 1
        and tapped == 1 and repeat_statuses[201] == 1 and repeat_statuses[400] == n - 1,
    }


def scenario_checkin(tournament: Any, n: int, game: int = 3) -> dict[str, Any]:
    from tournaments.models import CheckIn, Registration

    regs = list(Registration.objects.active().filter(tournament=tournament)
                .order_by("pk"))
    CheckIn.objects.filter(registration__tournament=tournament, game_number=game).delete()
    clients = [_client(u) for u in _referees(tournament, n, "chk")]
    url = f"/api/tournaments/{tournament.slug}/checkins/"

    def work(i: int) -> Any:
        reg = regs[i % len(regs)]
        return clients[i].post(url, {"registration": reg.pk, "game_number": game,
                                     "present": True}, content_type="application/json")

    results, seconds = _run(n, work)
    # and n clients for ONE player
    same, _ = _run(n, lambda i: clients[i].post(url, {"registration": regs[0].pk,
                                                      "game_number": game, "present": True},
                                                content_type="application/json"))
    rows = collections.Counter(CheckIn.objects.filter(
        registration__tournament=tournament, game_number=game).values_list("registration_id",
                                                                            flat=True))
    expected = {regs[i % len(regs)].pk for i in range(n)} | {regs[0].pk}
    statuses = _statuses(results) + _statuses(same)
    return {
        "scenario": "checkin", "n": n, "seconds": seconds, "statuses": dict(statuses),
        "ok": set(rows) == expected and max(rows.values()) == 1
        and set(statuses) <= {200, 201},
    }


def scenario_swap(tournament: Any, n: int, game: int = 3) -> dict[str, Any]:
    from tables.models import Game, Seat
    from tournaments.models import AuditEntry, CheckIn, Registration

    organizer = get_user_model().objects.get(username="organizzatore")
    g = Game.objects.filter(tournament=tournament, number=game).first()
    if g is None or not g.seats.exists():
        for reg in Registration.objects.active().filter(tournament=tournament):
            CheckIn.objects.get_or_create(registration=reg, game_number=game)
        response = _client(organizer).post(
            f"/api/tournaments/{tournament.slug}/games/{game}/compose/", {"seed": "swap"},
            content_type="application/json")
        assert response.status_code in (200, 201), response.content
        g = Game.objects.get(tournament=tournament, number=game)
    orgs = []
    for i in range(n):
        u = make_user(f"org-swap-{i}", password="x")
        TournamentRoleFactory(tournament=tournament, user=u, role="organizer")
        orgs.append(_client(u))
    seats = list(Seat.objects.filter(game=g).exclude(player=None).select_related("table"))
    seated_before = sorted(s.player_id for s in seats)
    rnd = random.Random(n)
    pairs = []
    for _ in range(n):
        a, b = rnd.sample(seats, 2)
        while a.table_id == b.table_id:
            a, b = rnd.sample(seats, 2)
        pairs.append((a.player_id, b.player_id))
    audited = AuditEntry.objects.filter(action="tables.swap").count()
    url = f"/api/tournaments/{tournament.slug}/games/{game}/swap/"
    results, seconds = _run(n, lambda i: orgs[i].post(
        url, {"player_a": pairs[i][0], "player_b": pairs[i][1]}, content_type="application/json"))
    statuses = _statuses(results)
    after = sorted(Seat.objects.filter(game=g).exclude(player=None).values_list("player_id",
                                                                               flat=True))
    swaps = AuditEntry.objects.filter(action="tables.swap").count() - audited
    refused = sum(v for k, v in statuses.items() if k in (400, 409))
    return {
        "scenario": "swap", "n": n, "seconds": seconds, "statuses": dict(statuses),
        "ok": after == seated_before and swaps == statuses[200]
        and swaps + refused == n and set(statuses) <= {200, 400, 409},
    }


SCENARIOS = [scenario_results, scenario_confirm, scenario_checkin, scenario_swap]
