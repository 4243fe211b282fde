"""The rules engine's public face: what the apps, config and other front ends may use.

The apps import the engine only from here (``from engine import score_game``), never one of its
modules (``tests/foundation/test_layers.py``), so the modules can be split or renamed without
touching them. The engine's own modules and its command line import each other directly. Every
name below is the engine's; its module says what it does (docs/engine.md).
"""

from __future__ import annotations

from engine import exact
from engine.board import Board, load_board
from engine.closure import ClosureState, NextAction
from engine.club_formats import CLUB_FORMATS, ClubFormat
from engine.deal import deal
from engine.endings import ENTERED, Ending, FinalBoard, FinalPlayer
from engine.exact import ExactEncoderMixin, Number, decimal, number
from engine.objectives import DECK_MAPS, Objective, default_deck, load_deck
from engine.record import ParseResult, parse_record
from engine.replay import Replay
from engine.rng import SeededRng, derive_seed
from engine.rulesets import RuleSet, get_ruleset
from engine.scoring import SCORING_SYSTEMS, check_board, score_game
from engine.simulate import simulate
from engine.violations import EngineError, Violation

__all__ = [
    "CLUB_FORMATS",
    "DECK_MAPS",
    "ENTERED",
    "SCORING_SYSTEMS",
    "Board",
    "ClosureState",
    "ClubFormat",
    "Ending",
    "EngineError",
    "ExactEncoderMixin",
    "FinalBoard",
    "FinalPlayer",
    "NextAction",
    "Number",
    "Objective",
    "ParseResult",
    "Replay",
    "RuleSet",
    "SeededRng",
    "Violation",
    "check_board",
    "deal",
    "decimal",
    "default_deck",
    "derive_seed",
    "exact",  # the module: exact JSON (dumps, loads), which migrations name as engine.exact
    "get_ruleset",
    "load_board",
    "load_deck",
    "number",
    "parse_record",
    "score_game",
    "simulate",
]
