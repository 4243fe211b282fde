"""The rules engine's refusals, said in the page's language.

The engine (pure Python, no Django) gives a rule id, a message code and its parameters
(:class:`engine.violations.Violation`, :class:`engine.violations.EngineError`) besides an English
message for its command line. Pages and the API say it through :func:`describe`, the one place
where those codes become sentences. A code not listed here (a new engine message) falls back to
the engine's English text, which the check of translated pages catches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from engine import ENTERED, Ending, EngineError, ParseResult, Violation

MESSAGES: Mapping[str, Any] = {
    # a rule set and its overrides (engine.rulesets: FORMAT, T-SIZE)
    "ruleset.players": _("Rule set %(ruleset)s plays with %(least)s to %(most)s players, not %(n)s."),
    "ruleset.invalid_value": _("Rule set parameter “%(name)s”: %(value)s is not a valid value."),
    "ruleset.tris_kinds": _("Rule set parameter “tris_values”: unknown kinds %(unknown)s."),
    "ruleset.not_a_choice": _("Rule set parameter “%(name)s”: %(value)s is not one of %(choices)s."),
    "ruleset.unknown_keys": _("Rule set: unknown keys %(keys)s (only “base” and “overrides”)."),
    "ruleset.shape": _("Rule set: “base” must be a name and “overrides” an object."),
    "ruleset.type": _("Rule set: a name or an object is expected, not %(kind)s."),
    "ruleset.unknown": _("Unknown rule set %(name)s (known: %(known)s)."),
    "ruleset.unknown_parameter": _("Rule set: unknown parameter “%(name)s”."),
    "ruleset.min_over_max": _("Rule set: the fewest players (min_players) exceed the most (max_players)."),
    "ruleset.thresholds": _("Rule set: the highest sdadata threshold is below the first one."),
    # a record's form (engine.record: FORMAT); "where" is a place in the record, such as events[3]
    "record.unreadable": _("The record cannot be read (%(error)s)."),
    "record.not_utf8": _("The record is not UTF-8 text."),
    "record.not_json": _("The record is not valid JSON (line %(line)s, column %(column)s)."),
    "record.too_deep": _("The record is not valid JSON: it nests too deep."),
    "record.not_an_object": _("A record is a JSON object, not %(kind)s."),
    "record.format": _("“format” must be “%(expected)s”, not %(value)s."),
    "record.bad_ruleset": _("Unknown or invalid rule set: %(value)s."),
    "record.ruleset_type": _("“ruleset” must be a name or an object, not %(value)s."),
    "record.bad_map": _("Unknown map: %(value)s."),
    "record.map_type": _("“map” must be a map id, not %(value)s."),
    "record.no_players": _("“players” must be a non-empty list."),
    "record.item_not_object": _("%(where)s must be an object."),
    "record.seat_order": _("%(where)s: the seats are listed in turn order from 1; seat %(expected)s expected, not "
                           "%(seat)s."),
    "record.name_type": _("%(where)s: “name” must be text."),
    "record.colour_type": _("%(where)s: “colour” must be text."),
    "record.objective_type": _("%(where)s: “objective” must be a card id."),
    "record.objectives_type": _("“objectives” must be an object of card id → territory names."),
    "record.objective_territories": _("%(where)s must be a non-empty list of territories."),
    "record.deal_type": _("“deal” must be an object with a “seed”, the “owners” or both."),
    "record.seed_type": _("deal: “seed” must be text."),
    "record.owners_type": _("deal: “owners” must be an object of territory → seat."),
    "record.owner_seat": _("%(where)s: the seat must be 1 to %(players)s, not %(value)s."),
    "record.deal_empty": _("deal: give the “seed”, the “owners” or both."),
    "record.events_type": _("“events” must be a list."),
    "record.event_type": _("%(where)s: unknown event type %(value)s."),
    "record.event_seat": _("%(where)s: “seat” must be a whole number."),
    "record.not_int": _("%(where)s: “%(key)s” must be a whole number of at least %(minimum)s, not %(value)s."),
    "record.not_dice": _("%(where)s: “%(key)s” must be a list of dice values, not %(value)s."),
    "record.territory_type": _("%(where)s: a territory name must be text, not %(value)s."),
    "record.unknown_territory": _("%(where)s: unknown territory “%(territory)s” on the map %(map)s."),
    "record.cards_type": _("%(where)s: “cards” must be a list of card names."),
    # closure (E-SDADATA, E-BAR, E-TIME, E-SUPP, T-ORDER)
    "closure.bad_start": _("A closure cannot start for %(players)s players at seat %(seat)s."),
    "closure.no_time_limit": _("This rule set plays without a time limit."),
    "closure.ended": _("The game has already ended."),
    "closure.already_expired": _("The time has already expired."),
    "closure.not_your_turn": _("It is seat %(turn)s's turn, not seat %(seat)s's."),
    "closure.roll_before_time": _("Seat %(seat)s rolled the sdadata but the time has not expired."),
    "closure.roll_in_supplementary": _("No sdadata roll before the end of the supplementary round (seat %(seat)s)."),
    "closure.barred": _("Seat %(seat)s conquered %(conquered)s territories and may not roll the sdadata."),
    "closure.must_roll": _("Seat %(seat)s must roll the sdadata (it ends on ≤ %(threshold)s)."),
    "closure.bad_dice": _("The sdadata is %(dice)s dice of 1 to 6, not %(roll)s."),
    # a final board (B-MAP, A-OCCUPY, D-CAP, A-ELIM, O-RTU, S-PLACE, FORMAT)
    "board.bad_ending": _("How the game ended is not valid (%(ending)s)."),
    "board.seats_twice": _("Every seat must be listed once (%(seats)s)."),
    "board.elimination_orders": _("Elimination orders must be 1 to %(n)s (given: %(orders)s)."),
    "board.unknown_territory": _("Unknown territory %(territory)s on this map."),
    "board.owned_twice": _("%(territory)s is owned twice."),
    "board.owner_not_seated": _("%(territory)s is owned by seat %(seat)s, which is not at the table."),
    "board.unowned": _("%(n)s territories have no owner: %(territories)s."),
    "board.no_armies": _("No armies given for %(territory)s."),
    "board.empty_territory": _("%(territory)s holds %(armies)s armies; every territory holds at least 1."),
    "board.armies_without_owner": _("Armies given for %(territory)s, which has no owner."),
    "board.army_cap": _("Seat %(seat)s has %(n)s armies on the board (at most %(cap)s)."),
    "board.eliminated_owns": _("Seat %(seat)s is eliminated but owns %(n)s territories."),
    "board.owns_nothing": _("Seat %(seat)s owns nothing but is not marked eliminated."),
    "board.no_card": _("Seat %(seat)s has no objective card."),
    "board.unknown_card": _("Seat %(seat)s: unknown objective card %(card)s."),
    "board.no_objective_holder": _("The game ended by objective but no seat holds its whole card on this board: "
                                   "check the winner's objective card and the owners of its territories, or "
                                   "choose another ending in “How the game ended”."),
    "board.many_objective_holders": _("Seats %(seats)s all hold their whole card: check their objective cards and "
                                      "the owners of their territories (only one player makes RisiKo!)."),
    "board.should_have_ended": _("Seat %(seat)s holds its whole card %(card)s, so they made RisiKo!: choose "
                                 "“Objective met (RisiKo!)” in “How the game ended”, or correct the owners of "
                                 "the card's territories."),
    "board.points_total": _("Objective and extra-objective points add up to %(total)s, not %(expected)s."),
    # a recorded game (engine.replay; engine.messages has the English of the command line)
    "replay.players_out_of_range": _("%(n)s players: rule set %(ruleset)s plays with %(least)s to %(most)s."),
    "replay.deal_disagrees": _("The owners disagree with the deal of seed “%(seed)s” on %(n)s territories "
                               "(e.g. %(examples)s)."),
    "replay.not_dealt": _("%(n)s territories were not dealt (e.g. %(examples)s)."),
    "replay.unknown_objective": _("Seat %(seat)s's objective “%(card)s” is not a known card."),
    "replay.crashed": _("The record could not be replayed (%(error)s)."),
    "replay.no_starting_armies": _("Rule set %(ruleset)s has no starting armies for %(n)s players."),
    "replay.setup_unfinished": _("The set-up is not finished: seat %(seat)s still has %(n)s armies to place."),
    "replay.setup_out_of_turn": _("Set-up placement by seat %(by)s, but it is seat %(seat)s's turn to place."),
    "replay.setup_too_many": _("Seat %(seat)s places %(n)s armies; %(due)s are due now (%(per)s at a time)."),
    "replay.after_end": _("The game had already ended at event %(at)s: no event may follow."),
    "replay.out_of_turn": _("An event for seat %(by)s during seat %(seat)s's turn."),
    "replay.sdadata_not_last": _("The sdadata roll (event %(at)s) must come right before the end of the turn."),
    "replay.unplaced_before_attack": _("Seat %(seat)s left %(n)s reinforcements unplaced before the first attack."),
    "replay.unplaced_before_move": _("Seat %(seat)s left %(n)s reinforcements unplaced before the strategic move."),
    "replay.unplaced_before_end_turn": _("Seat %(seat)s left %(n)s reinforcements unplaced before the end of the "
                                         "turn."),
    "replay.unplaced_before_sdadata": _("Seat %(seat)s left %(n)s reinforcements unplaced before the sdadata."),
    "replay.tris_late": _("A tris is played once, at the start of the turn, before placing."),
    "replay.tris_size": _("A tris is 3 cards, not %(n)s."),
    "replay.not_a_tris": _("%(cards)s is not a tris."),
    "replay.card_not_held": _("Seat %(seat)s does not hold the card %(card)s."),
    "replay.place_after_attack": _("Reinforcements placed after the first attack."),
    "replay.place_foreign": _("Seat %(seat)s places on %(territory)s, which it does not hold."),
    "replay.over_cap": _("Seat %(seat)s places %(n)s; only %(room)s more fit under %(cap)s armies."),
    "replay.over_allowance": _("Seat %(seat)s places %(n)s armies; %(left)s of its reinforcements are left."),
    "replay.draw_without_conquest": _("Seat %(seat)s drew %(card)s without conquering a territory."),
    "replay.no_draw": _("Seat %(seat)s conquered %(n)s territories and must draw one card."),
    "replay.card_not_in_deck": _("The card %(card)s is not in the deck (held or discarded)."),
    "replay.hand_limit": _("Seat %(seat)s holds %(n)s cards; at most %(limit)s."),
    "replay.hand_after_elimination": _("Seat %(seat)s takes the cards of seat %(loser)s and holds %(n)s; at most "
                                       "%(limit)s."),
    "replay.attack_after_move": _("An attack after the strategic move."),
    "replay.attack_from_foreign": _("Seat %(seat)s attacks from %(territory)s, which it does not hold."),
    "replay.attack_own": _("%(territory)s is seat %(seat)s's own territory."),
    "replay.no_borders": _("The map %(map)s serves only for scoring: its borders are unknown, so attacks and moves "
                           "cannot be checked (enter its final board instead)."),
    "replay.not_bordering": _("%(src)s does not border %(dst)s."),
    "replay.attack_one_army": _("%(territory)s has %(armies)s army; an attack needs at least 2."),
    "replay.attacker_dice": _("The attacker rolled %(n)s dice from %(armies)s armies (1 to %(most)s)."),
    "replay.defender_must_roll": _("The defender rolled %(n)s dice with %(armies)s armies; they must roll %(due)s."),
    "replay.defender_dice": _("The defender rolled %(n)s dice with %(armies)s armies (1 to %(most)s)."),
    "replay.attacker_fewer": _("The attacker rolled %(n)s dice against %(against)s."),
    "replay.bad_roll": _("A roll is 1 to 3 dice of 1 to 6, not %(attacker)s against %(defender)s."),
    "replay.early_elimination": _("Seat %(seat)s eliminated in round %(round)s or earlier: the last territory may "
                                  "not be taken before the end of round %(round)s."),
    "replay.missed_advance": _("%(territory)s was conquered at event %(at)s but no advance followed."),
    "replay.advance_without_conquest": _("An advance without a territory just conquered."),
    "replay.advance_too_few": _("Advanced %(n)s armies into %(territory)s; at least %(dice)s (the dice of the last "
                                "roll)."),
    "replay.advance_too_many": _("Advanced %(n)s armies from %(territory)s, which has %(armies)s: leave at least 1."),
    "replay.advance_garrison": _("The extra advance leaves %(armies)s on %(territory)s, which borders an enemy."),
    "replay.second_move": _("One strategic move per turn."),
    "replay.move_foreign": _("A strategic move is between two territories of seat %(seat)s (%(src)s → %(dst)s)."),
    "replay.move_too_many": _("Moved %(n)s of %(armies)s armies from %(territory)s: leave at least 1."),
    "replay.move_garrison": _("The move leaves %(armies)s on %(territory)s, which borders an enemy."),
    "replay.second_sdadata": _("One sdadata roll per turn."),
    # a deal (D-DEAL, D-50)
    "deal.no_players": _("Cannot deal to %(players)s players."),
    "deal.unknown_order": _("Unknown deal order “%(order)s”."),
    "deal.continent_impossible": _("No deal for %(players)s players keeps everyone within %(most)s of the %(n)s "
                                   "territories of %(continent)s."),
    "deal.limits_impossible": _("No deal for %(players)s players satisfies the continent limits."),
    "deal.limits_unmet": _("No deal satisfies the continent limits."),
    "deal.not_found": _("No valid deal found for %(players)s players in %(attempts)s attempts."),
    "deal.unknown_territories": _("The deal names unknown territories: %(territories)s."),
    "deal.unowned": _("The deal leaves %(n)s territories without an owner: %(territories)s."),
    "deal.bad_seats": _("The deal gives territories to seats %(seats)s, not 1 to %(players)s."),
    "deal.wrong_count": _("Seat %(seat)s was dealt %(n)s territories, not %(expected)s as the deal order gives."),
    "deal.continent_share": _("Seat %(seat)s received %(n)s territories of %(continent)s (at most %(most)s)."),
    # an objective deck written in a record (O-RTU, O-CLASSIC)
    "objective.deck_shape": _("An objective deck is a list of cards or an object of card id → territories."),
    "objective.no_id": _("Objective card no. %(n)s has no id."),
    "objective.id_twice": _("Objective %(card)s: the id appears twice."),
    "objective.unknown_kind": _("Objective %(card)s: unknown kind “%(kind)s”."),
    "objective.territories_not_list": _("Objective %(card)s: its territories must be a list of names."),
    "objective.unknown_territory": _("Objective %(card)s: unknown territory “%(territory)s”."),
    "objective.listed_twice": _("Objective %(card)s: %(territory)s is listed twice."),
    "objective.no_territories": _("Objective %(card)s has no territories."),
    "objective.not_connected": _("Objective %(card)s: its territories are not connected."),
    "objective.worth": _("Objective %(card)s is worth %(points)s points, not %(total)s."),
    "objective.unknown_continent": _("Objective %(card)s: unknown continent “%(continent)s”."),
    "objective.bad_count": _("Objective %(card)s: invalid territory count %(count)s."),
}


def describe(code: str, params: Mapping[str, Any], fallback: str) -> str:
    """One engine message in the active language (without the rule id)."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback
    try:
        return str(template) % {k: _said(v) for k, v in params.items()}
    except (KeyError, TypeError, ValueError):
        return fallback


