"""Tournament formats as presets (docs/rules.md: club formats, K-BEST2, K-BESTN, K-TABLES, K-KO-RCU).

A preset is data: a scoring system of the engine (with its numbers, :mod:`engine.club_formats`),
which games count, the standings' tie-break chain (:data:`scoring.standings.METRICS`), the table
priorities and seeding of each round (:mod:`tables.seating`), and the phases (qualifiers, then a
K-KO-RCU knock-out with its thresholds, :data:`RCU_THRESHOLDS`). An organizer picks one, sees
every number, and changes what ``editable`` lists (:mod:`tournaments.formats.choice` checks it,
``scoring.services.apply_preset`` applies it).

Adding a format is one entry in :data:`PRESETS` (``tests/formats/test_registry.py`` then checks
that it validates, composes tables and produces standings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import CLUB_FORMATS

from .. import labels

# K-KO-RCU: largest entrant count of each step of a knock-out kind. Up to the first threshold an
# event is "small" (2, 3 or 4 semifinals by the qualifying results); above threshold i it plays
# 4·(i+1) semifinals and i+1 parallel finals (tables.knockout.rcu_plan).
RCU_THRESHOLDS: Mapping[str, tuple[int, ...]] = MappingProxyType({
    "raduno": (36, 76, 116, 156, 196),
    "master": (49, 99, 149, 199),
})
# K-KO-SE: knock-out kinds with a fixed number of semifinals whatever the entrants (Sant'Eufemia:
# the top 16 still playing, 4 semifinals, one final of their winners).
FIXED_SEMIFINALS: Mapping[str, int] = MappingProxyType({"santeufemia": 4})
KNOCKOUTS = (*RCU_THRESHOLDS, *FIXED_SEMIFINALS)

# K-TABLES: the table sizes a shape plays, as rule-set overrides (T-SIZE): a format that seats
# 2 or 3 players at a table says so, and choosing another format takes the override back. Two
# players cannot be dealt within D-50 (half of Nord America's 9 territories is 4, and 4 + 4 < 9),
# so one-versus-one deals without it, as the classic rules do.
ONE_VERSUS_ONE_DEAL: Mapping[str, Any] = MappingProxyType({"deal_max_continent_share": None})
SHAPE_PLAYERS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "fours": MappingProxyType({}),
    "threes": MappingProxyType({"min_players": 3, "max_players": 4}),
    "pairs": MappingProxyType({"min_players": 2, "max_players": 3, **ONE_VERSUS_ONE_DEAL}),
    "pairs_bye": MappingProxyType({"min_players": 2, "max_players": 2, **ONE_VERSUS_ONE_DEAL}),
})


@dataclass(frozen=True)
class RoundTables:
    """How one round's tables are composed (K-TABLES)."""

    priorities: tuple[str, ...]
    seeding: str = "random"  # "random" | "swiss" | "greca"
    by_region: bool = False  # "region_apart" compares regions (national events)


