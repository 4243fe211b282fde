"""A whole year computed by ``national.compute`` equals the same year computed the plain way:
every event's standings read on their own, every VT from the formula written out here, the caps
applied player by player, the rows numbered by total. The year mixes every type, ties, an event
below the minimum of table-games, periodic championships past the 45 rounds of 2025, the yearly
caps, anonymous players, blacklists and an event run on this site among imported ones; so any
change to how the year is read, computed or stored that changes a result fails here."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter, defaultdict
from decimal import ROUND_HALF_DOWN, Context, Decimal
from typing import Any

import pytest
from django.core.cache import cache

from ranking import national
from ranking.models import NationalRankingRow, RankingBlacklist
from scoring import selectors
from tables.models import Game, Table
from tests.factories.scoring import RankingBlacklistFactory
from tests.factories.tournaments import PlayerFactory, RegistrationFactory
from tests.ranking.test_national import event as live_event
from tests.ranking.test_national import people
from tournaments.models import Player, Tournament
from workbook import importer
from workbook.event import (
    Event,
    Registrant,
    RoundEntry,
    SeatEntry,
    StandingEntry,
    TableEntry,
    to_book,
)
from workbook.files import write
from workbook.spec import TYPES

YEAR = 2025
EXACT = Context(prec=34)
# The ranking's class C of each type, and 2025's caps: (minimum, percent of N) or 45 rounds.
CLASS = {"RDN": Decimal(5), "MST": Decimal(4), "OPN": Decimal(2), "ITC": Decimal("1.5")}
CPP_CLASS = [(6, Decimal(1)), (5, Decimal("0.8")), (4, Decimal("0.7")), (3, Decimal("0.5")), (0, Decimal("0.2"))]
CAPS = {"MST": (3, Decimal(30)), "OPN": (3, Decimal("13.5")), "RDN": (1, Decimal("33.3")), "ITC": (1, Decimal("33.3"))}
CPP_ROUNDS = 45


def person(i: int) -> tuple[str, str, dt.date, int | None]:
    return f"Socio{i}", f"Annuario{i}", dt.date(1970, 1, 1) + dt.timedelta(days=97 * i), 500 + i if i % 2 else None


def workbook_event(k: int, kind: str, chosen: list[int], rounds: int, rnd: random.Random, *,
                   tied: bool = False, anonymous: bool = False) -> Event:
    """An event of ``chosen`` people (tables of 4), scores drawn (``tied``: every table scores
    60/50/40/30 and the seats rotate, so many totals are equal and positions are shared)."""
    regs = [Registrant(n + 1, *person(p)[:2], club=f"CLUB {p % 5}", birth_date=person(p)[2],
                       national_id=person(p)[3]) for n, p in enumerate(chosen)]
    if anonymous:
        regs[-1] = Registrant(len(regs), "Anonimo", "Anonimo", club="", birth_date=None)
    totals = {r.id: 0.0 for r in regs}
    played = []
    for n in range(1, rounds + 1):
        ids = [r.id for r in regs]
        if tied:
            ids = ids[n - 1:] + ids[:n - 1]
        else:
            rnd.shuffle(ids)
        tables = []
        for t in range(0, len(ids), 4):
            if tied:
                scores = [60, 50, 40, 30]
            else:
                cuts = sorted(rnd.sample(range(10, 150), 3))
                scores = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 164 - cuts[2]]
            seats = tuple(SeatEntry(s + 1, ids[t + s], float(scores[s])) for s in range(4))
            tables.append(TableEntry(t // 4 + 1, seats))
            for seat in seats:
                totals[seat.id] += seat.score
        played.append(RoundEntry(n, tuple(tables)))
    ranked = sorted(totals, key=lambda i: -totals[i])
    standings = [StandingEntry(1 + sum(1 for o in totals.values() if o > totals[i]), i, totals[i]) for i in ranked]
    first = dt.date(YEAR, 1, 6) + dt.timedelta(days=3 * k)
    return Event(organizer=f"CLUB {k % 7} [{k}]", name=f"Torneo {k}", type_label=TYPES[kind], planned_rounds=rounds,
                 dates=[first] * rounds, venue="Sede", registrants=regs, rounds=played, standings=standings)


def a_year() -> list[Event]:
    rnd = random.Random(15)
    everyone = list(range(60))
    regulars = everyone[:8]  # they play every periodic championship evening: more than 45 rounds
    out = []
    for k in range(40):
        kind = "CPP" if k % 4 == 0 else rnd.choice(["OPN", "OPN", "MST", "ITC", "RDN"])
        if kind == "CPP":
            chosen, rounds = regulars + rnd.sample(everyone[8:], 4), 5
        else:
            chosen, rounds = rnd.sample(everyone, 4 * rnd.randint(2, 5)), rnd.randint(3, 5)
        out.append(workbook_event(k, kind, chosen, rounds, rnd, tied=k % 9 == 4, anonymous=k % 11 == 5))
    out.append(workbook_event(40, "OPN", everyone[:4], 3, rnd))  # 3 table-games: below the minimum
    return out


# ------------------------------------------------------------------ the plain computation
def shown(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_DOWN)


def vt(position: int, table_games: int, kind: str, rounds: int) -> Decimal:
    klass = next(c for n, c in CPP_CLASS if rounds >= n) if kind == "CPP" else CLASS[kind]
    base = (100 + table_games) * klass
    if position == 1:
        return base * Decimal("1.2")
    return EXACT.multiply(base, (Decimal(-position) / 20).exp(EXACT))


def loses(blacklist: list[Any], start: dt.date, end: dt.date) -> bool:
    """Began before a period: lost when it ends on or after its first day; began within it:
    lost when it also ends by its last day."""
    return any(end >= b.starts_on if start < b.starts_on else (b.ends_on is None or end <= b.ends_on)
               for b in blacklist)


def reference(year: int) -> list[tuple[int, int | None, Decimal, list[dict[str, Any]]]]:
    events = []
    for t in Tournament.objects.filter(status=Tournament.Status.FINISHED).exclude(event_type__in=["", "AMC"]):
        start, end = national.event_dates(t)
        if end.year != year:
            continue
        table_games = Table.objects.filter(game__tournament=t, game__rehearsal=False,
                                           seats__isnull=False).distinct().count()
        rounds = t.games_count - Game.objects.filter(tournament=t, rehearsal=True).count()
        rows = [r for r in selectors.standings(t)["rows"] if r["played"]]
        rows = [r for r in rows if not national.is_anonymous(Player.objects.get(pk=r["player"]))]
        events.append({"t": t, "kind": t.event_type, "T": table_games, "rounds": rounds, "start": start, "end": end,
                       "rows": [(r["player"], int(r["rank"])) for r in rows]})
    valid: dict[str, int] = defaultdict(int)
    for e in events:
        if e["T"] >= 6 and e["rows"]:
            valid[e["kind"]] += 1
    lines: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        for player, position in e["rows"]:
            reason = "counted"
            if e["T"] < 6:
                reason = "below_minimum"
            elif loses(list(RankingBlacklist.objects.filter(player_id=player)), e["start"], e["end"]):
                reason = "blacklisted"
            lines[player].append({"e": e, "position": position, "vt": vt(position, e["T"], e["kind"], e["rounds"]),
                                  "reason": reason})
    totals = {}
    for player, mine in lines.items():
        for kind in {ln["e"]["kind"] for ln in mine}:
            candidates = sorted((ln for ln in mine if ln["e"]["kind"] == kind and ln["reason"] == "counted"),
                                key=lambda ln: (-ln["vt"], ln["e"]["end"], str(ln["e"]["t"].pk)))
            if kind == "CPP":
                rounds = 0
                for ln in candidates:
                    if rounds >= CPP_ROUNDS:
                        ln["reason"] = "beyond_rounds"
                    rounds += ln["e"]["rounds"]
            else:
                least, percent = CAPS[kind]
                cap = max(least, int(valid[kind] * percent / 100))
                for ln in candidates[cap:]:
                    ln["reason"] = "beyond_cap"
        totals[player] = sum((ln["vt"] for ln in mine if ln["reason"] == "counted"), Decimal(0))
    order = sorted(events, key=lambda e: (e["end"], e["start"], str(e["t"].pk)))
    first_seen: dict[int, int] = {}
    for e in order:
        for player, _position in sorted(e["rows"], key=lambda r: r[1]):
            first_seen.setdefault(player, len(first_seen))
    ranked = sorted((p for p in totals if totals[p] > 0), key=lambda p: (-totals[p], first_seen[p], p))
    positions = {p: n for n, p in enumerate(ranked, start=1)}
    out = []
    for player in sorted(totals, key=lambda p: (positions.get(p, len(ranked) + 1), p)):
        card = sorted(lines[player], key=lambda ln: (ln["e"]["end"], ln["e"]["start"], str(ln["e"]["t"].pk)))
        out.append((player, positions.get(player), shown(totals[player]), [
            {"tournament": ln["e"]["t"].pk, "position": ln["position"], "vt": str(shown(ln["vt"])),
             "reason": ln["reason"]} for ln in card]))
    return out


def computed(year: int) -> list[tuple[int, int | None, Decimal, list[dict[str, Any]]]]:
    rows = NationalRankingRow.objects.filter(ranking__year=year)
    return sorted(((r.player_id, r.position, r.points, r.events) for r in rows),
                  key=lambda r: (r[1] if r[1] is not None else len(rows) + 1, r[0]))


@pytest.mark.django_db
def test_a_generated_year_computes_as_the_plain_reference_does() -> None:
    for n, ev in enumerate(a_year()):
        report = importer.import_workbook(write(to_book(ev)), f"{n}.xls")
        assert report.status == "imported", report.issues
    on_site, *_ = live_event(people(8, "Sul sito"), day=dt.date(YEAR, 6, 14))  # standings computed here
    RegistrationFactory(tournament=on_site, player=PlayerFactory())  # registered, never played: not ranked
    regular = Player.objects.get(first_name="Socio0")
    RankingBlacklistFactory(player=regular, starts_on=dt.date(YEAR, 2, 1), ends_on=dt.date(YEAR, 3, 31),
                            reason="Comportamento antisportivo")
    RankingBlacklistFactory(player=Player.objects.get(first_name="Socio9"), starts_on=dt.date(YEAR, 4, 1),
                            reason="Squalifica")

    cache.clear()  # every standings read afresh, as the worker does after a restart
    national.compute(YEAR)
    expected = reference(YEAR)
    assert computed(YEAR) == expected
    national.compute(YEAR)  # with the standings now cached: the same year
    assert computed(YEAR) == expected

    # the year exercises what it should: every reason, shared positions, anonymous left out
    reasons = {e["reason"] for _p, _pos, _pts, events in expected for e in events}
    assert reasons == {"counted", "below_minimum", "beyond_cap", "beyond_rounds", "blacklisted"}
    places = Counter((e["tournament"], e["position"]) for *_, events in expected for e in events)
    assert max(places.values()) > 1
    anonymous = Player.objects.filter(first_name="Anonimo")
    assert anonymous.exists() and not NationalRankingRow.objects.filter(player__in=anonymous).exists()
