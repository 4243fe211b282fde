"""The English text of the engine's coded findings: a recorded game's violations, a deal's and an
objective deck's problems.

A finding carries a message code and its parameters (:class:`engine.violations.Violation`); the
command line and the verdict's ``message`` say it with the English template below, pages say it
in their own language from the same code (the Django side keeps one sentence per code). Templates
use ``str.format`` fields named after the parameters; a parameter named ``seat``, ``turn``, ``by``
or ``loser`` is a seat number (a page may add the player's name).
"""

from __future__ import annotations

from collections.abc import Mapping

ENGLISH: Mapping[str, str] = {
    # a rule set and its overrides (engine.rulesets: FORMAT, T-SIZE)
    "ruleset.players": "rule set {ruleset} plays with {least} to {most} players, not {n}",
    "ruleset.invalid_value": "rule set parameter {name!r}: invalid value {value}",
    "ruleset.tris_kinds": "rule set parameter 'tris_values': unknown kinds {unknown}",
    "ruleset.not_a_choice": "rule set parameter {name!r}: {value} is not one of {choices}",
    "ruleset.unknown_keys": "rule set: unknown keys {keys} (expected 'base' and 'overrides')",
    "ruleset.shape": "rule set: 'base' must be a name and 'overrides' an object",
    "ruleset.type": "rule set: expected a name or an object, not {kind}",
    "ruleset.unknown": "unknown rule set {name} (known: {known})",
    "ruleset.unknown_parameter": "rule set: unknown parameter {name!r}",
    "ruleset.min_over_max": "rule set parameters 'min_players'/'max_players': min exceeds max",
    "ruleset.thresholds": "rule set parameter 'sdadata_max_threshold': below the first threshold",
    # a record's form (engine.record: FORMAT); ``where`` is the place in the record ("events[3]"),
    # ``value`` a value as JSON
    "record.unreadable": "unreadable record ({error})",
    "record.not_utf8": "not UTF-8 text: {error}",
    "record.not_json": "not JSON: {error}",
    "record.too_deep": "not JSON: {error}",
    "record.not_an_object": "a record is a JSON object, not {kind}",
    "record.format": "'format' must be {expected!r}, not {value}",
    "record.bad_ruleset": "ruleset: {message}",
    "record.ruleset_type": "'ruleset' must be a name or an object, not {value}",
    "record.bad_map": "map: {message}",
    "record.map_type": "'map' must be a map id, not {value}",
    "record.no_players": "'players' must be a non-empty list",
    "record.item_not_object": "{where} must be an object",
    "record.seat_order": "{where}: seats are listed in turn order 1..N; expected seat {expected}, not {seat}",
    "record.name_type": "{where}: 'name' must be a string",
    "record.colour_type": "{where}: 'colour' must be a string",
    "record.objective_type": "{where}: 'objective' must be a card id",
    "record.objectives_type": "'objectives' must be an object of card id → territory names",
    "record.objective_territories": "{where} must be a non-empty list of territories",
    "record.deal_type": "'deal' must be an object with a 'seed', 'owners' or both",
    "record.seed_type": "deal: 'seed' must be a string",
    "record.owners_type": "deal: 'owners' must be an object of territory → seat",
    "record.owner_seat": "{where}: seat must be 1..{players}, not {value}",
    "record.deal_empty": "deal: give the 'seed', the 'owners', or both",
    "record.events_type": "'events' must be a list",
    "record.event_type": "{where}: unknown event type {value}",
    "record.event_seat": "{where}: 'seat' must be an integer",
    "record.not_int": "{where}: '{key}' must be an integer ≥ {minimum}, not {value}",
    "record.not_dice": "{where}: '{key}' must be a list of dice values, not {value}",
    "record.territory_type": "{where}: a territory name must be a string, not {value}",
    "record.unknown_territory": "{where}: unknown territory {territory!r} on map {map!r}",
    "record.cards_type": "{where}: 'cards' must be a list of card names",
    # a recorded game as a whole (engine.replay)
    "replay.players_out_of_range": "{n} players; rule set {ruleset} plays with {least}–{most}",
    "replay.deal_disagrees": "owners disagree with the deal of seed {seed!r} on {n} territories (e.g. {examples})",
    "replay.not_dealt": "{n} territories not dealt (e.g. {examples})",
    "replay.unknown_objective": "seat {seat}'s objective {card!r} is not a known card",
    "replay.crashed": "record could not be replayed: {error}",
    # the set-up placement (D-ARMIES)
    "replay.no_starting_armies": "rule set {ruleset} has no starting armies for {n} players",
    "replay.setup_unfinished": "set-up is not finished: seat {seat} still has {n} armies to place",
    "replay.setup_out_of_turn": "set-up placement by seat {by}; it is seat {seat}'s turn to place",
    "replay.setup_too_many": "seat {seat} places {n} armies; {due} due now ({per} at a time)",
    # every event
    "replay.after_end": "the game ended at event {at} ({ended_by}); no event may follow",
    "replay.out_of_turn": "event for seat {by} during seat {seat}'s turn",
    "replay.sdadata_not_last": "the sdadata roll (event {at}) comes immediately before end_turn",
    "replay.unplaced_before_attack": "seat {seat} left {n} reinforcements unplaced before the first attack",
    "replay.unplaced_before_move": "seat {seat} left {n} reinforcements unplaced before the strategic move",
    "replay.unplaced_before_end_turn": "seat {seat} left {n} reinforcements unplaced before the end of the turn",
    "replay.unplaced_before_sdadata": "seat {seat} left {n} reinforcements unplaced before the sdadata",
    # cards and reinforcements
    "replay.tris_late": "a tris is played once, at the start of the turn, before placing",
    "replay.tris_size": "a tris is 3 cards, not {n}",
    "replay.not_a_tris": "{cards} is not a tris",
    "replay.card_not_held": "seat {seat} does not hold the card {card}",
    "replay.place_after_attack": "reinforcements placed after the first attack",
    "replay.place_foreign": "seat {seat} places on {territory}, which it does not hold",
    "replay.over_cap": "seat {seat} places {n}; only {room} more fit under {cap} armies",
    "replay.over_allowance": "seat {seat} places {n} armies; {left} left of its reinforcements",
    "replay.draw_without_conquest": "seat {seat} drew {card} without conquering a territory",
    "replay.no_draw": "seat {seat} conquered {n} and must draw one card",
    "replay.card_not_in_deck": "the card {card} is not in the deck (held or discarded)",
    "replay.hand_limit": "seat {seat} holds {n} cards; at most {limit}",
    "replay.hand_after_elimination": "seat {seat} takes seat {loser}'s cards and holds {n}; at most {limit}",
    # attacks and advances
    "replay.attack_after_move": "attack after the strategic move",
    "replay.attack_from_foreign": "seat {seat} attacks from {territory}, which it does not hold",
    "replay.attack_own": "{territory} is seat {seat}'s own territory",
    "replay.no_borders": ("map {map!r} is a scoring-only map: its borders are not in our sources, so attacks and "
                          "moves on it cannot be checked (score its final board instead)"),
    "replay.not_bordering": "{src} does not border {dst}",
    "replay.attack_one_army": "{territory} has {armies} army; an attack needs at least 2",
    "replay.attacker_dice": "attacker rolled {n} dice from {armies} armies (1 to {most})",
    "replay.defender_must_roll": "defender rolled {n} dice with {armies} armies; must roll {due}",
    "replay.defender_dice": "defender rolled {n} dice with {armies} armies (1 to {most})",
    "replay.attacker_fewer": "attacker rolled {n} dice against {against}",
    "replay.bad_roll": "a roll is 1 to 3 dice of 1 to 6, not {attacker} against {defender}",
    "replay.early_elimination": ("seat {seat} eliminated in round ≤ {round}: the last territory may not be taken "
                                 "before the end of round {round}"),
    "replay.missed_advance": "{territory} was conquered at event {at} but no advance followed",
    "replay.advance_without_conquest": "advance without a territory just conquered",
    "replay.advance_too_few": "advanced {n} armies into {territory}; at least {dice} (dice of the last roll)",
    "replay.advance_too_many": "advanced {n} armies from {territory}, which has {armies}: leave at least 1",
    "replay.advance_garrison": "the extra advance leaves {armies} on {territory}, which borders an enemy",
    # the strategic move and the sdadata
    "replay.second_move": "one strategic move per turn",
    "replay.move_foreign": "a strategic move is between two of seat {seat}'s territories ({src} → {dst})",
    "replay.move_too_many": "moved {n} of {armies} armies from {territory}: leave at least 1",
    "replay.move_garrison": "the move leaves {armies} on {territory}, which borders an enemy",
    "replay.second_sdadata": "one sdadata roll per turn",
    # a deal (engine.deal: D-DEAL, D-50)
    "deal.no_players": "cannot deal to {players} players",
    "deal.unknown_order": "unknown deal order {order!r}",
    "deal.continent_impossible": "no deal for {players} players keeps everyone within {most} of {continent}'s {n}",
    "deal.limits_impossible": "no deal for {players} players satisfies the continent limits",
    "deal.limits_unmet": "no deal satisfies the continent limits",
    "deal.not_found": "no valid deal found for {players} players in {attempts} attempts",
    "deal.unknown_territories": "the deal names unknown territories {territories}",
    "deal.unowned": "the deal leaves {n} territories without an owner: {territories}",
    "deal.bad_seats": "the deal gives territories to seats {seats}, not 1..{players}",
    "deal.wrong_count": "territories per seat do not follow the deal order: seat {seat} has {n} (should have {expected})",
    "deal.continent_share": "seat {seat} received {n} territories of {continent} (at most {most})",
    # an objective deck (engine.objectives: O-RTU, O-CLASSIC)
    "objective.deck_shape": "an objective deck is a list of cards or an object of card id → territories",
    "objective.no_id": "objective card #{n} has no id",
    "objective.id_twice": "objective {card}: the id appears twice",
    "objective.unknown_kind": "objective {card}: unknown kind {kind!r}",
    "objective.territories_not_list": "objective {card}: territories must be a list of names",
    "objective.unknown_territory": "objective {card}: unknown territory {territory!r}",
    "objective.listed_twice": "objective {card}: {territory} is listed twice",
    "objective.no_territories": "objective {card}: no territories",
    "objective.not_connected": "objective {card}: its territories are not connected",
    "objective.worth": "objective {card}: worth {points} points, not {total}",
    "objective.unknown_continent": "objective {card}: unknown continent {continent!r}",
    "objective.bad_count": "objective {card}: invalid territory count {count!r}",
}


def english(code: str, params: Mapping[str, object]) -> str:
    """The English sentence of a coded finding (the command line's and the verdict's message)."""
    return ENGLISH[code].format(**params)