@dataclass(frozen=True)
class Preset:
    id: str
    name: Any  # lazy translation
    scoring_system: str
    method: str  # standings: "rtu" (best N of M) or "italiana" (every game counts)
    best_n: int | None  # K-BESTN: games that count; None = every game
    games_count: int
    chain: tuple[str, ...]
    rounds: Mapping[int, RoundTables]  # round number → tables; later rounds use the last given
    knockout: str = ""  # K-KO-RCU kind ("raduno" / "master"): rounds 3 and 4 are semis and finals
    ranking_class: str = ""  # K-RANKING type of the event (see ranking.formula.CLASSES)
    editable: tuple[str, ...] = ()
    notes: Any = ""
    shape: str = "fours"  # K-TABLES / K-SWISS: tables of 4/5, 4/3, pairs, pairs with a bye
    # team events (teams/, docs/teams.md): "" none; "roster" each team enters a roster and names
    # its starters each round (CNS); "club" a team is a club and every player plays
    teams: str = ""

    @property
    def ruleset_overrides(self) -> Mapping[str, Any]:
        """The rule set's table sizes this format needs (T-SIZE; none for tables of 4 and 5), and
        for one-versus-one a deal without D-50."""
        return SHAPE_PLAYERS.get(self.shape, MappingProxyType({}))

    def tables_for(self, round_number: int) -> RoundTables:
        known = [n for n in sorted(self.rounds) if n <= round_number]
        return self.rounds[known[-1] if known else min(self.rounds)]

    def as_dict(self, club_changes: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every number of the preset, as a settings page or the API shows it."""
        club = CLUB_FORMATS.get(self.scoring_system)
        if club is not None and club_changes:
            club = club.with_changes(club_changes)
        return {
            "id": self.id, "name": str(self.name), "scoring_system": self.scoring_system,
            "scoring_numbers": club.as_dict() if club is not None else {},
            "scoring_explained": labels.system(self.scoring_system),
            "method": self.method, "best_n": self.best_n, "games_count": self.games_count,
            "chain": list(self.chain),
            "chain_explained": [labels.metric(m) for m in self.chain],
            "rounds": {str(n): {"priorities": list(r.priorities), "seeding": r.seeding, "by_region": r.by_region}
                       for n, r in sorted(self.rounds.items())},
            "knockout": self.knockout,
            "knockout_thresholds": list(RCU_THRESHOLDS.get(self.knockout, ())),
            "knockout_semifinals": FIXED_SEMIFINALS.get(self.knockout),
            "shape": self.shape, "ruleset_overrides": dict(self.ruleset_overrides),
            "ranking_class": self.ranking_class,
            "editable": list(self.editable), "notes": str(self.notes), "teams": self.teams,
        }


TEAM_MODES = ("", "roster", "club")
TEAM_BEST = 9  # a team's score is the sum of its best 9 results (CNS: 12 results, 9 count)
TEAM_STARTERS = 4  # CNS: each round a team's captain names 4 starters
TEAM_ROSTER = (4, 12)  # CNS: a team enters 4 to 12 players

# what an organizer may change, per kind of number
CLUB_NUMBERS = ("win_bonus", "shared_win_bonus", "size_factor")
BEST = ("total", "extra", "armies")
# K-BEST2's tie-breaks: the chain of a tournament that chose none (``event.applied_chain``)
DEFAULT_CHAIN = BEST

# The tables when no preset names them (K-TABLES), and the one-day RTU preset's. Game 1: nobody
# has met yet, so only the clubs (and who sits at a table of 5) can cost anything. From game 2 on
# the organizer's guide's order: repeated opponents first, so everyone meets new people (with the
# 5-seats first, game 3 of a 23-player day seated 9 repeated pairs; docs/guida-organizzatore.md).
DEFAULT_ROUNDS: Mapping[int, RoundTables] = MappingProxyType({
    1: RoundTables(("repeat_five", "winners_apart", "club_apart", "repeat_opponents")),
    2: RoundTables(("repeat_opponents", "winners_apart", "club_apart", "repeat_five")),
})

PRESETS: Mapping[str, Preset] = MappingProxyType({p.id: p for p in (
    Preset(
        "rtu-one-day", _("RTU one-day (best 2 of 3)"), "S-RTU", "rtu", 2, 3, BEST,
        # from game 2 repeated opponents first, as the organizer's guide says: everyone meets new
        # people, and previous winners are kept apart next
        DEFAULT_ROUNDS,
        ranking_class="OPN", editable=("best_n", "games_count", "chain"),
        notes=_("K-BEST2: the two best of three games count; ties by extra-objective points, then armies."),
    ),
    Preset(
        "open", _("Open"), "S-OPEN", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "club_apart", "repeat_opponents"))},
        ranking_class="OPN", editable=("games_count", "chain", *CLUB_NUMBERS),
        notes=_("Every game counts (no game is dropped)."),
    ),
    Preset(
        "raduno", _("Raduno"), "S-RADUNO", "italiana", None, 4,
        ("total", "best_game", "second_best", "third_best", "rounds_in_order"),
        {1: RoundTables(("club_apart", "region_apart"), by_region=True),
         2: RoundTables(("winners_apart", "club_apart", "repeat_opponents"), seeding="greca"),
         3: RoundTables(("club_apart", "region_apart"))},
        knockout="raduno", ranking_class="RDN", editable=("chain", "win_bonus", "shared_win_bonus"),
        notes=_("Two qualifying games, then semifinals and final(s) by entrants (K-KO-RCU); finalists "
                "first by their final."),
    ),
    Preset(
        "master", _("Master"), "S-MASTER", "italiana", None, 4,
        ("total", "best_game", "second_best", "third_best", "rounds_in_order"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "winners_apart", "club_apart", "repeat_opponents")),
         3: RoundTables(("club_apart", "region_apart"))},
        knockout="master", ranking_class="MST", editable=("chain",),
        notes=_("Scores 1.xxx (at most 1.100); two qualifying games, then semifinals and final(s)."),
    ),
    Preset(
        "campionato", _("Campionato periodico"), "S-SPARTAC", "rtu", 50, 10,
        ("total", "wins", "raw_points", "raw_points_all"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "club_apart", "repeat_opponents"))},
        ranking_class="CPP", editable=("best_n", "games_count", "chain"),
        notes=_("K-BESTN: a player's best N games count (50 in the clubs' championships)."),
    ),
    Preset(
        "cni", _("CNI (national championship)"), "S-RADUNO", "italiana", None, 3, ("total", "previous_round"),
        {1: RoundTables(("club_apart", "region_apart"), by_region=True),
         2: RoundTables(("winners_apart", "club_apart", "repeat_opponents"), seeding="greca"),
         3: RoundTables(("repeat_opponents", "club_apart"))},
        ranking_class="CNI", editable=("chain",),
        notes=_("Three games; round 2 alla greca (the winner stays, 2nd moves one table on…)."),
    ),
    Preset(
        "gufo", _("Gufo"), "S-GUFO", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "club_apart", "repeat_opponents"))},
        ranking_class="OPN", editable=("games_count", "chain"),
        notes=_("S-GUFO: place bonus 12/7/5/3/2 plus P ÷ 100, kept exact to 4 decimals; every game counts."),
    ),
    Preset(
        "bgl", _("BGL"), "S-BGL", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "repeat_opponents", "club_apart"))},
        ranking_class="OPN", editable=("games_count", "chain"),
        notes=_("S-BGL: place points 100/60/40/20 (5 players 100/65/50/30/15) plus the share of the "
                "table's points; a 3-player table scores as a 4-player one with a phantom."),
    ),
    # K-SWISS: round 1 keeps clubs apart; from round 2 the standings make the tables, repeat
    # opponents then club-mates avoided within one table of each player's block.
    Preset(
        "bgl-swiss", _("BGL Svizzera"), "S-BGL", "italiana", None, 4, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_opponents", "club_apart"), seeding="swiss")},
        ranking_class="OPN", editable=("games_count", "chain"), shape="threes",
        notes=_("K-SWISS: from round 2 tables by standings (the leaders at table 1), tables of 4 and the "
                "lowest-ranked at the tables of 3; S-BGL scoring."),
    ),
    Preset(
        "1vs1", _("1vs1"), "S-BGL", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "repeat_opponents", "club_apart"))},
        editable=("games_count", "chain"), shape="pairs",
        notes=_("One against one, drawn each round; an odd count plays one table of 3. S-BGL scoring: "
                "100 to the winner, 55 to the loser, plus the share of the table's points."),
    ),
    Preset(
        "1vs1-swiss", _("1vs1 Svizzera"), "S-BGL", "italiana", None, 4, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "repeat_opponents", "club_apart"), seeding="swiss")},
        editable=("games_count", "chain"), shape="pairs_bye",
        notes=_("K-SWISS: one against one by standings from round 2; an odd count gives the lowest-ranked "
                "player without a bye yet a game against a ghost seat (S-BYE)."),
    ),
    Preset(
        "2vs2", _("2vs2"), "S-BGL", "italiana", None, 4, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "repeat_opponents", "club_apart"), seeding="swiss")},
        ranking_class="2V2", editable=("games_count", "chain"), shape="pairs_bye",
        notes=_("A pair registers as one entrant and plays one pair at a time, by standings from round 2 "
                "(K-SWISS); each pair's result is one seat, scored as 1vs1 (S-BGL)."),
    ),
    Preset(
        "victory", _("Victory"), "S-MASTER", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "club_apart", "repeat_opponents"))},
        ranking_class="OPN", editable=("games_count", "chain"),
        notes=_("Master's 1.xxx scores (at most 1.100), ranked like an Open: every game counts, any number "
                "of games."),
    ),
    Preset(
        "santeufemia", _("Sant'Eufemia"), "S-OPEN", "italiana", None, 4, ("total", "wins", "best_game"),
        {1: RoundTables(("club_apart",)),
         2: RoundTables(("repeat_five", "winners_apart", "club_apart", "repeat_opponents"), seeding="greca"),
         3: RoundTables(("club_apart", "region_apart"))},
        knockout="santeufemia", ranking_class="OPN", editable=("chain",),
        notes=_("K-KO-SE: two Open games, then the top 16 still playing in 4 semifinals (one of each band of "
                "four), their winners in the final; finalists first by their final."),
    ),
    Preset(
        "cns", _("CNS (national team championship)"), "S-GUFO", "italiana", None, 3,
        ("total", "wins", "best_game"),
        {1: RoundTables(("team_apart", "teams_meet_evenly")),
         2: RoundTables(("team_apart", "teams_meet_evenly", "repeat_opponents"))},
        ranking_class="SQD", editable=("games_count", "chain"), teams="roster",
        notes=_("Teams of 4–12 players with a captain, who names 4 starters each round; tables of 4 "
                "players of 4 different teams; every game scored S-GUFO; a team's score is its best 9 "
                "results, ties by its best result, then best 2 … best 8."),
    ),
    Preset(
        "squadre", _("Club team tournament"), "S-GUFO", "italiana", None, 3, ("total", "wins", "best_game"),
        {1: RoundTables(("team_apart", "teams_meet_evenly")),
         2: RoundTables(("team_apart", "teams_meet_evenly", "repeat_opponents"))},
        ranking_class="SQD", editable=("games_count", "chain"), teams="club",
        notes=_("A team is a club and every player of the club plays; every game scored S-GUFO; a "
                "club's score is its best 9 results."),
    ),
)})


def get(preset_id: str) -> Preset | None:
    return PRESETS.get(preset_id)


def all_presets() -> list[dict[str, Any]]:
    return [p.as_dict() for p in PRESETS.values()]