def _said(value: Any) -> Any:
    """A list of names reads as "Alaska, Perù"; a roll keeps its brackets ("[6, 6]")."""
    if isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        return ", ".join(value)
    return value


def record_problems(parsed: ParseResult) -> str:
    """What is wrong with a record's form, in the active language: the first problems, then how
    many more (the command line says the same in English: ``ParseResult.summary``)."""
    text = "; ".join(describe(f.code, f.params, f.message) for f in parsed.shown)
    if parsed.more:
        text += " " + ngettext("(and %(n)s more problem)", "(and %(n)s more problems)", parsed.more) % {
            "n": parsed.more}
    return text


def violation_text(v: Violation | EngineError) -> str:
    """"RULE: sentence" — the rule id once, then the sentence in the page's language."""
    return f"{v.rule}: {describe(v.code, v.params, v.message)}"


# engine.endings.Ending: how a game ended (the one place its words are said)
ENDINGS: Mapping[str, Any] = {
    Ending.OBJECTIVE: _("Objective met (RisiKo!)"),
    Ending.SDADATA: _("Sdadata"),
    Ending.ELIMINATION: _("Elimination"),
    Ending.TIME: _("Time"),
    Ending.DECK: _("Objective deck ran out"),
    Ending.INCOMPLETE: _("Not ended"),
}

# what a referee chooses from (ResultSubmission.ended_by, the entry form, the API's ended_by)
ENDING_CHOICES = [(e.value, ENDINGS[e]) for e in ENTERED]


def ending(code: str | None) -> str:
    return str(ENDINGS.get(code, code)) if code else ""


def ending_in_sentence(code: str | None) -> str:
    """The ending inside a sentence: "La partita è finita: sdadata." (a label starts with a
    capital; mid-sentence it does not)."""
    text = ending(code)
    return text[:1].lower() + text[1:]
