"""Scoring's codes said in the page's language: one place, like ``tables.closure.describe``.

The pure modules (``scoring.standings``, ``engine.scoring``, ``engine.club_formats``) name
things by code: a tie-break metric (``"best_game"``), the tie-break that placed a seat at its
table (``"extra_objective"``), a scoring system (``"S-GUFO"``), a result's status. Pages and the
API turn the codes into words here and nowhere else. It lives in tournaments, the lowest app that
shows them (the tournament form lists the scoring systems), so every app above can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

# scoring.standings.METRICS: what each tie-break metric of the standings means
METRICS: Mapping[str, Any] = {
    "final": _("place in the final (K-KO-RCU: finalists first)"),
    "total": _("total of the games that count"),
    "wins": _("games won"),
    "best_game": _("best single game"),
    "second_best": _("second best game"),
    "third_best": _("third best game"),
    "rounds_in_order": _("game scores in round order (round 1 first)"),
    "previous_round": _("total after the previous round (then two rounds back…)"),
    "extra": _("extra-objective points of the games that count"),
    "armies": _("armies on the board in the games that count"),
    "raw_points": _("table points (P) of the games that count"),
    "raw_points_all": _("table points (P) of every game"),
}

# engine.scoring.SeatScore.tiebreak: what decided a seat's place at its table (S-PLACE)
SEAT_TIEBREAKS: Mapping[str, Any] = {
    "extra_objective": _("extra-objective points"),
    "armies": _("armies on the board"),
    "later_seat": _("later seat in turn order"),
    "shared": _("shared place"),
    "extra_round": _("to an extra round"),
    "elimination_order": _("order of elimination"),
}

# engine.scoring.SCORING_SYSTEMS: each system in one line
SYSTEMS: Mapping[str, Any] = {
    "S-RTU": _("RTU: objective points (RisiKo! = 100) + 30/15/5 for places 1-3"),
    "S-M1": _("Method 1: all territories + 50 for the objective"),
    "S-M2": _("Method 2: objective territories (all if met)"),
    "S-M3": _("Method 3 on method 1: + 1 per army"),
    "S-M3-M2": _("Method 3 on method 2: + 1 per army in the objective"),
    "S-TA": _("Time Attack: victory points, then armies, then an extra round"),
    "S-MEDIO": _("Medioriente: victory / loss factor of one game"),
    "S-OPEN": _("Open: P × 1.25 at 5 players (the winner's at most 100; × 0.75 at 3) + 50 to the sole winner"),
    "S-RADUNO": _("Raduno / national championship (CNI): P + 50 to the sole winner"),
    "S-MASTER": _("Master: P ÷ 1000 + 1 for the winner, rounded up to 3 decimals; × 1.25 at 5 players, "
                  "at most 1.100"),
    "S-SPARTAC": _("Spartac (periodic championships): winner 100 + P (× 1.25 at 5); others 100 − (winner's P "
                   "− own P)"),
    "S-GUFO": _("Gufo: place bonus 12/7/5/3/2 + P ÷ 100 (× 1.25 at 5, × 0.75 at 3); eliminated 3/2/1/0"),
    "S-BGL": _("BGL: place points by table size (4: 100/60/40/20, 5: 100/65/50/30/15) + own P ÷ table total "
               "P; a 3-player table adds a phantom and scores as 4"),
}


# scoring.selectors.TableState.status: where a table's result stands
RESULT_STATUSES: Mapping[str, Any] = {
    "missing": _("missing"), "to_confirm": _("to confirm"), "confirmed": _("confirmed"), "disputed": _("disputed"),
}


def result_status(code: str) -> str:
    return str(RESULT_STATUSES[code])


def metric(code: str | None) -> str:
    return str(METRICS.get(code, code)) if code else ""


def seat_tiebreak(code: str | None) -> str:
    return str(SEAT_TIEBREAKS.get(code, code)) if code else ""


def system(code: str) -> str:
    return str(SYSTEMS.get(code, code))


# tournaments.models.Tournament.Format: the standings' method by name alone (how many games count
# is the tournament's own, said next to it)
METHODS: Mapping[str, Any] = {"rtu": _("RTU"), "italiana": _("All'italiana"), "knockout": _("Direct elimination")}


def tournament_format(tournament: Any) -> str:
    """"RTU · 3 partite · RTU" said for people: the method, the games, the scoring system's name
    (never the code, nor a count of games that is not this tournament's)."""
    fmt = tournament.event_format()
    games = ngettext("%(n)s game", "%(n)s games", fmt.games_count) % {"n": fmt.games_count}
    return " · ".join([str(METHODS.get(fmt.method, fmt.method)), games,
                       str(tournament.get_ruleset_display()), system_name(fmt.scoring_system)])


def system_name(code: str) -> str:
    """A scoring system's name alone ("Spartac", "RTU", "Metodo 1"): its line up to the colon,
    for the places a code would stand in a sentence."""
    return system(code).split(":", 1)[0]


# engine.club_formats.ClubFormat: the name of each number a format has
CLUB_NUMBERS: Mapping[str, Any] = {
    "size_factor": _("P multiplied by table size"),
    "win_bonus": _("Bonus to the sole winner"),
    "shared_win_bonus": _("Bonus to each winner of a shared win"),
    "cap": _("P counts at most"),
    "sole_winner_cap": _("The sole winner's P counts at most"),
    "scale": _("P scaled by"),
    "round_up_decimals": _("Rounded up to decimals"),
    "truncate_decimals": _("Share of the table cut to decimals"),
    "place_points": _("Place points by table size"),
    "eliminated_place_points": _("Place points of eliminated players"),
    "winner_base": _("Winner's base points"),
    "loser_base": _("Others' base points"),
    "winner_counts_as": _("Winner's P from … counts as"),
    "share_of_table": _("Plus the share of the table's points"),
    "phantom_at": _("Phantom seat at table size (× average P)"),
}

# what an organizer may change in a preset (tournaments.formats.Preset.editable)
EDITABLE: Mapping[str, Any] = {
    "best_n": _("Games that count"), "games_count": _("Number of games"), "chain": _("Tie-breaks"),
    **CLUB_NUMBERS,
}

SEEDINGS: Mapping[str, Any] = {
    "random": _("random draw"), "swiss": _("by standings (Swiss)"), "greca": _("alla greca"),
}

# K-TABLES / K-SWISS: the table sizes a format plays (tournaments.formats.SHAPE_PLAYERS)
SHAPES: Mapping[str, Any] = {
    "fours": _("tables of 4 (and 5)"),
    "threes": _("tables of 4, the tables of 3 a count needs last"),
    "pairs": _("one against one; an odd count plays one table of 3"),
    "pairs_bye": _("one against one; an odd count gives a bye against a ghost seat"),
}


def club_numbers(numbers: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    """(code, label, value) of every number a format sets, for the format page."""
    out = []
    for key, value in numbers.items():
        if key in ("id", "description") or value in (None, False, {}, [], ""):
            continue
        if isinstance(value, Mapping):
            value = ", ".join(f"{k}: {'/'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in value.items())
        elif isinstance(value, list):
            value = " / ".join(map(str, value))
        elif value is True:
            value = "✓"
        out.append((key, str(CLUB_NUMBERS.get(key, key)), value))
    return out
