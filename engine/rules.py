"""Every rule id the engine knows (docs/rules.md), each with a one-line explanation.

Verdicts, errors and docs cite these ids; :func:`explain` gives a referee the one line behind an
id (tests check that every id the engine can cite is here and that docs/engine.md lists them all).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

RULES: Mapping[str, str] = MappingProxyType(
    {
        "FORMAT": "the record or a command's input is not well formed (bad JSON, unknown territory, event type…)",
        # board and table
        "B-MAP": "the world map: 42 territories, 82 borders, value = borders (164 in all); Napoli is scoring-only",
        "T-SIZE": "tournament tables have 4 or 5 players; the engine plays 2–6 under other rule sets",
        "T-ORDER": "play goes clockwise in seat order 1..N, seat 1 first",
        "D-DEAL": "all 42 territories are dealt at random, one at a time, in the deal order",
        "D-50": "no player receives more than half of any continent; the deal is uniform among such deals",
        "D-ARMIES": "starting armies 35/30/25/20 for 3/4/5/6 players: one per territory, then 3 at a time in turn",
        "D-CAP": "RTU: a player never has more than 100 armies on the board",
        # the turn
        "TURN-PHASES": "cards → reinforcements → attacks → one strategic move → draw, only in that order",
        "R-BASE": "reinforcements = territories ÷ 3, rounded down (no minimum)",
        "R-CONT": "plus the bonus of every continent wholly held (Asia 7, N. America 5, Europa 5, Africa 3, S. America 2, Oceania 2)",
        "R-PLUS1": "TIME_ATTACK option: +1 army every turn",
        "C-TRIS": "a tris at the start of the turn; values by rule set; +2 per card whose territory is held",
        "C-DRAW": "exactly one card at the end of a turn with a conquest; the deck is 42 cards + 2 jolly",
        "C-HAND7": "TIME_ATTACK: never more than 7 cards in hand",
        "R-PLACE": "all reinforcements go on own territories before the first attack",
        # combat
        "A-ADJ": "attack only an adjacent enemy territory",
        "A-SRC": "the attacking territory holds at least 2 armies; the attacker rolls 1..min(3, armies − 1) dice",
        "RTU-DEF-MAX": "RTU: the defender always rolls min(3, armies); CLASSIC lets it choose 1..min(3, armies)",
        "RTU-ATT-DICE": "RTU: the attacker may not roll fewer dice than the defender",
        "A-RESOLVE": "sorted dice compared pairwise, ties to the defender, each lost pair removes one army",
        "A-OCCUPY": "after a conquest move in at least the last roll's dice, leaving at least 1 behind",
        "RTU-GARRISON": "no voluntary movement leaves fewer than 2 armies on a territory bordering an enemy",
        "A-ELIM": "taking a player's last territory eliminates them (cards to the attacker); not in rounds 1–4",
        "M-MOVE": "one strategic move at the end of the turn, between adjacent own territories, leaving ≥ 1",
        "RTU-CARTA": "leaving a territory weak so an opponent can take it is legal",
        # objectives
        "O-RTU": "16 tournament cards (86 points, connected); holding the whole card in one's own turn ends the game",
        "O-CLASSIC": "classic objectives: 24 territories, 18 with 2 armies, continents, destroy a colour",
        # end of game
        "E-TIME": "the clock starts at the deal; the limit is 90 minutes",
        "E-SUPP": "when time expires the round is completed, then one supplementary round is played",
        "E-SDADATA": "the last seat of the supplementary round rolls 2 dice: ≤ 4 ends; then everyone, +1 a round up to 7",
        "E-BAR": "a player who conquered more than 2 territories in the turn does not roll the sdadata",
        # scoring
        "S-RTU": "game score: 100 for RisiKo!, else the values of the own card's territories held",
        "S-PLACE": "places by score, then extra-objective points, armies, later seat; all points add up to 164",
        "S-TOURNAMENT": "tournament points = game score + 30 / 15 / 5 for places 1–3",
        "S-M1": "CLASSIC method 1: all territories held + 50 for the objective met before time",
        "S-M2": "CLASSIC method 2: objective territories only (all territories if the objective is met)",
        "S-M3": "CLASSIC method 3: method 1 or 2 plus 1 per army on the board",
        "S-M3-M2": "the engine's id for method 3 on method 2 (+1 per army inside the objective)",
        "S-TA": "TIME_ATTACK: ends when the round of the time expiry (or the N-th deck exhaustion) ends; victory points",
        "S-MEDIO": "Medioriente: victory factor points × players ÷ 2, loss factor points × players ÷ 10",
        "S-OPEN": "club format: P × 1.25 at 5 players (× 0.75 at 3) + 50 to the sole winner",
        "S-RADUNO": "club format: P + 50 to the sole winner",
        "S-MASTER": "club format: P ÷ 1000 + 1 for the winner, 3 decimals, at most 1.100",
        "S-SPARTAC": "club format: winner 100 + P; others 100 − (winner's P − own P)",
        "S-GUFO": "club format: place bonus 12/7/5/3/2 + P ÷ 100",
        "S-BGL": "club format: place points by table size + own P ÷ table total P",
        "S-BYE": "a one-versus-one bye: a game against a ghost seat whose P the referee enters, scored as 2 players",
        # tournament level (not part of a game record)
        "K-BEST2": "a player's tournament score is the sum of their two best games",
        "K-BESTN": "counting a player's best N of M games",
        "K-ITALIANA": "cumulative format: every game counts",
        "K-KO": "direct elimination: each table's winner goes on",
        "K-KO-RCU": "club practice: two qualifying games, semifinals and finals",
        "K-TABLES": "tables of 4 or 5, random or guided by ordered priorities, reproducible from a seed",
        "K-SWISS": "Swiss tables by standings: each player within one table of their block, rematches and club-mates avoided",
        "K-KO-SE": "Sant'Eufemia: the top 16 still playing after two games in 4 semifinals, their winners in the final",
        "K-RANKING": "the national ranking contribution of an event",
    }
)


def explain(rule: str) -> str:
    """The one-line explanation of a rule id ("" for an id the engine does not know)."""
    return RULES.get(rule, "")
