"""A small made-up season for the statistics' hand counts (tests/clubstats/test_figures.py).

Two clubs, six players, three finished events, one running and one draft:

- Alfa: P1, P2, P3; Beta: P4, P5; P6 in no club.
- E1 (Alfa, 1 March 2025), results entered as short forms (not recorded games):
  game 1, 4 players: seat 1 P1 1st, seat 2 P2 2nd, seat 3 P3 3rd, seat 4 P4 4th;
  game 2, 3 players: seat 1 P2 2nd, seat 2 P1 3rd, seat 3 P4 1st.
- E2 (Alfa, 1 February 2026), final boards entered at the table (recorded games):
  game 1, 4 players, ended by objective: seat 1 P1 (RTU-01) 2nd, seat 2 P5 (RTU-02) 1st,
  seat 3 P6 (RTU-03) 3rd, seat 4 P3 (RTU-04) 4th;
  game 2, 3 players, ended by sdadata after three rolls (3+4, 6+5, 1+2) on the referee's page:
  seat 1 P3 (RTU-02) 1st, seat 2 P1 (RTU-01) 2nd, seat 3 P5 (RTU-05) 3rd;
  game 3 a rehearsal (P2 wins: left out); game 4 a table whose result nobody confirmed (left out).
- E3 (Beta, 1 May 2026, a friendly evening "AMC"): 3 players, short form, a shared first place:
  seat 1 P4 1st, seat 2 P5 1st, seat 3 P1 3rd.
- E4 (Alfa, 1 June 2026) still running and E5 a draft: neither counts.

Tournament points: 1st 10, 2nd 6, 3rd 3, 4th 1; the shared first place 8 each (P4's extra
points 5 against P5's 2 put P4 first in E3's standings). So the standings are:
E1: P1 13 (10+3), P2 12 (6+6), P4 11 (1+10), P3 3;  E2: P5 13 (10+3), P1 12 (6+6), P3 11 (1+10),
P6 3;  E3: P4 8, P5 8, P1 3.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.models import Confirmation, ResultSubmission
from tables.models import Game, Seat, Table, TurnEvent
from tests.factories.scoring import UserFactory
from tournaments.models import Club, Player, Registration, Tournament

POINTS = {1: 10, 2: 6, 3: 3, 4: 1}


@dataclass
class Season:
    alfa: Club
    beta: Club
    p: dict[int, Player]
    events: dict[int, Tournament]


def _table(event: Tournament, game: int, seated: Sequence[tuple[Player, int, str]], *, kind: str = "short",
           ended_by: str = "sdadata", confirm: bool = True, rehearsal: bool = False, number: int = 1,
           extra: dict[int, int] | None = None) -> Table:
    """A table of ``event``'s game ``game``: (player, place, objective card) by seat, its result."""
    g, _ = Game.objects.get_or_create(tournament=event, number=game, defaults={"rehearsal": rehearsal})
    table = Table.objects.create(game=g, number=number)
    shared = [place for _p, place, _c in seated].count(1) > 1
    for seat, (player, _place, card) in enumerate(seated, start=1):
        Seat.objects.create(table=table, game=g, number=seat, player=player, objective=card)
    scores = [{"seat": seat, "player": player.pk, "place": place, "game_score": 0,
               "extra_objective": (extra or {}).get(seat, 0), "armies": 0, "tiebreak": None, "eliminated": None,
               "tournament_points": 8 if shared and place == 1 else POINTS[place]}
              for seat, (player, place, _card) in enumerate(seated, start=1)]
    data = {"players": [{"seat": seat, "objective": card} for seat, (_p, _pl, card) in enumerate(seated, start=1)]}
    sub = ResultSubmission.objects.create(table=table, tournament=event, number=1, kind=kind, ended_by=ended_by,
                                          data=data, scores=scores)
    if confirm:
        Confirmation.objects.create(submission=sub, user=UserFactory(), by_organizer=True)
    return table


def _event(name: str, club: Club, day: dt.date, players: Sequence[Player], status: str = "finished",
           event_type: str = "") -> Tournament:
    event = Tournament.objects.create(name=name, slug=name.lower().replace(" ", "-"), date=day, club=club,
                                      status=status, event_type=event_type, format="italiana")
    for p in players:
        Registration.objects.create(tournament=event, player=p)
    return event


def build() -> Season:
    alfa = Club.objects.create(name="Circolo Alfa", city="Torino")
    beta = Club.objects.create(name="Circolo Beta", city="Milano")
    clubs = {1: alfa, 2: alfa, 3: alfa, 4: beta, 5: beta, 6: None}
    p = {n: Player.objects.create(first_name=f"Giocatore{n}", last_name=f"Cognome{n}", club=clubs[n]) for n in range(1, 7)}
    e1 = _event("Torneo Uno", alfa, dt.date(2025, 3, 1), [p[1], p[2], p[3], p[4]])
    _table(e1, 1, [(p[1], 1, ""), (p[2], 2, ""), (p[3], 3, ""), (p[4], 4, "")])
    _table(e1, 2, [(p[2], 2, ""), (p[1], 3, ""), (p[4], 1, "")])
    e2 = _event("Torneo Due", alfa, dt.date(2026, 2, 1), [p[1], p[5], p[6], p[3], p[2]])
    _table(e2, 1, [(p[1], 2, "RTU-01"), (p[5], 1, "RTU-02"), (p[6], 3, "RTU-03"), (p[3], 4, "RTU-04")],
           kind="board", ended_by="objective")
    t = _table(e2, 2, [(p[3], 1, "RTU-02"), (p[1], 2, "RTU-01"), (p[5], 3, "RTU-05")], kind="board")
    for index, (kind, seat, dice) in enumerate([("time_expired", None, []), ("sdadata", 1, [3, 4]),
                                                ("end_turn", 2, []), ("sdadata", 2, [6, 5]), ("sdadata", 3, [1, 2])]):
        TurnEvent.objects.create(table=t, index=index, kind=kind, seat=seat, dice=dice)
    _table(e2, 3, [(p[2], 1, "RTU-06"), (p[1], 2, "RTU-07"), (p[3], 3, "RTU-08")], kind="board", rehearsal=True)
    _table(e2, 4, [(p[2], 1, "RTU-06"), (p[6], 2, "RTU-07"), (p[3], 3, "RTU-08")], kind="board", confirm=False)
    e3 = _event("Amichevole Tre", beta, dt.date(2026, 5, 1), [p[4], p[5], p[1]], event_type="AMC")
    _table(e3, 1, [(p[4], 1, ""), (p[5], 1, ""), (p[1], 3, "")], kind="short", extra={1: 5, 2: 2})
    e4 = _event("Torneo Quattro", alfa, dt.date(2026, 6, 1), [p[1], p[2], p[3]], status="running")
    _table(e4, 1, [(p[2], 1, ""), (p[1], 2, ""), (p[3], 3, "")])
    e5 = _event("Bozza Cinque", alfa, dt.date(2026, 7, 1), [p[1], p[2]], status="draft")
    return Season(alfa, beta, p, {1: e1, 2: e2, 3: e3, 4: e4, 5: e5})
