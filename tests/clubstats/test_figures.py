"""Every statistic against a hand count on the small made-up season of tests/clubstats/season.py
(read its docstring first: who sat where, who finished where, each event's standings)."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from clubstats import figures, selectors, services
from clubstats.models import ALL_YEARS, Sheet
from tests.clubstats import season as made_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> made_up.Season:
    s = made_up.build()
    services.recompute()
    return s


def sheet(kind: str, *, year: int = ALL_YEARS, club: object = None, player: object = None) -> dict:
    return Sheet.objects.get(kind=kind, year=year, club=club, player=player).data


def seats(rows: list[dict]) -> dict[int, tuple[int, int]]:
    """{seat: (wins, tables)}."""
    return {r["seat"]: (r["n"], r["of"]) for r in rows}


# ------------------------------------------------------------------ Wilson's interval, by hand

def test_the_wilson_interval_by_hand() -> None:
    # 1 win in 2 games, z = 1.95996: z² = 3.84146; denominator 1 + 3.84146/2 = 2.92073;
    # centre (0.5 + 3.84146/4) / 2.92073 = 0.5; half 1.95996 × √(0.25/2 + 3.84146/16) / 2.92073
    # = 1.95996 × 0.60423 / 2.92073 = 0.40547 → 0.0945 to 0.9055
    low, high = figures.wilson(1, 2)
    assert (round(low, 4), round(high, 4)) == (0.0945, 0.9055)
    # 0 in 1: centre (0 + 3.84146/2) / 4.84146 = 0.39673, half the same → 0 to 0.7935
    assert tuple(round(x, 4) for x in figures.wilson(0, 1)) == (0.0, 0.7935)
    # no trials: no interval
    assert figures.wilson(0, 0) == (0.0, 0.0)


@given(hs.integers(0, 500), hs.integers(1, 500))
def test_the_interval_holds_the_rate_and_stays_within_0_and_1(wins: int, games: int) -> None:
    wins = min(wins, games)
    low, high = figures.wilson(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    assert not math.isnan(low) and not math.isnan(high)


# ------------------------------------------------------------------ a club's year

def test_a_club_year_by_hand(season: made_up.Season) -> None:
    # Alfa 2025: E1 only; players P1 P2 P3 P4 (4, all new); 2 tables of 4 and 3 players: 7/2 = 3.5.
    # Seat 1: P1 won game 1, P2 2nd in game 2 → 1 of 2; seat 2: P2 2nd, P1 3rd → 0 of 2;
    # seat 3: P3 3rd, P4 won → 1 of 2; seat 4: P4 4th → 0 of 1.
    y2025 = sheet("club", year=2025, club=season.alfa)
    assert {k: y2025[k] for k in ("events", "players", "games", "new_players", "average_table")} == {
        "events": 1, "players": 4, "games": 2, "new_players": 4, "average_table": 3.5}
    assert seats(y2025["wins_by_seat"]) == {1: (1, 2), 2: (0, 2), 3: (1, 2), 4: (0, 1)}
    # Alfa 2026: E2 only (E4 is running, E5 a draft); its rehearsal and its unconfirmed table are
    # left out: 2 tables; players P1 P5 P6 P3 (4), new at Alfa: P5 and P6 (P1 and P3 played E1);
    # 7 seats / 2 = 3.5. Seat 1: P1 2nd, P3 won → 1/2; seat 2: P5 won, P1 2nd → 1/2; seat 3: P6, P5 → 0/2;
    # seat 4: P3 → 0/1.
    y2026 = sheet("club", year=2026, club=season.alfa)
    assert {k: y2026[k] for k in ("events", "players", "games", "new_players", "average_table")} == {
        "events": 1, "players": 4, "games": 2, "new_players": 2, "average_table": 3.5}
    assert seats(y2026["wins_by_seat"]) == {1: (1, 2), 2: (1, 2), 3: (0, 2), 4: (0, 1)}
    # Every year: 2 events, P1–P6 (6), 4 tables, 14 seats / 4 = 3.5, "new" not said; seats added.
    every = sheet("club", club=season.alfa)
    assert {k: every[k] for k in ("events", "players", "games", "new_players", "average_table")} == {
        "events": 2, "players": 6, "games": 4, "new_players": None, "average_table": 3.5}
    assert seats(every["wins_by_seat"]) == {1: (2, 4), 2: (1, 4), 3: (1, 4), 4: (0, 2)}
    # Beta 2026: the friendly E3: 3 players, all new, 1 table of 3; the shared first place is a
    # win for seat 1 (P4) and seat 2 (P5) alike.
    beta = sheet("club", year=2026, club=season.beta)
    assert {k: beta[k] for k in ("events", "players", "games", "new_players", "average_table")} == {
        "events": 1, "players": 3, "games": 1, "new_players": 3, "average_table": 3.0}
    assert seats(beta["wins_by_seat"]) == {1: (1, 1), 2: (1, 1), 3: (0, 1)}
    assert not Sheet.objects.filter(kind="club", club=season.beta, year=2025).exists()  # Beta ran nothing in 2025


# ------------------------------------------------------------------ a player's year

def test_a_player_year_by_hand(season: made_up.Season) -> None:
    p, alfa, beta = season.p, season.alfa.pk, season.beta.pk
    # P1 2025: E1, 2 games (1st, 3rd): 1 win, places 1+3 = 4 → 2.0; best: 1st of 4 in E1;
    # met P2, P3 (Alfa, their own) and P4 (Beta) → Beta.
    one = sheet("player", year=2025, player=p[1])
    assert (one["events"], one["games"], one["wins"], one["average_place"], one["clubs_met"]) == (1, 2, 1, 2.0, [beta])
    assert [(b["name"], b["position"], b["field"]) for b in one["best"]] == [("Torneo Uno", 1, 4)]
    # P1 2026: E2 (2nd, 2nd) and E3 (3rd): 2 events, 3 games, 0 wins, 2+2+3 = 7 → 7/3 = 2.33;
    # best: 2nd of 4 in E2 (P2, registered but without a game that counts, is not one of the field),
    # 3rd of 3 in E3; met P5 (Beta), P6 (no club), P3 (Alfa), P4 (Beta) → Beta.
    two = sheet("player", year=2026, player=p[1])
    assert (two["events"], two["games"], two["wins"], two["average_place"], two["clubs_met"]) == (2, 3, 0, 2.33, [beta])
    assert [(b["name"], b["position"], b["field"]) for b in two["best"]] == [("Torneo Due", 2, 4), ("Amichevole Tre", 3, 3)]
    # P1 every year: 3 events, 5 games, 1 win, 4+7 = 11 → 11/5 = 2.2; the three results, best first.
    every = sheet("player", player=p[1])
    assert (every["events"], every["games"], every["wins"], every["average_place"]) == (3, 5, 1, 2.2)
    assert [b["position"] for b in every["best"]] == [1, 2, 3]
    # P5 2026: E2 (1st, 3rd), E3 (shared 1st: a win): 2 events, 3 games, 2 wins, 1+3+1 = 5 → 1.67;
    # best 1st of 4 (E2), 2nd of 3 (E3: P4 ahead on extra points); met only Alfa's players and P4 (own).
    five = sheet("player", year=2026, player=p[5])
    assert (five["events"], five["games"], five["wins"], five["average_place"], five["clubs_met"]) == (2, 3, 2, 1.67, [alfa])
    assert [(b["position"], b["field"]) for b in five["best"]] == [(1, 4), (2, 3)]
    # P6 (no club): met Alfa (P1, P3) and Beta (P5).
    assert sheet("player", year=2026, player=p[6])["clubs_met"] == sorted([alfa, beta])
    # P2 played no game that counts in 2026 (a rehearsal, an unconfirmed table): no 2026 figures.
    assert not Sheet.objects.filter(kind="player", year=2026, player=p[2]).exists()


# ------------------------------------------------------------------ the club's own ranking

def ranking(club: object, year: int = ALL_YEARS) -> list[tuple[int, int, str, int]]:
    rows = sheet("ranking", year=year, club=club)["rows"]
    return [(r["position"], r["player"], r["points"], r["counted"]) for r in rows]


def test_a_club_ranking_by_hand(season: made_up.Season) -> None:
    p = {n: pl.pk for n, pl in season.p.items()}
    # Alfa, every event added (its default rule), every year: P1 13+12 = 25, P3 3+11 = 14, P5 13,
    # P2 12, P4 11, P6 3.
    assert ranking(season.alfa) == [(1, p[1], "25", 2), (2, p[3], "14", 2), (3, p[5], "13", 1),
                                    (4, p[2], "12", 1), (5, p[4], "11", 1), (6, p[6], "3", 1)]
    # 2026: E2 alone.
    assert ranking(season.alfa, 2026) == [(1, p[5], "13", 1), (2, p[1], "12", 1), (3, p[3], "11", 1), (4, p[6], "3", 1)]
    # Beta's friendly evening is ranked too: P4 and P5 level on 8 share the first place.
    assert ranking(season.beta, 2026) == [(1, p[4], "8", 1), (1, p[5], "8", 1), (3, p[1], "3", 1)]


def test_the_best_n_rule_by_hand(season: made_up.Season, django_capture_on_commit_callbacks) -> None:
    from tests.factories.tournaments import ClubRoleFactory, make_user

    admin = make_user("admin-alfa")
    ClubRoleFactory(club=season.alfa, user=admin, role="admin")
    with django_capture_on_commit_callbacks(execute=True):  # rebuilt at commit (in-process here)
        services.set_rule(actor=admin, club=season.alfa, rule="best", best_n=1)
    p = {n: pl.pk for n, pl in season.p.items()}
    # Best 1 event: P1 max(13, 12) = 13 and P5 13 share the first place (P1, with more events,
    # listed first); P2 12; P3 max(3, 11) = 11 and P4 11 share the fourth; P6 3.
    assert ranking(season.alfa) == [(1, p[1], "13", 1), (1, p[5], "13", 1), (3, p[2], "12", 1),
                                    (4, p[3], "11", 1), (4, p[4], "11", 1), (6, p[6], "3", 1)]
    assert selectors.rule_of(season.alfa).rule == "best"


# ------------------------------------------------------------------ recorded games

def test_the_recorded_games_by_hand(season: made_up.Season) -> None:
    # Recorded: E2's two final boards only (E1 and E3 are short forms; the rehearsal and the
    # unconfirmed table never count).
    play = sheet("play")
    assert play["games"] == 2
    # seat 1: P1 2nd, P3 won → 1/2; seat 2: P5 won, P1 2nd → 1/2; seat 3: 0/2; seat 4: 0/1.
    assert seats(play["by_seat"]) == {1: (1, 2), 2: (1, 2), 3: (0, 2), 4: (0, 1)}
    assert (play["by_seat"][0]["rate"], play["by_seat"][0]["low"], play["by_seat"][0]["high"]) == (0.5, 0.0945, 0.9055)
    # by table size: the 3-player game was won from seat 1, the 4-player game from seat 2.
    sizes = {s["size"]: (s["games"], s["expected"], seats(s["seats"])) for s in play["by_size"]}
    assert sizes == {3: (1, 0.3333, {1: (1, 1), 2: (0, 1), 3: (0, 1)}),
                     4: (1, 0.25, {1: (0, 1), 2: (1, 1), 3: (0, 1), 4: (0, 1)})}
    # by objective card: RTU-01 held twice by P1 (2nd both) → 0/2; RTU-02 by P5 (won) and P3 (won) → 2/2;
    # RTU-03, RTU-04, RTU-05 once each, never winning.
    cards = {r["objective"]: (r["n"], r["of"]) for r in play["by_objective"]}
    assert cards == {"RTU-01": (0, 2), "RTU-02": (2, 2), "RTU-03": (0, 1), "RTU-04": (0, 1), "RTU-05": (0, 1)}
    # endings: one by objective, one by sdadata → 1/2 each.
    assert {r["ending"]: (r["n"], r["of"]) for r in play["endings"]} == {"objective": (1, 2), "sdadata": (1, 2)}
    # sdadata: 3 rolls (3+4 = 7, 6+5 = 11, 1+2 = 3) in 1 game, the last ended it → 1 of 3.
    sd = play["sdadata"]
    assert (sd["rolls"], sd["games"], sd["per_game"], sd["ending"]["n"], sd["ending"]["of"]) == (3, 1, 3.0, 1, 3)
    assert sd["sums"] == [[3, 1], [7, 1], [11, 1]]
    # A club shows its own: Alfa ran E2 (the same two games), Beta none.
    assert sheet("play", club=season.alfa)["by_seat"] == play["by_seat"]
    assert sheet("play", club=season.beta)["games"] == 0


def test_a_rebuild_gives_the_same_figures(season: made_up.Season) -> None:
    def stored() -> list[tuple[object, ...]]:
        return sorted((s.kind, s.club_id or 0, s.player_id or 0, s.year, str(s.data)) for s in Sheet.objects.all())

    before = stored()
    services.recompute()
    after = stored()
    assert before == after


def test_finishing_an_event_updates_the_figures(django_capture_on_commit_callbacks) -> None:
    """The running E4 finished by its organizer: the task after the commit counts it (P2 won
    from seat 1 at a table of 3)."""
    from tests.factories.tournaments import make_user
    from tournaments.services import change_status

    s = made_up.build()
    organizer = make_user("boss", is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True):
        change_status(s.events[4], "finished", actor=organizer)
    y2026 = sheet("club", year=2026, club=s.alfa)
    # E2 + E4: 2 events, 3 tables, 7 + 3 = 10 seats → 3.33; seat 1 now 2 of 3.
    assert (y2026["events"], y2026["games"], y2026["average_table"]) == (2, 3, 3.33)
    assert seats(y2026["wins_by_seat"])[1] == (2, 3)


def test_a_game_entered_as_its_record_is_a_recorded_game(django_capture_on_commit_callbacks) -> None:
    """A referee uploads a game's record (the engine adjudicates it); once the event finishes, its
    seats, cards, sdadata rolls and ending are in the figures, as the record says."""
    from engine import Replay, parse_record, simulate
    from tests.factories.scoring import (
        ScoringPlayerFactory,
        ScoringTournamentFactory,
        enter,
        make_table,
        role,
    )
    from tests.factories.tournaments import make_user
    from tournaments.services import change_status

    record = simulate(4, "s0")  # seed "s0": four players, the game ends on a sdadata roll
    game = Replay(parse_record(record).record)
    game.run()
    ended = game.verdict()
    rolls = [e["dice"] for e in record["events"] if e["type"] == "sdadata"]
    winner = next(s["seat"] for s in ended.scores if s["place"] == 1)
    event = ScoringTournamentFactory(date=dt.date(2026, 3, 1))
    table = make_table(event, 1, ScoringPlayerFactory.create_batch(4))
    referee, boss = role(event, "referee"), make_user("boss", is_superuser=True)
    enter(table, referee, "record", {"record": record}, ended_by="", confirm_by=boss)
    with django_capture_on_commit_callbacks(execute=True):
        change_status(event, "finished", actor=boss)
    play = sheet("play")
    assert play["games"] == 1 and ended.ended_by.value == "sdadata" and len(rolls) >= 1
    assert {r["ending"]: r["n"] for r in play["endings"]} == {"sdadata": 1}
    assert (play["sdadata"]["rolls"], play["sdadata"]["ending"]["n"]) == (len(rolls), 1)
    assert {r["seat"]: r["n"] for r in play["by_seat"]} == {s: int(s == winner) for s in (1, 2, 3, 4)}
    cards = {p["objective"] for p in record["players"]}
    assert {r["objective"] for r in play["by_objective"]} == cards


def test_the_simulator_figures_are_fixed_by_their_seed(settings) -> None:
    """Played by the worker's task from a fixed seed: the same figures every time, the same
    questions as the recorded games (every table size 3–6, every seat)."""
    from clubstats import simulator, tasks

    once, again = simulator.figures(2), simulator.figures(2)
    assert once == again and once["games"] == 8  # 2 games at each of 4 table sizes
    assert [s["size"] for s in once["by_size"]] == [3, 4, 5, 6]
    assert sum(r["n"] for r in once["endings"]) == 8
    settings.CLUBSTATS_SIMULATED_GAMES = 2
    tasks.recompute_statistics(simulate=True)
    stored = selectors.simulator()
    assert stored is not None and stored.data == {**once, "seed": "clubstats", "per_size": 2, "ruleset": "RTU"}
    assert services.refresh_simulator() is False  # same seed and counts: not played again


def test_the_rebuild_command(settings) -> None:
    from io import StringIO

    from django.core.management import call_command

    settings.CLUBSTATS_SIMULATED_GAMES = 1
    made_up.build()
    out = StringIO()
    call_command("rebuild_statistics", stdout=out)
    assert "sheets stored, simulator played again" in out.getvalue()
    assert Sheet.objects.filter(kind="club").count() == 5  # Alfa 2025, 2026, every year; Beta 2026, every year
    out = StringIO()
    call_command("rebuild_statistics", stdout=out)
    assert "simulator" not in out.getvalue()  # same seed and count: kept


def test_the_results_that_count_are_scorings(django_capture_on_commit_callbacks) -> None:
    """The tables read are the ones scoring counts: where the organizer publishes unconfirmed
    results, E2's unconfirmed table 4 counts too (P2 wins from seat 1 at a table of 3); a
    correction counts once confirmed, the version before it until then."""
    from scoring.models import ResultSubmission
    from scoring.selectors import table_states
    from tournaments.models import ScoringSettings

    s = made_up.build()
    ScoringSettings.objects.create(tournament=s.events[2], publish_unconfirmed=True)
    services.recompute()
    y2026 = sheet("club", year=2026, club=s.alfa)
    # E2: 3 tables now, 7 + 3 = 10 seats → 3.33; seat 1: P1 2nd, P3 won, P2 won → 2 of 3
    assert (y2026["games"], y2026["average_table"], seats(y2026["wins_by_seat"])[1]) == (3, 3.33, (2, 3))
    # the same tables as scoring's own reader, event by event
    for event in s.events.values():
        publish = getattr(getattr(event, "scoring_settings", None), "publish_unconfirmed", False)
        theirs = sorted(st.table.pk for st in table_states(event) if st.counting(publish) is not None
                        and not st.table.game.rehearsal)
        ours = sorted(p.table for p in selectors.plays([event]))
        assert ours == theirs, event.name
    assert ResultSubmission.objects.filter(tournament=s.events[2]).count() == 4


# ------------------------------------------------------------------ the arithmetic on any season

def _plays(draw: hs.DrawFn) -> list[figures.Play]:
    out = []
    for t in range(draw(hs.integers(0, 12))):
        size = draw(hs.integers(2, 6))
        people = draw(hs.lists(hs.integers(1, 15), min_size=size, max_size=size, unique=True))
        places = draw(hs.lists(hs.integers(1, size), min_size=size, max_size=size))
        seats = tuple(figures.SeatPlay(s + 1, p, pl, p % 3 or None, f"C{p % 4}") for s, (p, pl) in
                      enumerate(zip(people, places, strict=True)))
        out.append(figures.Play(t % 3, 1, dt.date(2025 + t % 2, 1, 1), t, seats, draw(hs.booleans()),
                                draw(hs.sampled_from(["objective", "sdadata", "time"])),
                                tuple(draw(hs.lists(hs.tuples(hs.integers(1, 6), hs.integers(1, 6)), max_size=4)))))
    return out


@given(hs.composite(_plays)())
def test_the_figures_add_up_on_any_season(plays: list[figures.Play]) -> None:
    """Whatever the season: every seat taken is one table of that seat; every first place is one
    win, by seat, by player and by card alike; games and places add up across the players."""
    firsts = sum(s.place == 1 for p in plays for s in p.seats)
    club = figures.club_year(plays, 1, set())
    assert sum(w["of"] for w in club["wins_by_seat"]) == club["seats"] == sum(p.size for p in plays)
    assert sum(w["n"] for w in club["wins_by_seat"]) == firsts
    assert club["new_players"] == club["players"]
    players = figures.player_years(plays, [], {})
    assert sum(r["games"] for r in players.values()) == club["seats"]
    assert sum(r["wins"] for r in players.values()) == firsts
    assert sum(r["place_sum"] for r in players.values()) == sum(s.place for p in plays for s in p.seats)
    recorded = [p for p in plays if p.recorded]
    play = figures.play_figures(plays)
    assert play["games"] == len(recorded) == sum(r["n"] for r in play["endings"])
    assert sum(r["n"] for r in play["by_objective"]) == sum(s.place == 1 for p in recorded for s in p.seats)
    assert sum(s["games"] for s in play["by_size"]) == len(recorded)
    assert play["sdadata"]["rolls"] == sum(len(p.rolls) for p in recorded)
