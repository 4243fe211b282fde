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

from engine.endings import ENTERED, Ending
from engine.violations import EngineError, Violation

MESSAGES: Mapping[str, Any] = {
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
    "board.no_objective_holder": _("The game ended by objective but no seat holds its whole card."),
    "board.many_objective_holders": _("Seats %(seats)s all hold their whole card."),
    "board.should_have_ended": _("Seat %(seat)s holds its whole card %(card)s: the game should have ended by objective."),
    "board.points_total": _("Objective and extra-objective points add up to %(total)s, not %(expected)s."),
}


def describe(code: str, params: Mapping[str, Any], fallback: str) -> str:
    """One engine message in the active language (without the rule id)."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return fallback


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
